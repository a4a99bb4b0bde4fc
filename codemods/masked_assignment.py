from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods._masked import broadcast_mask
from codemods._inplace import judge, split_target
from jaxfix import walk
from jaxfix.analysis.aliases import AliasProvider, function_aliases
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import TracednessProvider  # `_inplace.judge` asks `_kept_numpy`
from jaxfix.analysis.numpy_names import NumpyNameProvider
from jaxfix.analysis.dataflow import DataflowProvider
from jaxfix.analysis.masks import FunctionFacts, Kind, MaskIndex, MaskProvider, dotted, function_facts, mask_index
from jaxfix.analysis.value_dtypes import dtype_of, keeps
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

OPERATORS = {
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**", cst.BitAndAssign: "&",
    cst.BitOrAssign: "|", cst.BitXorAssign: "^", cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>",
}
ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)


class MaskedAssignment(Rule):
    """
    ## What it does
    Rewrites assignments through a boolean mask, `x[m] = v` and `x[m] OP= v` (`x[x < 0] = 0`, `x[np.isnan(x)] = 0`,
    `X[m] = 0` with a 1-D row mask of a 2-D array), into `x = jnp.where(m, v, x)` and `x = jnp.where(m, x OP v, x)`.

    ## Why is this bad?
    JAX arrays are immutable, and `x.at[m].set(v)` with a traced boolean mask raises `NonConcreteBooleanIndexError`
    under `jit`: the number of selected elements depends on values. `jnp.where` keeps the full shape.

    ## Example
    ```python
    def relu(x):
        y = x.astype(np.float32)
        y[y < 0] = 0.0
        return y
    ```

    ## Use instead
    ```python
    def relu(x):
        y = x.astype(np.float32)
        y = jnp.where(y < 0, 0.0, y)
        return y
    ```

    (With `y = x.copy()` the dtype of `y` is unknown, and the value is cast: `jnp.asarray(0.0, y.dtype)`.)

    ## Fix safety
    Safe when the written array is private to the function (a fresh array, never aliased or viewed), the mask
    provably has the array's shape (computed elementwise from it) or is a 1-D row mask of an array of known rank, and
    the value is a scalar, `y[m]` with the same mask, or arithmetic on those. Unsafe, with the reason in the message,
    when the array is a parameter (the caller's array is no longer modified) or may be aliased, when the mask's shape
    is unproven, or when the value's shape is unknown (one value per selected element would be wrong in `where`).
    A value with the compressed size of the mask (`x[m] = v[:m.sum()]`) is reported without a fix.

    NumPy casts what it stores to the array's dtype (`x[m] = 0.5` stores 0 into ints, `flags[m] = 0` keeps bools);
    `jnp.where` promotes. So the value is cast, `jnp.where(m, jnp.asarray(v, x.dtype), x)`, unless the dtype provably
    stays (`jaxfix.analysis.value_dtypes`): a bool, a Python int into an array known to be int or float (`np.arange`,
    `dtype=np.int32`), a Python float into one known to be floating (`np.zeros`, `astype(np.float32)`, `x * 1.0`),
    a value computed elementwise from the array itself (`-y`, `y * 0.5` for floating `y`). An augmented
    `x[m] OP= v` computes `x OP v` and NumPy casts back with same-kind casting: a Python scalar either keeps the
    dtype or makes NumPy raise (`ints[m] += 0.5`), so it stays plain; an array of unknown dtype is cast back,
    `jnp.where(m, (x + v).astype(x.dtype), x)` (NumPy stores int64 sums into an int32 array).

    ## Known problems
    An index whose dtype is unknown
    (`x[idx] = 0` with a parameter `idx`) is reported, not rewritten: annotate it (`idx: NDArray[np.bool_]`).
    """

    CODE = "JX301"
    KEEPS_ARRAYS_NUMPY = True  # see Rule.KEEPS_ARRAYS_NUMPY
    SUMMARY = "assignment through a boolean mask; use jnp.where"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, DataflowProvider, AliasProvider,
                             NumpyNameProvider, ParentProvider, TracednessProvider)
    ORDER = 30
    TRIGGERS = (b"numpy", b"jax")

    VALID = [
        Valid("import numpy as np\ndef f(x, i: int):\n    y = x.copy()\n    y[i] = 0.0\n    return y\n"),
        Valid("import numpy as np\ndef f(x):\n    y = x.copy()\n    y[1:3] = 0.0\n    return y\n"),
        Valid("import numpy as np\nX = np.zeros(3)\nX[X < 1] = 2.0\n"),
    ]
    INVALID = [
        Invalid(
            "import numpy as np\n\ndef relu(x):\n    y = x.copy()\n    y[y < 0] = 0.0  # clamp\n    return y\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef relu(x):\n    y = x.copy()\n"
            "    y = jnp.where(y < 0, jnp.asarray(0.0, y.dtype), y)  # clamp\n    return y\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(x, t: float):\n    y = np.array(x)\n    y[y > t] -= t\n    return y\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, t: float):\n    y = np.array(x)\n"
            "    y = jnp.where(y > t, y - t, y)\n    return y\n",
        ),
        Invalid("import numpy as np\n\ndef f(x):\n    x[np.isnan(x)] = 0.0\n", lines=[4], unsafe=True,
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    x = jnp.where(np.isnan(x), jnp.asarray(0.0, x.dtype), x)\n"),
        Invalid("import numpy as np\n\ndef f(x, v):\n    y = x * 1.0\n    y[y > 0] = v[: (y > 0).sum()]\n    return y\n",
                lines=[5]),
        Invalid("import numpy as np\n\ndef f(x, idx):\n    y = x + 0.0\n    y[idx] = 0.0\n    return y\n", lines=[5]),
        Invalid(  # JX501 keeps `d` NumPy (it goes to `scipy.sparse`): `jnp.where` would make it a JAX array (spafe)
            "import numpy as np\nimport scipy.sparse as sp\n\ndef f(a, n):\n    d = np.ones(n) * a\n    d[d < 0] = 0.0\n"
            "    return sp.diags(d)\n",
            expected=None, lines=[6]),
    ]

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        fn = self.current_function
        if fn is None or len(node.body) != 1:
            return
        small = node.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target, value, op = small.targets[0].target, small.value, None
        elif isinstance(small, cst.AugAssign) and type(small.operator) in OPERATORS:
            target, value, op = small.target, small.value, OPERATORS[type(small.operator)]
        else:
            return
        if not isinstance(target, cst.Subscript):
            return
        info = mask_index(self, target)
        if info is None or info.kind is Kind.INDEX:
            return
        facts = function_facts(self, fn)
        index = self.code(info.mask)
        if info.kind is Kind.UNKNOWN:
            if isinstance(info.mask, cst.Name) and info.mask.value in facts.params:
                self.report(node, f"cannot tell whether `{index}` is a boolean mask: if it is, this assignment fails "
                            "under `jit`; annotate it as a bool array so that jaxfix can use `jnp.where`")
            return
        array = target.value
        if not isinstance(array, cst.Name) or (array.value not in facts.params and array.value not in facts.bindings):
            self.report(node, f"assignment through the boolean mask `{index}` into `{self.code(array)}`, which is not a "
                        "local name: `jnp.where` would have to rebind it; rewrite by hand", blocks_function=True)
            return
        x = array.value
        new_value, problem = self._value(value, info, facts)
        if new_value is None:
            self.report(node, f"`{self.code(target)} = {self.code(value)}`: {problem}; under `jit` use "
                        f"`jnp.where` with a value of the full shape of `{x}` (no safe rewrite exists)", blocks_function=True)
            return
        visible, blocker = self._caller_visible(node, target, x, facts)
        if blocker is not None:
            self.report(node, f"assignment through the boolean mask `{index}` fails under `jit`, and `jnp.where` "
                        f"cannot replace it: {blocker}", blocks_function=True)
            return
        mask, assumption = broadcast_mask(self, info)
        reasons = [r for r in (assumption, problem, *visible) if r]
        new_value, cast = self._cast(x, value, new_value, info, op, facts)
        replacement = f"{x} = {self.jnp}.where({mask}, {new_value}, {x})"
        message = f"assignment through the boolean mask `{index}` fails under `jit`"
        if cast:
            message += f" (the value is cast to the dtype of `{x}`, as NumPy's assignment does: `jnp.where` would promote)"
        if reasons:
            message += "; the `jnp.where` rewrite is unsafe: " + "; ".join(reasons)
        new_line = self.statements(replacement + "\n")[0]
        assert isinstance(new_line, cst.SimpleStatementLine)
        # only the small statement changes: comments stay, and the span is the same as JX101's for the same line
        self.report(node, message, changes={small: new_line.body[0]}, unsafe=bool(reasons), blocks_function=bool(reasons),
                    title=f"replace with `{replacement}`", imports=("jnp",))

    def _cast(self, x: str, value: cst.BaseExpression, text: str, info: MaskIndex, op: Optional[str],
              facts: FunctionFacts) -> tuple[str, bool]:
        """The value for `jnp.where`, cast to the dtype of `x` unless that provably changes nothing, and whether it
        was. NumPy casts what it stores to `x.dtype` (`x[m] = 0.5` stores 0 into ints); `jnp.where` promotes. An
        augmented `x[m] OP= v` computes `x OP v` and casts back with same-kind casting, so a Python scalar `v` can
        only keep the dtype or make NumPy raise; a wider array `v` (int64 into int32) is cast down silently."""
        array = dtype_of(facts, cst.Name(x))
        stored = dtype_of(facts, value.visit(_SameMaskRead(self, self.code(info.mask))))  # type: ignore[arg-type]
        if op is None:
            if keeps(array, stored):
                return text, False
            return f"{self.jnp}.asarray({text}, {x}.dtype)", True
        combined = f"{x} {op} {text if _binds_tighter(value, op) else f'({text})'}"
        if stored.weak or keeps(array, stored):
            return combined, False
        return f"({combined}).astype({x}.dtype)", True

    def _value(self, value: cst.BaseExpression, info: MaskIndex, facts: FunctionFacts) -> tuple[Optional[str], Optional[str]]:
        """The value with `y[m]` read as `y`, and why it may be wrong (or None and why it is wrong)."""
        mask = self.code(info.mask)
        compressed = _compressed(self, value, mask, facts)
        if compressed:
            return None, compressed
        unknown: list[str] = []
        text = self._strip(value, mask, facts, unknown)
        if info.same_rank:  # names the mask compares with the array broadcast against it in NumPy already
            unknown = [u for u in unknown if u not in facts.mask_operands(info.mask)]
        if unknown:
            return text, (f"the shape of `{unknown[0]}` is unknown: if it holds one value per selected element, "
                          "`jnp.where` would misplace them")
        return text, None

    def _strip(self, node: cst.BaseExpression, mask: str, facts: FunctionFacts, unknown: list[str]) -> str:
        _check_leaves(self, node, mask, facts, unknown)
        return self.code(node.visit(_SameMaskRead(self, mask)))  # type: ignore[arg-type]

    def _caller_visible(self, stmt: cst.SimpleStatementLine, target: cst.Subscript, x: str,
                        facts: FunctionFacts) -> tuple[list[str], Optional[str]]:
        """Why rebinding `x` instead of writing in place may be visible elsewhere (unsafe), and what forbids it (no
        fix): the alias verdict of the in-place rules (JX1xx), so both families judge aliasing the same way."""
        split, why = split_target(self, stmt, target)
        if split is None:
            return [], why or f"`{self.code(target.value)}` is not a local array"
        verdict = judge(self, stmt, split)
        if not verdict.skip:
            return verdict.reasons, verdict.blocker
        # judge() skips names it has no array evidence for; a boolean-mask write is such evidence, so decide here
        aliases = function_aliases(self, self.current_function)  # type: ignore[arg-type]
        objects = aliases.objects(stmt, x) if aliases is not None else frozenset({("unknown", x)})
        kinds = {kind for kind, _ in objects}
        if "global" in kinds:
            return [], f"`{x}` is not defined in this function: a rebinding would make it local"
        params = sorted(str(o[1]) for o in objects if o[0] == "param")
        if params and params != [x]:
            return [], f"`{x}` may be a view or alias of parameter `{params[0]}`, whose caller sees NumPy's update"
        reasons = []
        if params:
            reasons.append(f"`{x}` is a parameter: the caller's array is modified in place, the rewrite leaves it unchanged")
        if "unknown" in kinds:
            reasons.append(f"`{x}` comes from code jaxfix cannot see into, so it may share memory with another array")
        return reasons, None


PRECEDENCE = {"**": 7, "*": 6, "/": 6, "//": 6, "%": 6, "@": 6, "+": 5, "-": 5, "<<": 4, ">>": 4, "&": 3, "^": 2, "|": 1}


def _binds_tighter(value: cst.BaseExpression, op: str) -> bool:
    """`x OP value` needs no parentheses around `value` (kept when equal precedence: float `+` is not associative)."""
    if isinstance(value, ATOMS) or value.lpar:
        return True
    if isinstance(value, cst.UnaryOperation):
        return op != "**"
    if isinstance(value, cst.BinaryOperation):
        text = cst.Module([]).code_for_node(value.operator).strip()
        return PRECEDENCE.get(text, 0) > PRECEDENCE[op]
    return False


def _check_leaves(rule: Rule, node: cst.BaseExpression, mask: str, facts: FunctionFacts, unknown: list[str]) -> None:
    """Collect the parts of a value whose shape is unknown (scalars and `y[m]` reads with the same mask are known)."""
    if isinstance(node, cst.Subscript):
        inner = mask_index(rule, node)
        if inner is not None and inner.kind is Kind.MASK and rule.code(inner.mask) == mask:
            return
    if facts.is_scalar(node):
        return
    operands = _operands(node)
    if operands and (not isinstance(node, cst.Call) or facts.array_function(node.func)):
        for child in operands:
            _check_leaves(rule, child, mask, facts, unknown)
        return
    unknown.append(rule.code(node))


class _SameMaskRead(cst.CSTTransformer):
    """`y[m]` -> `y` for reads with the assignment's own mask."""

    def __init__(self, rule: Rule, mask: str) -> None:
        super().__init__()
        self.rule, self.mask = rule, mask

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        inner = mask_index(self.rule, original)
        if inner is not None and inner.kind is Kind.MASK and self.rule.code(inner.mask) == self.mask:
            return updated.value.with_changes(lpar=[*updated.lpar, *updated.value.lpar], rpar=[*updated.value.rpar, *updated.rpar])
        return updated


def _operands(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BinaryOperation):
        return [node.left, node.right]
    if isinstance(node, cst.UnaryOperation):
        return [node.expression]
    if isinstance(node, cst.Call):
        return [a.value for a in node.args if a.keyword is None]
    return []


def _compressed(rule: Rule, node: cst.BaseExpression, mask: str, facts: FunctionFacts) -> Optional[str]:
    """Why `node` has the compressed size of the mask (one value per selected element), or None."""
    for sub in walk.walk(node):
        if isinstance(sub, cst.Subscript):
            inner = mask_index(rule, sub)
            if inner is not None and inner.kind is Kind.MASK and rule.code(inner.mask) != mask:
                return f"the value `{rule.code(sub)}` is selected by another mask, so its size is value-dependent"
            if any(isinstance(el.slice, cst.Slice) for el in sub.slice) and _counts(rule, sub, mask, facts):
                return f"the value `{rule.code(sub)}` has one element per selected element (the compressed size of the mask)"
    return None


def _counts(rule: Rule, node: cst.CSTNode, mask: str, facts: FunctionFacts) -> bool:
    for sub in walk.walk(node):
        if isinstance(sub, cst.Call):
            if isinstance(sub.func, cst.Attribute) and sub.func.attr.value == "sum" and mask in rule.code(sub.func.value):
                return True
            if facts.array_function(sub.func) in ("count_nonzero", "sum") and sub.args and mask in rule.code(sub.args[0].value):
                return True
            if dotted(sub.func) == "len":
                return True
    return False
