"""Second-level pre-checks of the first-party rules, as cheap lookups in one summary of the file's `ast` tree.

`summarize(tree)` (`codemods._precheck_summary`) walks the tree once and records what occurs inside functions,
plus a few module-level facts. `CHECKS[code](summary)` then answers "may this
rule report anything on this file?" without LibCST. The engine (`jaxfix.precheck.may_apply`) asks these for
first-party rules, in addition to a rule's own `may_apply_to_tree`; `FAST` holds summary-based stand-ins for the
shared class-level checks (each at least as conservative as the function it replaces).

Every check is a necessary condition read off the rule's visitors: the node kinds a rule reports on, the names it
requires (a `range` call, `print`, a NumPy or jax.numpy root). False must mean "the rule reports nothing here"; when in
doubt a check answers True. `tests/test_precheck.py` runs every rule's examples and every fixture with and without
pre-checks and requires identical findings and output; keep a check in step with its rule when the rule changes.
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Optional

from jaxfix import source as sourcelib
from jaxfix.analysis.loops import loops_in_functions

from codemods._inplace import updates_in_functions
from codemods._precheck_summary import Summary, summarize
from codemods._python_builtins import BUILTINS as EXPRESSION_BUILTINS
from codemods.host_conversion import MATH

__all__ = ["CHECKS", "FAST", "Summary", "summarize"]


# ---- the checks, one per rule code ---------------------------------------------------------------------------


def _has(*flags: str) -> Callable[[Summary], bool]:
    """True when any of `flags` occurs inside a function."""
    wanted = frozenset(flags)
    return lambda s: not wanted.isdisjoint(s.flags)


def _array_roots(s: Summary) -> set[str]:
    return s.roots_from("numpy", "jax")


def _updates(s: Summary) -> bool:
    """JX101-JX104: an item or augmented assignment, a call that may write in place (`.fill`, `.sort`, `copyto`,
    `ufunc.at`, `out=`), or (JX104) a rebinding already made functional: `x = x.at[i].set(v)`, `x = jnp.f(x)`."""
    answer = s.answers.get("updates")
    if answer is None:
        answer = s.answers["updates"] = _updates_uncached(s)
    return answer


def _updates_uncached(s: Summary) -> bool:
    if "updates" in s.flags or "rebind_at" in s.flags:
        return True
    roots = s.roots_from("jax") | {"jnp"}
    candidates = [(names, value) for root, names, value in s.rebinds if root in roots]
    if not candidates:
        return False
    if not s.text:
        return True
    # JX104 (`mutated_argument._functional`) asks whether the name occurs in the value's source text
    lines = sourcelib.lines(s.text)  # as `ast` counts lines
    for names, value in candidates:
        segment = _segment(lines, value)
        if segment is None or any(name in segment for name in names):
            return True
    return False


def _segment(lines: list[str], node: ast.AST) -> Optional[str]:
    """The source text of `node` (positions are UTF-8 byte offsets in `ast`); None when it cannot be read."""
    try:
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined,operator]
        rows_text = lines[first : last + 1]
        if all(row.isascii() for row in rows_text):  # byte offsets are character offsets
            rows_text[-1] = rows_text[-1][: node.end_col_offset]  # type: ignore[attr-defined]
            rows_text[0] = rows_text[0][node.col_offset :]  # type: ignore[attr-defined]
            return "".join(rows_text)
        rows = [line.encode("utf-8") for line in rows_text]
        rows[-1] = rows[-1][: node.end_col_offset]  # type: ignore[attr-defined]
        rows[0] = rows[0][node.col_offset :]  # type: ignore[attr-defined]
        return b"".join(rows).decode("utf-8")
    except (AttributeError, TypeError, IndexError, UnicodeDecodeError):
        return None


# an array method given a keyword JX501 drops from JAX arrays (`psd.reshape(s, copy=False)`: `_namesakes.layout_keyword`)
METHOD_KEYWORDS = re.compile(r"\b(?:copy|order|subok)\s*=")


def method_keywords(tree: ast.Module, text: str) -> bool:
    """Whether a module importing `jax.numpy` may call an array method with a keyword JX501 drops (`copy=`, `order=`,
    `subok=`): after JX501 renamed its NumPy calls, it has no NumPy left, and the keyword is still to drop."""
    return bool(METHOD_KEYWORDS.search(text)) and "jax" in text


def _numpy_call(s: Summary) -> bool:
    """JX501: a call rooted at a NumPy name (`np.sum`, `la.norm`, `dot` from numpy) inside a function, or an
    `isinstance` test that may name `np.ndarray` (widened in a module without NumPy calls too: a JSON encoder's
    `default`, given what other modules of the run make), or an array method given a keyword to drop
    (`method_keywords`)."""
    return not s.call_roots.isdisjoint(s.roots_from("numpy")) or (
        "isinstance" in s.name_calls and (not s.text or "ndarray" in s.text)) or "method_keyword" in s.flags


def _non_array_input(s: Summary) -> bool:
    """JX304: a NumPy/jax.numpy call given a list/tuple display, or a name bound to one; or a subscript whose whole
    index is a list display or a name bound to one; or either as an operand of an operator (a comparison with a
    list or tuple display too); or a function
    of the module given one, in a function or in module-level code (its parameter may then reach a NumPy call:
    `_list_inputs.list_fed_parameters`); or a call given the result of another, or a name bound to one, where some
    function returns a list or tuple. An item of such a name (`rsi[1]`, or `prm = rsi[1]`) and a `.map(...)` result
    count as one; a name bound to a function of the module (`roll = shift`) counts as that function; a `json.loads`
    result (any `load`/`loads` call, or a module importing it under another name) counts as a list; so does a name
    unpacked from a documented sequence (`lb, ub = bounds`), and a name converted to an array (`np.array(ub)`) and
    given as it is to another call or as an operand; an attribute of any object given to a call where some
    assignment binds an attribute of that name to a list or tuple (`self.knots = tuple(k)`, then
    `np.diff(basis.knots)`); an attribute a method stores a parameter into (`self.N = N`)
    where `len()` is taken of something; a property where some function returns a list or tuple; the target of a
    loop or comprehension over such a name or a display, given to a call; a class of the module deriving from
    `np.ndarray` (it may define `format`, which `jax.numpy` reads: `layout_classes`); a handler catching `TypeError`
    (`except Exception:`) in a module with NumPy/jax.numpy calls (a parameter read in its `try` may be a list)."""
    if "array_subclass" in s.flags:
        return True  # an `np.ndarray` subclass of the module, which may define `format` (`layout_classes`)
    if "type_error_handler" in s.flags and not s.call_roots.isdisjoint(_array_roots(s)):
        return True  # `try: np.diff(x)` / `except Exception:`: a caller's list makes `jax.numpy` raise there, silently
    if "atleast_name" in s.flags:
        return True  # `x = np.atleast_1d(x)` of a parameter: NumPy's conversion takes a list, `jnp.atleast_1d` does not
    if "list_index" in s.flags or "list_operand" in s.flags or not s.index_names.isdisjoint(s.sequence_bound) \
            or not s.operand_names.isdisjoint(s.sequence_bound):
        return True
    if "self_stored_name" in s.flags and "len" in s.flags:
        return True  # `self.N = N`, then `N = self.N`, `len(N)`: the attribute may hold a caller's list
    if any(module in ("json.load", "json.loads") and local not in ("load", "loads") for local, module in s.imported):
        return True  # `from json import loads as read`: its result may be a list, under a name the summary misses
    defined = s.defined_functions | {alias for alias, name in s.name_aliases if name in s.defined_functions}  # `roll = shift`
    roots = _array_roots(s) | defined | s.class_names | {"self", "cls"}
    if not s.display_call_roots.isdisjoint(roots):
        return True
    # some function returns a list or tuple, or a name bound to one (`res = [...]`, `return res if res else [0]`)
    returns = "sequence_return" in s.flags or not s.returned_names.isdisjoint(s.sequence_bound)
    if returns and not s.call_arg_roots.isdisjoint(roots) \
            and not s.call_arg_callees.isdisjoint(s.all_functions | s.defined_functions):
        return True  # `np.sum(lengths(a, b))` of a function of the module, some function returning a tuple
    if not s.call_arg_roots.isdisjoint(_array_roots(s)) and (
            not s.call_arg_callees.isdisjoint(s.parameters) or "self_stored_name" in s.flags):
        return True  # `np.atleast_1d(fun(x))` of a callable a caller gives (a parameter, `self.fun = fun`): a list, maybe
    if "sequence_return" in s.flags and "property" in s.flags:
        return True  # `np.squeeze(sys.num)`, `num` a property returning lists (read off any object: not followed here)
    if returns:  # `shapes = sizes(blocks)`, then `np.sum(shapes)`
        functions = s.all_functions | s.defined_functions
        bound = {name for name, callee in s.call_bound if callee in functions}
        if any(root in roots and name in bound for root, name in s.name_args):
            return True
    if any(root in roots and name in s.sequence_bound for root, name in s.name_args):
        return True
    if any((iterated == "[" or iterated in s.sequence_bound) and (root, name) in s.name_args
           for iterated, name in s.iterated_targets for root in roots):
        return True  # `[np.max(b) for b in blocks]`, `blocks = [[...] for s in ...]`: each item may be a list
    if any(value.__class__ is ast.Subscript and source in s.sequence_bound and (root, name) in s.name_args
           for source, names, value in s.rebinds for name in names for root in roots):
        return True  # `best = frontier[0]`, then `tie_break(point, best)`: a row of a list of tuples (librosa)
    if any(root in roots and s.converted_elsewhere(name) for root, name in s.unconverted_args):
        return True  # `np.array(ub)`, then `np.tile(ub, ...)`: converted once, so it may be a list (pyswarms)
    if any(s.converted_elsewhere(name) for name in s.operand_names):
        return True  # `k = np.atleast_2d(x)`, then `np.ones(2) * x`: an operand converted elsewhere
    return not s.module_display_callees().isdisjoint(defined)  # `total([0, 1, 2])` in a `__main__` block


def _host_conversion(s: Summary) -> bool:
    """JX502: float()/int()/bool() of one argument, .item()/.tolist(), or a `math` function."""
    if "host_conversion" in s.flags:
        return True
    math_modules = s.roots_from("math")
    if any(root in math_modules and short in MATH for root, short in s.attr_calls):
        return True
    return not s.plain_name_calls.isdisjoint(s.math_locals)


def _traced_expression(s: Summary) -> bool:
    """JX203: a ternary, and/or, not, chained comparison, or max/min/abs/round with positional arguments only."""
    return _has("ifexp", "boolop", "not", "chain")(s) or not s.plain_name_calls.isdisjoint(EXPRESSION_BUILTINS)


def _global_write(s: Summary) -> bool:
    """JX504: a `global` statement, or a write through / mutating method call on a module-level name."""
    if "global" in s.flags:
        return True
    return not (s.stored_bases | s.mutated_receivers).isdisjoint(s.module_names)


def _static_argument(s: Summary) -> bool:
    """JX510: a slice bound, shape argument or Python-loop bound that reads a name, or a call of a same-module
    function with static arguments."""
    return "concrete" in s.flags or not s.name_calls.isdisjoint(s.jit_static_functions)


CHECKS: dict[str, Callable[[Summary], bool]] = {
    "JX101": _updates,
    "JX102": _updates,
    "JX103": _updates,
    "JX104": _updates,
    "JX201": _has("if"),
    "JX202": lambda s: {"if", "return"} <= s.flags,
    "JX203": _traced_expression,
    "JX220": _has("for_range"),
    "JX221": _has("while"),
    "JX222": _has("for"),
    "JX223": _has("for", "while"),
    "JX301": _has("masked_store"),
    "JX302": _has("mask_read"),
    "JX303": _has("mask_read", "sized"),
    "JX304": _non_array_input,
    "JX501": _numpy_call,
    "JX502": _host_conversion,
    "JX503": _has("print"),
    "JX504": _global_write,
    "JX510": _static_argument,
    "JX601": _has("wide"),
    # JX401 has none: its triggers come from project facts (functions that gain a key), already specific
}

# Summary-based stand-ins for shared class-level checks, each answering True wherever the original does (so they
# stay sound for any rule, plugins included, that uses the original). `numpy_in_functions` is a regex, cheap already.
FAST: dict[Callable, Callable[[Summary], bool]] = {
    loops_in_functions: _has("for", "while"),
    # the original misses JX104's functional rebindings (`x = jnp.where(m, 0, x)` in a function returning nothing)
    updates_in_functions: _updates,
}
