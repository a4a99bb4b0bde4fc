"""Tracedness: is a value inside a function concrete Python (STATIC) or an array under `jit` (TRACED)?

`TracednessProvider` puts a `FunctionTracedness` on every FunctionDef; rules call `tracedness(rule, expr)` for an
expression inside the function being visited. Variables are classified flow-insensitively (a name is TRACED if any
assignment to it may be traced), which errs toward TRACED; conditions that are TRACED or UNKNOWN are the ones a
Python `if` cannot branch on.

Seeds (for parameters: `jaxfix.analysis.static_params`):
- Parameters are TRACED, except STATIC when: annotated with a static type (`int`, `bool`, `str`, `float` is NOT
  static, an `Enum` subclass name ending in `Mode`/`Kind`/`Enum`, `Literal[...]`, `Callable`); listed in
  `static_argnums`/`static_argnames` of a `jax.jit` / `jit` / `partial(jax.jit, ...)` decorator; listed in
  `[tool.jaxfix] static-args` (as "function.param" or "param"); given a str/bool/None default (configuration
  flags and modes); compared with a string literal; called (`fn(x)`: a function, not an array) or given a method call arrays do not have (`xp.asarray(x)`: a module
  or an object); read for an attribute only dtypes have (`a.kind`, `a.byteorder`: a dtype); annotated `np.dtype`; named `self`/`cls`, or by NumPy's conventions for Python values (`axis`, `axes`, `shape`, `*_shape`,
  `ndim`, `dtype`, `order`, `mode`, `method`, `kind`, `norm`, `keepdims`; joblib's `n_jobs`); or used where JAX needs a concrete value
  (a shape, a slice bound, the bound of a loop kept in Python: `jaxfix.analysis.static_args`), since it must be
  static under `jit` for the function to work at all (JX510 reports it); or used only as a bare truth test
  (`if flat:`, `if not verbose:`, `a if fast else b`): a flag, not data; or read by the key of a module-level dict
  display (`MATRICES[kind][low]`, `low = int(severity - 5)`: arrays are unhashable); or, for a private function
  or method, given a static value by every call of it in the module (`_next_fast_len(2 * len(h) - 1)`,
  `self._pad(x.shape[0], 3)`), or left at its number default by them (`_Helpers.fed_static`): a size or a setting
  in practice, which stays Python.
- STATIC: literals; `.shape`, `.ndim`, `.dtype`, `.size`, `len(...)`, `isinstance`, `type`, `range` of static
  values; type and dtype tests (`issparse`, `np.isscalar`, `np.iscomplexobj`, `np.issubdtype`, `xp.isdtype`, ...); `x is None` / `is not None`; the host's counts (`os.cpu_count()`, `effective_n_jobs(n)`); names not bound in the function (module constants, builtins, imports).
- Arithmetic, comparisons, subscripts and NumPy/jnp calls and methods with a TRACED operand are TRACED; with an
  UNKNOWN one (attributes of objects, calls of unknown functions with static arguments) UNKNOWN.
- A `for` target over `range(...)` of static bounds is STATIC (a Python loop counter); over anything traced, TRACED.
- As a truth test (`of_test`), a condition holding a type or identity test (`isinstance(v, np.ndarray)`, `v is ref`,
  through `and`/`or`/`not`: `python_only_test`) is STATIC: it tells Python values apart, so the values it tests
  may be strings or objects, and the statement stays Python.
- Everything in a plain-Python helper (a parser, a config class: `jaxfix.analysis.plain_python`) is STATIC.
"""

from __future__ import annotations

import enum
from typing import Mapping, Optional

import libcst as cst
import numpy as np
from libcst.metadata import BatchableMetadataProvider

from jaxfix import walk
from jaxfix.imports import ModuleImports, absolute_imports
from jaxfix.analysis import private_names
from jaxfix.analysis.activity import COMPREHENSIONS, _Collector, Activity
from jaxfix.analysis.dataflow import FunctionFlow
from jaxfix.analysis.plain_python import (
    array_names, host_functions, lazy_array_imports, optional_array_imports, plain_python,
)
from jaxfix.analysis.static_args import concrete_uses, mapping_keys, module_mappings
from jaxfix.analysis.static_params import (
    _ARRAY_OR_DICT_METHODS, _annotation_is_static, _flags, _jit_static, _not_arrays, documented_static, static_by_name,
)

STATIC_ATTRIBUTES = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "flags", "strides"}
STATIC_CALLS = {"len", "isinstance", "issubclass", "type", "callable", "hasattr", "id", "range", "enumerate", "zip",
                "str", "repr", "ascii", "format"}  # the last four make Python strings, never arrays
# what the host reports of itself (`os.cpu_count()`, `multiprocessing.cpu_count()`, joblib's `effective_n_jobs(n)`):
# Python ints (or None), never arrays, whatever the arguments
HOST_COUNTS = frozenset({"cpu_count", "process_cpu_count", "effective_n_jobs", "getpid", "get_ident"})
PYTHON_ONLY_CALLS = ("isinstance", "issubclass", "callable", "hasattr")  # a Python bool about a Python value
# type and dtype tests answer from the Python type, the dtype or the shape, never from the values
TYPE_PREDICATES = {
    "issparse", "isspmatrix", "is_array_api_obj", "isscalar", "iscomplexobj", "isrealobj", "issubdtype", "isdtype",
    "iterable", "isfortran", "is_sparse", "is_torch", "is_jax", "is_numpy", "is_cupy",
}


# `is...` functions of NumPy that test elements (an array result), unlike type tests such as `issparse`
ELEMENTWISE_TESTS = {
    "isnan", "isinf", "isfinite", "isclose", "isin", "isreal", "iscomplex", "isneginf", "isposinf", "isnat",
    "isalpha", "isdigit", "isspace", "islower", "isupper", "isnumeric", "isdecimal", "isalnum", "istitle",
}


# standard-library modules whose functions give Python values (text, matches, paths, flags), never arrays, whatever
# they are given (`re.fullmatch(pattern, arg)`: a `re.Match` or None, which `if match:` tests in Python: scikit-rf)
TEXT_LIBRARIES = frozenset({
    "re", "os", "sys", "json", "string", "textwrap", "fnmatch", "glob", "shutil", "pathlib", "warnings", "logging",
    "inspect", "keyword", "unicodedata", "locale", "platform", "difflib", "shlex", "html", "base64", "hashlib", "uuid",
    "getpass", "subprocess", "datetime", "calendar",
})
# methods of Python strings that no array has: their receiver is text (or a pandas `.str`), and their result a
# string, a bool or a list of strings (`arg.startswith("S")`)
TEXT_METHODS = frozenset({
    "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "startswith", "endswith", "join", "lower", "upper",
    "casefold", "capitalize", "title", "swapcase", "format", "format_map", "encode", "decode", "partition",
    "rpartition", "removeprefix", "removesuffix", "zfill", "center", "ljust", "rjust", "expandtabs",
}) - frozenset(dir(np.ndarray))


def text_library_names(module: cst.Module) -> frozenset[str]:
    """The module's local names for `TEXT_LIBRARIES` and their functions (`import re`, `from os import path`, `from re
    import fullmatch`)."""
    return frozenset(absolute_imports(module, lambda full: full.split(".")[0] in TEXT_LIBRARIES))


def _text(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def _dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


_TEXT_ATTRIBUTES = frozenset({"__name__", "__qualname__", "__module__", "__doc__"})


def _text_attribute(node: cst.BaseExpression) -> bool:
    """`m.__name__`, `f.__module__`: a string, so `m.__name__ == modname` compares text, not arrays."""
    return isinstance(node, cst.Attribute) and node.attr.value in _TEXT_ATTRIBUTES


def _predicate_name(short: str) -> bool:
    """`issparse`, `is_sparse`, `isintlike`: a name made of `is` and a word (not `isolate`, `issue`, `isotropic`)."""
    rest = short[2:]
    return rest.startswith("_") or rest[:1].islower() and rest not in ("olate", "sue", "otropic", "ometric", "land", "o")


# NumPy functions whose result is a dtype (or whether one can be cast): never traced, whatever their arguments
DTYPE_CALLS = frozenset({"dtype", "promote_types", "result_type", "min_scalar_type", "find_common_type", "can_cast"})
# `np.float32`, `np.intp`, `np.bool_`, ...: scalar types, compared with dtypes only
SCALAR_TYPES = frozenset(
    name for name in dir(np) if isinstance(getattr(np, name, None), type) and issubclass(getattr(np, name), np.generic)
)


def _dtype_like(node: cst.BaseExpression) -> bool:
    """`x.dtype`, `np.float32`, `np.dtype(...)`, `np.result_type(...)`: a dtype or scalar type, never an array."""
    if isinstance(node, cst.Attribute):
        return node.attr.value == "dtype" or node.attr.value in SCALAR_TYPES and isinstance(node.value, cst.Name)
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in DTYPE_CALLS


def makes_object(node: cst.BaseExpression) -> bool:
    """`Model(x)`: a call of a capitalised name, by convention a class: it makes an object, not an array."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value[:1].isupper()


class Tracedness(enum.IntEnum):
    STATIC = 0
    UNKNOWN = 1
    TRACED = 2

    def join(self, other: "Tracedness") -> "Tracedness":
        return max(self, other)


class FunctionTracedness:
    def __init__(
        self,
        function: cst.FunctionDef,
        config_static: frozenset[str],
        outer: Optional["FunctionTracedness"],
        array_names: frozenset[str] = frozenset(),
        lazy: bool = False,
        compiled: frozenset[str] = frozenset(),
        predicates: frozenset[str] = frozenset(),
        mappings: Optional[Mapping[str, int]] = None,
        helpers: Optional["_Helpers"] = None,
        optional: bool = False,
    ) -> None:
        self.function = function
        self._helpers = helpers
        self._mappings = mappings or {}
        self._compiled = compiled
        self._predicates = predicates
        self.outer = outer
        self._config_static = config_static
        self._array_names = array_names
        self._lazy = lazy
        self._optional = optional
        self._vars: Optional[dict[str, Tracedness]] = None

    def _plain(self) -> bool:
        cached = self.__dict__.get("_plain_cache")
        if cached is None:
            cached = self._plain_cache = self.is_plain_python()
        return cached

    def is_plain_python(self) -> bool:
        """A plain-Python helper (`plain_python`), inside plain helpers only; or a function that runs on the host
        wherever it is defined (`host_functions`: a SciPy callback)."""
        if self.outer is not None and not self.outer.is_plain_python():
            return self.function.name.value in self._compiled
        return plain_python(self.function, self._array_names, self._lazy, self._compiled, self._optional)

    # ---- seeds --------------------------------------------------------------------------------------------------
    def static_params(self) -> set[str]:
        fn = self.function
        params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
        if self.is_plain_python():
            return {p.name.value for p in params}
        static = _jit_static(fn) | set(concrete_uses(fn)) | documented_static(fn)
        compared = _not_arrays(fn) | _flags(fn) | mapping_keys(fn, self._mappings)
        for p in params:
            name = p.name.value
            default = p.default
            if (
                name in ("self", "cls")
                or _annotation_is_static(p.annotation)
                or name in self._config_static
                or f"{fn.name.value}.{name}" in self._config_static
                or isinstance(default, (cst.SimpleString, cst.ConcatenatedString, cst.Tuple, cst.List, cst.Dict))
                or (isinstance(default, cst.Name) and default.value in ("None", "True", "False"))
                or name in compared
                or static_by_name(name)
            ):
                static.add(name)
        if self._helpers is not None and self.outer is None:
            static |= self._helpers.fed_static(fn)
        return static

    def variables(self) -> dict[str, Tracedness]:
        if self._vars is not None:
            return self._vars
        fn = self.function
        static = self.static_params()
        table: dict[str, Tracedness] = {}
        for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params):
            table[p.name.value] = Tracedness.STATIC if p.name.value in static else Tracedness.TRACED
        for star in (fn.params.star_arg, fn.params.star_kwarg):
            if isinstance(star, cst.Param):
                table[star.name.value] = Tracedness.UNKNOWN
        bindings = _Bindings()
        walk.visit(fn.body, bindings)
        self._pairs = bindings.pairs
        for name in bindings.names:
            table.setdefault(name, Tracedness.STATIC)
        self._vars = table
        for _ in range(len(bindings.pairs) + 2):  # monotone: terminates within as many rounds as bindings
            changed = False
            for name, value in bindings.pairs:
                level = self.of(value) if value is not None else Tracedness.UNKNOWN
                if isinstance(value, _LoopTarget):
                    level = value.level(self)
                if level > table[name]:
                    table[name] = level
                    changed = True
            if not changed:
                break
        return table

    def of_test(self, node: cst.CSTNode) -> Tracedness:
        """`of`, for `node` used as a truth test (`if b:`, `while b:`): a bare parameter there is UNKNOWN, since the
        truth of an array of more than one element raises in NumPy too; it is a count, a container or None. A test
        holding a type or identity test (`python_only_test`) is STATIC: it tells Python values apart."""
        if python_only_test(node):
            return Tracedness.STATIC
        level = self.of(node)
        if level is Tracedness.TRACED and isinstance(node, cst.Name) and node.value in self._param_names():
            return Tracedness.UNKNOWN
        return level

    def _binds(self, identifier: str) -> bool:
        """Whether this function or one around it binds `identifier` (else it is the module's, or a builtin)."""
        return identifier in self.variables() or self.outer is not None and self.outer._binds(identifier)

    def returned(self) -> Tracedness:
        """The tracedness of what the function returns (the join over its `return`s, not its nested functions'); a
        function without a `return` gives None: STATIC."""
        return _join(self.of(r.value) for r in walk.nodes_of(self.function.body, cst.Return)  # type: ignore[attr-defined]
                     if r.value is not None)  # type: ignore[attr-defined]

    def _mapping_params(self) -> frozenset[str]:
        """The parameters the function uses as a dict (`_dict_uses`: `front.__getitem__` handed on, `front.items()`)
        or that every call of it in the module passes a dict (`_Helpers.fed_dicts`: `front = dict.fromkeys(fits, 0)`,
        then `sweep(fits, front)`, deap's non-dominated sorting), never rebound: their entries are UNKNOWN, not
        TRACED (a dict may hold arrays, or Python numbers a rewrite would turn into JAX arrays in the caller's dict)."""
        found = self.__dict__.get("_mapping_cache")
        if found is None:
            found = _dict_uses(self.function)
            if self._helpers is not None:
                found |= self._helpers.fed_dicts(self.function)
            found = self._mapping_cache = frozenset(n for n in found if not self.assigned_values(n))
        return found

    def _param_names(self) -> set[str]:
        params = self.function.params
        return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}

    def static_param(self, identifier: str) -> bool:
        """A parameter declared not to be an array (by its default `rng=(25, 75)`, its annotation, its name `axis`,
        or the configuration) and never rebound. Cheap: the full analysis runs only for such a parameter."""
        params = self.function.params
        param = next((p for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == identifier), None)
        if param is None or param.default is None and param.annotation is None and not static_by_name(identifier) \
                and identifier not in self._config_static:
            return False
        return self.variables().get(identifier) is Tracedness.STATIC and not self.assigned_values(identifier)

    def static_value(self, identifier: str) -> bool:
        """`static_param`, or a local name only ever bound to a list of array metadata (`shapes = [len(e) for e in
        nodes]`): a Python value that NumPy calls should keep concrete (`np.prod(shapes)` as a shape)."""
        if self.static_param(identifier):
            return True
        if self._shape_name(identifier, frozenset()):
            return True
        comprehended = self.__dict__.get("_comprehended")
        if comprehended is None:  # names bound to a comprehension, found in one walk (most functions have none)
            comprehended = self._comprehended = {
                t.target.value for a in walk.nodes_of(self.function.body, cst.Assign)
                if isinstance(a.value, COMPREHENSIONS)  # type: ignore[attr-defined]
                for t in a.targets if isinstance(t.target, cst.Name)  # type: ignore[attr-defined]
            }
        if identifier not in comprehended:
            return False
        values = self.assigned_values(identifier)
        return bool(values) and all(isinstance(v, COMPREHENSIONS) and _metadata_only(getattr(v, "elt", None) or cst.Name("_"))
                                    for v in values) and self.variables().get(identifier) is Tracedness.STATIC

    def _shape_name(self, identifier: str, seen: frozenset[str]) -> bool:
        """A local name only ever bound to array metadata: a shape, a slice or item of one, tuple arithmetic of
        them (`signal_shape = X.shape[:-1]`, `full = signal_shape + (4,)`, `n = x.shape[0]`), or another such name:
        a Python tuple or int (mne's `np.prod(signal_shape)`: `jnp.prod` rejects a tuple)."""
        if identifier in seen or identifier not in self.variables() or identifier in self._param_names():
            return False
        values = self.assigned_values(identifier)
        seen = seen | {identifier}
        return bool(values) and all(v is not None and self._shape_value(v, seen) for v in values) \
            and self.variables().get(identifier) is Tracedness.STATIC

    def _shape_value(self, expr: cst.BaseExpression, seen: frozenset[str]) -> bool:
        if isinstance(expr, cst.Attribute):
            return expr.attr.value == "shape"
        if isinstance(expr, cst.Call):  # `np.shape(x)`, `np.broadcast_shapes(a.shape, b.shape)`: a tuple of ints
            func = expr.func
            return isinstance(func, cst.Attribute) and func.attr.value in ("shape", "broadcast_shapes") \
                and isinstance(func.value, cst.Name) and func.value.value not in self.variables()
        if isinstance(expr, cst.Subscript):
            return self._shape_value(expr.value, seen)
        if isinstance(expr, cst.Name):
            return self._shape_name(expr.value, seen)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Multiply)):
            # `shape + (4,)`, `(1,) * x.ndim + shape`: tuple arithmetic, one side a shape
            sides = (expr.left, expr.right)
            return any(self._shape_value(e, seen) for e in sides) and all(
                self._shape_value(e, seen) or _metadata_only(e) for e in sides)
        if isinstance(expr, cst.Tuple):
            return all(isinstance(e, cst.Element) and (_metadata_only(e.value) or self._shape_value(e.value, seen))
                       for e in expr.elements)
        return False

    def assigned_values(self, identifier: str) -> list[Optional[cst.BaseExpression]]:
        """The expressions bound to a local name anywhere in the function (None for a loop or `with` target, or
        an augmented assignment); empty for parameters and names the function does not bind."""
        self.variables()
        out: list[Optional[cst.BaseExpression]] = []
        for name, value in self._pairs:
            if name == identifier:
                out.append(value if isinstance(value, cst.BaseExpression) and not _augmented(self.function, value) else None)
        return out

    # ---- expressions --------------------------------------------------------------------------------------------
    def name(self, identifier: str) -> Tracedness:
        table = self.variables()
        if identifier in table:
            return table[identifier]
        if self.outer is not None:
            return self.outer.name(identifier)
        return Tracedness.STATIC  # module constants, builtins, imports

    def of(self, node: cst.CSTNode) -> Tracedness:  # noqa: C901 - one case per expression kind
        if self._plain():
            return Tracedness.STATIC  # a plain-Python helper: nothing in it is an array (see is_plain_python)
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Ellipsis)):
            return Tracedness.STATIC
        if isinstance(node, cst.Name):
            return self.name(node.value)
        if isinstance(node, cst.Attribute):
            if node.attr.value in STATIC_ATTRIBUTES or _dunder(node.attr.value):
                return Tracedness.STATIC  # `.shape`; `m.__name__`, `x.__class__`: Python metadata, never traced
            base = self.of(node.value)
            if isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
                return Tracedness.UNKNOWN
            if base is Tracedness.TRACED and node.attr.value not in _ARRAY_OR_DICT_METHODS:
                return Tracedness.UNKNOWN  # `other._single`, `res.x`: an object's attribute, not an array's
            return base
        if isinstance(node, cst.Subscript):
            level = self.of(node.value)
            if level is Tracedness.TRACED and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                    and isinstance(node.slice[0].slice.value, (cst.SimpleString, cst.ConcatenatedString)):
                return Tracedness.UNKNOWN  # `env_stats["tuple_action"]`: a mapping's entry (a setting?), not an array's
            if level is Tracedness.TRACED and isinstance(node.value, cst.Name) and self.outer is None \
                    and node.value.value in self._mapping_params():
                return Tracedness.UNKNOWN  # `front[fit]` of a dict parameter: an entry, maybe a Python number
            for element in node.slice:
                level = level.join(self.of(element.slice))
            return level
        if isinstance(node, cst.Index):
            return self.of(node.value)
        if isinstance(node, cst.Slice):
            return _join(self.of(part) for part in (node.lower, node.upper, node.step) if part is not None)
        if isinstance(node, cst.Comparison):
            if all(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in node.comparisons):
                # `n not in enodes`: membership in a Python container is a Python bool; in an array it converts
                # `(a == n).any()` to bool, which fails under `jit` whatever a rewrite around it does
                return Tracedness.STATIC
            operands = [node.left, *(t.comparator for t in node.comparisons)]
            if any(_dtype_like(o) for o in operands):
                return Tracedness.STATIC  # `x.dtype != dt`, `kind == np.float32`: a dtype comparison is a Python bool
            if any(_text(o) or _text_attribute(o) or isinstance(o, (cst.List, cst.Tuple, cst.Set)) and o.elements and all(_text(e.value) for e in o.elements)
                   for o in operands):
                return Tracedness.STATIC  # `typ == 's'`, `weight in ['cos', 'sin']`: arrays are not compared with text
            if all(isinstance(t.operator, (cst.Equal, cst.NotEqual)) for t in node.comparisons) and any(
                    isinstance(o, cst.Attribute) and o.attr.value == "shape" for o in operands):
                return Tracedness.STATIC  # `x.shape == (n, 3)`: tuples compared in Python, a Python bool
            return _join([self.of(node.left), *(self.of(t.comparator) for t in node.comparisons)])
        if isinstance(node, cst.BinaryOperation):
            return self.of(node.left).join(self.of(node.right))
        if isinstance(node, cst.BooleanOperation):
            return self.of(node.left).join(self.of(node.right))
        if isinstance(node, cst.UnaryOperation):
            level = self.of(node.expression)
            if isinstance(node.operator, cst.Not) and isinstance(node.expression, cst.Name) and level is Tracedness.TRACED \
                    and node.expression.value in self._param_names():
                return Tracedness.UNKNOWN  # `not arrays`, `not maxpts`: the truth of a parameter (a container, None)
            return level
        if isinstance(node, cst.IfExp):
            return _join([self.of(node.test), self.of(node.body), self.of(node.orelse)])
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            return _join(self.of(e.value) for e in node.elements)
        if isinstance(node, cst.Dict):
            return _join(self.of(e.value) for e in node.elements if isinstance(e, cst.DictElement))
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, (cst.Lambda, cst.Name)):
            return Tracedness.STATIC
        if isinstance(node, COMPREHENSIONS):
            element = getattr(node, "elt", None)  # (a dict comprehension has none)
            return Tracedness.STATIC if element is not None and _metadata_only(element) else Tracedness.UNKNOWN
        if isinstance(node, cst.NamedExpr):
            return self.of(node.value)
        return Tracedness.UNKNOWN

    def _call(self, node: cst.Call) -> Tracedness:
        func = node.func
        args = _join(self.of(a.value) for a in node.args)
        short = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""
        public = short.lstrip("_")  # `_is_numpy_namespace(xp)`: a module's private predicate
        if public in TYPE_PREDICATES or public.startswith("is") and public not in ELEMENTWISE_TESTS and _predicate_name(public):
            return Tracedness.STATIC  # `issparse(X)`, `is_pydata_spmatrix(X)`, `isintlike(p)`: a Python bool
        if isinstance(func, cst.Name) and func.value in self._predicates and func.value not in self.variables():
            return Tracedness.STATIC  # a function of the module that only ever returns True or False
        if short in HOST_COUNTS and not (isinstance(func, cst.Name) and func.value in self.variables()):
            return Tracedness.STATIC  # `cpu_count()`, `os.cpu_count()`: the host's count, a Python int
        if isinstance(func, cst.Attribute) and func.attr.value in DTYPE_CALLS:
            return Tracedness.STATIC  # np.promote_types(...), np.result_type(x): a dtype, known when tracing
        if isinstance(func, cst.Attribute) and func.attr.value in ("size", "ndim", "shape", "broadcast_shapes") and isinstance(func.value, cst.Name) and func.value.value not in self.variables():
            return Tracedness.STATIC  # np.size(x), np.ndim(x), np.shape(x), np.broadcast_shapes(...): known when tracing
        if isinstance(func, cst.Name):
            if func.value == "getattr" and len(node.args) >= 2 and isinstance(node.args[1].value, cst.SimpleString) \
                    and node.args[1].value.evaluated_value in STATIC_ATTRIBUTES:
                return Tracedness.STATIC  # `getattr(val, 'ndim', 0)`: like `val.ndim`
            if func.value == "getattr":
                return Tracedness.UNKNOWN  # `getattr(self, "root_", None)`: an object's attribute, as `self.root_` is
            if func.value in STATIC_CALLS:
                return Tracedness.STATIC if func.value != "range" else args
            if func.value in ("set", "frozenset", "dict"):
                return Tracedness.STATIC  # a Python container, never an array (`not set(a).difference(b)`)
            if func.value in ("any", "all") and func.value not in self.variables():
                # builtin `any(g)`/`all(g)` takes `bool()` of each item: a Python bool of static items (`any(n < 0 for
                # n in x.shape)`); of traced ones it raises under `jit`, which the `if` on it is reported for
                return args
            if func.value in ("tuple", "list", "sorted", "reversed"):
                return args  # a Python sequence of static items is static
            if func.value in ("int", "float", "bool", "abs", "round", "max", "min", "sum", "complex"):
                return args
            if makes_object(node):
                return Tracedness.UNKNOWN  # `Model(x)`: an object made by a class, not an array
            if self._helpers is not None and func.value in self._helpers.text_names and not self._binds(func.value):
                return Tracedness.STATIC  # `fullmatch(p, arg)` from `re`: a Python value, never an array
            if self._helpers is not None and not self._binds(func.value) and self._helpers.static_result(func.value):
                # `n = min(get_n_jobs(n_jobs), n_estimators)`, `get_n_jobs` returning `max(cpu_count() + 1 + n_jobs,
                # 1)` or `n_jobs` (pyod): a function of the module whose every return is static, traced inputs or not
                return Tracedness.STATIC
            if args is Tracedness.TRACED and self._helpers is not None and not self._binds(func.value) \
                    and self._helpers.untraced_result(func.value):
                # `doram, eta = unpack(options)`, `unpack` returning `options.doram`, `options.eta` (pymcmcstat):
                # what a function of the module returns is no array there (an object's attribute, a count...)
                return Tracedness.UNKNOWN
            if args is Tracedness.TRACED and _gets_object(node):
                return Tracedness.UNKNOWN  # `compare(self, other)`: a function given the object itself, not an array
            return args if args is Tracedness.TRACED else args.join(Tracedness.UNKNOWN) if node.args else Tracedness.UNKNOWN
        if isinstance(func, cst.Attribute):
            owner = self.of(func.value)
            root = func.value
            while isinstance(root, cst.Attribute):
                root = root.value
            if isinstance(root, cst.Name) and root.value in ("self", "cls"):
                return Tracedness.UNKNOWN  # `self.__eq__(other)`, `self.fun(x)`: whatever the method returns
            receiver = func.value
            if isinstance(receiver, (cst.Set, cst.Dict, cst.SetComp, cst.DictComp)) or isinstance(receiver, cst.Call) and \
                    isinstance(receiver.func, cst.Name) and receiver.func.value in ("set", "frozenset", "dict"):
                return Tracedness.STATIC  # `set(a).difference(b)`: a Python container's method
            if isinstance(root, cst.Name) and root.value not in self.variables() and (self.outer is None or self.outer.name(root.value) is Tracedness.STATIC):
                if self._helpers is not None and root.value in self._helpers.text_names:
                    return Tracedness.STATIC  # `re.fullmatch(p, arg)`, `os.path.join(d, f)`: a Python value
                if args is Tracedness.TRACED and root.value not in self._array_names and _gets_object(node):
                    # `not deepdiff.DeepDiff(self, other)` in an `__eq__` (pyfar): a library other than NumPy's or
                    # JAX's given the object itself compares or inspects objects; its result (a dict, a report) is
                    # no array, and its truth is Python's
                    return Tracedness.UNKNOWN
                # a module function such as np.sum / jnp.where / math.sqrt: traced iff an argument is
                return args
            if func.attr.value in TEXT_METHODS and (
                    isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
                    or all(isinstance(a.value, (cst.SimpleString, cst.ConcatenatedString)) and not a.star for a in node.args)):
                # `arg.startswith("S")`, `line.split()`, `", ".join(v)`: no array has the method; text, a bool, a list
                # (not `xp.split(x, 2)`, an array namespace's, nor `cv.split(X)`, an object's: given no text)
                return Tracedness.STATIC
            return owner.join(args)  # a method: x.sum(), x.reshape(n)
        return Tracedness.UNKNOWN


def _gets_object(node: cst.Call) -> bool:
    """Whether the call is given the method's own object (`self`, `cls`) as an argument: what it returns is then
    about that object (a comparison, a copy, a report), not an array computed from arrays."""
    return any(isinstance(a.value, cst.Name) and a.value.value in ("self", "cls") for a in node.args)


def _augmented(function: cst.FunctionDef, value: cst.BaseExpression) -> bool:
    return any(node.value is value for node in walk.nodes_of(function.body, cst.AugAssign))  # type: ignore[attr-defined]


def _join(levels) -> Tracedness:
    out = Tracedness.STATIC
    for level in levels:
        out = out.join(level)
    return out


class _LoopTarget:
    def __init__(self, iterable: cst.BaseExpression) -> None:
        self.iterable = iterable

    def level(self, analysis: FunctionTracedness) -> Tracedness:
        it = self.iterable
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("range", "enumerate", "zip"):
            return _join(analysis.of(a.value) for a in it.args)
        return analysis.of(it)


def _enumerated(target: cst.BaseExpression, iterable: cst.BaseExpression) -> bool:
    """`i, v` over `enumerate(xs)`."""
    return isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" \
        and bool(iterable.args) and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 \
        and not any(isinstance(e, cst.StarredElement) for e in target.elements)


class _Bindings(cst.CSTVisitor):
    """(name, value expression) for every binding in a function body (not nested functions)."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, object]] = []
        self.names: set[str] = set()

    def _bind(self, target: cst.BaseExpression, value: object) -> None:
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                and len(target.elements) == len(value.elements) \
                and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
            for name, item in zip(target.elements, value.elements):  # `pop, problem = a.pop, a.problem`: item by item
                self._bind(name.value, item.value)
            return
        activity = Activity()
        _Collector(activity).target(target)
        for name in activity.writes:
            self.names.add(name)
            self.pairs.append((name, value))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, node.value)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        self._loop(node.target, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        # a comprehension's own names are left unbound (as names of another scope), but for `enumerate`'s counter
        if _enumerated(node.target, node.iter):
            self._bind(node.target.elements[0].value, cst.Integer("0"))  # type: ignore[attr-defined]

    def _loop(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> None:
        """`for i, v in enumerate(xs)`: `i` counts in Python (static), `v` is an element of `xs`."""
        if _enumerated(target, iterable):
            self._bind(target.elements[0].value, cst.Integer("0"))  # type: ignore[attr-defined]
            self._bind(target.elements[1].value, _LoopTarget(iterable.args[0].value))  # type: ignore[attr-defined]
            return
        self._bind(target, _LoopTarget(iterable))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


_DICT_MAKERS = frozenset({"dict", "defaultdict", "OrderedDict", "Counter"})
_DICT_ONLY_METHODS = frozenset({"keys", "values", "items", "get", "setdefault", "popitem", "__getitem__"})


def _dict_maker(value: cst.BaseExpression) -> bool:
    """`{...}`, `{k: v for ...}`, `dict(...)`, `dict.fromkeys(...)`, `collections.defaultdict(list)`, `Counter(...)`."""
    if isinstance(value, (cst.Dict, cst.DictComp)):
        return True
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value == "fromkeys" and isinstance(func.value, cst.Name):
        return func.value.value == "dict"
    short = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""
    return short in _DICT_MAKERS


def _dict_uses(function: cst.FunctionDef) -> frozenset[str]:
    """The parameters `function` reads through a method only a dict has (`front.items()`, `front.get(k)`, `key=
    front.__getitem__`: NumPy arrays have none of these)."""
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    return frozenset(a.value.value for a in walk.nodes_of(function.body, cst.Attribute)  # type: ignore[attr-defined]
                     if a.attr.value in _DICT_ONLY_METHODS and isinstance(a.value, cst.Name)  # type: ignore[attr-defined]
                     and a.value.value in params)  # type: ignore[attr-defined]


def _passed(call: cst.Call, positional: list[cst.Param]) -> Optional[dict[str, cst.BaseExpression]]:
    """{parameter name: the value `call` gives it} by position (`positional`) and keyword; None for a call with
    `*args` or `**kwargs`, which may fill any."""
    if any(a.star for a in call.args):
        return None
    passed: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.keyword is not None:
            passed[arg.keyword.value] = arg.value
        elif index < len(positional):
            passed[positional[index].name.value] = arg.value
    return passed


def _reaches_dicts_only(caller: cst.FunctionDef, call: cst.Call, name: str) -> bool:
    """Whether every binding of `name` that reaches `call` in `caller` (by its reaching definitions) binds a dict
    (`_dict_maker`), and one does. (The reaching definitions are asked only when `caller` binds `name` to a dict
    somewhere: most names passed are arrays, and a flow graph per call would cost.)"""
    if not any(_dict_maker(a.value) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)  # type: ignore[attr-defined]
               for a in walk.nodes_of(caller.body, cst.Assign)):
        return False
    statement = next((small for line in walk.nodes_of(caller.body, cst.SimpleStatementLine)
                      for small in line.body if any(c is call for c in walk.nodes_of(small, cst.Call))), None)  # type: ignore[attr-defined]
    if statement is None:
        return False
    flow = FunctionFlow(caller)
    if not flow.knows(statement):
        return False
    reaching = flow.reaching(statement, name)
    return bool(reaching) and all(
        isinstance(d.node, cst.Assign) and len(d.node.targets) == 1 and isinstance(d.node.targets[0].target, cst.Name)
        and _dict_maker(d.node.value) for d in reaching)


class _Helpers:
    """The module's top-level functions, for the calls of them: whether one returns no traced value when its
    parameters are traced arrays (`untraced_result`). Analyses are shared with the provider's."""

    def __init__(self, module: cst.Module, make) -> None:
        defined = [s for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))]
        names = [s.name.value for s in defined]
        self.functions = {s.name.value: s for s in defined if isinstance(s, cst.FunctionDef) and names.count(s.name.value) == 1}
        # methods of the module's classes whose name is defined once in the module (no override, no namesake function)
        owned = [(f, c) for f, c in _outermost_functions(module) if c is not None]
        method_names = [f.name.value for f, _ in owned] + names
        self.methods = {f.name.value: f for f, _ in owned if method_names.count(f.name.value) == 1
                        and f.params.params and f.params.params[0].name.value == "self"}
        self.owners = {id(f): c for f, c in owned}
        self.analyses: dict[cst.FunctionDef, FunctionTracedness] = {}
        self._make = make
        self._results: dict[str, bool] = {}
        self._static: dict[str, bool] = {}
        self._module = module
        self.text_names = text_library_names(module)
        self._fed: dict[object, frozenset[str]] = {}
        self._calls: Optional[dict[int, list[tuple[cst.Call, Optional[cst.FunctionDef]]]]] = None

    def analysis(self, function: cst.FunctionDef) -> FunctionTracedness:
        found = self.analyses.get(function)
        if found is None:
            found = self.analyses[function] = self._make(function)
        return found

    def static_result(self, name: str) -> bool:
        """Whether the module's function `name` (defined once, not a generator nor `async`) returns only static
        values (a Python count, a literal), its parameters taken as they are seeded (a recursive call is not)."""
        if not self.untraced_result(name):
            return False
        known = self._static.get(name)
        if known is None:
            self._static[name] = False  # (while it is being found: a call of itself is not static)
            known = self._static[name] = self.analysis(self.functions[name]).returned() is Tracedness.STATIC
        return known

    def fed_static(self, function: cst.FunctionDef) -> frozenset[str]:
        """The parameters of the module's private function `function` (a top-level function or a method named
        `_name`, defined once, undecorated, never used but called: `_name(...)`, or `self._name(...)` in its class)
        that every call of it in the module gives a static value, or leaves at a number default (mne's
        `next_fast_len(2 * len(h) - 1)`, pysteps' `get_padding(x.shape[0], order)`): Python ints and floats in
        practice, which stay Python (`min`, `if`, `while` on them; `jnp.where` would hand NumPy and SciPy a 0-d
        array). A public function is not judged: other modules may call it with arrays, and jaxfix sees only this
        module's calls; nor a private one another file of the run mentions (`private_names`: a sibling module's
        `from ._utils import _pad`). A function without calls in the module gets nothing; a call in a nested function, a lambda
        or at module level counts only for a literal or an array's metadata (`len(r)`, `x.shape[0]`); a call that is
        being judged when it depends on itself (recursion) does not count."""
        key = id(function)
        known = self._fed.get(key)
        if known is not None:
            return known
        self._fed[key] = frozenset()  # (while it is being found: a call of itself passes nothing static)
        if function.decorators or not function.name.value.startswith("_") or function.name.value.startswith("__") \
                or function.name.value in private_names.mentioned_elsewhere():
            return frozenset()  # (called from elsewhere, maybe with arrays)
        sites = self._site_arguments(function)
        if not sites:
            return frozenset()
        candidates = {p.name.value: p for p in (*self._positional(function), *function.params.kwonly_params)
                      if p.default is None or _number_or_size(p.default)}
        for call, caller, passed in sites:
            for pname in list(candidates):
                value = passed.get(pname)
                if value is None:
                    if candidates[pname].default is None:
                        del candidates[pname]  # (a call that misses it raises anyway)
                    continue
                if caller is None:
                    fine = _number_or_size(value)
                else:
                    analysis = self.analysis(caller)
                    fine = analysis.of(value) is Tracedness.STATIC and not (
                        isinstance(call.func, cst.Name) and analysis._binds(call.func.value))
                if not fine:
                    del candidates[pname]
            if not candidates:
                break
        found = self._fed[key] = frozenset(candidates)
        return found

    def _module_dict(self, name: str) -> bool:
        """Whether the module's code outside functions and classes binds `name`, and only to dicts (`_dict_maker`)."""
        values: list[Optional[cst.BaseExpression]] = []
        stack: list[cst.CSTNode] = list(self._module.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                continue
            if isinstance(node, cst.Assign):
                if any(name in {n.value for n in walk.nodes_of(t.target, cst.Name)} for t in node.targets):  # type: ignore[attr-defined]
                    single = len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                    values.append(node.value if single else None)
                continue
            if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr)) and any(
                    n.value == name for n in walk.nodes_of(node, cst.Name)):  # type: ignore[attr-defined]
                if not isinstance(node, (cst.For, cst.With)):
                    values.append(None)
                    continue
                if isinstance(node, cst.For) and name in {n.value for n in walk.nodes_of(node.target, cst.Name)}:  # type: ignore[attr-defined]
                    values.append(None)
            stack.extend(walk.children(node))
        return bool(values) and all(v is not None and _dict_maker(v) for v in values)

    def _site_arguments(self, function: cst.FunctionDef
                        ) -> Optional[list[tuple[cst.Call, Optional[cst.FunctionDef], dict[str, cst.BaseExpression]]]]:
        """Each call of `function` in the module (`_sites`) with the function making it and the values it gives the
        parameters (`_passed`); None when it has no calls, or one passes `*args`/`**kwargs`, which may fill any."""
        sites = self._sites().get(id(function))
        if not sites:
            return None
        positional = self._positional(function)
        found = []
        for call, caller in sites:
            passed = _passed(call, positional)
            if passed is None:
                return None
            found.append((call, caller, passed))
        return found

    def _positional(self, function: cst.FunctionDef) -> list[cst.Param]:
        """The positional parameters a call of `function` fills (without `self` for a method of `methods`)."""
        positional = [*function.params.posonly_params, *function.params.params]
        return positional[1:] if self.methods.get(function.name.value) is function else positional

    def fed_dicts(self, function: cst.FunctionDef) -> frozenset[str]:
        """The parameters of the module's function `function` (a top-level function, or a method called as
        `self.name(...)` in its class; public ones too: this is evidence of what the parameter is, not the absence of
        other callers) that every call of it in the module passes a dict: a dict display or comprehension,
        `dict(...)`, `dict.fromkeys(...)`, `defaultdict(...)`, `OrderedDict(...)`, `Counter(...)`, a name the calling
        function binds only to one, or a parameter of the calling function that is one of its own `fed_dicts` or
        that it uses as a dict (`_dict_uses`). A recursive call passing the parameter on counts for nothing; at
        least one call must pass a dict."""
        key = ("dicts", id(function))
        known = self._fed.get(key)  # type: ignore[call-overload]
        if known is not None:
            return known
        self._fed[key] = frozenset()  # type: ignore[index]  # (while it is being found)
        sites = self._site_arguments(function)
        if not sites:
            return frozenset()
        candidates = {p.name.value for p in (*self._positional(function), *function.params.kwonly_params)}
        supplied: set[str] = set()
        for call, caller, passed in sites:
            for pname in list(candidates):
                value = passed.get(pname)
                if value is None:
                    candidates.discard(pname)
                    continue
                if _dict_maker(value):
                    supplied.add(pname)
                    continue
                if caller is None and isinstance(value, cst.Name) and self._module_dict(value.value):
                    supplied.add(pname)  # (`f = {"a": 0}` at module level, then `bump(f, "a", "b")`)
                    continue
                if caller is None or not isinstance(value, cst.Name):
                    candidates.discard(pname)
                    continue
                if caller is function and value.value == pname:
                    continue  # (recursion passing it on)
                caller_params = {p.name.value for p in (*caller.params.posonly_params, *caller.params.params,
                                                        *caller.params.kwonly_params)}
                if value.value in caller_params:
                    if value.value in _dict_uses(caller) | self.fed_dicts(caller):
                        supplied.add(pname)
                    else:
                        candidates.discard(pname)
                    continue
                if _reaches_dicts_only(caller, call, value.value):  # (`front = dict.fromkeys(fits, 0)`, then the call)
                    supplied.add(pname)
                else:
                    candidates.discard(pname)
            if not candidates:
                break
        found = self._fed[key] = frozenset(candidates & supplied)  # type: ignore[index]
        return found

    def _sites(self) -> dict[int, list[tuple[cst.Call, Optional[cst.FunctionDef]]]]:
        """{id of a function of `functions` or `methods`: its calls in the module (`name(...)`; `self.name(...)` in
        a method of the method's class), each with the function that makes it (a top-level function or a method;
        None for a call at module level, in a class body, in a nested function or lambda)}, for the functions
        whose name is read nowhere else (not passed, stored, called on another object, or the name of a keyword)."""
        if self._calls is not None:
            return self._calls
        functions, methods = self.functions, self.methods
        calls: list[tuple[cst.Call, cst.FunctionDef]] = []
        for c in walk.nodes_of(self._module, cst.Call):
            func = c.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value in functions:
                calls.append((c, functions[func.value]))  # type: ignore[arg-type]
            elif isinstance(func, cst.Attribute) and func.attr.value in methods and isinstance(func.value, cst.Name) \
                    and func.value.value == "self":
                calls.append((c, methods[func.attr.value]))  # type: ignore[arg-type]
        found: dict[int, list[tuple[cst.Call, Optional[cst.FunctionDef]]]] = {}
        if calls:
            read = {id(c.func.attr if isinstance(c.func, cst.Attribute) else c.func) for c, _ in calls}  # type: ignore[attr-defined]
            read.update(id(f.name) for f in (*functions.values(), *methods.values()))
            escaped = {n.value for n in walk.nodes_of(self._module, cst.Name)  # type: ignore[attr-defined]
                       if (n.value in functions or n.value in methods) and id(n) not in read}  # type: ignore[attr-defined]
            wanted = [(c, f) for c, f in calls if f.name.value not in escaped]
            callers: dict[int, tuple[Optional[cst.FunctionDef], Optional[cst.ClassDef]]] = {}
            if wanted:
                keys = {id(c) for c, _ in wanted}
                for function, owner in _outermost_functions(self._module):
                    inner = [n for kind in (cst.FunctionDef, cst.Lambda) for n in walk.nodes_of(function.body, kind)]
                    nested = {id(c) for n in inner for c in walk.nodes_of(n, cst.Call)}
                    for c in walk.nodes_of(function.body, cst.Call):
                        if id(c) in keys and id(c) not in nested:
                            callers[id(c)] = (function, owner)
            for call, callee in wanted:
                caller, owner = callers.get(id(call), (None, None))
                if callee is functions.get(callee.name.value):
                    found.setdefault(id(callee), []).append((call, caller))
                elif caller is not None and owner is not None and self.owners.get(id(callee)) is owner:
                    found.setdefault(id(callee), []).append((call, caller))
                else:  # `self.name(...)` outside the methods of its class: another object's method
                    found[id(callee)] = []
                    escaped.add(callee.name.value)
            for callee in (*functions.values(), *methods.values()):
                if callee.name.value in escaped:
                    found.pop(id(callee), None)
        self._calls = found
        return found

    def untraced_result(self, name: str) -> bool:
        """Whether the module's function `name` (defined once, not a generator nor `async`) returns no traced value
        (a recursive call is taken for a traced one)."""
        if name in self._results:
            return self._results[name]
        function = self.functions.get(name)
        if function is None or function.asynchronous is not None or walk.contains(function.body, cst.Yield) \
                or not walk.contains(function.body, cst.Return):  # type: ignore[attr-defined]
            self._results[name] = False
            return False
        self._results[name] = False  # (while it is being found: a call of itself is traced)
        self._results[name] = self.analysis(function).returned() is not Tracedness.TRACED
        return self._results[name]


class TracednessProvider(BatchableMetadataProvider[FunctionTracedness]):
    """Metadata on each FunctionDef: its FunctionTracedness (computed lazily)."""

    def __init__(self) -> None:
        super().__init__()
        self._stack: list[FunctionTracedness] = []
        self._config: frozenset[str] = frozenset()

    def visit_Module(self, node: cst.Module) -> None:
        from jaxfix.analysis import settings

        self._config = frozenset(settings.current().get("static-args", ()) or ())
        self._array_names = array_names(ModuleImports.read(node))
        self._lazy = lazy_array_imports(node)
        self._optional = optional_array_imports(node)
        self._compiled = host_functions(node)
        self._predicates = literal_predicates(node)
        self._mappings = module_mappings(node)
        self._helpers = _Helpers(node, lambda function: FunctionTracedness(
            function, self._config, None, self._array_names, self._lazy, self._compiled, self._predicates,
            self._mappings, self._helpers, self._optional))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        outer = self._stack[-1] if self._stack else None
        analysis = self._helpers.analysis(node) if outer is None else \
            FunctionTracedness(node, self._config, outer, self._array_names, self._lazy, self._compiled,
                               self._predicates, self._mappings, self._helpers, self._optional)
        self._stack.append(analysis)
        self.set_metadata(node, analysis)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._stack.pop()


def _outermost_functions(module: cst.Module) -> list[tuple[cst.FunctionDef, Optional[cst.ClassDef]]]:
    """The module's top-level functions and the methods of its top-level classes (functions without an enclosing
    function, as the provider gives them no `outer`), each with its class (None for a function)."""
    out: list[tuple[cst.FunctionDef, Optional[cst.ClassDef]]] = []
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            out.append((stmt, None))
        elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
            out.extend((s, stmt) for s in stmt.body.body if isinstance(s, cst.FunctionDef))
    return out


def _number_or_size(expr: cst.BaseExpression) -> bool:
    """A number literal (`3`, `-0.5`), an array's metadata (`len(h)`, `x.shape[0]`), or arithmetic of them: a
    Python number whatever the arrays are."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _number_or_size(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return _number_or_size(expr.left) and _number_or_size(expr.right)
    return not isinstance(expr, (cst.SimpleString, cst.Tuple)) and _metadata_only(expr)


def _metadata_only(expr: cst.BaseExpression) -> bool:
    """`len(e)`, `e.shape[0]`, `e.ndim`, `(e.shape, 1)`: what an array's metadata gives, known when tracing whatever
    `e` is (`[len(e) for e in nodes]`: quantecon's shapes)."""
    if isinstance(expr, (cst.Integer, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Call):
        return isinstance(expr.func, cst.Name) and expr.func.value == "len" and len(expr.args) == 1
    if isinstance(expr, cst.Attribute):
        return expr.attr.value in ("shape", "ndim", "size", "dtype")
    if isinstance(expr, cst.Subscript):
        return isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape"
    if isinstance(expr, cst.Tuple):
        return all(_metadata_only(e.value) for e in expr.elements)
    return False


def literal_predicates(module: cst.Module) -> frozenset[str]:
    """The module's top-level functions whose every `return` gives the literal `True` or `False`: whatever they
    compute, they hand back a Python bool (pysindy's `_check_multiple_trajectories`, built from `isinstance`).
    Returns of nested functions count too: that can only turn a predicate down, or accept a function that gives
    None, which is static as well."""
    found = set()
    for stmt in module.body:
        if not isinstance(stmt, cst.FunctionDef) or stmt.asynchronous is not None or not _may_end_in_bool(stmt):
            continue
        returns = walk.nodes_of(stmt.body, cst.Return)
        if returns and all(r.value is not None and _python_bool(r.value) for r in returns) \
                and not walk.contains(stmt.body, cst.Yield):  # type: ignore[attr-defined]
            found.add(stmt.name.value)
    return frozenset(found)


def _may_end_in_bool(function: cst.FunctionDef) -> bool:
    """A cheap first look: a function that only returns Python bools ends in `return <bool>` or in a compound
    statement (`if ...: return True` / `else: return False`); most functions end in `return <array>`."""
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        end = last.body[-1]
        return isinstance(end, cst.Return) and end.value is not None and _python_bool(end.value)
    return isinstance(last, (cst.If, cst.Try, cst.With, cst.For, cst.While))


def _python_bool(expr: cst.BaseExpression) -> bool:
    """`True`, `isinstance(x, list)`, `x is None`, and `not`/`and`/`or` of such: a Python bool whatever `x` is."""
    return _python_tests(expr, every=True)


def python_only_test(expr: cst.CSTNode) -> bool:
    """A truth test holding, directly or through `and`/`or`/`not`, a type test (`isinstance(v, np.ndarray)`,
    `callable(f)`) or an identity test (`v is ref`, `x is not None`): values that are Python's, never traced. Such a
    test tells Python values apart (None, strings, objects, arrays), so its other operands need not be arrays
    either (`not (value == ref or value is ref)` compares strings in nevergrad): the statement stays Python, and
    `jnp.logical_*`, `jnp.where` or `lax.cond`/`lax.switch` around it would run array code on those values."""
    return _python_tests(expr, every=False)


def _python_tests(expr: cst.CSTNode, every: bool) -> bool:
    """Whether every part (`every`) or some part of `expr`, through `not`/`and`/`or`, is a type test, an identity
    test or (for every part) `True`/`False`."""
    if isinstance(expr, cst.Name):
        return every and expr.value in ("True", "False")
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return _python_tests(expr.expression, every)
    if isinstance(expr, cst.BooleanOperation):
        combine = all if every else any
        return combine(_python_tests(side, every) for side in (expr.left, expr.right))
    if isinstance(expr, cst.Call):
        return isinstance(expr.func, cst.Name) and expr.func.value in PYTHON_ONLY_CALLS
    if isinstance(expr, cst.Comparison):
        combine = all if every else any
        return combine(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in expr.comparisons)
    return False


def function_tracedness(rule: cst.MetadataDependent, function: cst.FunctionDef) -> FunctionTracedness:
    return rule.get_metadata(TracednessProvider, function)


def tracedness(rule: cst.MetadataDependent, expr: cst.CSTNode, function: Optional[cst.FunctionDef] = None) -> Tracedness:
    """Tracedness of `expr` inside `function` (default: the function the rule is visiting; STATIC outside one)."""
    function = function or getattr(rule, "current_function", None)
    if function is None:
        return Tracedness.STATIC
    return function_tracedness(rule, function).of(expr)
