"""Dtypes JAX arrays cannot hold: strings, objects, records, dates, a swapped byte order, float128; and string data.

`foreign_dtype(rule, call, short)` answers for a NumPy call's dtype argument (keyword or the position NumPy's creation
functions take it at), judged with `np.dtype` itself rather than a list of spellings; rules keep such a call, and its
function, NumPy (`rule` must declare `NumpyNameProvider`). `object_data` finds string or object data handed to a NumPy call
(`np.array(["a", "b"])`, `np.array([None] * n)`), which makes a string or object array just as well.

A dtype may be named by a constant of another module of the run (`LABEL = np.str_` in `pkg/consts.py`, then `from
.consts import LABEL` and `np.empty(n, dtype=LABEL)`): `INDEX`, a project index, finds each module's top-level names
bound only to such a dtype (on its `ast` tree), and `jax_rejects` counts an imported one as the dtype itself, also
read through its module (`consts.LABEL`) or re-exported by a package (`from .consts import LABEL` in its
`__init__.py`); a rule asking must list `INDEX` in its `INDEXES`. Not followed: a star import.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from typing import Any, Container, Mapping, Optional

import libcst as cst
import numpy as np

from jaxfix import walk
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.imports import absolute_module, dotted_name, imported_bindings
from jaxfix.precheck import numpy_aliases
from jaxfix.rule import ProjectIndex

# where NumPy's creation functions take their dtype positionally
DTYPE_POSITION = {
    "zeros": 1, "ones": 1, "empty": 1, "full": 2, "array": 1, "asarray": 1, "asanyarray": 1, "ascontiguousarray": 1,
    "frombuffer": 1, "fromstring": 1, "fromfile": 1, "fromiter": 1, "zeros_like": 1, "ones_like": 1, "empty_like": 1,
    "full_like": 2, "dtype": 0,
}
# (a class that is no scalar type is an object dtype: `dtype=np.ndarray` is python-control's array of polynomials)
FOREIGN_TYPES = {"object", "str", "bytes", "list", "tuple", "dict", "set"}
FOREIGN_NUMPY_TYPES = {"object_", "str_", "bytes_", "void", "datetime64", "timedelta64", "record", "character", "flexible",
                       "ndarray", "matrix",
                       # extended precision (`np.ones(4, dtype=np.longdouble)`: pywt's tests)
                       "longdouble", "clongdouble", "float128", "complex256", "longfloat", "clongfloat", "float96",
                       "complex192"}


def foreign_dtype(rule: cst.MetadataDependent, call: cst.Call, short: str) -> Optional[str]:
    """The dtype argument of a NumPy call that JAX cannot represent (`'S4'`, `'>i'`, `object`, a record layout), as
    written; None when there is none or it is not a literal. For `np.zeros_like(a)` without one, `a.dtype` when `a`
    is a record array (`_record_evidence`)."""
    position = DTYPE_POSITION.get(short)
    if short.endswith("_like") and call.args and not call.args[0].star and isinstance(call.args[0].value, cst.Name) \
            and call.args[0].value.value in _record_evidence(rule)[1] \
            and not any(a.keyword is not None and a.keyword.value == "dtype" for a in call.args) \
            and sum(a.keyword is None for a in call.args) < 2:
        return f"{call.args[0].value.value}.dtype"  # `np.zeros_like(nodes)` of a record array (`nodes["left"]`)
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if (arg.keyword is not None and arg.keyword.value == "dtype") or (arg.keyword is None and index == position):
            if jax_rejects(rule, arg.value):
                return cst.Module([]).code_for_node(arg.value).strip()
    return None


_NUMERIC_BUILTINS = frozenset({"float", "int", "bool", "complex"})


def jax_rejects(rule: cst.MetadataDependent, value: cst.BaseExpression, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a dtype, as written (`object`, `str`, `np.str_`, `'U5'`, `'>i4'`, a record layout), is one JAX arrays
    cannot have (`rule` must declare `NumpyNameProvider`); a name bound to one, at module level or in the function,
    however it is spelled (`TEXT = "U5"`, `KIND = np.object_`, `KIND = np.dtype(str)`), counts as it."""
    if isinstance(value, (cst.List, cst.Tuple)):
        return bool(value.elements) and all(isinstance(e.value, cst.Tuple) for e in value.elements)  # a record layout
    if isinstance(value, cst.ListComp):  # `[(f"f{i}", a.dtype) for i in range(n)]`: a record layout too
        return isinstance(value.elt, cst.Tuple)
    if isinstance(value, cst.Dict):  # `{"names": [...], "formats": [...]}`: a record layout too
        return any(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                   and e.key.evaluated_value == "names" for e in value.elements)
    if isinstance(value, cst.Name):
        # (`TEXT = "U5"` at module level or in the function, then `y.astype(TEXT)`; `seen`: `A = B`, `B = A` ends)
        if value.value in FOREIGN_TYPES:
            return True
        if value.value in _NUMERIC_BUILTINS or value.value in seen:
            return False
        if value.value in _record_evidence(rule)[0]:
            return True  # `dtype=current` where the function reads `current.names`: a record layout, maybe
        bound = _bound_values(rule, value.value)
        if not bound:  # (`from .consts import LABEL`: a constant of another module of the run, `INDEX`)
            return _imported_constant(rule, value.value)
        return any(jax_rejects(rule, v, seen | {value.value}) for v in bound)
    if isinstance(value, cst.Attribute) and value.attr.value == "dtype" and isinstance(value.value, cst.Name) \
            and value.value.value in _record_evidence(rule)[1]:
        return True  # `dtype=nodes.dtype` where the function reads `nodes["left"]`: a record array's dtype
    qualified = numpy_name(rule, value) if isinstance(value, cst.Attribute) else None
    if qualified is not None:
        return qualified.split(".")[-1] in FOREIGN_NUMPY_TYPES
    if isinstance(value, cst.Attribute) and isinstance(value.value, (cst.Name, cst.Attribute)):
        return _imported_constant(rule, dotted_name(value))  # `consts.LABEL` after `from . import consts`
    if isinstance(value, cst.SimpleString):
        return foreign_code(value.evaluated_value)
    if isinstance(value, cst.FormattedString):  # f'>{typecode}': a byte order spelled out
        return value.start.lstrip("fFrR") in ("'", '"') and bool(value.parts) and isinstance(
            value.parts[0], cst.FormattedStringText) and value.parts[0].value[:1] in (">", "<", "|", "S", "U", "V", "O")
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "newbyteorder":
        return True
    if isinstance(value, cst.Call) and value.args and not value.args[0].star and value.args[0].keyword is None \
            and isinstance(value.func, (cst.Name, cst.Attribute)) and (numpy_name(rule, value.func) or "").endswith(".dtype"):
        return jax_rejects(rule, value.args[0].value, seen)  # `np.dtype("U5")`
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name):
        # `dtype=dtypes[mode]` with `dtypes = {'exact': object, 'numeric': np.float64}` (nodepy's coefficients)
        return any(jax_rejects(rule, v, seen) for v in _mapping_values(rule, value.value.value))
    return False


# what tells a record layout from a plain dtype: its field names, and (`fields`) their dtypes and offsets
_RECORD_ATTRIBUTES = frozenset({"names", "fields"})
_RECORDS: dict[int, tuple[cst.CSTNode, tuple[frozenset[str], frozenset[str]]]] = {}


def _record_evidence(rule: cst.MetadataDependent) -> tuple[frozenset[str], frozenset[str]]:
    """(dtypes, arrays): the names of the function `rule` visits that may hold a record layout (structured dtype) by
    what the function does with them: dtypes whose field names it reads (`current.names`, `dt.fields`), and arrays
    whose dtype's field names it reads (`a.dtype.names`) or that it indexes by a field name (`nodes["left"]`, or
    `nodes[name]` for `name` running over such names: `for name in current.names`). JAX has no record dtypes:
    `np.zeros(n, dtype=current)`, `dtype=nodes.dtype`, stay NumPy (pyod's tree realignment of scikit-learn's nodes)."""
    function = getattr(rule, "current_function", None)
    if function is None:
        return frozenset(), frozenset()
    known = _RECORDS.get(id(function))
    if known is not None and known[0] is function:
        return known[1]
    dtypes: set[str] = set()
    arrays: set[str] = set()
    fields: set[str] = set()  # loop variables running over field names
    for attribute in walk.nodes_of(function.body, cst.Attribute):
        if attribute.attr.value not in _RECORD_ATTRIBUTES:  # type: ignore[attr-defined]
            continue
        owner = attribute.value  # type: ignore[attr-defined]
        if isinstance(owner, cst.Name):
            dtypes.add(owner.value)
        elif isinstance(owner, cst.Attribute) and owner.attr.value == "dtype" and isinstance(owner.value, cst.Name):
            arrays.add(owner.value.value)
    for loop in walk.nodes_of(function.body, cst.For):
        it = loop.iter  # type: ignore[attr-defined]
        if isinstance(it, cst.Attribute) and it.attr.value in _RECORD_ATTRIBUTES and isinstance(loop.target, cst.Name):  # type: ignore[attr-defined]
            fields.add(loop.target.value)  # type: ignore[attr-defined]
    for subscript in walk.nodes_of(function.body, cst.Subscript):
        items = subscript.slice  # type: ignore[attr-defined]
        if isinstance(subscript.value, cst.Name) and len(items) == 1 and isinstance(items[0].slice, cst.Index) and (  # type: ignore[attr-defined]
                isinstance(items[0].slice.value, STRING_LITERALS)
                or isinstance(items[0].slice.value, cst.Name) and items[0].slice.value.value in fields):
            arrays.add(subscript.value.value)  # type: ignore[attr-defined]
    found = frozenset(dtypes), frozenset(arrays)
    if len(_RECORDS) > 256:
        _RECORDS.clear()
    _RECORDS[id(function)] = (function, found)
    return found


def record_field(rule: cst.MetadataDependent, index: cst.BaseExpression) -> bool:
    """Whether `index`, an index of an array in the function `rule` visits, names a record field: a string, or a
    name running over a dtype's field names (`for name in current.names`, then `new[name] = nodes[name]`) or over a
    list of strings (a dict's keys, more likely)."""
    if isinstance(index, STRING_LITERALS):
        return True
    function = getattr(rule, "current_function", None)
    if not isinstance(index, cst.Name) or function is None:
        return False
    return any(isinstance(loop.target, cst.Name) and loop.target.value == index.value  # type: ignore[attr-defined]
               and (isinstance(loop.iter, cst.Attribute) and loop.iter.attr.value in _RECORD_ATTRIBUTES  # type: ignore[attr-defined]
                    # `for key in ["projection", "yorigin"]: metadata[key] = ...`: text keys (pysteps' reprojection)
                    or isinstance(loop.iter, (cst.List, cst.Tuple)) and loop.iter.elements  # type: ignore[attr-defined]
                    and all(isinstance(e.value, STRING_LITERALS) for e in loop.iter.elements))  # type: ignore[attr-defined]
               for loop in walk.nodes_of(function.body, cst.For))


def _mapping_values(rule: cst.MetadataDependent, name: str) -> list[cst.BaseExpression]:
    """The values of the dict displays `name` is bound to, at module level or in the function `rule` visits."""
    return [e.value for value in _bound_values(rule, name) if isinstance(value, cst.Dict)
            for e in value.elements if isinstance(e, cst.DictElement)]


def _bound_values(rule: cst.MetadataDependent, name: str) -> list[cst.BaseExpression]:
    """The values `name` is assigned, at module level or in the function `rule` visits."""
    scopes = [rule.context.module.body]  # type: ignore[attr-defined]
    function = getattr(rule, "current_function", None)
    if function is not None:
        scopes.append(walk.nodes_of(function.body, cst.Assign))
    found: list[cst.BaseExpression] = []
    for scope in scopes:
        for statement in scope:
            assigns = [statement] if isinstance(statement, cst.Assign) else [
                s for s in statement.body if isinstance(s, cst.Assign)] if isinstance(statement, cst.SimpleStatementLine) else []
            for assign in assigns:
                if any(isinstance(t.target, cst.Name) and t.target.value == name for t in assign.targets):
                    found.append(assign.value)
    return found


@functools.lru_cache(maxsize=256)
def foreign_code(code: object) -> bool:
    """Whether `np.dtype(code)` (`'U3'`, `'<S8'`, `'>f8'`, `'O'`) is a dtype JAX arrays cannot have; False for what
    `np.dtype` does not take."""
    try:
        dtype = np.dtype(code)
    except (TypeError, ValueError):
        return False
    swapped = dtype.byteorder not in ("=", "|") and dtype.byteorder != np.dtype(dtype.char).byteorder
    too_wide = (dtype.kind == "f" and dtype.itemsize > 8) or (dtype.kind == "c" and dtype.itemsize > 16)
    return dtype.kind not in "biufc" or dtype.fields is not None or swapped or too_wide


STRING_LITERALS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def holds_objects(value: Optional[cst.BaseExpression]) -> bool:
    """A list or tuple display with a string literal, `None` or an object made by a class among its elements, at
    any depth (`["a", "b"]`, `[("x", 1)]`, `[[None] * n]`, `[Line(points)]`), or a comprehension of such objects:
    NumPy makes a string or object array of it, which `jax.numpy` rejects."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return holds_objects(value.left) or holds_objects(value.right)  # `[None] * n`
    if isinstance(value, cst.ListComp):
        return _an_object(value.elt)
    if not isinstance(value, (cst.List, cst.Tuple)):
        return False
    return any(_an_object(element.value) or holds_objects(element.value) for element in value.elements)


TEXT_BUILTINS = {"str", "repr", "chr", "format", "hex", "oct", "bin", "ascii"}
TEXT_METHODS = {"format", "join", "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "decode",
                "zfill", "ljust", "rjust", "center"}
TEXT_MODULE_CALLS = {"re.escape", "re.sub", "os.path.join", "textwrap.dedent", "json.dumps"}


def is_text(node: cst.BaseExpression) -> bool:
    """Whether `node` is a string for sure: a literal, an f-string, `"%d" % n`, `"a" + b`, `str(x)`, `chr(i)`,
    `"{}".format(v)`, `" ".join(...)`, `s.strip()`, `line.split(":")[-1]`, `re.escape(...)`. No JAX array holds
    text, and `lax.cond`/`jnp.where` can only choose between arrays."""
    if isinstance(node, STRING_LITERALS):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Modulo, cst.Add)):
        return is_text(node.left) or (isinstance(node.operator, cst.Add) and is_text(node.right))
    if isinstance(node, cst.Subscript):  # an item of `s.split(...)`
        value = node.value
        return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in ("split", "rsplit")
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    if isinstance(func, cst.Name):
        return func.value in TEXT_BUILTINS
    if not isinstance(func, cst.Attribute):
        return False
    if is_text(func.value) or func.attr.value in TEXT_METHODS:
        return True  # "...".format(...), ", ".join(...), "...".replace(...), s.strip()
    base = func.value
    dotted = f"{base.value}.{func.attr.value}" if isinstance(base, cst.Name) else ""
    if isinstance(base, cst.Attribute) and isinstance(base.value, cst.Name):
        dotted = f"{base.value.value}.{base.attr.value}.{func.attr.value}"
    return dotted in TEXT_MODULE_CALLS


def _an_object(node: cst.BaseExpression) -> bool:
    if (isinstance(node, cst.Name) and node.value == "None") or is_text(node):
        return True
    func = node.func if isinstance(node, cst.Call) else None  # `Line(p)`: a class's instance (by the name's case)
    return isinstance(func, cst.Name) and func.value[:1].isupper() and not func.value.isupper()


def mapping_keys(node: Optional[cst.BaseExpression]) -> bool:
    """`d.keys()`, or `list(...)`, `tuple(...)` or `sorted(...)` of it: the keys of a mapping, which are names (text)
    far more often than numbers (pygam's `ks = list(params.keys())` then `np.argsort(ks)`)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("list", "tuple", "sorted") \
            and len(node.args) == 1 and not node.args[0].keyword:
        node = node.args[0].value
    return isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute) \
        and node.func.attr.value == "keys"


# NumPy functions that give text (`np.array2string(a)`: a `str`), and the modules of its string-array functions
# (`np.char.add(a, "x")`, `np.strings.upper(a)`: arrays of dtype `<U..`)
TEXT_FUNCTIONS = frozenset({"array2string", "array_repr", "array_str", "base_repr", "binary_repr",
                            "format_float_positional", "format_float_scientific"})
TEXT_MODULES = frozenset({"char", "strings"})
# NumPy functions that apply a Python function to slices or elements and make an array of its results
_APPLYING = frozenset({"apply_along_axis", "apply_over_axes", "vectorize", "frompyfunc"})


def _text_function(node: cst.BaseExpression) -> bool:
    """A function that gives text: a text builtin (`str`, `repr`), a NumPy one (`np.array2string`), a lambda whose
    body is text (`lambda r: "|".join(map(str, r))`)."""
    if isinstance(node, cst.Lambda):
        return is_text(node.body)
    if isinstance(node, cst.Name):
        return node.value in TEXT_BUILTINS
    return isinstance(node, cst.Attribute) and (node.attr.value in TEXT_FUNCTIONS or node.attr.value in TEXT_METHODS
                                                and isinstance(node.value, STRING_LITERALS))


def text_array(node: Optional[cst.BaseExpression]) -> bool:
    """A NumPy call that gives text or an array of text: `np.char.add(a, "x")`, `np.strings.lower(a)`,
    `np.array2string(a)`, `np.apply_along_axis(np.array2string, 1, a)`, `np.vectorize(str)(a)` (a function that
    gives text applied to slices or elements), or `.astype(str)` of anything; `jax.numpy` rejects such a value."""
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    if isinstance(func, cst.Call):  # `np.vectorize(str)(a)`
        return isinstance(func.func, (cst.Name, cst.Attribute)) and dotted_name(func.func).split(".")[-1] in _APPLYING \
            and bool(func.args) and _text_function(func.args[0].value)
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return False
    parts = dotted_name(func).split(".")
    if parts[-1] == "astype" and node.args and isinstance(node.args[0].value, (cst.Name, cst.Attribute)):
        return dotted_name(node.args[0].value).split(".")[-1] in ("str", "str_", "unicode_", "bytes_")
    if len(parts) >= 3 and parts[-2] in TEXT_MODULES or len(parts) >= 2 and parts[-1] in TEXT_FUNCTIONS:
        return True
    return len(parts) >= 2 and parts[-1] in _APPLYING and bool(node.args) and _text_function(node.args[0].value)


def _text_items(value: cst.BaseExpression, bindings: Mapping[str, list], depth: int = 3) -> bool:
    """A list or tuple display with text among its items, at any depth, an item a local name every binding of which
    is text (`[source, target]` with `source = "|".join(...)`): NumPy makes a string array of it."""
    if not isinstance(value, (cst.List, cst.Tuple)) or depth == 0:
        return False
    return any(not isinstance(e, cst.StarredElement) and (_text_value(e.value, bindings) or text_array(e.value)
                                                           or _text_items(e.value, bindings, depth - 1))
               for e in value.elements)


TEXT_KINDS = frozenset("OSUV")  # `dtype.kind` of object, bytes, str and void (record) arrays


def text_kind_tests(function: cst.FunctionDef) -> dict[str, cst.Comparison]:
    """{name: the test} for the tests in `function` of `name.dtype.kind` that let text or objects through: against a
    kind of `TEXT_KINDS` (`a.dtype.kind == "O"`), or by exclusion (`a.dtype.kind not in ["i", "f"]`, `!= "f"`): code
    that handles arrays of text or objects (pygam's `check_array` turns text into floats with `.astype("float")`)."""
    found: dict[str, cst.Comparison] = {}
    for comparison in walk.nodes_of(function.body, cst.Comparison):
        operands = [comparison.left, *(c.comparator for c in comparison.comparisons)]  # type: ignore[attr-defined]
        names = [name for name in map(_kind_of, operands) if name is not None]
        if not names:
            continue
        excluding = any(isinstance(c.operator, (cst.NotIn, cst.NotEqual)) for c in comparison.comparisons)  # type: ignore[attr-defined]
        texts = [s.evaluated_value for o in operands for s in walk.nodes_of(o, cst.SimpleString)]
        if excluding or any(isinstance(t, str) and TEXT_KINDS.intersection(t) for t in texts):
            for name in names:
                found.setdefault(name, comparison)  # type: ignore[arg-type]
    return found


def text_writes(function: cst.FunctionDef, bindings: Mapping[str, list]) -> dict[str, cst.CSTNode]:
    """{name: the write} for the arrays `function` writes text into by index (`res[i] = line.strip().split(",")`,
    `out[k] = "nan"`, through a local name every assignment of which binds text: `parts = line.split()`, then
    `res[i] = parts`): NumPy parses the text into the array's numbers, a JAX array's `.at[].set` rejects it
    (astroML's `res = np.zeros((n, 3), dtype=int)` filled from a text file's lines)."""
    found: dict[str, cst.CSTNode] = {}
    for assign in walk.nodes_of(function.body, cst.Assign):
        targets = [t.target for t in assign.targets]  # type: ignore[attr-defined]
        if any(isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) for t in targets) \
                and _text_value(assign.value, bindings):  # type: ignore[attr-defined]
            for t in targets:
                if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name):
                    found.setdefault(t.value.value, assign)
    return found


def _text_value(value: cst.BaseExpression, bindings: Mapping[str, list], depth: int = 2) -> bool:
    """Text, or a list of text: `is_text`, `s.split(",")`, `["a", x]`, `[w.strip() for w in ws]`, text on either path
    of a conditional expression, or a local name every binding of which is one of those (or an item of it)."""
    if is_text(value) or holds_objects(value) and any(
            isinstance(n, STRING_LITERALS) for n in walk.nodes(value)):  # type: ignore[arg-type]
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in TEXT_LISTS:
        return True  # `line.split(",")`, `text.splitlines()`: a list of strings
    if isinstance(value, cst.ListComp):
        return _text_value(value.elt, bindings, depth)
    if isinstance(value, cst.IfExp):  # `parts[0] if parts else "nan"`: text on either path
        return _text_value(value.body, bindings, depth) or _text_value(value.orelse, bindings, depth)
    if isinstance(value, cst.Subscript):  # `parts[0]`: an item of a list of text
        value = value.value
    if isinstance(value, cst.Name) and depth > 0:
        values = bindings.get(value.value, [])
        return bool(values) and all(v is not None and _text_value(v, bindings, depth - 1) for v in values)
    return False


# string methods that give a list of strings
TEXT_LISTS = frozenset({"split", "rsplit", "splitlines"})


def _kind_of(node: cst.BaseExpression) -> Optional[str]:
    """`name` of `name.dtype.kind`, else None."""
    if isinstance(node, cst.Attribute) and node.attr.value == "kind" and isinstance(node.value, cst.Attribute) \
            and node.value.attr.value == "dtype" and isinstance(node.value.value, cst.Name):
        return node.value.value.value
    return None


def object_data(call: cst.Call, bindings: Mapping[str, list], params: Container[str],
                function: Optional[cst.FunctionDef] = None, unpacked: Mapping[str, list] = {}) -> Optional[str]:
    """The positional argument of `call` that holds string or object data (`holds_objects`), as written: a display
    (with text through a local name: `[source, target]`, `source = "|".join(...)`), a mapping's keys (`mapping_keys`),
    text NumPy makes (`text_array`: `np.char.add(a, "x")`, `np.apply_along_axis(np.array2string, 1, a)`),
    or a local name every assignment of which binds one (`labels = ["a", "b"]` then `np.searchsorted(labels, v)`),
    or, in `function`, an empty list grown only by appending such objects (`labels.append(line.split(":")[-1])`);
    None if none. `unpacked` (`FunctionFacts.unpacked`) gives the items of parallel assignments (`y, d = [], []`)."""
    def values_of(name: str) -> list:  # its bindings, a parallel assignment's by its item of a display
        values = bindings.get(name, [])
        items = [v.elements[at].value for v, at, count in unpacked.get(name, ())
                 if isinstance(v, (cst.Tuple, cst.List)) and len(v.elements) == count
                 and not any(isinstance(e, cst.StarredElement) for e in v.elements)]
        opaque = sum(v is None for v in values)
        return [*(v for v in values if v is not None), *items] if opaque and opaque == len(items) else values

    def texts(name: str) -> bool:  # a local name every binding of which holds text or objects
        values = values_of(name) if name not in params else []
        return bool(values) and all(holds_objects(v) or mapping_keys(v) or split_text(v) or text_array(v)
                                    or _text_items(v, bindings) for v in values)

    for arg in call.args:
        if arg.keyword is not None or arg.star:
            continue
        value = arg.value
        if isinstance(value, cst.Name) and value.value not in params:
            values = values_of(value.value)
            if texts(value.value):
                return value.value
            if function is not None and values and all(isinstance(v, cst.List) and not v.elements for v in values):
                added = [c.args[0].value for c in _appends(function, value.value)]
                # `labels.append(parts[-1])` with `parts = e.split("/")` (pyriemann's `decode_domains`)
                # `edges.append([source, target])` with `source = "|".join(...)` (ordpy's transition networks)
                if added and all(_an_object(a) or isinstance(a, cst.Subscript) and isinstance(a.value, cst.Name)
                                 and texts(a.value.value) or _text_items(a, bindings) or text_array(a) for a in added):
                    return value.value
        elif holds_objects(value) or split_text(value) or mapping_keys(value) or text_array(value) \
                or _text_items(value, bindings) or isinstance(value, cst.Attribute) and value.attr.value == "newaxis":
            return cst.Module([]).code_for_node(value)  # (`np.full(shape, np.newaxis)`: filled with None objects)
        elif isinstance(value, (cst.List, cst.Tuple)) and value.elements and all(
                isinstance(e.value, cst.Name) and texts(e.value.value) for e in value.elements):
            return cst.Module([]).code_for_node(value)  # `np.concatenate([y1, y2])` with `y1 = ["1"] * n`
    return None


def split_text(node: Optional[cst.BaseExpression]) -> bool:
    """`s.split()`, `line.rsplit(":", 1)`, `text.splitlines()` (a separator given as text, or none: not `np.split(x,
    3)`), or `list(...)`/`sorted(...)` of one: a list of strings."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("list", "sorted") \
            and len(node.args) == 1 and not node.args[0].keyword:
        node = node.args[0].value
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("split", "rsplit", "splitlines")):
        return False
    first = next((a.value for a in node.args if a.keyword is None or a.keyword.value == "sep"), None)
    return first is None or isinstance(first, STRING_LITERALS)


def _appends(function: cst.FunctionDef, name: str) -> list[cst.Call]:
    """The one-argument `name.append(...)` calls in `function`."""
    found: list[cst.Call] = []

    class Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "append" and isinstance(func.value, cst.Name) \
                    and func.value.value == name and len(node.args) == 1:
                found.append(node)

    function.body.visit(Finder())
    return found


# ---- dtype constants of other modules (a project index) ------------------------------------------------------------

KEY = "foreign-dtype-constants"

# a top-level binding that may name such a dtype, as a module's bytes say it (`LABEL = np.str_`, `KIND = object`,
# `CODE = "U8"`, `DT = np.dtype("O")`): only the modules that say one are parsed
_CONSTANT = re.compile(
    rb"^[A-Za-z_]\w*[ \t]*=[ \t]*(?:(?:object|str|bytes)[ \t]*(?:#|$)|[A-Za-z_]\w*\.(?:dtype\(|\w+_\b|void\b|datetime64"
    rb"|timedelta64|longdouble|clongdouble|float128|complex256|longfloat|float96)|[bru]?[\"'][<>|=]?[A-Za-z]+\d*[\"'])",
    re.M,
)


def _wanted(data: bytes, module_name: str, is_package: bool, modules: frozenset) -> bool:
    """A module that binds a candidate, or a package's `__init__` that imports (it may re-export one)."""
    return _CONSTANT.search(data) is not None or is_package and b"import" in data


def _foreign_ast(value: ast.expr, numpy: frozenset[str], values: Mapping[str, list[ast.expr]], seen: frozenset[str]) -> bool:
    """`jax_rejects` for a module-level value as `ast` reads it: `object`, `np.str_`, `"U8"`, `np.dtype(...)` of one,
    a record layout, or another such constant of the module."""
    if isinstance(value, ast.Name):
        if value.id in FOREIGN_TYPES:
            return True
        bound = values.get(value.id)
        return bool(bound) and value.id not in seen and all(_foreign_ast(v, numpy, values, seen | {value.id}) for v in bound)
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id in numpy:
        return value.attr in FOREIGN_NUMPY_TYPES
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return foreign_code(value.value)
    # (`np.dtype([...], align=True)`: a keyword changes no kind; obspy's C headers, `head_t`)
    if isinstance(value, ast.Call) and len(value.args) == 1 and all(k.arg in ("align", "copy") for k in value.keywords) \
            and isinstance(value.func, ast.Attribute) \
            and value.func.attr == "dtype" and isinstance(value.func.value, ast.Name) and value.func.value.id in numpy:
        arg = value.args[0]
        if isinstance(arg, ast.List) and arg.elts and all(isinstance(e, ast.Tuple) for e in arg.elts):
            return True  # a record layout
        if isinstance(arg, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "names" for k in arg.keys):
            return True  # `np.dtype({"names": [...], "formats": [...]})`
        return _foreign_ast(arg, numpy, values, seen)
    return False


def _summarize(path: str, module_name: str, tree: ast.Module, modules: frozenset) -> dict[str, Any]:
    """The module's top-level names every binding of which is a dtype JAX arrays cannot have, and the names its
    top-level `from` imports bind (for re-exports: `from .consts import LABEL` in `pkg/__init__.py`)."""
    values: dict[str, list[ast.expr]] = {}
    imported: dict[str, str] = {}
    package = module_name.split(".") if os.path.basename(path) == "__init__.py" else module_name.split(".")[:-1]
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        values.setdefault(name.id, []).append(node.value if target is name else ast.Constant(None))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            values.setdefault(node.target.id, []).append(node.value or ast.Constant(None))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            for bound in ([node.name] if hasattr(node, "name") else [a.asname or a.name.split(".")[0] for a in node.names]):
                values.setdefault(bound, []).append(ast.Constant(None))
            if isinstance(node, ast.ImportFrom):
                source = absolute_module("." * node.level + (node.module or ""), package)
                imported.update({a.asname or a.name: f"{source}.{a.name}" for a in node.names if a.name != "*" and source})
    numpy = frozenset(numpy_aliases(tree))
    return {"module": module_name, "imported": imported, "names": sorted(
        name for name, bound in values.items() if all(_foreign_ast(v, numpy, values, frozenset({name})) for v in bound))}


def link_names(summaries: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The qualified names (`pkg.consts.LABEL`) of the names the modules' summaries give (`{"module", "names",
    "imported"}`: here the run's dtype constants; `c_libraries` links its C libraries so too), and of their
    re-exports (`pkg.LABEL` when `pkg/__init__.py` imports it), through any number of them."""
    found = {f"{s['module']}.{name}" for s in summaries.values() for name in s["names"]}
    reexports = [(f"{s['module']}.{local}", source) for s in summaries.values() for local, source in s["imported"].items()]
    while True:
        more = {local for local, source in reexports if source in found and local not in found}
        if not more:
            return sorted(found)
        found |= more


INDEX = ProjectIndex(KEY, _wanted, _summarize, link_names)


def _imported_constant(rule: cst.MetadataDependent, dotted: str) -> bool:
    """`dotted` (`LABEL`, `consts.LABEL`) names, through the module's imports, a constant another module of the run
    binds to a dtype JAX arrays cannot have."""
    context = getattr(rule, "context", None)
    facts = context.project_facts(KEY) if context is not None else None
    if not facts:
        return False
    cache = context.__dict__
    if "_foreign_dtype_imports" not in cache:
        cache["_foreign_dtype_imports"] = (imported_bindings(
            context.module_name, os.path.basename(context.path) == "__init__.py", context.source.encode("utf-8", "replace")),
            frozenset(facts))
    imports, known = cache["_foreign_dtype_imports"]
    head, dot, rest = dotted.partition(".")
    qualified = imports.get(head)
    return qualified is not None and (f"{qualified}.{rest}" if dot else qualified) in known
