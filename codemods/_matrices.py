"""NumPy matrices (`np.matrix`), which JX501 (numpy-namespace) leaves to NumPy.

A `np.matrix` is an `np.ndarray` subclass whose `*` is a matrix product and whose results stay 2-D matrices. JAX has
no counterpart: a `jax.numpy` call given a matrix gives a plain array, so a later `*` multiplies elementwise
(the `uncertainties` package's `np.eye(n) - arr * inverse_mat`, then `inverse_mat * factor22`), and a JAX array
cannot be viewed as one (`jnp.linalg.inv(arr).view(np.matrix)` raises `TypeError`). A function that makes or handles
matrices, `np.matrix(...)`, `np.asmatrix(...)`, `np.mat(...)`, `np.bmat(...)`, `numpy.matlib`, `.view(np.matrix)`,
`isinstance(x, np.matrix)`, is left as it is, as one that uses `np.ma` masked arrays is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Optional

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.host_data import MATRIX_MODULES, MATRIX_NAMES
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.sparse_data import SparseNames
from jaxfix.imports import dotted_name, top_level_statements



def matrix_name(qualified: Optional[str]) -> bool:
    """Whether the NumPy name `qualified` is the matrix class or makes matrices (`numpy.asmatrix`, `numpy.matlib.eye`)."""
    return qualified is not None and (qualified in MATRIX_NAMES or qualified.startswith(MATRIX_MODULES))


def read(how: str) -> str:
    """The report for a read in a function that may be a matrix made elsewhere (`Matrices.reads`)."""
    return (f"{how} (a `jax.numpy` call given one gives a plain array, whose `*` multiplies elementwise where a "
            "matrix's `*` is a matrix product): this function is left as it is")


def returned(code: str) -> str:
    """The report for a call of `code`, a function of the module that may return a matrix (`Matrices.makers`)."""
    return (f"`{code}(...)` may return a NumPy matrix, which JAX has no counterpart for (a `jax.numpy` call given one "
            "gives a plain array, whose `*` multiplies elementwise where a matrix's `*` is a matrix product): this "
            "function is left as it is")


def message(code: str) -> str:
    """The report for `code`, a matrix name as written (`np.asmatrix`): the function is left as it is."""
    return (f"`{code}` makes or uses a NumPy matrix, which JAX has no counterpart for (a `jax.numpy` call given one "
            "gives a plain array, whose `*` multiplies elementwise where a matrix's `*` is a matrix product): this "
            "function is left as it is")


# what a matrix's size reads give: numbers (`m.shape[0]`, `len(m)`), never a matrix
SIZE_ATTRIBUTES = frozenset({"shape", "size", "ndim"})


@dataclass(frozen=True)
class Kind:
    """What `matrices` follows: NumPy's matrices (`MATRIX`) or its masked arrays (`MASKED`)."""

    names: Callable[[Optional[str]], bool]  # whether a NumPy name makes or is one
    plain: frozenset[str]  # attributes and methods whose read gives a plain array or a number (`m.shape`, `m.filled()`)
    plain_calls: frozenset[str] = frozenset()  # NumPy functions whose result is plain whatever they are given
    methods: frozenset[str] = frozenset()  # methods whose result is one (`S.todense()` of a SciPy sparse matrix)


def _masked_name(qualified: Optional[str]) -> bool:
    """Whether the NumPy name `qualified` is of `np.ma` and may give a masked array (not `np.ma.filled`, ...)."""
    return qualified is not None and qualified.startswith("numpy.ma.") and qualified[len("numpy.ma."):] not in _UNMASKING


# `np.ma` functions that give plain arrays, masks or answers, never a masked array
_UNMASKING = frozenset({"getdata", "filled", "getmask", "getmaskarray", "compressed", "is_masked", "isMaskedArray",
                        "isMA", "count", "count_masked", "allequal", "allclose"})


def _sized(node: cst.CSTNode, plain: frozenset[str] = SIZE_ATTRIBUTES) -> set[int]:
    """The ids of the expressions `node` reads only for their size: `m` in `m.shape[0]`, `self.P.size`, `len(m)`
    (or for another of `plain`: `m.filled(0)` of a masked array); and of the names that are an attribute's (`P` in
    `x.P`), which read no variable."""
    found = {id(a.value) for a in walk.nodes_of(node, cst.Attribute) if a.attr.value in plain}  # type: ignore[attr-defined]
    found |= {id(a.attr) for a in walk.nodes_of(node, cst.Attribute)}  # type: ignore[attr-defined]
    return found | {id(c.args[0].value) for c in walk.nodes_of(node, cst.Call)  # type: ignore[attr-defined]
                    if isinstance(c.func, cst.Name) and c.func.value == "len" and len(c.args) == 1}  # type: ignore[attr-defined]


# (`np.asarray(m)`, `np.array(m)` and `m.A` are plain arrays: `np.asarray(W.todense())` is the usual dense form)
MATRIX = Kind(matrix_name, SIZE_ATTRIBUTES | {"A", "A1"}, frozenset({"numpy.asarray", "numpy.array"}),
              frozenset({"todense"}))

MASKED = Kind(_masked_name, SIZE_ATTRIBUTES | {"filled", "compressed", "data", "mask", "count", "recordmask"},
              frozenset(f"numpy.ma.{name}" for name in _UNMASKING))


def _member(node: cst.CSTNode, members: frozenset[str]) -> bool:
    """`self.P` (or `cls.P`) with `P` among `members`: an attribute or method of the class that holds or returns a matrix."""
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls") \
        and node.attr.value in members


def _names_matrix(rule: cst.MetadataDependent, node: cst.CSTNode, makers: set[str], held: set[str],
                  members: frozenset[str] = frozenset(), kind: Optional[Kind] = None) -> bool:
    """Whether the expression `node` may be a matrix: it names one (`np.asmatrix(x)`, `x.view(np.matrix)`), calls a
    function of the module that returns one (`makers`), reads a name bound to one (`held`) or an attribute or method of
    its class that holds or returns one (`self.P`, `self.as_mat(a)`: `members`), other than for its size
    (`n = m.shape[0]` is a number)."""
    kind = kind or MATRIX
    if isinstance(node, cst.Call) and numpy_name(rule, node.func) in kind.plain_calls:
        return False  # `np.ma.filled(m, 0.0)`: a plain array
    if any(kind.names(numpy_name(rule, n)) for nodes in (cst.Name, cst.Attribute) for n in walk.nodes_of(node, nodes)):
        return True
    if any(isinstance(c.func, cst.Name) and c.func.value in makers or isinstance(c.func, cst.Attribute)  # type: ignore[attr-defined]
           and c.func.attr.value in kind.methods for c in walk.nodes_of(node, cst.Call)):  # type: ignore[attr-defined]
        return True
    sized = _sized(node, kind.plain)
    return any(n.value in held and id(n) not in sized for n in walk.nodes_of(node, cst.Name)) \
        or any(_member(a, members) and id(a) not in sized for a in walk.nodes_of(node, cst.Attribute))  # type: ignore[attr-defined]


# the conversions that make a plain `np.ndarray` of a matrix
_PLAIN = frozenset({"numpy.asarray", "numpy.array"})


def _plain(rule: cst.MetadataDependent, func: cst.BaseExpression) -> bool:
    """`np.asarray`/`np.array`, or the `jnp` namesake the migration writes (a second run must say the same)."""
    if numpy_name(rule, func) in _PLAIN:
        return True
    return isinstance(func, cst.Attribute) and func.attr.value in ("asarray", "array") \
        and dotted_name(func.value) in {"jax.numpy", getattr(rule, "jnp", "jnp")}


def normalised(rule: cst.MetadataDependent, node: cst.CSTNode, function: cst.FunctionDef) -> bool:
    """Whether `node`, a matrix name, is the class of a test that only makes a parameter a plain array:
    `if isinstance(a, np.matrix): a = np.asarray(a)` as a statement of `function`'s own body, `a` not named before it
    (so no other name holds the matrix) and no `else`. After it `a` is a plain array, which `jnp.asarray(a)` gives too."""
    call = rule.get_metadata(ParentProvider, rule.get_metadata(ParentProvider, node, None), None)
    test = rule.get_metadata(ParentProvider, call, None) if isinstance(call, cst.Call) else None
    if not (isinstance(test, cst.If) and test.test is call and test.orelse is None and len(call.args) == 2
            and call.args[1].value is node and isinstance(call.func, cst.Name) and call.func.value == "isinstance"
            and isinstance(call.args[0].value, cst.Name)):
        return False
    name = call.args[0].value.value
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    if name not in params or not any(s is test for s in body):
        return False
    before = body[:next(i for i, s in enumerate(body) if s is test)]
    if any(n.value == name for s in before for n in walk.nodes_of(s, cst.Name)):  # type: ignore[attr-defined]
        return False
    statements = test.body.body if isinstance(test.body, cst.IndentedBlock) else ()
    return bool(statements) and all(
        isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)
        and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name)
        and line.body[0].targets[0].target.value == name and isinstance(line.body[0].value, cst.Call)
        and _plain(rule, line.body[0].value.func)
        and [a.value.value for a in line.body[0].value.args if isinstance(a.value, cst.Name)] == [name]
        and len(line.body[0].value.args) == 1
        for line in statements)


@dataclass(frozen=True)
class Matrices:
    """Where a module's functions meet a NumPy matrix they do not make themselves (`matrices`)."""

    makers: frozenset[str] = frozenset()  # the top-level functions that may return one (`as_matrix`)
    reads: Mapping[cst.CSTNode, str] = field(default_factory=dict)  # a read in a function that may be one -> how
    names: frozenset[str] = frozenset()  # the module-level names bound to one (`P`: what other modules may import)
    members: Mapping[str, frozenset[str]] = field(default_factory=dict)  # class -> its attributes/methods that may be one


@dataclass(frozen=True)
class Imported:
    """What a module takes from other modules of the run that may be a NumPy matrix (or masked array): the names
    it imports bound to one (`from pkg.consts import P`: local name -> `pkg.consts.P`), the functions it imports
    that may return one (`from pkg.mats import as_matrix`), and, for each of its classes, the attributes and methods
    its base classes in other modules hold or return one in (`class Sub(Base)`, `Base.__init__` binding `self.P`).
    Found by `codemods._imported_values` from the project index."""

    names: Mapping[str, str] = field(default_factory=dict)
    makers: frozenset[str] = frozenset()
    members: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.names or self.makers or self.members)


def _locals(function: cst.FunctionDef) -> set[str]:
    """The names `function` binds itself (its parameters and assignment targets), less those it declares `global`."""
    params = function.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    names |= {s.name.value for s in (params.star_arg, params.star_kwarg) if isinstance(s, cst.Param)}
    inner = {id(n) for f in walk.nodes_of(function.body, cst.FunctionDef) for kind in (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For)
             for n in walk.nodes_of(f, kind)}  # a nested function's own (its `P = 1` leaves the outer `P` global)
    for kind in (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For):
        for node in walk.nodes_of(function.body, kind):
            if id(node) in inner:
                continue
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]  # type: ignore[attr-defined]
            names |= {t.value for t in targets if isinstance(t, cst.Name)}
            names |= {n.value for t in targets if isinstance(t, (cst.Tuple, cst.List)) for n in walk.nodes_of(t, cst.Name)}  # type: ignore[attr-defined]
    return names - {n.name.value for g in walk.nodes_of(function.body, cst.Global) for n in g.names}  # type: ignore[attr-defined]


def _targets(assign: cst.Assign) -> list[cst.BaseExpression]:
    return [t.target for t in assign.targets]


def _assigns(statements) -> list[cst.Assign]:
    return [s for line in statements if isinstance(line, cst.SimpleStatementLine) for s in line.body if isinstance(s, cst.Assign)]


def matrices(rule: cst.MetadataDependent, module: cst.Module, kind: Optional[Kind] = None,
             imported: Optional[Imported] = None) -> Matrices:
    """The module's functions (`def`s at its top level) that may return a NumPy matrix: one they make
    (`return np.asmatrix(x)`, `m = a.view(np.matrix)` then `return m`) or one another such function returns; and the
    reads in its functions that may be one made elsewhere: a module-level name bound to one (`P = np.asmatrix(...)`,
    then `np.eye(2) - P`), an attribute a class's method binds to one (`self.P = np.asmatrix(...)` in `__init__`,
    then `self.P` in `step`) or a method of the class that returns one (`self.as_mat(a)`). A function calling such a
    maker by name (`m = as_matrix(a)`) or making such a read handles a matrix and is left too. With `kind=MASKED`, the
    same for NumPy's masked arrays (`return np.ma.mean(masked, axis=1)`: SALib's grouped metrics). `imported`: what
    other modules of the run give the module that may be one (`Imported`), followed as the module's own."""
    kind = kind or MATRIX
    imported = imported or Imported()
    if kind.methods and not SparseNames.read(module):  # (no `scipy.sparse` import: `.todense()` is of a class of
        kind = replace(kind, methods=frozenset())  # the module's own, no matrix)
    if not imported and not any(kind.names(numpy_name(rule, n)) for nodes in (cst.Name, cst.Attribute) for n in walk.nodes_of(module, nodes)) \
            and not any(a.attr.value in kind.methods for a in walk.nodes_of(module, cst.Attribute)):  # type: ignore[attr-defined]
        return Matrices()  # no matrix in the module (most modules): nothing to follow
    classes = [s for s in module.body if isinstance(s, cst.ClassDef)]
    functions: list[tuple[cst.FunctionDef, Optional[str]]] = [(s, None) for s in module.body if isinstance(s, cst.FunctionDef)]
    functions += [(f, c.name.value) for c in classes for f in walk.nodes_of(c, cst.FunctionDef)]  # type: ignore[misc]
    local = {f: _locals(f) for f, _ in functions}
    makers: set[str] = set(imported.makers)
    names: set[str] = set(imported.names)  # module-level names bound to a matrix
    members: dict[str, set[str]] = {c.name.value: set(imported.members.get(c.name.value, ())) for c in classes}  # class -> its attributes/methods that may be one
    changed = True
    while changed:  # to a fixed point: what reads what a maker returns may be a matrix too
        changed = False
        for assign in _assigns(top_level_statements(module)):
            if _names_matrix(rule, assign.value, makers, names, kind=kind):
                new = {t.value for t in _targets(assign) if isinstance(t, cst.Name)} - names
                changed |= bool(new)
                names |= new
        for c in classes:
            owned = frozenset(members[c.name.value])
            for assign in _assigns(c.body.body):  # `P = np.asmatrix(...)` in a class body
                if _names_matrix(rule, assign.value, makers, names, owned, kind):
                    new = {t.value for t in _targets(assign) if isinstance(t, cst.Name)} - members[c.name.value]
                    changed |= bool(new)
                    members[c.name.value] |= new
        for function, owner in functions:
            owned = frozenset(members.get(owner, ())) if owner is not None else frozenset()
            held: set[str] = names - local[function]  # and the locals bound to a matrix, to a fixed point (`p = m`)
            size = -1
            while size != len(held):
                size = len(held)
                for assign in walk.nodes_of(function.body, cst.Assign):
                    if _names_matrix(rule, assign.value, makers, held, owned, kind):  # type: ignore[attr-defined]
                        held |= {n.value for t in assign.targets for n in walk.nodes_of(t.target, cst.Name)}  # type: ignore[attr-defined]
                        if owner is None:
                            continue
                        bound = {t.attr.value for t in _targets(assign)  # `self.P = ...`
                                 if isinstance(t, cst.Attribute) and _member(t, frozenset({t.attr.value}))}
                        if bound - members[owner]:
                            members[owner] |= bound
                            changed = True
            if any(r.value is not None and _names_matrix(rule, r.value, makers, held, owned, kind)  # type: ignore[attr-defined]
                   for r in walk.nodes_of(function.body, cst.Return)):
                returns = members[owner] if owner is not None else makers
                if function.name.value not in returns:
                    returns.add(function.name.value)
                    changed = True
    reads: dict[cst.CSTNode, str] = {}
    for function, owner in functions:
        visible = names - local[function]
        owned = frozenset(members.get(owner, ())) if owner is not None else frozenset()
        if not visible and not owned:
            continue
        sized = _sized(function.body, kind.plain) | {id(t) for a in walk.nodes_of(function.body, cst.Assign) for t in _targets(a)}  # type: ignore[arg-type]
        for name in walk.nodes_of(function.body, cst.Name):
            if name.value in visible and id(name) not in sized:  # type: ignore[attr-defined]
                reads[name] = (f"`{name.value}` is bound at module level to a NumPy matrix (or what makes one)"  # type: ignore[attr-defined]
                               if name.value not in imported.names else  # type: ignore[attr-defined]
                               f"`{name.value}` is `{imported.names[name.value]}`, bound to a NumPy matrix (or what "  # type: ignore[attr-defined]
                               "makes one) in another module of the run")
        called = {id(c.func) for c in walk.nodes_of(function.body, cst.Call)}  # type: ignore[attr-defined]
        for attribute in walk.nodes_of(function.body, cst.Attribute):
            if _member(attribute, owned) and id(attribute) not in sized:
                code = f"{attribute.value.value}.{attribute.attr.value}"  # type: ignore[attr-defined]
                reads[attribute] = (f"`{code}(...)` may return a NumPy matrix" if id(attribute) in called
                                    else f"`{code}` may hold a NumPy matrix, which the class binds to it")
    return Matrices(frozenset(makers), reads, frozenset(names - set(imported.names)),
                    {c: frozenset(m) for c, m in members.items() if m})
