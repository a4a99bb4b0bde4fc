"""Static parameters: which parameters of a function are Python values, not arrays, by what the code says of them.

These are the STATIC seeds of `jaxfix.analysis.tracedness` (`FunctionTracedness.static_params`), besides defaults
and `[tool.jaxfix] static-args`:

- declared: a static annotation (`int`, `bool`, `str`, `Callable`, `Literal[...]`, an `Enum` named `...Mode`),
  or the same type in the docstring (`documented_static`: numpydoc `n_pad : int, optional`, Google `n (int): ...`),
  `static_argnums`/`static_argnames` of a `jax.jit` decorator (`_jit_static`, `is_jit`), or a name NumPy uses for
  Python values (`static_by_name`: `axis`, `shape`, `dtype`, `xp`, ...);
- used as no array is: compared with a string literal, called, given a method arrays and dicts lack, or asked for a
  namespace's constants (`_not_arrays`); read only as the whole test of an `if`/`while`/ternary (`_flags`).

Parameters JAX needs concrete (a shape, a slice bound) are `jaxfix.analysis.static_args`.
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst
import numpy as np

from jaxfix import walk
from jaxfix.analysis import host_data
from jaxfix.imports import dotted_name

# `np.dtype`, `DTypeLike`: a dtype (or what names one), never an array
STATIC_ANNOTATIONS = {"int", "bool", "str", "Callable", "type", "dtype", "DTypeLike"}

# methods of NumPy arrays, and of dicts (a dict of arrays is a pytree of traced values under `jit`)
ARRAY_METHODS = frozenset(name for name in dir(np.ndarray) if not name.startswith("_"))
# array methods whose result is a Python value or bytes, not an array
PYTHON_VALUE_METHODS = frozenset({"tolist", "item", "tobytes", "tostring", "dumps", "dump", "tofile"})
# methods Python requires to return a Python value (`__bool__` returning an array raises `TypeError`)
PYTHON_RESULT_METHODS = frozenset({"__bool__", "__len__", "__int__", "__float__", "__complex__", "__index__", "__hash__",
                                   "__str__", "__repr__", "__format__", "__bytes__", "__length_hint__"})
_ARRAY_OR_DICT_METHODS = ARRAY_METHODS | frozenset(dir(dict))


def _annotation_is_static(annotation: Optional[cst.Annotation]) -> bool:
    if annotation is None:
        return False
    node = annotation.annotation
    if isinstance(node, cst.Subscript):
        node = node.value
        name = node.attr.value if isinstance(node, cst.Attribute) else getattr(node, "value", "")
        return name in ("Literal", "Callable", "type")
    name = node.attr.value if isinstance(node, cst.Attribute) else getattr(node, "value", "")
    return name in STATIC_ANNOTATIONS or str(name).endswith(("Mode", "Kind", "Enum"))


def is_jit(expr: cst.BaseExpression) -> bool:
    """Whether a decorator expression is `jax.jit`: `jit`, `jax.jit`, `jax.jit(...)`, `partial(jax.jit, ...)`
    (not any decorator whose text mentions jit, such as `@capabilities(jax_jit=False)`)."""
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, (cst.Name, cst.Attribute)) and dotted_name(func) in ("partial", "functools.partial"):
            return bool(expr.args) and expr.args[0].keyword is None and is_jit(expr.args[0].value)
        return is_jit(func)
    return dotted_name(expr) in ("jit", "jax.jit")


def _jit_static(function: cst.FunctionDef) -> set[str]:
    """Parameters named static by a jit decorator (static_argnames, or static_argnums mapped to names)."""
    names = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
    static: set[str] = set()
    for decorator in function.decorators:
        call = decorator.decorator
        if not isinstance(call, cst.Call) or not is_jit(call):
            continue
        for arg in call.args:
            if arg.keyword is None:
                continue
            values = _literal_items(arg.value)
            if arg.keyword.value == "static_argnames":
                static.update(v for v in values if isinstance(v, str))
            elif arg.keyword.value == "static_argnums":
                static.update(names[v] for v in values if isinstance(v, int) and 0 <= v < len(names))
    return static


def _literal_items(node: cst.BaseExpression) -> list:
    if isinstance(node, (cst.Tuple, cst.List)):
        return [v for e in node.elements for v in _literal_items(e.value)]
    if isinstance(node, cst.SimpleString):
        return [node.evaluated_value]
    if isinstance(node, cst.Integer):
        return [int(node.value)]
    return []


# `xp`: the array namespace of array-API code (a module), never an array
# `n_jobs`: joblib's (and scikit-learn's) count of worker processes, a Python int
STATIC_PARAM_NAMES = {"axis", "axes", "shape", "ndim", "dtype", "order", "mode", "method", "kind", "norm", "keepdims", "xp",
                      "n_jobs"}


# a documented type that is a Python count, flag or text (`int`, `positive int`, `int or None`, `bool, optional`,
# `int, default 3`, `str {'a', 'b'}`): not `float` (a traced scalar in practice), nor anything array- or list-like
_PYTHON_VALUE_TYPE = re.compile(
    r"(?:(?:positive|non-?negative|strictly\s+positive|odd|even)\s+)?(?:int|integer|bool|boolean|str|string)"
    r"(?:\s+or\s+none)?(?:\s*,\s*optional)?(?:\s*(?:,\s*|\()default(?:\s*[:=]\s*|\s+(?:is\s+)?)[-+\w.'\"]+\)?)?"
    r"(?:\s*\{[^}]*\})?\s*",
    re.IGNORECASE)


def documented_static(function: cst.FunctionDef) -> frozenset[str]:
    """The parameters the function's own docstring gives a Python scalar type (numpydoc `target : int`, `flag :
    bool, optional`, Google style `n_pad (int): ...`): the docstring's form of a static annotation (mne's
    `next_fast_len(target)`, documented `target : int`, fed `len(x)` by every caller). A `float` is not one: a
    scalar parameter documented so is often data (a step, a threshold) that `jit` traces."""
    doc = function.get_docstring(clean=True)
    if not doc or not _PYTHON_WORDS.search(doc):
        return frozenset()
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    doc = _OTHER_SECTIONS.split(doc, maxsplit=1)[0]  # (a `Returns` entry named like a parameter is no parameter's)
    return host_data.documented_as(doc, params, lambda kind: _PYTHON_VALUE_TYPE.fullmatch(kind.strip()) is not None)


# the numpydoc and Google sections after the parameters: entries there describe other things than parameters
_OTHER_SECTIONS = re.compile(r"^[ \t]*(?:Returns?|Yields?|Raises|Attributes|Notes|Examples?|See Also|References|"
                             r"Warns|Warnings)[ \t]*:?[ \t]*$", re.MULTILINE)


_PYTHON_WORDS = re.compile(r"\b(?:int|integer|bool|boolean|str|string)\b", re.IGNORECASE)


def static_by_name(name: str) -> bool:
    """NumPy's own conventions: `axis`, `shape`, `x_shape`, `dtype`, `mode`, `xp`, ... (and joblib's `n_jobs`) are Python values, not data. Taking
    one as static keeps a rewrite from treating it as an array; if it were one, the code fails loudly under `jit`."""
    return name in STATIC_PARAM_NAMES or name.endswith("_shape") or name.startswith("shape_")


# what only an array namespace (`xp`, a module passed in) has: constants, dtypes, submodules
_MODULE_ATTRIBUTES = frozenset({
    "inf", "nan", "pi", "e", "newaxis", "euler_gamma", "bool_", "float16", "float32", "float64", "complex64",
    "complex128", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "linalg", "fft", "random",
    "special", "finfo", "iinfo",
})


# what a dtype has and an array has not (`a.kind == b.kind`, `dt.names`, `dt.newbyteorder()`): a name read for one
# is a dtype (or another object), not an array (`.itemsize` is an array's too, so it tells nothing)
DTYPE_ATTRIBUTES = frozenset({
    "kind", "char", "byteorder", "fields", "names", "isnative", "isbuiltin", "hasobject", "descr", "subdtype",
    "newbyteorder", "isalignedstruct", "alignment", "str",
})


def _not_arrays(function: cst.FunctionDef) -> set[str]:
    """Names compared with a string literal (modes), called (functions), whose methods that arrays and dicts lack
    are called (modules, objects), that give a namespace's constants or dtypes (`xp.inf`), or that are read for an
    attribute only dtypes have (`a.kind`, `a.byteorder`): not arrays in any of these cases."""
    found: set[str] = set()
    for node in walk.nodes_of(function.body, cst.Comparison):
        operands = [node.left, *(t.comparator for t in node.comparisons)]  # type: ignore[attr-defined]
        if any(isinstance(o, (cst.SimpleString, cst.ConcatenatedString)) or isinstance(o, cst.Tuple) and not o.elements for o in operands):
            found.update(o.value for o in operands if isinstance(o, cst.Name))
    for node in walk.nodes_of(function.body, cst.Attribute):
        if isinstance(node.value, cst.Name) and node.attr.value in _MODULE_ATTRIBUTES:  # type: ignore[attr-defined]
            found.add(node.value.value)  # type: ignore[attr-defined]  # `xp.inf`, `xp.float64`, `xp.linalg`: an array namespace
        elif isinstance(node.value, cst.Name) and node.attr.value in DTYPE_ATTRIBUTES:  # type: ignore[attr-defined]
            found.add(node.value.value)  # type: ignore[attr-defined]  # `a.kind == b.kind`: dtypes (pyod's dtype checks)
    for node in walk.nodes_of(function.body, cst.Call):
        func = node.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Name):
            found.add(func.value)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.attr.value not in _ARRAY_OR_DICT_METHODS:
            found.add(func.value.value)  # `xp.asarray(...)`, `self.fun(x)`, `model.predict(x)`: a module or object
    return found


class _FlagReads(walk.ValueReader):
    """The names `_flags` reads (not attribute names, keywords or lambda parameters) and those that are the whole
    test (under `not`/`and`/`or`) of an `if`, `while` or ternary."""

    def __init__(self) -> None:
        super().__init__()
        self.tests: set[cst.Name] = set()
        self.reads: list[cst.Name] = []

    def mark(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            self.tests.add(node)
        elif isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            self.mark(node.expression)
        elif isinstance(node, cst.BooleanOperation):
            self.mark(node.left)
            self.mark(node.right)

    def visit_If(self, node: cst.If) -> None:
        self.mark(node.test)

    visit_While = visit_If  # type: ignore[assignment]
    visit_IfExp = visit_If  # type: ignore[assignment]

    def visit_Name(self, node: cst.Name) -> None:
        self.reads.append(node)

    def visit_Param(self, node: cst.Param) -> bool:
        return False


def _flags(function: cst.FunctionDef) -> set[str]:
    """Parameters read only as the whole test of an `if`/`while`/ternary (possibly under `not`/`and`/`or`)."""
    visitor = _FlagReads()
    walk.visit(function.body, visitor)
    tests, reads = visitor.tests, visitor.reads
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    used: dict[str, bool] = {}
    for name in reads:
        if name.value in params:
            used[name.value] = used.get(name.value, True) and name in tests
    return {name for name, only_tests in used.items() if only_tests}
