from __future__ import annotations

import functools

import libcst as cst
import numpy as np

from codemods import _buffers, _caller_inputs, _host_values, _imported_values, _list_inputs, _matrices, _namesakes, _triangles
from codemods._host_values import SPACED
from codemods import _dispatch
from codemods._isinstance_widening import IsinstanceWidening
from codemods._namesakes import DIFFERENT, IN_PLACE, LAYOUT_ONLY_ORDER, OTHER_FAMILIES, static_keyword, units_difference, units_library
from codemods._numpy_boundary import NumpyBoundary, flat_read
from codemods._prechecks import method_keywords
from jaxfix.analysis import c_libraries, foreign_dtypes, jnp_api
from jaxfix.analysis.jnp_api import HOST_ONLY, SUBSTITUTES
from jaxfix.analysis.host_data import none_argument, none_default
from jaxfix.analysis.dataflow import DataflowProvider
from jaxfix.analysis.masks import MaskProvider, function_facts
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import TracednessProvider
from jaxfix.analysis.value_dtypes import INT, dtype_of
from jaxfix.imports import dotted_name
from jaxfix.precheck import numpy_in_functions
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


def _reports_errors(call: cst.Call) -> bool:
    """Whether `np.errstate(...)` / `np.seterr(...)` asks NumPy for anything but to ignore floating-point errors
    (`divide='raise'`, `all='warn'`, a value computed at run time, `**settings`); `np.errstate(all='ignore')`
    changes nothing JAX does."""
    for arg in call.args:
        if arg.star or arg.keyword is None:
            return True
        if arg.keyword.value == "call":
            continue  # (the function `'call'` mode calls: without a mode asking for it, unused)
        if not (isinstance(arg.value, cst.SimpleString) and arg.value.evaluated_value == "ignore"):
            return True
    return False


class NumpyNamespace(Rule):
    """
    ## What it does
    Replaces NumPy calls inside functions (`np.sum(x)`, `np.linalg.norm(x)`, `dot(a, b)` after
    `from numpy import dot`) with their `jax.numpy` equivalents (`jnp.sum(x)`, ...). The equivalents are learned
    from the installed `jax.numpy` (its names and the keywords each function accepts). Calls with no equivalent, or
    with keywords the JAX function does not take, are reported at the line.

    ## Why is this bad?
    NumPy functions run on the host: given a traced value under `jax.jit` they raise
    `TracerArrayConversionError`, and on concrete values they leave JAX (no `jit`, `grad` or device placement).

    ## Example
    ```python
    import numpy as np

    def energy(x):
        return np.sum(np.square(x))
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    import numpy as np

    def energy(x):
        return jnp.sum(jnp.square(x))
    ```

    ## Fix safety
    Safe: `jax.numpy` computes the same function. Results use JAX's default dtypes (float32 unless
    `jax_enable_x64`), which is the point of the migration. A cumulative sum or product of an array known to be a
    narrow integer one gets NumPy's accumulator (`jnp.cumsum(hits, dtype=jnp.uint)` for uint8 `hits`,
    `dtype=int` for signed ones), and so does `vander` (`jnp.vander(jnp.asarray(k, dtype=int), 3)`). Module-level NumPy code (constants, data loading) is left
    alone, and so is a call whose arguments are all static (shapes, literals), such as `np.prod(x.shape)`: under
    `jit` its result must stay a concrete Python value (also a `*_like` maker of a shape, `np.ones_like(x.shape)`,
    which `jax.numpy` rejects; and, reported, `np.ix_` of a boolean mask, which `jnp.ix_` rejects, and an array of a
    caller-chosen dtype an element of which is compared with a number computed from the call's arguments, an overflow
    check, `t = np.arange(n, dtype=d)`, `t[-1] != n - 1`, which JAX's cast of `n - 1` to `d` defeats); so is one whose result is a count, size or shape
    (`x.repeat(n)`, `np.zeros((n, n))`, `range(n)`, `x.reshape(n, -1)`, through local names, `int()` and `max()`)
    or a slice bound (`x[:int(np.ceil(n / 2))]`), and a function that
    gives `repeat` or `tile` a count that may be a float (`np.sqrt(m)`) is left whole: NumPy takes it, JAX rejects
    it. `isinstance(x, np.ndarray)` becomes `isinstance(x, (np.ndarray, jax.Array))`: after the migration `x` is a
    JAX array, and the test must keep its answer. Where the value is made by a call that NumPy gives as a NumPy
    scalar (no array) exactly when its result is 0-d (a reduction, `np.dot`, a ufunc, arithmetic of those, an element
    of an array made here: `ssr = np.dot(r, r)`), the test becomes `jnp.ndim(ssr) > 0` instead, which keeps its answer
    for both (widened, a 0-d JAX array would take the array branch); where the value may be either such a scalar or
    something else (`np.asarray(x)` is an array also when 0-d), or the test accepts other types too, the function is
    left as it is (not where the function tests an element of `x` for a Python
    number, `isinstance(x.flatten()[0], numbers.Number)`, which a JAX array's element never is: that function is
    left as it is). An exact type test (`type(x) is np.ndarray`) has no such widening: a NumPy array handed to a
    function that tests its parameter so stays NumPy, and a function that tests one it makes is left as it is. So
    does a NumPy array an element of which (`x[i]`, `row[0]`, an item of a loop over it or over what a helper returns)
    goes to a function of the module that tests its parameter for a Python number or a NumPy scalar (`isinstance(v,
    numbers.Number)`, `isinstance(v, np.generic)`): a NumPy array's element is one, a JAX array's never is. So
    does a NumPy array handed to a parameter tested with `isinstance(x, np.ndarray)` (unless the source already
    accepts `jax.Array` there): the test is widened only with its function's other fixes, which may be unsafe or
    held back, and a JAX array would take the other branch. A `functools.singledispatch` function with an
    implementation registered for `np.ndarray` or a NumPy scalar type keeps its default implementation NumPy: every
    JAX array (under `jit`, every tracer) takes the default, whose conversion that dispatches again
    (`return area(np.asarray(shape))`) would recurse forever as `jnp.asarray`.
    Unsafe where the `jax.numpy` namesake gives other results on ordinary inputs: `linalg.eig`, `eigvals` and
    `roots` (always complex), `linalg.lstsq` (residuals), `convolve`, `correlate`, `polymul`, `polyder` and
    `reciprocal` unless an input is known to be float (they give floats for integer inputs, where NumPy keeps
    integers: `np.convolve(a, b) & 1` raises after the migration), `histogram` without `density` or `weights` (its
    counts are floats in JAX, integers in NumPy; `histogram2d` and `histogramdd` count in integers), `log2` whose result is truncated or compared
    (`jnp.log2(8.0)` is 2.9999999999999996), `round` (`around`) to a number of decimals other than a literal 0 (about
    one value in eight one ulp away: `jnp.round(2.1468, 3)` is 2.1470000000000002), any call whose result the builtin `round(v, ndigits)` rounds to
    decimals (a JAX array's `__round__` is `jnp.round`), `nextafter`, `spacing` and `ldexp` (their subnormal results near 0, which
    XLA on CPU flushes to zero: `jnp.nextafter(0.0, 1.0)` compares equal to 0, and so does its NumPy result handed to any `jax.numpy` call: the
    function's other fixes are held back with it), `frexp` (it splits a subnormal input as flushed: `jnp.frexp(1e-310)` is
    (0.5, -1074), NumPy's (0.576, -1029); its function is held back too), `searchsorted` (and `digitize`) of an array known to be a narrow integer one
    given a Python number that may be out of its range (JAX casts it to the array's dtype: 300 against uint8 is 44),
    a call given `**kwargs` (or a `*args` parameter past a ufunc's inputs) that may carry `out=` or `where=`, `apply_along_axis`, `vectorize` and `piecewise` (they
    trace the callback), `pad` given a computed `end_values` or `stat_length` (`jnp.pad` hashes them), and any
    call in a module that imports a unit library (`astropy.units`, `pint`; there every rule's fixes are unsafe):
    NumPy keeps a quantity's units through `__array_ufunc__`, `jax.numpy` drops them silently. A call whose
    values are set members or dict keys stays NumPy (JAX arrays are unhashable), and so does the call making an array it
    reads, directly or through a name (`visited = np.zeros(n)`, then `set(np.nonzero(~visited)[0])`: given a JAX array,
    `np.nonzero` calls its `.nonzero()` and gives JAX arrays), or one whose result goes to a function of the module
    that hashes its parameter's elements (`distinct(np.round(x, k))` with `def distinct(*vals)` making `set(v)` of
    each); so does one whose result goes into a
    `scipy.fftpack` transform (it reads the array's `.flags`, which a JAX array lacks; `scipy.fft` and the rest of
    SciPy convert a JAX array) or into a third-party function known to require a NumPy array (a small table, not a
    general rule: scikit-image's `view_as_windows` / `view_as_blocks`, which test `isinstance(x, np.ndarray)`, and
    OpenCV's `cv2.*`, PyWavelets' `pywt.*`, matplotlib's color conversions (`to_rgba`, `to_hex`...); and the array API's namespace lookups, `array_api_compat.*` and
    scikit-learn's `get_namespace`, which compare their arguments' libraries), into a function numba compiles (numba takes NumPy arrays only: pyod's
    SOS perplexity; one of the module, or imported from another module of the run) or to worker processes (a process pool's `pool.map(f, chunks)`,
    `ex.submit(f, c)`, joblib's `delayed(f)(c)`: JAX's runtime does not survive the fork that starts a worker, which
    hangs; the function a worker runs, and the module's functions it calls, are left whole for the same reason), or
    whose result a module function hands to one or to a `scipy.sparse` constructor (the helper,
    or the property, is left whole), or goes to a helper of the module that hands its parameter to one (the caller
    is left whole: `dctii(y)` with `dctii(x)` calling `fftpack.dct(x)`), so does one given a SciPy sparse matrix (a `scipy.sparse` call, arithmetic,
    `.T` or a method of one, or an attribute a class of the module binds to one), and so does `np.array(v).item()`
    (a Python value either way, and NumPy keeps text as text). A function that uses `np.ma` (masked arrays, which JAX functions reject) is left whole, and so is one that
    makes or handles a `np.matrix` (`np.asmatrix(x)`, `np.mat`, `numpy.matlib`, `isinstance(x, np.matrix)`, a
    call of a function or method of the module that returns one, a module-level name or an attribute of its class
    bound to one: a `jax.numpy` call given a matrix gives a plain array, whose `*` multiplies elementwise; a test
    `if isinstance(a, np.matrix): a = np.asarray(a)` that only makes a parameter a plain array leaves it not), and
    so is one that asks for a Fortran buffer (`order='F'`: a LAPACK or Cython consumer needs it) or calls `np.linalg`
    in a `try` that catches `LinAlgError` (`jnp.linalg` never raises: the handler would silently stop running), or
    calls NumPy in a `try` that catches `TypeError`, `ValueError` or `IndexError` but not every exception (`jax.numpy`
    raises other exceptions for the same bad input), or reads a result (or an array computed from it) through
    `.flags` or `.data`, or `.flat` kept or handed on as an iterator (a read of its elements, `a, b = M.flat`,
    `for v in M.flat`, `M.flat[i]`, `list(M.flat)`, becomes `jnp.ravel(M)`: the same elements for a NumPy array, a
    `np.matrix` and a JAX array, which has no `.flat`; not where the elements are objects, `for ax in axes.flat:
    ax.plot(...)`), or indexes one by a flat iterator (`K[X.flat, :]`; a call given one stays NumPy), or
    writes into it through an in-place operator called by name (`target.__iadd__(p)`, `target.__setitem__(i, v)`), or
    writes text into an array it makes, by index (`res[i] = line.strip().split(",")`: NumPy parses it into numbers,
    `.at[].set` rejects it), or
    hands a NumPy call string, `None` or object data (`np.array(["a", "b"])`, `np.array([None] * n)`,
    `np.array([Line(p)])`: JAX has no string or object arrays), or reads the elements of a NumPy call's array as
    objects (`v.kind for v in np.append(visuals, more)`: an attribute no number has), or has a NumPy call work on a parameter that a call
    in the module gives such an array (`reshape_z(np.array([None] * n), n)`), a `Decimal` or `Fraction`, a masked
    array (`np.ma.masked_invalid(x)`) or a function, class or lambda (not one it only calls: `np.sum(f(x))`),
    directly or through a parameter of its own that it passes on; so does a call in another module of the run that
    imports the function (`from .helpers import reshape_z`, `import pkg.helpers as h`, a package's re-export),
    found by the project index (before, only the module's own calls were seen: filterpy's `kalman/EKF.py` giving
    `common.helpers.reshape_z` an object array, pykalman's `standard.py` giving `utils.array2d` masked arrays). So is a function that keeps its arrays on the
    host by design: one named for it (`_to_numpy`, `as_np`), a method of a subclass of a NumPy array type (`np.ndarray`,
    `np.matrix`, `np.ma.MaskedArray`, `np.recarray`, directly or through a class of the module) or of a class that
    takes part in NumPy's dispatch (`__array_function__`), one that asks for a typed buffer in a set layout
    (`np.asarray(M, dtype=np.float64, order="C")`, for compiled code), one that stores clock readings in an array
    (timing code), and one that hands an array it makes to code that writes into it (a function or method of the
    module that writes through that parameter, or computes from it, by arithmetic, indexing or NumPy calls, an
    array that reaches such a write, `x = R / Rs` then `_h(x)`, or writes into a copy, cast or view of it, which is
    the caller's kind of array, `sol = y.copy(); sol[m] = v`, until an in-place rule rewrites that write and reads
    `y` through JAX; a function returning a view of it that the code
    writes into, `diag_view(r2)[:] = 0.0` with `diag_view` returning `as_strided(A, ...)`, and such a function itself
    when a caller writes into its result, `v = block0(y); v += s` with `np.swapaxes(y, 0, 1)` returned, whose
    `jax.numpy` namesake would copy; a `+=` helper that returns nothing,
    `x.max(axis=1, out=v)`, a function that is not NumPy's given it as `out=` or `output=`, `ndimage.uniform_filter1d(x,
    3, output=v)`, a numba-compiled function, a private compiled module; or a function that repeats a Python list by
    a value computed from it, `x.append([i] * table[i, j])`, which a JAX array's `*` refuses), and one that computes
    with a Python int of any size (`s / math.factorial(n)`, `math.comb`, `math.perm`: NumPy takes one past 64 bits as
    a float, a JAX array raises `OverflowError` converting it), or to a NumPy call given `out=`
    (`np.sum(t, axis=1, out=o)`: NumPy calls a JAX input's own `sum`, which takes no `out=`), a helper's result too
    (or a property's, `shift(self.mag[1:])`);
    and a function whose result another module of the run binds to a name and writes into (`bits = to_bits(n, w)`,
    then `bits[0] = v`: jaxfix leaves a write into what another module returns) or stores on an attribute it writes
    into (`self.sigmas = self.points_fn.sigma_points(x)`, then `self.sigmas[i] = v`: a method of that name in any
    class), found by a pattern search over the files' bytes, by name; a function whose result such a function returns stays NumPy too (`def run(n): return
    build(n)`: a write into what `run` returns writes into what `build` made). So is a function that stores an array it makes, or a copy or view of one (`m.x =
    x.copy()`), on an attribute the module writes into in place (`self.x.fill(0)`, `self.x[i] = v`), or updates as a
    whole by an augmented assignment when the module makes the array there with NumPy (`self.p = np.array(...)`,
    then `self.p /= s`: NumPy writes into the array that every reference sees, while for a JAX array Python rebinds
    the attribute), or whose array the value of such a whole-array update, or of one of a parameter, reads (`self.x
    += x * m` for `m` in `self.mu`: a JAX value there rebinds the NumPy `self.x` to a JAX array), or whose array
    another method computes an array from that it writes into (`t = np.ones(k) * self.floor`, then `t[i] = v`, a
    write that stays NumPy where that method does), computes with a masked array (`np.ma.array(b, mask=m) *
    self.Z`) or hands to a call that needs a NumPy array (`fftpack.rfft(x * self.win)`), directly or through an
    attribute stored from it (`_attribute_flows`).
    Functions numba compiles (`@njit`, or `@jit` imported from numba or from a project's module of numba wrappers such as `numba_util`, or made by a
    decorator factory of the module that calls numba, and what an `@overload` returns) are left to numba.
    `np.asanyarray`, which has no `jax.numpy` namesake, becomes `jnp.asarray` (called, or handed on as a function:
    `map(np.asanyarray, xs)`, `partial(np.asanyarray, ...)`) only as an unsafe fix that holds back
    the function's other fixes: it exists to keep an array subclass, which JAX arrays have none of (`jnp.asarray`
    raises on a masked array and makes a `np.matrix` a plain array, whose `*` multiplies elementwise). The index tricks `np.r_[...]` and `np.c_[...]` become
    `jnp.r_[...]` and `jnp.c_[...]`. `np.linalg.eigh`, `eigvalsh` and `cholesky` read one triangle of the matrix
    (a matrix filled in one triangle is a valid input), where their `jax.numpy` namesakes average it with its
    transpose: they get `symmetrize_input=False`, which reads the same triangle, unless the matrix is symmetric by
    construction (`x.T @ x`, `np.cov(...)`, `(a + a.T) / 2`); `cholesky(a, upper=True)` has no such form (the JAX
    function reads the lower triangle) and is renamed only as an unsafe fix. `np.linalg.pinv(a)` without a cutoff
    drops singular values up to 1e-15 times the largest, `jnp.linalg.pinv(a)` those up to `10 * max(M, N) * eps`
    times it: it gets `rtol=1e-15`. A function that hands
    `np.asarray` (or `np.array`, `np.atleast_1d`, ...) a parameter its docstring (or, for `__init__`, its class's)
    says may be text or another object (`endpoints : 2-tuple of float(s) and/or str(s)`), or a name
    unpacked from one, is left whole: NumPy makes a string or object array of it, which JAX rejects. So is one that
    makes an array subclass's instance with `.view(np.matrix)` (or `.view(cls)`, `.view(type=t)`), also of a name a
    NumPy call's result reaches (`y = np.exp(x)`, then `y.view(Tagged)`: a JAX array's `.view` takes a dtype only).
    The NumPy branch of an array-API dispatch (`if _is_numpy_namespace(xp):`, `if xp is np:`) stays NumPy, as every rule leaves it: it is
    there for what only NumPy arrays do (string and object arrays, memory layouts), the other branch handles JAX
    arrays through `xp` (`jaxfix.analysis.host_regions`).

    ## Known problems
    `np.random` is handled by the randomness rules (JX4xx); `np.add.at` and `out=` by the in-place rules (JX1xx).
    A function that asks NumPy to warn or raise on floating-point errors (`with np.errstate(divide='raise')`,
    `np.seterr(all='warn')`) or catches `FloatingPointError` is left as it is (JAX never warns nor raises there); a
    `np.seterr(...)` at module level, or an `errstate` set by a caller in another function, is not seen: the migrated
    code then gives inf or nan silently where NumPy warned or raised. JAX raises a complex number to any power as
    `exp(k * log(z))`, where NumPy multiplies out integer powers exactly: `(1j) ** np.arange(n)` is an unsafe fix,
    but a complex array raised to an integer array made elsewhere is not seen (parts that NumPy gives as exactly 0
    come out as 1e-16).
    A NumPy function with no `jax.numpy` counterpart (`np.add.reduceat` on older JAX, `np.ndarray(...)`) is
    reported, not rewritten. Outside a `try` (around the call, or around a call of its function in the module), a
    singular matrix that made `np.linalg.inv`/`solve` raise `LinAlgError` gives inf/nan after the migration (the
    error path is not kept: ruptures' Mahalanobis cost then yields NaN instead of raising). `jnp.cumsum` and
    `jnp.cumprod` (and their `nan` forms, `jnp.vander` and the array methods) keep an 8-, 16- or 32-bit integer
    dtype where NumPy accumulates in the platform integer: a call on an array known to be one gets `dtype=int`
    (`dtype=jnp.uint` for unsigned ones, which without x64 warns that it gives uint32; `jnp.asarray(k, dtype=int)`
    for `vander`), but one on a parameter, or in a method (`x.cumsum()`), is not seen: a running sum over a `uint8`
    image wraps at 256 after the migration. `jnp.searchsorted(a, v)` casts a Python number `v` to `a`'s dtype
    (`300` against uint8 levels is 44): unsafe where `a` is known to be a narrow integer array, not seen where `a` is
    a parameter (SciPy's levels); so does `jnp.digitize` with its bins. XLA on CPU flushes subnormal floats to zero: `np.nextafter`, `np.spacing`, `np.ldexp` and `np.frexp` keep
    their function NumPy (unsafe fix), and so does a use of `np.finfo(...).tiny` (or `smallest_subnormal`,
    `sys.float_info.min`, `math.ulp(0.0)`, a literal under 1e-300, itself or through a name bound to one: `y + TINY *
    (y == 0)`, then `y / y.sum()`; `p = np.maximum(p, TINY)`, then `p / p.sum()`), whose products and quotients are
    subnormal; a clamp read only by a log (`np.log(np.maximum(p, tiny))`) migrates. Subnormals
    reached otherwise (underflow of ordinary data) are not detected. `**kwargs` handed to a NumPy call is known only when the function builds
    it from dict displays: another one (a parameter, an attribute) makes the rename unsafe. A NumPy scalar is hashable and a 0-d JAX array is not: `np.asarray(v)[()]` used as a
    dictionary key elsewhere raises after the migration (SciPy's distribution infrastructure). What callers outside
    the run (or calls the index cannot resolve: a method through an instance, a function stored and called later)
    pass is not known: a big-endian array (what `astropy.io.fits` reads) or a masked array given to a migrated function
    raises in `jax.numpy` (JAX holds native byte order only, and rejects `np.ma`), and a `np.matrix` given to one
    becomes a plain array (its `*` then multiplies elementwise: only a function that names `np.matrix`, calls
    one of the module that returns one, or reads a module-level name or an attribute of its class bound to one, is
    left); an int array times a float16 one is float16 in JAX, float64 in NumPy; the mean, variance, standard
    deviation, median and quantiles of an int32 (or narrower) array are float32 in JAX even with `jax_enable_x64`,
    float64 in NumPy (integers past 2**24 round: bottleneck's `median` tests); an index out of bounds raises
    `IndexError` in NumPy where a JAX array clamps it (only a `try` that catches it is seen: in the function, or in
    a caller of the module around a call of it). An array of a number literal gets `dtype=` (JAX's would be weakly
    typed), but other calls given only Python numbers (`np.where(c, 1, -1)`) make weakly typed
    arrays too: times an int16 or float32 array they keep its narrower dtype, where NumPy's result is 64-bit.
    `jnp.argsort` and `jnp.sort` are always stable, NumPy's default quicksort is not: equal keys may come out in
    another order than NumPy's (the values sorted are the same; an order of ties that later code relies on, as
    SALib's RBD-FAST permutation does, differs). `jnp.nanargmin` and `jnp.nanargmax` of an all-NaN slice give -1
    where NumPy raises `ValueError` (outside a `try` that catches it, which keeps the function NumPy): an index taken
    from one then reads the last item silently (pwlf's fit of a breakpoint whose costs are all NaN), as `inv` of a
    singular matrix gives inf/nan above. Non-finite data meets other formulas in a few functions: `jnp.quantile`,
    `jnp.percentile` between a finite value and inf give inf where NumPy's interpolation gives nan (tsfresh's
    `quantile` of data holding inf), and `jnp.abs` of a complex number with a NaN part and an infinite one gives nan
    where NumPy gives inf (`np.abs(np.fft.rfft(x))` of data holding inf). `jnp.median` and `jnp.nanmedian` of an
    empty array raise where NumPy warns and gives nan. A helper's result that another module of the run hands to a function
    needing NumPy values (`scipy.fftpack`, `np.piecewise`, scikit-learn's scalar parameters) is seen only when the
    helper and that function are of one module (a test's `spectrum(t, gauss(t))`); `scipy.fftpack` is recognised by
    its imports, a module-level `importlib.import_module("scipy.fftpack")` or lazy loader, and an imported
    `scipy_fftpack`, not through other wrappers.
    """

    CODE = "JX501"
    SUMMARY = "NumPy call inside a function; use its jax.numpy equivalent"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider, TracednessProvider, ParentProvider, MaskProvider, DataflowProvider)
    ORDER = 90  # after the structural rewrites, which read NumPy names
    # it only looks at NumPy names inside functions, and at array methods given keywords JAX's reject
    may_apply_to_tree = staticmethod(lambda tree, text: numpy_in_functions(tree, text) or method_keywords(tree, text))
    # the project index: attributes written into in place anywhere (`state.coords[m] = v` in another module keeps
    # the array a class stores in `self.coords` NumPy), and functions whose results another module writes into
    # (`bits = to_bits(n, w)`, then `bits[0] = v`); read off the bytes, without a parse
    summarize = staticmethod(_buffers.project_writes)
    link = staticmethod(_buffers.link_project_writes)
    INDEX_READS_BYTES = True
    INDEX_TRIGGERS = (b"=",)
    # what calls in other modules of the run pass the module's functions (text, object arrays, masked arrays, ...)
    # and what other modules of the run make that JAX has no counterpart for: matrices, masked arrays, sparse
    # attributes of base classes (`_imported_values`)
    # and the dtype constants other modules of the run define (`foreign_dtypes.INDEX`: `from .consts import LABEL`)
    INDEXES = (_caller_inputs.INDEX, _imported_values.INDEX, foreign_dtypes.INDEX, c_libraries.INDEX)

    VALID = [
        Valid(  # a function used as a key that makes no array: nothing to report there
            "import numpy as np\nZ = np.zeros(3)\n\ndef key_of(x):\n    return x.name\n\ndef f(items):\n    d = {}\n"
            "    for x in items:\n        d[key_of(x)] = x\n    return d\n"),
        # the NumPy branch of an array-API dispatch is NumPy on purpose (scikit-learn's _asarray_with_order)
        "import numpy\n\ndef f(a, xp):\n    if _is_numpy_namespace(xp):\n        a = numpy.asarray(a)\n"
        "        return xp.asarray(a)\n    return xp.asarray(a)\n",
        "import numpy as np\n\ndef f(a, xp, copy):\n    if xp is np and copy:\n        return np.unique(a)\n    return xp.unique_values(a)\n",
        Valid(  # a `for` loop runs over host numbers: `i` goes to pandas (pvlib's wvm)
            "import numpy as np\n\ndef f(df, n):\n    out = []\n    for k, i in enumerate(np.arange(1, n)):\n"
            "        out.append(df.rolling(window=2**i).mean())\n    return out\n"),
        Valid("import numpy as np\nTABLE = np.linspace(0.0, 1.0, 5)\n"),
        Valid(  # a constant of NumPy functions of literals stays a NumPy scalar, which a list parameter meets as NumPy
            # does (lenstronomy's fwhm2sigma: a JAX scalar raises `TypeError` on `list / Array`)
            "import numpy as np\n\ndef fwhm2sigma(fwhm):\n    return fwhm / (2 * np.sqrt(2 * np.log(2))) + np.cos(np.pi / 4)\n"),
        Valid(  # a project's numba wrappers: `jit` from its `numba_util`, or a factory calling numba.jit (lenstronomy)
            "import numba\nimport numpy as np\nfrom lenstronomy.Util.numba_util import jit\n\n"
            "def njit_cached(cache=True):\n    def wrapper(func):\n        return numba.njit(func, cache=cache)\n"
            "    return wrapper\n\n@jit()\ndef rotate(x, angle):\n    return x * np.cos(angle)\n\n"
            "@njit_cached()\ndef spin(x, angle):\n    return x * np.sin(angle)\n"),
        Valid("import numpy as np\ndef f(x):\n    return np.float32\n"),
        Valid("import numpy as np\ndef f(names):\n    return np.dtype([(n, 'f4') for n in names]), np.dtype([('a', 'f4')])\n"),
        Valid("import numpy as np\ndef f(x):\n    return x.reshape(np.prod(x.shape))\n"),
        Valid(  # a `*_like` maker of a shape: `jnp.ones_like` rejects a tuple, a JAX array compared with one raises
            "import numpy as np\ndef f(x):\n    unit = x.shape[1:] == np.ones_like(x.shape[1:])\n"
            "    return np.zeros_like(x.shape), unit\n"),
        Valid(  # `np.broadcast_shapes` gives a Python tuple: NumPy calls of it and literals stay NumPy (`jnp.insert`
            # rejects a tuple; pyfar's broadcast_cdims)
            "import numpy as np\ndef f(x, y):\n    common = np.broadcast_shapes(x.shape, y.shape)\n"
            "    return np.insert(common, 0, 1), np.delete(common, -1)\n"),
        Valid("import numpy as np\ndef f(shape):\n    return np.random.normal(size=shape)\n"),
        Valid("import numpy as np\ndef f(x, y):\n    np.add(x, 1.0, out=y)\n"),
        Valid(  # rebound before the call, or guarded: the default None never reaches `np.sum` (JX501 renames it safely)
            "import jax.numpy as jnp\n\ndef f(x, w=None, v=None):\n    w = jnp.ones_like(x) if w is None else w\n"
            "    if v is None:\n        return jnp.sum(x * w), jnp.average(x, weights=v)\n    return jnp.sum(w), jnp.dot(v, w)\n"),
        Valid("def f(x):\n    s = 'np.sum(x)'\n    return s\n"),
        Valid("import jax.numpy as jnp\ndef f(x):\n    return jnp.sum(x)\n"),
        Valid("import numpy as np\ndef f(x, rng=(25, 75)):\n    if np.isnan(rng).any():\n        return x\n    return x * 2\n"),
        Valid(  # a dtype test: `jnp.isdtype` raises TypeError on a scalar type as kind, which NumPy answers (False)
            "import numpy as np\n\ndef is_number(value):\n    return isinstance(value, np.generic) and "
            "np.isdtype(value.dtype, np.number)\n"),
        Valid(  # a Python number or a caller's values handed to a test for a number: nothing NumPy made
            "from numbers import Number\nimport numpy as np\n\ndef is_numeric(v):\n"
            "    return isinstance(v, Number) or isinstance(v, np.generic)\n\n"
            "def kinds(values):\n    return [is_numeric(v) for v in values] + [is_numeric(0.5)]\n"),
        Valid(  # bytes from a file in a byte order spelled out: host I/O
            "import numpy as np\n\ndef read_values(values, typecode):\n    return np.frombuffer(values, dtype=f\">{typecode}\").copy()\n"
        ),
    ]
    INVALID = [
        Invalid(  # a test of a union of types (`np.ndarray | list`, pysal's `consistent_input`) is widened as a tuple is
            "import numpy as np\n\ndef total(x):\n    if isinstance(x, np.ndarray | list):\n        x = np.asarray(x)\n"
            "    else:\n        raise TypeError('no array')\n    return np.sum(x)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef total(x):\n"
                     "    if isinstance(x, np.ndarray | list | jax.Array):\n        x = jnp.asarray(x)\n"
                     "    else:\n        raise TypeError('no array')\n    return jnp.sum(x)\n",
        ),
        Invalid(  # an attribute a method binds to an object array, read in another method directly or through a
            # local: NumPy calls on it stay NumPy (`jnp.multiply` raises `TypeError` on an object array)
            "import numpy as np\n\nclass Tags:\n    def __init__(self, names):\n        self.names = np.array(names, dtype=object)\n\n"
            "    def twice(self, k):\n        v = 2 * self.names[k]\n        return np.add(v, v)\n\n"
            "    def all(self):\n        return np.sum(self.names)\n",
            expected=None, lines=[5, 9, 12],
        ),
        Invalid(  # ... also through a property returning it, passed to another method (pysal's giddy, `self.S[i]`)
            "import numpy as np\n\nclass Runs:\n    def __init__(self, rows):\n        self.rows = rows\n\n    @property\n"
            "    def R(self):\n        return np.asarray(self.rows, dtype=object)\n\n    def one(self, r, w):\n"
            "        u = w * r\n        return np.subtract(u, w)\n\n"
            "    def each(self, w):\n        return [self.one(self.R[i], w) for i in range(len(self.R))]\n",
            expected=None, lines=[9, 13],
        ),
        Invalid(  # seaborn's `heatmap` reads `mask=` as a NumPy array or a DataFrame: a JAX mask raises `ValueError`,
            # so what makes it stays NumPy (its data converts) (pysal's giddy)
            "import numpy as np\nimport seaborn as sns\n\ndef show(d):\n    m = np.zeros(d.shape, dtype=bool)\n"
            "    m[0, 0] = True\n    return sns.heatmap(np.exp(d), mask=m)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nimport seaborn as sns\n\ndef show(d):\n"
                     "    m = np.zeros(d.shape, dtype=bool)\n    m[0, 0] = True\n    return sns.heatmap(jnp.exp(d), mask=m)\n",
            lines=[5, 7],
        ),
        Invalid(  # ... also made by a helper of the module that returns it (and its data) in a tuple
            "import numpy as np\nfrom seaborn import clustermap\n\ndef parts(n):\n    counts = np.ones((n, n))\n"
            "    hide = np.eye(n, dtype=bool)\n    return counts, hide\n\ndef show(n):\n    c, h = parts(n)\n"
            "    return clustermap(c, mask=h)\n",
            expected=None,
        ),
        Invalid(  # `jnp.reshape`/`jnp.ravel` take the order only in upper case, NumPy either case (pysal's
            # mapclassify, `order="f"`): the literal is put in upper case, by keyword or by position
            "import numpy as np\n\ndef cols(y, a):\n    return np.reshape(y, (-1, 1), order=\"f\"), np.ravel(a, 'c')\n",
            expected="import jax.numpy as jnp\n\ndef cols(y, a):\n    return jnp.reshape(y, (-1, 1), order=\"F\"), jnp.ravel(a, 'C')\n",
        ),
        Invalid(  # ... and a JAX array's `.reshape`/`.ravel`/`.flatten` likewise
            "import numpy as np\n\ndef flat(a):\n    b = np.exp(a)\n    return b.reshape(-1, order='f') + b.flatten('c')\n",
            expected="import jax.numpy as jnp\n\ndef flat(a):\n    b = jnp.exp(a)\n    return b.reshape(-1, order='F') + b.flatten('C')\n",
        ),
        Invalid(  # an order jaxfix cannot read may be lower case or 'A', which JAX rejects: the call stays NumPy, and so
            # does an array whose method is given one
            "import numpy as np\n\ndef flat(a, o):\n    return np.ravel(a, order=o)\n\n"
            "def flat2(a, o):\n    b = np.exp(a)\n    return b.ravel(o)\n",
            expected=None, lines=[4, 7],
        ),
        Invalid(  # an overflow check of a caller-chosen dtype: JAX casts `n - 1` to the array's dtype first, where
            # it wraps like the array, so the check never fires (emd's get_timeline); the call stays NumPy
            "import numpy as np\n\ndef steps(n, kind):\n    s = np.arange(n, dtype=kind)\n    if s[-1] < n - 1:\n"
            "        s = np.arange(n)\n    return s\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef steps(n, kind):\n    s = np.arange(n, dtype=kind)\n"
                     "    if s[-1] < n - 1:\n        s = jnp.arange(n)\n    return s\n",
            lines=[4, 6],
        ),
        Invalid(  # `np.ix_` of boolean masks: `jnp.ix_` raises `NotImplementedError` on booleans, so it stays NumPy
            # (emd's `hht[np.ix_(finds, tinds)]`); index arrays convert as usual
            "import numpy as np\n\ndef block(a, lo, rows):\n    keep = np.abs(a[0]) > lo\n    on = np.ones(a.shape[1], dtype=bool)\n"
            "    return np.sum(a[np.ix_(keep, on)]) + np.sum(a[np.ix_(rows, rows)])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef block(a, lo, rows):\n    keep = jnp.abs(a[0]) > lo\n"
                     "    on = jnp.ones(a.shape[1], dtype=bool)\n    return jnp.sum(a[np.ix_(keep, on)]) + jnp.sum(a[jnp.ix_(rows, rows)])\n",
            lines=[4, 5, 6],
        ),
        Invalid(  # a caller compares the result by identity with `True`: `jnp.allclose` returns an array, which never
            # is `True`, so the check would always fail; the helper keeps NumPy's Python bool (pymcmcstat's
            # `check_symmetric(cmat) is not True`)
            "import numpy as np\n\ndef same(a, b):\n    return np.allclose(a, b)\n\ndef f(a, b):\n"
            "    if same(a, b) is not True:\n        raise ValueError('differ')\n    return np.sum(a)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef same(a, b):\n    return np.allclose(a, b)\n\n"
                     "def f(a, b):\n    if same(a, b) is not True:\n        raise ValueError('differ')\n    return jnp.sum(a)\n",
        ),
        Invalid(  # a helper's result handed to a function that computes a number from its parameter with NumPy and
            # tests it for a Python number (`r = 0.2 * np.std(sig)`, `assert isinstance(r, (int, float))`: a
            # multiscale-entropy package): for a JAX array `np.std` calls its `.std()`, a JAX array, and the test
            # fails; the helper keeps NumPy (its own test keeps the tester NumPy)
            "import numpy as np\n\ndef halves(z):\n    return np.mean(np.reshape(z, (2, -1)), axis=0)\n\n"
            "def tol(sig):\n    r = 0.2 * np.std(sig)\n    assert isinstance(r, (int, float))\n    return r\n\n"
            "def scan(z):\n    return tol(halves(z))\n",
            expected=None,
            lines=[4, 4, 4, 7, 8],
        ),
        Invalid(  # an array of a number literal: NumPy's is int64/float64, `jax.numpy`'s weakly typed without a dtype
            # (an int16 array divided by it became float32, times `np.full(n, 200)` wrapped: acoustics' bands)
            "import numpy as np\n\ndef f(x, n):\n    b = np.asarray(3)\n    c = np.full(n, -200)\n"
            "    return x / b, x * c, np.array(2.5), np.asarray(3, dtype=np.int16)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, n):\n    b = jnp.asarray(3, dtype=int)\n"
            "    c = jnp.full(n, -200, dtype=int)\n"
            "    return x / b, x * c, jnp.array(2.5, dtype=float), jnp.asarray(3, dtype=np.int16)\n"),
        Invalid(  # a second update of the same new array (`res += m` after `res *= w`) shares nothing, nor does an
            # attribute of that name (`self.dx[m]`): scipy's Wiener filter and Anderson mixing in the regression run
            "import numpy as np\n\ndef smooth(x):\n    return np.asarray(x) * 0.5\n\n"
            "def wiener(im, noise):\n    m = smooth(im)\n    res = im - m\n    res *= 1 - noise / m\n    res += m\n"
            "    return res\n\nclass Anderson:\n    def solve(self, f):\n        dx = -smooth(f)\n"
            "        for m in range(len(self.dx)):\n            dx += self.dx[m]\n        return dx\n",
            expected="import jax.numpy as jnp\n\ndef smooth(x):\n    return jnp.asarray(x) * 0.5\n\n"
            "def wiener(im, noise):\n    m = smooth(im)\n    res = im - m\n    res *= 1 - noise / m\n    res += m\n"
            "    return res\n\nclass Anderson:\n    def solve(self, f):\n        dx = -smooth(f)\n"
            "        for m in range(len(self.dx)):\n            dx += self.dx[m]\n        return dx\n"),
        Invalid(  # a sum started from a Python number is a new array, and handed on only after the loop that adds to
            # it: no other code sees its updates, so what it adds may be JAX (pyclustering's EMA in the regression run)
            "import numpy as np\n\nclass Mix:\n    def __init__(self, w):\n        self.w = np.asarray(w) / np.sum(w)\n\n"
            "    def total(self, n):\n        t = 0.0\n        for i in range(n):\n            t += self.w[i]\n"
            "        return report(t)\n\n\ndef report(t):\n    return t\n",
            expected="import jax.numpy as jnp\n\nclass Mix:\n    def __init__(self, w):\n"
            "        self.w = jnp.asarray(w) / jnp.sum(w)\n\n"
            "    def total(self, n):\n        t = 0.0\n        for i in range(n):\n            t += self.w[i]\n"
            "        return report(t)\n\n\ndef report(t):\n    return t\n"),
        Invalid(  # ... but not where the module binds the name of that type (a parameter `complex=False`)
            "import numpy as np\n\ndef phase(x, complex=False):\n    return x * np.asarray(1j)\n",
            expected="import jax.numpy as jnp\n\ndef phase(x, complex=False):\n    return x * jnp.asarray(1j)\n"),
        Invalid(  # the items of an array made here tested as Python numbers (ahrs's magnetic reference)
            "import numpy as np\n\ndef f(m):\n    r = np.copy(m)\n    for item in r:\n        if not isinstance(item, float):\n"
            "            raise TypeError(item)\n    return r\n",
            expected=None, lines=[4, 6],
        ),
        Invalid(  # an element of the tested array tested as a Python number: a JAX array's is none (galpy's
            # `_check_array`); the test is not widened, and the array handed to it stays NumPy (`not (A and B)`: A must hold)
            "import numbers\nimport numpy as np\n\ndef check(x):\n    if not (isinstance(x, np.ndarray) and "
            "isinstance(x.flatten()[0], numbers.Number)):\n        raise RuntimeError(x)\n    return x\n\n"
            "def grid(x):\n    return np.atleast_1d(check(np.atleast_1d(x)))\n",
            expected="import numbers\nimport jax.numpy as jnp\nimport numpy as np\n\ndef check(x):\n    if not (isinstance(x, np.ndarray) and "
            "isinstance(x.flatten()[0], numbers.Number)):\n        raise RuntimeError(x)\n    return x\n\n"
            "def grid(x):\n    return jnp.atleast_1d(check(np.atleast_1d(x)))\n",
            lines=[5, 10, 10],
        ),
        Invalid(  # ... also through an array method or arithmetic (`np.arange(k).reshape(n, 2) * 2`, `.T`) to a function
            # left NumPy, whose test is then not widened (scikit-image's `view_as_windows` check, repro from scikit-fuzzy)
            "import numpy as np\n\ndef nbytes(a):\n    if not isinstance(a, np.ndarray):\n        raise TypeError(a)\n"
            "    a = np.ascontiguousarray(a)\n    return a.strides[0]\n\n"
            "def make(x, n):\n    a = np.arange(2 * n).reshape(n, 2) * 2\n    return nbytes(a), nbytes(np.ones(n).T), np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef nbytes(a):\n    if not isinstance(a, np.ndarray):\n"
            "        raise TypeError(a)\n    a = np.ascontiguousarray(a)\n    return a.strides[0]\n\n"
            "def make(x, n):\n    a = np.arange(2 * n).reshape(n, 2) * 2\n    return nbytes(a), nbytes(np.ones(n).T), jnp.sum(x)\n",
            lines=[4, 6, 10, 11, 11],
        ),
        Invalid(  # ... also a plain `isinstance(v, np.ndarray)` of a parameter in a function held back (an unsafe
            # `np.asanyarray`): a JAX array would take the other branch silently (trimesh's `convert_like`, also through
            # a dict of defaults); not once rebound, nor a test widened in the source. (A test of a parameter the
            # function rebinds only on the array path and never writes into is widened even so: `_isinstance_widening`)
            "import jax\nimport numpy as np\n\ndef scaled(v, k):\n    if isinstance(v, np.ndarray):\n"
            "        return np.asanyarray(v) * k\n    v = list(v)\n    return [e * k for e in v]\n\n"
            "def widened(v):\n    if isinstance(v, (np.ndarray, jax.Array)):\n        return v * 2\n    return v\n\n"
            "def rebound(v):\n    v = np.asarray(v)\n    if isinstance(v, np.ndarray):\n        return v * 2\n    return v\n\n"
            "def build(x):\n    like = {'base': np.eye(3)}\n"
            "    return scaled(np.ones(3), 2), scaled(like['base'], 3), widened(np.zeros(3)), rebound(np.ones(3))\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef scaled(v, k):\n    if isinstance(v, np.ndarray):\n"
            "        return np.asanyarray(v) * k\n    v = list(v)\n    return [e * k for e in v]\n\n"
            "def widened(v):\n    if isinstance(v, (np.ndarray, jax.Array)):\n        return v * 2\n    return v\n\n"
            "def rebound(v):\n    v = jnp.asarray(v)\n    if isinstance(v, (np.ndarray, jax.Array)):\n        return v * 2\n    return v\n\n"
            "def build(x):\n    like = {'base': np.eye(3)}\n"
            "    return scaled(np.ones(3), 2), scaled(like['base'], 3), widened(jnp.zeros(3)), rebound(jnp.ones(3))\n",
            lines=[5, 6, 16, 17, 22, 23, 23, 23],
        ),
        Invalid(  # an array whose elements are read as objects (`v.kind`, an attribute no number has) holds objects:
            # NumPy makes an object array, `jax.numpy` rejects it (trimesh's `concatenate` of visuals: `np.append`,
            # `np.array`, then `v.kind for v in visuals`); also by `enumerate`, a `for` loop, or an item (`cs[0].unit`); not
            # rows read as arrays, nor objects of a later binding of the name (`t = x.parts`)
            "import numpy as np\n\ndef kinds(visuals, *more):\n    if more:\n        visuals = np.append(visuals, more)\n"
            "    else:\n        visuals = np.array(visuals)\n    return [v.kind for v in visuals]\n\n"
            "def labels(shapes):\n    out = []\n    for i, s in enumerate(np.concatenate(shapes)):\n        out.append((i, s.label))\n"
            "    return out\n\ndef units(cols):\n    cs = np.asarray(cols)\n    return cs[0].unit, np.sum(np.ones(3))\n\n"
            "def rows(x):\n    t = np.asarray(x)\n    s = [r.sum() for r in t], t[0].real\n    t = x.parts\n"
            "    return s, [p.kind for p in t]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef kinds(visuals, *more):\n    if more:\n"
            "        visuals = np.append(visuals, more)\n"
            "    else:\n        visuals = np.array(visuals)\n    return [v.kind for v in visuals]\n\n"
            "def labels(shapes):\n    out = []\n    for i, s in enumerate(np.concatenate(shapes)):\n        out.append((i, s.label))\n"
            "    return out\n\ndef units(cols):\n    cs = np.asarray(cols)\n    return cs[0].unit, np.sum(np.ones(3))\n\n"
            "def rows(x):\n    t = jnp.asarray(x)\n    s = [r.sum() for r in t], t[0].real\n    t = x.parts\n"
            "    return s, [p.kind for p in t]\n",
            lines=[5, 7, 12, 17, 18, 21],
        ),
        Invalid(  # ... as a function that reads its parameter through an attribute only a NumPy array has (`a.strides`)
            "import numpy as np\n\ndef nbytes(a):\n    return a.strides[0]\n\n"
            "def make(x, n):\n    a = np.arange(2 * n).reshape(n, 2)\n    return nbytes(a), np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef nbytes(a):\n    return a.strides[0]\n\n"
            "def make(x, n):\n    a = np.arange(2 * n).reshape(n, 2)\n    return nbytes(a), jnp.sum(x)\n",
            lines=[7, 8],
        ),
        Invalid(  # ... NumPy's protocol methods too (`__array_wrap__`), also read by `getattr`/`hasattr` with the name
            # written out, which for a JAX array fall back or give False; an argument computed from an array keeps
            # that array NumPy too (SciPy's optimize `_array_like`: `wrap = getattr(x0, '__array_wrap__', x.__array_wrap__)`)
            "import numpy as np\n\ndef as_like(v, ref):\n    v = np.reshape(v, np.shape(ref))\n"
            "    wrap = getattr(ref, \"__array_wrap__\", v.__array_wrap__)\n    return wrap(v)\n\n"
            "def shifted(ref, n):\n    d = np.ones(n) * 2.0\n    return as_like(np.ravel(ref) + d, ref), np.sum(ref)\n\n"
            "def owned(n):\n    b = np.arange(n) * 2\n    return hasattr(b, \"strides\"), np.sum(b)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef as_like(v, ref):\n    v = np.reshape(v, np.shape(ref))\n"
            "    wrap = getattr(ref, \"__array_wrap__\", v.__array_wrap__)\n    return wrap(v)\n\n"
            "def shifted(ref, n):\n    d = np.ones(n) * 2.0\n    return as_like(np.ravel(ref) + d, ref), jnp.sum(ref)\n\n"
            "def owned(n):\n    b = np.arange(n) * 2\n    return hasattr(b, \"strides\"), np.sum(b)\n",
            lines=[4, 4, 9, 10, 10, 13, 14],
        ),
        Invalid(  # ... also as a separate test of an item (`x[0]`)
            "import numpy as np\n\ndef first(x):\n    if isinstance(x, np.ndarray) and isinstance(x[0], float):\n"
            "        return np.sum(x)\n    return x\n",
            expected=None, lines=[4, 5],
        ),
        Invalid(  # the items of an array made here tested against a NumPy scalar type: a JAX array's item is none, so
            # every index would be dropped (pyod's top-k indices, through `list(...)`); also a loop straight over the
            # array, an element, a reduction's result, and a comprehension's items
            "import numpy as np\n\ndef best(s, k):\n    order = list(np.argsort(s)[:k])\n    keep = []\n    for i in order:\n"
            "        if isinstance(i, (int, np.integer)):\n            keep.append(int(i))\n    return keep\n\n"
            "def values(s):\n    return [v for v in s if v]\n\n"
            "def floats(s):\n    n = 0\n    for v in np.sort(s)[::-1]:\n        if isinstance(v, np.floating):\n            n += 1\n"
            "    return n\n\ndef top(s):\n    m = np.max(s)\n    return isinstance(m, np.generic)\n\n"
            "def ints(s):\n    idx = np.argsort(s)\n    return [int(i) for i in idx if isinstance(i, np.integer)]\n",
            expected=None, lines=[4, 7, 16, 17, 22, 23, 26, 27],
        ),
        Invalid(  # ... but with `np.ndarray` among the types, widening keeps the answer; a parameter's test is the caller's
            "import numpy as np\n\ndef top(s):\n    m = np.sort(s)\n    return isinstance(m, (np.ndarray, np.generic))\n\n"
            "def given(v):\n    if isinstance(v, np.integer):\n        v = int(v)\n    return np.arange(v)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef top(s):\n    m = jnp.sort(s)\n"
            "    return isinstance(m, (np.ndarray, np.generic, jax.Array))\n\n"
            "def given(v):\n    if isinstance(v, np.integer):\n        v = int(v)\n    return jnp.arange(v)\n",
        ),
        Invalid(  # a tuple written into an item of the result: a list's item, not an array's (SciPy's CubicSpline)
            "import numpy as np\n\ndef validate(y):\n    bc = [np.zeros(2), np.zeros(2)]\n    return bc, y\n\n"
            "def build(y):\n    bc, y = validate(y)\n    bc[0] = (1, y[0])\n    return bc\n",
            expected="import jax.numpy as jnp\n\ndef validate(y):\n    bc = [jnp.zeros(2), jnp.zeros(2)]\n    return bc, y\n\n"
            "def build(y):\n    bc, y = validate(y)\n    bc[0] = (1, y[0])\n    return bc\n",
        ),
        Invalid(  # a constructor stores the buffer as an attribute the module writes into (simdkalman's filters)
            "import numpy as np\n\nclass G:\n    def __init__(self, mean):\n        self.mean = mean\n\n"
            "def empty(n):\n    mean = np.empty(n)\n    return G(mean)\n\ndef fill(n):\n    g = empty(n)\n    g.mean[0] = 1.0\n    return g\n",
            expected=None, lines=[8, 9],
        ),
        Invalid(  # ... also an item of a returned tuple unpacked onto attributes (`self.a, self.b = self._make(n)`)
            "import numpy as np\n\nclass Grid:\n    def __init__(self, n):\n        self.mask, self.w = self._make(n)\n\n"
            "    def _make(self, n):\n        return np.ones(n, bool), np.zeros(n)\n\n"
            "    def hide(self, i):\n        self.mask[[0, i]] = False\n",
            expected=None, lines=[8, 8, 8],
        ),
        Invalid(  # a constructor stores a NumPy array made here as an attribute that another method adds to an array
            # it then writes into (a method that stays NumPy): a JAX `.lo` would make `y` a JAX array (scipy's
            # dual annealing `VisitingDistribution`)
            "import numpy as np\n\nclass Shift:\n    def __init__(self, lo):\n        self.lo = lo\n\n"
            "    def apply(self, x):\n        y = np.floor(x) + self.lo\n        y[np.fabs(y - self.lo) < 1e-9] += 1e-6\n"
            "        return y\n\ndef shifted(x):\n    lo = np.zeros(3)\n    return Shift(lo).apply(x)\n",
            # (alone, JX501 renames `apply`'s calls: JX301's finding holds them back in a full run)
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Shift:\n    def __init__(self, lo):\n"
            "        self.lo = lo\n\n    def apply(self, x):\n        y = jnp.floor(x) + self.lo\n"
            "        y[jnp.fabs(y - self.lo) < 1e-9] += 1e-6\n        return y\n\ndef shifted(x):\n    lo = np.zeros(3)\n"
            "    return Shift(lo).apply(x)\n",
            lines=[8, 9, 13, 14],
        ),
        Invalid(  # ... also a method called on an object, storing a value computed from it (`self.span = hi - lo`)
            "import numpy as np\n\nclass Shift:\n    def reset(self, lo, hi):\n        self.span = hi - lo\n\n"
            "    def apply(self, x):\n        y = np.floor(x) * self.span\n        y[np.fabs(y - self.span) < 1e-9] += 1e-6\n"
            "        return y\n\ndef shifted(s, x):\n    lo = np.zeros(3)\n    s.reset(lo, 1.0)\n    return s.apply(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Shift:\n    def reset(self, lo, hi):\n"
            "        self.span = hi - lo\n\n    def apply(self, x):\n        y = jnp.floor(x) * self.span\n"
            "        y[jnp.fabs(y - self.span) < 1e-9] += 1e-6\n        return y\n\ndef shifted(s, x):\n"
            "    lo = np.zeros(3)\n    s.reset(lo, 1.0)\n    return s.apply(x)\n",
            lines=[5, 8, 9, 13, 14],
        ),
        Invalid(  # a buffer made in the call to a nested helper that writes into it (deap's reference points)
            "import numpy as np\n\ndef points(n):\n    def fill(ref, k):\n        ref[k] = 1.0\n        return ref\n\n"
            "    return fill(np.zeros(n), 0)\n",
            expected=None, lines=[8, 8],
        ),
        Invalid(  # arithmetic with an int of any size: NumPy computes `s / 25!` as a float, a JAX array raises
            # OverflowError converting the int (SciPy's exact Kendall tau p-value)
            "import math\n\nimport numpy as np\n\ndef f(w, n):\n    s = np.cumsum(w)\n    return s[-1] / math.factorial(n)\n",
            expected=None, lines=[6],
        ),
        Invalid(  # ... also imported by name
            "from math import comb\n\nimport numpy as np\n\ndef f(w, n, k):\n    return comb(n, k) * np.sum(w)\n",
            expected=None, lines=[6],
        ),
        Invalid(  # ... or through the module imported under another name
            "import math as m\n\nimport numpy as np\n\ndef f(w, n):\n    return np.sum(w) / m.factorial(n)\n",
            expected=None, lines=[6],
        ),
        Invalid(  # ... or through a local name bound to the int
            "import math\n\nimport numpy as np\n\ndef f(w, n):\n    k = math.factorial(n)\n    return np.sum(w) / k\n",
            expected=None, lines=[7],
        ),
        Invalid(  # ... read once per name through a web of names rebinding each other, not path by path (a search
            # per path took exponential time: 40 s for these 16 names); the int never meets the array here
            "import math\n\nimport numpy as np\n\ndef f(w, n, c):\n    v0 = np.sum(w)\n"
            + "".join(f"    v{i} = v{i - 1} * c + v{(i + 5) % 16}\n" for i in range(1, 16))
            + "    for _ in range(3):\n" + "".join(f"        v{i} = v{(i + 7) % 16} - v{(i + 3) % 16}\n" for i in range(16))
            + "    return v15 / n, math.factorial(n)\n",
            expected="import math\n\nimport jax.numpy as jnp\n\ndef f(w, n, c):\n    v0 = jnp.sum(w)\n"
            + "".join(f"    v{i} = v{i - 1} * c + v{(i + 5) % 16}\n" for i in range(1, 16))
            + "    for _ in range(3):\n" + "".join(f"        v{i} = v{(i + 7) % 16} - v{(i + 3) % 16}\n" for i in range(16))
            + "    return v15 / n, math.factorial(n)\n",
            lines=[6],
        ),
        Invalid(  # ... but an int of any size that meets only Python values stays Python: a plain rename
            "import math\n\nimport numpy as np\n\ndef f(w, n, p):\n    pairs = math.comb(n, 2) * p\n"
            "    return np.sum(w), pairs\n",
            expected="import math\n\nimport jax.numpy as jnp\n\ndef f(w, n, p):\n    pairs = math.comb(n, 2) * p\n"
            "    return jnp.sum(w), pairs\n",
            lines=[7],
        ),
        Invalid(  # ... but another function of `math` gives no int of any size: a plain rename
            "import math\n\nimport numpy as np\n\ndef f(w, n):\n    return np.sum(w) * math.floor(n)\n",
            expected="import math\n\nimport jax.numpy as jnp\n\ndef f(w, n):\n    return jnp.sum(w) * math.floor(n)\n",
            lines=[6],
        ),
        Invalid(  # a helper repeating a Python list by an item of its parameter: a NumPy integer repeats it, a JAX
            # array's `*` raises TypeError for a list (SciPy's fisher_exact handing its table to `_untabulate`)
            "import numpy as np\n\ndef untab(table):\n    x = []\n    for i in range(table.shape[0]):\n"
            "        x.append([i] * table[i, 0])\n    return x\n\ndef run(t):\n    c = np.asarray(t)\n    return untab(c)\n",
            expected=None, lines=[10, 11],
        ),
        Invalid(  # a helper swapping two items through a tuple target writes into its parameter (a bubble sort)
            "import numpy as np\n\ndef reorder(v, i, j):\n    v[i], v[j] = v[j], v[i]\n    return v\n\n"
            "def ends(n):\n    w = np.linspace(0.0, 1.0, n)\n    return reorder(w, 0, n - 1)\n",
            expected=None, lines=[8, 9],
        ),
        Invalid(  # ... an item in a nested, starred tuple target is written into too
            "import numpy as np\n\ndef put(v, t):\n    (v[0], *rest), k = t, 1\n    return k\n\n"
            "def run(n):\n    w = np.zeros(n)\n    put(w, (1.0, 2.0))\n    return w\n",
            expected=None, lines=[8, 9],
        ),
        Invalid(  # ... and a caller swapping two items of what a helper returns keeps the helper NumPy
            "import numpy as np\n\ndef grid(n):\n    return np.linspace(0.0, 1.0, n)\n\n"
            "def flipped(n):\n    x = grid(n)\n    x[0], x[-1] = x[-1], x[0]\n    return x\n",
            expected=None, lines=[4, 4],
        ),
        Invalid(  # a write through the view a call returns (scikit-rf's circuits: the diagonal of each matrix)
            "import numpy as np\n\ndef f(x):\n    y = np.linalg.inv(x)\n    np.einsum('kii->ki', y)[:] -= 1\n    return y\n",
            expected=None, lines=[4, 5],
        ),
        Invalid(  # `jnp.log2(8.0)` is 2.9999999999999996 in float64: truncated, a level is lost (pylops' seislet)
            "import numpy as np\n\ndef levels(n):\n    return int(np.log2(n))\n",
            expected="import jax.numpy as jnp\n\ndef levels(n):\n    return int(jnp.log2(n))\n",
            unsafe=True, lines=[4],
        ),
        Invalid(  # ... also through a name tested for integrality (commpy's PSKModem: `8` was no power of two)
            "import numpy as np\n\ndef bits(m):\n    k = np.log2(m)\n    if k % 1 or k.is_integer() is False:\n"
            "        raise ValueError(m)\n    return k\n",
            expected="import jax.numpy as jnp\n\ndef bits(m):\n    k = jnp.log2(m)\n    if k % 1 or k.is_integer() is False:\n"
            "        raise ValueError(m)\n    return k\n",
            unsafe=True, lines=[4],
        ),
        # `jnp.convolve` of integer arrays gives floats, which `& 1` rejects (commpy's GF(2) `polymultiply`); an
        # input known to be float makes NumPy's result float too: a plain rename there
        Invalid("import numpy as np\n\ndef polymul_gf2(a, b):\n    return np.convolve(a, b) & 1\n",
                expected="import jax.numpy as jnp\n\ndef polymul_gf2(a, b):\n    return jnp.convolve(a, b) & 1\n",
                unsafe=True, lines=[4]),
        Invalid("import numpy as np\n\ndef smooth(x, n):\n    w = np.ones(n) / n\n    return np.convolve(x, w)\n",
                expected="import jax.numpy as jnp\n\ndef smooth(x, n):\n    w = jnp.ones(n) / n\n    return jnp.convolve(x, w)\n"),
        # a result the module's code writes into, or makes strings of, stays NumPy (neurokit2, lifelines)
        Invalid("import numpy as np\n\ndef embed(x):\n    return np.array([x[:-1], x[1:]]).T\n\n"
                "def states(x):\n    e = embed(x).astype(int)\n    return [''.join(s) for s in e.astype(str)]\n",
                expected=None, lines=[4]),
        Invalid("import numpy as np\n\ndef grads(X, b):\n    h = -np.dot(X.T, X)\n    return h, X @ b\n\n"
                "def step(X, b, lam, get=grads):\n    h, g = get(X, b)\n    h[0, 0] -= lam\n    return h, g\n",
                expected=None, lines=[4, 5]),
        # ... through an attribute that is an array made from it, or a slice (acoustics' one-sided amplitude spectrum;
        # a helper that writes into what it is given)
        Invalid("import numpy as np\n\ndef amplitude(x):\n    return np.fft.fft(x) / len(x)\n\n"
                "def one_sided(x):\n    a = amplitude(x).real\n    a[0] /= 2.0\n    return a\n",
                expected=None, lines=[4, 4]),
        # ... a property's too, read on `self` and handed to a writer (nitime's `phase`, then `unwrap(self.phase[0])`)
        Invalid("import numpy as np\n\ndef shift(a):\n    a[0] -= 1.0\n    return a\n\nclass Wave:\n"
                "    def __init__(self, z):\n        self.z = z\n\n    @property\n    def mag(self):\n"
                "        return np.abs(self.z) * 2.0\n\n    def lowered(self):\n        return shift(self.mag[1:])\n",
                expected=None, lines=[13, 13]),
        Invalid("import numpy as np\n\ndef normalize(a):\n    a -= a.max()\n\ndef dens(x):\n    return np.log(x)\n\n"
                "def post(x):\n    d = dens(x)[1:]\n    normalize(d)\n    return d\n",
                expected=None, lines=[7, 7]),
        # ... or hands to a NumPy call given `out=`, which calls a JAX input's own method, which takes no `out=`
        # (GPy's `_gradients_X_pure`: `np.sum(tmp * q, axis=1, out=out[:, q])`); so does a parameter handed to one
        Invalid("import numpy as np\n\ndef expo(a):\n    return np.exp(a)\n\ndef col_sums(a, out):\n    tmp = expo(a)\n"
                "    for q in range(2):\n        np.sum(tmp * q, axis=1, out=out[:, q])\n    return out\n",
                expected=None, lines=[4, 4]),
        Invalid("import numpy as np\n\ndef total(t, out):\n    np.sum(t * 2, axis=1, out=out)\n\ndef f(a, out):\n"
                "    total(np.exp(a), out)\n    return out\n",
                expected=None, lines=[7, 7]),
        # ... or hands to `np.take` in its default mode, which calls a JAX input's own `take` with `mode='raise'`
        # (NotImplementedError; librosa's `np.take(bpms, best_period)`), while the caller keeps it NumPy (here for
        # its `IndexError` handler); not with another mode
        Invalid("import numpy as np\n\ndef decay(n):\n    return np.exp(-np.arange(n))\n\ndef lookup(n, i):\n"
                "    d = decay(n) * 2\n    try:\n        return np.take(d, i), np.take(decay(i), 0, mode='raise')\n"
                "    except IndexError:\n        return None\n",
                expected=None, lines=[4, 4, 4, 9]),
        Invalid("import numpy as np\n\ndef decay(n):\n    return np.exp(-np.arange(n))\n\ndef lookup(n, i):\n"
                "    d = decay(n)\n    try:\n        return np.take(d, i, mode='clip')\n    except IndexError:\n        return None\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef decay(n):\n    return jnp.exp(-jnp.arange(n))\n\n"
                "def lookup(n, i):\n    d = decay(n)\n    try:\n        return np.take(d, i, mode='clip')\n"
                "    except IndexError:\n        return None\n", lines=[4, 4, 9]),
        # ... through arithmetic that makes a new array of the same kind from the result (galpy's `out = -self._G(r)`)
        Invalid("import numpy as np\n\nclass Pot:\n    def _G(self, r):\n        return np.exp(-r)\n\n"
                "    def evaluate(self, r, nz):\n        out = -self._G(r)\n        out[nz] -= 1.0\n        return out\n",
                expected=None, lines=[5, 5]),
        # ... or updates an array that must see the update by an augmented assignment of it (sporco's linalg: `x -=
        # inner(x, y)`): NumPy writes into the caller's array, a JAX operand makes Python rebind `x` instead
        # (silently wrong), and a later write into a rebound `alpha` raises; also through a local name (`d = b *
        # inner(...)`, then `alpha -= d / 2.0`)
        Invalid("import numpy as np\n\ndef inner(x, y):\n    return np.sum(x * y, axis=0, keepdims=True)\n\n"
                "def step(x, y):\n    x -= inner(x, y)\n",
                expected=None, lines=[4, 4]),
        Invalid("import numpy as np\n\ndef inner(x, y):\n    return np.sum(x * y, axis=0, keepdims=True)\n\n"
                "def solve(a, b):\n    alpha = a[:, :1] / 2.0\n    for k in range(a.shape[1]):\n"
                "        d = b * inner(a[:, [k]], b)\n        alpha -= d / 2.0\n        alpha[:] = alpha / 2.0\n"
                "    return alpha\n",
                expected=None, lines=[4, 4]),
        # ... or hands, as it is, to a helper that writes into a copy of its parameter (sporco's cnvrep:
        # `zeromean(bcrop(x, n), n)`, `vz = v.copy()` then `vz[...] -= ...`)
        Invalid("import numpy as np\n\ndef bcrop(v, n):\n    return np.zeros((n,) + v.shape[1:]) + v[0:n]\n\n"
                "def zeromean(v, n):\n    vz = v.copy()\n    vz[0:n] -= v[0:n].mean(0)\n    return vz\n\n"
                "def pcn(x, n):\n    return zeromean(bcrop(x, n), n)\n",
                expected=None, lines=[4, 4]),
        # what calling a parameter gives, when a call of the module passes it a function whose result JAX arrays
        # cannot hold (stumpy's `mp = mp_func(T, m)`, given `stump`, whose matrix profile is an object array)
        Invalid("import numpy as np\n\ndef tags(n):\n    return np.array([\"x\"] * n)\n\ndef ranked(make, n):\n"
                "    got = make(n)\n    return np.argsort(got[::-1])\n\ndef run(n):\n    return ranked(tags, n)\n",
                expected=None, lines=[4, 8]),
        # ... but one given a function of numbers is renamed as before
        Invalid("import numpy as np\n\ndef sq(x):\n    return x * x\n\ndef total(f, xs):\n    y = f(xs)\n"
                "    return np.sum(y)\n\ndef run(v):\n    return total(sq, v)\n",
                expected="import jax.numpy as jnp\n\ndef sq(x):\n    return x * x\n\ndef total(f, xs):\n    y = f(xs)\n"
                         "    return jnp.sum(y)\n\ndef run(v):\n    return total(sq, v)\n"),
        # a parameter checked for a NumPy array by a function that stays NumPy (its test is never widened), as
        # `elif isinstance(x, np.ndarray): ...` with `else: raise ...`, also through a function handing it on
        # (stumpy's `rolling_isconstant`, reached through `preprocess`): the array made here stays NumPy
        Invalid("import numpy as np\n\ndef flags(a, w, given=None):\n    if given is None:\n"
                "        given = np.zeros((a.shape[0], w), dtype=bool)\n    elif isinstance(given, np.ndarray):\n"
                "        pass\n    else:\n        raise ValueError(\"given must be an array\")\n    return given\n\n"
                "def mark(a, w, given=None):\n    out = flags(a, w, given)\n    out[:, -1] = True\n    return out\n\n"
                "def relay(a, w, given=None):\n    return flags(a, w, given)\n\n"
                "def first(t, w):\n    f = np.atleast_2d(t > 0)\n    return relay(t, w, f)\n",
                expected=None, lines=[5, 6, 10, 21]),
        # ... an item of it unpacked from a returned tuple too (stumpy's `QT, QT_first = _get_QT(...)`, then a writer
        # given `QT`)
        Invalid("import numpy as np\n\ndef scale(q):\n    q[:, 0] = 0.0\n\ndef pair(t):\n"
                "    return np.exp(t), np.log(t)\n\ndef run(t):\n    e, l = pair(t)\n    scale(e)\n    return l\n",
                expected=None, lines=[7, 7, 7, 7]),
        # ... or stores on an attribute that the module writes into in place, in a subclass too (sporco's ADMM
        # solvers: `self.Y = self.yinit(shape)`, `self.Y = prox_l1(...)` then `self.Y[self.Y < 0.0] = 0.0`)
        Invalid("import numpy as np\n\nclass Base:\n    def __init__(self, shape):\n        self.Y = self.yinit(shape)\n\n"
                "    def yinit(self, shape):\n        return np.zeros(shape)\n\nclass Sub(Base):\n"
                "    def ystep(self, v):\n        self.Y[..., 0] = v\n",
                expected=None, lines=[8, 8]),
        Invalid("import numpy as np\n\ndef prox_l1(v, alpha):\n    return np.sign(v) * np.maximum(np.abs(v) - alpha, 0)\n\n"
                "class Solver:\n    def ystep(self, v):\n        self.Y = prox_l1(v, 0.5)\n        self.Y[self.Y < 0.0] = 0.0\n",
                expected=None, lines=[4, 4, 4, 4]),
        # an augmented update of an attribute as a whole (`self.p /= s`) writes into a NumPy array that every reference
        # sees, and rebinds the attribute for a JAX one: the array the module makes there stays NumPy (filterpy's IMM:
        # `p = bank.p` kept [1. 3.] after `normalize`)
        Invalid("import numpy as np\n\nclass Bank:\n    def __init__(self):\n        self.p = np.array([1.0, 3.0])\n"
                "        self.n = 0\n\n    def normalize(self, s):\n        self.p /= s\n        self.n += 1\n",
                expected=None, lines=[5, 5]),
        # ... and so does a copy or view of an array made here stored on an attribute written into in place (`m.x =
        # x.copy()`, then `m.x.fill(0)`: filterpy's IMM mixing, whose `self.x += m.x * 0.5` then rebound `self.x`)
        Invalid("import numpy as np\n\nclass Model:\n    def __init__(self, x):\n        self.x = x\n\ndef mix(models):\n"
                "    x = np.zeros(2)\n    for m in models:\n        x += m.x * 0.5\n    for m in models:\n"
                "        m.x = x.copy()\n\ndef reset(m):\n    m.x.fill(0)\n",
                expected=None, lines=[8, 12]),
        # ... and so does an array stored on an attribute that the value of such a whole-array update reads, here
        # through a loop's target (`self.x += x * m` for `m` in `self.mu`: a JAX `self.mu` rebinds the NumPy `self.x`,
        # whose next `.fill` raised; filterpy's IMM `combine`)
        Invalid("import numpy as np\n\nclass E:\n    def __init__(self, n):\n        self.x = np.zeros(n)\n\n"
                "    def update(self, mu):\n        self.mu = mu / np.sum(mu)\n\n    def combine(self, xs):\n"
                "        self.x.fill(0)\n        for x, m in zip(xs, self.mu):\n            self.x += x * m\n",
                expected=None, lines=[5, 5, 8, 8]),
        # ... or of a parameter, the caller's array (`x += self.mu`: the caller's `x` kept zeros once `self.mu` was JAX)
        Invalid("import numpy as np\n\nclass E:\n    def update(self, mu):\n        self.mu = mu / np.sum(mu)\n\n"
                "    def combine(self, x):\n        x += self.mu\n",
                expected=None, lines=[5, 5]),
        # ... or of an attribute whose stored value such an update reads, in another function (`s.vel = s.best -
        # s.pos`, then `new += s.vel` into a NumPy copy written item-wise: a JAX `s.best` made `new` a JAX array, whose
        # item write raised; pyswarms' `compute_pbest`)
        Invalid("import numpy as np\n\ndef pbest(s):\n    return np.where(s.better, s.pos, s.best)\n\n"
                "def move(s):\n    new = s.pos.copy()\n    new += s.vel\n    new[0] = 9.0\n    return new\n\n"
                "def step(s):\n    s.best = pbest(s)\n    s.vel = s.best - s.pos\n    return move(s)\n",
                expected=None, lines=[4, 4, 14]),
        # ... or whose value another method computes an array from that it writes into (`t = np.ones(k) * self.floor`,
        # then `t[i] = v`, in a method held back by its own writes: a JAX `.floor` made `t` a JAX array, whose write
        # raised; astroML's `Cminus`), also from arithmetic only (a `rv_continuous` subclass's `pdf = self._const *
        # np.exp(k * x); pdf[mask] = 0`: astroML's `trunc_exp`), or through an attribute stored from it (`.base`)
        Invalid("import numpy as np\n\nclass Counts:\n    def __init__(self, floor):\n        self.floor = np.abs(floor)\n\n"
                "    def table(self, k):\n        self.seen = np.zeros(k)\n        t = np.ones(k) * self.floor\n"
                "        for i in range(k):\n            t[i] = max(t[i], i)\n            self.seen[i] = t[i]\n        return t\n",
                expected=None, lines=[5, 5, 8, 8, 9]),
        Invalid("import numpy as np\n\nclass Tail:\n    def setup(self, lam):\n        self.norm = lam / (np.exp(lam) - 1.0)\n\n"
                "    def density(self, x):\n        d = self.norm * np.exp(x)\n        d[x < 0] = 0.0\n        return d\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Tail:\n    def setup(self, lam):\n"
                "        self.norm = lam / (np.exp(lam) - 1.0)\n\n"
                "    def density(self, x):\n        d = self.norm * jnp.exp(x)\n        d[x < 0] = 0.0\n        return d\n",
                lines=[5, 5, 8]),
        Invalid("import numpy as np\n\nclass Grid:\n    def __init__(self, k):\n        self.k = np.atleast_1d(k)\n\n"
                "    def prepare(self):\n        self.base = self.k * 2.0\n\n    def run(self, n):\n"
                "        self.hits = np.zeros(n)\n        c = np.zeros(n) + self.base\n        c[0] = 1.0\n"
                "        self.hits[0] = c[0]\n        return c\n",
                expected=None, lines=[5, 5, 8, 11, 11, 12]),
        # ... also through what a method of the module returns (`r = self._raw(v)` of `return (v - self.knots[0]) *
        # 2.0`, then `r[m] = 0.0`: scipy's `interp1d`, whose `_call_linear` reads `self.x`), or a method stored on an
        # attribute and called through it (`self._eval = self.__class__._index`, then `self._eval(self, v)`), which
        # stays NumPy as a method called by name does
        Invalid("import numpy as np\n\nclass Ramp:\n    def __init__(self, knots):\n        self.knots = np.sort(knots)\n\n"
                "    def _raw(self, v):\n        return (v - self.knots[0]) * 2.0\n\n    def __call__(self, v):\n"
                "        r = self._raw(v)\n        r[v < 0] = 0.0\n        return r\n",
                expected=None, lines=[5, 5]),
        Invalid("import numpy as np\n\nclass Step:\n    def __init__(self, edges):\n        self.edges = np.sort(edges)\n"
                "        self._eval = self.__class__._index\n\n    def _index(self, v):\n"
                "        return np.clip(v, self.edges[0], self.edges[-1]) - self.edges[0]\n\n    def at(self, v):\n"
                "        r = self._eval(self, v)\n        if len(r) > 1:\n            r[0] = -1.0\n        return r\n",
                expected=None, lines=[5, 5, 9, 9]),
        # a call of a parameter (`f(x)` in `def polish(x, f)`) is not a call of a function of that name elsewhere
        # in the module (scipy's `_compute_tauk`, whose nested `f` and `df` kept `sin` and `cos` NumPy because
        # `newton_polish(x, f, df)` updated `x -= f(x) / df(x)` in place)
        Invalid("import numpy as np\n\ndef polish(x, g):\n    x = np.array(x, dtype=float)\n    x -= g(x)\n    return x\n\n"
                "def root(c, n):\n    def g(v):\n        return np.sin(v) - c\n\n    return [g(c) for _ in range(n)]\n",
                expected="import jax.numpy as jnp\n\ndef polish(x, g):\n    x = jnp.array(x, dtype=float)\n    x -= g(x)\n    return x\n\n"
                "def root(c, n):\n    def g(v):\n        return jnp.sin(v) - c\n\n    return [g(c) for _ in range(n)]\n"),
        # a value that meets a NumPy polynomial object in arithmetic stays NumPy: `poly1d / a` of a JAX `a` divides
        # polynomials (a tuple), `a * poly1d` gives a poly1d, `Polynomial / a` raises `TypeError` (scipy's `lagrange`
        # and `bilinear`'s `fac = np.sqrt(fs * 2)`); an evaluation (`q(0.0)`) is a value, not such an object
        Invalid("import numpy as np\n\ndef scaled(fs, c):\n    k = np.sqrt(fs * 2)\n"
                "    up = np.polynomial.Polynomial((1, 1)) / k\n    q = np.poly1d(c).deriv()\n"
                "    return (up * q(0.0)).coef, q * np.exp(fs), np.cos(fs)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef scaled(fs, c):\n    k = np.sqrt(fs * 2)\n"
                "    up = np.polynomial.Polynomial((1, 1)) / k\n    q = np.poly1d(c).deriv()\n"
                "    return (up * q(0.0)).coef, q * np.exp(fs), jnp.cos(fs)\n",
                lines=[4, 6, 7, 7]),
        # a NumPy call given a polynomial object stays NumPy: NumPy reads its coefficients, `jnp.polyval` raises
        # `TypeError`; scipy.special's constructors (`hermitenorm`, `sp.legendre`) make one too, an `orthopoly1d`
        # (a `np.poly1d` subclass), which also meets numbers in arithmetic like one (wavelets' `dog_psi`)
        Invalid("import numpy as np\nimport scipy.special as sp\nfrom scipy.special import hermitenorm as hn\n\n"
                "def bump(t, m):\n    h = hn(m)\n    return np.polyval(h, t) * np.exp(-t * t)\n\n"
                "def zeros(c, n, v):\n    p = np.poly1d(c)\n    return np.roots(p.deriv()), sp.legendre(n) * np.sqrt(v)\n\n"
                "def plain(t, c):\n    return np.polyval(np.asarray(c), t)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\nimport scipy.special as sp\nfrom scipy.special import hermitenorm as hn\n\n"
                "def bump(t, m):\n    h = hn(m)\n    return np.polyval(h, t) * jnp.exp(-t * t)\n\n"
                "def zeros(c, n, v):\n    p = np.poly1d(c)\n    return np.roots(p.deriv()), sp.legendre(n) * np.sqrt(v)\n\n"
                "def plain(t, c):\n    return jnp.polyval(jnp.asarray(c), t)\n",
                lines=[7, 7, 10, 11, 11, 14, 14]),
        # ... or that another method computes with a masked array (`np.ma.masked_array(v, mask=m) * self.w`: JAX
        # rejects masked arrays; pykrige's `self.Z`)
        Invalid("import numpy as np\n\nclass Weights:\n    def __init__(self, w):\n        self.w = np.asarray(w, dtype=float)\n\n"
                "    def mean(self, v, bad):\n        return np.sum(np.ma.masked_array(v, mask=bad) * self.w)\n",
                expected=None, lines=[5, 5, 8, 8]),
        # (an item of a list is no array's: `h = [0] * self.n`, then `h[i] = v`, holds nothing back; nor is a count)
        Invalid("import numpy as np\n\nclass Rows:\n    def __init__(self, x):\n        self.n = np.size(x)\n\n"
                "    def parts(self, x):\n        h = [0] * self.n\n        for i in range(self.n):\n            h[i] = x[i] + 1.0\n"
                "        h = np.array(h)\n        return h\n",
                expected="import jax.numpy as jnp\n\nclass Rows:\n    def __init__(self, x):\n        self.n = jnp.size(x)\n\n"
                "    def parts(self, x):\n        h = [0] * self.n\n        for i in range(self.n):\n            h[i] = x[i] + 1.0\n"
                "        h = jnp.array(h)\n        return h\n"),
        # ... or hands to a call that needs a NumPy array (`fftpack.rfft(x * self.win)` reads `.flags`)
        Invalid("import numpy as np\nfrom scipy import fftpack\n\nclass Taper:\n    def __init__(self, n):\n"
                "        self.win = np.hanning(n) * 2.0\n\n    def apply(self, x):\n        return fftpack.rfft(x * self.win)\n",
                expected=None, lines=[6, 6]),
        # (a NumPy array made from it, `np.zeros_like(self.w)`, is NumPy whatever `self.w` is: written into, it holds
        # nothing back)
        Invalid("import numpy as np\n\nclass Profile:\n    def __init__(self, w):\n        self.w = np.asarray(w) / np.sum(w)\n\n"
                "    def spread(self, n):\n        out = np.zeros_like(self.w)\n        for i in range(n):\n"
                "            out[i] = self.w[i] * i\n        return out\n",
                expected="import jax.numpy as jnp\n\nclass Profile:\n    def __init__(self, w):\n"
                "        self.w = jnp.asarray(w) / jnp.sum(w)\n\n"
                "    def spread(self, n):\n        out = jnp.zeros_like(self.w)\n        for i in range(n):\n"
                "            out[i] = self.w[i] * i\n        return out\n"),
        # ... through a NumPy call that hands a JAX array to its own method (`np.round(a)` is `a.round()`, a JAX
        # array), at once or through a local name bound to the result (pyroomacoustics' octave bands; the callers
        # here are module code, whose NumPy calls this rule leaves: a caller's call renamed makes its own result JAX)
        Invalid("import numpy as np\n\ndef make_bands(n):\n    return np.array([[f, 2.0 * f] for f in range(1, n + 1)])\n\n"
                "bands = make_bands(3)\nk1 = np.round(bands[:, 0] * 2).astype(int)\nk1[0] = 0\n",
                expected=None, lines=[4, 4]),
        Invalid("import numpy as np\n\ndef spectrum(x):\n    return np.abs(np.fft.rfft(x))\n\n"
                "s = np.sum(spectrum(np.ones(8)), axis=0)\ns[0] = 0.0\n",
                expected=None, lines=[4, 4, 4]),
        # ... or reads it through an attribute or method only a NumPy array has (nilearn's `y.flags["C_CONTIGUOUS"]`
        # of a helper's result), bound to a name or at once
        Invalid("import numpy as np\n\ndef scaled(a):\n    return a / np.max(np.abs(a))\n\n"
                "def row_step(a):\n    b = scaled(a)\n    return b.strides[0]\n",
                expected=None, lines=[4, 4, 4]),
        Invalid("import numpy as np\n\ndef centred(a):\n    return a - np.mean(a)\n\n"
                "def frozen(a):\n    return centred(a).flags.writeable\n",
                expected=None, lines=[4, 4]),
        # ... or hashes: the rows' elements (kmodes' encoded rows), or the result itself as a key (minisom's winners)
        Invalid("import numpy as np\n\ndef encode(X):\n    return np.argsort(X, axis=1)\n\n"
                "def n_unique(X):\n    enc = encode(X)\n    return len({tuple(row) for row in enc})\n",
                expected=None, lines=[4, 4]),
        Invalid("from collections import defaultdict\nimport numpy as np\n\ndef winner(w, x):\n"
                "    return np.unravel_index(np.argmin(w - x), w.shape)\n\n"
                "def win_map(w, data):\n    hits = defaultdict(list)\n    for x in data:\n        hits[winner(w, x)].append(x)\n"
                "    return hits\n",
                expected=None, lines=[5, 5, 5]),
        # an array updated in place (`x op= v`) by a value that may widen its dtype: NumPy casts the result back into
        # the array (librosa's `out += np.asarray(off, dtype=np.uint16)` into a uint8 image, wrapping), `jax.numpy`
        # rebinds the name to the promoted array; the function is left as it is (a JAX value converted in the update
        # would rebind the name too: `out += jnp.sum(x) * 0.5`). A Python scalar, a value of the
        # array's dtype or one it absorbs, and values of unknown dtype into an array of unknown dtype, are converted
        Invalid("import numpy as np\n\ndef brighten(img, gain, n):\n    out = np.clip(img, 0, 200)\n"
                "    out += np.asarray(gain, dtype=np.int16)\n    acc = np.zeros(n, dtype=np.float32)\n"
                "    acc += np.linspace(0.0, 1.0, n)\n    steps = np.arange(4)\n    steps //= 2\n    steps += 1\n"
                "    steps /= 2\n    return out, acc, steps\n\n"
                "def totals(img, n):\n    tot = np.zeros(n)\n    tot += 1\n    tot *= np.ones(n, dtype=np.float32)\n"
                "    s = np.sum(img, axis=0)\n    s -= np.mean(img)\n    return tot, s\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef brighten(img, gain, n):\n"
                "    out = np.clip(img, 0, 200)\n    out += np.asarray(gain, dtype=np.int16)\n"
                "    acc = np.zeros(n, dtype=np.float32)\n    acc += np.linspace(0.0, 1.0, n)\n    steps = np.arange(4)\n"
                "    steps //= 2\n    steps += 1\n    steps /= 2\n    return out, acc, steps\n\n"
                "def totals(img, n):\n    tot = jnp.zeros(n)\n    tot += 1\n"
                "    tot *= jnp.ones(n, dtype=np.float32)\n    s = jnp.sum(img, axis=0)\n    s -= jnp.mean(img)\n"
                "    return tot, s\n",
                lines=[4, 5, 6, 7, 8, 15, 17, 18, 19]),
        Invalid(  # ... also under another name (`y = out`, then `y += v`)
            "import numpy as np\n\ndef shade(img, off):\n    out = np.minimum(img, 250)\n    y = out\n"
            "    y += np.asarray(off, dtype=np.uint16)\n    return y\n",
            expected=None, lines=[4, 6]),
        # ... also through arithmetic of its result, or of an element of it (librosa's `acc_map[np.sign(i) * 2]`)
        Invalid("import numpy as np\nSIDES = {-2: 'l', 0: 'c', 2: 'r'}\n\ndef side(k, x):\n    marks = {-1: 'x', 1: 'o'}\n"
                "    return SIDES[2 * np.sign(k)], marks[-np.argmax(x)[()]], np.sum(x)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\nSIDES = {-2: 'l', 0: 'c', 2: 'r'}\n\n"
                         "def side(k, x):\n    marks = {-1: 'x', 1: 'o'}\n"
                         "    return SIDES[2 * np.sign(k)], marks[-np.argmax(x)[()]], jnp.sum(x)\n",
                lines=[6, 6]),
        # ... or feeds, through a name, a NumPy call kept for that reason: `np.nonzero` of a JAX array calls its
        # `.nonzero()` and gives JAX arrays (pygsp's connected components)
        Invalid("import numpy as np\n\ndef f(n):\n    visited = np.zeros(n, dtype=bool)\n"
                "    return set(np.nonzero(~visited)[0])\n",
                expected=None, lines=[4, 5]),
        # ... also through a slice or arithmetic of its result: `np.searchsorted(edges, x)` calls the first
        # argument's method, so a JAX `edges` would give JAX codes (tsfresh's lempel_ziv_complexity)
        Invalid("import numpy as np\n\ndef codes(x, n):\n    edges = np.linspace(0.0, 1.0, n + 1)[1:] * 2.0\n"
                "    return {tuple(np.searchsorted(edges, x))}\n",
                expected=None, lines=[4, 5]),
        # ... also sliced where it is read, through an alias or a rebinding, or by the array's own method (a code
        # review's variants of lempel_ziv_complexity)
        Invalid("import numpy as np\n\ndef codes(x, n):\n    edges = np.linspace(0.0, 1.0, n + 1)\n"
                "    return set(np.searchsorted(edges[1:], x))\n",
                expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef codes(x, n):\n    edges = np.linspace(0.0, 1.0, n + 1)\n    cut = edges\n"
                "    cut = cut[1:]\n    return set(np.searchsorted(cut, x))\n",
                expected=None, lines=[4, 7]),
        Invalid("import numpy as np\n\ndef codes(x, n):\n    edges = np.linspace(0.0, 1.0, n + 1)[1:]\n"
                "    return set(edges.searchsorted(x))\n",
                expected=None, lines=[4]),
        # ... or hands it to an `@lru_cache`'d function, which hashes its arguments (galpy's cached tables)
        Invalid("import functools\n\nimport numpy as np\n\ndef split(p):\n    return np.minimum(p + 1.0, 0.9)\n\n"
                "@functools.lru_cache(maxsize=None)\ndef at_split(c):\n    return c * 2.0\n\n"
                "def run(p):\n    return at_split(split(p))\n",
                expected=None, lines=[6, 6]),
        Invalid(  # ... as the elements of a tuple (commpy's viterbi: `weight(tuple(to_bits(n, 3)))`)
            "import functools\n\nimport numpy as np\n\ndef to_bits(n, width):\n    return np.zeros(width) + n\n\n"
            "@functools.lru_cache(maxsize=None)\ndef weight(bits):\n    return sum(bits)\n\n"
            "def run(n):\n    return weight(tuple(to_bits(n, 3)))\n",
            expected=None, lines=[6, 6]),
        # ... or gives its rows to a helper of the module that hashes them (chaospy's moment cache: `_get(kdata)` for
        # `kdata in K.T`, doing `tuple(kdata) in _cache`), by position or keyword, or through `self.`
        Invalid("import numpy as np\n\nSEEN = {}\n\ndef remember(row, tag=None):\n    key = tuple(row)\n"
                "    if key not in SEEN:\n        SEEN[key] = tag\n    return SEEN[key]\n\n"
                "def tags(rows, n):\n    rows = np.asarray(rows).reshape(n, -1)\n    picks = np.arange(n) * 2\n"
                "    return [remember(r) for r in rows], remember(tag=1, row=picks)\n",
                expected=None, lines=[12, 13]),
        # ... by code at module level too (a script's `__main__` block; a constant written into)
        Invalid("from collections import Counter\n\nimport numpy as np\n\ndef resample(parts):\n    return np.hstack(parts)\n\n"
                "if __name__ == \"__main__\":\n    print(Counter(resample([np.ones(2), np.zeros(3)])))\n",
                expected=None, lines=[6, 6]),
        Invalid("import numpy as np\n\ndef unit(v):\n    return v / np.linalg.norm(v)\n\nU = unit(np.ones(2))\nU[0] = 0.0\n",
                expected=None, lines=[4, 4]),
        # ... through a function that returns its result, here through a local name (filterpy review: `res = run(3)`,
        # then `res[0] = 9.0`, with `run` returning `build(n)`)
        Invalid("import numpy as np\n\ndef build(n):\n    return np.zeros(n) + 1.0\n\ndef run(n):\n    r = build(n)\n"
                "    return r\n\nres = run(3)\nres[0] = 9.0\n",
                expected=None, lines=[4, 4]),
        # ... into an item of a returned tuple's item, or into a name unpacked from it (or an alias of one): by
        # an augmented assignment (in place for a NumPy array, here a view of the caller's `x`: for a JAX array
        # Python rebinds `a` and `x` silently keeps its values), a writing method, `np.copyto` or `out=` (pywt)
        Invalid("import numpy as np\n\ndef split(arr):\n    arr = np.asarray(arr)\n    return arr[:2], arr[2:]\n\n"
                "if __name__ == \"__main__\":\n    parts = split(np.arange(4.0))\n    parts[0][0] = 9.0\n",
                expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef split(arr):\n    arr = np.asarray(arr)\n    return arr[:2], arr[2:]\n\n"
                "def main(x):\n    a, d = split(x)\n    a += 9.0\n    return x\n",
                expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef split(arr):\n    arr = np.asarray(arr)\n    return arr[:2], arr[2:]\n\n"
                "def main(x):\n    a, d = split(x)\n    b = a\n    b.fill(0.0)\n    return x\n",
                expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef split(arr):\n    arr = np.asarray(arr)\n    return arr[:2], arr[2:]\n\n"
                "x = np.arange(4.0)\na, d = split(x)\nnp.copyto(a, 1.0)\n",
                expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef split(arr):\n    arr = np.asarray(arr)\n    return arr[:2], arr[2:]\n\n"
                "x = np.arange(4.0)\na, d = split(x)\nnp.add(d, 1.0, out=a)\n",
                expected=None, lines=[4, 5]),
        # unpacked results whose elements become keys (imblearn's class counts)
        # ... and a tuple of such elements as a key (`index[i, j]` for `i, j` zipped from a grid's raveled arrays:
        # nitime's pair table), through the arrays' methods and the names a tuple assignment binds
        Invalid("import numpy as np\n\ndef grid_index(n, m):\n    r, c = np.meshgrid(np.arange(n), np.arange(m))\n"
                "    index = {}\n    for k, (i, j) in enumerate(zip(r.flatten(), c.flatten())):\n        index[i, j] = k\n"
                "    return index\n",
                expected=None, lines=[4, 4, 4]),
        # ... and names bound from a tuple of calls (`a, b = np.arange(n), np.arange(m)`, or with a starred name: code
        # review), where the array a name at another place holds is not hashed (`a + b` of `plain`)
        Invalid("import numpy as np\n\ndef pairs(n, m):\n    a, b = np.arange(n), np.arange(m)\n    d = {}\n"
                "    for i, j in zip(a, b):\n        d[i, j] = 1\n    return d\n\n"
                "def heads(n):\n    a, *b = np.arange(n), np.arange(n)\n    return {v: 1 for v in a}\n\n"
                "def plain(n):\n    a, b = np.arange(n), np.ones(n)\n    return a + b\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pairs(n, m):\n    a, b = np.arange(n), np.arange(m)\n"
                         "    d = {}\n    for i, j in zip(a, b):\n        d[i, j] = 1\n    return d\n\n"
                         "def heads(n):\n    a, *b = np.arange(n), np.arange(n)\n    return {v: 1 for v in a}\n\n"
                         "def plain(n):\n    a, b = jnp.arange(n), jnp.ones(n)\n    return a + b\n",
                lines=[4, 4, 11, 11, 15, 15]),
        # ... and an array made for a function of the module that hashes its parameter's elements, also through
        # `*args` (nitime's `lagged_classes` giving `count_classes(*xs)` a rolled array, whose `set(x)` raised)
        Invalid("import numpy as np\n\ndef distinct(*vals):\n    return [len(set(v)) for v in vals]\n\n"
                "def n_levels(a):\n    seen = {}\n    for v in a:\n        seen[v] = True\n    return len(seen)\n\n"
                "def summary(x, k):\n    return distinct(np.round(x, k), x), n_levels(np.floor(x))\n",
                expected=None, lines=[13, 13, 13, 13]),
        Invalid("import numpy as np\n\ndef counts(y):\n    u, c = np.unique(y, return_counts=True)\n    return dict(zip(u, c))\n",
                expected=None, lines=[4]),
        Invalid(  # the items of a list of arrays are written into (nodepy's Runge-Kutta stages)
            "import numpy as np\n\ndef f(u, m):\n    y = [np.zeros_like(u) for i in range(m)]\n    y[0][:] = u\n"
            "    return y, np.sum(u)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(u, m):\n    y = [np.zeros_like(u) for i in range(m)]\n"
                     "    y[0][:] = u\n    return y, jnp.sum(u)\n",
            lines=[4, 6]),
        Invalid(  # ... also arrays put in the list by `.append`, computed from a NumPy call (through a `zip` over
            # `edges`) or returned by a function of the module (chaospy's segmented quadrature, `weights[-1][-1] += w`)
            "import numpy as np\n\ndef unit(k):\n    return np.ones(k)\n\ndef blocks(k, n):\n"
            "    edges = np.linspace(0.0, 1.0, n + 1)\n    out = []\n    for lo, hi in zip(edges[:-1], edges[1:]):\n"
            "        w = np.full(k, hi - lo)\n        out.append(w * 2.0)\n        out.append(unit(k))\n"
            "    out[0][-1] += out[1][0]\n    return out, np.sum(edges)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef unit(k):\n    return np.ones(k)\n\ndef blocks(k, n):\n"
            "    edges = np.linspace(0.0, 1.0, n + 1)\n    out = []\n    for lo, hi in zip(edges[:-1], edges[1:]):\n"
            "        w = np.full(k, hi - lo)\n        out.append(w * 2.0)\n        out.append(unit(k))\n"
            "    out[0][-1] += out[1][0]\n    return out, jnp.sum(edges)\n",
            lines=[4, 4, 7, 10, 14]),
        Invalid(  # ... not a list display or comprehension appended: `tmp[j][0] = v` replaces an item of the inner
            # list, no array is written into (pywt's mra)
            "import numpy as np\n\ndef split(cs, n):\n    tmp = []\n    for j in range(n):\n"
            "        tmp.append([np.zeros_like(c) for c in cs])\n        tmp[j][0] = cs[0]\n    return tmp\n",
            expected="import jax.numpy as jnp\n\ndef split(cs, n):\n    tmp = []\n    for j in range(n):\n"
            "        tmp.append([jnp.zeros_like(c) for c in cs])\n        tmp[j][0] = cs[0]\n    return tmp\n"),
        Invalid(  # a dtype looked up in a dict that holds `object` (nodepy's exact coefficients)
            "import numpy as np\n\nDTYPES = {'exact': object, 'numeric': np.float64}\n\ndef f(n, mode='exact'):\n"
            "    return np.zeros(n, dtype=DTYPES[mode])\n",
            expected=None, lines=[6]),
        Invalid(  # `dtype=np.ndarray` is an object array (python-control's arrays of polynomials)
            "import numpy as np\n\ndef f(shape):\n    out = np.empty(shape, dtype=np.ndarray)\n    return out\n",
            expected=None, lines=[4],
        ),
        Invalid(  # widened in a module without NumPy calls too: another module of the run may hand it a JAX array
            # (pymcmcstat's `NumpyEncoder.default`, given the results dict whose `qcov` became `jnp.dot(...)`)
            "import json\nimport numpy as np\n\nclass Encoder(json.JSONEncoder):\n    def default(self, obj):\n"
            "        if isinstance(obj, np.ndarray):\n            return obj.tolist()\n        return super().default(obj)\n",
            expected="import json\nimport jax\nimport numpy as np\n\nclass Encoder(json.JSONEncoder):\n    def default(self, obj):\n"
            "        if isinstance(obj, (np.ndarray, jax.Array)):\n            return obj.tolist()\n        return super().default(obj)\n",
            lines=[6],
        ),
        Invalid(  # the bare name `ndarray` is widened too (python-control's transfer functions: a silent -1)
            "from numpy import ndarray, polyadd\n\ndef f(a, b):\n    p = polyadd(a, b)\n    if isinstance(p, ndarray):\n"
            "        return len(p)\n    return -1\n",
            expected="import jax\nimport jax.numpy as jnp\nfrom numpy import ndarray\n\ndef f(a, b):\n    p = jnp.polyadd(a, b)\n"
            "    if isinstance(p, (ndarray, jax.Array)):\n        return len(p)\n    return -1\n",
            lines=[4, 5],
        ),
        Invalid(  # ... and so is a tuple of types held in a name, local or module-level, where it is made
            # (python-control's `_clean_part`: `valid_collection = (list, tuple, ndarray)`, a silent TypeError)
            "from numpy import ndarray, polyadd\n\nKINDS = (list, ndarray)\n\ndef f(a, b):\n    seq = (list, tuple, ndarray)\n"
            "    p = polyadd(a, b)\n    if isinstance(p, seq) and isinstance(a, KINDS) and not isinstance(b, seq):\n"
            "        return len(p)\n    return -1\n",
            expected="import jax\nimport jax.numpy as jnp\nfrom numpy import ndarray\n\nKINDS = (list, ndarray, jax.Array)\n\n"
            "def f(a, b):\n    seq = (list, tuple, ndarray, jax.Array)\n    p = jnp.polyadd(a, b)\n"
            "    if isinstance(p, seq) and isinstance(a, KINDS) and not isinstance(b, seq):\n        return len(p)\n    return -1\n",
            lines=[3, 6, 7],
        ),
        Invalid(  # ... but not one the function uses otherwise too (here, in a message): the test is reported, the
            # function left as it is
            "import numpy as np\n\ndef f(a, b):\n    seq = (list, np.ndarray)\n    p = np.polyadd(a, b)\n"
            "    if isinstance(p, seq):\n        return len(p)\n    raise TypeError(f'not one of {seq}')\n",
            expected=None, lines=[5, 6],
        ),
        # a module that uses pandas (or autograd, xarray, ...): any value may be a DataFrame, which `np.sum` takes
        # and `jnp.sum` rejects; every fix of every rule there is unsafe (pingouin, lifelines)
        Invalid("import numpy as np\nimport pandas as pd\n\ndef total(df):\n    return np.sum(df)\n",
                expected="import jax.numpy as jnp\nimport pandas as pd\n\ndef total(df):\n    return jnp.sum(df)\n",
                unsafe=True, lines=[5]),
        # ... or numpoly (chaospy's building block): `jnp.asarray(s) * numpoly.variable(1)` raises, where NumPy's array
        # defers to the polynomial (chaospy's shifted moments)
        Invalid("import numpy as np\nfrom numpoly import variable\n\ndef shifted(s, c):\n    return np.asarray(s) * variable(1) + c\n",
                expected="import jax.numpy as jnp\nfrom numpoly import variable\n\ndef shifted(s, c):\n"
                         "    return jnp.asarray(s) * variable(1) + c\n",
                unsafe=True, lines=[5]),
        # None inside the list (a parameter defaulting to None, not guarded alone): NumPy makes NaN of it under a
        # float dtype, `jnp.array` raises (neurokit2's signal_filter); an integer `x` makes `jnp.polyfit` raise
        Invalid("import numpy as np\n\ndef f(lowcut=None, highcut=None):\n    if lowcut is not None or highcut is not None:\n"
                "        return np.array([lowcut, highcut], dtype=float)\n",
                expected="import jax.numpy as jnp\n\ndef f(lowcut=None, highcut=None):\n"
                "    if lowcut is not None or highcut is not None:\n        return jnp.array([lowcut, highcut], dtype=float)\n",
                unsafe=True, lines=[5]),
        Invalid("import numpy as np\n\ndef trend(y):\n    return np.polyfit(np.arange(len(y)), y, 1)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef trend(y):\n    return np.polyfit(jnp.arange(len(y)), y, 1)\n",
                lines=[4, 4]),
        # a count, size or shape stays a NumPy value, concrete under `jit`; a count NumPy's `repeat` takes as a float
        # (`np.sqrt(m)`), JAX's rejects even as a NumPy value: that function is left whole (commpy's QAMModem)
        Invalid("import numpy as np\n\ndef f(x):\n    n = np.argmax(x)\n    return np.zeros((n, 2)) + np.sum(x)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    n = np.argmax(x)\n"
                "    return jnp.zeros((n, 2)) + jnp.sum(x)\n",
                lines=[4, 5, 5]),
        Invalid("import numpy as np\n\ndef f(m):\n    n = np.sqrt(m)\n    return np.arange(3.0).repeat(n)\n",
                expected=None, lines=[4, 5]),
        # a complex base to the integer powers of a NumPy call: NumPy multiplies them out exactly, JAX goes through
        # `exp(k * log(z))` (python-control's phase crossings: `(1J)**np.arange(n)`): unsafe
        Invalid("import numpy as np\n\ndef powers(c):\n    return (1J) ** np.arange(len(c)) * c\n",
                expected="import jax.numpy as jnp\n\ndef powers(c):\n    return (1J) ** jnp.arange(len(c)) * c\n",
                unsafe=True),
        # a module-level tuple of types that several functions test with: not widened from one of them (the others'
        # tests would change), and an array handed to a function testing with it stays NumPy (code review)
        Invalid("import numpy as np\n\nKINDS = (list, np.ndarray)\n\ndef f(a, b):\n    p = np.polyadd(a, b)\n"
                "    return len(p) if isinstance(p, KINDS) else -1\n\ndef g(a):\n    if isinstance(a, KINDS):\n"
                "        a *= 2\n        return None\n    return a * 2\n\ndef h(a, b):\n    p = np.polyadd(a, b)\n"
                "    r = g(p)\n    return p if r is None else r\n",
                expected=None, lines=[6, 7, 16]),
        # NumPy warns or raises `FloatingPointError` under `np.errstate`, JAX never does: the function is left
        # (python-control's `horner` under `errstate(all='warn' if warn else 'ignore')`, a `try` around `divide='raise'`)
        Invalid("import numpy as np\n\ndef ratio(a, b):\n    try:\n        with np.errstate(divide='raise'):\n"
                "            return np.divide(a, b)\n    except FloatingPointError:\n        return np.zeros_like(a)\n",
                expected=None, lines=[5, 6, 7, 8]),
        Invalid("import numpy as np\n\ndef ratio(a, b):\n    try:\n        return np.divide(a, b)\n"
                "    except (ValueError, FloatingPointError):\n        return np.zeros_like(a)\n",
                expected=None, lines=[5, 6, 7]),
        Invalid("import numpy as np\n\ndef ratio(a, b, warn):\n    with np.errstate(all='warn' if warn else 'ignore'):\n"
                "        return np.divide(a, b)\n",
                expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef ratio(a, b):\n    with np.errstate(divide='ignore', invalid='ignore'):\n"
                "        return np.divide(a, b)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef ratio(a, b):\n"
                "    with np.errstate(divide='ignore', invalid='ignore'):\n        return jnp.divide(a, b)\n"),
        # ... also through `max()`/`min()` and a conditional rebinding, or as a slice bound: `int(jnp.sqrt(n))` of a
        # static `n` raises under `jit` (pyod's `get_optimal_n_bins`)
        Invalid("import numpy as np\n\ndef f(x, top=None):\n    n = x.shape[0]\n    if top is None:\n"
                "        top = max(2, int(np.sqrt(n)))\n    k = int(np.ceil(n / 2))\n    return x[:k], np.zeros(top)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, top=None):\n    n = x.shape[0]\n"
                "    if top is None:\n        top = max(2, int(np.sqrt(n)))\n    k = int(np.ceil(n / 2))\n"
                "    return x[:k], jnp.zeros(top)\n",
                lines=[7, 8]),  # `np.sqrt(n)` of `n = x.shape[0]` is a static call, kept unreported
        # a count that repeats a Python list must be a Python int, which a NumPy integer is (pyDOE3's fullfact)
        Invalid("import numpy as np\n\ndef f(x, k):\n    n = np.sum(x > 0)\n    n //= k\n    return [0.0] * n\n",
                expected=None, lines=[4]),
        # read through `.flags` / `.data`, which only NumPy arrays have (pyDOE3's aliasing keys on `.data.tobytes()`)
        Invalid("import numpy as np\n\ndef f(d):\n    c = np.prod(d, axis=1)\n    c.flags.writeable = False\n    return c.data.tobytes()\n",
                expected=None, lines=[4]),
        # `np.exp` of a Python float is a NumPy float scalar, a Python `float`: a JAX array never is (lmfit's dho)
        Invalid("import numpy as np\n\ndef f(x):\n    b = 1.0 - np.exp(-x)\n    if isinstance(b, float):\n        return max(b, 0.5)\n"
                "    return np.maximum(b, 0.5)\n", expected=None, lines=[4, 5, 7]),
        # an exact type test keeps its answer for no JAX array (commpy's GF: `type(x) is np.ndarray`): the array
        # handed to it stays NumPy, and a function testing one it makes is left as it is
        Invalid("import numpy as np\n\ndef describe(x):\n    if type(x) is np.ndarray:\n        return 'array'\n"
                "    return 'other'\n\ndef make(n):\n    return describe(np.zeros(n)), np.sum(np.ones(n))\n\n"
                "def local(n):\n    y = np.ones(n)\n    return type(y) in (np.ndarray, list)\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef describe(x):\n    if type(x) is np.ndarray:\n"
                "        return 'array'\n    return 'other'\n\ndef make(n):\n    return describe(np.zeros(n)), jnp.sum(jnp.ones(n))\n\n"
                "def local(n):\n    y = np.ones(n)\n    return type(y) in (np.ndarray, list)\n",
                lines=[9, 9, 9, 12, 13]),
        Invalid(  # ... also a class's `__init__`, called by the class's name (commpy's `GF(x, m)`)
            "import numpy as np\n\nclass GF:\n    def __init__(self, x, m):\n        if type(x) is np.ndarray:\n"
            "            self.elements = x.astype(int)\n\ndef field(m):\n    return GF(np.arange(2**m), m)\n",
            expected=None, lines=[9]),
        # ... nor is an element of an array made by NumPy, which is a NumPy scalar (commpy's MIMO channel gains)
        Invalid("import numpy as np\n\ndef f(n):\n    h = np.zeros((n, n), complex)\n    return isinstance(h[0, 0], complex)\n",
                expected=None, lines=[4, 5]),
        # NumPy calls `__array__` for `np.asarray(obj)` and takes only a NumPy array back (lmfit's Parameter)
        Invalid("import numpy as np\n\nclass P:\n    def __array__(self, dtype=None):\n        return np.array(self.v)\n",
                expected=None, lines=[5]),
        # ... so what the class stores stays NumPy, and its methods that hand `self` to NumPy too (ase's `Cell`:
        # `np.asarray(self)` in its `dtype` property recursed, `np.linalg.norm(self, axis=1)` raised)
        Invalid("import numpy as np\n\nclass Cell:\n    def __init__(self, a):\n        self.a = np.asarray(a, float)\n\n"
                "    def __array__(self, dtype=None, copy=None):\n        return self.a\n\n"
                "    def lengths(self):\n        return np.linalg.norm(self, axis=1)\n",
                expected=None, lines=[5, 11]),
        # an array built from static values is still an array that later code updates (`.at[...]`, pyswarms)
        Invalid("import numpy as np\n\ndef f(x):\n    s = np.tile(1.0, x.shape)\n    return s * x\n",
                expected="import jax.numpy as jnp\n\ndef f(x):\n    s = jnp.tile(1.0, x.shape)\n    return s * x\n"),
        # NumPy's symmetric-matrix routines read one triangle; jnp's average the matrix with its transpose
        Invalid("import numpy as np\n\ndef f(a, x):\n    g = x.T @ x\n    return np.linalg.eigvalsh(a), np.linalg.eigh(g)\n",
                expected="import jax.numpy as jnp\n\ndef f(a, x):\n    g = x.T @ x\n"
                         "    return jnp.linalg.eigvalsh(a, symmetrize_input=False), jnp.linalg.eigh(g)\n"),
        Invalid("import numpy as np\n\ndef f(a):\n    return np.linalg.cholesky(\n        a,  # lower\n    )\n",
                expected="import jax.numpy as jnp\n\ndef f(a):\n    return jnp.linalg.cholesky(\n        a,  # lower\n"
                         "        symmetrize_input=False,\n    )\n"),
        Invalid(  # NumPy's default pinv cutoff is 1e-15, JAX's 10 * max(M, N) * eps (pyriemann's FGDA: an entry of 9.6e13
            # against 0.17); a cutoff given by position or keyword is the same in both
            "import numpy as np\n\ndef f(a, b):\n    return np.linalg.pinv(a) @ b, np.linalg.pinv(a, 1e-10), np.linalg.pinv(a, rcond=0.1)\n",
            expected="import jax.numpy as jnp\n\ndef f(a, b):\n"
                     "    return jnp.linalg.pinv(a, rtol=1e-15) @ b, jnp.linalg.pinv(a, 1e-10), jnp.linalg.pinv(a, rcond=0.1)\n"),
        Invalid(  # an `isinstance(X, np.ndarray)` whose array path calls a method with a keyword a JAX array's method
            # rejects (`order=`) is not widened where the function stays NumPy: a JAX array would take that path (the
            # code review); the caller's array stays NumPy's
            "import numpy as np\n\ndef prep(X):\n    if isinstance(X, np.ndarray):\n        Y = X.astype(float, order='F')\n"
            "    else:\n        Y = np.array(X, dtype=float, order='F')\n    with np.errstate(divide='raise'):\n"
            "        s = np.log(Y.shape[0])\n    return Y.sum() + s\n\ndef front(n):\n"
            "    X = np.column_stack([np.linspace(0, 1, n), np.linspace(1, 2, n)])\n    return prep(X)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef prep(X):\n    if isinstance(X, np.ndarray):\n"
                     "        Y = X.astype(float, order='F')\n    else:\n        Y = np.array(X, dtype=float, order='F')\n"
                     "    with np.errstate(divide='raise'):\n        s = np.log(Y.shape[0])\n    return Y.sum() + s\n\n"
                     "def front(n):\n    X = np.column_stack([jnp.linspace(0, 1, n), jnp.linspace(1, 2, n)])\n    return prep(X)\n",
        ),
        Invalid(  # ... given `None` or through `**kw`, the cutoffs differ and no number is known: reported
            "import numpy as np\n\ndef f(a, kw):\n    return np.linalg.pinv(a, None) + np.linalg.pinv(a, rtol=None) + np.linalg.pinv(a, **kw)\n",
            expected=None, lines=[4, 4, 4]),
        Invalid("import numpy as np\n\ndef f(a):\n    return np.linalg.cholesky(a, upper=True)\n", unsafe=True,
                expected="import jax.numpy as jnp\n\ndef f(a):\n    return jnp.linalg.cholesky(a, upper=True)\n"),
        # `.view(np.matrix)` makes an array subclass's instance (SciPy's sparse `matrix` helper)
        Invalid("import numpy as np\n\ndef matrix(*args):\n    return np.array(*args).view(np.matrix)\n", expected=None, lines=[4]),
        Invalid(  # ... also through a name (uncertainties' `inverse = np.linalg.inv(arr)`, then `inverse.view(np.matrix)`):
            # a JAX array's `.view` takes a dtype only (`y.view(np.int64)` migrates)
            "import numpy as np\n\nclass Tagged(np.ndarray):\n    pass\n\n"
            "def tagged(x):\n    y = np.exp(x)\n    return y.view(Tagged)\n\n"
            "def typed(x, kind):\n    y = np.exp(x)\n    z = y * 2.0\n    return z.view(type=kind)\n\n"
            "def bits(x):\n    y = np.exp(x)\n    return y.view(np.int64)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Tagged(np.ndarray):\n    pass\n\n"
            "def tagged(x):\n    y = np.exp(x)\n    return y.view(Tagged)\n\n"
            "def typed(x, kind):\n    y = np.exp(x)\n    z = y * 2.0\n    return z.view(type=kind)\n\n"
            "def bits(x):\n    y = jnp.exp(x)\n    return y.view(np.int64)\n",
            lines=[7, 11, 16],
        ),
        Invalid(  # ... a capitalised name only when the module binds it to a class, not to a dtype (`INT = np.int64`)
            "import numpy as np\n\nINT = np.int64\nMatrix = np.matrix\n\n"
            "def bits(x):\n    y = np.exp(x)\n    return y.view(INT)\n\n"
            "def matrix(x):\n    y = np.exp(x)\n    return y.view(Matrix)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nINT = np.int64\nMatrix = np.matrix\n\n"
            "def bits(x):\n    y = jnp.exp(x)\n    return y.view(INT)\n\n"
            "def matrix(x):\n    y = np.exp(x)\n    return y.view(Matrix)\n",
            lines=[7, 11, 12],
        ),
        # a parameter documented as possibly text or a callable: NumPy makes a string or object array of it (SciPy)
        Invalid("import numpy as np\n\nclass Interval:\n    \"\"\"endpoints : 2-tuple of float(s) and/or str(s)\"\"\"\n\n"
                "    def __init__(self, endpoints):\n        a, b = endpoints\n"
                "        self.ends = np.asarray(a)[()], np.asarray(b)[()]\n", expected=None, lines=[8, 8]),
        Invalid("import numpy as np\n\ndef f(x, fill):\n    \"\"\"fill : float or str\"\"\"\n"
                "    return np.sum(x) + np.atleast_1d(fill)\n", expected=None, lines=[5, 5]),
        Invalid("import numpy as np\n\ndef f(u):\n    return np.asarray(u, order='c', dtype=float).sum()\n",
                expected="import jax.numpy as jnp\n\ndef f(u):\n    return jnp.asarray(u, dtype=float).sum()\n"),
        # a buffer another function fills in place (or a compiled module): the caller stays NumPy
        Invalid("import numpy as np\n\ndef _fill(out, v):\n    out[:] = v\n\ndef f(x, v):\n    out = np.empty(3)\n"
                "    _fill(out, v)\n    return out + np.sum(x)\n", expected=None, lines=[7, 8, 9]),
        Invalid("import numpy as np\nfrom . import _lbfgsb\n\ndef f(x):\n    wa = np.zeros(8)\n    _lbfgsb.setulb(x, wa)\n"
                "    return wa.sum() + np.sum(x)\n", expected=None, lines=[5, 6, 7]),
        Invalid(  # ... as an item of a list the callee hands on item by item (pywt's `waverec(coeffs)` giving
            # `coeffs[0]`, `coeffs[1:]` to its compiled `idwt`): a display of it, or a name bound to one
            "import numpy as np\nfrom ._ext import combine\n\ndef rebuild(coeffs):\n    out = coeffs[0]\n"
            "    for c in coeffs[1:]:\n        out = combine(out, c)\n    return out\n\ndef split(x):\n"
            "    low = np.zeros_like(x)\n    return rebuild([low, x - low])\n\ndef pairs(x):\n"
            "    high = np.ones_like(x)\n    parts = (x, high)\n    return rebuild(parts)\n",
            expected=None, lines=[11, 12, 15, 17]),
        Invalid(  # ... a display holding the NumPy call itself (`rebuild([np.zeros_like(x), x])`)
            "import numpy as np\nfrom ._ext import combine\n\ndef rebuild(coeffs):\n    return combine(coeffs[0], coeffs[1])\n\n"
            "def split(x):\n    return rebuild([np.zeros_like(x), x])\n",
            expected=None, lines=[8, 8]),
        Invalid(  # ... through a name bound to it, or to `functools.partial` of it given keywords (pywt's `mra`:
            # `inverse = partial(waverec, **kwargs)`, `tmp = [np.zeros_like(c) for c in coeffs]`, `inverse(tmp)`)
            "import numpy as np\nfrom functools import partial\nfrom ._ext import combine\n\n"
            "def rebuild(coeffs, scale=1):\n    return combine(coeffs[0], coeffs[1])\n\ndef split(x, swt):\n"
            "    if swt:\n        inverse = partial(rebuild, scale=2)\n    else:\n        inverse = rebuild\n"
            "    tmp = [np.zeros_like(c) for c in (x, x)]\n    tmp[0] = x\n    return inverse(tmp)\n",
            expected=None, lines=[13, 15]),
        Invalid(  # ... unpacked, or added up and handed to `scipy.fftpack` (which reads `.flags`)
            "import numpy as np\nfrom scipy import fftpack as fp\n\ndef rebuild(coeffs):\n    return fp.ifft(sum(coeffs))\n\n"
            "def pair(ab):\n    a, b = ab\n    return fp.ifft(a + b)\n\ndef split(x):\n    low = np.zeros_like(x)\n"
            "    return rebuild([low, x - low]) + pair([low, x])\n",
            expected=None, lines=[12, 13]),
        Invalid(  # ... or to a parameter the callee computes such a buffer from (lenstronomy's NFW: `x = R / Rs`, `_h(x)`)
            "import numpy as np\n\ndef _h(X):\n    X[X <= 1e-6] = 1e-6\n    return X\n\ndef potential(R, Rs):\n"
            "    x = R / Rs\n    return _h(x)\n\ndef function(x, y, Rs):\n    R = np.sqrt(x**2 + y**2)\n"
            "    return potential(R, Rs)\n",
            expected=None, lines=[9, 12, 13],
        ),
        Invalid(  # ... through a NumPy call and an array's method, handed on as arithmetic or a view (lenstronomy)
            "import numpy as np\n\ndef _h(X):\n    X[X <= 1e-6] = 1e-6\n    return X\n\ndef summed(R):\n"
            "    x = np.sum(R, axis=0).reshape(-1)\n    return _h(x * 2)\n\ndef outer(a):\n    b = np.exp(a)\n"
            "    return summed(b[1:])\n",
            expected=None, lines=[8, 9, 12, 13],
        ),
        Invalid(  # a write into what a function returns, a view of its parameter, writes into the array given to it
            # (GPy's `_unscaled_dist`: `diag.view(r2)[:] = 0.0`, with `view` returning `as_strided(A, ...)`)
            "import numpy as np\nfrom numpy.lib.stride_tricks import as_strided\n\ndef diag_view(A):\n"
            "    return as_strided(A, shape=(A.shape[0],), strides=((A.shape[0] + 1) * A.itemsize,))\n\n"
            "def sq_dist(X):\n    sq = np.sum(np.square(X), 1)\n    r2 = sq[:, None] + sq[None, :]\n"
            "    diag_view(r2)[:] = 0.0\n    return r2\n",
            expected=None, lines=[5, 8, 8, 10],
        ),
        Invalid(  # ... through a name bound to it too; a call whose result is only read is migrated
            "import numpy as np\n\ndef first(A):\n    return A.T[0]\n\ndef bump(X):\n    K = np.exp(X)\n    d = first(K)\n"
            "    d += 2.0\n    return K\n\ndef total(X):\n    return np.sum(first(np.exp(X)))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef first(A):\n    return A.T[0]\n\ndef bump(X):\n    K = np.exp(X)\n"
            "    d = first(K)\n    d += 2.0\n    return K\n\ndef total(X):\n    return jnp.sum(first(jnp.exp(X)))\n",
            lines=[7, 8, 13, 13],
        ),
        Invalid(  # ... a view made by a NumPy function (`jnp.swapaxes` copies), written by `+=` through a name: it
            # would silently rebind the name, leaving `y` as it was (sporco's `block0`), or into an item (TypeError)
            "import numpy as np\n\ndef block0(y):\n    return np.swapaxes(y[:, 0:2], 0, 1)\n\n"
            "def add(y, s):\n    v = block0(y)\n    v += s\n    return y\n\ndef put(y, s):\n    block0(y)[:] += s\n"
            "    return y\n",
            expected=None, lines=[4, 4],
        ),
        Invalid(  # a name rebound to a method that is also a NumPy function (`y.reshape(n)`): followed once, not
            # forever (the view check crashed on lenstronomy's gnfw and GPy's linalg)
            "import numpy as np\n\ndef flat(a, n):\n    y = np.exp(a)\n    y = y.reshape(n)\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef flat(a, n):\n    y = jnp.exp(a)\n    y = y.reshape(n)\n    return y\n",
            lines=[4],
        ),
        Invalid(  # an array made here handed to a helper that hands its parameter to `scipy.fftpack` (which reads
            # `.flags`: sporco's `dctii`); the helper's result handed on is only read
            "import numpy as np\nfrom scipy import fftpack\n\ndef dctii(x):\n    return fftpack.dct(x, norm='ortho')\n\n"
            "def smooth(s):\n    y = np.asarray(s, dtype=float)\n    return dctii(y)\n",
            expected=None, lines=[8, 9],
        ),
        Invalid(  # the shape `s` of an FFT function of another library stays NumPy: pyfftw's cache hashes it (a JAX
            # array is unhashable: sporco's `fftconv`)
            "import numpy as np\nimport pyfftw.interfaces.numpy_fft as fftw\n\ndef fftconv(a, b, axes):\n"
            "    dims = np.maximum([a.shape[i] for i in axes], [b.shape[i] for i in axes])\n"
            "    return fftw.rfftn(a, dims, axes)\n",
            expected=None, lines=[5],
        ),
        # in-place NumPy functions: the write stays, so the function stays NumPy (no rename here either)
        Invalid("import numpy as np\n\ndef f(y, m):\n    y = np.zeros(3)\n    np.place(y, m, 1.0)\n    return y\n", expected=None, lines=[4, 5]),
        Invalid("import numpy as np\n\ndef f(d):\n    d = np.abs(d)\n    np.sqrt(d, d)\n    return d\n", expected=None, lines=[4, 5]),
        Invalid(  # a slice of a shape tuple stays a Python value: `jnp.prod` rejects a tuple (findiff's index tuples)
            "import numpy as np\n\ndef f(i, shape):\n    s = np.prod(shape[1:])\n    return np.floor(i / s)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(i, shape):\n    s = np.prod(shape[1:])\n"
                     "    return jnp.floor(i / s)\n",
            lines=[5]),
        Invalid(  # ... and so is a local name bound to a shape, a slice of one or tuple arithmetic of them (mne's
            # `signal_shape = X.shape[:-1]`, then `np.prod(signal_shape) == 0`)
            "import numpy as np\n\ndef f(a):\n    lead = a.shape[1:]\n    full = (2,) + lead\n    if np.prod(full) > 8:\n"
            "        return np.sum(a)\n    return np.ones(full) * np.prod(lead[1:])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(a):\n    lead = a.shape[1:]\n    full = (2,) + lead\n"
                     "    if np.prod(full) > 8:\n        return jnp.sum(a)\n    return jnp.ones(full) * np.prod(lead[1:])\n",
            lines=[7, 8]),
        Invalid(  # an in-place operator called by name is a write (GPy's `Add.gradients_X`: `target.__iadd__(...)`)
            "import numpy as np\n\ndef f(parts):\n    target = np.zeros(3)\n    [target.__iadd__(p) for p in parts]\n"
            "    return target\n",
            expected=None, lines=[4]),
        Invalid(  # ... and so is `__setitem__`, on a helper's result or a parameter (GPy's `MultioutputKern.K`)
            "import numpy as np\n\ndef empty(n):\n    return np.zeros((n, n)) + 1.0\n\ndef put(t, v):\n"
            "    t.__setitem__((0, 1), v)\n\ndef f(n, v):\n    target = empty(n)\n    target.__setitem__((0, 1), v)\n"
            "    s = np.ones((n, n)) * 2\n    put(s, v)\n    return target, s\n",
            expected=None, lines=[4, 4, 12, 13]),
        Invalid(  # an in-place method JAX arrays lack (spectrum's ARMA estimate: `Y.resize(lag, refcheck=False)`)
            "import numpy as np\n\ndef f(R, lag, n):\n    Y = np.zeros(n)\n    Y[0] = R[0]\n    Y.resize(lag, refcheck=False)\n"
            "    return Y\n",
            expected=None, lines=[4]),
        Invalid(  # ... or a parameter a call in the module passes text (colorspacious' `safe_equal(white, "D65")`)
            "import numpy as np\n\ndef same(a, b):\n    return np.array_equal(a, b), np.sum(a)\n\n"
            "def is_d65(w):\n    return same(w, \"D65\")\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef same(a, b):\n    return np.array_equal(a, b), jnp.sum(a)\n\n"
                     "def is_d65(w):\n    return same(w, \"D65\")\n",
            lines=[4, 4]),
        Invalid(  # the same through a copy bound to the name
            "import numpy as np\n\ndef f(R, lag):\n    Y = np.array(R, dtype=float)\n    Y = Y.copy()\n"
            "    Y.resize(lag, refcheck=False)\n    return Y\n",
            expected=None, lines=[4]),
        Invalid(  # text where `jax.numpy` takes numbers only: the comparison stays NumPy (colorspacious' whitepoints)
            "import numpy as np\n\ndef f(w, x):\n    named = np.array_equal(w, \"D65\")\n    return named, np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(w, x):\n    named = np.array_equal(w, \"D65\")\n"
                     "    return named, jnp.sum(x)\n",
            lines=[4, 5]),
        Invalid(  # a mapping's keys are names, most often: `np.argsort(ks)` sorts text (pygam's parameter repr)
            "import numpy as np\n\ndef f(params):\n    ks = list(params.keys())\n    return [ks[i] for i in np.argsort(ks)]\n",
            expected=None, lines=[5]),
        Invalid(  # text NumPy makes (`np.array2string` of each row, `np.char`), a list of displays of names bound to
            # text, a mapping's keys handed over directly: string arrays, which `jax.numpy` rejects (ordpy's networks)
            "import numpy as np\n\ndef rows(m):\n    t = np.apply_along_axis(np.array2string, 1, m)\n    return np.unique(t)\n\n"
            "def rows2(m):\n    return np.sort(np.vectorize(str)(m)), np.sum(np.char.upper(np.asarray(['a'])))\n\n"
            "def pairs(n):\n    out = []\n    for i in range(n):\n        key = '-'.join([str(i), str(i + 1)])\n"
            "        out.append((key, [key]))\n    return np.unique(out), np.ones(n)\n\n"
            "def names(table, x):\n    return np.asarray(sorted(table.keys())), np.sum(x)\n",
            expected=None,
            lines=[4, 5, 8, 8, 8, 8, 8, 15, 15, 18, 18],
        ),
        Invalid(  # the array is cast to text at once (tslearn's arff labels)
            "import numpy as np\n\ndef f(y_):\n    y = np.array(y_).astype(\"str\")\n    return y, np.sum(y_)\n",
            expected=None, lines=[4, 5]),
        Invalid(  # ... or later, through its name
            "import numpy as np\n\ndef f(y_):\n    y = np.asarray(y_)\n    return y.astype(object)\n",
            expected=None, lines=[4]),
        Invalid(  # viewed as a record layout (a dict of names and formats, a list of (name, type) pairs, made by
            # `np.dtype` or a comprehension): rows compared as records, which JAX has no dtype for (`view` raises)
            "import numpy as np\n\ndef common(a, b):\n    a = np.asarray(a)\n    k = a.shape[1]\n"
            "    rec = {'names': ['c%d' % i for i in range(k)], 'formats': k * [a.dtype]}\n"
            "    return np.intersect1d(a.view(rec), np.asarray(b).view(rec))\n\n"
            "def pairs(a, n):\n    t = np.dtype([(str(i), a.dtype) for i in range(n)])\n    return np.unique(np.abs(a).view(dtype=t))\n\n"
            "def plain(a):\n    return np.sum(a.view(np.ndarray))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef common(a, b):\n    a = np.asarray(a)\n    k = a.shape[1]\n"
            "    rec = {'names': ['c%d' % i for i in range(k)], 'formats': k * [a.dtype]}\n"
            "    return np.intersect1d(a.view(rec), np.asarray(b).view(rec))\n\n"
            "def pairs(a, n):\n    t = np.dtype([(str(i), a.dtype) for i in range(n)])\n    return np.unique(np.abs(a).view(dtype=t))\n\n"
            "def plain(a):\n    return jnp.sum(a.view(np.ndarray))\n",
            lines=[4, 7, 7, 10, 11, 11, 14],
        ),
        Invalid(  # its dtype kind is tested letting text through, which is then made numbers (pygam's `check_array`)
            "import numpy as np\n\ndef f(a):\n    a = np.array(a)\n    if a.dtype.kind not in [\"i\", \"f\"]:\n"
            "        a = a.astype(\"float\")\n    return a\n",
            expected=None, lines=[4]),
        Invalid(  # a test for numeric kinds only says nothing of text: migrated
            "import numpy as np\n\ndef f(a):\n    a = np.array(a)\n    return a if a.dtype.kind == \"f\" else a * 2\n",
            expected="import jax.numpy as jnp\n\ndef f(a):\n    a = jnp.array(a)\n    return a if a.dtype.kind == \"f\" else a * 2\n",
            lines=[4]),
        Invalid(  # a SciPy sparse matrix given to a NumPy ufunc, and a NumPy array given to a sparse constructor
            # (pygam's penalties: `sp.diags(np.ones(m) * np.sqrt(eps))`); the sum elsewhere is migrated
            "import numpy as np\nimport scipy.sparse as sp\n\ndef f(lam, x):\n    P = sp.csc_matrix(np.eye(3))\n"
            "    return np.multiply(P, lam), np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nimport scipy.sparse as sp\n\ndef f(lam, x):\n"
            "    P = sp.csc_matrix(np.eye(3))\n    return np.multiply(P, lam), jnp.sum(x)\n",
            lines=[5, 6, 6]),
        Invalid(  # ... through a name, and with `import scipy`
            "import numpy as np\nimport scipy\n\ndef f(m, eps):\n    d = np.ones(m) * eps\n    return scipy.sparse.diags(d)\n",
            expected=None, lines=[5]),
        Invalid(  # a function of the module checks that its argument is of a NumPy type and raises otherwise
            # (nevergrad's scalar bounds: `isinstance(value, (float, int, np.float64))`)
            "import numpy as np\n\ndef scalar(v):\n    if not isinstance(v, (float, int, np.float64)):\n"
            "        raise TypeError(\"not a scalar\")\n    return v\n\ndef lower(x):\n    b = np.log(x)\n"
            "    return scalar(b[0]), np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef scalar(v):\n    if not isinstance(v, (float, int, np.float64)):\n"
            "        raise TypeError(\"not a scalar\")\n    return v\n\ndef lower(x):\n    b = np.log(x)\n"
            "    return scalar(b[0]), jnp.sum(x)\n",
            lines=[9, 10]),
        Invalid(  # an attribute written into through a local name bound to it (ase's `DisjointSet`)
            "import numpy as np\n\nclass D:\n    def __init__(self, n):\n        self.parents = np.arange(n)\n\n"
            "    def union(self, i, j):\n        p = self.parents\n        p[i] = j\n",
            expected=None, lines=[5, 5]),
        Invalid(  # a method's result, which module-level code writes into (ase's `p = atoms.get_momenta(); p[0] = 1`)
            "import numpy as np\n\nclass A:\n    def momenta(self, n):\n        return np.zeros((n, 3))\n\n"
            "p = A().momenta(2)\np[0, 0] = 1.0\n",
            expected=None, lines=[5, 5]),
        Invalid(  # an attribute the class hands to a numba-compiled function (tslearn's PAA distances)
            "import numpy as np\nfrom numba import njit\n\n@njit\ndef norm(a, dims):\n    return a * dims[0]\n\n"
            "class PAA:\n    def fit(self, X):\n        self.dims = np.array(X.shape)\n        return self\n\n"
            "    def distance(self, a):\n        return norm(a, self.dims)\n",
            expected=None, lines=[10, 10]),
        Invalid(  # pandas imported inside a function: any value in the module may be a DataFrame (tslearn's utils)
            "import numpy as np\n\ndef f(X):\n    import pandas as pd\n    return np.zeros(len(X)), pd.DataFrame(X)\n",
            expected="import jax.numpy as jnp\n\ndef f(X):\n    import pandas as pd\n    return jnp.zeros(len(X)), pd.DataFrame(X)\n",
            unsafe=True, lines=[5]),
        Invalid(  # `out` by position in a function's signature (ruptures' rbf cost: `np.clip(K, lo, hi, K)`)
            "import numpy as np\n\ndef f(K, g):\n    K = np.abs(K * g)\n    np.clip(K, 1e-2, 1e2, K)\n    return np.exp(-K)\n",
            expected=None, lines=[4, 5, 6]),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    return np.sum(np.exp(x))  # total\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sum(jnp.exp(x))  # total\n",
        ),
        Invalid(
            "import numpy as np\nfrom numpy import dot, linalg\n\nI = np.eye(2)\n\n"
            "def f(a, b):\n    return linalg.norm(dot(a, b))\n",
            expected=(
                "import jax.numpy as jnp\nimport numpy as np\n\nI = np.eye(2)\n\n"
                "def f(a, b):\n    return jnp.linalg.norm(jnp.dot(a, b))\n"
            ),
        ),
        Invalid("import numpy as np\n\ndef f(x, y):\n    return np.shares_memory(x, y)\n", expected=None, lines=[4]),
        Invalid(
            "import numpy as np\n\ndef f(A, b):\n    try:\n        x = np.linalg.solve(A, b)\n"
            "    except np.linalg.LinAlgError:\n        x = np.zeros(2)\n    return x\n",
            expected=None, lines=[5, 7],  # the rename in the handler is held back with it
        ),
        Invalid(  # ... also in a function that a caller of the module calls in such a `try` (the caller's handler
            # expects the callee's NumPy `LinAlgError`)
            "import numpy as np\n\ndef solve(a, b):\n    return np.linalg.solve(a, b)\n\n"
            "def safe(a, b):\n    try:\n        return solve(a, b)\n    except np.linalg.LinAlgError:\n        return None\n",
            expected=None, lines=[4],
        ),
        Invalid(
            "import numpy as np\n\ndef f(x, c):\n    x = np.asarray(x)\n    if isinstance(x, np.ndarray):\n"
            "        c = c.reshape(c.shape + (1,) * x.ndim)\n    return c * x\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x, c):\n    x = jnp.asarray(x)\n"
                     "    if isinstance(x, (np.ndarray, jax.Array)):\n        c = c.reshape(c.shape + (1,) * x.ndim)\n"
                     "    return c * x\n",
        ),
        Invalid(  # `np.dot` of two vectors is a NumPy scalar, no array, so the original skips the branch; `jnp.dot` gives a
            # 0-d JAX array: widening the test would run it (pwlf's `ssr`, a NaN replaced silently). The number of
            # dimensions keeps the answer: NumPy gives such a result as a scalar exactly when it is 0-d
            "import numpy as np\n\ndef ssr_of(r, e):\n    ssr = np.dot(r, r)\n    if isinstance(ssr, np.ndarray):\n"
            "        ssr = ssr.sum()\n    elif not isinstance(ssr * 2, np.ndarray) == True:\n        ssr = ssr + np.dot(e, e)\n"
            "    return ssr\n",
            expected="import jax.numpy as jnp\n\ndef ssr_of(r, e):\n    ssr = jnp.dot(r, r)\n"
                     "    if jnp.ndim(ssr) > 0:\n        ssr = ssr.sum()\n    elif not (jnp.ndim(ssr * 2) > 0) == True:\n"
                     "        ssr = ssr + jnp.dot(e, e)\n    return ssr\n",
        ),
        Invalid(  # an item of `np.split`'s list is an array, or a list where the key is a slice: widened, not `jnp.ndim`
            # (skfda's `_coordinate_nonfull`: `jnp.ndim(list) > 0` was True, and a list came back unjoined)
            "import numpy as np\n\ndef pick(c, key):\n    parts = list(np.split(c, 2, axis=1))\n    new = parts[key]\n"
            "    if not isinstance(new, np.ndarray):\n        new = np.concatenate(new, axis=1)\n    return new\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef pick(c, key):\n"
                     "    parts = list(jnp.split(c, 2, axis=1))\n    new = parts[key]\n"
                     "    if not isinstance(new, (np.ndarray, jax.Array)):\n        new = jnp.concatenate(new, axis=1)\n"
                     "    return new\n",
        ),
        Invalid(  # an item of a list of an array's rows: an element at an integer key (`jnp.ndim`), a list at a slice
            # (widened); at a key that may be either, neither test keeps the answer: the function is left as it is
            "import numpy as np\n\ndef first(x):\n    rows = list(np.cumsum(x, axis=0))\n    r = rows[-1]\n"
            "    return r * 2 if isinstance(r, np.ndarray) else r\n\n"
            "def head(x):\n    rows = list(np.cumsum(x, axis=0))\n    r = rows[:2]\n"
            "    return r if isinstance(r, np.ndarray) else len(r)\n\n"
            "def pick(x, key):\n    rows = list(np.cumsum(x, axis=0))\n    r = rows[key]\n"
            "    return r if isinstance(r, np.ndarray) else len(r)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef first(x):\n"
                     "    rows = list(jnp.cumsum(x, axis=0))\n    r = rows[-1]\n    return r * 2 if jnp.ndim(r) > 0 else r\n\n"
                     "def head(x):\n    rows = list(jnp.cumsum(x, axis=0))\n    r = rows[:2]\n"
                     "    return r if isinstance(r, (np.ndarray, jax.Array)) else len(r)\n\n"
                     "def pick(x, key):\n    rows = list(np.cumsum(x, axis=0))\n    r = rows[key]\n"
                     "    return r if isinstance(r, np.ndarray) else len(r)\n",
        ),
        Invalid(  # an array the function writes text into by index (directly, or through a name bound to text): NumPy
            # parses it into numbers, a JAX array's `.at[].set` raises `TypeError` (astroML's readers of text files)
            "import numpy as np\n\ndef parse(lines):\n    res = np.zeros((len(lines), 3), dtype=int)\n"
            "    for i, line in enumerate(lines):\n        res[i] = line.strip().split(',')\n    return res\n\n"
            "def parse2(lines):\n    out = np.empty(len(lines))\n    for i, line in enumerate(lines):\n"
            "        parts = line.split()\n        out[i] = parts[0] if parts else 'nan'\n    return out\n",
            expected=None, lines=[4, 10],
        ),
        Invalid(  # ... where the value may also be an array NumPy gives as one when 0-d (`np.asarray`), or the test also
            # accepts another type, no test keeps the answer: the function is left as it is
            "import numpy as np\n\ndef f(x, flat):\n    v = np.sum(x) if flat else np.asarray(x)\n"
            "    if isinstance(v, np.ndarray):\n        v = v[0]\n    return v\n\n"
            "def g(x):\n    v = np.max(x, axis=0)\n    if isinstance(v, (np.ndarray, list)):\n        v = v[0]\n    return v\n",
            expected=None, lines=[4, 5, 10, 11],
        ),
        Invalid(  # ... and where the value is held by an attribute (stored elsewhere too) or bound in the test itself
            # (code review: both were widened, and `self.ssr` took the array branch: `inf` for NumPy's 5.0)
            "import numpy as np\n\nclass Fit:\n    def ssr_of(self, r):\n        self.ssr = np.dot(r, r)\n"
            "        if isinstance(self.ssr, np.ndarray):\n            self.ssr = np.inf\n        return self.ssr\n\n"
            "def walrus(r):\n    if isinstance(s := np.dot(r, r), np.ndarray):\n        return s[0]\n    return s\n",
            expected=None, lines=[5, 6, 11],
        ),
        Invalid(  # `jnp.histogram` counts in floats, NumPy in integers (`print(counts)` shows `3.0`, `range(counts[0])`
            # raises); with `density=True` both are floats (pwlf and astroML bin their data)
            "import numpy as np\n\ndef f(x):\n    counts, edges = np.histogram(x, 5)\n    return counts\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    counts, edges = jnp.histogram(x, 5)\n    return counts\n",
            unsafe=True, lines=[4],
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    return np.histogram(x, 5, density=True)[0]\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.histogram(x, 5, density=True)[0]\n",
        ),
        Invalid(  # arithmetic with `finfo(...).tiny` makes subnormals, which XLA on CPU flushes to zero: a log of
            # them is -inf, where NumPy's is finite (pysal's Theil index became NaN): the function stays NumPy; a clamp
            # (`np.maximum(p, TINY)`) gives a normal number, and migrates
            "import numpy as np\n\nTINY = np.finfo(float).tiny\n\ndef theil(y):\n    y = y + TINY * (y == 0)\n"
            "    s = y / np.sum(y)\n    return np.sum(s * np.log(len(y) * s))\n\n"
            "def entropy(p):\n    return -np.sum(p * np.log(np.maximum(p, TINY)))\n\n"
            "def local(y):\n    small = np.finfo(y.dtype).tiny\n    p = np.maximum(y, small)\n    return np.log(p / np.sum(p))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nTINY = np.finfo(float).tiny\n\ndef theil(y):\n"
            "    y = y + TINY * (y == 0)\n    s = y / np.sum(y)\n    return np.sum(s * np.log(len(y) * s))\n\n"
            "def entropy(p):\n    return -jnp.sum(p * jnp.log(jnp.maximum(p, TINY)))\n\n"
            "def local(y):\n    small = np.finfo(y.dtype).tiny\n    p = np.maximum(y, small)\n    return np.log(p / np.sum(p))\n",
            lines=[7, 8, 11, 15, 16],
        ),
        Invalid(  # XLA on CPU flushes subnormals to zero: `jnp.nextafter(0.0, inf)` compares equal to 0 (SciPy's
            # interp1d 'next' kind shifts its points by one ulp before a searchsorted)
            "import numpy as np\n\ndef after(t, q):\n    up = np.nextafter(t, np.inf)\n    return np.searchsorted(up, q), np.spacing(q)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef after(t, q):\n    up = jnp.nextafter(t, np.inf)\n"
            "    return jnp.searchsorted(up, q), jnp.spacing(q)\n",
            unsafe=True, lines=[4, 5, 5],
        ),
        Invalid(  # `jnp.frexp` splits a subnormal as XLA flushed it ((0.5, -1074) for 1e-310, NumPy (0.576, -1029)):
            # exponents compared to tell magnitudes apart are wrong (SciPy's toms748); `jnp.ldexp(1.0, -1070)` is 0
            "import numpy as np\n\ndef apart(v, k):\n    exps = np.frexp(v)[1]\n    return exps[0] < exps[1] - k\n\n"
            "def scaled(m, e):\n    return np.ldexp(m, e) * np.ones(3)\n\ndef total(x):\n    return np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef apart(v, k):\n    exps = np.frexp(v)[1]\n"
            "    return exps[0] < exps[1] - k\n\ndef scaled(m, e):\n    return np.ldexp(m, e) * np.ones(3)\n\n"
            "def total(x):\n    return jnp.sum(x)\n",
            lines=[4, 8, 8, 11],
        ),
        Invalid(  # ... and the function's other calls stay NumPy with it: `jnp.searchsorted` of the NumPy result
            # would flush its subnormals too
            "import numpy as np\n\ndef after(t, q):\n    up = np.nextafter(t, np.inf)\n    return np.searchsorted(up, q)\n\n"
            "def total(x):\n    return np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef after(t, q):\n    up = np.nextafter(t, np.inf)\n"
            "    return np.searchsorted(up, q)\n\ndef total(x):\n    return jnp.sum(x)\n",
            lines=[4, 5, 8],
        ),
        Invalid(  # NumPy accumulates narrow integers in the platform integer, jnp.cumsum in their own dtype (a uint8
            # running sum wraps at 256): the dtype is asked for; bool (accumulated in int by both) and a dtype given stay
            "import numpy as np\n\ndef tally(n, m):\n    hits = np.zeros(n, dtype=np.uint8) + 3\n"
            "    marks = np.ones(m, dtype='int16')\n    ok = hits > 1\n"
            "    return np.cumsum(hits), np.nancumprod(marks, 0), np.cumsum(ok), np.cumprod(marks, 0, np.int32)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef tally(n, m):\n    hits = jnp.zeros(n, dtype=np.uint8) + 3\n"
            "    marks = jnp.ones(m, dtype='int16')\n    ok = hits > 1\n"
            "    return jnp.cumsum(hits, dtype=jnp.uint), jnp.nancumprod(marks, 0, dtype=int), jnp.cumsum(ok), "
            "jnp.cumprod(marks, 0, np.int32)\n",
        ),
        Invalid(  # ... and so do the array methods: a JAX array's `.cumsum()` of uint8 wraps at 256 (code review)
            "import numpy as np\n\ndef tally(n):\n    hits = np.full(n, 200, dtype=np.uint8)\n    marks = np.ones(n, dtype=np.int8)\n"
            "    return hits.cumsum(), marks.cumprod(axis=0), marks.cumsum(0, int)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef tally(n):\n    hits = jnp.full(n, 200, dtype=np.uint8)\n"
            "    marks = jnp.ones(n, dtype=np.int8)\n"
            "    return hits.cumsum(dtype=jnp.uint), marks.cumprod(axis=0, dtype=int), marks.cumsum(0, int)\n",
        ),
        Invalid(  # np.vander of narrow integers computes its powers in int64, jnp.vander in their dtype (200 ** 2 of
            # uint8 is 64; bool raises)
            "import numpy as np\n\ndef basis(n):\n    k = np.arange(n).astype(np.uint8)\n    return np.vander(k, 3)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef basis(n):\n    k = jnp.arange(n).astype(np.uint8)\n"
            "    return jnp.vander(jnp.asarray(k, dtype=int), 3)\n",
        ),
        Invalid(  # jnp.searchsorted casts a Python number to the sorted array's dtype (300 against uint8 levels is
            # 44): unsafe unless the query fits or is an array of a known dtype
            "import numpy as np\n\ndef rank(x, q):\n    lv = x.astype(np.uint8)\n"
            "    return np.searchsorted(lv, 300), np.searchsorted(lv, q), np.digitize(-1, lv)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef rank(x, q):\n    lv = x.astype(np.uint8)\n"
            "    return jnp.searchsorted(lv, 300), jnp.searchsorted(lv, q), jnp.digitize(-1, lv)\n",
            unsafe=True, lines=[5],
        ),
        Invalid(  # ... a query that fits, an array of a known dtype, or a float (promoted, as NumPy does)
            "import numpy as np\n\ndef rank(x):\n    lv = x.astype(np.uint8)\n"
            "    return np.searchsorted(lv, 7), np.searchsorted(lv, np.int64(300)), np.searchsorted(lv, 2.5), "
            "np.digitize(np.int64(300), lv)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef rank(x):\n    lv = x.astype(np.uint8)\n"
            "    return jnp.searchsorted(lv, 7), jnp.searchsorted(lv, np.int64(300)), jnp.searchsorted(lv, 2.5), "
            "jnp.digitize(np.int64(300), lv)\n",
        ),
        Invalid(  # forwarded `**kwargs` (or `*args` past a ufunc's inputs) may carry `out=`, `where=`: unsafe (SciPy's
            # softplus forwards its `**kwargs` to np.logaddexp)
            "import numpy as np\n\ndef soft(x, *rest, **kw):\n    return np.logaddexp(0, x, **kw), np.add(x, 1, *rest)\n",
            expected="import jax.numpy as jnp\n\ndef soft(x, *rest, **kw):\n    return jnp.logaddexp(0, x, **kw), jnp.add(x, 1, *rest)\n",
            unsafe=True, lines=[4],
        ),
        Invalid(  # ... a dict made here is known, and `*args` as the inputs are the inputs
            "import numpy as np\n\ndef soft(x, *rest):\n    opts = dict(axis=0)\n    return np.sum(x, **opts), np.maximum(*rest)\n",
            expected="import jax.numpy as jnp\n\ndef soft(x, *rest):\n    opts = dict(axis=0)\n"
            "    return jnp.sum(x, **opts), jnp.maximum(*rest)\n",
        ),
        Invalid(  # real roots come back complex from jnp.roots
            "import numpy as np\n\ndef f(c):\n    return np.roots(c)\n",
            expected="import jax.numpy as jnp\n\ndef f(c):\n    return jnp.roots(c)\n",
            unsafe=True,
        ),
        Invalid(  # masked arrays have no JAX counterpart: the whole function stays NumPy
            "import numpy as np\n\ndef f(x, lo):\n    m = np.ma.masked_less(x, lo)\n    return np.sum(m)\n",
            expected="import numpy as np\n\ndef f(x, lo):\n    m = np.ma.masked_less(x, lo)\n    return np.sum(m)\n",
            lines=[4, 5],
        ),
        Invalid(  # nor have matrices, whose `*` is a matrix product: `jnp.eye(n) - m` is a plain array, so the `*` after it
            # would multiply elementwise (uncertainties' `np.asmatrix`); a function testing for one is left too
            "import numpy as np\n\ndef pinv_term(arr):\n    inverse_mat = np.asmatrix(np.linalg.pinv(arr))\n"
            "    factor22 = np.eye(arr.shape[0]) - arr * inverse_mat\n    return inverse_mat * factor22\n\n"
            "def solve(a, b):\n    if isinstance(a, np.matrix):\n        return np.dot(a, b)\n    return np.sum(b)\n",
            expected=None,
            lines=[4, 4, 5, 9, 10, 11],
        ),
        Invalid(  # ... also one given a matrix by a function of the module that returns one, through others in turn
            # (`m = passed(a)`, then `np.eye(2) - m`)
            "import numpy as np\n\ndef as_matrix(x):\n    return np.asmatrix(x)\n\ndef passed(a):\n    return as_matrix(a)\n\n"
            "def term(a):\n    m = passed(a)\n    f = np.eye(2) - m\n    return m * f\n\ndef plain(a):\n    return np.sum(a)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef as_matrix(x):\n    return np.asmatrix(x)\n\n"
            "def passed(a):\n    return as_matrix(a)\n\n"
            "def term(a):\n    m = passed(a)\n    f = np.eye(2) - m\n    return m * f\n\ndef plain(a):\n    return jnp.sum(a)\n",
            lines=[4, 7, 10, 11, 15],
        ),
        Invalid(  # ... but not one that only makes a parameter a plain array first (`a = np.asarray(a)`: `jnp.asarray(a)` is
            # one too), unless another name may hold the matrix (`b = a * a` before the test)
            "import numpy as np\n\ndef total(a):\n    if isinstance(a, np.matrix):\n        a = np.asarray(a)\n"
            "    return np.sum(a * a, axis=0)\n\ndef early(a):\n    b = a * a\n    if isinstance(a, np.matrix):\n"
            "        a = np.asarray(a)\n    return np.sum(b)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef total(a):\n    if isinstance(a, np.matrix):\n"
            "        a = jnp.asarray(a)\n    return jnp.sum(a * a, axis=0)\n\ndef early(a):\n    b = a * a\n"
            "    if isinstance(a, np.matrix):\n        a = np.asarray(a)\n    return np.sum(b)\n",
            lines=[5, 6, 10, 11, 12],
        ),
        Invalid(  # ... nor one calling a function that reads a matrix only for its size (`n = m.shape[0]`, a number)
            "import numpy as np\n\ndef size_of(a):\n    m = np.asmatrix(a)\n    n = m.shape[0]\n    return np.zeros(n)\n\n"
            "def use(a):\n    z = size_of(a)\n    return np.sum(z ** 2)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef size_of(a):\n    m = np.asmatrix(a)\n    n = m.shape[0]\n"
            "    return np.zeros(n)\n\ndef use(a):\n    z = size_of(a)\n    return jnp.sum(z ** 2)\n",
            lines=[4, 6, 10],
        ),
        Invalid(  # ... and one reading a matrix made elsewhere: a module-level name, an attribute a method binds, a method
            # returning one (`np.eye(2) - self.P` is a plain array after the migration); not a parameter of that name,
            # nor a read of its size
            "import numpy as np\n\nP = np.asmatrix([[1.0, 2.0], [3.0, 4.0]])\n\ndef f():\n    d = np.eye(2) - P\n    return d * P\n\n"
            "def g(P):\n    return np.sum(P)\n\nclass Model:\n    def __init__(self):\n        self.P = np.asmatrix(np.eye(2))\n\n"
            "    def as_mat(self, a):\n        return np.asmatrix(a)\n\n"
            "    def step(self):\n        d = np.eye(2) - self.P\n        return d * self.P\n\n"
            "    def apply(self, a):\n        m = self.as_mat(a)\n        return m * (np.eye(2) - m)\n\n"
            "    def size(self):\n        return np.zeros(self.P.shape[0])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nP = np.asmatrix([[1.0, 2.0], [3.0, 4.0]])\n\n"
            "def f():\n    d = np.eye(2) - P\n    return d * P\n\n"
            "def g(P):\n    return jnp.sum(P)\n\nclass Model:\n    def __init__(self):\n        self.P = np.asmatrix(np.eye(2))\n\n"
            "    def as_mat(self, a):\n        return np.asmatrix(a)\n\n"
            "    def step(self):\n        d = np.eye(2) - self.P\n        return d * self.P\n\n"
            "    def apply(self, a):\n        m = self.as_mat(a)\n        return m * (np.eye(2) - m)\n\n"
            "    def size(self):\n        return jnp.zeros(self.P.shape[0])\n",
            lines=[6, 7, 10, 14, 17, 20, 21, 24, 25, 28],
        ),
        Invalid(  # ... also when a nested function binds the name for itself (its `P = 1.0` leaves the outer `P` global)
            "import numpy as np\n\nP = np.asmatrix(np.eye(2))\n\ndef f():\n    def g():\n        P = 1.0\n        return P\n"
            "    return np.eye(2) - P + g()\n",
            expected=None,
            lines=[8, 9],
        ),
        Invalid(  # another method fills `self.state` in place, which stays NumPy
            "import numpy as np\n\nclass S:\n    def __init__(self, n):\n        self.state = np.zeros(n)\n\n    def reset(self):\n        self.state.fill(0.0)\n",
            expected="import numpy as np\n\nclass S:\n    def __init__(self, n):\n        self.state = np.zeros(n)\n\n    def reset(self):\n        self.state.fill(0.0)\n",
            lines=[5],
        ),
        Invalid(  # the code writes through the view: it must stay NumPy
            "import numpy as np\n\ndef f(a, v):\n    e = np.exp(a)\n    np.einsum(\"ii->i\", e)[:] = v\n    return e\n",
            expected="import numpy as np\n\ndef f(a, v):\n    e = np.exp(a)\n    np.einsum(\"ii->i\", e)[:] = v\n    return e\n",
            lines=[4, 5],
        ),
        Invalid(
            "import numpy as np\n\ndef f(a):\n    b = np.exp(a)\n    return b.copy(order=\"C\")\n",
            expected="import jax.numpy as jnp\n\ndef f(a):\n    b = jnp.exp(a)\n    return b.copy()\n",
        ),
        Invalid(  # ... and `copy=` of `.reshape` (NumPy 2.1), `subok=` of `.astype`, on an array `jax.numpy` makes
            # (once renamed), updated with `.at[...]` in a loop, or an item of one (mne's `psd.reshape(..., copy=False)`)
            "import numpy as np\n\ndef f(n):\n    acc = np.ones((3, 2))\n    for i in range(3):\n"
            "        acc = acc.at[i, 1].set(i)\n    return acc[1:].T.reshape(-1, copy=True), acc.astype(int, subok=False)\n",
            expected="import jax.numpy as jnp\n\ndef f(n):\n    acc = jnp.ones((3, 2))\n    for i in range(3):\n"
                     "        acc = acc.at[i, 1].set(i)\n    return acc[1:].T.reshape(-1), acc.astype(int)\n",
            lines=[4],
        ),
        Invalid(  # ... `copy=True` of a traced parameter, which may be a NumPy array whose copy the caller relies on:
            # dropped as an unsafe fix (`copy=False` keeps a view, or raises where NumPy needs a copy: dropped)
            "import jax.numpy as jnp\n\ndef f(a):\n    return a.reshape(-1, copy=True) + 1.0\n",
            expected="import jax.numpy as jnp\n\ndef f(a):\n    return a.reshape(-1) + 1.0\n",
            unsafe=True, lines=[4],
        ),
        Invalid(
            "import numpy as np\n\ndef f(b):\n    return np.abs(b).reshape(2, -1, copy=False), b.reshape(-1, copy=None)\n",
            expected="import jax.numpy as jnp\n\ndef f(b):\n    return jnp.abs(b).reshape(2, -1), b.reshape(-1)\n",
            lines=[4],
        ),
        Invalid(  # a keyword a JAX array's method rejects and which orders values or checks a cast keeps the call NumPy
            "import numpy as np\n\ndef f(x):\n    y = np.abs(x)\n    return (np.exp(x).reshape(2, -1, order='A'), "
            "y.astype(int, casting='same_kind'),\n            np.sin(x).ravel('K'))\n",
            expected=None, lines=[4, 5, 6],
        ),
        Invalid(  # `origin` may be None, which NumPy turns into NaN and `jnp.asarray` rejects: unsafe
            "import numpy as np\n\ndef f(p, origin=None):\n    origin = np.asarray(origin, dtype=float)\n    return p - 1.0\n",
            expected="import jax.numpy as jnp\n\ndef f(p, origin=None):\n    origin = jnp.asarray(origin, dtype=float)\n    return p - 1.0\n",
            unsafe=True,
        ),
        Invalid(  # `w` may still be None where `jnp.sum` takes an array only (vg's average; `jnp.average` takes `weights=None`)
            "import numpy as np\n\ndef f(x, w=None):\n    if w is not None:\n        w = w * 2.0\n"
            "    return x, np.sum(w)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, w=None):\n    if w is not None:\n        w = w * 2.0\n"
                     "    return x, jnp.sum(w)\n",
            unsafe=True, lines=[6],
        ),
        Invalid(  # `jnp.where` rejects None as its condition, which NumPy takes as False (chaospy's growth rule with
            # `growth=None`), or as a branch, and so a local that may be None: unsafe
            "import numpy as np\n\ndef f(x, flag=None, opts=None):\n    z = opts.get(\"fill\")\n"
            "    return np.where(flag, x, -x), np.where(x > 0, z, x)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, flag=None, opts=None):\n    z = opts.get(\"fill\")\n"
                     "    return jnp.where(flag, x, -x), jnp.where(x > 0, z, x)\n",
            unsafe=True, lines=[5],
        ),
        Invalid(  # the index tricks have `jnp` namesakes
            "import numpy as np\n\ndef f(a, b):\n    return np.r_[a, 0.0, b] + np.c_[a, b].sum()\n",
            expected="import jax.numpy as jnp\n\ndef f(a, b):\n    return jnp.r_[a, 0.0, b] + jnp.c_[a, b].sum()\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(a, b):\n    x = np.c_[a, b]\n    return x\n",
            expected="import jax.numpy as jnp\n\ndef f(a, b):\n    x = jnp.c_[a, b]\n    return x\n",
        ),
        Invalid(  # wall-clock times lose their resolution in float32: the call stays NumPy (trimesh's timing logs)
            "import time\nimport numpy as np\n\ndef f(x):\n    tic = [time.time()]\n    y = np.sum(x)\n"
            "    tic.append(time.time())\n    return y, np.diff(tic)\n",
            expected="import time\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    tic = [time.time()]\n    y = jnp.sum(x)\n"
                     "    tic.append(time.time())\n    return y, np.diff(tic)\n",
        ),
        Invalid(  # dates as seconds since 1970 too (pvlib's unixtime: 09:00 and 12:00 gave one solar zenith)
            "import numpy as np\nimport pandas as pd\n\ndef unixtime(index, x):\n"
            "    t = np.array((index - pd.Timestamp(\"1970-01-01\")) / pd.Timedelta(\"1s\"))\n    return t, np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nimport pandas as pd\n\ndef unixtime(index, x):\n"
                     "    t = np.array((index - pd.Timestamp(\"1970-01-01\")) / pd.Timedelta(\"1s\"))\n    return t, jnp.sum(x)\n",
            unsafe=True,  # pandas is imported: `x` may be a Series (every fix is unsafe)
        ),
        Invalid(  # under `if o is not None:` the call never sees None: a safe rename
            "import numpy as np\n\ndef f(p, o=None):\n    if o is not None:\n        o = np.asarray(o)\n        p = p - o\n    return p\n",
            expected="import jax.numpy as jnp\n\ndef f(p, o=None):\n    if o is not None:\n        o = jnp.asarray(o)\n        p = p - o\n    return p\n",
        ),
        Invalid(  # a slice of an array made here given to another library's function whose result is dropped: it is
            # filled there (pysteps' `reproject_grids` with rasterio's `reproject`: a JAX slice is a copy, zeros came back)
            "import numpy as np\nfrom rasterio.warp import reproject\n\ndef grids(src, n):\n    out = np.zeros((n, 4, 4))\n"
            "    for i in range(n):\n        reproject(src[i], out[i, :, :])\n    return out\n",
            expected=None, lines=[5, 7],
        ),
        Invalid(  # a caller passes on its parameter defaulting to None: `jnp.array(None)` raises where NumPy made an
            # object array (nilearn's `resample_img(target_shape=None)` into `_resampling_not_needed`): unsafe
            "import numpy as np\n\ndef same(shape, target):\n    return np.array(target) == shape\n\n"
            "def resample(x, target=None):\n    return same(x.shape, target)\n",
            expected="import jax.numpy as jnp\n\ndef same(shape, target):\n    return jnp.array(target) == shape\n\n"
                     "def resample(x, target=None):\n    return same(x.shape, target)\n",
            unsafe=True,
        ),
        Invalid(  # a None test elsewhere does not guard this call: unsafe (trimesh's points_to_indices)
            "import numpy as np\n\ndef f(p, o=None):\n    if o is not None:\n        p = p - 1.0\n    o = np.asarray(o, dtype=float)\n    return p\n",
            expected="import jax.numpy as jnp\n\ndef f(p, o=None):\n    if o is not None:\n        p = p - 1.0\n    o = jnp.asarray(o, dtype=float)\n    return p\n",
            unsafe=True,
        ),
        Invalid(  # ... and a local that may be None: from `.get(k)`, `getattr(o, n, None)`, `None` on one path, or
            # an argument that is such a call (tsfresh's `Q = kwargs.get("query", None)`, then `np.asarray(Q)`)
            "import numpy as np\n\ndef f(opts, cfg, flag):\n    w = opts.get(\"weights\")\n    w = np.asarray(w)\n"
            "    s = getattr(cfg, \"scale\", None)\n    s = np.array(s, dtype=float)\n    t = 1.0\n    if flag:\n"
            "        t = None\n    return w * s * np.asarray(t) + np.asarray(opts.get(\"bias\", None))\n",
            expected="import jax.numpy as jnp\n\ndef f(opts, cfg, flag):\n    w = opts.get(\"weights\")\n    w = jnp.asarray(w)\n"
            "    s = getattr(cfg, \"scale\", None)\n    s = jnp.array(s, dtype=float)\n    t = 1.0\n    if flag:\n"
            "        t = None\n    return w * s * jnp.asarray(t) + jnp.asarray(opts.get(\"bias\", None))\n",
            unsafe=True, lines=[5, 7, 11, 11],
        ),
        Invalid(  # ... from `.pop(k, None)`, `.setdefault(k)`, `next(it, None)`, a local alias of a parameter
            # defaulting to None, or a walrus read past its guard (a code review's `q = kwargs.pop('query', None)`)
            "import numpy as np\n\ndef f(x, it, opts, base=None, **kw):\n    a = kw.pop(\"a\", None)\n"
            "    b = opts.setdefault(\"b\")\n    c = next(it, None)\n    d = base\n    if (e := opts.get(\"e\")) is not None:\n"
            "        x = x + e\n    return np.asarray(a) + np.asarray(b) + np.asarray(c) + np.asarray(d) + np.asarray(e)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, it, opts, base=None, **kw):\n    a = kw.pop(\"a\", None)\n"
            "    b = opts.setdefault(\"b\")\n    c = next(it, None)\n    d = base\n    if (e := opts.get(\"e\")) is not None:\n"
            "        x = x + e\n    return jnp.asarray(a) + jnp.asarray(b) + jnp.asarray(c) + jnp.asarray(d) + jnp.asarray(e)\n",
            unsafe=True, lines=[10],
        ),
        Invalid(  # ... but not a local alias of such a parameter that a None test handles first
            "import numpy as np\n\ndef f(x, base=None):\n    if base is None:\n        base = x\n    d = base\n"
            "    return np.asarray(d)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, base=None):\n    if base is None:\n        base = x\n    d = base\n"
            "    return jnp.asarray(d)\n",
        ),
        Invalid(  # ... unless a None test guards it: a safe rename
            "import numpy as np\n\ndef f(opts):\n    w = opts.get(\"weights\", 0.0)\n    v = opts.get(\"v\")\n"
            "    if v is None:\n        v = 1.0\n    return np.asarray(w) + np.asarray(v)\n",
            expected="import jax.numpy as jnp\n\ndef f(opts):\n    w = opts.get(\"weights\", 0.0)\n    v = opts.get(\"v\")\n"
            "    if v is None:\n        v = 1.0\n    return jnp.asarray(w) + jnp.asarray(v)\n",
        ),
        Invalid(  # None handled by the author: a safe rename
            "import numpy as np\n\ndef f(x, o=None):\n    if o is None:\n        o = x\n    return np.asarray(o)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, o=None):\n    if o is None:\n        o = x\n    return jnp.asarray(o)\n",
        ),
        Invalid(  # no `jnp` namesake: `jnp.asarray`, unsafe as it keeps no subclass (a masked array raises: acoustics'
            # decibel sums); not `ascontiguousarray` (1-D at least)
            "import numpy as np\n\ndef f(a):\n    a = np.asanyarray(a, dtype=float)\n    return np.ascontiguousarray(a.T)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(a):\n    a = jnp.asarray(a, dtype=float)\n    return np.ascontiguousarray(a.T)\n",
            unsafe=True, lines=[4, 5],
        ),
        Invalid(  # ... also handed on, not called: the function takes masked arrays, which `jnp.sin` rejects or
            # unmasks (seawater's `lat, = list(map(np.asanyarray, (lat,)))`; `functools.partial` the same)
            "import functools\nimport numpy as np\n\ndef f(lat):\n    lat, = list(map(np.asanyarray, (lat,)))\n"
            "    return np.sin(lat)\n\ndef g(x):\n    return np.cos(functools.partial(np.asanyarray, dtype=float)(x))\n",
            expected="import functools\nimport jax.numpy as jnp\n\ndef f(lat):\n    lat, = list(map(jnp.asarray, (lat,)))\n"
            "    return jnp.sin(lat)\n\ndef g(x):\n    return jnp.cos(functools.partial(jnp.asarray, dtype=float)(x))\n",
            unsafe=True, lines=[5, 6, 9, 9],
        ),
        Invalid(  # ... and so is a masked-array function imported by name, here a default argument
            "import numpy as np\nfrom numpy.ma import getdata\n\ndef f(x, get=getdata):\n    return np.cos(get(x))\n",
            expected=None, lines=[4, 5],
        ),
        Invalid(
            "import numpy as np\n\ndef f(a):\n    return np.argsort(a, kind=\"mergesort\")\n",
            expected="import jax.numpy as jnp\n\ndef f(a):\n    return jnp.argsort(a)\n",
        ),
        Invalid(  # a record layout and a swapped byte order: JAX has neither, the function stays NumPy
            "import numpy as np\n\ndef header(n):\n    tag = np.zeros((), [(\"mdtype\", \"<u4\"), (\"n\", \"<u4\")])\n    word = np.array(n, \">i\").tobytes()\n    return tag, word\n",
            expected=None,
            lines=[4, 5],
        ),
        Invalid(  # a record layout given as names and formats, or aligned (C headers: obspy's `head_t`)
            "import numpy as np\n\nPAIR = np.dtype([(\"k\", np.int32), (\"v\", np.float64)], align=True)\n\n"
            "def pairs(n):\n    return np.zeros(n, dtype=PAIR)\n\n"
            "def cells(n):\n    return np.empty(n, {\"names\": [\"r\", \"c\"], \"formats\": [np.int16, np.int16]})\n",
            expected=None,
            lines=[6, 9],
        ),
        Invalid(  # a masked-array constant: the whole function stays NumPy (a lax.cond would return an array, not `masked`)
            "import numpy as np\n\ndef f(s, o, mask):\n    check = np.equal(s, o)\n    return np.ma.masked if mask else check\n",
            expected=None,
            lines=[4, 5],
        ),
        Invalid(  # a swapped byte order asked through a method: the function stays NumPy
            "import numpy as np\n\ndef new_var(shape, kind):\n    return np.empty(shape, dtype=kind.newbyteorder(\"B\"))\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # string data, directly or through a local name: `jnp.array(["a", "b"])` raises TypeError
            "import numpy as np\n\ndef f(names, x):\n    labels = [\"a\", \"b\"]\n    i = np.searchsorted(labels, names)\n"
            "    return np.sum(x) + i, np.isin(x, [(\"u\", 1)])\n",
            expected=None,
            lines=[5, 6],
        ),
        Invalid(  # instances of a class make an object array (trimesh's path entities)
            "import numpy as np\n\ndef f(points):\n    lines = [Line(p) for p in points]\n    return np.array([Line(points)]), np.asarray(lines)\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # text made by calls (`chr`, `.split`) is string data too (pyts's alphabets and .ts labels)
            "import numpy as np\n\ndef f(n, lines):\n    labels = []\n    for line in lines:\n        labels.append(line.split(':')[-1])\n"
            "    return np.array([chr(i) for i in range(97, 97 + n)]), np.asarray(labels)\n",
            expected=None,
            lines=[7, 7],
        ),
        Invalid(  # ... a `.split` list, an item of one appended to a list (bound in a parallel assignment), and a
            # display of names holding text (pyriemann's `decode_domains`, `make_classification_transfer`)
            "import numpy as np\n\ndef tags(line):\n    return np.array(line.strip().split(','))\n\n"
            "def codes(rows, n):\n    first = ['a'] * n\n    second = ['b'] * n\n"
            "    return np.concatenate([first, second]), np.sum(rows)\n\n"
            "def fields(records):\n    keys, vals = [], []\n    for r in records:\n        bits = r.split(':')\n"
            "        keys.append(bits[0])\n        vals.append(float(bits[1]))\n    return np.unique(keys), np.asarray(vals) * 2\n",
            expected=None,
            lines=[4, 9, 17],
        ),
        Invalid(  # a sequence over arrays: iteration ends at IndexError, which JAX never raises (numdifftools's Bicomplex)
            "import numpy as np\n\nclass Pair:\n    def __init__(self, a, b):\n        self.a = np.asarray(a)\n        self.b = b\n\n"
            "    def __getitem__(self, i):\n        return Pair(self.a[i], self.b)\n\n    def cos(self):\n"
            "        return Pair(np.cos(self.a), self.b)\n",
            expected=None,
            lines=[5, 12],
        ),
        Invalid(  # numba takes NumPy arrays only: what this function hands to a compiled kernel stays NumPy (pyts)
            "import numpy as np\nfrom numba import njit\n\n@njit\ndef kernel(m):\n    return m.sum(axis=1)\n\n"
            "def f(n):\n    m = np.zeros((n, 3))\n    return kernel(m)\n",
            expected=None,
            lines=[9, 10],
        ),
        Invalid(  # ... so is what a helper returns that a caller hands to one (also `@nb.njit(cache=True)`), and an
            # array made in the call's argument (pyod's SOS perplexity: `D = dist(X)`, then `kernel(D[0, 1:], beta)`)
            "import numpy as np\nimport numba as nb\n\n@nb.njit(cache=True)\ndef weigh(d, beta):\n"
            "    return np.exp(-d * beta).sum()\n\ndef pairwise(x):\n    s = np.sum(x * x, 1)\n"
            "    return np.sqrt(np.abs(s[:, None] + s[None, :]))\n\ndef entropy(x):\n    d = pairwise(x)\n"
            "    return weigh(d[0, 1:], 1.0), weigh(np.log(x[0]), 2.0)\n",
            expected=None,
            lines=[9, 10, 10, 10, 14],
        ),
        Invalid(  # ... and what a parameter handed to one is computed from, in the callers (`@jit` from numba, and a
            # function compiled by a call); a function handing one its own parameter is migrated
            "import numpy as np\nfrom numba import jit\nimport numba\n\n@jit(nopython=True)\ndef total(a):\n"
            "    return a.sum()\n\ndef peak(a):\n    return a.max()\n\npeak_nb = numba.njit(peak)\n\n"
            "def twice(D):\n    return total(D * 2) + peak_nb(D)\n\ndef run(x):\n    return twice(np.cos(x))\n\n"
            "def other(y):\n    return np.sum(y) + total(y)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom numba import jit\nimport numba\n\n@jit(nopython=True)\n"
            "def total(a):\n    return a.sum()\n\ndef peak(a):\n    return a.max()\n\npeak_nb = numba.njit(peak)\n\n"
            "def twice(D):\n    return total(D * 2) + peak_nb(D)\n\ndef run(x):\n    return twice(np.cos(x))\n\n"
            "def other(y):\n    return jnp.sum(y) + total(y)\n",
            lines=[18, 18, 21],
        ),
        Invalid(  # ... also a method numba compiles (a `@staticmethod`, called on `self` or on the class), with numba
            # imported in a top-level `try` (pymoo's AGE-MOEA survival)
            "import numpy as np\n\ntry:\n    from numba import jit\nexcept ImportError:\n    raise\n\n\n"
            "class Ranks:\n    @staticmethod\n    @jit(nopython=True, fastmath=True)\n    def spread(a, s):\n"
            "        return np.sum(a) * s\n\n    def run(self, x):\n        return self.spread(np.cos(x), 2.0)\n\n\n"
            "def rank(x):\n    return Ranks.spread(np.sin(x), 1.0)\n",
            expected=None,
            lines=[16, 20],
        ),
        Invalid(  # a dtype that may be a record layout, by what the function does: it reads the dtype's field names,
            # or indexes the array whose dtype it is by a field name; JAX has no record dtypes (pyod's realignment of
            # scikit-learn's tree nodes)
            "import numpy as np\n\ndef realign(nodes, layout):\n    out = np.zeros(len(nodes), dtype=layout)\n"
            "    for f in layout.fields:\n        out[f] = nodes[f]\n    return out\n\n"
            "def left(nodes):\n    out = np.empty(len(nodes), dtype=nodes.dtype)\n    out['left'] = nodes['left']\n"
            "    return out\n\ndef blank(nodes):\n    out = np.zeros_like(nodes)\n    out['left'] = nodes['left']\n"
            "    return out\n",
            expected=None,
            lines=[4, 10, 15],
        ),
        Invalid(  # ... but an array's dtype is a plain one when nothing says otherwise
            "import numpy as np\n\ndef like(x, n):\n    return np.zeros(n, dtype=x.dtype) + x[0]\n",
            expected="import jax.numpy as jnp\n\ndef like(x, n):\n    return jnp.zeros(n, dtype=x.dtype) + x[0]\n",
        ),
        Invalid(  # a class of a private (compiled) module imported in the function, given an array made here, even in
            # the call itself (pyod's `_tree.Tree(1, n_classes, 1)`)
            "import numpy as np\n\ndef layout(x):\n    from sklearn.tree import _tree\n"
            "    t = _tree.Tree(1, np.array([1], dtype=np.intp), 1)\n    return t.nodes.dtype, np.sum(x)\n",
            expected=None,
            lines=[5, 5, 6],
        ),
        Invalid(  # a C library's function called through ctypes takes NumPy arrays only and fills them (obspy's
            # `clibsignal.recstalta(a, charfct, ...)`): a library loaded here, one of its functions bound to a name,
            # one whose `argtypes` are set (loaded by a helper), one stored on the instance
            "import ctypes\nimport numpy as np\nfrom ctypes import cdll\nfrom .util import load\n\n"
            "kern = np.ctypeslib.load_library('libkern', '.')\nsmooth = cdll.LoadLibrary('libsm.so').smooth\n"
            "ext = load('ext')\next.step.argtypes = [np.ctypeslib.ndpointer(np.float64), ctypes.c_int]\n\n"
            "def a(n):\n    w = np.zeros(n)\n    kern.weights(w, n)\n    return w\n\n"
            "def b(x):\n    y = np.cumsum(x)\n    smooth(y, len(y))\n    return y\n\n"
            "def c(n):\n    return ext.step(np.ones(n), n)\n\n"
            "class K:\n    def __init__(self, path):\n        self._lib = ctypes.CDLL(path)\n\n"
            "    def run(self, n):\n        out = np.empty(n)\n        self._lib.run(out, n)\n        return out\n",
            expected=None,
            lines=[12, 13, 17, 18, 22, 29, 30],
        ),
        Invalid(  # a generator jaxfix does not convert shuffles it in place: it stays NumPy (emcee's moves)
            "import numpy as np\n\ndef split(model, x, n):\n    inds = np.arange(len(x)) % n\n    model.random.shuffle(inds)\n"
            "    return inds\n",
            expected=None,
            lines=[4, 5],
        ),
        Invalid(  # a typed, C-ordered buffer is for compiled code, which rejects JAX arrays (POT's network simplex)
            "import numpy as np\n\ndef solve(a, M):\n    M = np.asarray(M, dtype=np.float64, order='C')\n"
            "    return solver(np.asarray(a), M)\n",
            expected=None,
            lines=[4, 5],
        ),
        Invalid(  # a helper normalising its argument in place (`a -= ...`, returning nothing): the array computed here
            # and handed to it must stay NumPy, or the update is silently lost (hmmlearn's GMM posteriors)
            "import numpy as np\n\ndef normalize(a):\n    a -= a.max()\n\ndef f(x, w):\n    ld = x + np.log(w)\n"
            "    normalize(ld)\n    return np.exp(ld)\n",
            expected=None,
            lines=[7, 8, 9],
        ),
        Invalid(  # a method writing into an array made here (`out=`): it must stay NumPy (quantecon's DiscreteDP)
            "import numpy as np\n\ndef f(R, n):\n    v = np.empty(n)\n    R.max(axis=1, out=v)\n    return np.sum(v)\n",
            expected=None,
            lines=[4, 5, 6],
        ),
        # ... or a function that is not NumPy's given it as `output=` / `out=`, which fills it (scipy.ndimage's
        # filters: pyroomacoustics' smoothing), a helper's result too
        Invalid("import numpy as np\nfrom scipy import ndimage\n\ndef smooth(x):\n    out = np.zeros(x.shape[0])\n"
                "    ndimage.uniform_filter1d(x, 3, output=out)\n    return out\n",
                expected=None, lines=[5, 6]),
        Invalid("import numpy as np\nfrom scipy.ndimage import uniform_filter1d\n\ndef buf(n):\n    return np.zeros(n)\n\n"
                "def smooth(x):\n    out = buf(x.shape[0])\n    uniform_filter1d(x, 3, output=out)\n    return out\n",
                expected=None, lines=[5, 5, 9]),
        Invalid(  # ... as one of a tuple (or list) of outputs: a compiled gufunc with two outputs (SciPy's
            # `_rcty(x, out=(yn, ynp))` in riccati_yn), here or in a helper that hands on its parameters so
            "import numpy as np\nfrom ._kernels import _pair\n\ndef pair(x, n):\n    lo = np.empty(n)\n"
            "    hi = np.empty_like(lo)\n    _pair(x, out=(lo, hi))\n    return lo, hi\n\n"
            "def fill(x, a, b):\n    _pair(x, out=[a, b])\n\ndef twice(x, n):\n    u = np.zeros(n)\n    v = np.ones(n)\n"
            "    fill(x, u, v)\n    return u + v\n",
            expected=None, lines=[5, 6, 7, 14, 15, 16]),
        Invalid(  # ... or a helper's result, handed to a private compiled module: its typed memoryviews refuse a
            # read-only JAX buffer (PyKrige's `great_circle_distance`, given to its Cython backend: `BufferError`)
            "import numpy as np\n\ndef dist(a, b):\n    return np.sqrt(a * b)\n\ndef run(a, b):\n"
            "    from .lib.cok import _c_loop\n    d = dist(a, b)\n    return _c_loop(d)\n",
            expected=None, lines=[4, 4]),
        Invalid(  # ... or to a method overridden in a subclass that hands it to a private compiled module: the call
            # may run any method of that name (SciPy's PPoly `__call__`: `self._evaluate(x, out)`, the base's
            # raising, the subclass's calling `_ppoly.evaluate(..., out)`); a helper function's call too
            "import numpy as np\nfrom . import _kernels\n\nclass Curve:\n    def __call__(self, t):\n"
            "        res = np.empty(len(t))\n        self._fill(t, res)\n        return res\n\n"
            "    def _fill(self, t, res):\n        raise NotImplementedError\n\nclass Ramp(Curve):\n"
            "    def _fill(self, t, dest):\n        _kernels.ramp(t, dest)\n\n"
            "def _into(t, dest):\n    _kernels.ramp(t, dest)\n\ndef ramp(t):\n    r = np.zeros(len(t))\n"
            "    _into(t, r)\n    return r\n",
            expected=None, lines=[6, 7, 21, 22]),
        Invalid(  # ... whichever override comes last: the base's writes through a helper, the subclass's none
            "import numpy as np\n\ndef clear(buf):\n    buf[:] = 0.0\n\nclass Curve:\n    def __call__(self, t):\n"
            "        res = np.empty(len(t))\n        self._fill(t, res)\n        return res\n\n"
            "    def _fill(self, t, res):\n        clear(res)\n\nclass Flat(Curve):\n    def _fill(self, t, res):\n"
            "        return None\n",
            expected=None, lines=[8, 9]),
        Invalid(  # ... or handed through `args=` of a SciPy optimizer or integrator to a function that writes into it,
            # or into a copy or NumPy's (read-only) view of it (scipy.stats' yeojohnson: `np.asarray(f(data))`, then
            # an item assignment; signal's buttord: `passb.copy()`), by keyword or by position
            "import numpy as np\nfrom scipy import integrate, optimize\n\ndef _cost(t, ref):\n"
            "    c = np.asarray(np.mean(ref) * np.ones_like(ref) - t)\n    c[c < 0] = 0.0\n    return c.sum()\n\n"
            "def best(ref):\n    ref = np.asarray(ref, dtype=float)\n    return optimize.fminbound(_cost, 0.0, 1.0, (ref,))\n\n"
            "def _rhs(y, t, rates):\n    r = rates.copy()\n    r[0] = 0.0\n    return -r * y\n\n"
            "def run(y0, t, n):\n    rates = np.linspace(0.0, 1.0, n)\n    return integrate.odeint(_rhs, y0, t, args=(rates,))\n",
            expected=None, lines=[10, 11, 19, 20]),
        Invalid(  # ... or any callable given an item of it as `out=`: a ufunc picked from a list (skfda's
            # `functions[i](res[i], out=res[i])`), here or in a helper that writes through its parameter
            "import numpy as np\n\ndef waves(x):\n    ops = [np.sin, np.cos]\n    res = np.outer(np.ones(2), x)\n"
            "    for k in (0, 1):\n        ops[k](res[k], out=res[k])\n    return res\n",
            expected=None, lines=[5, 5, 7]),
        Invalid("import numpy as np\n\ndef apply(ops, rows):\n    for k, op in enumerate(ops):\n        op(rows[k], out=rows[k])\n\n"
                "def waves(x):\n    res = np.outer(np.ones(2), x)\n    apply([np.sin, np.cos], res)\n    return res\n",
                expected=None, lines=[8, 8, 9]),
        Invalid(  # ... given by position to a scipy.ndimage function that takes its output there
            "import numpy as np\nfrom scipy.ndimage import convolve1d\n\ndef buf(n):\n    return np.zeros(n)\n\n"
            "def smooth(x):\n    out = buf(x.shape[0])\n    convolve1d(x, np.ones(3) / 3, -1, out)\n    return out\n",
            expected=None, lines=[5, 5, 9]),
        Invalid(  # ... by a helper that gives it by position to scipy.ndimage, or to a NumPy ufunc (`np.divide(a, n, a)`)
            "import numpy as np\nfrom scipy import ndimage\n\ndef into(x, o):\n    ndimage.uniform_filter1d(x, 3, -1, o)\n\n"
            "def halve(a):\n    np.divide(a, 2.0, a)\n\ndef smooth(x):\n    out = np.zeros(x.shape[0])\n    into(x, out)\n"
            "    c = np.ones(3)\n    halve(c)\n    return out, c\n",
            expected=None, lines=[8, 11, 12, 13, 14]),
        Invalid(  # indexed in a `try` that catches `IndexError`: a JAX array clamps the index and never raises, so the
            # `except` branch would stop running
            "import numpy as np\n\ndef pick(x, i):\n    y = np.cumsum(x)\n    try:\n        v = y[i]\n"
            "    except (KeyError, IndexError):\n        v = -1.0\n    return v\n",
            expected=None, lines=[4]),
        Invalid(  # ... also in a function (or method, or what it calls in turn) that a caller calls in such a `try`:
            # the caller's `except` expects the callee's NumPy `IndexError` (a code review's "OOB without a local try")
            "import numpy as np\n\ndef pick(a, i):\n    b = np.cumsum(a)\n    return b[i] + 1.0\n\n"
            "def mark(n, i):\n    b = np.zeros(n)\n    b[i] = 1.0\n    return b\n\n"
            "class Grid:\n    def cell(self, g, i):\n        return pick(g, i)\n\n"
            "    def safe(self, g, i):\n        try:\n            return self.cell(g, i), mark(3, i)\n"
            "        except LookupError:\n            return None\n",
            expected=None, lines=[4, 8]),
        Invalid(  # ... also one handed on in the `try` (`map(pick, idx)`), called through a module alias (`get = pick`),
            # or indexing a NumPy call's result directly (a code review)
            "import numpy as np\n\ndef pick(a, i):\n    return np.cumsum(a)[i]\n\n"
            "def last(a, i):\n    return np.sort(a)[i]\n\nget = last\n\n"
            "def safe(a, idx):\n    try:\n        return list(map(pick, [a] * len(idx), idx)), get(a, 0)\n"
            "    except IndexError:\n        return None\n",
            expected=None, lines=[4, 7]),
        Invalid(  # ... also `np.take` (which raises where `jnp.take` fills with nan), a `try` catching a tuple held in a
            # name (`except MISSING:`), a callee bound to a local first (`get = third`), arithmetic indexed in the
            # function's own `try` (`(c * 2)[i]`): a code review
            "import numpy as np\n\nMISSING = (IndexError, KeyError)\n\n"
            "def first(a, i):\n    return np.take(np.cumsum(a), i)\n\n"
            "def second(a, i):\n    c = np.sort(a)\n    return c[i]\n\n"
            "def third(a, i):\n    c = np.cumsum(a)\n    return c[i]\n\n"
            "def safe(a, i):\n    try:\n        x = first(a, i)\n    except IndexError:\n        x = None\n"
            "    try:\n        y = second(a, i)\n    except MISSING:\n        y = None\n"
            "    get = third\n    try:\n        return x, y, get(a, i)\n    except IndexError:\n        return None\n\n"
            "def own(a, i):\n    c = np.cumsum(a)\n    try:\n        return (c * 2)[i]\n    except IndexError:\n"
            "        return None\n",
            expected=None, lines=[6, 9, 13, 32]),
        Invalid(  # ... and a `partial` of the function bound before the `try` that catches `LinAlgError` (a code review)
            "import numpy as np\nfrom functools import partial\n\ndef chol(a, s):\n    return np.linalg.cholesky(a * s)\n\n"
            "def safe(a):\n    f = partial(chol, a)\n    try:\n        return f(1.0)\n"
            "    except np.linalg.LinAlgError:\n        return None\n",
            expected=None, lines=[5]),
        Invalid(  # a generator expression (NumPy: one object, `jnp.all` raises) and an extended-precision dtype (pywt)
            "import numpy as np\n\ndef f(values, n):\n    if not np.all(isinstance(v, int) for v in values):\n"
            "        raise ValueError(values)\n    return np.ones(n, dtype=np.longdouble)\n",
            expected=None, lines=[4, 6]),
        Invalid(  # ... also of an item unpacked from a returned tuple that holds a parameter as it is (scipy's bracket)
            "import numpy as np\n\ndef bracket(xa):\n    fa = np.sin(xa)\n    n = 1\n    return xa, fa, n\n\n"
            "def use(v):\n    x, f, n = bracket(v)\n    n += 2\n    return f, n\n",
            expected="import jax.numpy as jnp\n\ndef bracket(xa):\n    fa = jnp.sin(xa)\n    n = 1\n    return xa, fa, n\n\n"
                     "def use(v):\n    x, f, n = bracket(v)\n    n += 2\n    return f, n\n",
            lines=[4]),
        Invalid(  # an augmented update of a fresh result rebinds a name and changes nothing else: rewritten
            "import numpy as np\n\ndef make(x):\n    return np.exp(x) * 2.0\n\ndef use(x):\n    r = make(x)\n    r += 1.0\n    return r\n",
            expected="import jax.numpy as jnp\n\ndef make(x):\n    return jnp.exp(x) * 2.0\n\ndef use(x):\n    r = make(x)\n"
                     "    r += 1.0\n    return r\n",
            lines=[4]),
        Invalid(  # timing code: JAX's asynchronous work would be billed to other intervals (quantecon's loop_timer)
            "import time\nimport numpy as np\n\nclass Timer:\n    def tac(self):\n        return time.perf_counter()\n\n"
            "    def runs(self, n, fn):\n        times = np.empty(n)\n        for r in range(n):\n            fn()\n"
            "            times[r] = self.tac()\n        return times.mean()\n",
            expected=None,
            lines=[9],
        ),
        Invalid(  # `np.newaxis` is None: filled with it, the array holds objects (quantecon's polymatrix players)
            "import numpy as np\n\ndef f(n):\n    return np.full((n - 1, n), np.newaxis)\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # a product of lengths is a shape: it stays a Python number (quantecon's cartesian)
            "import numpy as np\n\ndef f(nodes):\n    shapes = [len(e) for e in nodes]\n    return np.zeros((np.prod(shapes), 2))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(nodes):\n    shapes = [len(e) for e in nodes]\n"
            "    return jnp.zeros((np.prod(shapes), 2))\n",
        ),
        Invalid(  # a method of the class writes into what it is given (quantecon's BRD `play`)
            "import numpy as np\n\nclass Dyn:\n    def play(self, a, dist):\n        dist[a] -= 1\n        return dist\n\n"
            "    def run(self, init, a):\n        dist = np.asarray(init)\n        return self.play(a, dist)\n",
            expected=None,
            lines=[9, 10],
        ),
        Invalid(  # a view handed on to a method that passes it to `out=`: written through (quantecon's DiscreteDP)
            "import numpy as np\n\nclass DP:\n    def best(self, vals, out=None):\n        return vals.max(axis=1, out=out)\n\n"
            "    def bellman(self, v, Tv=None):\n        return self.best(self.R + v, out=Tv)\n\n"
            "def backward(ddp, T, n):\n    vs = np.empty((T + 1, n))\n    for t in range(T, 0, -1):\n"
            "        ddp.bellman(vs[t, :], Tv=vs[t - 1, :])\n    return vs\n",
            expected=None,
            lines=[11, 13],
        ),
        Invalid(  # an ndarray subclass: `jnp.asarray(x).view(cls)` raises for every input (pysindy's AxesArray)
            "import numpy as np\n\nclass Tagged(np.ndarray):\n    def __new__(cls, x):\n        return np.asarray(x).view(cls)\n\n"
            "    def total(self):\n        return np.sum(self)\n",
            expected=None,
            lines=[5, 8],
        ),
        Invalid(  # a subclass of the module's own ndarray subclass (scikit-spatial's `Vector(_BaseArray1D)`)
            "import numpy as np\n\nclass Base(np.ndarray):\n    pass\n\nclass Middle(Base):\n    pass\n\n"
            "class Vector(Middle):\n    def unit(self):\n        return self / np.linalg.norm(self)\n",
            expected=None,
            lines=[11],
        ),
        Invalid(  # ... or of another NumPy array type: `self` is a `np.matrix` (whose `*` is a matrix product) or a
            # masked array, which `jnp.dot(self, x)` makes a plain array or rejects (uncertainties' `class matrix(np.matrix)`)
            "import numpy as np\n\nclass matrix(np.matrix):\n    def __rmul__(self, other):\n        if np.isscalar(other):\n"
            "            return np.dot(self, other)\n        return np.dot(other, self)\n\n"
            "class Masked(np.ma.MaskedArray):\n    pass\n\nclass Stamped(Masked):\n    def total(self):\n        return np.sum(self)\n",
            expected=None,
            lines=[5, 6, 7, 14],
        ),
        Invalid(  # ... under any name NumPy exports the matrix class by (`np.matrixlib.matrix`, `numpy.matlib.matrix`)
            "import numpy as np\nimport numpy.matlib\n\nclass matrix(np.matrixlib.matrix):\n    def __rmul__(self, other):\n"
            "        return np.dot(other, self)\n\nclass Mat(numpy.matlib.matrix):\n    def total(self):\n        return np.sum(self)\n",
            expected=None,
            lines=[6, 10],
        ),
        Invalid(  # named for handing back NumPy arrays: a host conversion by intent (POT's backends); its test of a
            # parameter it never writes into is widened all the same, so a JAX array is converted, not sent to `.numpy()`
            "import numpy as np\n\ndef _to_numpy(a):\n    if isinstance(a, np.ndarray):\n        return np.array(a)\n"
            "    return a.numpy()\n",
            expected="import jax\nimport numpy as np\n\ndef _to_numpy(a):\n    if isinstance(a, (np.ndarray, jax.Array)):\n"
                     "        return np.array(a)\n    return a.numpy()\n",
            lines=[4, 5],
        ),
        Invalid(  # a method's result handed to an in-place helper: as a JAX array, `a -= ...` would rebind a local name
            "import numpy as np\n\ndef normalize(a):\n    a -= np.log(np.sum(np.exp(a)))\n\nclass M:\n"
            "    def dens(self, X):\n        return np.log(np.abs(X) + 1.0)\n\n    def post(self, X):\n"
            "        d = self.dens(X)\n        normalize(d)\n        return np.exp(d)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef normalize(a):\n    a -= jnp.log(jnp.sum(jnp.exp(a)))\n\n"
            "class M:\n    def dens(self, X):\n        return np.log(np.abs(X) + 1.0)\n\n    def post(self, X):\n"
            "        d = self.dens(X)\n        normalize(d)\n        return np.exp(d)\n",
            lines=[4, 8, 12, 13],
        ),
        Invalid(  # an attribute given the result of a NumPy call, then normalised in place (hmmlearn's `_do_mstep`)
            "import numpy as np\n\ndef normalize(a):\n    a /= a.sum()\n\nclass HMM:\n    def mstep(self, counts):\n"
            "        self.p = np.where(self.p == 0, 0, counts)\n        normalize(self.p)\n",
            expected=None,
            lines=[8],
        ),
        Invalid(  # a copy of a NumPy array stored in an attribute another function writes into (emcee's State)
            "import numpy as np\nfrom copy import deepcopy\n\nclass State:\n    def __init__(self, coords):\n"
            "        self.coords = deepcopy(np.atleast_2d(coords))\n\ndef update(old, new, m):\n"
            "    old.coords[m] = new.coords[m]\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # object data whose items are also dict keys: the object dtype leaves the function (skopt's plots)
            "import numpy as np\n\ndef f(points, cats):\n    points = np.asarray(points, dtype=object)\n"
            "    m = dict(zip(cats, range(len(cats))))\n    return np.zeros(3), [m[c] for c in points[:, 0]]\n",
            expected=None,
            lines=[4, 6],
        ),
        Invalid(  # another method writes into the attribute through a ufunc's positional output (astropy's Kernel)
            "import numpy as np\n\nclass K:\n    def __init__(self, a):\n        self.a = np.asarray(a)\n\n"
            "    def normalize(self):\n        np.divide(self.a, self.a.sum(), self.a)\n",
            expected=None,
            lines=[5, 5, 8],
        ),
        Invalid(  # ... also when the unit library is imported in a top-level `else:` branch (galpy's conversion)
            "import numpy as np\n\nif _NO_ASTROPY:\n    pass\nelse:\n    from astropy import units\n\n"
            "def total(x):\n    return np.sum(x)\n",
            expected="import jax.numpy as jnp\n\nif _NO_ASTROPY:\n    pass\nelse:\n    from astropy import units\n\n"
            "def total(x):\n    return jnp.sum(x)\n",
            unsafe=True,
        ),
        Invalid(  # the module works with units: NumPy keeps a Quantity's, `jnp.exp` drops them (astropy's Gaussian1D)
            "import numpy as np\nfrom astropy import units as u\n\ndef f(x, s):\n    return np.exp(-x / s)\n",
            expected="import jax.numpy as jnp\nfrom astropy import units as u\n\ndef f(x, s):\n    return jnp.exp(-x / s)\n",
            unsafe=True,
        ),
        Invalid(  # rounding to decimals: `jnp.round(2.1468, 3)` is 2.1470000000000002, NumPy's 2.147 (a printed report)
            "import numpy as np\n\ndef f(x, k):\n    return np.round(x * 2, k) + np.around(x, decimals=2)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, k):\n    return jnp.round(x * 2, k) + jnp.around(x, decimals=2)\n",
            unsafe=True, lines=[4, 4],
        ),
        Invalid(  # ... and so does the builtin `round(v, ndigits)` of a JAX result (its `__round__` is `jnp.round`),
            # directly, through arithmetic or through a local name (zeus' logged autocorrelation time)
            "import numpy as np\n\ndef f(x):\n    m = np.mean(x)\n    return str(round(np.std(x) * 2, 2)), round(m, 3)\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    m = jnp.mean(x)\n"
                     "    return str(round(jnp.std(x) * 2, 2)), round(m, 3)\n",
            unsafe=True, lines=[4, 5, 5],
        ),
        Invalid(  # ... and a JAX array's `.round(n)`, and `np.round(v, n)` of one (NumPy calls the method): kept
            # NumPy under safe fixes, `np.round(jnp.mean(x), 2)` would round with `jnp.round`
            "import numpy as np\n\ndef f(x):\n    s = np.std(x)\n    return np.round(np.mean(x), 2), s.round(3), np.sum(x).round(decimals=1)\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    s = jnp.std(x)\n"
                     "    return jnp.round(jnp.mean(x), 2), s.round(3), jnp.sum(x).round(decimals=1)\n",
            unsafe=True, lines=[4, 5, 5, 5],
        ),
        Invalid(  # ... rounded to whole numbers (`round(v, 0)`), both agree: a safe rename
            "import numpy as np\n\ndef f(x):\n    return round(np.sum(x), 0)\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return round(jnp.sum(x), 0)\n",
            lines=[4],
        ),
        Invalid(  # ... to whole numbers both agree: a safe rename
            "import numpy as np\n\ndef f(x):\n    return np.round(x * 2) + np.around(x, 0)\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.round(x * 2) + jnp.around(x, 0)\n",
            lines=[4, 4],
        ),
        Invalid(  # text made from an array's repr: a JAX array's names its dtype (astropy's covariance pprint)
            "import numpy as np\n\ndef f(row, k):\n    return repr(np.round(row, k))[7:-2]\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # a property hands out the attribute, and code writes through it (statsmodels' HoltWinters)
            "import numpy as np\n\nclass A:\n    def __init__(self, n):\n        self._lvl = np.empty(n)\n\n    @property\n"
            "    def lvl(self):\n        return self._lvl\n\ndef f(args, l0):\n    args.lvl[0] = l0\n    return args\n",
            expected=None,
            lines=[5, 5],
        ),
        Invalid(  # the class hashes what this method stores: JAX arrays are unhashable (colour's SpectralShape)
            "import numpy as np\n\nclass S:\n    def set(self, value):\n        self.lo, self.hi = np.asarray(value)\n\n"
            "    def __hash__(self):\n        return hash((self.lo, self.hi))\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # elements hashed after `list(...)`/`tuple(row)` regroups them (ruptures' Window: `set(list(locs))`;
            # pyentrp's motifs: `key = tuple(row)`, then `counts[key]`)
            "import numpy as np\n\ndef picked(positions, idx):\n    locs = np.take(positions, idx)\n"
            "    return set(list(locs))\n\ndef motifs(x):\n    x = np.asarray(x)\n    counts = {}\n"
            "    for row in x:\n        key = tuple(row)\n        counts[key] = counts.get(key, 0) + 1\n    return counts\n",
            expected=None,
            lines=[4, 8],
        ),
        Invalid(  # ... also items of a local list grown by `.append` and then hashed whole, or iterated into dict keys:
            # a tuple's elements are hashed (scikit-rf's `vals.append((target * d, d))`, then `sorted(set(vals))`)
            "import numpy as np\n\ndef levels(r, fracs):\n    top = np.max(np.abs(r))\n    vals = []\n    for f in fracs:\n"
            "        vals.append((top * f, f))\n    return sorted(set(vals))\n\ndef counts(r):\n    m = np.median(r)\n"
            "    seen = []\n    seen.append(m)\n    tally = {}\n    for v in seen:\n        tally[v] = 1\n    return tally\n",
            expected=None,
            lines=[4, 4, 11],
        ),
        Invalid(  # ... also through arithmetic on the result, `map(tuple, x)`, a generator of rows, `reversed`, and a
            # slice of a regrouped list (a code review)
            "import numpy as np\nfrom collections import Counter\n\ndef rows(x):\n    x = np.asarray(x) * 1.0\n"
            "    return set(map(tuple, x))\n\ndef counted(x):\n    x = np.asarray(x) * 1.0\n"
            "    return Counter(tuple(r) for r in x)\n\ndef inline(x):\n    x = np.asarray(x) * 1.0\n    counts = {}\n"
            "    for row in x:\n        counts[tuple(row)] = 1\n    return counts\n\n"
            "def tail(positions, i):\n    locs = np.take(positions, i)\n    seen = list(locs)\n"
            "    return set(seen[1:]), set(reversed(list(locs)))\n",
            expected=None,
            lines=[5, 9, 13, 20],
        ),
        Invalid(  # ... into a dict or set the function does not bind as a plain local: an attribute's, an annotated
            # local, the module's; a set's `update`; iterated through arithmetic; a scalar from a method (a code review)
            "import numpy as np\n\nSEEN = {}\n\nclass Tally:\n    def __init__(self):\n        self.counts = {}\n\n"
            "    def add(self, y):\n        for v in np.unique(y):\n            self.counts[v] = self.counts.get(v, 0) + 1\n\n"
            "def local(y):\n    counts: dict = {}\n    for v in np.unique(y) + 1:\n        counts[v] = 1\n    return counts\n\n"
            "def module(y):\n    for v in np.unique(y):\n        SEEN[v] = 1\n\n"
            "def grown(y):\n    seen = set()\n    seen.update(np.unique(y))\n    return seen\n\n"
            "def nearest(x, c, todo):\n    left = set(todo)\n    d = np.abs(x - c)\n    i = d.argmin()\n    left.remove(i)\n"
            "    return left\n",
            expected=None,
            lines=[10, 15, 20, 25, 30],
        ),
        Invalid(  # ... through a local name a `for` loop runs over: `key` is a key of the module's dict (acoustics'
            # criterion)
            "import numpy as np\n\nCURVES = {15: 'quiet', 20: 'calm'}\n\ndef f(lo, hi):\n    keys = np.arange(lo, hi, 5)\n"
            "    for key in keys:\n        label = CURVES.get(key)\n    return label\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # sorted by a method given `kind=`, which a JAX array's `argsort` rejects, here or by a caller of the
            # function that makes it (pyentrp's `time_delay_embedding`, then `e.argsort(kind="quicksort")`)
            "import numpy as np\n\ndef order_of(x):\n    x = np.asarray(x)\n    return x.argsort(kind=\"quicksort\"), x.argsort(0, \"mergesort\")\n\n"
            "def embed(x):\n    return np.stack([x[:-1], x[1:]], axis=1)\n\n"
            "def entropy(x):\n    e = embed(x)\n    return e.argsort(kind=\"quicksort\")\n",
            expected=None,
            lines=[4, 8],
        ),
        Invalid(  # ... and a caller sorting the function's result at once (neurokit2's `complexity_embedding(...)
            # .argsort(kind="quicksort")`)
            "import numpy as np\n\ndef embed(x):\n    return np.stack([x[:-1], x[1:]], axis=1)\n\n"
            "def entropy(x):\n    return embed(x).argsort(kind=\"quicksort\")\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # the same for a call's result sorted at once, and an attribute sorted elsewhere in the module
            "import numpy as np\n\ndef order(x):\n    return np.cumsum(x).argsort(kind=\"stable\")\n\n"
            "class S:\n    def __init__(self, x):\n        self.x = np.abs(x)\n\n"
            "    def order(self):\n        return self.x.argsort(kind=\"stable\")\n",
            expected=None,
            lines=[4, 8, 8],
        ),
        Invalid(  # an array cast to text, whatever made it, with the dtype in a constant or an f-string
            "import numpy as np\n\nTEXT = \"U5\"\n\ndef names(x):\n    y = np.abs(x)\n    return y.astype(TEXT)\n\n"
            "def labels(x, n):\n    return (np.round(x) + 1).astype(f\"U{n}\")\n",
            expected=None,
            lines=[6, 10],
        ),
        Invalid(  # what a helper returns is tested for a NumPy type by its caller, or by a function it hands it to
            "import numpy as np\n\ndef make(rows):\n    return np.array(rows) * 2.0\n\n"
            "def check(v):\n    assert type(v) is np.ndarray\n\n"
            "def total(rows):\n    v = make(rows)\n    check(v)\n    return v.sum()\n\n"
            "def build(rows):\n    return np.asarray(rows) + 1.0\n\n"
            "def kind(rows):\n    w = build(rows)\n    return type(w) == np.ndarray\n",
            expected=None,
            lines=[4, 15],
        ),
        Invalid(  # an element of what a helper returns, tested for a Python number or a NumPy scalar (bayes_opt's
            # `is_numeric` over its bounds' rows): a NumPy array's element is one, a JAX array's never is
            "from numbers import Number\nimport numpy as np\ndef bounds(n):\n    b = np.empty((n, 2))\n"
            "    for i in range(n):\n        b[i] = (0.0, 1.0)\n    return b\n"
            "def is_numeric(v):\n    return isinstance(v, Number) or isinstance(v, np.generic)\n"
            "def kinds(n):\n    return [is_numeric(row[0]) for row in bounds(n)]\n",
            expected=None,
            lines=[4, 7],
        ),
        Invalid(  # ... an element of an array made here (`x[i]`), or of a helper's result bound to a name
            "import numbers\nimport numpy as np\n\ndef is_real(v):\n    return not isinstance(v, numbers.Real)\n\n"
            "def kinds(n):\n    x = np.linspace(0.0, 1.0, n)\n    return [is_real(x[i]) for i in range(n)]\n\n"
            "def grid(n):\n    return np.arange(n) * 2.0\n\n"
            "def floats(n):\n    g = grid(n)\n    return [is_real(v) for v in g]\n",
            expected=None,
            lines=[8, 12],
        ),
        Invalid(  # ... but not a whole array (a test for a number fails it, NumPy's or JAX's) nor a Python number
            "import numpy as np\n\ndef is_float(v):\n    return isinstance(v, (float, np.floating))\n\n"
            "def grid(n):\n    return np.arange(n) * 2.0\n\n"
            "def kinds(n):\n    y = np.ones(n)\n    return is_float(grid(n)), is_float(y), is_float(0.5)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef is_float(v):\n    return isinstance(v, (float, np.floating))\n\n"
            "def grid(n):\n    return jnp.arange(n) * 2.0\n\n"
            "def kinds(n):\n    y = jnp.ones(n)\n    return is_float(grid(n)), is_float(y), is_float(0.5)\n",
            lines=[7, 10],
        ),
        Invalid(  # ... tested as it is, with no name (`type(build(rows)) is np.ndarray`)
            "import numpy as np\n\ndef build(rows):\n    return np.asarray(rows) + 1.0\n\n"
            "def kind(rows):\n    return type(build(rows)) is np.ndarray\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # a function of the module that returns a masked array: its caller's NumPy calls would be given one
            "import numpy as np\n\ndef grouped(m, keep):\n    return np.ma.mean(np.ma.masked_array(m, mask=~keep), axis=0)\n\n"
            "def total(m, keep):\n    g = grouped(m, keep)\n    return np.sum(g)\n\n"
            "def plain(m, keep):\n    return np.ma.filled(np.ma.masked_array(m, mask=~keep), 0.0)\n\n"
            "def total_plain(m, keep):\n    return np.sum(plain(m, keep))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\n"
                     "def grouped(m, keep):\n    return np.ma.mean(np.ma.masked_array(m, mask=~keep), axis=0)\n\n"
                     "def total(m, keep):\n    g = grouped(m, keep)\n    return np.sum(g)\n\n"
                     "def plain(m, keep):\n    return np.ma.filled(np.ma.masked_array(m, mask=~keep), 0.0)\n\n"
                     "def total_plain(m, keep):\n    return jnp.sum(plain(m, keep))\n",
            lines=[4, 7, 8, 11, 14],
        ),
        Invalid(  # the dense form of a SciPy sparse matrix is a NumPy matrix, whose `*` is a matrix product
            "import numpy as np\nimport scipy.sparse as sp\n\ndef square(n):\n    d = sp.eye(n).tocsr().todense()\n"
            "    q = np.add(d, 1.0)\n    return q * q\n",
            expected=None,
            lines=[5, 6],
        ),
        Invalid(  # (given arguments too)
            "import numpy as np\nimport scipy.sparse as sp\n\ndef square(n):\n    d = sp.eye(n).todense(order=\"C\")\n"
            "    q = np.add(d, 1.0)\n    return q * q\n",
            expected=None,
            lines=[5, 6],
        ),
        Invalid(  # ... and so is a sparse matrix's sum, mean, argmax or argmin along an axis (`W.sum(axis=1)`: the
            # degrees as a column matrix), of a local or an attribute, one of the class body too (`class G: W = ...`),
            # which NumPy's functions given one keep; not the same method of any other value (a code review)
            "import numpy as np\nfrom scipy import sparse\n\nclass G:\n    W = sparse.csr_matrix(np.eye(3))\n\n"
            "    def spread(self):\n        return np.abs(self.W - self.W.T).sum()\n\n"
            "    def scaled(self):\n        d = np.sqrt(self.W.sum(1))\n        return d.T * d\n\n"
            "def degrees(w):\n    W = sparse.csr_matrix(w)\n    d = np.sqrt(W.mean(axis=1))\n    return d.T * d\n\n"
            "def plain(x):\n    s = np.sqrt(x.sum(axis=1))\n    return s.T * s\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import sparse\n\nclass G:\n"
            "    W = sparse.csr_matrix(np.eye(3))\n\n"
            "    def spread(self):\n        return np.abs(self.W - self.W.T).sum()\n\n"
            "    def scaled(self):\n        d = np.sqrt(self.W.sum(1))\n        return d.T * d\n\n"
            "def degrees(w):\n    W = sparse.csr_matrix(w)\n    d = np.sqrt(W.mean(axis=1))\n    return d.T * d\n\n"
            "def plain(x):\n    s = jnp.sqrt(x.sum(axis=1))\n    return s.T * s\n",
            lines=[8, 11, 16, 20],
        ),
        Invalid(  # ... but not a `.todense()` of the module's own class (no `scipy.sparse`), nor one made plain at once
            "import numpy as np\n\nclass Packed:\n    def __init__(self, v):\n        self.v = v\n\n"
            "    def todense(self):\n        return np.outer(self.v, self.v)\n\n"
            "def energy(p):\n    d = p.todense()\n    return np.sum(d * d)\n",
            expected="import jax.numpy as jnp\n\nclass Packed:\n    def __init__(self, v):\n        self.v = v\n\n"
                     "    def todense(self):\n        return jnp.outer(self.v, self.v)\n\n"
                     "def energy(p):\n    d = p.todense()\n    return jnp.sum(d * d)\n",
            lines=[8, 12],
        ),
        Invalid(  # a SciPy sparse matrix compared with a number is a sparse matrix of booleans
            "import numpy as np\nfrom scipy import sparse\n\nclass G:\n    def __init__(self, w):\n"
            "        self.w = sparse.csr_matrix(w)\n\n    def asym(self):\n        a = self.w > 0\n"
            "        return np.abs(a - a.T).sum()\n",
            expected=None,
            lines=[10],
        ),
        Invalid(  # an attribute holding a copy of a NumPy call's array, written into in place by another method
            "import numpy as np\n\nclass S:\n    def start(self, x0):\n        self.x = np.asarray(x0, dtype=float).copy()\n\n"
            "    def clip(self):\n        self.x[:] = np.maximum(self.x, 0.0)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass S:\n    def start(self, x0):\n"
                     "        self.x = np.asarray(x0, dtype=float).copy()\n\n"
                     "    def clip(self):\n        self.x[:] = jnp.maximum(self.x, 0.0)\n",
            lines=[5, 8],
        ),
        Invalid(  # an attribute updated by an augmented assignment of a local name bound to it (`var = noise.var`,
            # `var *= step`: in place for a NumPy array; pymcmcstat's `sigma2 += ...`), or bound through `getattr` in a
            # tuple assignment: the array stays NumPy
            "import numpy as np\n\nclass Noise:\n    def __init__(self, k):\n        self.var = np.ones(k)\n"
            "        self.bias = np.zeros(k)\n\ndef refresh(noise, step):\n    var = noise.var\n    var *= step\n\n"
            "def shift(noise, step):\n    a, s = 0.0, getattr(noise, \"bias\")\n    s -= step\n",
            expected=None,
            lines=[5, 6],
        ),
        Invalid(  # a sort `kind` given by position to the functions (`jnp.argsort` takes two arguments by position), to
            # `argpartition` (whose JAX method takes no `kind`), and NumPy's unbound method (a code review)
            "import numpy as np\n\ndef order(x):\n    return np.argsort(x, 0, \"mergesort\"), np.sort(x * 2.0, -1, \"stable\")\n\n"
            "def near(x):\n    y = np.abs(x)\n    return y.argpartition(1, -1, \"introselect\")\n\n"
            "def ranks(x):\n    y = np.abs(x)\n    return np.ndarray.argsort(y, kind=\"stable\")\n\n"
            "def embed(x):\n    return np.abs(x) + 1.0\n\ndef rank(x):\n    e = embed(x)\n    return np.ndarray.argsort(e)\n",
            expected=None,
            lines=[4, 4, 7, 11, 12, 15, 15, 19],
        ),
        Invalid(  # arguments that do not bind to the namesake's signature: `axes` left out (NumPy reverses the axes,
            # `jnp.permute_dims` requires them: nilearn), a positional-only parameter given by keyword; the calls stay
            # NumPy, the rest moves
            "import numpy as np\n\ndef flipped(x):\n    y = np.exp(x)\n    return np.permute_dims(y), np.real(val=y)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef flipped(x):\n    y = jnp.exp(x)\n"
                     "    return np.permute_dims(y), np.real(val=y)\n",
            lines=[4, 5, 5],
        ),
        Invalid(  # an exception tuple held in an annotated name, caught around a call of the function
            "import numpy as np\n\nMISSING: tuple = (IndexError, KeyError)\n\ndef pick(a, i):\n    c = np.cumsum(a)\n"
            "    return c[i]\n\ndef safe(a, i):\n    try:\n        return pick(a, i)\n    except MISSING:\n        return -1\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # a caller's `except ValueError:` relies on NumPy's exception for a broadcast mismatch (JAX: TypeError)
            # (only what the `try` calls itself: `args.scale` is no call of `scale`)
            "import numpy as np\n\ndef misfit(x, y):\n    return np.sum(np.abs(x - y))\n\n"
            "def scale(x, s):\n    return np.asarray(x) * s\n\n"
            "def start(x, y, a, args):\n    try:\n        misfit(x, y)\n        s = float(args.scale)\n"
            "    except ValueError:\n        x, s = a @ x, 1.0\n    return scale(x, s)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef misfit(x, y):\n    return np.sum(np.abs(x - y))\n\n"
                     "def scale(x, s):\n    return jnp.asarray(x) * s\n\n"
                     "def start(x, y, a, args):\n    try:\n        misfit(x, y)\n        s = float(args.scale)\n"
                     "    except ValueError:\n        x, s = a @ x, 1.0\n    return scale(x, s)\n",
            lines=[4, 4, 7],
        ),
        Invalid(  # ... so does a caller's `with contextlib.suppress(ValueError):`, the `try` spelled as a context
            # manager, and one around a call in the function itself (`suppress(LinAlgError)` around `np.linalg.solve`)
            "import contextlib\nfrom contextlib import suppress\nimport numpy as np\n\n"
            "def misfit(x, y):\n    return np.sum(np.abs(x - y))\n\n"
            "def scale(x, s):\n    return np.asarray(x) * s\n\n"
            "def start(x, y):\n    with contextlib.suppress(ValueError):\n        misfit(x, y)\n    return scale(x, 2.0)\n\n"
            "def solved(a, b):\n    x = np.zeros(2)\n    with suppress(np.linalg.LinAlgError):\n        x = np.linalg.solve(a, b)\n"
            "    return x\n",
            expected="import contextlib\nfrom contextlib import suppress\nimport jax.numpy as jnp\nimport numpy as np\n\n"
            "def misfit(x, y):\n    return np.sum(np.abs(x - y))\n\n"
            "def scale(x, s):\n    return jnp.asarray(x) * s\n\n"
            "def start(x, y):\n    with contextlib.suppress(ValueError):\n        misfit(x, y)\n    return scale(x, 2.0)\n\n"
            "def solved(a, b):\n    x = np.zeros(2)\n    with suppress(np.linalg.LinAlgError):\n        x = np.linalg.solve(a, b)\n"
            "    return x\n",
            lines=[6, 6, 9, 17, 19],
        ),
        Invalid(  # the `except` relies on NumPy's exception: `jnp.hstack` of a 0-d array raises `ValueError` (cma's F10)
            "import numpy as np\n\ndef f(x):\n    try:\n        x = np.hstack(x)\n    except TypeError:\n        pass\n    return x\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # an array type whose `np.ndarray` base is imported: its `__new__` views an array as `cls` (pyrr)
            "import numpy as np\nfrom .base import Base\n\nclass V(Base):\n    def __new__(cls, n):\n        obj = np.zeros(n)\n"
            "        return obj.view(cls)\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # `jnp.pad` hashes `end_values`: computed ones raise under `jit` (colour's KernelInterpolator)
            "import numpy as np\n\ndef f(x, w):\n    return np.pad(x, (w, w), \"linear_ramp\", end_values=(x[0], x[-1]))\n",
            expected="import jax.numpy as jnp\n\ndef f(x, w):\n    return jnp.pad(x, (w, w), \"linear_ramp\", end_values=(x[0], x[-1]))\n",
            unsafe=True,
        ),
        Invalid(  # a NumPy scalar used as a set member, and the call that feeds it (pydmd's BOPDMD)
            "import numpy as np\n\ndef f(d):\n    left = set(range(len(d)))\n    i = np.argmin(np.abs(d))\n    left.remove(i)\n"
            "    return left\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # ... a key looked up in a dict display by `.get`, or tested against a set display
            "import numpy as np\n\ndef f(d):\n    i = np.argmin(d)\n    return {0: 'low', 1: 'high'}.get(i, ''), "
            "np.argmax(d) in {0, 1}\n",
            expected=None,
            lines=[4, 5],
        ),
        Invalid(  # a Python value made through NumPy: a string stays a string (skopt's BayesSearchCV)
            "import numpy as np\n\ndef f(points):\n    return [[np.array(v).item() for v in p] for p in points]\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # JAX arrays have no `.flat` (transforms3d's mat2euler unpacks it): a read of the elements only
            # becomes `jnp.ravel(M)`, the same elements for a NumPy array, a matrix and a JAX array
            "import numpy as np\n\ndef f(M):\n    M = np.asarray(M)\n    a, b = M.flat\n    return np.sqrt(a * b)\n",
            expected="import jax.numpy as jnp\n\ndef f(M):\n    M = jnp.asarray(M)\n    a, b = jnp.ravel(M)\n    return jnp.sqrt(a * b)\n",
            lines=[4, 5, 6],
        ),
        Invalid(  # ... also of a parameter, which a migrated caller hands a JAX array (transforms3d's
            # `mat2quat(euler2mat(...))`): iterated, indexed, given to a builtin that reads the elements
            "import numpy as np\n\ndef f(R, k):\n    w, x, y, z = R.flat\n    t = sum(R.flat) + R.flat[k]\n"
            "    return np.hypot(w, x) + t + max(v * v for v in R.flat)\n",
            expected="import jax.numpy as jnp\n\ndef f(R, k):\n    w, x, y, z = jnp.ravel(R)\n"
                     "    t = sum(jnp.ravel(R)) + jnp.ravel(R)[k]\n    return jnp.hypot(w, x) + t + max(v * v for v in jnp.ravel(R))\n",
            lines=[4, 5, 5, 6, 6],
        ),
        Invalid(  # ... nor elements that are objects (an attribute no number has is read off one: matplotlib's
            # `plt.subplots` grid of axes, an object array that `jnp.ravel` rejects): `.flat` stays
            "import numpy as np\n\ndef f(axes, x):\n    for i, ax in enumerate(axes.flat):\n        ax.set_title(str(i))\n"
            "    names = [ax.get_title() for ax in axes.flat]\n    return names, axes.flat[0].figure, np.sum(x)\n",
            expected="import jax.numpy as jnp\n\ndef f(axes, x):\n    for i, ax in enumerate(axes.flat):\n"
                     "        ax.set_title(str(i))\n    names = [ax.get_title() for ax in axes.flat]\n"
                     "    return names, axes.flat[0].figure, jnp.sum(x)\n",
            lines=[7],
        ),
        Invalid(  # ... nor elements hashed (`set(M.flat)`: a NumPy scalar is hashable, a 0-d JAX array is not)
            "import numpy as np\n\ndef distinct(M):\n    M = np.asarray(M)\n    return len(set(M.flat))\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # ... not a write through it (the in-place rules'), nor the iterator kept, which may be advanced or
            # written through later: those stay
            "import numpy as np\n\ndef f(R, v):\n    R.flat[0] = v\n    it = R.flat\n    a, R.flat[1] = 1.0, v\n"
            "    return np.sum(R), next(it)\n",
            expected="import jax.numpy as jnp\n\ndef f(R, v):\n    R.flat[0] = v\n    it = R.flat\n    a, R.flat[1] = 1.0, v\n"
                     "    return jnp.sum(R), next(it)\n",
            lines=[7],
        ),
        Invalid(  # `scipy.fftpack` reads its input's `.flags`, which a JAX array lacks (spafe's pncc cepstra)
            "import numpy as np\nfrom scipy import fftpack\nfrom scipy.fftpack import dct\n\ndef f(x):\n    y = np.abs(x)\n"
            "    return dct(y, norm='ortho'), fftpack.fft(np.log(x) * 2), np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import fftpack\nfrom scipy.fftpack import dct\n\n"
            "def f(x):\n    y = np.abs(x)\n    return dct(y, norm='ortho'), fftpack.fft(np.log(x) * 2), jnp.sum(x)\n",
            lines=[6, 7, 7],
        ),
        Invalid(  # ... also a module helper's result that a caller hands to it (fluids' pychebfun's `even_data`)
            "import numpy as np\nfrom scipy.fftpack import ifft\n\ndef even(d):\n    return np.concatenate([d, d[-2:0:-1]])\n\n"
            "def f(c):\n    data = even(c) / 2\n    return ifft(data).real, ifft(even(c) * 2)\n",
            expected=None,
            lines=[5, 5],
        ),
        Invalid(  # ... also when `scipy.fftpack` is imported by name or through a project's lazy loader (nitime's
            # `from nitime.lazy import scipy_fftpack as fftpack`): the helper stays NumPy
            "import importlib\nimport numpy as np\nfftpack = importlib.import_module('scipy.fftpack')\n\n"
            "def demean(x):\n    return x - np.mean(x, axis=-1)[..., None]\n\n"
            "def spectrum(x):\n    return fftpack.fft(demean(x), axis=-1)\n",
            expected=None,
            lines=[6, 6],
        ),
        Invalid(
            "import numpy as np\nfrom nitime.lazy import scipy_fftpack as fftpack\n\n"
            "def demean(x):\n    return x - np.mean(x, axis=-1)[..., None]\n\n"
            "def spectrum(x):\n    return fftpack.fft(demean(x), axis=-1)\n",
            expected=None,
            lines=[5, 5],
        ),
        Invalid(  # ... and through a local name bound to one of its functions (`fft = fftpack.fft`: nitime's
            # cross-correlation): `np.fliplr` given to it stays NumPy
            "import numpy as np\nfrom scipy import fftpack\n\ndef xc(s, e):\n    fft = fftpack.fft\n"
            "    return np.real(fftpack.ifft(fft(s) * fft(np.fliplr([e]))))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import fftpack\n\ndef xc(s, e):\n"
            "    fft = fftpack.fft\n    return jnp.real(fftpack.ifft(fft(s) * fft(np.fliplr([e]))))\n",
            lines=[6, 6],
        ),
        Invalid(  # rows of an array given one by one to matplotlib's `to_rgba`, which rejects a JAX array
            # (pytransform3d's `np.resize(color, (n, 3))`: `ValueError: Invalid RGBA argument`): it stays NumPy
            "import numpy as np\nfrom matplotlib import colors\n\ndef shades(c, n):\n    rows = np.tile(c, (n, 1)) * 0.5\n"
            "    return [colors.to_rgba(r) for r in rows], np.sum(c)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom matplotlib import colors\n\ndef shades(c, n):\n"
                     "    rows = np.tile(c, (n, 1)) * 0.5\n    return [colors.to_rgba(r) for r in rows], jnp.sum(c)\n",
            lines=[5, 6],
        ),
        Invalid(  # a helper whose result a caller hands to a function that makes conditions of its parameter for
            # `np.piecewise`, which takes a list of JAX conditions for one condition (pykrige's spherical variogram
            # given binned means: `IndexError`): the helper stays NumPy
            "import numpy as np\n\ndef binned(d, bins):\n    out = np.zeros(len(bins) - 1)\n    for n in range(len(bins) - 1):\n"
            "        out[n] = np.mean(d[(d >= bins[n]) & (d < bins[n + 1])])\n    return out\n\n"
            "def spherical(d, r):\n    return np.piecewise(d, [d <= r, d > r], [lambda x: x / r, 1.0])\n\n"
            "def run(d, bins):\n    return spherical(binned(d, bins), .5)\n",
            expected="import jax.numpy as jnp\n\ndef binned(d, bins):\n    out = jnp.zeros(len(bins) - 1)\n"
            "    for n in range(len(bins) - 1):\n        out[n] = jnp.mean(d[(d >= bins[n]) & (d < bins[n + 1])])\n"
            "    return out\n\ndef spherical(d, r):\n    return jnp.piecewise(d, [d <= r, d > r], [lambda x: x / r, 1.0])\n\n"
            "def run(d, bins):\n    return spherical(binned(d, bins), .5)\n",
            unsafe=True,  # (`jnp.piecewise`, which takes JAX conditions, is an unsafe fix: JX501's own)
            lines=[4, 6, 7, 10],
        ),
        Invalid(  # a scalar parameter of scikit-learn (`gamma=`, `bandwidth=`) stays NumPy: a 0-d JAX array fails its
            # validation or its in-place arithmetic (astroML's Nadaraya-Watson: `TypeError`); its data (`X`) need not
            "import numpy as np\nfrom sklearn.metrics.pairwise import pairwise_kernels\n\n"
            "def predict(X, Xt, y, h):\n    h = np.asarray(h)\n    Xs = np.sort(X, axis=0)\n"
            "    K = pairwise_kernels(Xs, Xt, metric='rbf', gamma=0.5 / h / h)\n    return K @ y\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom sklearn.metrics.pairwise import pairwise_kernels\n\n"
            "def predict(X, Xt, y, h):\n    h = np.asarray(h)\n    Xs = jnp.sort(X, axis=0)\n"
            "    K = pairwise_kernels(Xs, Xt, metric='rbf', gamma=0.5 / h / h)\n    return K @ y\n",
            lines=[5, 6],
        ),
        Invalid(  # a module helper whose result a caller hands to a `scipy.sparse` constructor: a JAX array is taken
            # for a sequence of diagonals (pygsp's `degree` then `sparse.diags(degree(W))`): the helper stays NumPy
            "import numpy as np\nfrom scipy import sparse\n\ndef degree(W):\n    return np.ravel(W.sum(axis=0))\n\n"
            "def laplacian(W):\n    return (sparse.diags(degree(W)) - W).toarray()\n",
            expected=None,
            lines=[5, 5],
        ),
        Invalid(  # ... also a property's (pygsp's `Graph.dw`, then `sparse.diags(self.dw)`)
            "import numpy as np\nfrom scipy import sparse\n\nclass G:\n    @property\n    def dw(self):\n"
            "        return np.ravel(self.W.sum(axis=0))\n\n    def laplacian(self):\n        return sparse.diags(self.dw) - self.W\n",
            expected=None,
            lines=[7, 7],
        ),
        Invalid(  # an attribute a class binds to a SciPy sparse matrix, here through a property (pygsp's `Graph.W`,
            # returning `self._adjacency = sparse.csr_matrix(...)`): `jnp.max(self.W)` raises TypeError
            "import numpy as np\nfrom scipy import sparse\n\nclass G:\n    def __init__(self, x):\n"
            "        self._adjacency = sparse.csr_matrix(x)\n\n    @property\n    def W(self):\n        return self._adjacency\n\n"
            "    def bound(self, x):\n        return np.max(self.W), np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import sparse\n\nclass G:\n    def __init__(self, x):\n"
            "        self._adjacency = sparse.csr_matrix(x)\n\n    @property\n    def W(self):\n        return self._adjacency\n\n"
            "    def bound(self, x):\n        return np.max(self.W), jnp.sum(x)\n",
            lines=[13, 13],
        ),
        Invalid(  # arithmetic, `.T` and the methods of a sparse matrix give sparse matrices (pygsp's `is_directed`:
            # `np.abs(L - L.T).sum()`)
            "import numpy as np\nfrom scipy import sparse\n\ndef f(x, y):\n    L = sparse.csr_matrix(x)\n"
            "    return np.abs(L - L.T).sum(), np.max(L.multiply(y)), np.sum(y)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import sparse\n\ndef f(x, y):\n    L = sparse.csr_matrix(x)\n"
            "    return np.abs(L - L.T).sum(), np.max(L.multiply(y)), jnp.sum(y)\n",
            lines=[6, 6, 6],
        ),
        Invalid(  # a function of the module returning a sparse matrix, whole or as a tuple's item, makes its callers'
            # values sparse, also where the name is rebound by a NumPy call kept so (librosa's `fft_basis =
            # __vqt_filter_fft(...)`, then `fft_basis = np.abs(fft_basis)`)
            "import numpy as np\nfrom scipy import sparse\n\ndef kernel(k):\n    return sparse.diags([1.0, -1.0], [0, 1], shape=(k, k))\n\n"
            "def kernels(k):\n    m = kernel(k).tocsc()\n    return k * 2, m\n\n"
            "def weights(k, y):\n    w = kernel(k)\n    w = np.square(w)\n    _, m = kernels(k)\n"
            "    return np.sqrt(w), np.negative(m), np.abs(kernels(k)[1]), np.exp(y)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import sparse\n\n"
            "def kernel(k):\n    return sparse.diags([1.0, -1.0], [0, 1], shape=(k, k))\n\n"
            "def kernels(k):\n    m = kernel(k).tocsc()\n    return k * 2, m\n\n"
            "def weights(k, y):\n    w = kernel(k)\n    w = np.square(w)\n    _, m = kernels(k)\n"
            "    return np.sqrt(w), np.negative(m), np.abs(kernels(k)[1]), jnp.exp(y)\n",
            lines=[13, 15, 15, 15],
        ),
        Invalid(  # a callee that writes into a copy of its parameter: the copy is the caller's kind of array, and a
            # write left in place (unsafe to rewrite, or held back) fails on a JAX one (pygsp's interpolation:
            # `sol = y.copy(); sol[unknown] = ...`); the caller's array stays NumPy
            "import numpy as np\n\ndef fill(y, i):\n    sol = y.copy()\n    sol[i] = 0.0\n    return sol\n\n"
            "def run(n):\n    signal = np.ones(n)\n    return fill(signal, 1)\n",
            expected=None,
            lines=[9, 10],
        ),
        Invalid(  # ... also through a comparison and a cast (properscoring's `exceeds = (x > t).astype(float)`, then
            # `exceeds[nan_mask] = np.nan`)
            "import numpy as np\n\ndef exceed(x):\n    e = (x > 0.0).astype(float)\n    e[0] = np.nan\n    return e\n\n"
            "def run(obs):\n    obs = np.asarray(obs)\n    return exceed(obs)\n",
            expected=None,
            lines=[9, 10],
        ),
        Invalid(  # a third-party function known to require a NumPy array (`sparse_data.NumpyOnly`): scikit-image's
            # `view_as_windows` raises TypeError for a JAX array (pygsp's patch features), so do OpenCV's functions
            "import numpy as np\nfrom skimage.util import view_as_windows\n\ndef patches(img):\n"
            "    img = np.pad(img, 1, mode=\"symmetric\")\n    return view_as_windows(img, (2, 2)), np.sum(img)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom skimage.util import view_as_windows\n\ndef patches(img):\n"
            "    img = np.pad(img, 1, mode=\"symmetric\")\n    return view_as_windows(img, (2, 2)), jnp.sum(img)\n",
            lines=[5, 6],
        ),
        Invalid(  # ... the array API's namespace lookups, which compare their arguments' libraries: a JAX array beside
            # the caller's NumPy one raises `Multiple namespaces` (pyriemann's reference matrix); scikit-learn's too
            "import numpy as np\nimport array_api_compat\nfrom sklearn.utils._array_api import get_namespace\n\n"
            "def centre(C, mean=None):\n    if mean is None:\n        mean = np.ones(C.shape[-1])\n"
            "    xp = array_api_compat.array_namespace(C, mean)\n    return xp.sum(C - mean), np.sum(C)\n\n"
            "def spread(C):\n    w = np.full(C.shape[0], 2.0)\n    xp, _ = get_namespace(C, w)\n    return xp.std(C * w)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nimport array_api_compat\nfrom sklearn.utils._array_api import get_namespace\n\n"
            "def centre(C, mean=None):\n    if mean is None:\n        mean = np.ones(C.shape[-1])\n"
            "    xp = array_api_compat.array_namespace(C, mean)\n    return xp.sum(C - mean), jnp.sum(C)\n\n"
            "def spread(C):\n    w = np.full(C.shape[0], 2.0)\n    xp, _ = get_namespace(C, w)\n    return xp.std(C * w)\n",
            lines=[7, 9, 12, 13],  # (13: `_array_api` is a private module, which may write into `w`)
        ),
        Invalid(  # ... and a parameter a function tests with `np.isscalar`, which a 0-d JAX array fails: SciPy's
            # `gaussian_kde(x, bw_method)`, given a local or a helper's result (neurokit2's density bandwidth); only it
            "import numpy as np\nfrom scipy.stats import gaussian_kde\n\ndef width(x):\n"
            "    return 1.06 * np.std(x) * len(x) ** -0.2\n\ndef smooth(x, grid):\n    kde = gaussian_kde(x, width(x))\n"
            "    return kde(np.sort(grid))\n\ndef fixed(x):\n    w = np.ptp(x) / 10\n"
            "    return gaussian_kde(np.abs(x), bw_method=w)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy.stats import gaussian_kde\n\ndef width(x):\n"
            "    return 1.06 * np.std(x) * len(x) ** -0.2\n\ndef smooth(x, grid):\n    kde = gaussian_kde(x, width(x))\n"
            "    return kde(jnp.sort(grid))\n\ndef fixed(x):\n    w = np.ptp(x) / 10\n"
            "    return gaussian_kde(jnp.abs(x), bw_method=w)\n",
            lines=[5, 9, 12, 13],
        ),
        Invalid(  # ... the sampling frequency `fs` of SciPy's filter design and frequency responses, by keyword or
            # position, here or through a helper's parameter (mne's `firwin(N, cutoff, fs=freq[-1] * 2)`)
            "import numpy as np\nfrom scipy import signal\n\ndef taps(n, edges, f):\n"
            "    return signal.firwin2(n, edges, [1.0, 0.0], fs=f[0] * 2)\n\ndef design(rates, n):\n"
            "    rates = np.asarray(rates) / 2.0\n    b, a = signal.iirnotch(5.0, 30.0, np.max(rates))\n"
            "    return taps(n, [0.0, 1.0], rates), b\n\ndef power(x, r):\n    return signal.welch(x, fs=np.abs(r))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import signal\n\ndef taps(n, edges, f):\n"
            "    return signal.firwin2(n, edges, [1.0, 0.0], fs=f[0] * 2)\n\ndef design(rates, n):\n"
            "    rates = np.asarray(rates) / 2.0\n    b, a = signal.iirnotch(5.0, 30.0, np.max(rates))\n"
            "    return taps(n, [0.0, 1.0], rates), b\n\ndef power(x, r):\n    return signal.welch(x, fs=jnp.abs(r))\n",
            lines=[8, 9, 10, 13],
        ),
        Invalid(  # ... the `sos` array of SciPy's `sosfilt`/`sosfiltfilt`, which their Cython code writes into (a
            # read-only JAX array raises `ValueError`), made here or by a helper (pyfar's `extend_sos` padding the
            # sections with `np.zeros` and `np.vstack`); the signal itself is copied first, so it may be a JAX array
            "import numpy as np\nfrom scipy import signal\n\ndef padded(sections, total):\n"
            "    sections = np.atleast_2d(sections)\n    extra = np.zeros((total - len(sections), 6))\n"
            "    extra[:, 0] = 1.0\n    return np.concatenate([sections, extra])\n\n"
            "def run(sections, x):\n    return signal.sosfiltfilt(padded(sections, 4), np.abs(x))\n\n"
            "def direct(sections, x):\n    s = np.asarray(sections, dtype=float)\n    return signal.sosfilt(s, x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy import signal\n\ndef padded(sections, total):\n"
            "    sections = np.atleast_2d(sections)\n    extra = np.zeros((total - len(sections), 6))\n"
            "    extra[:, 0] = 1.0\n    return np.concatenate([sections, extra])\n\n"
            "def run(sections, x):\n    return signal.sosfiltfilt(padded(sections, 4), jnp.abs(x))\n\n"
            "def direct(sections, x):\n    s = np.asarray(sections, dtype=float)\n    return signal.sosfilt(s, x)\n",
            lines=[5, 6, 8, 8, 11, 14],
        ),
        Invalid(  # ... and so through an attribute a helper's result is stored on (pyfar's `FilterSOS` keeps
            # `_atleast_3d_first_dim(coefficients)` and hands one of them to `sosfilt`)
            "import numpy as np\nfrom scipy.signal import sosfilt\n\ndef as_stack(sections):\n"
            "    sections = np.asarray(sections)\n    return sections[np.newaxis]\n\nclass Bank:\n"
            "    def __init__(self, sections):\n        self.sections = as_stack(sections)\n\n"
            "    def apply(self, x):\n        return sosfilt(self.sections[0], np.sqrt(x))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nfrom scipy.signal import sosfilt\n\ndef as_stack(sections):\n"
            "    sections = np.asarray(sections)\n    return sections[np.newaxis]\n\nclass Bank:\n"
            "    def __init__(self, sections):\n        self.sections = as_stack(sections)\n\n"
            "    def apply(self, x):\n        return sosfilt(self.sections[0], jnp.sqrt(x))\n",
            lines=[5, 6, 13],
        ),
        Invalid(  # NumPy's conversion of a JAX array (`np.asarray`, `np.atleast_1d`) is a read-only view of it: a
            # helper's result (unpacked) converted so, then made writeable (pyfar's `Coordinates._check`:
            # `x.setflags(write=True)`, in a method it is handed to, or under another name) must stay a NumPy array
            "import numpy as np\n\ndef unit(angle):\n    return np.cos(angle), np.sin(angle)\n\n"
            "def polar(angle):\n    return np.cos(angle) * 2, np.sin(angle) * 2\n\nclass Grid:\n"
            "    def __init__(self, angle):\n        u, v = unit(angle)\n        self.u = self._own(u)\n\n"
            "    def _own(self, u):\n        u = np.asarray(u, dtype=np.float64)\n        u.setflags(write=True)\n"
            "        return u\n\ndef writable(angle):\n    u, v = polar(angle)\n    w = np.atleast_1d(v)\n"
            "    w.setflags(write=True)\n    return w\n",
            expected=None,
            lines=[4, 4, 4, 7, 7, 7, 15, 21],
        ),
        Invalid(  # ... OpenCV
            "import cv2\nimport numpy as np\n\ndef f(img, k):\n    return cv2.blur(np.abs(img) * 2, (k, k)), np.sum(img)\n",
            expected="import cv2\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(img, k):\n"
            "    return cv2.blur(np.abs(img) * 2, (k, k)), jnp.sum(img)\n",
            lines=[5, 5],
        ),
        # what goes to a process pool's workers (`pool.map`, `ex.submit`, joblib's `delayed(f)(x)`), directly or
        # through a name and a loop over it: JAX does not survive the fork, a worker given a JAX array hung (pyswarms'
        # `compute_objective_function`); a thread pool shares the process: migrated
        Invalid("import multiprocessing as mp\nfrom concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor\n\n"
                "import numpy as np\n\ndef f(x):\n    return (x ** 2).sum(axis=1)\n\ndef evaluate(pos, n):\n"
                "    pool = mp.Pool(n)\n    res = pool.map(f, np.array_split(pos, n))\n    pool.close()\n"
                "    return np.concatenate(res)\n\ndef submit(pos):\n    chunks = np.array_split(pos, 2)\n"
                "    with ProcessPoolExecutor() as ex:\n        done = [ex.submit(f, c) for c in chunks]\n"
                "    with ThreadPoolExecutor() as tx:\n        more = list(tx.map(f, np.array_split(pos, 2)))\n"
                "    return done, more\n",
                expected="import multiprocessing as mp\nfrom concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor\n\n"
                "import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    return (x ** 2).sum(axis=1)\n\n"
                "def evaluate(pos, n):\n    pool = mp.Pool(n)\n    res = pool.map(f, np.array_split(pos, n))\n"
                "    pool.close()\n    return jnp.concatenate(res)\n\ndef submit(pos):\n    chunks = np.array_split(pos, 2)\n"
                "    with ProcessPoolExecutor() as ex:\n        done = [ex.submit(f, c) for c in chunks]\n"
                "    with ThreadPoolExecutor() as tx:\n        more = list(tx.map(f, jnp.array_split(pos, 2)))\n"
                "    return done, more\n",
                lines=[11, 13, 16, 20]),
        Invalid(  # ... and so does the function a worker runs, and the module's functions it calls: `jax.numpy` code in a
            # forked worker hangs once the parent has started JAX (pyswarms' objective functions)
            "import multiprocessing as mp\n\nimport numpy as np\n\ndef norm(x):\n    return np.sqrt(x)\n\n"
            "def f(x):\n    return np.sum(norm(x), axis=1)\n\ndef evaluate(pos, n):\n    with mp.Pool(n) as pool:\n"
            "        return pool.map(f, [pos])\n",
            expected=None, lines=[6, 9]),
        Invalid(  # ... also a `multiprocessing.Process` (its target and `args=`), and a pool a helper of the module makes
            # (`pool = make_pool()`): the child hung (a code review)
            "import multiprocessing as mp\n\nimport numpy as np\n\ndef work(x, q):\n    q.put(np.sum(x))\n\n"
            "def prep(n):\n    return np.sqrt(np.arange(n))\n\ndef make_pool():\n    return mp.Pool(2)\n\n"
            "def run(n, q):\n    p = mp.Process(target=work, args=(prep(n), q))\n    p.start()\n"
            "    pool = make_pool()\n    return pool.map_async(work, [np.ones(n)])\n",
            expected=None, lines=[6, 9, 18]),
        Invalid("import numpy as np\nfrom joblib import Parallel, delayed\n\ndef f(x):\n    return x * 2\n\n"
                "def run(xs):\n    return Parallel(n_jobs=2)(delayed(f)(np.abs(x)) for x in xs)\n",
                expected=None, lines=[8]),
        Invalid(  # ... PyWavelets, whose C transforms want a writable buffer (`pywt.dwt` of a JAX array raises)
            "import numpy as np\nimport pywt\n\ndef approx(n):\n    cA, cD = pywt.dwt(np.ones(n), 'haar')\n    return cA, np.sum(cD)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nimport pywt\n\ndef approx(n):\n"
            "    cA, cD = pywt.dwt(np.ones(n), 'haar')\n    return cA, jnp.sum(cD)\n",
            lines=[5, 6],
        ),
        Invalid(  # ... nor through arithmetic (GPy's Gaussian quadrature: `np.dot(c.flat, b)`)
            "import numpy as np\n\ndef f(a, b):\n    c = 2.0 / np.sqrt(a)\n    return np.dot(c.flat, b)\n",
            expected=None,
            lines=[4, 5],
        ),
        Invalid(  # a JAX array takes no flat iterator as an index (GPy's kernel rows: `K[X.astype(int).flat, :]`)
            "import numpy as np\n\ndef f(K, X):\n    K = np.asarray(K, dtype=float)\n    i = X.astype(int).flat\n"
            "    return K[i, :]\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # ... nor `jax.numpy` as an array: the call given one stays NumPy
            "import numpy as np\n\ndef f(X, b):\n    return np.dot(X.flat, b), np.sum(b)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(X, b):\n    return np.dot(X.flat, b), jnp.sum(b)\n",
            lines=[4, 4],
        ),
        Invalid(  # `None` data makes an object array: `jnp.array([[None] * n])` raises ValueError
            "import numpy as np\n\nclass F:\n    def __init__(self, n):\n        self.z = np.array([[None] * n]).T\n"
            "        self.x = np.zeros(n)\n",
            expected=None,
            lines=[5, 6],
        ),
        Invalid(  # ... which a call hands to a helper of the module: the helper's `jnp.atleast_2d` would reject it
            # (filterpy's `reshape_z(np.array([None] * dim_z), dim_z)`), also through a parameter passed on
            "import numpy as np\n\ndef reshape_z(z, dim_z):\n    z = np.atleast_2d(z)\n    return z.T\n\n"
            "def check(z):\n    return np.sum(reshape_z(z, 2))\n\n"
            "class F:\n    def __init__(self, n):\n        self.z = check(np.array([None] * n))\n",
            expected=None,
            lines=[4, 8, 12],
        ),
        Invalid(  # ... or a local made from such a parameter (filterpy's `r = reshape_z(z, 2)`, then `np.transpose(r)`);
            # not one read only for its size (`n = len(z)`: `np.zeros(n)` is numbers)
            "import numpy as np\n\ndef reshape_z(z, dim_z):\n    return np.atleast_2d(z).T\n\n"
            "def residual(z):\n    r = reshape_z(z, 2)\n    return np.transpose(r)\n\n"
            "def blank(z):\n    n = len(z)\n    m = z.shape[0]\n    return np.zeros(n + m)\n\n"
            "def run():\n    z = np.array([None] * 2)\n    return residual(z), blank(z)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef reshape_z(z, dim_z):\n    return np.atleast_2d(z).T\n\n"
            "def residual(z):\n    r = reshape_z(z, 2)\n    return np.transpose(r)\n\n"
            "def blank(z):\n    n = len(z)\n    m = z.shape[0]\n    return jnp.zeros(n + m)\n\n"
            "def run():\n    z = np.array([None] * 2)\n    return residual(z), blank(z)\n",
            lines=[4, 8, 13, 16],
        ),
        Invalid(  # ... also a loop's row, an annotated or `:=` binding (a code review); not after the parameter is rebound
            # to numbers first, nor an object made from it read through another attribute (scipy's
            # `subprob = BarrierSubproblem(x0, fun, ...)`, then `np.full(subprob.n_vars, ...)`)
            "import numpy as np\n\ndef first(z):\n    for row in z:\n        return np.atleast_1d(row)\n\n"
            "def second(z):\n    r: object = z[0]\n    return np.atleast_1d(r), np.atleast_1d(s := z[1]), s\n\n"
            "def fresh(z, n):\n    z = np.arange(n) * 1.0\n    r = z * 2.0\n    return np.sum(r)\n\n"
            "class Sub:\n    def __init__(self, fun):\n        self.n = 2\n\n"
            "def solve(fun):\n    sub = Sub(fun)\n    return np.full(sub.n, 1.0)\n\n"
            "def run(n):\n    z = np.array([None] * 2)\n    return first(z), second(z), fresh(z, n), solve(lambda x: x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef first(z):\n    for row in z:\n        return np.atleast_1d(row)\n\n"
            "def second(z):\n    r: object = z[0]\n    return np.atleast_1d(r), np.atleast_1d(s := z[1]), s\n\n"
            "def fresh(z, n):\n    z = jnp.arange(n) * 1.0\n    r = z * 2.0\n    return jnp.sum(r)\n\n"
            "class Sub:\n    def __init__(self, fun):\n        self.n = 2\n\n"
            "def solve(fun):\n    sub = Sub(fun)\n    return jnp.full(sub.n, 1.0, dtype=float)\n\n"
            "def run(n):\n    z = np.array([None] * 2)\n    return first(z), second(z), fresh(z, n), solve(lambda x: x)\n",
            lines=[5, 9, 9, 12, 14, 22, 25],
        ),
        Invalid(  # ... also a local read through a method that keeps the elements (`r.ravel()`, `getattr(z, "T")`), a
            # row of `enumerate(z)` or an item of `zip(z, w)` (a code review)
            "import numpy as np\n\ndef flat(z):\n    r = z.reshape(2, 1)\n    return np.concatenate([r.ravel(), r.ravel()])\n\n"
            "def turned(z):\n    t = getattr(z, \"T\")\n    return np.atleast_1d(t)\n\n"
            "def rows(z, w):\n    return [np.atleast_1d(r) * v for i, (r, v) in enumerate(zip(z, w))]\n\n"
            "def run(n):\n    z = np.array([None, \"a\"])\n    return flat(z), turned(z), rows(z, np.ones(n))\n",
            expected=None,
            lines=[5, 9, 12, 15, 16],
        ),
        Invalid(  # ... also a slice or reshaping of a local object array (`w = z[:1]`, `z.ravel()`), and a helper
            # handed on with `map` (`map(first, [z])` calls `first(z)`); not of a numeric array (a code review)
            "import numpy as np\n\n"
            "def twice(z):\n    return np.concatenate([z, z])\n\n"
            "def first(z):\n    return np.atleast_1d(z)\n\n"
            "def sliced():\n    z = np.array([None, \"a\"])\n    w = z[:1]\n    return twice(w), list(map(first, [z.ravel()]))\n\n"
            "def total(z):\n    return np.sum(z)\n\n"
            "def plain(n):\n    x = np.ones(n)\n    return total(x[:1]), list(map(total, [x.T, x]))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\n"
            "def twice(z):\n    return np.concatenate([z, z])\n\n"
            "def first(z):\n    return np.atleast_1d(z)\n\n"
            "def sliced():\n    z = np.array([None, \"a\"])\n    w = z[:1]\n    return twice(w), list(map(first, [z.ravel()]))\n\n"
            "def total(z):\n    return jnp.sum(z)\n\n"
            "def plain(n):\n    x = jnp.ones(n)\n    return total(x[:1]), list(map(total, [x.T, x]))\n",
            lines=[4, 7, 10, 15, 18],
        ),
        Invalid(  # ... also an array a NumPy call makes of a local object array, keeping its elements
            # (`np.concatenate([z, z])`, `np.where(m, z, 0)`), or one of an if-expression's values; not one cast to a
            # number (`dtype=float`), nor a joining of numeric arrays (a code review)
            "import numpy as np\n\n"
            "def first(z):\n    return np.sort(z)\n\n"
            "def second(z):\n    return np.sort(z)\n\n"
            "def third(z):\n    return np.sort(z)\n\n"
            "def total(v):\n    return np.sum(v)\n\n"
            "def joined(n, m):\n    z = np.empty(3, dtype=object)\n    w = np.concatenate([z, z])\n"
            "    return first(w), second(np.where(m, z, 0))\n\n"
            "def chosen(n, flag, other):\n    z = np.empty(n, dtype=object) if flag else other\n    return third(z)\n\n"
            "def plain(n):\n    z = np.empty(3, dtype=object)\n    x = np.ones(3)\n"
            "    return total(np.concatenate([x, x])), total(np.asarray(z, dtype=float))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\n"
            "def first(z):\n    return np.sort(z)\n\n"
            "def second(z):\n    return np.sort(z)\n\n"
            "def third(z):\n    return np.sort(z)\n\n"
            "def total(v):\n    return jnp.sum(v)\n\n"
            "def joined(n, m):\n    z = np.empty(3, dtype=object)\n    w = np.concatenate([z, z])\n"
            "    return first(w), second(np.where(m, z, 0))\n\n"
            "def chosen(n, flag, other):\n    z = np.empty(n, dtype=object) if flag else other\n    return third(z)\n\n"
            "def plain(n):\n    z = np.empty(3, dtype=object)\n    x = np.ones(3)\n"
            "    return total(np.concatenate([x, x])), total(np.asarray(z, dtype=float))\n",
            lines=[4, 7, 10, 13, 16, 17, 18, 21, 25, 26, 27],
        ),
        Invalid(  # ... also a text array of a sized dtype, by keyword or position (`dtype="<U5"`, `"S8"`): `jnp.sort`
            # rejects it (a code review)
            "import numpy as np\n\ndef first(labels):\n    return np.sort(labels)\n\n"
            "def run(values):\n    return first(np.asarray(values, dtype=\"<U5\")), first(np.array(values, \"S8\"))\n\n"
            "def more(values):\n    return first(np.asarray(values, dtype=np.dtype(\"U5\"))), first(np.asarray(values).astype(\"U5\"))\n",
            expected=None,
            lines=[4, 7, 7, 10],
        ),
        Invalid(  # ... also one whose dtype is a module constant or a local (`TEXT = "U5"`, `kind = "S8"`); not a
            # numeric one (`WIDE = np.float64`) (a code review)
            "import numpy as np\n\n"
            "TEXT = \"U5\"\nWIDE = np.float64\n\n"
            "def first(labels):\n    return np.sort(labels)\n\n"
            "def second(labels):\n    return np.sort(labels)\n\n"
            "def total(v):\n    return np.sum(v)\n\n"
            "def run(x):\n    kind = \"S8\"\n    return first(np.asarray(x, dtype=TEXT)), second(np.array(x, kind)), total(np.asarray(x, dtype=WIDE))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\n"
            "TEXT = \"U5\"\nWIDE = np.float64\n\n"
            "def first(labels):\n    return np.sort(labels)\n\n"
            "def second(labels):\n    return np.sort(labels)\n\n"
            "def total(v):\n    return jnp.sum(v)\n\n"
            "def run(x):\n    kind = \"S8\"\n    return first(np.asarray(x, dtype=TEXT)), second(np.array(x, kind)), total(np.asarray(x, dtype=WIDE))\n",
            lines=[7, 10, 13, 17],
        ),
        Invalid(  # ... whatever spells the constant's dtype (`np.str_`, `np.object_`, `np.dtype("O")`, `np.dtype(str)`,
            # `object`), by keyword, position or `.astype`; not a numeric one (a code review)
            "import numpy as np\n\n"
            "A = np.str_\nB = np.object_\nC = np.dtype(\"O\")\nD = np.dtype(str)\nE = object\nF = np.float32\n\n"
            "def run(x):\n    return np.asarray(x, dtype=A), np.zeros(3, B), np.asarray(x).astype(C)\n\n"
            "def more(x):\n    return np.full(3, None, D), np.empty(2, dtype=E)\n\n"
            "def plain(x):\n    return np.asarray(x, dtype=F)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\n"
            "A = np.str_\nB = np.object_\nC = np.dtype(\"O\")\nD = np.dtype(str)\nE = object\nF = np.float32\n\n"
            "def run(x):\n    return np.asarray(x, dtype=A), np.zeros(3, B), np.asarray(x).astype(C)\n\n"
            "def more(x):\n    return np.full(3, None, D), np.empty(2, dtype=E)\n\n"
            "def plain(x):\n    return jnp.asarray(x, dtype=F)\n",
            lines=[11, 11, 11, 14, 14, 17],
        ),
        Invalid(  # ... or a `Decimal` (numpy_financial's `fv(Decimal("0.075"), ...)`): `jnp.where` raises on it
            "from decimal import Decimal as D\nimport numpy as np\n\ndef fv(rate, nper):\n"
            "    return np.where(rate == 0, nper, 1 / rate)\n\nFV = fv(D(\"0.075\"), 20)\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # ... or a list or tuple of them, or a name bound to one (numpy_financial's `npv(rate, [Decimal(...),
            # ...])`): NumPy makes an object array, `jnp.asarray` raises
            "from decimal import Decimal\nfrom fractions import Fraction\nimport numpy as np\n\ndef total(flows):\n"
            "    return np.asarray(flows).sum()\n\ndef mean(xs):\n    return np.mean(xs)\n\n"
            "T = total([Decimal(\"-10\"), Decimal(\"2.5\")])\nxs = (Fraction(1, 3), 2)\nM = mean(xs)\n",
            expected=None,
            lines=[6, 9],
        ),
        Invalid(  # ... or a masked array, from a local name (pykalman's `array2d(obs)`, `obs = np.ma.masked_invalid(...)`):
            # `jnp.atleast_2d` rejects it
            "import numpy\n\ndef array2d(X):\n    return numpy.atleast_2d(X)\n\n"
            "def smooth(y):\n    obs = numpy.ma.masked_invalid(y)\n    return array2d(obs)\n",
            expected=None,
            lines=[4, 7],
        ),
        Invalid(  # ... or a function, class or lambda (pykalman's `array1d(f)`): NumPy makes an object array of it,
            # `jnp.atleast_1d` raises
            "import numpy as np\n\ndef array1d(X):\n    return np.atleast_1d(X)\n\n"
            "def f(s):\n    return s + 1\n\ndef build():\n    g = lambda s: s\n    return array1d(f), array1d(g)\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # ... but a function given and called (`np.sum(f(x))`) hands the NumPy call its result, not itself;
            # and a method's name binds no plain name (`for mean in means: as1d(mean)` passes an item)
            "import numpy as np\n\ndef integrate(f, a, b):\n    x = np.linspace(a, b, 11)\n    return np.sum(f(x))\n\n"
            "def as1d(X):\n    return np.atleast_1d(X)\n\nclass A:\n    def mean(self):\n        return 0.0\n\n"
            "def area(means):\n    for mean in means:\n        as1d(mean)\n    return integrate(as1d, 0.0, 1.0)\n",
            expected="import jax.numpy as jnp\n\ndef integrate(f, a, b):\n    x = jnp.linspace(a, b, 11)\n    return jnp.sum(f(x))\n\n"
            "def as1d(X):\n    return jnp.atleast_1d(X)\n\nclass A:\n    def mean(self):\n        return 0.0\n\n"
            "def area(means):\n    for mean in means:\n        as1d(mean)\n    return integrate(as1d, 0.0, 1.0)\n",
        ),
        Invalid(  # a `singledispatch` default with `np.ndarray` registered (pointpats' geometry helpers): a JAX array
            # takes the default, whose `np.asarray` must stay (as `jnp.asarray` it would dispatch to itself forever);
            # a dispatch with no NumPy type registered migrates
            "from functools import singledispatch\nimport numpy as np\n\n@singledispatch\ndef width(v):\n"
            "    return width(np.asarray(v))\n\n@width.register\ndef _(v: np.ndarray):\n    return np.ptp(v)\n\n"
            "@singledispatch\ndef size(v):\n    return size(np.asarray(v))\n\nsize.register(np.ndarray, len)\n\n"
            "@singledispatch\ndef plain(v):\n    return np.asarray(v)\n\n@plain.register(list)\ndef _(v):\n"
            "    return np.ones(len(v))\n",
            expected="from functools import singledispatch\nimport jax.numpy as jnp\nimport numpy as np\n\n@singledispatch\n"
            "def width(v):\n    return width(np.asarray(v))\n\n@width.register\ndef _(v: np.ndarray):\n    return jnp.ptp(v)\n\n"
            "@singledispatch\ndef size(v):\n    return size(np.asarray(v))\n\nsize.register(np.ndarray, len)\n\n"
            "@singledispatch\ndef plain(v):\n    return jnp.asarray(v)\n\n@plain.register(list)\ndef _(v):\n"
            "    return jnp.ones(len(v))\n",
            lines=[5, 6, 10, 13, 14, 20, 24],
        ),
    ]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        reason = _dispatch.default_message(self, node)
        if reason is not None:  # `@singledispatch` with `np.ndarray` registered: JAX arrays take this default
            self.report(node.name, reason, leaves_function=True)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._boundary.note_attribute(node)
        if self.current_function is None or node.attr.value in ("ma",):
            return
        if node in self._matrices.reads:  # `self.P`, bound to a matrix in `__init__`; `self.as_mat(a)`
            self.report(node, _matrices.read(self._matrices.reads[node]), leaves_function=True)
            return
        if node in self._masked.reads:  # `self.M`, bound to a masked array in `__init__`
            self.report(node, self._masked.reads[node].replace("matrix", "masked array") + " (JAX functions reject "
                        "masked arrays): this function is left as it is", leaves_function=True)
            return
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.Call) and parent.func is node:
            return  # a call: visit_Call reports it
        if node.attr.value == "flat" and flat_read(self, node, parent):
            text = f"{self.jnp}.ravel({self.code(node.value)})"
            self.report(node, f"`{self.code(node)}` is a NumPy flat iterator, which JAX arrays do not have "
                        "(`NotImplementedError`): the function fails once it is given a JAX array (a migrated "
                        f"caller's result); read the elements through `{text}`, the same elements in the same order "
                        "for a NumPy array, a `np.matrix` and a JAX array", replacement=self.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))
            return
        qualified = numpy_name(self, node)
        if self._referenced(node, qualified):
            pass
        elif qualified in ("numpy.r_", "numpy.c_") and isinstance(parent, cst.Subscript) and parent.value is node:
            target = f"{self.jnp}.{qualified[len('numpy.'):]}"
            self.report(node, f"`{self.code(node)}[...]` joins its items on the host (a traced item raises under `jit`); "
                        f"use `{target}[...]`", replacement=self.dotted(target), title=f"replace with `{target}`",
                        imports=("jnp",))

    def visit_Name(self, node: cst.Name) -> None:
        if self.current_function is None:
            return
        if node in self._matrices.reads:  # `P`, bound to a matrix at module level
            self.report(node, _matrices.read(self._matrices.reads[node]), leaves_function=True)
            return
        if node in self._masked.reads:  # `M`, bound to a masked array at module level
            self.report(node, self._masked.reads[node].replace("matrix", "masked array") + " (JAX functions reject "
                        "masked arrays): this function is left as it is", leaves_function=True)
            return
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.Call) and parent.func is node or isinstance(parent, (cst.ImportAlias, cst.Attribute)):
            return  # a call (visit_Call), an import, or part of a dotted name (visit_Attribute)
        self._referenced(node, numpy_name(self, node))

    def _referenced(self, node: cst.BaseExpression, qualified: Optional[str]) -> bool:
        """A NumPy function named, not called, that says the function takes array subclasses: `np.ma`'s machinery
        (`map(np.ma.getdata, xs)`), or `np.asanyarray` handed on (`map(np.asanyarray, (lat,))`, `partial(...)`, a
        default argument: seawater's `lat, = list(map(np.asanyarray, (lat,)))`), which keeps a masked array that
        the function's `jax.numpy` calls would reject or unmask. Reported as the call would be; True if so."""
        if qualified is not None and qualified.startswith("numpy.ma."):
            self.report(node, f"`{self.code(node)}` is NumPy's masked-array machinery, which JAX has no counterpart for: "
                        "this function is left as it is", leaves_function=True)
            return True
        if _matrices.matrix_name(qualified):  # `isinstance(x, np.matrix)`, `x.view(np.matrix)`
            if _matrices.normalised(self, node, self.current_function):  # `if isinstance(a, np.matrix): a = np.asarray(a)`
                return True
            self.report(node, _matrices.message(self.code(node)), leaves_function=True)
            return True
        if qualified != "numpy.asanyarray":
            return False
        target = f"{self.jnp}.{SUBSTITUTES['asanyarray']}"
        self.report(node, f"`{self.code(node)}` is handed on as a function: it keeps array subclasses (a masked array), "
                    f"which the function's other NumPy calls then meet; `{target}` {DIFFERENT['asanyarray']}",
                    replacement=self.dotted(target), title=f"replace with `{target}`", imports=("jnp",), unsafe=True,
                    blocks_function=True)
        return True

    def visit_Call(self, node: cst.Call) -> None:
        if self.current_function is None:
            return
        self._filled(node)
        self._widening.widen(node)
        _namesakes.layout_keyword(self, node)
        _namesakes.method_order(self, node)
        _namesakes.method_accumulator(self, node)
        self._boundary.note_call(node)
        if isinstance(node.func, cst.Name) and node.func.value in self._matrices.makers:  # `m = as_matrix(a)`
            self.report(node, _matrices.returned(node.func.value), leaves_function=True)
            return
        if self._boundary.sparse_matrix(node) and not self._made_plain(node):  # `D = S.todense()`, `W.sum(axis=1)`
            self.report(node, _matrices.message(self.code(node)), leaves_function=True)
            return
        if isinstance(node.func, cst.Name) and node.func.value in self._masked.makers:  # `agg = grouped_mean(m, g)`
            self.report(node, f"`{node.func.value}(...)` may return a NumPy masked array, which JAX has no counterpart "
                        "for (JAX functions reject them): this function is left as it is", leaves_function=True)
            return
        qualified = numpy_name(self, node.func)
        if qualified is None or qualified.startswith(OTHER_FAMILIES):
            return
        if _matrices.matrix_name(qualified):  # `np.asmatrix(x)`: a matrix, whose `*` JAX arrays cannot keep
            self.report(node, _matrices.message(self.code(node.func)), leaves_function=True)
            return
        if qualified in ("numpy.errstate", "numpy.seterr") and _reports_errors(node):
            self.report(node, f"`{self.code(node)}` makes NumPy warn or raise `FloatingPointError` on a division by zero, "
                        "an overflow or an invalid operation, which JAX never does (it gives inf or nan silently): "
                        "this function is left as it is", leaves_function=True)
            return
        reason = self._boundary.call_reason(node, qualified)
        if reason is not None:
            message, blocks = reason
            self.report(node, message, leaves_function=blocks)
            return
        if self._boundary.written_through(node):
            self.report(node, f"`{self.code(node.func)}(...)[...]` is written into: NumPy writes through the view the call "
                        "returns (`np.einsum('kii->ki', x)[:] -= 1` sets a diagonal of `x`), which no JAX array can be; "
                        "this function is left as it is", leaves_function=True)
            return
        keywords = [arg.keyword.value for arg in node.args if arg.keyword is not None]
        if "out" in keywords:
            return
        parts = qualified.split(".")
        if len(parts) == 3 and parts[2] == "at":
            return
        short = ".".join(parts[1:])
        if parts[-1] in HOST_ONLY:
            return
        source = self.code(node.func)
        if parts[-1] in IN_PLACE and len(parts) == 2:
            self.report(node, f"`{source}` writes into its argument in place, which `jnp.{short}` cannot do: build the "
                        f"new array (`.at[...]` updates or `jnp.where`) and assign it back", blocks_function=True)
            return
        ufunc = getattr(np, parts[1], None) if len(parts) == 2 else None
        # the positional arguments before `out`: a ufunc's inputs (`np.multiply(a, b, a)`, `np.sqrt(d, d)`), or the
        # parameters before `out` in the function's signature (`np.clip(K, lo, hi, K)`: ruptures' rbf cost)
        before_out = ufunc.nin if isinstance(ufunc, np.ufunc) else _namesakes.out_position(parts[1]) if len(parts) == 2 else None
        if before_out is not None and len([a for a in node.args if a.keyword is None and not a.star]) > before_out:
            self.report(node, f"`{source}` is given an output array as a positional argument (`out`): it writes "
                        "into it in place; assign the result instead", blocks_function=True)
            return
        if _host_values.host_result(self, node, parts[-1]):
            return  # e.g. np.prod(x.shape), np.isnan(rng) of a tuple parameter: must stay concrete under jit
        if parts[-1] in SPACED and _host_values.iterated(self, node):
            return  # `for i in np.arange(1, n)`: Python iterates on the host; as `jnp`, `i` is an array (a tracer
            # under `jit`), which `range`, pandas' `rolling(window=2**i)` and other host code reject (pvlib's wvm)
        count = _host_values.counted(self, node)
        if count is not None:
            # NumPy's `repeat` and `tile` take a float count (`np.sqrt(m)`), which JAX's reject even as a NumPy
            # value: the array repeated must stay NumPy too, so the function is left whole (commpy's QAM modem)
            floats = count in ("repeat", "tile") and dtype_of(function_facts(self, self.current_function), node).top > INT
            given = "a slice bound" if count == "slice" else f"a count, size or shape (of `{count}`)"
            self.report(node, f"`{source}(...)` gives {given}, which must be a Python "
                        f"value: under `jit` only the NumPy call keeps it concrete"
                        + (f", and `{count}` may be given a float count, which NumPy takes and JAX rejects (its "
                           "`repeat` hashes the count): this function is left as it is" if floats else
                           "; this call stays NumPy"), leaves_function=floats)
            return
        # `np.asanyarray(x)`: `jnp.asarray`, JAX arrays having no subclasses or layouts; `named` as called: `DIFFERENT`
        # says how `jnp.asarray` differs from `np.asanyarray`
        named, short, entry, method = _namesakes.namesake(qualified)
        if entry is None or entry["kind"] in ("constant", "class"):
            self.report(node, f"`{source}` has no jax.numpy equivalent: it fails on traced values under `jit`")
            return
        layout = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "order"), None)
        layout = layout.evaluated_value.upper() if isinstance(layout, cst.SimpleString) else None
        if layout == "F" and parts[-1] in LAYOUT_ONLY_ORDER:
            self.report(node, f"`{source}(..., order='F')` asks for a Fortran-ordered buffer, which JAX arrays do not "
                        "have: code that needs one (LAPACK, Cython, `.flags`) would break; this function is left as it is",
                        leaves_function=True)
            return
        unaccepted = _namesakes.unaccepted(node, qualified, source)
        if unaccepted is not None:  # `order='K'`, `np.argsort(x, 0, "mergesort")`, `np.log(x, where=x > 0)`
            self.report(node, unaccepted)
            return
        droppable = _namesakes.droppable(parts[-1])
        target = f"{self.jnp}.{short}"
        dropped = next((a for a in node.args if a.keyword is not None and a.keyword.value == droppable), None)
        if dropped is not None:
            # `order=` only chooses a memory layout here, which JAX arrays do not have (jnp takes only "K"); `kind=`
            # only chooses a sort algorithm (JAX's sort is stable, one of the orders NumPy's may give)
            kept = [a for a in node.args if a is not dropped]
            if kept:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            why = "a memory layout, which JAX arrays do not have" if droppable == "order" else "a sort algorithm; JAX's is stable"
            self.report(
                node,
                f"NumPy call `{source}` inside a function runs on the host; under `jit` use `{target}` (without "
                f"`{droppable}=`: {why})",
                replacement=node.with_changes(func=self.dotted(target), args=kept),
                title=f"replace with `{target}`",
                imports=("jnp",),
            )
            return
        cutoff = _triangles.pinv_cutoff(node) if short == "linalg.pinv" else None
        if cutoff == "other":
            self.report(node, f"NumPy call `{source}` inside a function runs on the host, but `{target}` would drop "
                        "other singular values: given `None` (or through `*args`/`**kwargs`), NumPy's cutoff is `1e-15` "
                        "(`rcond`) or `max(M, N) * eps` (`rtol`), JAX's `10 * max(M, N) * eps`; pass the cutoff as a "
                        "number (`rtol=1e-15`), then migrate")
            return
        if cutoff == "default":
            # NumPy's default cutoff is `rcond=1e-15`, `jax.numpy`'s `10 * max(M, N) * eps`: keep NumPy's
            self.report(
                node,
                f"NumPy call `{source}` inside a function runs on the host; under `jit` use `{target}` with "
                f"`rtol=1e-15`: NumPy drops singular values up to 1e-15 times the largest, `{target}` by default those up "
                "to `10 * max(M, N) * eps` times it, which gives another pseudo-inverse for a nearly singular matrix",
                replacement=_triangles.with_keyword(node.with_changes(func=self.dotted(target)), "rtol", "1e-15"),
                title=f"replace with `{target}(..., rtol=1e-15)`",
                imports=("jnp",),
            )
            return
        triangle = _triangles.needs_keyword(node, short, function_facts(self, self.current_function), lambda e: numpy_name(self, e)) \
            if short in _triangles.ONE_TRIANGLE else None
        if triangle == "keyword":
            # NumPy reads one triangle, `jax.numpy` symmetrizes: `symmetrize_input=False` reads the same triangle
            self.report(
                node,
                f"NumPy call `{source}` inside a function runs on the host; under `jit` use `{target}` with "
                f"`{_triangles.KEYWORD}=False`: NumPy reads only one triangle of the matrix, `{target}` averages it with "
                "its transpose by default, which differs for a matrix not symmetric by construction",
                replacement=_triangles.with_keyword(node.with_changes(func=self.dotted(target))),
                title=f"replace with `{target}(..., {_triangles.KEYWORD}=False)`",
                imports=("jnp",),
            )
            return
        different = DIFFERENT.get(named) or (_triangles.UPPER if triangle == "upper" else None)
        if different is None and short in ("asarray", "array"):
            different = none_default(self, node, self._none_fed())
        elif different is None:
            different = none_argument(self, node, *_namesakes.array_parameters(short, or_none=False), self._none_fed())
        if different is None:
            different = static_keyword(node, short)
        if different is None and short == "log2":
            different = _namesakes.truncated_log2(self, node)
        if different is None:
            different = _namesakes.decimal_round(node, short)
        if different is None:
            different = _namesakes.builtin_round(self, node)
        if different is None and short in _namesakes.INTEGER_TO_FLOAT:
            different = _namesakes.integer_inputs(self, node, short)
        if different is None:
            different = _namesakes.float_counts(node, short)
        if different is None:
            different = _namesakes.forwarded(self, node, before_out)
        if different is None:
            different = _namesakes.cast_query(self, node, short)
        tiny = _namesakes.near_subnormal(self) if different is None else None
        if tiny is not None:
            different = f"differs where the function {tiny}"
        if different is None:
            different = _namesakes.complex_power(self, node)
        if different is None:
            different = units_difference(short, self._units)
        operand = _namesakes.vander_operand(self, node, short) if different is None else None
        if operand is not None:
            cast = f"{self.jnp}.asarray({self.code(operand)}, dtype=int)"
            self.report(
                node,
                f"NumPy call `{source}` inside a function runs on the host; under `jit` use `{target}` of `{cast}`: "
                f"NumPy computes the powers of a narrow integer (or bool) array in int64, `{target}` in the array's "
                "own dtype, where they wrap (200 ** 2 is 64 in uint8; bool raises)",
                replacement=node.with_changes(func=self.dotted(target), args=[
                    node.args[0].with_changes(value=self.expr(cast)), *node.args[1:]]),
                title=f"replace with `{target}({cast}, ...)`",
                imports=("jnp",),
            )
            return
        dtype, why = None, None
        accumulator = _namesakes.accumulator(self, node, short) if different is None else None
        if accumulator is not None:
            taken = accumulator == "int" and "int" in _namesakes.bound_names(self.context.ast_tree, frozenset({"int"}))
            dtype = f"{self.jnp}.int_" if taken else accumulator
            why = (f"NumPy accumulates a narrow integer array in its platform integer, `{target}` in the array's own "
                   "dtype, where the running values wrap (a uint8 running sum past 255)")
        strong = _namesakes.strong_literal(node, short) if different is None and dtype is None else None
        if strong is not None and strong not in _namesakes.bound_names(self.context.ast_tree, _namesakes.LITERAL_TYPES):
            dtype = strong
            why = (f"NumPy's array of a number is of its default dtype, `{target}`'s without a dtype is weakly typed "
                   "and takes the width of what it meets (an int16 array divided by it is float32, not float64)")
        if dtype is not None:
            self.report(
                node,
                f"NumPy call `{source}` inside a function runs on the host; under `jit` use `{target}` with "
                f"`dtype={dtype}`: {why}",
                replacement=_namesakes.with_dtype(node.with_changes(func=self.dotted(target)), dtype),
                title=f"replace with `{target}(..., dtype={dtype})`",
                imports=("jnp",),
            )
            return
        # `np.reshape(y, s, order="f")`: `jnp.reshape` takes only "C" and "F", the same orders in upper case
        upper = _namesakes.upper_order(node, _namesakes.VALUE_ORDER[short]) if short in _namesakes.VALUE_ORDER else None
        self.report(
            node.func if upper is None else node,
            f"NumPy call `{source}` inside a function runs on the host; under `jit` use `{target}`"
            + (" (the order in upper case: it rejects lower case, which means the same to NumPy)" if upper else "")
            + (f"; but `{target}` {different}" if different else ""),
            replacement=self.dotted(target) if upper is None else node.with_changes(func=self.dotted(target), args=upper),
            title=f"replace with `{target}`",
            imports=("jnp",),
            unsafe=different is not None,
            # `np.asanyarray` says the function takes array subclasses (a masked array), which its other calls would
            # meet as `jax.numpy` calls, which reject them: it migrates as a whole, with the unsafe fix, or not at all
            # `np.nextafter`: its subnormal results are flushed by any `jax.numpy` call that meets them, so the
            # function's other calls stay NumPy with it
            blocks_function=short != named or named in _namesakes.SUBNORMAL or tiny is not None,
        )

    @functools.cached_property
    def _units(self) -> Optional[str]:
        return units_library(self.context.module)

    @functools.cached_property
    def _matrices(self) -> _matrices.Matrices:
        return _matrices.matrices(self, self.context.module, imported=_imported_values.imported(self, "matrix"))

    def _made_plain(self, node: cst.Call) -> bool:
        """Whether the matrix `node` gives is made a plain array at once: `np.asarray(S.todense())`, `S.todense().A`."""
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return parent.attr.value in ("A", "A1")
        call = self.get_metadata(ParentProvider, parent, None) if isinstance(parent, cst.Arg) else None
        return isinstance(call, cst.Call) and numpy_name(self, call.func) in _matrices.MATRIX.plain_calls

    @functools.cached_property
    def _masked(self) -> _matrices.Matrices:
        """`_matrices` for NumPy's masked arrays: functions returning one, and reads of names or attributes bound to one."""
        return _matrices.matrices(self, self.context.module, _matrices.MASKED, _imported_values.imported(self, "masked"))

    @functools.cached_property
    def _boundary(self) -> NumpyBoundary:
        return NumpyBoundary(self)

    @functools.cached_property
    def _none_fed_by_function(self) -> dict[str, frozenset[str]]:
        return _list_inputs.none_fed_parameters(self.context.module)

    def _none_fed(self) -> frozenset[str]:
        """The current function's parameters that a call in the module passes None (`_list_inputs.none_fed_parameters`)."""
        function = self.current_function
        return self._none_fed_by_function.get(function.name.value, frozenset()) if function is not None else frozenset()

    @functools.cached_property
    def _widening(self) -> IsinstanceWidening:
        return IsinstanceWidening(self)

    def visit_If(self, node: cst.If) -> None:
        self._widening.note_if(node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if self.current_function is not None:
            self._widening.exact_type(node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        caught = node.type.elements if isinstance(node.type, cst.Tuple) else [node.type] if node.type else []
        names = {dotted_name(c.value if isinstance(c, cst.Element) else c) for c in caught}
        if self.current_function is not None and names & {"FloatingPointError", "builtins.FloatingPointError"}:
            self.report(node, "the function catches `FloatingPointError`, which NumPy raises on a floating-point error "
                        "under `np.errstate(...='raise')` (set here or by its caller) and JAX never raises (it gives "
                        "inf or nan silently): this function is left as it is", leaves_function=True)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._boundary.note_assign(node)
        stored = self._boundary.stored_reason(node)
        if stored is not None:
            self.report(node, stored, leaves_function=True)

    def visit_Return(self, node: cst.Return) -> None:
        returned = self._boundary.returned_reason(node)
        if returned is not None:
            self.report(node, returned, leaves_function=True)

    def _filled(self, call: cst.Call) -> None:
        """A NumPy buffer of this function handed to code that fills it in place must stay NumPy: reported, and
        the function's other fixes are held back (`NumpyBoundary.filled_reason`)."""
        filled = self._boundary.filled_reason(call)
        if filled is not None:
            self.report(call, filled, leaves_function=True)
