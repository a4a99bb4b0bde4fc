"""Which index expressions are boolean masks, and what a masked rewrite needs to know about them.

`MaskProvider` annotates every single-index `Subscript` inside a function (`x[m]`) with a `MaskIndex`:

- `kind`: MASK when the index is provably boolean (a comparison; `~`, `&`, `|`, `^` of masks; `isnan`, `isfinite`,
  `isinf`, `logical_*` and friends; `.astype(bool)`; a call with `dtype=bool`; `np.array` of a list display or comprehension of masks; `.any(axis=...)` / `.all(axis=...)`;
  a parameter annotated with a bool type; a name every binding of which is one of those; a mask rearranged or
  indexed: `mask.T`, `mask.ravel()`, `mask.reshape(...)`, `np.transpose(mask)`, `mask[:, 0]`), INDEX when it is provably
  not (integers, slices, `None`, `...`, tuples), UNKNOWN otherwise (rules leave such code and say so).
- `same_rank`: True when the mask provably has the rank of the indexed array (it is computed elementwise from that
  array: `x[np.isnan(x)]`, or both ranks are known and equal); `row_mask`: True when the mask is provably 1-D and the
  array provably has rank >= 2 (`target_rank` then says which), so the mask must be broadcast as `m[:, None]`.

It also puts a `FunctionFacts` on each FunctionDef, the flow-insensitive facts the rules need about names: their
bindings (every binding counts), which are scalars, and ranks learned from `n, d = X.shape`. Aliasing (whether a
rebinding is visible elsewhere) is not decided here: the rules ask `jaxfix.analysis.aliases`, as JX1xx does.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst
from libcst._metadata_dependent import LazyValue  # what LibCST's own lazy providers use (not re-exported)
from libcst.metadata import BatchableMetadataProvider

from jaxfix import walk
from jaxfix.imports import ModuleImports

MASK_FUNCTIONS = {
    "isnan", "isfinite", "isinf", "isneginf", "isposinf", "logical_and", "logical_or", "logical_not", "logical_xor",
    "signbit", "isclose", "isin", "in1d", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "isreal", "iscomplex",
}
ELEMENTWISE = MASK_FUNCTIONS | {
    "abs", "absolute", "sign", "exp", "log", "log1p", "expm1", "sqrt", "square", "sin", "cos", "tan", "tanh", "sinh",
    "cosh", "arctan", "floor", "ceil", "round", "rint", "negative", "real", "imag", "conj", "nan_to_num", "clip",
}
SCALAR_REDUCTIONS = {"sum", "mean", "max", "min", "prod", "std", "var", "median", "any", "all", "amax", "amin",
                     "nansum", "nanmean", "nanmax", "nanmin", "count_nonzero", "dot", "vdot", "norm", "trace"}
INTEGER_RESULTS = {"flatnonzero", "nonzero", "argwhere", "argmax", "argmin", "argsort", "arange", "searchsorted",
                   "digitize", "argpartition", "lexsort", "ravel_multi_index", "unravel_index", "indices",
                   "tril_indices", "triu_indices", "diag_indices"}
# functions and methods that rearrange an array's items without changing their dtype: of a mask, a mask
MASK_LAYOUTS = {
    "transpose", "ravel", "reshape", "squeeze", "swapaxes", "moveaxis", "expand_dims", "atleast_1d", "atleast_2d",
    "atleast_3d", "broadcast_to", "flip", "fliplr", "flipud", "roll", "rot90", "tile", "repeat", "copy", "array",
    "asarray", "ascontiguousarray",
}
MASK_LAYOUT_METHODS = {"ravel", "flatten", "reshape", "transpose", "squeeze", "swapaxes", "copy", "repeat"}
AXIS_REDUCTIONS = {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "amax", "amin", "median", "norm",
                   "ptp", "nansum", "nanmean", "nanmax", "nanmin", "count_nonzero"}


class Kind(enum.Enum):
    MASK = "mask"
    INDEX = "index"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class MaskIndex:
    kind: Kind
    mask: cst.BaseExpression
    trailing: Optional[int] = None  # how many trailing axes of the array the mask lacks (None: unknown)
    target_rank: Optional[int] = None

    @property
    def same_rank(self) -> bool:
        return self.trailing == 0

    @property
    def row_mask(self) -> bool:
        """A 1-D mask selecting rows (ranks known)."""
        return bool(self.trailing) and self.target_rank is not None and self.target_rank - self.trailing == 1  # type: ignore[operator]


def dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


def _number(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))


@dataclass
class FunctionFacts:
    """Flow-insensitive facts about the names of one function (every binding counts, wherever it is)."""

    imports: ModuleImports
    params: dict[str, Optional[cst.BaseExpression]] = field(default_factory=dict)  # name -> annotation
    defaults: dict[str, cst.BaseExpression] = field(default_factory=dict)  # name -> default value, when it has one
    bindings: dict[str, list[Optional[cst.BaseExpression]]] = field(default_factory=dict)  # None: opaque binding
    ranks: dict[str, int] = field(default_factory=dict)  # from `n, d = X.shape`
    augmented: dict[str, list[cst.AugAssign]] = field(default_factory=dict)  # their bindings are the None ones
    # `a, b = x, y` / `a, b = zip(*pairs)`: for each such (opaque) binding of a name, the unpacked value, the name's
    # position and the number of targets
    unpacked: dict[str, list[tuple[cst.BaseExpression, int, int]]] = field(default_factory=dict)
    range_vars: set[str] = field(default_factory=set)
    _updating: set[str] = field(default_factory=set, repr=False, compare=False)  # names whose self-updates are checked
    # `value_dtypes`' dtype of a name under assumed dtypes of others, computed once (bindings are fixed after the scan)
    dtype_memo: dict = field(default_factory=dict, repr=False, compare=False)

    # ---- names of NumPy / jax.numpy functions --------------------------------------------------------------
    def array_function(self, func: cst.BaseExpression) -> Optional[str]:
        """`np.isnan` / `jnp.isnan` / `isnan` (from numpy import) -> "isnan"; None for anything else."""
        name = dotted(func)
        if not name or name.split(".")[0] in self.params or name.split(".")[0] in self.bindings:
            return None
        head, _, rest = name.partition(".")
        qualified = self.imports.numpy_aliases.get(head)
        if qualified is not None:
            full = f"{qualified}.{rest}" if rest else qualified
            return full[len("numpy."):] if full.startswith("numpy.") else None
        jnp = self.imports.jnp_alias
        if jnp and name.startswith(jnp + "."):
            return name[len(jnp) + 1:]
        return None

    def _only(self, name: str) -> list[cst.BaseExpression]:
        values = self.bindings.get(name, [])
        if name in self.params or not values or any(v is None for v in values):
            return []
        return [v for v in values if v is not None]

    # ---- masks ------------------------------------------------------------------------------------------------
    def is_mask(self, node: cst.BaseExpression, seen: frozenset = frozenset()) -> bool:
        if isinstance(node, cst.Comparison):
            return all(isinstance(c.operator, (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual,
                                               cst.Equal, cst.NotEqual)) for c in node.comparisons)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
            return self.is_mask(node.expression, seen)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
            return all(self.is_mask(side, seen) or dotted(side) in ("True", "False") for side in (node.left, node.right))
        if isinstance(node, cst.Attribute) and node.attr.value in ("T", "mT"):
            return self.is_mask(node.value, seen)  # `mask.T`: the same booleans, transposed
        if isinstance(node, cst.Subscript):
            return self.is_mask(node.value, seen)  # `mask[:, 0]`, `mask[i]`: booleans of the mask
        if isinstance(node, cst.Call):
            fn = self.array_function(node.func)
            if fn in MASK_FUNCTIONS:
                return True
            if fn in MASK_LAYOUTS and node.args and node.args[0].keyword is None and not any(
                    a.keyword is not None and a.keyword.value == "dtype" for a in node.args):
                first = node.args[0].value
                if fn in ("array", "asarray") and isinstance(first, cst.ListComp):
                    return self._python_bool(first.elt, seen)  # `np.array([a[k] > 0 for a in alphas])` (SALib)
                if fn in ("array", "asarray") and isinstance(first, cst.List):
                    return bool(first.elements) and all(
                        isinstance(e, cst.Element) and self._python_bool(e.value, seen) for e in first.elements)
                return self.is_mask(first, seen)  # `np.transpose(mask)`, `np.reshape(mask, (n, -1))`
            if fn is None and isinstance(node.func, cst.Attribute) and node.func.attr.value in MASK_LAYOUT_METHODS:
                return self.is_mask(node.func.value, seen)  # `mask.ravel()`, `mask.reshape(n, -1)`
            if fn and fn.endswith((".reduce", ".accumulate")) and fn.split(".")[0] in MASK_FUNCTIONS:
                return True  # `np.logical_and.reduce([volt > 1, ~np.isnan(t)])`: a mask (pvlib's fit)
            if any(a.keyword is not None and a.keyword.value == "dtype" and self._bool_dtype(a.value) for a in node.args):
                return True
            if isinstance(node.func, cst.Attribute):
                attr = node.func.attr.value
                if attr == "astype" and node.args and self._bool_dtype(node.args[0].value):
                    return True
                at = node.func.value
                if attr == "set" and len(node.args) == 1 and isinstance(at, cst.Subscript) and isinstance(at.value, cst.Attribute) \
                        and at.value.attr.value == "at":  # `m = m.at[i].set(False)`: still a mask (`m` in `seen`: this one)
                    base, value = at.value.value, node.args[0].value
                    return (isinstance(base, cst.Name) and base.value in seen or self.is_mask(base, seen)) and (
                        dotted(value) in ("True", "False") or self.is_mask(value, seen))
                if attr in ("any", "all") and node.args:
                    return True
            if fn in ("any", "all") and len(node.args) > 1:
                return True
            return False
        if isinstance(node, cst.Name):
            if node.value in seen:
                return False
            if node.value in self.params:
                annotation = self.params[node.value]
                return annotation is not None and "bool" in dotted_text(annotation)
            values = self._only(node.value)
            return bool(values) and all(self.is_mask(v, seen | {node.value}) for v in values)
        return False

    def _python_bool(self, node: cst.BaseExpression, seen: frozenset) -> bool:
        """An item of a list `np.array` makes a mask of: a mask, or the builtin `any`/`all`/`bool` of something."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("any", "all", "bool") \
                and self.array_function(node.func) is None and len(node.args) == 1 and node.args[0].keyword is None:
            return True
        return self.is_mask(node, seen)

    def mask_operands(self, node: cst.BaseExpression, seen: frozenset = frozenset()) -> set[str]:
        """Names compared in the mask's definition (`t` in `x > t`): NumPy broadcast them against the array."""
        found: set[str] = set()
        if isinstance(node, cst.Name) and node.value not in seen:
            for value in self._only(node.value):
                found |= self.mask_operands(value, seen | {node.value})
        elif isinstance(node, cst.Comparison):
            for part in (node.left, *[c.comparator for c in node.comparisons]):
                if isinstance(part, cst.Name):
                    found.add(part.value)
        elif isinstance(node, cst.UnaryOperation):
            found |= self.mask_operands(node.expression, seen)
        elif isinstance(node, cst.BinaryOperation):
            found |= self.mask_operands(node.left, seen) | self.mask_operands(node.right, seen)
        return found

    def _bool_dtype(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.SimpleString):
            return node.evaluated_value in ("bool", "?")
        name = dotted(node)
        return name in ("bool", "np.bool_", "np.bool", "jnp.bool_") or self.array_function(node) in ("bool_", "bool")

    def is_index(self, node: cst.BaseExpression) -> bool:
        """Provably not a mask: integer scalars, None, Ellipsis, tuples (multi-axis indexing)."""
        if isinstance(node, (cst.Integer, cst.Ellipsis, cst.Tuple)):
            return True
        if isinstance(node, cst.Name):
            if node.value in self.params:
                return dotted_text(self.params[node.value]) == "int"
            if node.value == "None" or node.value in self.range_vars:
                return True
            values = self._only(node.value)
            return bool(values) and all(self._integer_array(v) for v in values)
        if self._integer_array(node):
            return True
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return self.is_index(node.expression)
        return False

    def _integer_array(self, node: cst.BaseExpression) -> bool:
        """Integer indices by construction: `np.flatnonzero(m)`, `np.nonzero(m)[0]`, `x.argsort()`, `np.arange(n)`."""
        if isinstance(node, cst.Subscript):
            return self._integer_array(node.value)
        if isinstance(node, cst.Call):
            fn = self.array_function(node.func)
            if fn is None and isinstance(node.func, cst.Attribute):
                fn = node.func.attr.value
            return fn in INTEGER_RESULTS
        return False

    def derived_offset(self, node: cst.BaseExpression, target: str, seen: frozenset = frozenset()) -> Optional[int]:
        """How many trailing axes `node` lacks relative to the array `target` when it is computed from it elementwise
        (0: `x > 0`, `np.isnan(x)`) or through reductions over one integer axis (1: `x.sum(axis=1) > 0`,
        `np.linalg.norm(X, axis=-1) < eps`); None when it is not computed from `target` that way."""
        if isinstance(node, cst.Name):
            if node.value == target or self.shape_root(node.value, seen) == self.shape_root(target, seen):
                return 0
            values = [] if node.value in seen else self._only(node.value)
            found = {self.derived_offset(v, target, seen | {node.value}) for v in values}
            return found.pop() if len(found) == 1 else None
        parts: list[cst.BaseExpression] = []
        if isinstance(node, cst.Comparison):
            parts = [node.left, *[c.comparator for c in node.comparisons]]
        elif isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.MatrixMultiply):
            parts = [node.left, node.right]
        elif isinstance(node, cst.UnaryOperation):
            parts = [node.expression]
        elif isinstance(node, cst.Call):
            fn = self.array_function(node.func)
            method = node.func.attr.value if fn is None and isinstance(node.func, cst.Attribute) else None
            operand = node.func.value if method else (node.args[0].value if node.args else None)  # type: ignore[union-attr]
            if operand is None:
                return None
            if fn in ELEMENTWISE | {"array", "asarray", "copy"} or method in ("astype", "copy"):
                return self.derived_offset(operand, target, seen)
            rest = node.args if method else node.args[1:]
            keywords = {a.keyword.value: a.value for a in rest if a.keyword is not None}
            axis = keywords.get("axis", rest[0].value if rest and rest[0].keyword is None else None)
            reducer = (method or fn or "").split(".")[-1]
            if reducer in AXIS_REDUCTIONS and "keepdims" not in keywords and axis is not None and _number(axis):
                inner = self.derived_offset(operand, target, seen)
                return None if inner is None else inner + 1
            return None
        found = [o for o in (self.derived_offset(p, target, seen) for p in parts) if o is not None]
        return min(found) if found else None

    def shape_root(self, name: str, seen: frozenset = frozenset()) -> str:
        """The name whose shape `name` provably has: `b` for `a = np.zeros_like(b)`, `np.zeros(b.shape)`, `b.copy()`,
        `np.array(b)`, `b.astype(...)` (following chains); `name` itself otherwise."""
        values = [] if name in seen or name in self._updating else self._only(name)
        updates = [v for v in values if self._self_update(name, v)]
        roots = {self._same_shape_source(v, seen | {name}) for v in values if v not in updates}
        if len(roots) == 1 and None not in roots:
            root: str = roots.pop()  # type: ignore[assignment]
            if not updates:
                return root
            self._updating.add(name)  # the updates' tests are judged afresh (the names being followed may be theirs)
            try:
                if all(self._keeps_shape(v, root) for v in updates):
                    return root
            finally:
                self._updating.discard(name)
        return name

    def _self_update(self, name: str, value: cst.BaseExpression) -> bool:
        """`x = np.where(m, v, x)`: a masked write made functional (JX301's fix), which keeps `x`'s shape when `m`
        and `v` have it (`_keeps_shape`)."""
        if not isinstance(value, cst.Call) or self.array_function(value.func) != "where" or len(value.args) != 3:
            return False
        last = value.args[2]
        return last.keyword is None and isinstance(last.value, cst.Name) and last.value.value == name

    def _keeps_shape(self, update: cst.Call, root: str) -> bool:
        test, new = update.args[0].value, update.args[1].value
        return self.derived_offset(test, root) == 0 and (self.is_scalar(new) or self.derived_offset(new, root) == 0)

    def _same_shape_source(self, node: cst.BaseExpression, seen: frozenset) -> Optional[str]:
        if isinstance(node, cst.Name):
            return self.shape_root(node.value, seen)
        if not isinstance(node, cst.Call):
            return None
        fn = self.array_function(node.func)
        keywords = {a.keyword.value for a in node.args if a.keyword is not None}
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        if fn in ("zeros_like", "ones_like", "empty_like", "full_like", "copy", "array") and "shape" not in keywords:
            return self.shape_root(first.value, seen) if isinstance(first, cst.Name) else None
        if fn in ("zeros", "ones", "empty", "full") and isinstance(first, cst.Attribute) and first.attr.value == "shape":
            return self.shape_root(first.value.value, seen) if isinstance(first.value, cst.Name) else None
        if fn is None and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("copy", "astype"):
            base = node.func.value
            return self.shape_root(base.value, seen) if isinstance(base, cst.Name) else None
        return None

    # ---- ranks and scalars ----------------------------------------------------------------------------------
    def rank(self, node: cst.BaseExpression, seen: frozenset = frozenset()) -> Optional[int]:
        if self.is_scalar(node):
            return 0
        if isinstance(node, cst.Name):
            if node.value in self.ranks:
                return self.ranks[node.value]
            values = [] if node.value in seen else self._only(node.value)
            ranks = {self.rank(v, seen | {node.value}) for v in values}
            return ranks.pop() if len(ranks) == 1 else None
        if isinstance(node, (cst.Comparison, cst.BinaryOperation)):
            parts = [node.left, *[c.comparator for c in node.comparisons]] if isinstance(node, cst.Comparison) else [node.left, node.right]
            ranks = [self.rank(p, seen) for p in parts]
            return None if None in ranks else max(ranks)  # type: ignore[type-var]
        if isinstance(node, cst.UnaryOperation):
            return self.rank(node.expression, seen)
        if isinstance(node, cst.Call):
            fn = self.array_function(node.func)
            if fn in ("arange", "linspace", "flatnonzero") or (isinstance(node.func, cst.Attribute) and node.func.attr.value in ("ravel", "flatten")):
                return 1
            if fn in ELEMENTWISE | {"array", "copy", "asarray"} and node.args:
                return self.rank(node.args[0].value, seen)
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("copy", "astype") and fn is None:
                return self.rank(node.func.value, seen)
            axis = [a.value for i, a in enumerate(node.args) if (a.keyword is not None and a.keyword.value == "axis")
                    or (a.keyword is None and i == (0 if fn is None else 1))]
            if axis and isinstance(axis[0], cst.Integer) and (fn in SCALAR_REDUCTIONS | {"argmax", "argmin"} or (
                    fn is None and isinstance(node.func, cst.Attribute) and node.func.attr.value in SCALAR_REDUCTIONS | {"argmax", "argmin"})):
                inner = self.rank(node.args[0].value if fn is not None else node.func.value, seen)  # type: ignore[union-attr]
                return None if inner is None else inner - 1
        return None

    def is_scalar(self, node: cst.BaseExpression, seen: frozenset = frozenset()) -> bool:
        if _number(node) or dotted(node) in ("True", "False") or self.array_function(node) in ("nan", "inf", "pi", "e"):
            return True
        if isinstance(node, cst.Name):
            if node.value in self.range_vars:
                return True
            if node.value in self.params:
                return dotted_text(self.params[node.value]) in ("float", "int", "bool", "complex")
            values = [] if node.value in seen else self._only(node.value)
            return bool(values) and all(self.is_scalar(v, seen | {node.value}) for v in values)
        if isinstance(node, cst.UnaryOperation):
            return self.is_scalar(node.expression, seen)
        if isinstance(node, cst.BinaryOperation):
            return self.is_scalar(node.left, seen) and self.is_scalar(node.right, seen)
        if isinstance(node, cst.Call):
            if dotted(node.func) in ("float", "int", "len", "bool", "abs", "round"):
                return True
            has_axis = any(a.keyword is not None and a.keyword.value == "axis" for a in node.args)
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in SCALAR_REDUCTIONS and self.array_function(node.func) is None:
                return not node.args and not has_axis
            if self.array_function(node.func) in SCALAR_REDUCTIONS:
                return len(node.args) == 1 and not has_axis
        return False

def dotted_text(node: Optional[cst.CSTNode]) -> str:
    if node is None:
        return ""
    if isinstance(node, cst.Annotation):
        node = node.annotation
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value if isinstance(node.evaluated_value, str) else ""
    return cst.Module([]).code_for_node(node)


class _Scan(cst.CSTVisitor):
    """Collects the bindings of one function's names (not descending into nested functions or classes)."""

    def __init__(self, facts: FunctionFacts) -> None:
        self.facts = facts
        self.depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return self.depth == 1

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _bind(self, target: cst.BaseExpression, value: Optional[cst.BaseExpression]) -> None:
        if isinstance(target, cst.Name):
            self.facts.bindings.setdefault(target.value, []).append(value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            names = [el.value for el in target.elements]
            if isinstance(value, cst.Attribute) and value.attr.value == "shape" and isinstance(value.value, cst.Name):
                if all(not isinstance(el, cst.StarredElement) for el in target.elements):
                    self.facts.ranks[value.value.value] = len(names)
            if value is not None and not any(isinstance(el, cst.StarredElement) for el in target.elements):
                for position, el in enumerate(names):
                    if isinstance(el, cst.Name):
                        self.facts.unpacked.setdefault(el.value, []).append((value, position, len(names)))
            for el in names:
                self._bind(el, None)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self.facts.bindings.setdefault(node.target.value, []).append(None)
            self.facts.augmented.setdefault(node.target.value, []).append(node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        it = node.iter
        if isinstance(it, cst.Call) and dotted(it.func) == "range" and isinstance(node.target, cst.Name):
            self.facts.range_vars.add(node.target.value)
        elif isinstance(it, cst.Call) and dotted(it.func) == "enumerate" and isinstance(node.target, (cst.Tuple, cst.List)) \
                and len(node.target.elements) == 2 and isinstance(node.target.elements[0].value, cst.Name):
            self.facts.range_vars.add(node.target.elements[0].value.value)  # `for i, v in enumerate(x)`: `i` counts
            self._bind(node.target.elements[1].value, None)
        else:
            self._bind(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, None)

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self._bind(item.name, None)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self._bind(item.name, None)


def function_facts_of(function: cst.FunctionDef, imports: ModuleImports) -> FunctionFacts:
    facts = FunctionFacts(imports=imports)
    params = function.params
    for p in (*params.posonly_params, *params.params, *params.kwonly_params):
        facts.params[p.name.value] = p.annotation.annotation if p.annotation else None
        if p.default is not None:
            facts.defaults[p.name.value] = p.default
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            facts.params[star.name.value] = None
    walk.visit(function.body, _Scan(facts))
    return facts


class MaskProvider(BatchableMetadataProvider[object]):
    """FunctionFacts on each FunctionDef; MaskIndex on each single-index Subscript inside a function. Both are
    computed when a rule first asks (`LazyValue`): most functions and subscripts are never asked about."""

    def __init__(self) -> None:
        super().__init__()
        self._imports = ModuleImports()
        self._facts: list[LazyValue[FunctionFacts]] = []

    def visit_Module(self, node: cst.Module) -> None:
        self._imports = ModuleImports.read(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        facts = LazyValue(functools.partial(function_facts_of, node, self._imports))
        self._facts.append(facts)
        self.set_metadata(node, facts)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._facts.pop()

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not self._facts or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        if isinstance(node.value, cst.Attribute) and node.value.attr.value == "at":
            return  # `x.at[m]` is an update, not a read
        self.set_metadata(node, LazyValue(functools.partial(_mask_index, node, self._facts[-1])))


def _mask_index(node: cst.Subscript, lazy_facts: "LazyValue[FunctionFacts]") -> MaskIndex:
    facts = lazy_facts()
    index = node.slice[0].slice.value  # type: ignore[attr-defined]
    if facts.is_mask(index):
        kind = Kind.MASK
    elif facts.is_index(index):
        kind = Kind.INDEX
    else:
        kind = Kind.UNKNOWN
    trailing = target_rank = None
    if kind is Kind.MASK:
        target = dotted(node.value)
        target_rank = facts.rank(node.value)
        mask_rank = facts.rank(index)
        trailing = facts.derived_offset(index, target) if target else None
        if trailing is None and mask_rank is not None and target_rank is not None and mask_rank >= 1:
            trailing = target_rank - mask_rank if target_rank >= mask_rank else None
    return MaskIndex(kind, index, trailing, target_rank)


def mask_index(rule: cst.MetadataDependent, subscript: cst.CSTNode) -> Optional[MaskIndex]:
    value = rule.get_metadata(MaskProvider, subscript, None)
    return value if isinstance(value, MaskIndex) else None


def function_facts(rule: cst.MetadataDependent, function: cst.FunctionDef) -> FunctionFacts:
    value = rule.get_metadata(MaskProvider, function, None)
    assert isinstance(value, FunctionFacts)
    return value
