"""SciPy sparse matrices meeting NumPy calls: values `jax.numpy` cannot take, and calls that cannot take JAX arrays.

NumPy hands a sparse matrix given to a ufunc back to the matrix's own methods (`np.multiply(P, lam)` scales it),
where `jax.numpy` raises `TypeError`. The other way round, SciPy's sparse constructors tell a NumPy array from a
sequence of diagonals or rows by its type: `sp.diags(jnp.ones(m))` raises "Different number of diagonals and
offsets" (pygam's penalties). A NumPy call on either side of that meeting stays NumPy.

`SparseNames.read(module)` finds the local names the module's imports bind to `scipy.sparse` (the module, or its
functions); `is_sparse_call` then tells a call of one of its functions. `SparseNames.read(module, "fftpack")` does the
same for another SciPy module: `scipy.fftpack`'s transforms read their input's `.flags`, which a JAX array lacks
(`AttributeError`: spafe's cepstra), where `scipy.fft` and the rest of SciPy convert a JAX array.

`is_sparse_value` follows a sparse matrix through what keeps it one: arithmetic (`L - L.T`), `.T`, its own methods
(`.multiply(x)`, `.tocsr()`), indexing, local names bound only to such values, and the attributes a class of the
module binds to one (`sparse_attributes`: `self.W = sparse.csr_matrix(x)` in `__init__`, or a property returning
such an attribute: pygsp's `Graph.W`).

`NumpyOnly.read(module)` tells the calls of third-party functions known to require a NumPy array (they test
`isinstance(x, np.ndarray)` or take it through a C API that wants one): a small table (`NUMPY_ONLY`), not a rule:
`skimage.util.view_as_windows` / `view_as_blocks` raise `TypeError` for a JAX array, and OpenCV's functions
(`cv2.*`) want a NumPy array for each image argument; NumPy's own `np.piecewise` reads a list of JAX conditions as
one condition; scikit-learn converts its data arguments but not its scalar parameters (`gamma=` of
`pairwise_kernels`: `arguments` tells which must be NumPy values). `failure` says how each fails. It also tells the calls that hand their arguments to worker
processes (`NumpyOnly.pooled`, `jaxfix.analysis.process_pools`: `pool.map(f, chunks)`), which must get NumPy arrays:
JAX's runtime does not survive the fork; and the calls of the module's numba-compiled functions (`NumpyOnly.compiled`),
which take NumPy arrays only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.plain_python import numba_compiled
from jaxfix.analysis.process_pools import ProcessPools
from jaxfix.imports import absolute_imports, dotted_name


@dataclass(frozen=True)
class SparseNames:
    modules: frozenset[str] = frozenset()  # `import scipy.sparse as sp`, `from scipy import sparse`
    functions: frozenset[str] = frozenset()  # `from scipy.sparse import diags, csr_matrix`
    scipy: frozenset[str] = frozenset()  # `import scipy` (as ...): `scipy.sparse.diags(...)`
    submodule: str = "sparse"  # the SciPy module these names are of
    renamed: tuple[tuple[str, str], ...] = ()  # (local name, function) for `from scipy.ndimage import zoom as z`

    @classmethod
    def read(cls, module: cst.Module, submodule: str = "sparse") -> "SparseNames":
        full = f"scipy.{submodule}"
        modules, functions, scipy, renamed = set(), set(), set(), set()
        for kind in (cst.Import, cst.ImportFrom):
            for node in walk.nodes_of(module, kind):
                names = node.names  # type: ignore[attr-defined]
                if isinstance(names, cst.ImportStar):
                    continue
                if isinstance(node, cst.ImportFrom):
                    source = dotted_name(node.module) if node.module is not None and not node.relative else ""
                    for alias in names:
                        local = alias.evaluated_alias or dotted_name(alias.name)
                        if source == "scipy" and dotted_name(alias.name) == submodule \
                                or dotted_name(alias.name) == f"scipy_{submodule}":
                            # (`from nitime.lazy import scipy_fftpack as fftpack`: a project's lazy loader of it)
                            modules.add(local)
                        elif source == full:  # (not `scipy.sparse.linalg`'s solvers, which take arrays)
                            functions.add(local)
                            if local != dotted_name(alias.name):
                                renamed.add((local, dotted_name(alias.name)))
                    continue
                for alias in names:
                    imported = dotted_name(alias.name)
                    if alias.asname is not None and imported == full:
                        modules.add(alias.evaluated_alias or "")
                    elif imported.split(".")[0] == "scipy":
                        scipy.add(alias.evaluated_alias or "scipy")
        loaded = _loaded_modules(module, full)  # `fftpack = importlib.import_module("scipy.fftpack")`
        modules.update(loaded)
        # a name bound to one of its functions (`fft = fftpack.fft`, nitime's cross-correlation), anywhere
        for assign in walk.nodes_of(module, cst.Assign) if modules or scipy else ():
            value = assign.value  # type: ignore[attr-defined]
            if not isinstance(value, cst.Attribute) or value.attr.value.startswith("is"):
                continue
            owner = dotted_name(value.value)
            if owner in modules or owner.partition(".")[::2] in {(s, submodule) for s in scipy}:
                for target in assign.targets:  # type: ignore[attr-defined]
                    if isinstance(target.target, cst.Name):
                        functions.add(target.target.value)
                        if target.target.value != value.attr.value:
                            renamed.add((target.target.value, value.attr.value))
        return cls(frozenset(modules), frozenset(functions), frozenset(scipy), submodule, tuple(sorted(renamed)))

    def __bool__(self) -> bool:
        return bool(self.modules or self.functions or self.scipy)

    def original(self, local: str) -> str:
        """The function a local name imported from the submodule is (`uniform_filter1d` for `uf1d`), else `local`."""
        return dict(self.renamed).get(local, local)

    def is_sparse_call(self, node: cst.CSTNode) -> bool:
        """A call of a `scipy.sparse` function or class that makes a matrix (`sp.diags(d)`, `csr_matrix(a)`,
        `scipy.sparse.eye(n)`); not a test (`issparse(X)`, `isspmatrix_csr(X)`), which takes anything. (For another
        submodule, a call of one of its functions: `dct(y)`, `fftpack.fft(y)`, `scipy.fftpack.dct(y)`.)"""
        if not isinstance(node, cst.Call):
            return False
        func = node.func
        if isinstance(func, cst.Name):
            return func.value in self.functions and not func.value.startswith("is")
        if not isinstance(func, cst.Attribute) or func.attr.value.startswith("is"):
            return False
        owner = func.value
        if isinstance(owner, cst.Name):
            return owner.value in self.modules
        return isinstance(owner, cst.Attribute) and owner.attr.value == self.submodule and isinstance(owner.value, cst.Name) \
            and owner.value.value in self.scipy

    def is_sparse_value(self, value: Optional[cst.BaseExpression],
                        bindings: Mapping[str, Sequence[Optional[cst.BaseExpression]]] = {},
                        attributes: frozenset[str] = frozenset(), seen: frozenset[str] = frozenset(),
                        functions: frozenset[str] = frozenset()) -> bool:
        """Whether `value` is (or may be) a SciPy sparse matrix: a `scipy.sparse` call (`is_sparse_call`), or made
        from one by arithmetic (`L - L.T`, `-L`, `2 * L`: a sparse result, or a dense one NumPy takes just as well) or a
        comparison (`W > 0`),
        `.T`, indexing (`L[i]`), one of its own methods (`L.multiply(x)`, `L.tocsr()`), `abs(L)`, a local name whose
        bindings (`bindings`) all are such values, or `self.attr` with `attr` among `attributes`; or a call of a
        function of the module that returns one (`functions`, see `sparse_functions`: `basis(n)`, and `make(n)[0]`
        for `f"make[0]"`)."""
        if value is None:
            return False
        if self.is_sparse_call(value):
            return True
        if functions and returned_sparse(value, functions, bindings):
            return True
        if isinstance(value, cst.Name):
            bound = bindings.get(value.value, ()) if value.value not in seen else ()
            return bool(bound) and all(self.is_sparse_value(v, bindings, attributes, seen | {value.value}, functions) for v in bound)
        if isinstance(value, cst.Attribute):
            if isinstance(value.value, cst.Name) and value.value.value == "self":
                return value.attr.value in attributes
            return value.attr.value in ("T", "H") and self.is_sparse_value(value.value, bindings, attributes, seen, functions)
        if isinstance(value, cst.BinaryOperation):
            return any(self.is_sparse_value(v, bindings, attributes, seen, functions) for v in (value.left, value.right))
        if isinstance(value, cst.Comparison) and len(value.comparisons) == 1 and isinstance(
                value.comparisons[0].operator, (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual,
                                                cst.Equal, cst.NotEqual)):
            # `A = W > 0`: a sparse boolean matrix (pygsp's adjacency)
            return any(self.is_sparse_value(v, bindings, attributes, seen, functions)
                       for v in (value.left, value.comparisons[0].comparator))
        if isinstance(value, cst.UnaryOperation) and not isinstance(value.operator, cst.Not):
            return self.is_sparse_value(value.expression, bindings, attributes, seen, functions)
        if isinstance(value, cst.Subscript):
            return self.is_sparse_value(value.value, bindings, attributes, seen, functions)
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Name) and func.value == "abs" and len(value.args) == 1:
                return self.is_sparse_value(value.args[0].value, bindings, attributes, seen, functions)
            return isinstance(func, cst.Attribute) and func.attr.value in SPARSE_METHODS \
                and self.is_sparse_value(func.value, bindings, attributes, seen, functions)
        return False


def _loaded_modules(module: cst.Module, full: str) -> set[str]:
    """The names the module binds to a call given the module's dotted name `full` as a string: an import by name
    (`fftpack = importlib.import_module("scipy.fftpack")`) or a lazy loader (`fftpack = LazyImport("scipy.fftpack")`)."""
    found = set()
    for assign in walk.nodes_of(module, cst.Assign):
        value = assign.value  # type: ignore[attr-defined]
        if isinstance(value, cst.Call) and value.args and isinstance(value.args[0].value, cst.SimpleString) \
                and value.args[0].value.evaluated_value == full:
            found.update(t.target.value for t in assign.targets if isinstance(t.target, cst.Name))  # type: ignore[attr-defined]
    return found


# methods of a SciPy sparse matrix that give a sparse matrix
SPARSE_METHODS = frozenset({
    "T", "transpose", "multiply", "maximum", "minimum", "power", "copy", "astype", "conj", "conjugate", "asformat",
    "tocsr", "tocsc", "tocoo", "tolil", "todok", "todia", "tobsr", "getH", "getrow", "getcol", "sorted_indices",
})


# methods of a SciPy sparse matrix that give a NumPy matrix (`np.matrix`, whose `*` is a matrix product) when given an
# axis: `W.sum(axis=1)` is a column matrix (without an axis, a number)
MATRIX_REDUCTIONS = frozenset({"sum", "mean", "argmax", "argmin"})


def sparse_reduction(node: cst.CSTNode) -> Optional[cst.BaseExpression]:
    """The object `node` calls a `MATRIX_REDUCTIONS` method of with an axis (`W` of `W.sum(axis=1)`, `W.mean(0)`),
    else None: a NumPy matrix when that object is a SciPy sparse matrix (`SparseNames.is_sparse_value`)."""
    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute) \
            or node.func.attr.value not in MATRIX_REDUCTIONS:
        return None
    axis = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "axis"),
                node.args[0].value if node.args and node.args[0].keyword is None and not node.args[0].star else None)
    return node.func.value if axis is not None and not (isinstance(axis, cst.Name) and axis.value == "None") else None


def sparse_attributes(module: cst.Module, sparse: SparseNames, inherited: frozenset[str] = frozenset()) -> frozenset[str]:
    """The attributes a class of the module binds to a SciPy sparse matrix in any of its methods (`self.W =
    sparse.csr_matrix(x)`, `self.L = D - W` with `D = sparse.diags(d)`) or in its body (`W = sparse.csr_matrix(x)`,
    read as `self.W`), and the properties that return one (pygsp's `W`, returning `self._adjacency`), to a fixed point; an attribute bound to other values elsewhere too may still be
    sparse, so it counts (a NumPy call on it staying NumPy only keeps more NumPy). `inherited`: those that base
    classes in other modules of the run bind so (`class Regular(Graph)`, `Graph.__init__` binding `self.W`: see
    `codemods._imported_values`), counted as the module's."""
    if not sparse and not inherited:
        return frozenset()
    classes = [c for c in walk.nodes_of(module, cst.ClassDef) if isinstance(c.body, cst.IndentedBlock)]  # type: ignore[attr-defined]
    methods = [m for c in classes for m in c.body.body if isinstance(m, cst.FunctionDef)]  # type: ignore[attr-defined]
    # (the class body's own bindings, `W = sparse.csr_matrix(x)`: a class attribute every instance reads)
    body = [(t.target.value, a.value) for c in classes for line in c.body.body  # type: ignore[attr-defined]
            if isinstance(line, cst.SimpleStatementLine) for a in line.body if isinstance(a, cst.Assign)
            for t in a.targets if isinstance(t.target, cst.Name)]
    facts = [("", {}, body, [])] if body else []
    for method in methods:
        bindings: dict[str, list[Optional[cst.BaseExpression]]] = {}
        stored: list[tuple[str, cst.BaseExpression]] = []
        for assign in walk.nodes_of(method.body, cst.Assign):
            for target in assign.targets:  # type: ignore[attr-defined]
                t = target.target
                if isinstance(t, cst.Name):
                    bindings.setdefault(t.value, []).append(assign.value)  # type: ignore[attr-defined]
                elif isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                    stored.append((t.attr.value, assign.value))  # type: ignore[attr-defined]
        for node in walk.nodes_of(method.body, cst.AugAssign) + walk.nodes_of(method.body, cst.For):
            for name in walk.nodes_of(node.target, cst.Name):  # type: ignore[attr-defined]
                bindings.setdefault(name.value, []).append(None)  # type: ignore[attr-defined]
        for param in (*method.params.params, *method.params.kwonly_params):
            bindings.setdefault(param.name.value, []).append(None)
        prop = any(dotted_name(d.decorator) == "property" for d in method.decorators)
        returned = [r.value for r in walk.nodes_of(method.body, cst.Return)] if prop else []  # type: ignore[attr-defined]
        facts.append((method.name.value, bindings, stored, returned))
    found: set[str] = set(inherited)
    for _ in range(len(methods) + 1):
        before = len(frozenset(found))
        for name, bindings, stored, returned in facts:
            current = frozenset(found)
            found.update(attr for attr, value in stored if sparse.is_sparse_value(value, bindings, current))
            if returned and all(sparse.is_sparse_value(v, bindings, current) for v in returned):
                found.add(name)
        if len(found) == before:
            break
    return frozenset(found)


def returned_sparse(value: cst.BaseExpression, functions: frozenset[str],
                    bindings: Mapping[str, Sequence[Optional[cst.BaseExpression]]] = {}) -> bool:
    """Whether `value` calls a function of the module whose result may be a SciPy sparse matrix (`basis(n)`, `basis`
    among `functions`), or takes the item of a tuple it returns that may be one (`make(n)[0]`, `make[0]` among them);
    not a call of a name the function binds itself."""
    index = None
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.Integer):
        index, value = value.slice[0].slice.value.evaluated_value, value.value
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name) or value.func.value in bindings:
        return False
    name = value.func.value
    return name in functions or index is not None and f"{name}[{index}]" in functions


def returned_item_sparse(value: cst.BaseExpression, position: int, functions: frozenset[str],
                         bindings: Mapping[str, Sequence[Optional[cst.BaseExpression]]] = {}) -> bool:
    """Whether the item `position` of the tuple `value` gives when unpacked (`basis, n = make(k)`) may be a SciPy
    sparse matrix: `value` calls a function of the module returning one there (`make[0]` among `functions`)."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value not in bindings \
        and f"{value.func.value}[{position}]" in functions


def sparse_functions(module: cst.Module, sparse: SparseNames) -> frozenset[str]:
    """The module's top-level functions whose result may be a SciPy sparse matrix: `f` when a `return` gives one
    (`SparseNames.is_sparse_value`: `return scipy.sparse.csr_matrix(x)`, `return basis.tocsr()` of `basis = ...`),
    `f[i]` when the item `i` of a tuple it returns may be one (`return basis, n_fft`: librosa's filter bases); through
    the calls of each other, to a fixed point. A caller's value made by such a call is sparse too (librosa's
    `fft_basis = __vqt_filter_fft(...)`, then `np.abs(fft_basis)`: NumPy hands the matrix to its own `__abs__`,
    `jax.numpy` rejects it)."""
    if not sparse:
        return frozenset()
    facts = []
    for function in module.body:
        if not isinstance(function, cst.FunctionDef):
            continue
        bindings: dict[str, list[Optional[cst.BaseExpression]]] = {}
        for assign in walk.nodes_of(function.body, cst.Assign):
            for target in assign.targets:  # type: ignore[attr-defined]
                if isinstance(target.target, cst.Name):
                    bindings.setdefault(target.target.value, []).append(assign.value)  # type: ignore[attr-defined]
                elif isinstance(target.target, (cst.Tuple, cst.List)):  # (an item unpacked: not known)
                    for name in walk.nodes_of(target.target, cst.Name):
                        bindings.setdefault(name.value, []).append(None)  # type: ignore[attr-defined]
        for node in walk.nodes_of(function.body, cst.AugAssign) + walk.nodes_of(function.body, cst.For):
            for name in walk.nodes_of(node.target, cst.Name):  # type: ignore[attr-defined]
                bindings.setdefault(name.value, []).append(None)  # type: ignore[attr-defined]
        for param in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params):
            bindings.setdefault(param.name.value, []).append(None)
        inner = {id(r) for f in walk.nodes_of(function.body, cst.FunctionDef)  # (not a nested def's)
                 for r in walk.nodes_of(f, cst.Return)}
        returned = [r.value for r in walk.nodes_of(function.body, cst.Return)  # type: ignore[attr-defined]
                    if r.value is not None and id(r) not in inner]  # type: ignore[attr-defined]
        facts.append((function.name.value, bindings, returned))
    found: set[str] = set()
    for _ in range(len(facts) + 1):
        before = len(found)
        for name, bindings, returned in facts:
            current = frozenset(found)
            for value in returned:
                if sparse.is_sparse_value(value, bindings, functions=current):
                    found.add(name)
                elif isinstance(value, cst.Tuple):
                    found.update(f"{name}[{i}]" for i, e in enumerate(value.elements)
                                 if not isinstance(e, cst.StarredElement)
                                 and sparse.is_sparse_value(e.value, bindings, functions=current))
        if len(found) == before:
            break
    return frozenset(found)


# the array API's namespace lookups outside `array_api_compat` (which `NUMPY_ONLY_MODULES` holds whole): they compare
# the namespaces of all their arguments, so an array made here must stay of the caller's kind, NumPy (pyriemann's
# `ref = np.eye(n)`, then `array_namespace(X, ref)`: a JAX `ref` beside a NumPy `X` raises `Multiple namespaces`)
NAMESPACE_FUNCTIONS = frozenset({"sklearn.utils._array_api.get_namespace", "sklearn.utils._array_api.get_namespace_and_device",
                                 "scipy._lib._array_api.array_namespace"})
# third-party functions that test one parameter for a scalar with `np.isscalar`, which a 0-d JAX array fails: {the
# function: (the parameter's position, its keyword)}; only that argument must stay a NumPy value (neurokit2's
# `gaussian_kde(x, bw_method=bw)`, `bw` a helper's `0.9 * min(std, iqr) * n ** -0.2`: a JAX `bw` raised `ValueError`)
SCALAR_PARAMETERS: dict[str, tuple[Optional[int], str]] = {
    "scipy.stats.gaussian_kde": (1, "bw_method"), "scipy.stats.kde.gaussian_kde": (1, "bw_method"),
    "scipy.stats._kde.gaussian_kde": (1, "bw_method"),
    # SciPy's filter design and frequency responses validate the sampling frequency `fs` as a Python scalar
    # (`_validate_fs`: "Sampling frequency fs must be a single scalar", `ValueError` for a 0-d JAX array; mne's
    # `firwin(N, cutoff, fs=freq[-1] * 2)`); `welch`, `periodogram`, `csd`, `coherence`, `stft` and `istft` take one.
    # Positions as of SciPy 1.17 (None: keyword-only)
    **{f"scipy.signal.{name}": (position, "fs") for name, position in (
        ("firwin", None), ("firwin2", None), ("remez", None), ("firls", None), ("butter", 5), ("iirfilter", 8),
        ("cheby1", 6), ("cheby2", 6), ("ellip", 7), ("bessel", 6), ("iirnotch", 2), ("iirpeak", 2), ("iircomb", 3),
        ("iirdesign", 7), ("buttord", 5), ("cheb1ord", 5), ("cheb2ord", 5), ("ellipord", 5), ("freqz", 5),
        ("freqz_zpk", 5), ("freqz_sos", 3), ("sosfreqz", None), ("group_delay", 3), ("spectrogram", 1),
        ("bilinear", 2), ("bilinear_zpk", 3), ("gammatone", 4))},
}
# third-party functions whose Cython code writes into one array parameter (a typed memoryview, not `const`): a JAX
# array, read-only, given there uncopied raises `ValueError: buffer source array is read-only`; {the function: (the
# parameter's position, its keyword)}. SciPy's `sosfilt` takes `sos` as it is when its dtype is already the result's
# (pyfar's `sosfilt(extend_sos(sos, n), x)`, the helper's `np.vstack` made `jnp.vstack`), and `sosfiltfilt` hands it
# on to `sosfilt`; their `x` and `zi` are copied first (as `lfilter`'s, `filtfilt`'s and `sosfilt_zi`'s arguments)
BUFFER_PARAMETERS: dict[str, tuple[Optional[int], str]] = {
    f"scipy.signal{module}.{name}": (0, "sos") for name in ("sosfilt", "sosfiltfilt")
    for module in ("", "._signaltools", ".signaltools")}
# seaborn's matrix plots read `mask=` as a NumPy array or a DataFrame (`_matrix_mask`: `isinstance(mask, np.ndarray)`)
# and else as a sequence of rows: a JAX mask raises `ValueError: Unable to coerce list of ArrayImpl to
# Series/DataFrame` (pysal's giddy, `sns.heatmap(data, mask=mask)`). Their data, and the arrays the other seaborn
# and the matplotlib plotting functions take, convert (checked with seaborn 0.13.2, matplotlib 3.11)
MASK_PARAMETERS: dict[str, tuple[Optional[int], str]] = {
    f"seaborn{module}.{name}": (None, "mask") for name in ("heatmap", "clustermap") for module in ("", ".matrix")}
# third-party functions that require a NumPy array (they test `isinstance(x, np.ndarray)`, or hand it to C code
# that wants one): by qualified name, or every function of a module (`cv2`)
# matplotlib's color conversions read a color as a string, a tuple or a NumPy array (`isinstance(c, np.ndarray)`): a
# JAX array raises `ValueError: Invalid RGBA argument` (`is_color_like` says False), as the rows of `np.resize(color,
# (n, 3))` given to `to_rgba` one by one did in pytransform3d's sphere colors
COLOR_FUNCTIONS = frozenset(f"matplotlib.colors.{name}" for name in (
    "to_rgba", "to_rgb", "to_hex", "to_rgba_array", "is_color_like", "same_color"))
NUMPY_ONLY = frozenset({"skimage.util.view_as_windows", "skimage.util.view_as_blocks",
                        "skimage.util.shape.view_as_windows", "skimage.util.shape.view_as_blocks",
                        "numpy.piecewise", *NAMESPACE_FUNCTIONS, *SCALAR_PARAMETERS, *BUFFER_PARAMETERS, *MASK_PARAMETERS,
                        *COLOR_FUNCTIONS})
# how each fails given a JAX array, where not as `DEFAULT_FAILURE` says: `np.piecewise` takes a list of conditions
# only when the first is a list or a NumPy array, else reads the list as one condition (pykrige's variogram models:
# `np.piecewise(d, [d <= r, d > r], ...)` for a JAX `d` raised `IndexError: too many indices`)
FAILURES = {"sklearn": "validates a scalar parameter as a Python number or computes in place with it: a 0-d JAX "
                       "array raises `InvalidParameterError` or `TypeError`",
            "numpy.piecewise": "tests its conditions for `np.ndarray`: a list of JAX conditions is taken for one "
                               "condition, and indexing with it raises `IndexError`",
            **{f: f"tests its `{keyword}` for a Python scalar (`np.isscalar`), which a 0-d JAX array fails: it raises "
                  "`ValueError`"
               for f, (_, keyword) in SCALAR_PARAMETERS.items()},
            **{f: f"hands its `{keyword}` uncopied to Cython code that writes into it: a JAX array, read-only, raises "
                  "`ValueError: buffer source array is read-only`"
               for f, (_, keyword) in BUFFER_PARAMETERS.items()},
            **dict.fromkeys(MASK_PARAMETERS, "reads its `mask` as a NumPy array or a DataFrame, else as rows: a JAX "
                                              "array raises `ValueError: Unable to coerce list of ArrayImpl to "
                                              "Series/DataFrame`"),
            **dict.fromkeys(COLOR_FUNCTIONS, "reads a color as a string, a tuple or a NumPy array: a JAX array raises "
                                              "`ValueError` (`Invalid RGBA argument`), and `is_color_like` says False"),
            **dict.fromkeys(("array_api_compat", *NAMESPACE_FUNCTIONS),
                            "compares the array libraries of its arguments: a JAX array beside the caller's NumPy "
                            "array raises `TypeError: Multiple namespaces`")}
DEFAULT_FAILURE = "tests for `np.ndarray` or hands it to C code that wants one: a JAX array raises `TypeError`"
NUMPY_ONLY_MODULES = frozenset({"cv2", "pywt",  # pywt: its C transforms want a writable buffer (`dwt`)
                                "array_api_compat",  # `array_namespace(X, ref)`: `NAMESPACE_FUNCTIONS`
                                "sklearn"})  # scikit-learn: its scalar parameters only (`SCALAR_ONLY`)
# modules of `NUMPY_ONLY_MODULES` whose functions and classes convert array arguments (`check_array`) but not
# scalar parameters: `pairwise_kernels(X, Y, metric="rbf", gamma=0.5 / h / h)` with a 0-d JAX `h` raised
# `TypeError` (astroML's Nadaraya-Watson), `KernelDensity(bandwidth=h)` raises `InvalidParameterError`; only their
# arguments after the first two, and keywords not naming data (`SKLEARN_DATA`), need NumPy values (`arguments`)
SCALAR_ONLY = frozenset({"sklearn"})
SKLEARN_DATA = frozenset({"X", "Y", "y", "x", "sample_weight", "X_train", "y_true", "y_pred", "y_score", "labels",
                          "classes", "X_test", "y_prob", "probas_pred", "y_train", "y_test"})


@dataclass(frozen=True)
class NumpyOnly:
    """The local names the module's imports bind to `NUMPY_ONLY` functions or modules: {local head: qualified}; and
    the module's process pools (`process_pools.ProcessPools`), whose methods hand what they are given to worker
    processes, where a JAX array can deadlock (`pooled`)."""

    names: Mapping[str, str]
    pools: ProcessPools = ProcessPools()
    numba: frozenset[str] = frozenset()  # the module's functions numba compiles (`plain_python.numba_compiled`)

    @classmethod
    def read(cls, module: cst.Module, imported_numba: frozenset[str] = frozenset()) -> "NumpyOnly":
        """With `imported_numba`, the names the module calls functions of other modules by that numba compiles
        (`codemods._buffers.imported_numba`: `from .kernels import masked_sum`)."""
        names = absolute_imports(module, _numpy_only_prefix)
        if any(v.split(".")[0] == "numpy" for v in names.values()) and not any(
                a.attr.value == "piecewise" for a in walk.nodes_of(module, cst.Attribute)):  # type: ignore[attr-defined]
            # (NumPy itself only for `np.piecewise`: most modules import NumPy, few call it)
            names = {k: v for k, v in names.items() if v.split(".")[0] != "numpy" or v == "numpy.piecewise"}
        return cls(names, ProcessPools.read(module), numba_compiled(module) | imported_numba)

    def __bool__(self) -> bool:
        return bool(self.names) or bool(self.pools) or bool(self.numba)

    def compiled(self, node: cst.CSTNode) -> Optional[str]:
        """The name of the module's numba-compiled function `node` calls (`@njit def kernel(D, beta)`, then
        `kernel(D[0], 1.0)`), else None: numba types its arguments as NumPy arrays and raises `TypingError` for a
        JAX array (pyod's SOS perplexity)."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in self.numba:
            return node.func.value
        func = node.func if isinstance(node, cst.Call) else None  # a method: `self.kernel(D)`, `Kernels.kernel(D)`
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and (
                f"self.{func.attr.value}" in self.numba or dotted_name(func) in self.numba):  # (`kernels.masked_sum(D)`)
            return dotted_name(func)
        return None

    def pooled(self, node: cst.CSTNode) -> Optional[str]:
        """How `node` hands its arguments to worker processes (`ProcessPools.handed`: `pool.map(f, chunks)`), else
        None."""
        return self.pools.handed(node)

    def called(self, node: cst.CSTNode) -> Optional[str]:
        """The qualified name of the function `node` calls when it is one that requires a NumPy array, else None."""
        if not isinstance(node, cst.Call):
            return None
        name = dotted_name(node.func)
        head, _, rest = name.partition(".")
        full = self.names.get(head)
        if full is None:
            return None
        qualified = f"{full}.{rest}" if rest else full
        if qualified in NUMPY_ONLY or qualified.split(".")[0] in NUMPY_ONLY_MODULES and "." in qualified:
            return qualified
        return None


def failure(qualified: str) -> str:
    """How the `NUMPY_ONLY` function `qualified` fails given a JAX array."""
    return FAILURES.get(qualified) or FAILURES.get(qualified.split(".")[0], DEFAULT_FAILURE)


def arguments(call: cst.Call, numpy_only: NumpyOnly) -> Sequence[cst.Arg]:
    """The arguments of `call`, a call that needs NumPy values, that must be NumPy values: all of them, but for a
    `SCALAR_ONLY` module's function its scalar parameters alone (`gamma=` of `pairwise_kernels(X, Y, gamma=g)`)."""
    qualified = numpy_only.called(call)
    # `gaussian_kde(x, bw_method=bw)`: `bw` alone
    if qualified in SCALAR_PARAMETERS or qualified in BUFFER_PARAMETERS or qualified in MASK_PARAMETERS:
        position, keyword = SCALAR_PARAMETERS.get(qualified) or BUFFER_PARAMETERS.get(qualified) or MASK_PARAMETERS[qualified]
        return [a for i, a in enumerate(call.args) if not a.star and (
            a.keyword.value == keyword if a.keyword is not None else i == position)]
    if qualified is None or qualified.split(".")[0] not in SCALAR_ONLY or qualified in NAMESPACE_FUNCTIONS:
        return call.args
    return [a for i, a in enumerate(call.args) if not a.star and (
        a.keyword.value not in SKLEARN_DATA if a.keyword is not None else i >= 2)]


def _numpy_only_prefix(name: str) -> bool:
    """Whether `name` is, or leads to, a `NUMPY_ONLY` function or module."""
    return name.split(".")[0] in NUMPY_ONLY_MODULES or any(f == name or f.startswith(name + ".") for f in NUMPY_ONLY)
