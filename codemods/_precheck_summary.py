"""One walk of a file's `ast` tree for the second-level pre-checks (`codemods._prechecks`).

`summarize(tree)` records what occurs *inside functions* (a rule reports only there; a function's decorators,
defaults and annotations count as inside it, as `Rule.current_function` sees them), plus a few module-level facts
(imported names, module-level assigned names). Plain-Python helpers are not walked (`_plain`): every rule leaves them
alone.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional

from jaxfix.analysis.static_args import METHOD_ALL_ARGS, SHAPE_KEYWORDS, SHAPE_POSITIONS
from jaxfix.analysis.plain_python import ARRAY_ATTRIBUTES, PLAIN_ATTRIBUTES, PLAIN_BUILTINS
from jaxfix.analysis.host_data import doctest_sequence_params, documented_sequence_params

from codemods._array_inputs import ARRAY_CONVERSIONS
from codemods._list_inputs import ARRAY_ARGUMENT_METHODS, SEQUENCE_RESULTS
from codemods._python_builtins import BUILTINS as EXPRESSION_BUILTINS
from codemods.float64_request import F32_EPS, F32_MAX, WIDE, WIDE_STRINGS, precise_offset
from codemods.global_write import MUTATING_METHODS
from codemods.host_conversion import BUILTINS as CONVERSIONS
from codemods.value_dependent_shape import SIZED

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _short(func: ast.AST) -> str:
    """`asarray` for `np.asarray` or `asarray`, else ""."""
    return func.attr if func.__class__ is ast.Attribute else func.id if func.__class__ is ast.Name else ""  # type: ignore[attr-defined]

_LOOPS_FOR = (ast.For, ast.AsyncFor)
_BIT_OPS = (ast.BitAnd, ast.BitOr, ast.BitXor)
_SEQUENCES = (ast.List, ast.Tuple, ast.ListComp)


_COMBINATORICS = frozenset({"product", "combinations", "permutations", "combinations_with_replacement"})


def _mapping_entry(value: ast.AST) -> bool:
    """`E["sizes"]`, `E.get("sizes")`: an entry read with a string key, which may hold a list (JX304 converts it)."""
    if value.__class__ is ast.Call:
        func, args = value.func, value.args  # type: ignore[attr-defined]
        return func.__class__ is ast.Attribute and func.attr == "get" and 1 <= len(args) <= 2 \
            and args[0].__class__ is ast.Constant and isinstance(args[0].value, str)
    return value.__class__ is ast.Subscript and value.slice.__class__ is ast.Constant and isinstance(value.slice.value, str)


def _sequence_result(node: ast.AST) -> bool:
    """`tuple(...)`, `list(...)`, `sorted(...)`, `np.nonzero(m)`, `np.where(m)`, `json.loads(s)` (any `load`/`loads`,
    which may read a JSON array): a call that gives, or may give, a tuple or list (see JX304)."""
    if node.__class__ is not ast.Call:
        return False
    func = node.func  # type: ignore[attr-defined]
    short = func.id if func.__class__ is ast.Name else func.attr if func.__class__ is ast.Attribute else ""
    return short in ("tuple", "list", "sorted", "tolist", "load", "loads") or short in SEQUENCE_RESULTS \
        or short == "where" and len(node.args) == 1  # type: ignore[attr-defined]


def _joined_sequence(node: ast.AST) -> bool:
    """A list or tuple (`_SEQUENCES`, `_sequence_result`) joined to or repeated by something (`list(r) + extra`)."""
    while node.__class__ is ast.BinOp and node.op.__class__ in (ast.Add, ast.Mult):  # type: ignore[attr-defined]
        if _joined_sequence(node.right):  # type: ignore[attr-defined]
            return True
        node = node.left  # type: ignore[attr-defined]
    return isinstance(node, _SEQUENCES) or _sequence_result(node)


_WRITE_CALLS = ("fill", "sort", "copyto", "at")  # codemods._inplace.updates_in_functions
# walking: statement lists of compound statements; fields that never hold a node; lists that may hold non-nodes
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
_NOT_CHILDREN = frozenset({
    "ctx", "op", "ops", "id", "attr", "arg", "name", "asname", "module", "level", "kind", "type_comment",
    "conversion", "is_async", "simple",
})
_MIXED_LISTS = frozenset({ast.Dict, ast.arguments, ast.Global, ast.Nonlocal, ast.MatchClass, ast.MatchMapping})  # None or str items
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}
# short names of calls that need a closer look (any call with keywords gets one too); the rest only feed the sets
_INTERESTING = frozenset({
    *_WRITE_CALLS, *CONVERSIONS, "item", "tolist", "print", *SIZED, *MUTATING_METHODS, *SHAPE_POSITIONS,
    *METHOD_ALL_ARGS, "len",
})


@dataclass
class Summary:
    """What occurs inside functions (flags and names), and the module-level facts the checks resolve them with."""

    flags: set[str] = field(default_factory=set)
    # roots of calls `root.f(...)` / `f(...)` (NumPy names resolve from the root) inside functions
    call_roots: set[str] = field(default_factory=set)
    # calls with at least one argument and neither keywords nor stars: (root, short name) when the callee is an
    # attribute (`math.sqrt(x)` -> ("math", "sqrt")), the name when it is a Name (`max(x, 0)` -> "max")
    attr_calls: set[tuple[str, str]] = field(default_factory=set)
    plain_name_calls: set[str] = field(default_factory=set)
    # names of `f(...)` calls (a Name as the callee) with at least one argument, keywords included
    name_calls: set[str] = field(default_factory=set)
    # roots of calls given a list/tuple display, and of calls given a plain name (with that name)
    display_call_roots: set[str] = field(default_factory=set)
    name_args: set[tuple[str, str]] = field(default_factory=set)
    # {name: how many calls convert it to an array (`np.array(ub)`)}, {name: how many of them rebind it (`x =
    # np.asarray(x)`)}, and (root, name) for the other calls given a plain name: a name converted without being rebound
    # that is also given as it is may be a list there (JX304)
    conversions: dict[str, int] = field(default_factory=dict)
    rebound_conversions: dict[str, int] = field(default_factory=dict)
    unconverted_args: set[tuple[str, str]] = field(default_factory=set)
    # names a loop, `with`, walrus or an assignment other than a conversion of the name binds (`for x in [...]`,
    # `x = sorted(x)`): after a guarded `x = np.asarray(x)` such a binding may reach a read (JX304)
    otherwise_bound: set[str] = field(default_factory=set)

    def converted_elsewhere(self, name: str) -> bool:
        """Whether a call converts `name` to an array without rebinding it (`np.array(ub) - lb`), or rebinds it
        to the conversion while something else binds it too (`if not isinstance(x, np.ndarray): x = np.asarray(x)`,
        then `for x in [...]`: the loop's list may reach a read)."""
        return self.conversions.get(name, 0) > self.rebound_conversions.get(name, 0) \
            or name in self.rebound_conversions and name in self.otherwise_bound
    sequence_bound: set[str] = field(default_factory=set)  # names (and `self.x`) assigned a list/tuple display or range()
    # (iterated name, target) of loops and comprehensions over a name (`for b in blocks`), "[" for a list display or
    # comprehension of lists: an item of a list of lists is a list (JX304)
    iterated_targets: set[tuple[str, str]] = field(default_factory=set)
    returned_names: set[str] = field(default_factory=set)  # names returned, alone or as a branch of `a if c else b`
    index_names: set[str] = field(default_factory=set)  # names used as a whole index, `x[idx]`, in a function
    operand_names: set[str] = field(default_factory=set)  # names that are an operand of an arithmetic operator
    call_arg_roots: set[str] = field(default_factory=set)  # roots of calls given a call's result (`np.sum(f(x))`)
    call_arg_callees: set[str] = field(default_factory=set)  # `f` of such a call `f(x)` or `self.f(x)`
    parameters: set[str] = field(default_factory=set)  # the parameters of the functions walked (`inside`)
    # (name, `f`) for `name = f(...)` or `name = self.f(...)`: a name that may hold what a module function returns
    call_bound: set[tuple[str, str]] = field(default_factory=set)
    # assignments to plain names whose value starts with a name (`y = jnp.add(y, 1)`): (that name, target names,
    # value); JX104 reads such rebindings when the target occurs in the value
    rebinds: list[tuple[str, list[str], ast.AST]] = field(default_factory=list)
    text: str = ""
    answers: dict[str, bool] = field(default_factory=dict)  # checks shared by several rules, answered once
    stored_bases: set[str] = field(default_factory=set)  # `base` of `base[...] = v`, `base.a += v`, `del base[k]`
    mutated_receivers: set[str] = field(default_factory=set)  # `base` of `base.append(v)` and other mutators
    # module level
    imported: set[tuple[str, str]] = field(default_factory=set)  # (local name, imported module), every import
    math_locals: set[str] = field(default_factory=set)  # names bound by `from math import ...`
    module_names: set[str] = field(default_factory=set)  # module-level `NAME = ...` targets
    jit_static_functions: set[str] = field(default_factory=set)  # top-level functions with static_arg* decorators
    defined_functions: set[str] = field(default_factory=set)  # names of the functions and methods defined
    all_functions: set[str] = field(default_factory=set)  # the same with plain-Python helpers (no NumPy, no JAX)
    class_names: set[str] = field(default_factory=set)  # the classes defined (`Cls.method(...)` calls, JX304)
    # `roll = shift`: (alias, name) for a name bound to another, maybe a function of the module (JX304)
    name_aliases: set[tuple[str, str]] = field(default_factory=set)
    # the statements at module level that are not definitions or imports (a script's `__main__` block, say): walked
    # only when a check asks (`module_display_callees`)
    module_code: list[ast.stmt] = field(default_factory=list)
    display_callees: Optional[set[str]] = None  # `module_display_callees`, once asked

    def module_display_callees(self) -> set[str]:
        """The names `f` of calls `f(...)` in module-level code given a list or tuple display or a `list(...)` /
        `tuple(...)` call (`print(total([0, 1, 2]))` in a `__main__` block), or a name that module-level code binds
        to one (`data = [1.0, -2.0]`, then `norm1(data)`: pywt), by position, by keyword (`shift(pdf=[1.0, 2.0])`:
        filterpy) or in a starred display or `**` dict display, found on first use."""
        if self.display_callees is None:
            nodes = list(_nodes(self.module_code))
            bound = {t.id for node in nodes if node.__class__ is ast.Assign  # type: ignore[attr-defined]
                     and (node.value.__class__ in _SEQUENCES or _sequence_result(node.value))  # type: ignore[attr-defined]
                     for t in node.targets if t.__class__ is ast.Name}  # type: ignore[attr-defined]

            def given(a: ast.AST) -> bool:
                if a.__class__ is ast.Starred:
                    a = a.value  # type: ignore[attr-defined]
                    return a.__class__ in (ast.List, ast.Tuple) and any(given(e) for e in a.elts)  # type: ignore[attr-defined]
                if a.__class__ is ast.Dict:  # `f(**{"pdf": [1.0, 2.0]})` (a keyword's value is read as such)
                    return any(given(v) for v in a.values)  # type: ignore[attr-defined]
                return a.__class__ in _SEQUENCES or _sequence_result(a) or a.__class__ is ast.Name and a.id in bound  # type: ignore[attr-defined]

            self.display_callees = {
                node.func.id for node in nodes if node.__class__ is ast.Call  # type: ignore[attr-defined]
                and node.func.__class__ is ast.Name  # type: ignore[attr-defined]
                and any(given(a) for a in (*node.args, *(k.value for k in node.keywords)))  # type: ignore[attr-defined]
            }
        return self.display_callees

    def roots_from(self, *prefixes: str) -> set[str]:
        return {local for local, module in self.imported if module.split(".")[0] in prefixes}


def _root(node: ast.AST) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _static_arg(node: ast.AST) -> bool:
    """A number or `len(...)`: STATIC for `jaxfix.analysis.tracedness`."""
    if node.__class__ is ast.UnaryOp:
        node = node.operand
    if node.__class__ is ast.Constant:
        return True
    return node.__class__ is ast.Call and node.func.__class__ is ast.Name and node.func.id == "len"


def _has_name(node: ast.AST) -> bool:
    if node.__class__ is ast.Constant:
        return False
    if node.__class__ is ast.UnaryOp and node.operand.__class__ is ast.Constant:
        return False
    return any(isinstance(n, ast.Name) for n in ast.walk(node))


def _leftmost(node: ast.AST) -> tuple[str, bool]:
    """The name an expression's source text starts with, and whether `.at` occurs on the way to it
    (`x.at[i].set(v)` -> ("x", True)); ("", False) when it starts with a bracket, a literal or a keyword."""
    at = False
    while True:
        cls = node.__class__
        if cls is ast.Name:
            return node.id, at
        if cls is ast.Attribute:
            at = at or node.attr == "at"
            node = node.value
        elif cls is ast.Call:
            node = node.func
        elif cls is ast.Subscript:
            node = node.value
        elif cls is ast.BinOp or cls is ast.Compare:
            node = node.left
        elif cls is ast.BoolOp:
            node = node.values[0]
        elif cls is ast.IfExp:
            node = node.body
        else:
            return "", at


def _target_names(target: ast.AST) -> list[str]:
    if target.__class__ is ast.Name:
        return [target.id]
    if target.__class__ in (ast.Tuple, ast.List):
        return [n for e in target.elts for n in _target_names(e)]
    return []


def _writes_item(target: ast.AST) -> bool:
    """An assignment target that stores into a subscript (or an array property, `a.flat = v`), possibly inside
    (nested) tuple or starred targets."""
    if target.__class__ is ast.Subscript:
        return True
    if target.__class__ is ast.Attribute and target.attr in ("flat", "real", "imag", "shape"):
        return True
    if target.__class__ is ast.Starred:
        return _writes_item(target.value)
    if target.__class__ in (ast.Tuple, ast.List):
        return any(_writes_item(e) for e in target.elts)
    return False


def _maskish(index: ast.AST) -> bool:
    """Could `x[index]` be a boolean-mask read (or an undecidable one) for `jaxfix.analysis.masks`? Integer
    literals, slices, multi-axis tuples, strings and attributes are INDEX there or never reported."""
    if isinstance(index, (ast.Name, ast.Compare, ast.Call, ast.Starred)):
        return True
    if isinstance(index, ast.Constant):
        return isinstance(index.value, bool)  # `True` is a Name in LibCST
    if isinstance(index, ast.UnaryOp):
        return isinstance(index.op, ast.Invert)
    if isinstance(index, ast.BinOp):
        return isinstance(index.op, _BIT_OPS)
    if isinstance(index, ast.Tuple):
        return any(isinstance(e, ast.Starred) for e in index.elts)
    return False


class _Walker:
    """One pass over the tree: module-level statements, then every function with the handlers."""

    def __init__(self, summary: Summary) -> None:
        self.s = summary
        self.flags = summary.flags
        self.pending: list[ast.AST] = []
        self.class_docs: dict[int, str] = {}  # id of an `__init__`: its class's docstring (numpydoc documents it there)
        self.module_doc: Optional[str] = None  # (its examples may call the module's functions with lists)
        self.class_of: dict[int, str] = {}  # id of an `__init__`: its class's name (`>>> Q([1, 2])` in a doctest)

    def functions(self) -> None:
        """Walk the functions found at module and class level, except plain-Python helpers, which every rule
        leaves alone (`Rule.current_function` is None inside them; see `_plain`)."""
        array_names = frozenset({local for local, module in self.s.imported if module.split(".")[0] in ("numpy", "jax")})
        docs = [d for d in (self.module_doc, *self.class_docs.values(), *(ast.get_docstring(f) for f in self.pending))
                if d and ">>>" in d]  # type: ignore[arg-type]
        for function in self.pending if docs else ():  # `>>> shear_matrix(beta, xaxis, origin, zaxis)` in any docstring
            name, arguments = function.name, function.args  # type: ignore[attr-defined]
            positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
            names = {*positional, *(a.arg for a in arguments.kwonlyargs)}
            for doc in docs:
                if name in doc:  # type: ignore[operator]
                    self.s.sequence_bound.update(doctest_sequence_params(doc, {name}, positional, names))  # type: ignore[arg-type]
        for function in self.pending:
            if "property" not in self.flags and any(  # (JX304: `np.squeeze(sys.num)`, `num` a property giving lists)
                    (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) in ("property", "cached_property")
                    for d in function.decorator_list):  # type: ignore[attr-defined]
                self.flags.add("property")
            if not _plain(function, array_names):
                self.inside(function)
            elif "self_stored_name" not in self.flags and any(  # (JX304 reads every method's stores)
                    n.__class__ is ast.Assign and n.value.__class__ is ast.Name and any(  # type: ignore[attr-defined]
                        t.__class__ is ast.Attribute and t.value.__class__ is ast.Name and t.value.id == "self"  # type: ignore[attr-defined]
                        for t in n.targets) for n in _nodes(function.body)):  # type: ignore[attr-defined]
                self.flags.add("self_stored_name")  # `self.items = items` in a method taken for plain Python

    def module(self, tree: ast.Module) -> None:
        s = self.s
        self.module_doc = ast.get_docstring(tree)
        for stmt in tree.body:
            targets: list[ast.AST] = []
            if isinstance(stmt, ast.Assign):
                targets = stmt.targets
            elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
                targets = [stmt.target]
            s.module_names.update(t.id for t in targets if isinstance(t, ast.Name))
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name):
                s.name_aliases.update((t.id, stmt.value.id) for t in targets if isinstance(t, ast.Name))
            if isinstance(stmt, _FUNCTIONS) and any(
                isinstance(d, ast.Call) and any(k.arg in ("static_argnames", "static_argnums") for k in d.keywords)
                for d in stmt.decorator_list
            ):
                s.jit_static_functions.add(stmt.name)
        self.statements(tree.body)
        s.module_code = [stmt for stmt in tree.body if not isinstance(stmt, (*_FUNCTIONS, ast.ClassDef, ast.Import, ast.ImportFrom))]

    def statements(self, body: list) -> None:
        """Module level (outside functions): only statements can hold a function or an import, so expressions are
        not walked; compound statements are entered through their statement lists. Functions are walked after the
        module level (`functions`), once every import is known."""
        for stmt in body:
            if isinstance(stmt, _FUNCTIONS):
                self.pending.append(stmt)
                self.s.all_functions.add(stmt.name)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.import_(stmt)
            else:
                if isinstance(stmt, ast.ClassDef):
                    self.s.class_names.add(stmt.name)
                    if any((b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")) == "ndarray" for b in stmt.bases):
                        self.s.flags.add("array_subclass")  # (JX304: `layout_classes`, one defining `format`)
                    doc = ast.get_docstring(stmt)
                    self.class_docs.update({id(f): doc for f in stmt.body if doc and isinstance(f, _FUNCTIONS) and f.name == "__init__"})
                    self.class_of.update({id(f): stmt.name for f in stmt.body if isinstance(f, _FUNCTIONS) and f.name == "__init__"})
                for name in _BLOCKS:
                    block = getattr(stmt, name, None)
                    if block:
                        for item in block:
                            if isinstance(item, (ast.ExceptHandler, ast.match_case)):
                                self.statements(item.body)
                            elif isinstance(item, ast.stmt):
                                self.statements([item])

    def inside(self, function: ast.AST) -> None:
        """Every node of a function (decorators, arguments and body), with the handlers."""
        handlers = _HANDLERS
        self.s.defined_functions.add(function.name)  # type: ignore[attr-defined]
        arguments = function.args  # type: ignore[attr-defined]
        positional = [*arguments.posonlyargs, *arguments.args]
        self.s.parameters.update(a.arg for a in (*positional, *arguments.kwonlyargs))  # (JX304: `fun(x)` of a callable)
        for arg, default in [*zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults),
                             *zip(arguments.kwonlyargs, arguments.kw_defaults)]:
            if isinstance(default, _SEQUENCES):
                self.s.sequence_bound.add(arg.arg)  # `rng=(25, 75)`: a tuple, which JX304 converts where it is passed
        doc = "\n".join(d for d in (ast.get_docstring(function), self.class_docs.get(id(function))) if d)  # type: ignore[arg-type]
        if doc:  # `lengths : array-like of integers`: a list, maybe, which JX304 converts where it is passed
            names = {a.arg for a in (*positional, *arguments.kwonlyargs)}
            self.s.sequence_bound.update(documented_sequence_params(doc, names))
            callees = {function.name} | ({self.class_of[id(function)]} if id(function) in self.class_of else set())  # type: ignore[attr-defined]
            # `>>> vector_product([2, 0, 0], [0, 3, 0])`: an example passes a list
            self.s.sequence_bound.update(doctest_sequence_params(doc, callees, [a.arg for a in positional], names))
        for node in _nodes([function]):
            handler = handlers.get(node.__class__)
            if handler is not None:
                handler(self, node)

    # ---- handlers (inside functions) ----------------------------------------------------------------------------
    def import_(self, node: ast.AST) -> None:
        s = self.s
        if isinstance(node, ast.Import):
            for alias in node.names:
                s.imported.add((alias.asname or alias.name.split(".")[0], alias.name))
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                s.imported.add((alias.asname or alias.name, f"{node.module}.{alias.name}"))
                if node.module == "math":
                    s.math_locals.add(alias.asname or alias.name)

    def if_(self, node: ast.If) -> None:
        self.flags.add("if")

    def handler(self, node: ast.ExceptHandler) -> None:
        kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        if any(k is None or (k.attr if isinstance(k, ast.Attribute) else getattr(k, "id", "")) in _TYPE_ERROR_CATCHERS
               for k in kinds):
            self.flags.add("type_error_handler")  # `except Exception:`: hides `jax.numpy`'s TypeError on a list (JX304)

    def return_(self, node: ast.Return) -> None:
        self.flags.add("return")
        values = [node.value]
        while values and isinstance(values[-1], ast.IfExp):  # `return res if res else [0]`
            last = values.pop()
            values += [last.body, last.orelse]  # type: ignore[attr-defined]
        if any(_joined_sequence(v) for v in values):  # type: ignore[arg-type]
            self.flags.add("sequence_return")  # a function returning a list or tuple, maybe given to NumPy (JX304)
        joined = [v for v in values if v.__class__ is ast.BinOp]  # `return 2 * pad`, pad a list: its operands too
        while joined:
            op = joined.pop()
            for side in (op.left, op.right):  # type: ignore[attr-defined]
                (joined if side.__class__ is ast.BinOp else values).append(side)
        self.s.returned_names.update(v.id for v in values if isinstance(v, ast.Name))  # `return res`, res a list

    def ifexp(self, node: ast.IfExp) -> None:
        self.flags.add("ifexp")

    def boolop(self, node: ast.BoolOp) -> None:
        self.flags.add("boolop")

    def unary(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self.flags.add("not")

    def compare(self, node: ast.Compare) -> None:
        if len(node.ops) > 1:
            self.flags.add("chain")
        if any(o.__class__ in (ast.List, ast.Tuple) and o.elts for o in (node.left, *node.comparators)) and \
                not any(op.__class__ in (ast.Is, ast.IsNot, ast.In, ast.NotIn) for op in node.ops):
            self.flags.add("list_operand")  # `y == [1.0, 0.0]`: a JAX array raises where NumPy compares (JX304)

    def while_(self, node: ast.While) -> None:
        self.flags.add("while")

    def for_(self, node: ast.For) -> None:
        self.flags.add("for")
        self.s.otherwise_bound.update(_target_names(node.target))
        self._iterated(node.iter, node.target)
        it = node.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            self.flags.add("for_range")
            if any(_has_name(a) for a in [*it.args, *(k.value for k in it.keywords)]):
                self.flags.add("concrete")

    def comprehension(self, node: ast.comprehension) -> None:
        self._iterated(node.iter, node.target)

    def _iterated(self, it: ast.AST, target: ast.AST) -> None:
        if it.__class__ is ast.Call and it.func.__class__ is ast.Name and it.func.id == "enumerate" and it.args \
                and target.__class__ is ast.Tuple and len(target.elts) == 2:  # type: ignore[attr-defined]
            it, target = it.args[0], target.elts[1]  # type: ignore[attr-defined]
        if target.__class__ is not ast.Name:
            return
        if it.__class__ is ast.Subscript and it.value.__class__ is ast.Name and it.slice.__class__ is ast.Slice:  # type: ignore[attr-defined]
            it = it.value  # type: ignore[attr-defined]  # `for point in frontier[1:]`: items of `frontier`
        if it.__class__ is ast.Name:
            self.s.iterated_targets.add((it.id, target.id))  # type: ignore[attr-defined]
        elif it.__class__ in _SEQUENCES:
            self.s.iterated_targets.add(("[", target.id))  # type: ignore[attr-defined]

    def global_(self, node: ast.Global) -> None:
        self.flags.add("global")

    def _store(self, target: ast.AST) -> None:
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            self.s.stored_bases.add(_root(target))

    def assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._store(target)
            if _writes_item(target):
                self.flags.add("updates")
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) and _maskish(node.targets[0].slice):
            self.flags.add("masked_store")
        value = node.value
        converted = value.args[0] if value.__class__ is ast.Call and value.args and _short(value.func) in ARRAY_CONVERSIONS \
            else None  # type: ignore[attr-defined]
        if converted.__class__ is ast.Name and any(t.__class__ is ast.Name and t.id == converted.id for t in node.targets):  # type: ignore[union-attr]
            counts = self.s.rebound_conversions  # `x = np.asarray(x)`: the later reads see the array
            counts[converted.id] = counts.get(converted.id, 0) + 1  # type: ignore[union-attr]
        else:
            self.s.otherwise_bound.update(n for t in node.targets for n in _target_names(t))
        if value.__class__ is ast.Name:  # `roll = shift`: a call of `roll` may be one of a function (JX304)
            self.s.name_aliases.update((t.id, value.id) for t in node.targets if isinstance(t, ast.Name))  # type: ignore[attr-defined]
            if any(t.__class__ is ast.Attribute and t.value.__class__ is ast.Name and t.value.id == "self"  # type: ignore[attr-defined]
                   for t in node.targets):
                self.flags.add("self_stored_name")  # `self.N = N`: the attribute may hold a caller's list (JX304)
        # (`prm = rsi[1]`: an item of a sequence, maybe one; `fval = pool.map(fn, g)`: a list (JX304))
        if value.__class__ is ast.IfExp and (isinstance(value.body, _SEQUENCES) or _sequence_result(value.body)  # type: ignore[attr-defined]
                                             or isinstance(value.orelse, _SEQUENCES) or _sequence_result(value.orelse)):  # type: ignore[attr-defined]
            self.s.sequence_bound.update(t.id for t in node.targets if isinstance(t, ast.Name))  # `x = x.tolist() if a else x`
        if _joined_sequence(value) or _mapping_entry(value) or _tupleish(value) or \
                value.__class__ is ast.Call and value.func.__class__ is ast.Name and value.func.id == "range" or \
                value.__class__ is ast.Call and value.func.__class__ is ast.Attribute and value.func.attr == "map" or \
                value.__class__ is ast.Subscript and (_root(value) in self.s.sequence_bound  # (`[tuple(o) for o in
                                                      or value.value.__class__ in (ast.ListComp, ast.SetComp)):  # a][0]`)
            self.s.sequence_bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
            # `self.dims = tuple(dims)`: an attribute JX304 may know to be a sequence, read off any object
            # (`basis.knots`), as `.dims`
            self.s.sequence_bound.update("." + t.attr for t in node.targets if isinstance(t, ast.Attribute))
        if isinstance(value, ast.Call):  # `shapes = sizes(blocks)`: a list if `sizes` always returns one (JX304)
            called = value.func
            callee = called.id if isinstance(called, ast.Name) else called.attr if isinstance(called, ast.Attribute) \
                and isinstance(called.value, ast.Name) and called.value.id in ("self", "cls") else None
            if callee is not None:
                self.s.call_bound.update((t.id, callee) for t in node.targets if isinstance(t, ast.Name))
                # `values, lengths = merge(values, lengths)`: lists if `merge` returns a tuple of them
                self.s.call_bound.update((e.id, callee) for t in node.targets if isinstance(t, (ast.Tuple, ast.List))
                                         for e in t.elts if isinstance(e, ast.Name))
        unpacking = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "zip" or \
            isinstance(value, (ast.Tuple, ast.List)) and any(isinstance(e, _SEQUENCES) for e in value.elts) or \
            value.__class__ is ast.Name and value.id in self.s.sequence_bound  # type: ignore[attr-defined]
        # `ords, vals = zip(*pairs)`, `ords, vals = [], []`: lists or tuples, unpacked; `lb, ub = bounds` of a
        # documented sequence: its items may be lists or tuples
        if unpacking:
            self.s.sequence_bound.update(e.id for t in node.targets if isinstance(t, (ast.Tuple, ast.List))
                                         for e in t.elts if isinstance(e, ast.Name))
        root, at = _leftmost(node.value)
        if at:
            self.flags.add("rebind_at")
        elif root:
            names = [n for t in node.targets for n in _target_names(t)]
            if names:
                self.s.rebinds.append((root, names, node.value))

    def annassign(self, node: ast.AnnAssign) -> None:
        self._store(node.target)
        self.s.otherwise_bound.update(_target_names(node.target))
        if isinstance(node.value, _SEQUENCES) and isinstance(node.target, ast.Name):
            self.s.sequence_bound.add(node.target.id)

    def namedexpr(self, node: ast.NamedExpr) -> None:
        self.s.otherwise_bound.add(node.target.id)
        if isinstance(node.value, _SEQUENCES):
            self.s.sequence_bound.add(node.target.id)

    def augassign(self, node: ast.AugAssign) -> None:
        self.flags.add("updates")
        if _listish(node.value) or _tupleish(node.value):
            self.flags.add("list_operand")  # `g += [1.0, 2.0]` (JX304)
        self._store(node.target)
        if isinstance(node.target, ast.Subscript) and _maskish(node.target.slice):
            self.flags.add("masked_store")

    def delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._store(target)

    def subscript(self, node: ast.Subscript) -> None:
        index = node.slice
        if node.value.__class__ is ast.Attribute and node.value.attr in ("r_", "c_"):
            self.s.call_roots.add(_root(node.value))  # `np.r_[a, b]` joins like a call (JX501)
        if _maskish(index):
            self.flags.add("mask_read")
        if index.__class__ in (ast.List, ast.ListComp):
            self.flags.add("list_index")
        elif index.__class__ is ast.Name:
            self.s.index_names.add(index.id)
        elements = index.elts if index.__class__ is ast.Tuple else (index,)
        if any(e.__class__ is ast.Call and e.func.__class__ is ast.Name and e.func.id == "range" for e in elements):
            self.flags.add("list_index")  # a range among the indices
        self.s.index_names.update(e.id for e in elements if e.__class__ is ast.Name)

    def binop(self, node: ast.BinOp) -> None:
        if _listish(node.left) or _listish(node.right) or _tupleish(node.left) or _tupleish(node.right):
            self.flags.add("list_operand")  # `v * [-1.0, 1.0]`, `u + range(n)`, `[[0, 1], [1, 0]] @ a`, `w * x.shape` (JX304)
        self.s.operand_names.update(o.id for o in (node.left, node.right) if o.__class__ is ast.Name)

    def slice_(self, node: ast.Slice) -> None:
        if any(part is not None and _has_name(part) for part in (node.lower, node.upper, node.step)):
            self.flags.add("concrete")

    def constant(self, node: ast.Constant) -> None:
        value = node.value
        if type(value) is str and value in WIDE_STRINGS:
            self.flags.add("wide")
        elif type(value) is float and (F32_MAX < abs(value) < math.inf or 0 < abs(value) < F32_EPS or precise_offset(abs(value))) or \
                type(value) is int and value >= 2**32:
            self.flags.add("wide")  # a number no 32-bit type holds (JX601)

    def attribute(self, node: ast.Attribute) -> None:
        if node.attr in WIDE or node.attr == "maxsize":
            self.flags.add("wide")

    def call(self, node: ast.Call) -> None:
        s, func, args, keywords = self.s, node.func, node.args, node.keywords
        attribute = func.__class__ is ast.Attribute
        if attribute:
            short = func.attr
            owner = func.value
            root = owner.id if owner.__class__ is ast.Name else _root(owner)
        elif func.__class__ is ast.Name:
            short = root = func.id
            if args or keywords:
                s.name_calls.add(short)
        else:
            short, root = "", _root(func)
        if short == "finfo":
            self.flags.add("wide")  # `np.finfo(float)` describes float64 (JX601)
        s.call_roots.add(root)
        simple = not keywords and not (args and any(a.__class__ is ast.Starred for a in args))
        if args and simple:
            if attribute:
                s.attr_calls.add((root, short))
            elif short and not (short in EXPRESSION_BUILTINS and all(_static_arg(a) for a in args)):
                s.plain_name_calls.add(short)  # `max(len(x), 1)`: JX203 leaves builtins of static values
        if short in _INTERESTING or keywords:
            self._special_call(node, func, short, args, keywords, attribute, simple)
        if short in _COMBINATORICS:
            self.flags.add("list_operand")  # `for c in itertools.product(...)`: `ary == c` compares with a tuple (JX304)
        if short in ("atleast_1d", "atleast_2d", "atleast_3d") and any(a.__class__ is ast.Name for a in args):
            self.flags.add("atleast_name")  # `x = np.atleast_1d(x)`: a parameter converted may be a list (JX304)
        if attribute and short in ARRAY_ARGUMENT_METHODS:
            given = [*args, *(k.value for k in keywords)]
            if any(a.__class__ in _SEQUENCES for a in given):
                self.flags.add("list_operand")  # `a.dot([1, 2])`: a JAX array's method rejects the list (JX304)
            s.operand_names.update(a.id for a in given if a.__class__ is ast.Name)  # `x.take(idx)`, `idx = [0]`
        for value in args:
            cls = value.__class__
            if cls is not ast.Tuple and _tupleish(value):
                s.display_call_roots.add(root)  # `np.append(x.shape, n)`: a shape, a Python tuple (JX304)
            if cls is ast.Name:
                s.name_args.add((root, value.id))
                if short in ARRAY_CONVERSIONS and value is args[0]:
                    s.conversions[value.id] = s.conversions.get(value.id, 0) + 1
                else:
                    s.unconverted_args.add((root, value.id))
            elif cls is ast.Attribute:  # `np.prod(self.dims)`, `np.diff(basis.knots)`: as `.dims`, `.knots`
                s.name_args.add((root, "." + value.attr))
            elif cls in _SEQUENCES or _sequence_result(value) or _mapping_entry(value) or _listish(value) \
                    or cls is ast.Starred and value.value.__class__ in (ast.List, ast.Tuple, ast.ListComp):  # type: ignore[attr-defined]
                s.display_call_roots.add(root)  # (`f(*[xs, 1])`: its items are arguments)
            elif cls is ast.Starred and value.value.__class__ is ast.Name:  # type: ignore[attr-defined]
                s.name_args.add((root, value.value.id))  # `np.meshgrid(*axes)`: its items may be lists (JX304)  # type: ignore[attr-defined]
            elif cls is ast.Subscript and _root(value):
                s.name_args.add((root, _root(value)))  # `np.prod(rsi[0])`: an item of a sequence may be one (JX304)
            elif cls is ast.Call:
                s.call_arg_roots.add(root)
                called = value.func  # type: ignore[attr-defined]
                if called.__class__ is ast.Name:  # `np.sum(lengths(a, b))`, `np.sum(self.lengths())`
                    s.call_arg_callees.add(called.id)
                elif called.__class__ is ast.Attribute and called.value.__class__ is ast.Name and called.value.id in ("self", "cls"):
                    s.call_arg_callees.add(called.attr)
        for keyword in keywords:
            value = keyword.value
            if value.__class__ is ast.Name:
                s.name_args.add((root, value.id))
            elif isinstance(value, _SEQUENCES) or _listish(value) or keyword.arg is None and value.__class__ is ast.Dict:
                s.display_call_roots.add(root)  # (`f(**{"xs": [1, 2]})`: its entries are keyword arguments; `a=range(n)`)
            elif value.__class__ is ast.Subscript and _root(value):
                s.name_args.add((root, _root(value)))

    def _special_call(self, node, func, short, args, keywords, attribute, simple) -> None:
        if attribute and short in ("reshape", "astype", "copy") and any(k.arg in ("copy", "order", "subok") for k in keywords):
            self.flags.add("method_keyword")  # `psd.reshape(s, copy=False)`: JX501 drops it from a JAX array
        s, flags = self.s, self.flags
        if (short in _WRITE_CALLS and (attribute or short == "copyto")) or any(k.arg == "out" for k in keywords):
            flags.add("updates")
        if simple and (
            (short in CONVERSIONS and func.__class__ is ast.Name and len(args) == 1)
            or (short in ("item", "tolist") and attribute and not args)
        ):
            flags.add("host_conversion")
        if short == "print" and func.__class__ is ast.Name and (args or keywords):
            flags.add("print")
        if short in SIZED and (short != "where" or (len(args) == 1 and simple)):
            flags.add("sized")
        if short == "len" and func.__class__ is ast.Name and len(args) == 1:
            flags.add("len")  # `len(N)` of `N = self.N`, stored as a caller gave it: a list or an array (JX304)
        if attribute and short in MUTATING_METHODS and func.value.__class__ is ast.Name:
            s.mutated_receivers.add(func.value.id)
        if attribute and (
            short in SHAPE_POSITIONS or short in METHOD_ALL_ARGS or any(k.arg in SHAPE_KEYWORDS for k in keywords)
        ):
            if any(_has_name(a) for a in [*args, *(k.value for k in keywords)]):
                flags.add("concrete")


# what an `except` names when it catches `TypeError` (`non_array_input.TYPE_ERROR_CATCHERS`)
_TYPE_ERROR_CATCHERS = frozenset({"TypeError", "Exception", "BaseException"})
_HANDLERS: dict[type, Callable[[_Walker, ast.AST], None]] = {
    ast.If: _Walker.if_, ast.ExceptHandler: _Walker.handler, ast.Return: _Walker.return_, ast.IfExp: _Walker.ifexp, ast.BoolOp: _Walker.boolop,
    ast.UnaryOp: _Walker.unary, ast.Compare: _Walker.compare, ast.While: _Walker.while_, ast.For: _Walker.for_,
    ast.AsyncFor: _Walker.for_, ast.Global: _Walker.global_, ast.Assign: _Walker.assign,
    ast.AnnAssign: _Walker.annassign, ast.NamedExpr: _Walker.namedexpr, ast.AugAssign: _Walker.augassign,
    ast.Delete: _Walker.delete, ast.Subscript: _Walker.subscript, ast.Slice: _Walker.slice_,
    ast.Constant: _Walker.constant, ast.Attribute: _Walker.attribute, ast.Call: _Walker.call,
    ast.Import: _Walker.import_, ast.ImportFrom: _Walker.import_, ast.BinOp: _Walker.binop,
    ast.comprehension: _Walker.comprehension,
}
_LISTS = (ast.List, ast.ListComp)


def _listish(node: ast.AST) -> bool:
    """A list display or comprehension, or a `range(...)` call."""
    cls = node.__class__
    return cls in _LISTS or cls is ast.Call and node.func.__class__ is ast.Name and node.func.id == "range"


def _tupleish(node: ast.AST) -> bool:
    """A tuple display, or a shape (`x.shape`, `np.shape(x)`, `np.broadcast_shapes(...)`, `x.shape[1:]`): a tuple an
    array reads as one in an operation, and a `jax.numpy` function rejects (JX304)."""
    cls = node.__class__
    return cls is ast.Tuple and bool(node.elts) or cls is ast.Attribute and node.attr == "shape" or \
        cls is ast.Call and (node.func.__class__ is ast.Attribute and node.func.attr in _SHAPE_CALLS
                             or node.func.__class__ is ast.Name and node.func.id in _SHAPE_CALLS) or \
        cls is ast.Subscript and node.value.__class__ is ast.Attribute and node.value.attr == "shape" \
        and node.slice.__class__ is ast.Slice


_SHAPE_CALLS = frozenset({"shape", "broadcast_shapes"})


def summarize(tree: ast.Module, text: str = "") -> Summary:
    """The summary of `tree`; `text` (its source) lets a few checks read an expression's text (without it they
    answer True where they would need it)."""
    summary = Summary(text=text)
    walker = _Walker(summary)
    walker.module(tree)
    walker.functions()
    return summary


_ARRAY_WORDS = frozenset({"jit", "vmap", "grad"})


def _nodes(roots: list) -> Iterator[ast.AST]:
    """Every node under `roots` (themselves included), depth first: `ast.walk` without its per-node generator and
    without the fields that never hold a node that matters (`ctx`, operators, identifiers)."""
    stack = [root for root in roots if isinstance(root, ast.AST)]
    pop, push, extend = stack.pop, stack.append, stack.extend
    fields_of = _CHILD_FIELDS
    while stack:
        node = pop()
        yield node
        kind = node.__class__
        names = fields_of.get(kind)
        if names is None:
            names = fields_of[kind] = tuple(f for f in kind._fields if f not in _NOT_CHILDREN)
        for name in names:
            value = getattr(node, name, None)
            if value is None:
                continue
            if value.__class__ is list:
                extend([v for v in value if isinstance(v, ast.AST)] if kind in _MIXED_LISTS else value)
            elif isinstance(value, ast.AST):
                push(value)


# node class -> test of array evidence (the classes that can be evidence; any other node never is)
_ARRAY_EVIDENCE: dict[type, Callable[[Any, frozenset[str]], bool]] = {
    ast.Name: lambda node, words: node.id in words,
    ast.Attribute: lambda node, words: node.attr in words or node.attr in ARRAY_ATTRIBUTES,
    ast.BinOp: lambda node, words: node.op.__class__ is ast.MatMult,
    ast.AugAssign: lambda node, words: node.op.__class__ is ast.MatMult,
    ast.Subscript: lambda node, words: node.slice.__class__ is ast.Tuple,
    ast.arg: lambda node, words: node.arg in words,
    ast.keyword: lambda node, words: node.arg in words,
    ast.alias: lambda node, words: node.name.split(".")[0] in ("numpy", "jax")
    or bool({node.name.split(".")[0], node.asname} & words),
    ast.ImportFrom: lambda node, words: (node.module or "").split(".")[0] in ("numpy", "jax", ""),
    ast.Global: lambda node, words: bool(words.intersection(node.names)),
    ast.Nonlocal: lambda node, words: bool(words.intersection(node.names)),
    ast.ExceptHandler: lambda node, words: node.name in words,
    ast.ClassDef: lambda node, words: node.name in words,
    ast.MatchAs: lambda node, words: node.name in words,
    ast.MatchStar: lambda node, words: node.name in words,
    ast.MatchMapping: lambda node, words: node.rest in words,
}


def _array_evidence(node: ast.AST, kind: type, words: frozenset[str]) -> bool:
    check = _ARRAY_EVIDENCE.get(kind)
    return check is not None and check(node, words)


_PLAIN_KINDS = frozenset({ast.Attribute, ast.Try, ast.Call})


def _plain_evidence(node: ast.AST, kind: type) -> bool:
    if kind is ast.Attribute:
        return node.attr in PLAIN_ATTRIBUTES
    if kind is ast.Try:
        return bool(node.handlers)
    if kind is ast.Call:
        return node.func.__class__ is ast.Name and node.func.id in PLAIN_BUILTINS
    return False


def _plain(function: ast.AST, array_names: frozenset[str]) -> bool:
    """`jaxfix.analysis.plain_python.plain_python` on the `ast` tree, conservatively: array evidence is looked for
    in more places (the whole function, every identifier, any tuple index, `@=`), plain evidence in the same places
    only (decorators and body), and a function holding another function is never skipped (a nested function is
    plain only with evidence of its own)."""
    words = array_names | _ARRAY_WORDS
    plain = False
    inner_parts = [*function.decorator_list, *function.body]  # type: ignore[attr-defined]
    evidence = _ARRAY_EVIDENCE.get
    for node in _nodes(inner_parts):
        kind = node.__class__
        check = evidence(kind)
        if (check is not None and check(node, words)) or kind in _FUNCTIONS:
            return False
        if not plain and kind in _PLAIN_KINDS and _plain_evidence(node, kind):
            plain = True
    if not plain:
        return False
    outer_parts = [getattr(function, name, None) for name in function._fields if name not in ("body", "decorator_list")]
    for part in outer_parts:
        for node in _nodes(part if part.__class__ is list else [part]):
            kind = node.__class__
            if kind in _FUNCTIONS or _array_evidence(node, kind, words):
                return False
    return True
