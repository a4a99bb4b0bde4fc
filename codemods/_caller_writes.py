"""Arrays that cross a function boundary of the module to code that needs them to stay NumPy.

JX501 (numpy-namespace) renames a NumPy call to its `jax.numpy` namesake one function at a time; these are the facts
about the other side of a call that decide it cannot (`codemods._numpy_boundary` asks them):

- `written_results(module, writers)`: functions whose result a caller hands to a helper that writes into it;
- `host_results(rule)`: functions whose result a caller writes into itself (a view of the array it is given, too:
  `v = block0(y); v += s`), turns into strings or objects, hashes, serializes to JSON, or hands to `scipy.fftpack`, a `scipy.sparse` constructor or a third-party function that requires NumPy arrays
  (`kept_results(rule)`: the last three, which no in-place rewrite removes);
- `constructor_stores(module)` and `stored_by_constructor(...)`: a NumPy array made here and given to a module
  class whose `__init__` stores it on an attribute that the module writes into in place.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Container, Mapping, Optional

import libcst as cst

from codemods import _attribute_flows, _buffers, _caller_inputs
from jaxfix import walk
from jaxfix.analysis.foreign_dtypes import jax_rejects
from jaxfix.analysis.hashed import hashed_once
from jaxfix.analysis.host_data import (
    ScalarCheck, TypedParameters, element_argument, exact_numpy_type_test, iteration_targets, module_typed_parameters,
)
from jaxfix.analysis.host_use import displayed, json_writer
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.sparse_data import NumpyOnly, SparseNames, arguments
from jaxfix.imports import ModuleImports, dotted_name

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# {class name: (its `__init__`'s positional parameters after `self`, {parameter: the attribute it is stored in})}
Constructors = Mapping[str, tuple[list[str], Mapping[str, str]]]


def written_results(module: cst.Module, writers: Mapping[str, object],
                    attributes: Container[str] = frozenset(), private: Container[str] = frozenset()) -> dict[str, str]:
    """{function or method name: why its results must stay NumPy} for the module's functions whose result code of
    the module
    - hands to a writer (`writers`), or to a function of a private compiled module (`private`: `d = dist(a, b)`,
      then `_c_loop(d)`, PyKrige's Cython backend, whose typed memoryviews refuse a read-only JAX buffer), bound to
      a name (`dens = self._densities(X)` then `log_normalize(dens)`) or as
      it is (`zeromean(bcrop(x, n), n)`, `zeromean` writing into a copy of its parameter: sporco's cnvrep): as a
      JAX array the result could not be written into, and an augmented update (`a -= lse`) would silently rebind a
      local name instead;
    - adds to, subtracts from (any augmented assignment) an array that must see the update (`_rebinding`: `x -=
      inner(x, y)` with `x` a parameter, sporco's linalg);
    - stores on an attribute that the module writes into in place (`attributes`: `self.Y = self.yinit(shape)`,
      then `self.Y[..., 0] = v` in a subclass, sporco's ADMM solvers), a write that stays NumPy."""
    found: dict[str, str] = {}
    members = [f for c in walk.nodes_of(module, cst.ClassDef) for f in c.body.body  # type: ignore[attr-defined]
               if isinstance(f, cst.FunctionDef)]
    methods = {f.name.value for f in members}
    properties = _properties(members)
    numpy = _buffers.numpy_calls(module)
    ndimage = SparseNames.read(module, "ndimage")
    every = methods
    for function in [*walk.nodes_of(module, cst.FunctionDef), *walk.module_code(module)]:
        methods = Scope(every, function)  # type: ignore[arg-type]
        caller = "code at module level" if function.name.value == walk.MODULE_CODE else f"`{function.name.value}`"
        handed = [pair for call in walk.nodes_of(function.body, cst.Call) if writers
                  for pair in _buffers.handed_values(call, writers)]  # type: ignore[arg-type]
        handed += [pair for call in walk.nodes_of(function.body, cst.Call) if private
                   for pair in _compiled_arguments(call, private)]  # type: ignore[arg-type]
        names: dict[str, str] = {}
        for value, why in handed:
            # `zeromean(bcrop(x, n), n)`: the result itself is handed (`bump(self.phase[0])`: a property's)
            callees = producers(value, methods, properties=properties)
            root = _buffers.root_name(value) if isinstance(value, (cst.Name, cst.Subscript)) and not callees else None
            if root is not None:
                names.setdefault(root, why)
            for callee in callees:
                found.setdefault(callee, f"{caller} hands what this returns to code that needs a NumPy array there ({why})")
        for call in walk.nodes_of(function.body, cst.Call):  # `ndimage.uniform_filter1d(x, 3, output=buf)`
            for name, why in _given_out(call, numpy, ndimage):  # type: ignore[arg-type]
                names.setdefault(name, why)
        assigns = walk.nodes_of(function.body, cst.Assign)
        values = _bound(assigns) if names or attributes else {}  # type: ignore[arg-type]
        for assign in assigns:  # (`d = self.dens(X)[1:]`: a view of it; `d = np.sum(dens, 0)`, through `dens`)
            for callee in producers(assign.value, methods, numpy, values, properties=properties):  # type: ignore[attr-defined]
                for target in assign.targets:  # type: ignore[attr-defined]
                    held = target.target
                    # (`qt, first = get_qt(t, m)`, then `fill(qt)`: an item of the returned tuple, stumpy's `_get_QT`)
                    unpacked = [e.value for e in held.elements] if isinstance(held, (cst.Tuple, cst.List)) else []
                    for name in (n.value for n in [held, *unpacked] if isinstance(n, cst.Name) and n.value in names):
                        found.setdefault(callee, f"{caller} hands what this returns (`{name}`) to code that "
                                                 f"needs a NumPy array there ({names[name]})")
                    # (`self.ok, self.err = self._init(n)`: an item of the returned tuple stored, nested or starred)
                    for stored in (s for s in _buffers.target_leaves(held) if isinstance(s, cst.Attribute)):
                        if stored.attr.value in attributes:
                            found.setdefault(callee, f"{caller} stores what this returns as `.{stored.attr.value}`, "
                                                     "which the module writes into in place (a write that stays NumPy)")
                            break
        augmented = walk.nodes_of(function.body, cst.AugAssign)
        sources = _buffers.Sources(function, numpy) if augmented else None
        bound: dict[str, list[str]] = {}  # {local name: the producers of the values bound to it}
        for assign in walk.nodes_of(function.body, cst.Assign) if augmented else ():
            callees = _operand_producers(assign.value, numpy, methods)  # type: ignore[attr-defined]
            for target in assign.targets if callees else ():  # type: ignore[attr-defined]
                if isinstance(target.target, cst.Name):
                    bound.setdefault(target.target.value, []).extend(callees)
        for aug in augmented:
            # the producers of the value, or of a local name it is computed from (sporco's `d = gamma *
            # inner(ah, alpha)`, then `alpha -= d / delta`)
            callees = [*_operand_producers(aug.value, numpy, methods),  # type: ignore[attr-defined]
                       *(c for name in sorted(sources.of(aug.value)) for c in bound.get(name, ()))]  # type: ignore[union-attr, attr-defined]
            shared = _rebinding(aug, function, numpy) if callees else None  # type: ignore[arg-type]
            for callee in callees if shared is not None else ():
                target = _CODE.code_for_node(aug.target)
                found.setdefault(callee, f"{caller} updates `{target}` in place with what this returns "
                                         f"(`{_CODE.code_for_node(aug).strip()}`), and `{target}` is {shared}: NumPy "
                                         f"writes into that array, but given a JAX array Python rebinds `{target}` to "
                                         "a new array instead")
    through_returns(module, found, every, numpy)
    return found


def _compiled_arguments(call: cst.Call, private: Container[str]) -> list[tuple[cst.BaseExpression, str]]:
    """(argument, why) for each argument of `call` when it calls a function of a private compiled module
    (`_c_loop(a, d)`, `_lbfgsb.setulb(...)`: `_buffers.private_modules`), which takes NumPy buffers and may fill them."""
    func = call.func
    root = dotted_name(func).split(".")[0] if isinstance(func, (cst.Name, cst.Attribute)) else ""
    if root not in private:
        return []
    why = f"`{dotted_name(func)}` belongs to a compiled module, which takes NumPy arrays and may write into them"
    return [(arg.value, why) for arg in call.args if not arg.star]


_CODE = cst.Module([])
# NumPy functions that always give a new array (a name bound to one alone holds it)
_NEW_ARRAYS = frozenset({"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "copy",
                         "array", "arange", "linspace", "logspace", "eye", "identity", "tile", "repeat"})
# builtins that only read an array
_READERS = frozenset({"len", "print", "float", "int", "bool", "complex", "str", "repr", "range", "abs", "min", "max"})


def _operand_producers(value: cst.BaseExpression, numpy: Callable[[cst.BaseExpression], bool],
                       methods: Container[str]) -> list[str]:
    """`producers` of `value` and of the arguments of the NumPy calls in it (`np.dot(inner(x), y)`)."""
    found = producers(value, methods)
    for call in walk.nodes_of(value, cst.Call):
        if numpy(call.func):  # type: ignore[attr-defined]
            found += [p for a in call.args for p in producers(a.value, methods)]  # type: ignore[attr-defined]
    return found


def _rebinding(aug: cst.AugAssign, function: cst.FunctionDef, numpy: Callable[[cst.BaseExpression], bool]) -> Optional[str]:
    """What the target of the augmented assignment `aug` is, as a phrase, when its array must see the update: an
    attribute (`self.Y -= v`: the object's array), or a name other than a local one holding a new array that the
    function only reads (`x -= v` with `x` a parameter, the caller's array; `alpha -= v` with `alpha[:] = ...`
    elsewhere; an alias, a view, a loop variable), else None. NumPy's `x -= v` writes into `x`'s array, but for a
    JAX `v` it returns NotImplemented and Python rebinds `x` to `x - v`, a new JAX array: the caller's array keeps
    its values (silently), a later write into `x` raises. (`x[i] -= v` assigns the new value back: not this.)"""
    target = aug.target
    if isinstance(target, cst.Attribute):
        return "an array stored on an object, which other references see"
    if not isinstance(target, cst.Name):
        return None
    name = target.value
    parents = walk.parents(function)
    after = False  # past the update in the function's text
    for node in walk.nodes_of(function, cst.Name):
        if node is target:
            after = True
        if node.value != name or node is target:  # type: ignore[attr-defined]
            continue
        parent = parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.attr is node or isinstance(parent, cst.Arg) and parent.keyword is node:
            continue  # `self.dx`, `f(dx=...)`: another name
        if isinstance(parent, cst.AugAssign) and parent.target is node:
            continue  # another update of the same array (`res *= w`, then `res += m`): each is judged by itself
        if isinstance(parent, cst.AssignTarget):
            assign = parents.get(parent)
            if isinstance(assign, cst.Assign) and _new_array(assign.value, numpy):
                continue
        elif _only_read(node, parents, numpy):
            continue
        elif after and isinstance(parent, cst.Arg) and not _in_loop_with(node, aug, parents):
            continue  # handed on once every update is done (`total += p[i]` in a loop, then `report(total)`)
        return "an array that other code sees or that is written into (a parameter, an alias or view, a loop " \
               "variable, or an array written into)"
    return None


def _in_loop_with(node: cst.CSTNode, aug: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    """Whether a loop around `aug` also holds `node` (a later iteration updates what `node` handed on)."""
    loops = set()
    current = parents.get(aug)
    while current is not None:
        if isinstance(current, (cst.For, cst.While)):
            loops.add(current)
        current = parents.get(current)
    current = parents.get(node)
    while current is not None:
        if current in loops:
            return True
        current = parents.get(current)
    return False


def shared_update(aug: cst.AugAssign, function: cst.FunctionDef, numpy: Callable[[cst.BaseExpression], bool]) -> bool:
    """Whether the augmented assignment `aug` updates an array that other code sees (`_rebinding`)."""
    return _rebinding(aug, function, numpy) is not None


def _new_array(value: cst.BaseExpression, numpy: Callable[[cst.BaseExpression], bool]) -> bool:
    """`a + b`, `-a`, `np.zeros(n)`, `a.copy()`: a new array, shared with nothing; or a Python number (`total = 0.0`,
    then `total += a[i]`: the sum is a new array)."""
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float, cst.Imaginary)):
        return True
    func = value.func if isinstance(value, cst.Call) else None
    if isinstance(func, cst.Attribute) and func.attr.value == "copy":
        return True
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    return name in _NEW_ARRAYS and numpy(func)  # type: ignore[arg-type]


def _only_read(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode],
               numpy: Callable[[cst.BaseExpression], bool]) -> bool:
    """Whether this use of an array only reads it: an operand of arithmetic or a comparison, an index, returned,
    the object of a method or attribute that is no view and writes nothing (`a.sum()`, `a.shape`), an argument of a
    NumPy function that gives no view or of a builtin that only reads (`len(a)`); a view of it (`a[1:]`, `a.T`)
    only read as well. Anything else (bound to another name, stored, handed to other code, written into) shares it."""
    parent = parents.get(node)
    if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget, cst.Return,
                           cst.Index, cst.Slice)):
        return True
    if isinstance(parent, cst.AugAssign):
        return parent.value is node
    if isinstance(parent, cst.Subscript) and parent.value is node:
        return _only_read(parent, parents, numpy)
    if isinstance(parent, cst.Attribute) and parent.value is node:
        attr = parent.attr.value
        if attr in _buffers.WRITING_METHODS:
            return False
        if attr in _buffers.ARRAY_ATTRIBUTES:
            return _only_read(parent, parents, numpy)
        if attr in _buffers.VIEW_METHODS:
            call = parents.get(parent)
            return isinstance(call, cst.Call) and _only_read(call, parents, numpy)
        return True
    if isinstance(parent, cst.Arg) and not (parent.keyword is not None and parent.keyword.value == "out"):
        call = parents.get(parent)
        if not isinstance(call, cst.Call):
            return False
        func = dotted_name(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else ""
        if func in _READERS:
            return True
        if numpy(call.func):
            return func.split(".")[-1] not in _buffers.VIEW_FUNCTIONS or _only_read(call, parents, numpy)
    return False


def _given_out(call: cst.Call, numpy: Callable[[cst.BaseExpression], bool], ndimage: SparseNames) -> list[tuple[str, str]]:
    """(name, why) for a name given as the output array (`out=`, `output=`, or by position to scipy.ndimage) of a
    call that is not NumPy's: a third-party or compiled function writes into it (`ndimage.uniform_filter1d(x, 3,
    output=buf)`)."""
    if not isinstance(call.func, (cst.Name, cst.Attribute)) or numpy(call.func):
        return []
    name = dotted_name(call.func)
    return [(value.value, f"`{name}(..., {how}...)`, a call that is not NumPy's" if how.endswith("=") else
             f"`{name}(...)`, a call that is not NumPy's, given it as its output by position")
            for how, value in _buffers.given_outputs(call, ndimage) if isinstance(value, cst.Name)]


def host_results(rule: Rule) -> dict[str, str]:
    """{function name: why} for the module's functions whose result a function of the module binds to a name
    (`h = gradient(x)`, `e = embed(x).astype(int)`; by unpacking, `a, d = split(x)`, or through an alias or an item,
    `b = a`, `a = parts[0]`) and then writes into (`h[i] -= v`, `parts[0][0] = v`, `a += v`, `a.fill(0)`,
    `np.copyto(a, v)`, `out=a`: pywt's `a += v` wrote through a view into the caller's array), turns into strings or
    objects (`e.astype(str)`) or hashes the elements of (`{tuple(row) for row in e}`), serializes to JSON (`json.dumps({"o":
    o})`, itself or in a dict or list display: pyod's scores), or uses as a key itself
    (`winmap[winner(w, x)]`), or hands (or a value computed from it) to a NumPy call given `out=` (`np.sum(tmp * q,
    out=o)`: `_buffers.out_inputs`), to a `scipy.fftpack` transform (`data = even_data(c) / 2`, then `ifft(data)`),
    to a `scipy.sparse` constructor (`sparse.diags(degree(W))`, or `sparse.diags(self.dw)` of a property) or to a
    third-party function that requires NumPy arrays (`sparse_data.NumpyOnly`), or reads through an attribute or
    method only a NumPy array has (`y.flags`, `y.strides`, `y.tofile(f)`: `_buffers.BUFFER_ATTRIBUTES`): only a
    NumPy array can (lifelines' penalised Hessian, neurokit2's states, kmodes' encoded rows, minisom's winners,
    GPy's `_gradients_X_pure`, fluids' pychebfun, pygsp's degrees, nilearn's `y.flags["C_CONTIGUOUS"]`). Found once per pass: JX501 and JX202 both ask (kept on the rule context)."""
    cache = rule.context.__dict__
    if "_host_results" not in cache:
        cache["_host_results"], cache["_kept_results"], cache["_text_results"] = _host_results(rule)
    return cache["_host_results"]


def text_results(rule: Rule) -> dict[str, str]:
    """{function name: why} for the module's functions whose result a function of the module puts in a Python dict
    or list that it turns into text (`rows.append(peak(x))`, then `print(rows)`, `str(rows)` or `f"{rows}"`): the
    `repr` of each item shows, and a Python number returned as a 0-d JAX array shows as `Array(1., dtype=float32)`.
    Apart from `host_results`: only a conversion to a Python number (JX502) is kept for it, an array's `repr` changes
    with any migration."""
    host_results(rule)
    return rule.context.__dict__["_text_results"]


def kept_results(rule: Rule) -> dict[str, str]:
    """The part of `host_results` whose reason no in-place rewrite removes: a caller hands the result (or an array
    computed from it) to `scipy.fftpack`, a `scipy.sparse` constructor or a function that requires NumPy arrays. The in-place rules (JX101...) ask it (`_kept_numpy.kept_reason`): the
    result stays a NumPy array, so an update of it cannot become `.at` (a write into it, which `host_results` also
    counts, is what they rewrite, after which JX501 may rename the helper's calls)."""
    host_results(rule)
    return rule.context.__dict__["_kept_results"]


# the node types `_host_results` reads in a function body (concrete: LibCST defines no subclasses of them)
_READ_KINDS = frozenset({cst.Assign, cst.AugAssign, cst.Call, cst.Comparison})


def _host_results(rule: Rule) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    found: dict[str, str] = {}
    texts: dict[str, str] = {}  # see `text_results`
    kept: dict[str, str] = {}
    fftpack = SparseNames.read(rule.context.module, "fftpack")
    sparse = SparseNames.read(rule.context.module)
    context = rule.context
    numpy_only = NumpyOnly.read(context.module, _buffers.imported_numba(_buffers.imported_writers(
        context.module, context.path, context.module_name)) if context.module_name else frozenset())
    code = rule.code
    module = rule.context.module
    members = [f for c in walk.nodes_of(module, cst.ClassDef) for f in c.body.body  # type: ignore[attr-defined]
               if isinstance(f, cst.FunctionDef)]
    methods = {f.name.value for f in members}
    properties = _properties(members)
    numpy = _buffers.numpy_calls(module)
    viewing = _buffers.views(module)
    ndimage = SparseNames.read(module, "ndimage")
    numpy_aliases = ModuleImports.read(module).numpy_aliases
    typed = module_typed_parameters(rule)
    sources: dict[cst.FunctionDef, _buffers.Sources] = {}

    def sources_of(function: cst.FunctionDef) -> _buffers.Sources:
        """The function's `Sources`, built when first asked (most functions hand nothing to such calls)."""
        if function not in sources:
            sources[function] = _buffers.Sources(function, numpy)
        return sources[function]

    every = methods
    for function in [*walk.nodes_of(module, cst.FunctionDef), *walk.module_code(module)]:
        methods = Scope(every, function)  # type: ignore[arg-type]
        caller = "code at module level" if function.name.value == walk.MODULE_CODE else f"`{function.name.value}`"
        needs: dict[str, str] = {}
        shown: dict[str, str] = {}  # names whose `repr` a Python container turned into text shows (`text_results`)
        augmented: set[str] = set()  # names in `needs` only for an augmented assignment to them
        persistent: dict[str, str] = {}  # of `needs`: those needing NumPy for a reason no in-place rewrite removes
        writes: set[str] = set()  # of `needs`: those written into (which a NumPy view of a JAX array refuses too)
        iterated: dict[str, str] = {}  # of `needs`: those type-tested, whose loop's iterable needs NumPy too
        for node in walk.nodes(function.body):
            if node.__class__ not in _READ_KINDS:
                continue
            if isinstance(node, (cst.Assign, cst.AugAssign)):
                # (`bc[0] = (1, slope)`: a tuple into a list's item, which no numeric array holds: SciPy's CubicSpline;
                # `a[i], a[j] = a[j], a[i]`: each element of a tuple target, paired with its value when unpacked)
                for written in _written_targets(node):
                    root = _item_root(written)  # `r[0] = v`, and an item of an item (`parts[0][0] = v`: pywt)
                    if root is not None:
                        needs.setdefault(root, f"writes into it (`{code(written).strip()}`), which a JAX array cannot "
                                               "be")
                        writes.add(root)
                    elif isinstance(node, cst.AugAssign) and isinstance(written, cst.Name) and written.value not in needs:
                        # `a, d = split(x)`, then `a += v` (pywt): NumPy writes into the array, a view of the caller's
                        # when the callee returns one (`viewing`); for a JAX array Python rebinds `a` instead
                        needs[written.value] = (f"updates it in place (`{code(node).strip()}`), which for a JAX array "
                                                "rebinds the name to a new array instead")
                        augmented.add(written.value)
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "astype" \
                    and isinstance(node.func.value, cst.Name) and node.args and jax_rejects(rule, node.args[0].value):
                needs.setdefault(node.func.value.value, f"makes strings or objects of it (`{code(node).strip()}`), "
                                                        "which a JAX array cannot hold")
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                    and _buffers.numpy_only_keyword(node) is not None:  # `e = embed(x); e.argsort(kind="quicksort")`
                needs.setdefault(node.func.value.value, f"calls `{code(node).strip()}` on it, given a keyword the JAX "
                                                       "array method rejects")
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Call) \
                    and _buffers.numpy_only_keyword(node) is not None \
                    and (callee := producer(node.func.value, methods)) is not None:  # `embed(x).argsort(kind="quicksort")`
                why = (f"{caller} calls `.{node.func.attr.value}(...)` on what this returns, given a keyword the JAX array "
                       "method rejects")
                found.setdefault(callee, why)
                kept.setdefault(callee, why)
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.args \
                    and isinstance(node.args[0].value, cst.Name) and node.args[0].keyword is None and not node.args[0].star \
                    and numpy(node.func) and dotted_name(node.func).split(".")[-2:-1] == ["ndarray"]:
                # `np.ndarray.argsort(e)`: a method of NumPy's array type, which rejects a JAX array
                needs.setdefault(node.args[0].value.value, f"calls `{code(node.func).strip()}` on it, a method of "
                                                            "NumPy's array type, which rejects a JAX array")
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                    and node.func.attr.value in _buffers.WRITING_METHODS and _written_root(node.func.value):
                # `target.__iadd__(p)`: an in-place operator called by name (GPy's kernels); `a.fill(0)`
                needs.setdefault(_written_root(node.func.value), f"writes into it (`{code(node.func).strip()}(...)`), "  # type: ignore[arg-type]
                                                                 "which a JAX array cannot be")
                writes.add(_written_root(node.func.value))  # type: ignore[arg-type]
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                    and node.func.attr.value == "setflags" and _buffers.makes_writeable(node):
                # `x = np.asarray(x, dtype=np.float64)`, then `x.setflags(write=True)` (pyfar's `Coordinates`): NumPy
                # refuses to make writeable an array it does not own, as its view of a JAX array is
                needs.setdefault(node.func.value.value, f"asks NumPy to make it writeable (`{code(node).strip()}`), "
                                                        "which a JAX array (or NumPy's read-only view of one) refuses")
                writes.add(node.func.value.value)
            if isinstance(node, cst.Call) and json_writer(node) and node.args:
                # `o = overall(s, a, t)`, then `json.dumps({"overall": o})` (pyod's scores): JSON rejects a JAX array
                for value in displayed(node.args[0].value):
                    if isinstance(value, cst.Name):
                        needs.setdefault(value.value, "serializes it to JSON, which rejects a JAX array")
                    callee = producer(value, methods) if isinstance(value, cst.Call) else None
                    if callee is not None:
                        found.setdefault(callee, f"{caller} serializes what this returns to JSON, which rejects a JAX array")
            if isinstance(node, cst.Call):  # `np.copyto(a, v)`, `np.add(b, c, out=a)`, `np.clip(b, 0, 1, a)`
                for out in _outputs(node, numpy, ndimage, numpy_aliases):
                    needs.setdefault(out, f"writes into it (`{code(node.func).strip()}(...)` given it as its output), "
                                          "which a JAX array cannot be")
                    writes.add(out)
            for name, why in _type_tested(rule, node, typed, function):  # `check(x)` asserting `type(x) is np.ndarray`
                needs.setdefault(name, why)  # (SALib)
                persistent.setdefault(name, why)
                iterated.setdefault(name, why)
            for callee in _type_tested_results(rule, node, methods):  # `type(build(rows)) is np.ndarray`
                why = f"{caller} tests the exact type of what this returns (`{code(node).strip()}`), which a JAX array fails"
                found.setdefault(callee, why)
                kept.setdefault(callee, why)
        held_names, held_calls = _held_values(function.body)
        for name, why in held_names.items():  # `flags = {"nan": has_nan(x)}`, then `json.dumps(flags)` (spectral)
            (needs if why == _JSON else shown).setdefault(name, f"puts it in a Python container and {why}")
        for value, why in held_calls:
            callee = producer(value, methods)
            if callee is not None:
                (found if why == _JSON else texts).setdefault(
                    callee, f"{caller} puts what this returns in a Python container and {why.replace('it', 'that', 1)}")
        for owner, attr, _ in _buffers.buffer_reads(function.body):
            # `y = normalize(x)`, then `y.flags["C_CONTIGUOUS"]` (nilearn): JAX arrays have no `.flags`, `.strides`...
            # (nor `__array_wrap__`, also read by `getattr(y, "__array_wrap__", None)`)
            why = f"reads it through `.{attr}`, which JAX arrays do not have"
            if isinstance(owner, cst.Name):
                needs.setdefault(owner.value, why)
                persistent.setdefault(owner.value, why)
            elif isinstance(owner, cst.Call) and (callee := producer(owner, methods)) is not None:
                found.setdefault(callee, f"{caller} reads what this returns through `.{attr}`, which JAX arrays do not have")
                kept.setdefault(callee, found[callee])
        for call, value in _buffers.out_inputs(function, numpy):  # `np.sum(tmp * q, axis=1, out=out[:, q])`
            why = f"hands it to `{code(call.func).strip()}(..., out=...)`, {_buffers.OUT_INPUT}"
            for name in sorted(sources_of(function).of(value)):
                needs.setdefault(name, why)
            for inner in walk.nodes_of(value, cst.Call):  # `np.sum(expo(a) * q, out=...)`
                callee = producer(inner, methods)  # type: ignore[arg-type]
                if callee is not None:
                    found.setdefault(callee, f"{caller} {why.replace('it', 'what this returns', 1)}")
        for call, value in _buffers.take_inputs(function, numpy):  # `np.take(bpms, best)` of `bpms = helper(n)`
            # (librosa's tempo): the call stays NumPy until its function migrates (held back by other findings)
            why = f"hands it to `{code(call.func).strip()}(...)`, {_buffers.TAKE_INPUT}"
            for name in sorted(sources_of(function).of(value)):
                needs.setdefault(name, why)
                persistent.setdefault(name, why)
            for inner in walk.nodes_of(value, cst.Call):  # `np.take(helper(n), i)`
                callee = producer(inner, methods)  # type: ignore[arg-type]
                if callee is not None:
                    found.setdefault(callee, f"{caller} {why.replace('it', 'what this returns', 1)}")
                    kept.setdefault(callee, found[callee])
        for call in walk.nodes_of(function.body, cst.Call) if fftpack or sparse or numpy_only else ():
            # `data = even_data(c) / 2`, then `ifft(data)` (fluids' pychebfun): `scipy.fftpack` reads `.flags`;
            # `sparse.diags(degree(W))` (pygsp's Laplacian): a JAX array is taken for a sequence of diagonals
            why = _buffers.host_call_why(call, fftpack, sparse, numpy_only, code)  # type: ignore[arg-type]
            if why is None:
                continue
            for arg in arguments(call, numpy_only):  # type: ignore[arg-type]
                for name in sorted(sources_of(function).of(arg.value)):
                    needs.setdefault(name, why)
                    persistent.setdefault(name, why)
                for inner in [*walk.nodes_of(arg.value, cst.Call), arg.value]:  # `ifft(even_data(c) * 2)`, `diags(self.dw)`
                    callee = producer(inner, methods) if isinstance(inner, cst.Call) else _property(inner, properties)  # type: ignore[arg-type]
                    if callee is not None:
                        found.setdefault(callee, f"{caller} {why.replace('it', 'what this returns', 1)}")
                        kept.setdefault(callee, found[callee])
        for call in _buffers.written_views(function, viewing):  # `v = block0(y); v += s`, `block0(y)[:] += s`
            # (sporco's `block0`, `np.swapaxes(y[:, 0:2], 0, 1)`): `jnp.swapaxes` would make a copy, and the
            # write would silently stop reaching the caller's array (or raise, for a write into an item)
            callee = producer(call, methods)
            if callee is not None:
                found.setdefault(callee, f"{caller} writes into what this returns (`{code(call).strip()}`), a view of "
                                         "the array it is given: as a JAX array it would be a copy, and the write "
                                         "would no longer reach that array")
                kept.setdefault(callee, found[callee])
        # `isinstance(r, bool)`: a JAX array is none of those; `if outside(theta, lo, hi) is True:`, `r = check(a)`,
        # then `r is not True` (pymcmcstat's bounds and symmetry checks): an array is never the object `True`, so
        # the test silently flips
        tested = [(subject, f"tests whether it is a Python {kinds} (`{code(call).strip()}`)")
                  for call in walk.nodes_of(function.body, cst.Call)
                  for subject, kinds in [_buffers.python_number_test(call)] if subject is not None]  # type: ignore[arg-type, misc]
        tested += [(subject, f"compares it by identity with a Python bool (`{code(comparison).strip()}`)")
                   for comparison in walk.nodes_of(function.body, cst.Comparison)
                   for subject in _identity_tested(comparison)]  # type: ignore[arg-type]
        for subject, why in tested:
            if isinstance(subject, cst.NamedExpr):  # `(r := check(a)) is True`: the value itself is compared
                subject = subject.value
            root = _written_root(subject) if isinstance(subject, cst.Subscript) else None
            if isinstance(subject, cst.Name) or root is not None:  # `r is True`; `r[0] is True` of `return hit, v`
                needs.setdefault(root or subject.value, why)  # type: ignore[attr-defined]
            callee = producer(subject, methods) if isinstance(subject, cst.Call) else None
            if callee is not None:
                found.setdefault(callee, f"{caller} {why.replace('it', 'what this returns', 1)}")
        names, exprs = hashed_once(rule.context, function)  # type: ignore[arg-type]
        for name in names:
            needs.setdefault(name, "hashes its elements (a JAX array's are unhashable)")
        for expr in exprs:  # `winmap[winner(w, x)]`: the producer's result itself is the key
            callee = producer(expr, methods) if isinstance(expr, cst.Call) else None
            if callee is not None:
                found.setdefault(callee, f"{caller} uses what this returns as a key or set member (a "
                                         "JAX array is unhashable)")
        deep = _buffers.deep_written_items(function) & writes if writes else frozenset()
        for listed, value in _buffers.appended(function, deep) if deep else ():
            # `abscissa, weight = simple(order)`, `weights.append(weight)`, then `weights[-1][-1] += w` (chaospy's
            # segmented quadrature): the write goes into the array the list holds, which a JAX array cannot take
            why = f"puts it in the list `{listed}` and {needs[listed]}"
            for name in sorted(sources_of(function).of(value)):
                needs.setdefault(name, why)
                writes.add(name)
            for callee in producers(value, methods, properties=properties):
                found.setdefault(callee, f"{caller} puts what this returns in the list `{listed}` and {needs[listed]}")
        _iterated_needs(function, iterated, needs, persistent, methods, found, kept, caller)
        if not needs and not shown:
            continue
        defaults = {p.name.value: p.default.value for p in (*function.params.params, *function.params.kwonly_params)
                    if isinstance(p.default, cst.Name)}  # `get_gradients=efron_values`
        # (a walrus binds as an assignment does: `if (r := check(a)) and r[0] is True`)
        assigns = [*walk.nodes_of(function.body, cst.Assign), *(
            cst.Assign(targets=[cst.AssignTarget(n.target)], value=n.value)  # type: ignore[attr-defined]
            for n in walk.nodes_of(function.body, cst.NamedExpr))]
        locals_ = _bound(assigns)  # type: ignore[arg-type]
        for assign in assigns:
            held = _property(assign.value, properties)  # type: ignore[attr-defined]
            # (through NumPy calls and local names: `bands = make_bands(n)`, `k1 = np.round(bands[:, 0] * 2)`)
            for callee in producers(assign.value, methods, numpy, locals_) if held is None else [held]:  # type: ignore[attr-defined]
                callee = defaults.get(callee, callee)
                for target in assign.targets:  # type: ignore[attr-defined]
                    bound = [target.target] if isinstance(target.target, cst.Name) else [
                        e.value for e in target.target.elements] if isinstance(target.target, (cst.Tuple, cst.List)) else []
                    for name in (b.value for b in bound if isinstance(b, cst.Name)):
                        if name in augmented and callee not in viewing and f"self.{callee}" not in viewing:
                            continue  # a fresh array (`r = f(x); r += 1`): rebinding it changes nothing else
                        if name in needs:
                            why = f"{caller} binds what this returns to `{name}` and {persistent.get(name, needs[name])}"
                            found.setdefault(callee, why)
                            if name in persistent:
                                kept.setdefault(callee, why)
                        elif name in shown:
                            texts.setdefault(callee, f"{caller} binds what this returns to `{name}` and {shown[name]}")
            # `x, y = sph2cart(a, r)`, `x = np.asarray(x, dtype=np.float64)`, then `x.setflags(write=True)` or `x[0] =
            # v` (pyfar): NumPy's conversion of a JAX array is a read-only view of it, not a copy
            inner = _converted(assign.value, numpy) if writes else None  # type: ignore[attr-defined]
            for callee in producers(inner, methods, numpy, locals_) if inner is not None else ():
                callee = defaults.get(callee, callee)
                for target in assign.targets:  # type: ignore[attr-defined]
                    bound = [target.target] if isinstance(target.target, cst.Name) else []
                    for name in (b.value for b in bound if b.value in writes and b.value not in augmented):
                        why = (f"{caller} binds `{code(assign.value).strip()}` of what this returns to `{name}` (for a "  # type: ignore[attr-defined]
                               f"JAX array, NumPy's read-only view of it) and {needs[name]}")
                        found.setdefault(callee, why)
                        kept.setdefault(callee, why)
    methods = every
    _stored_flows(module, methods, numpy, code, found, kept)
    # another module of the run binds what a function of this one returns and writes into it (`bits = to_bits(n, w)`,
    # `bits[0] = v`): jaxfix leaves that write (it cannot see where the array comes from), so the result stays NumPy
    elsewhere = (rule.context.project_facts(_INDEXED_BY) or {}).get("results", {})
    for stmt in module.body if elsewhere else ():
        where = _written_elsewhere(elsewhere, rule.context.module_name, stmt.name.value) \
            if isinstance(stmt, cst.FunctionDef) else None
        if where is not None and where != rule.context.module_name:
            why = (f"code in `{where}` binds what this returns to a name and writes into it in place, which stays NumPy "
                   "(a write into what another module returns is not rewritten), hands it to a function of a compiled "
                   "module, or reads it through an attribute only a NumPy array has (`.flags`, `.strides`...)")
            found.setdefault(stmt.name.value, why)  # type: ignore[attr-defined]
            kept.setdefault(stmt.name.value, why)  # type: ignore[attr-defined]
    for member in members if elsewhere else ():  # `.sigma_points`: a method of that name, whatever its class
        where = elsewhere.get(f".{member.name.value}")
        if where is not None and where != rule.context.module_name:
            why = (f"code in `{where}` writes into what a method of this name returns (bound to a name, `y = "
                   f"self.{member.name.value}(...)`, or stored on an attribute) in place, which stays NumPy (jaxfix cannot "
                   "see which class the object is of: a base class's call reaches an override in another module)")
            found.setdefault(member.name.value, why)
            kept.setdefault(member.name.value, why)
    for callee in sorted(_caller_inputs.identity_tested(rule.context.project, rule.context.module_name)):
        found.setdefault(callee, "code in another module of the run compares what this returns by identity with a "
                                 "Python bool (`f(...) is True`)")
    # `s0 = 2 * dt / Morlet().flambda()`, then `fft.ifft(x * s0)` in another module of the run (`_caller_inputs.
    # NUMPY_SINK`): that module's code is left as it is, so what it gets from this one must stay NumPy
    classes = {c.name.value: c for c in module.body if isinstance(c, cst.ClassDef)}
    for callee, why in sorted(_caller_inputs.numpy_sinks(rule.context.project, rule.context.module_name, classes).items()):
        found.setdefault(callee, why)
        kept.setdefault(callee, why)
    _handed_elsewhere(rule, found, kept)
    # `y = self._call(self, x)`, `self._call = self.__class__._call_linear` (scipy's interp1d): what `_call` is
    # found for, the methods stored on it are
    for attr, stored in _attribute_flows.stored_methods(module).items() if found else ():
        for table in (found, kept, texts):
            if attr in table:
                for method in sorted(stored):
                    table.setdefault(method, table[attr])
    through_returns(module, found, methods, numpy, kept)
    return found, kept, texts


# NumPy functions that give their argument itself when it is already a NumPy array of the kind asked for, and for a
# JAX array NumPy's read-only view of its buffer (not a copy): a write into the result fails as one into a JAX array
_CONVERSIONS = frozenset({"asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "atleast_1d", "atleast_2d",
                          "atleast_3d"})


def _converted(value: cst.BaseExpression, numpy: Callable[[cst.BaseExpression], bool]) -> Optional[cst.BaseExpression]:
    """The value a NumPy conversion that does not copy (`_CONVERSIONS`, `np.array(v, copy=False)`), or a nesting of
    them, is given (`v` of `np.atleast_1d(np.asarray(v, dtype=float))`), else None."""
    found = None
    while isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)) and numpy(value.func) \
            and value.args and not value.args[0].star and value.args[0].keyword is None:
        short = dotted_name(value.func).split(".")[-1]
        uncopied = short in _CONVERSIONS or short == "array" and any(
            a.keyword is not None and a.keyword.value == "copy" and isinstance(a.value, cst.Name)
            and a.value.value in ("False", "None") for a in value.args)
        if not uncopied:
            break
        found = value = value.args[0].value
    return found


def _stored_flows(module: cst.Module, methods: Container[str], numpy: Callable[[cst.BaseExpression], bool],
                  code: Callable[[cst.CSTNode], str], found: dict[str, str], kept: dict[str, str]) -> None:
    """Add the module's functions whose result a function of it stores on an attribute (`self.sos =
    as_sections(sos)`) that reaches, in a function of the module, code that needs a NumPy array
    (`_attribute_flows.flowing_attributes`: `sosfilt(self.sos[0], x)`, a write into a local array computed from it):
    what a NumPy call stored there must stay, a helper's result must stay too (pyfar's `_atleast_3d_first_dim`)."""
    flows = _attribute_flows.flowing_attributes(module, numpy) if any(
        isinstance(leaf, cst.Attribute) for a in walk.nodes_of(module, cst.Assign) for t in a.targets  # type: ignore[attr-defined]
        for leaf in _buffers.target_leaves(t.target)) else {}
    if not flows:
        return
    for function in walk.nodes_of(module, cst.FunctionDef):
        for assign in walk.nodes_of(function.body, cst.Assign):  # type: ignore[attr-defined]
            stored = [leaf.attr.value for t in assign.targets  # type: ignore[attr-defined]
                      for leaf in _buffers.target_leaves(t.target)  # (`self.a, self.b = make(n)` too)
                      if isinstance(leaf, cst.Attribute) and leaf.attr.value in flows]
            for attr in stored:
                where, how = flows[attr]
                for callee in producers(assign.value, Scope(methods, function)):  # type: ignore[attr-defined]
                    why = (f"`{function.name.value}` stores what this returns as `.{attr}`, which reaches {how} "  # type: ignore[attr-defined]
                           f"elsewhere in the module (`{code(where).strip().splitlines()[0]}`)")
                    found.setdefault(callee, why)
                    kept.setdefault(callee, why)


def _handed_elsewhere(rule: Rule, found: dict[str, str], kept: dict[str, str]) -> None:
    """A call in another module of the run hands what a function of this one returns (or a value computed from it)
    to a parameter of another function of this one that needs a NumPy array (`_buffers.writers`: astroML's test
    `h = sinegauss(t, ...)`, then `FT_continuous(t, h)`, which hands `h` to `scipy.fftpack`): the result stays NumPy
    (`_caller_inputs.fed_results`). So it does when the function is of a third module, or of the caller's (SALib's
    `x = make(n)` in `pkg.sample`, then `scale(x, lo, hi)` of `pkg.util`, doing `np.multiply(p, ..., out=p)`, with
    `make` of this module: `_caller_inputs.results_fed_elsewhere`, that module's writers read as a dependency)."""
    fed = _caller_inputs.fed_results(rule.context.project, rule.context.module_name)
    table = _buffers.writers(rule.context.module, path=rule.context.path) if fed else {}
    for callee, specs in fed.items():
        _mark_fed(callee, table.get(callee, ([], {})), specs, found, kept)
    elsewhere = _caller_inputs.results_fed_elsewhere(rule.context.project, rule.context.module_name)
    path, module_name = rule.context.path, rule.context.module_name
    package = module_name.split(".")[:-1] if os.path.basename(path) != "__init__.py" else module_name.split(".")
    for (callee_module, callee), specs in sorted(elsewhere.items()):
        writes = _buffers._writers_of_module(path, package, callee_module.split("."), callee) or ([], {})
        _mark_fed(callee, writes, specs, found, kept, f"{callee_module}.{callee}")


def _mark_fed(callee: str, writes: tuple[list[str], Mapping[str, str]], specs: Mapping, found: dict[str, str],
              kept: dict[str, str], shown: str = "") -> None:
    """Keep NumPy the producers whose results calls in another module pass to a parameter of `callee` that needs a
    NumPy array (`writes`: its positional parameters and those needs; `specs`: {position or keyword: producers})."""
    params, needs = writes
    for spec, producers in sorted(specs.items(), key=repr):
        param = params[spec] if isinstance(spec, int) and spec < len(params) else spec if isinstance(spec, str) else None
        if param not in needs:
            continue
        why = (f"a call in another module of the run hands what this returns to `{shown or callee}`, and "
               f"{_buffers._why(callee, param, needs[param])}")  # type: ignore[index]
        for producer in sorted(producers):
            found.setdefault(producer, why)
            kept.setdefault(producer, why)


def through_returns(module: cst.Module, found: dict[str, str], methods: Container[str],
                    numpy: Callable[[cst.BaseExpression], bool], kept: Optional[dict[str, str]] = None) -> None:
    """Add to `found` (and to `kept`, for a function in it) the module's functions whose result a function in it
    returns (`def run(n): return build(n)`, or through a local name, arithmetic or indexing: `producers`), to a fixed
    point: what the caller does to `run`'s result it does to `build`'s (filterpy review: `res = run(3); res[0] = 9.0`
    raised once `build` made a JAX array)."""
    returned: dict[str, list[tuple[cst.FunctionDef, list[cst.BaseExpression]]]] = {}
    for function in walk.nodes_of(module, cst.FunctionDef):
        values = [r.value for r in walk.nodes_of(function.body, cst.Return) if r.value is not None]  # type: ignore[attr-defined]
        if values:
            returned.setdefault(function.name.value, []).append((function, values))  # type: ignore[attr-defined]
    origin = dict(found)  # {function: the reason of the first function of its chain}
    pending = [name for name in found if name in returned]
    while pending:
        name = pending.pop()
        for function, values in returned.get(name, ()):
            local = _bound(walk.nodes_of(function.body, cst.Assign))  # type: ignore[arg-type]
            for callee in (c for value in values for c in producers(value, Scope(methods, function), numpy, local)):
                if callee in found:
                    continue
                origin[callee] = origin[name]
                found[callee] = f"`{name}` returns what this returns, and {origin[name]}"
                if kept is not None and name in kept:
                    kept[callee] = found[callee]
                pending.append(callee)


def _bound(assigns: list[cst.Assign]) -> dict[str, list[cst.BaseExpression]]:
    """{local name: the values `assigns` bind it to} (names bound as a whole: `bands = make_bands(n)`; a name
    unpacked from a value, `a, d = split(x)` (pywt), as bound to the whole value: what it holds comes from it)."""
    bound: dict[str, list[cst.BaseExpression]] = {}
    for assign in assigns:
        for target in assign.targets:
            held = target.target
            names = [held] if isinstance(held, cst.Name) else [e.value for e in held.elements] \
                if isinstance(held, (cst.Tuple, cst.List)) else []
            for name in names:
                if isinstance(name, cst.Name):
                    bound.setdefault(name.value, []).append(assign.value)
    return bound


_PYTHON_RESULTS = frozenset({"tolist", "item"})  # `f(x).tolist()`: a Python value whatever `f` returns
_FILLING_METHODS = {"append": 0, "extend": 0, "update": 0, "insert": 1, "setdefault": 1}  # first held argument
_CONTAINER_CALLS = frozenset({"dict", "list", "tuple", "set"})
_JSON = "serializes it to JSON, which rejects a JAX array"
_SHOWN = "turns it into text (`repr` of a 0-d JAX array is `Array(1., dtype=float32)`, not `1.0`)"


def _held_values(body: cst.BaseSuite) -> tuple[dict[str, str], list[tuple[cst.Call, str]]]:
    """What the Python dicts and lists in `body` hold that a call serializes to JSON (`json.dumps(flags)`) or turns
    into text (`str(flags)`, `print(flags)`, `f"{flags}"`: the `repr` of each item): the local names and why
    (`flags` of `json.dumps(flags)`, and `h` after `flags = {"nan": h}`, `flags["nan"] = h`, `flags.append(h)`,
    `flags.update(nan=h)` or `flags = dict(nan=h)`), and the calls held (`has_nan(x)` of `flags = {"nan":
    has_nan(x)}`), not those that make Python values (`f(x).tolist()`). By name, wherever bound in `body`. A value
    turned into text itself is not counted (`str` of a 0-d JAX array is that of the number)."""
    roots: list[tuple[cst.BaseExpression, str]] = []
    held: dict[str, list[cst.BaseExpression]] = {}
    containers: set[str] = set()  # names bound to a display or filled by item
    shown: list[cst.BaseExpression] = []
    for node in walk.nodes(body):
        if isinstance(node, cst.Call) and json_writer(node) and node.args:
            roots.extend((value, _JSON) for value in _held(node.args[0].value))
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("str", "repr", "print"):
            shown.extend(arg.value for arg in node.args if not arg.keyword)
        elif isinstance(node, cst.FormattedStringExpression):
            shown.append(node.expression)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                item = isinstance(target.target, cst.Subscript)
                root = target.target.value if item else target.target  # type: ignore[attr-defined]
                if isinstance(root, cst.Name):  # `flags = {...}`, `flags["nan"] = h`
                    held.setdefault(root.value, []).extend(_held(node.value))
                    if item or _held(node.value) != [node.value]:
                        containers.add(root.value)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                and node.func.attr.value in _FILLING_METHODS:
            for arg in node.args[_FILLING_METHODS[node.func.attr.value]:]:
                held.setdefault(node.func.value.value, []).extend(_held(arg.value))
            containers.add(node.func.value.value)
    for value in shown:  # `print(flags)`, `str({"nan": h})`: the items' `repr`
        if isinstance(value, cst.Name) and value.value in containers:
            roots.extend((item, _SHOWN) for item in held[value.value])
        elif _held(value) != [value]:
            roots.extend((item, _SHOWN) for item in _held(value))
    names: dict[str, str] = {}
    calls: list[tuple[cst.Call, str]] = []
    while roots:
        value, why = roots.pop()
        if isinstance(value, cst.Name):
            if value.value not in names:
                names[value.value] = why
                roots.extend((item, why) for item in held.get(value.value, ()))
        elif isinstance(value, cst.Call) and not (isinstance(value.func, cst.Attribute)
                                                  and value.func.attr.value in _PYTHON_RESULTS):
            calls.append((value, why))
    return names, calls


def _held(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`displayed(value)` (also through sets), and the arguments of `dict(...)`, `list(...)`, `tuple(...)`
    (`dict(nan=h)`)."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in _CONTAINER_CALLS:
        return [v for arg in value.args for v in _held(arg.value)]
    if isinstance(value, cst.Set):
        return [v for e in value.elements for v in _held(e.value)]
    if isinstance(value, (cst.Dict, cst.List, cst.Tuple)):
        return [v for e in (value.elements if not isinstance(value, cst.Dict) else
                            [e for e in value.elements if isinstance(e, cst.DictElement)]) for v in _held(e.value)]
    return [value]


_DISPLAYS = (cst.Tuple, cst.List, cst.Dict, cst.SimpleString, cst.FormattedString)


def _written_targets(node: cst.Assign | cst.AugAssign) -> list[cst.BaseExpression]:
    """The targets an (augmented) assignment writes or binds that may be a numeric array's items: each element of a
    tuple or list target (nested, starred: `a[i], a[j] = a[j], a[i]`), but none given a display or a string
    (`bc[0] = (1, slope)` puts a tuple in a list's item, which no numeric array holds)."""
    if isinstance(node, cst.AugAssign):
        return [] if isinstance(node.value, _DISPLAYS) else [node.target]
    found: list[cst.BaseExpression] = []
    for target in node.targets:
        value = node.value
        if isinstance(target.target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                and len(target.target.elements) == len(value.elements) \
                and not any(isinstance(e, cst.StarredElement) for e in [*target.target.elements, *value.elements]):
            found += [leaf for e, v in zip(target.target.elements, value.elements) if not isinstance(v.value, _DISPLAYS)
                      for leaf in _buffers.target_leaves(e.value)]
        elif isinstance(target.target, (cst.Tuple, cst.List)):
            found += _buffers.target_leaves(target.target)
        elif not isinstance(value, _DISPLAYS):
            found.append(target.target)
    return found


def _item_root(target: cst.BaseExpression) -> Optional[str]:
    """`a` for a write into an item of the name `a` (`a[i]`, `a[0][1:]`, `a.T[0]`), else None."""
    if not isinstance(target, cst.Subscript):
        return None
    return _written_root(target)


def _written_root(value: cst.BaseExpression) -> Optional[str]:
    """`a` for `a`, `a[0]`, `a[0][1:]` or `a.T`: an array rooted at a name, through items and the attributes that
    are views of it (not `obj.data`: an object's attribute), else None."""
    while isinstance(value, cst.Subscript) or isinstance(value, cst.Attribute) \
            and value.attr.value in _buffers.ARRAY_ATTRIBUTES:
        value = value.value
    return value.value if isinstance(value, cst.Name) else None


def _outputs(call: cst.Call, numpy: Callable[[cst.BaseExpression], bool], ndimage: SparseNames,
             numpy_aliases: Mapping[str, str]) -> list[str]:
    """The names (roots) `call` writes into as its output: `out=a` or `output=a` (to any callee), by position to a
    NumPy function (`np.add(b, c, a)`) or scipy.ndimage's, and the destination of `np.copyto(a, v)`."""
    outs = _buffers.call_outputs(call, ndimage, numpy_aliases)
    if isinstance(call.func, (cst.Name, cst.Attribute)) and dotted_name(call.func).split(".")[-1] == "copyto" \
            and numpy(call.func) and call.args and call.args[0].keyword is None and not call.args[0].star:
        outs.append(call.args[0].value)
    return [name for out in outs for name in [_written_root(out)] if name is not None]


def _written_elsewhere(elsewhere: Mapping[str, str], module_name: str, function: str) -> Optional[str]:
    """Where another module writes into what `function` of `module_name` returns: imported from this module
    (`pkg.util.to_bits`) or from a package above it that re-exports it (`pkg.to_bits`); else None."""
    parts = module_name.split(".")
    for depth in range(len(parts), 0, -1):
        where = elsewhere.get(".".join([*parts[:depth], function]))
        if where is not None:
            return where
    return None


_INDEXED_BY = "JX501"  # the rule whose project index records writes into other modules' results (`_buffers.project_writes`)


def _properties(members: list[cst.FunctionDef]) -> set[str]:
    """The names of the `@property` getters among the classes' `members`."""
    return {f.name.value for f in members if any(dotted_name(d.decorator) == "property" for d in f.decorators)}


def _property(value: cst.BaseExpression, properties: Container[str]) -> Optional[str]:
    """`dw` for `self.dw`, with `dw` a property of a class of the module (pygsp's `Graph.dw`), else None."""
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self" \
            and value.attr.value in properties:
        return value.attr.value
    return None


def _iterated_needs(function: cst.FunctionDef, iterated: dict[str, str], needs: dict[str, str],
                    persistent: dict[str, str], methods: Container[str], found: dict[str, str], kept: dict[str, str],
                    caller: str) -> None:
    """A name `_type_tested` that a loop or comprehension binds (`for row in b`, `[f(row[0]) for row in bounds(n)]`):
    it is an item of what the loop runs over, which must be NumPy for the item to be: a name (`b`) joins `needs`, a
    call of a function of the module (`bounds(n)`, also through `enumerate`/`zip`/`reversed`/`list`) has its result
    kept NumPy (`found`, `kept`), to a fixed point over nested loops."""
    loops = iteration_targets(function) if iterated else {}
    pending = [name for name in iterated if name in loops]
    while pending:
        name = pending.pop()
        handed = iterated[name].replace(" it", f" `{name}`", 1)
        why = f"iterates over it as `{name}` and {handed}"
        for value in loops[name]:
            for item in _iterated(value):
                if isinstance(item, cst.Name) and item.value not in needs:
                    needs[item.value] = persistent[item.value] = iterated[item.value] = why
                    if item.value in loops:
                        pending.append(item.value)
                callee = producer(item, methods) if isinstance(item, cst.Call) else None
                if callee is not None:
                    found.setdefault(callee, f"{caller} iterates over what this returns as `{name}` and {handed}")
                    kept.setdefault(callee, found[callee])


def _iterated(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """What a loop over `value` gives items of: `value`, or the arguments of `enumerate`, `zip`, `reversed`,
    `list`, `tuple`, `iter` given it."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
            and value.func.value in ("enumerate", "zip", "reversed", "list", "tuple", "iter"):
        return [a.value for a in value.args if not a.star and a.keyword is None]
    return [value]


def _type_tested(rule: Rule, node: cst.CSTNode, typed: TypedParameters,
                 function: Optional[cst.FunctionDef] = None) -> list[tuple[str, str]]:
    """(name, why) for a name `node` tests for a NumPy type, which a JAX array fails: an exact type test (`type(x) is
    np.ndarray`), or a call handing it to a function of the module that requires a NumPy value there
    (`numpy_typed_parameters`: `check(x)` with `assert type(x) == np.ndarray`), or an element of it (`x[i]`, or
    itself as a loop's item) to one that tests for a Python number or a NumPy scalar (`ScalarCheck`: `is_numeric(
    row[0])` with `isinstance(v, Number)`). (`isinstance(x, np.ndarray)` in the function itself is widened to accept
    JAX arrays: `_isinstance_widening`.)"""
    if isinstance(node, cst.Comparison):
        name = exact_numpy_type_test(rule, node)
        return [] if name is None else [(name, f"tests its exact type (`{rule.code(node).strip()}`), which a JAX array fails")]
    if not isinstance(node, cst.Call):
        return []
    func = node.func
    callee = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
    entry = typed.get(callee) if callee is not None else None
    if entry is None:
        return []
    params, checks = entry
    found = []
    for index, arg in enumerate(node.args):
        if arg.star:
            break
        param = arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) else None
        if param in checks and isinstance(checks[param], ScalarCheck):
            # (an element of an array handed there: a whole array fails the test, NumPy's or JAX's)
            root = _buffers.root_name(arg.value) if element_argument(arg.value, function) else None
            if root is not None:
                what = "it, a loop's item," if isinstance(arg.value, cst.Name) else \
                    f"an element of it (`{rule.code(arg.value).strip()}`)"
                found.append((root, f"hands {what} to `{callee}`, which "
                                    f"tests whether `{param}` is a Python number or a NumPy scalar (`{checks[param]}`): "
                                    "a NumPy array's element is one, a JAX array's (a 0-d JAX array) never is"))
            continue
        if param in checks and isinstance(arg.value, cst.Name):
            found.append((arg.value.value, f"hands it to `{callee}`, which requires a NumPy value of `{param}` "
                                           f"(`{checks[param]}`)"))
    return found


def _type_tested_results(rule: Rule, node: cst.CSTNode, methods: Container[str]) -> list[str]:
    """The module functions whose result `node` tests for its exact NumPy type as it is (`type(build(rows)) is
    np.ndarray`, `type(self.make(x)) == np.ndarray`)."""
    if not isinstance(node, cst.Comparison):
        return []
    operands = [node.left, *(c.comparator for c in node.comparisons)]
    if not any(isinstance(o, (cst.Name, cst.Attribute)) and (numpy_name(rule, o) or "").startswith("numpy.") for o in operands):
        return []
    found = []
    for operand in operands:
        if isinstance(operand, cst.Call) and isinstance(operand.func, cst.Name) and operand.func.value == "type" \
                and len(operand.args) == 1 and isinstance(operand.args[0].value, cst.Call):
            callee = producer(operand.args[0].value, methods)
            if callee is not None:
                found.append(callee)
    return found


def _identity_tested(comparison: cst.Comparison) -> list[cst.BaseExpression]:
    """The operands of `comparison` compared by `is`/`is not` with `True` or `False` (`r is True`, `False is not
    f(x)`): a Python bool passes such a test, a JAX array (or NumPy's `np.True_`) never does."""
    operands = [comparison.left, *(c.comparator for c in comparison.comparisons)]
    found = []
    for i, c in enumerate(comparison.comparisons):
        if not isinstance(c.operator, (cst.Is, cst.IsNot)):
            continue
        left, right = operands[i], operands[i + 1]
        for subject, other in ((left, right), (right, left)):
            if isinstance(other, cst.Name) and other.value in ("True", "False") \
                    and not (isinstance(subject, cst.Name) and subject.value in ("True", "False")):
                found.append(subject)
    return found


class Scope(frozenset):
    """The module's method names (`producers`' `methods`), seen from one function: `local` are the names a call
    there cannot mean a function of the module by (its parameters but those defaulting to a name, and the names it
    assigns, unless it also defines or declares them global): `f(x)` in `def newton(x, f, df)` calls what the caller passes, not the nested `def f`
    of another function (scipy's `_compute_tauk`, whose `f` held back `sin` as if `newton` wrote into its result)."""

    local: frozenset[str]

    def __new__(cls, methods: Container[str], function: cst.FunctionDef) -> "Scope":
        scope = super().__new__(cls, methods)  # type: ignore[arg-type]
        params = function.params
        # (not one whose default names a function, `get=grads`: the callers read `get(X)` as `grads(X)`)
        names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                 if not isinstance(p.default, cst.Name)}
        names.update(p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param))
        for assign in walk.nodes_of(function.body, cst.Assign):
            for target in assign.targets:  # type: ignore[attr-defined]
                if isinstance(target.target, cst.Name):
                    names.add(target.target.value)
        names -= {d.name.value for d in walk.nodes(function.body) if isinstance(d, (cst.FunctionDef, cst.ClassDef))}
        names -= {n.name.value for g in walk.nodes_of(function.body, cst.Global) for n in g.names}  # type: ignore[attr-defined]
        scope.local = frozenset(names)
        return scope


def producer(value: cst.BaseExpression, methods: Container[str] = ()) -> Optional[str]:
    """The first of `producers(value, methods)`, else None."""
    found = producers(value, methods)
    return found[0] if found else None


def producers(value: cst.BaseExpression, methods: Container[str] = (),
              numpy: Optional[Callable[[cst.BaseExpression], bool]] = None,
              bound: Optional[Mapping[str, list[cst.BaseExpression]]] = None,
              seen: Optional[set[str]] = None, properties: Container[str] = ()) -> list[str]:
    """The module functions (`f(...)`) or methods (`self.f(...)`, or `obj.f(...)` of any object for a name among the
    module's `methods`: ase's `p = Atoms(2).get_momenta()`) whose result `value` is, through method calls, indexing
    and the attributes that are arrays made from it (`embed(x, d).astype(int)`, `amplitude(x).real`, `f(x)[1:]`), or
    a new array computed from it by arithmetic (`-self._G(r)`, `2.0 * f(x) + g(x)`: galpy's `out = -self._G(r)` then
    `out[nz] -= ...`): a JAX result makes each a JAX array. Given `numpy` (whether a call's `func` names a NumPy
    function), also through a NumPy function that hands the array to its own method (`np.round(f(x) * 2)`:
    `_buffers.DISPATCHING_FUNCTIONS`); given `bound` (the function's local names: the values bound to each), also
    through a local name (`bands = make_bands(n)`, then `np.round(bands[:, 0] * 2)`: pyroomacoustics' octave
    bands). Given `properties` (the module's classes' properties), also a property read on `self` (`self.phase[0]`:
    nitime's `phase`)."""
    seen = set() if seen is None else seen

    def more(inner: cst.BaseExpression) -> list[str]:
        return producers(inner, methods, numpy, bound, seen, properties)

    while True:
        func = value.func if isinstance(value, cst.Call) else None
        if isinstance(func, cst.Attribute) and func.attr.value in methods:
            return [func.attr.value]
        if func is not None and numpy is not None and isinstance(func, (cst.Name, cst.Attribute)) and numpy(func) \
                and dotted_name(func).split(".")[-1] in _buffers.DISPATCHING_FUNCTIONS:
            first = value.args[0] if value.args else None  # type: ignore[union-attr]
            if first is None or first.star or first.keyword is not None and first.keyword.value != "a":
                return []
            value = first.value  # `np.round(bands[:, 0] * 2)`: `bands[:, 0].round()` for an array of JAX
        elif isinstance(func, cst.Attribute) and not (isinstance(func.value, cst.Name) and func.value.value == "self"):
            value = func.value  # `embed(x).astype(int)`: the method's object
        elif isinstance(value, cst.Attribute) and value.attr.value in _buffers.ARRAY_ATTRIBUTES \
                or isinstance(value, cst.Subscript):
            value = value.value  # `amplitude(x).real`, `f(x)[1:]` (acoustics' one-sided spectrum)
        elif isinstance(value, cst.UnaryOperation) and not isinstance(value.operator, cst.Not):
            value = value.expression  # `-self._G(r)`: a new array of the same kind
        elif isinstance(value, cst.BinaryOperation):  # `2.0 * f(x)`: a JAX operand makes a JAX result
            return [*more(value.left), *more(value.right)]
        elif isinstance(value, cst.Name) and bound is not None and value.value in bound and value.value not in seen:
            seen.add(value.value)  # `bands = make_bands(n)`: each value the name is bound to, wherever
            return [callee for inner in bound[value.value] for callee in more(inner)]
        else:
            break
    if not isinstance(value, cst.Call):
        held = _property(value, properties)
        return [held] if held is not None else []
    func = value.func
    if isinstance(func, cst.Name):  # (not a parameter or local name of the calling function: `Scope`)
        return [func.value] if func.value not in getattr(methods, "local", ()) else []
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        return [func.attr.value]
    return []


def constructor_stores(module: cst.Module) -> Constructors:
    """The module's classes' constructors and what they store (`self.mean = mean`): see `Constructors`."""
    found: dict[str, tuple[list[str], Mapping[str, str]]] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.ClassDef) or not isinstance(stmt.body, cst.IndentedBlock):
            continue
        for member in stmt.body.body:
            if isinstance(member, cst.FunctionDef) and member.name.value == "__init__":
                params = [p.name.value for p in member.params.params][1:]
                stores = {a.value.value: t.target.attr.value for a in walk.nodes_of(member.body, cst.Assign)  # type: ignore[attr-defined]
                          for t in a.targets if isinstance(a.value, cst.Name) and isinstance(t.target, cst.Attribute)  # type: ignore[attr-defined]
                          and isinstance(t.target.value, cst.Name) and t.target.value.value == "self"}
                found[stmt.name.value] = (params, stores)
    return found


# {class name, or `.method` for a method: (its positional parameters after `self`, {parameter: the attributes a
# value computed from it is stored in})}
StoredFlows = Mapping[str, tuple[list[str], Mapping[str, frozenset[str]]]]


def stored_flows(module: cst.Module, numpy: Callable[[cst.BaseExpression], bool]) -> StoredFlows:
    """What the module's classes' constructors (by class name) and other methods (by `.name`) store on `self` from
    their parameters: `self.lower = lb`, `self.span = ub - lb`, a NumPy call of one (`_buffers.Sources`, the
    function's local names followed): see `StoredFlows`."""
    found: dict[str, tuple[list[str], Mapping[str, frozenset[str]]]] = {}
    for cls in walk.nodes_of(module, cst.ClassDef):
        for member in cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ():  # type: ignore[attr-defined]
            if not isinstance(member, cst.FunctionDef) or member.decorators:
                continue
            params = [p.name.value for p in (*member.params.posonly_params, *member.params.params)][1:]
            every = set(params) | {p.name.value for p in member.params.kwonly_params}
            sources: Optional[_buffers.Sources] = None
            stores: dict[str, set[str]] = {}
            for assign in walk.nodes_of(member.body, cst.Assign):
                attrs = [t.target.attr.value for t in assign.targets  # type: ignore[attr-defined]
                         if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name)
                         and t.target.value.value == "self"]
                if not attrs:
                    continue
                sources = sources or _buffers.Sources(member, numpy)
                for name in sources.of(assign.value) & every:  # type: ignore[attr-defined]
                    stores.setdefault(name, set()).update(attrs)
            if stores:
                key = cls.name.value if member.name.value == "__init__" else f".{member.name.value}"  # type: ignore[attr-defined]
                if key not in found:  # (a method of one name in two classes: the first one's)
                    found[key] = (params, {p: frozenset(a) for p, a in stores.items()})
    return found


def stored_by_constructor(rule: Rule, call: cst.Call, constructors: Constructors, made: set[str],
                          mutated_attributes: Mapping[str, cst.CSTNode], flows: StoredFlows = {},
                          flowing: Mapping[str, tuple[cst.CSTNode, str]] = {}) -> Optional[str]:
    """`Gaussian(mean, cov)` with `mean = np.empty(...)` made here (`made`), where `Gaussian.__init__` stores it as
    `self.mean` and code of the module writes into `.mean` in place (`mutated_attributes`; simdkalman's filters):
    why it must stay NumPy, else None. Given `flows` (`stored_flows`) and `flowing` (`_attribute_flows.
    flowing_attributes`), also when the constructor, or a method called on any object (`v.reset(lower)`), stores
    it or a value computed from it (`self.lower = lb`) as an attribute that reaches, through arithmetic, code that
    needs a NumPy array (`x = np.fmod(b, r) + self.lower`, then `x[m] += e` in a method that stays NumPy: a JAX
    `.lower` makes `x` a JAX array, and the write raises; scipy's dual annealing `VisitingDistribution`)."""
    func = call.func
    key = func.value if isinstance(func, cst.Name) else f".{func.attr.value}" if isinstance(func, cst.Attribute) else ""
    params, stores = constructors.get(key, ([], {}))
    for index, arg in enumerate(call.args if key in constructors else ()):
        param = arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) and not arg.star else None
        attr = stores.get(param) if param is not None else None
        if attr is not None and isinstance(arg.value, cst.Name) and arg.value.value in made:
            where = mutated_attributes.get(attr)
            if where is not None:
                return (f"`{key}` stores `{arg.value.value}`, a NumPy array made here, as `.{attr}`, which "
                        f"the module writes into in place (`{rule.code(where).strip().splitlines()[0]}`): it must stay "
                        "NumPy, so this function is left as it is")
    params, feeds = flows.get(key, ([], {}))
    for index, arg in enumerate(call.args if flowing and key in flows else ()):
        param = arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) and not arg.star else None
        if param is None or not isinstance(arg.value, cst.Name) or arg.value.value not in made:
            continue
        for attr in sorted(feeds.get(param, ())):
            if attr in flowing:
                where, how = flowing[attr]
                shown = rule.code(func).strip()
                return (f"`{shown}` stores `{arg.value.value}`, a NumPy array made here, as `.{attr}` (or a value "
                        f"computed from it), which reaches {how} elsewhere in the module "
                        f"(`{rule.code(where).strip().splitlines()[0]}`): it must stay NumPy, so this function is left "
                        "as it is")
    return None
