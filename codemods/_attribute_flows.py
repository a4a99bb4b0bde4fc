"""Attributes whose arrays reach, in another function of the module, code that needs a NumPy array.

JX501 renames the NumPy call making an array stored on an attribute (`self.n = np.atleast_1d(n)`) one function at a
time; a method that reads the attribute may stay NumPy (held back by its other findings) and then:

- write into a local array computed from it (`c = np.zeros(k, dtype=int) + self.n`, then `c[i] = v`: a JAX `.n`
  makes `c` a JAX array, and the write raises `TypeError`; astroML's `Cminus`, `trunc_exp._pdf`);
- compute with a masked array (`np.ma.array(b, mask=m) * self.Z`: JAX rejects masked arrays; pykrige's kriging);
- hand it to a call that needs a NumPy array (`fftpack.fft(self.x[1:] * 2)`: `_buffers.host_call_why`).

`flowing_attributes(module, numpy)` finds them (by attribute name, in any class of the module, as
`_buffers.mutated_attributes` does), and the attributes read by a value stored on one of them (`self.a = self.n *
2`), to a fixed point: the array stored on any of them must stay NumPy.
"""

from __future__ import annotations

from typing import Callable, Optional, Union

import libcst as cst

from codemods import _buffers
from jaxfix import walk
from jaxfix.analysis.sparse_data import NumpyOnly, SparseNames, arguments
from jaxfix.imports import dotted_name

# {attribute: (the code it reaches, what happens there)}
Flows = dict[str, tuple[cst.CSTNode, str]]

_WRITTEN = "a write into an array computed from it, which stays NumPy where its function does (a JAX array cannot be written into)"
_MASKED = "arithmetic with a masked array (JAX rejects masked arrays)"
_CODE = cst.Module([])
# attributes of an array that are no arrays (`x.shape[0]`): what they give is the same for a JAX array
_NOT_ARRAYS = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides"})


def _item_writes(function: cst.FunctionDef) -> list[tuple[str, cst.CSTNode]]:
    """(local name, the statement) for each in-place write into a name's array: an item (`c[i] = v`, `c[i] += v`),
    a writing method (`c.fill(0)`), an output argument (`out=c`); not an item of a name last bound, in the text, to
    a list (`h = [0] * n`, then `h[i] = v`)."""
    found: list[tuple[str, cst.CSTNode]] = []
    lists: dict[str, bool] = {}  # {local name: whether its last binding so far is a list}
    for node in walk.nodes(function.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:  # (`a, b = ...` binds names; `h[i] = v` binds none)
                bound = [target.target] if isinstance(target.target, cst.Name) else walk.nodes_of(target.target, cst.Name) \
                    if isinstance(target.target, (cst.Tuple, cst.List)) else []
                for name in bound:
                    lists[name.value] = isinstance(target.target, cst.Name) and _is_list(node.value)  # type: ignore[attr-defined]
            targets = [leaf for t in node.targets for leaf in _buffers.target_leaves(t.target)
                       if isinstance(leaf, cst.Subscript)]  # (`c[i], c[j] = c[j], c[i]` too)
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Subscript):
            targets = [node.target]
        elif isinstance(node, cst.Call):
            targets = [node.func.value] if isinstance(node.func, cst.Attribute) \
                and node.func.attr.value in _buffers.WRITING_METHODS else []
            targets += [a.value for a in node.args if a.keyword is not None and a.keyword.value in _buffers.OUT_KEYWORDS]
        else:
            continue
        for target in targets:
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and lists.get(target.value.value):
                continue  # an item of a list, not of an array
            while isinstance(target, cst.Subscript):
                target = target.value
            if isinstance(target, cst.Name):  # (a write into an attribute is `mutated_attributes`')
                found.append((target.value, node))
    return found


def _is_list(value: cst.BaseExpression) -> bool:
    """`[]`, `[0] * n`, `[f(x) for x in xs]`, `list(...)`."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        value = value.left if isinstance(value.left, cst.List) else value.right
    return isinstance(value, (cst.List, cst.ListComp)) or isinstance(value, cst.Call) \
        and isinstance(value.func, cst.Name) and value.func.value == "list"


def stored_methods(module: cst.Module) -> dict[str, set[str]]:
    """{attribute: the module's functions stored on it}, by name: `self._call = self.__class__._call_linear` (or
    `type(self).m`, `Cls.m`, `self.m`), which `self._call(self, x)` then runs (scipy's `interp1d`)."""
    defined = {f.name.value for f in walk.nodes_of(module, cst.FunctionDef)}  # type: ignore[attr-defined]
    found: dict[str, set[str]] = {}
    for assign in walk.nodes_of(module, cst.Assign):
        value = assign.value  # type: ignore[attr-defined]
        if isinstance(value, cst.Attribute) and value.attr.value in defined:
            for target in assign.targets:  # type: ignore[attr-defined]
                if isinstance(target.target, cst.Attribute) and isinstance(target.target.value, cst.Name) \
                        and target.target.value.value == "self" and target.target.attr.value not in defined:
                    found.setdefault(target.target.attr.value, set()).add(value.attr.value)
    return found


class _Results:
    """What the results of the module's functions are computed from, for `_buffers.Sources`' `calls`: a call of a
    function of the module (`f(v)`), of a method on `self` (`self.interp(v)`), or of a method stored on an attribute
    (`self._call = self.__class__._call_linear`, then `self._call(self, v)`: scipy's `interp1d`) gives the attributes
    its returned values read (`.x` of `return v * self.x`) and the arguments given to the parameters they are computed
    from. Each function is read once, when first called (a recursive call reads as nothing)."""

    def __init__(self, module: cst.Module, numpy: Callable[[cst.BaseExpression], bool]) -> None:
        self._numpy = numpy
        self._defs: dict[str, list[cst.FunctionDef]] = {}
        for function in walk.nodes_of(module, cst.FunctionDef):
            self._defs.setdefault(function.name.value, []).append(function)  # type: ignore[attr-defined]
        self._stored = stored_methods(module)
        self._read: dict[cst.FunctionDef, frozenset[str]] = {}

    def _callees(self, call: cst.Call) -> list[tuple[cst.FunctionDef, int]]:
        """(function, how many of its leading parameters the call does not pass) for each function `call` may run."""
        func = call.func
        if isinstance(func, cst.Name):
            return [(f, 0) for f in self._defs.get(func.value, ())]
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            if func.attr.value in self._defs:  # `self.interp(v)`: `self` is its first parameter
                return [(f, 1) for f in self._defs[func.attr.value]]
            # `self._call(self, v)`: an unbound method, given `self` explicitly (a bound one, `self._call = self.m`,
            # is not, but its parameters are read by name and position alike: one more argument at worst)
            return [(f, 0) for m in sorted(self._stored.get(func.attr.value, ())) for f in self._defs[m]]
        return []

    def _reads(self, function: cst.FunctionDef) -> frozenset[str]:
        if function not in self._read:
            self._read[function] = frozenset()  # (a recursive call, while it is read)
            sources = _buffers.Sources(function, self._numpy, attributes=True, calls=self)
            self._read[function] = frozenset(
                r for ret in walk.nodes_of(function.body, cst.Return) if ret.value is not None  # type: ignore[attr-defined]
                for r in sources.of(ret.value))  # type: ignore[attr-defined]
        return self._read[function]

    def __call__(self, call: cst.Call) -> list[Union[str, cst.BaseExpression]]:
        found: list[Union[str, cst.BaseExpression]] = []
        for function, skipped in self._callees(call):
            reads = self._reads(function)
            found += sorted(r for r in reads if r.startswith(".") or r == _buffers.MASKED)
            params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)][skipped:]
            for index, arg in enumerate(call.args):
                param = arg.keyword.value if arg.keyword is not None else params[index] \
                    if not arg.star and index < len(params) else None
                if param is None and arg.keyword is None or param in reads:  # (`*args`: any of them)
                    found.append(arg.value)
        return found


def flowing_attributes(module: cst.Module, numpy: Callable[[cst.BaseExpression], bool]) -> Flows:
    """{attribute: (where, why)} for the attributes whose value reaches, in a function of the module, an in-place
    write into a local array computed from it (through arithmetic, indexing, array methods and NumPy calls:
    `_buffers.Sources`), or arithmetic with (or a `np.ma` call given) a masked array."""
    found: Flows = {}
    readers = (SparseNames.read(module, "fftpack"), SparseNames.read(module), NumpyOnly.read(module))
    results: Optional[_Results] = None  # (made when first needed)
    for function in walk.nodes_of(module, cst.FunctionDef):
        writes = _item_writes(function)  # type: ignore[arg-type]
        calls = walk.nodes_of(function.body, cst.Call)  # type: ignore[attr-defined]
        masked = [n for n in calls if isinstance(n.func, cst.Attribute)  # type: ignore[attr-defined]
                  and numpy(n.func) and "ma" in dotted_name(n.func).split(".")[:-1]]  # type: ignore[attr-defined]
        hosts = [(n, why) for n in calls if any(readers)
                 for why in [_buffers.host_call_why(n, *readers, _CODE.code_for_node)] if why is not None]  # type: ignore[arg-type]
        if not writes and not masked and not hosts:
            continue
        results = results or _Results(module, numpy)
        sources = _buffers.Sources(function, numpy, attributes=True, calls=results)  # type: ignore[arg-type]
        for call, why in hosts:  # `fftpack.fft(self.x)`: reads `.flags`, which a JAX array lacks
            for read in sorted(r for arg in arguments(call, readers[2]) for r in sources.of(arg.value)):  # type: ignore[arg-type]
                if read.startswith(".") and read[1:] not in _NOT_ARRAYS:
                    found.setdefault(read[1:], (call, f"a call that needs a NumPy array (it {why})"))
        for name, where in writes:
            for read in sorted(sources.of(cst.Name(name))):
                if read.startswith(".") and read[1:] not in _NOT_ARRAYS:
                    found.setdefault(read[1:], (where, _WRITTEN))
        for node in walk.nodes(function.body) if masked else ():  # type: ignore[attr-defined]
            if isinstance(node, cst.BinaryOperation) or node in masked:
                reads = sources.of(node)
                if _buffers.MASKED in reads:
                    for read in sorted(reads):
                        if read.startswith(".") and read[1:] not in _NOT_ARRAYS:
                            found.setdefault(read[1:], (node, _MASKED))
    if found:  # `self.a = self.n * 2` elsewhere: `.n` reaches it too
        through = {name: where for name, (where, _) in found.items()}
        _buffers.fed_through_stores(module, through)
        for name, where in through.items():
            if name not in _NOT_ARRAYS:
                found.setdefault(name, (where, next(why for w, why in found.values() if w is where)))
    return found
