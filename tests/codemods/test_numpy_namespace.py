"""Edge cases for JX501 numpy-namespace: no-change cases first, then rewrites."""

import os
import re
import textwrap

import pytest

from codemods.numpy_namespace import NumpyNamespace
from jaxfix.registry import all_rules
from jaxfix.runner import run_files
from jaxfix.testing.examples import run_rule
from jaxfix.types import RunOptions


def migrate(code: str) -> str:
    return run_rule(NumpyNamespace, textwrap.dedent(code), fix=True).fixed


NOOP = [
    pytest.param("import numpy as np\nX = np.zeros(3)\nclass C:\n    A = np.ones(2)\n", id="module-and-class-level"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.pi * x, np.float32, np.newaxis\n", id="constants-and-dtypes"),
    pytest.param("import numpy as np\ndef f(x):\n    return x.reshape(np.prod(x.shape[1:]), -1)\n", id="static-args"),
    pytest.param("import numpy as np\ndef f(np):\n    return np.sum(1)\n", id="shadowed-by-parameter"),
    pytest.param("import numpy as np\ndef f():\n    with np.errstate(all='ignore'):\n        pass\n", id="host-only"),
    pytest.param("import numpy as np\ndef f(k):\n    return np.random.normal(size=k)\n", id="random-left-to-JX4"),
    pytest.param("import numpy as np\ndef f(a, i):\n    np.add.at(a, i, 1)\n", id="ufunc-at-left-to-JX1"),
    pytest.param("def f(x):\n    '''np.sum(x)'''\n    return x  # np.sum(x)\n", id="strings-and-comments"),
    pytest.param(  # jnp.linalg never raises: the handler would silently stop running (the whole function stays)
        "import numpy as np\nfrom numpy.linalg import inv\ndef f(S, b):\n    try:\n        M = inv(S) @ b\n"
        "    except (ValueError, np.linalg.LinAlgError):\n        return None\n    return np.sum(M)\n",
        id="linalg-under-a-LinAlgError-handler",
    ),
    pytest.param(
        "import numpy as np\ndef f(A, b):\n    try:\n        return np.linalg.solve(A, b)\n    except:\n        return np.zeros(2)\n",
        id="linalg-under-a-bare-except",
    ),
    pytest.param(  # a Fortran buffer is asked for a consumer that needs one (scikit-learn's cd_fast, LAPACK)
        "import numpy as np\ndef f(X, n):\n    coef = np.zeros(n, dtype=X.dtype, order='F')\n    return coef + np.sum(X)\n",
        id="fortran-order-buffer",
    ),
    pytest.param("import numpy as np\ndef f(x):\n    return np.ravel(x, order=\"K\")\n", id="ravel-in-memory-order"),
    pytest.param(  # scikit-learn imports its Cython modules under public aliases: cd_fast writes into coef_
        "import numpy as np\nfrom . import _cd_fast as cd_fast\ndef f(X, a):\n    coef_ = np.zeros(X.shape[1])\n"
        "    cd_fast.enet_coordinate_descent(coef_, a, X)\n    return coef_\n",
        id="buffer-for-a-private-module-under-a-public-alias",
    ),
    pytest.param(
        "import numpy as np\nfrom ._hierarchical import hc_get_heads\ndef f(n):\n    heads = np.arange(n)\n"
        "    hc_get_heads(heads)\n    return heads\n",
        id="buffer-for-a-function-of-a-private-module",
    ),
    pytest.param(  # SciPy calls its callbacks with float64 NumPy arrays: jnp would make them float32
        "import numpy as np\nfrom scipy import optimize\ndef objective(p, y):\n    return np.sum((np.exp(p) - y) ** 2)\n"
        "def fit(y, p0):\n    return optimize.minimize(objective, p0, args=(y,)).x\n",
        id="scipy-callback",
    ),
    pytest.param(  # scikit-image's EllipseModel: in float32, leastsq's finite differences saw a zero Jacobian
        "import math\nimport numpy as np\nfrom scipy.optimize import leastsq\ndef f(x, t0):\n    def fun(t):\n"
        "        return x - math.cos(np.squeeze(t))\n    return leastsq(fun, t0)[0]\n",
        id="nested-scipy-callback",
    ),
    pytest.param("import numpy as np\ndef f(a, b):\n    return set(np.hstack([a, b]))\n", id="members-of-a-set"),
    # the elements of a JAX array are 0-d arrays, which are unhashable: as set members or dict keys they must be NumPy's
    pytest.param("import numpy as np\ndef f(y):\n    classes = np.unique(y)\n    return classes, set(classes[1:])\n",
                 id="named-then-members-of-a-set"),
    pytest.param("import numpy as np\ndef f(y):\n    counts = {}\n    for v in np.unique(y):\n        counts[v] = (y == v).sum()\n"
                 "    return counts\n", id="loop-items-as-dict-keys"),
    pytest.param("import numpy as np\ndef f(labels):\n    return {v: i for i, v in enumerate(np.sort(labels))}\n",
                 id="enumerated-items-as-comprehension-keys"),
    pytest.param("import numpy as np\ndef f(order, cache):\n    seen = set()\n    key = np.asarray(order)[()]\n"
                 "    if key not in seen:\n        seen.add(key)\n    return seen\n", id="scalar-as-set-member"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code) == textwrap.dedent(code)


REWRITES = [
    pytest.param(  # the items are compared, not hashed; a parameter indexed by one may be an array
        "import numpy as np\ndef f(y, table):\n    total = 0\n    for v in np.unique(y):\n        total += np.sum(y == v) * table[v]\n    return total\n",
        "import jax.numpy as jnp\ndef f(y, table):\n    total = 0\n    for v in jnp.unique(y):\n        total += jnp.sum(y == v) * table[v]\n    return total\n",
        id="loop-items-not-hashed",
    ),
    pytest.param(
        "import numpy as onp\ndef f(x):\n    return onp.mean(x, axis=0)\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.mean(x, axis=0)\n",
        id="other-alias",
    ),
    pytest.param(
        "import numpy as np\nimport jax.numpy as jnp\ndef f(x):\n    return np.tanh(x) + jnp.sin(x)\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.tanh(x) + jnp.sin(x)\n",
        id="existing-jnp-import-reused",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    return np.maximum.accumulate(x)\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.maximum.accumulate(x)\n",
        id="ufunc-method",
    ),
    pytest.param(
        "import numpy as np\ndef f(n):\n    return np.zeros((n, 2), dtype=np.float32)\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(n):\n    return jnp.zeros((n, 2), dtype=np.float32)\n",
        id="creation-with-static-args-keeps-dtype-name",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    return np.float32(x) * np.fft.fft(x).real\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.float32(x) * jnp.fft.fft(x).real\n",
        id="scalar-type-call-and-fft",
    ),
    pytest.param(  # `s += inner(x, y)` into a new local array only read otherwise: rebinding `s` changes nothing
        "import numpy as np\ndef inner(x, y):\n    return np.sum(x * y, axis=0)\n"
        "def total(x, y):\n    s = np.zeros(x.shape[1])\n    s += inner(x, y)\n    return s * len(s)\n",
        "import jax.numpy as jnp\ndef inner(x, y):\n    return jnp.sum(x * y, axis=0)\n"
        "def total(x, y):\n    s = jnp.zeros(x.shape[1])\n    s += inner(x, y)\n    return s * len(s)\n",
        id="augmented-update-of-a-new-local-array",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


def test_unsupported_keyword_is_reported_not_rewritten():
    code = "import numpy as np\ndef f(x):\n    return np.sum(x, bogus=1)\n"
    outcome = run_rule(NumpyNamespace, code, fix=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [3] and "bogus" in outcome.findings[0].message


@pytest.mark.parametrize("imported, called", [
    ("from .utils import log_normalize", "log_normalize"),
    ("from hmm.utils import log_normalize as norm", "norm"),
    ("from . import utils", "utils.log_normalize"),
])
def test_an_array_handed_to_an_in_place_helper_of_another_module_stays_numpy(tmp_path, imported, called):
    # the helper rebinds `a -= ...` on a JAX array: the caller's array would silently stay unnormalised
    pkg = tmp_path / "hmm"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "utils.py").write_text(
        "import numpy as np\n\ndef log_normalize(a, axis=None):\n    a -= np.log(np.sum(np.exp(a), axis, keepdims=True))\n"
    )
    base = (f"import numpy as np\n\n{imported}\n\ndef posteriors(fwd, bwd):\n    log_gamma = fwd + bwd\n"
            f"    {called}(log_gamma, axis=1)\n    return np.exp(log_gamma)\n")
    (pkg / "base.py").write_text(base)
    results = run_files([str(pkg / "base.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "base.py").read_text() == base
    messages = [f.message for r in results for f in r.findings]
    assert any("writes into its parameter `a`" in m and "`log_gamma`" in m for m in messages), messages


@pytest.mark.parametrize("imported, use", [
    ("from .util import fit", "    return fit(make(rows), 2.0)\n"),
    ("from .util import fit", "    out = make(rows)\n    return fit(out, 2.0)\n"),
    ("import sa.util as u", "    return u.fit(make(rows), 2.0)\n"),
])
def test_a_result_handed_to_a_helper_of_another_module_that_writes_into_it_and_returns_it_stays_numpy(tmp_path, imported,
                                                                                                      use):
    # the helper writes into its parameter and returns it (SALib's scale_samples): its result is used, yet it writes
    pkg = tmp_path / "sa"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "util.py").write_text("def fit(p, top):\n    p[0] = top\n    return p\n")
    code = f"import numpy as np\n\n{imported}\n\ndef make(rows):\n    return np.array(rows, dtype=float)\n\ndef draw(rows):\n{use}"
    (pkg / "draw.py").write_text(code)
    results = run_files([str(pkg / "draw.py"), str(pkg / "util.py")], [NumpyNamespace], RunOptions(fix=True, write=True),
                        jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "draw.py").read_text() == code
    messages = [f.message for r in results for f in r.findings]
    assert any("fit` writes into its parameter `p`" in m for m in messages), messages


@pytest.mark.parametrize("imported, called", [
    ("from sig import ops as O", "O.double_rows"),
    ("from sig.ops import double_rows", "double_rows"),
    ("from .ops import double_rows", "double_rows"),
])
def test_an_array_handed_to_a_writer_a_subpackage_star_exports_stays_numpy(tmp_path, imported, called):
    # `sig/ops/__init__.py` re-exports `sig/ops/rows.py` with a star import (nitime's `algorithms`): the writer is found
    # through it, as for a direct module import
    code = f"import numpy as np\n{imported}\n\ndef use(x):\n    return {called}(np.copy(x))\n"
    pkg, _ = _package(tmp_path, "sig", {
        "ops/__init__.py": "from sig.ops.rows import *\n", "use.py": code,
        "ops/rows.py": "def double_rows(t):\n    for i in range(t.shape[0]):\n        t[i] = t[i] * 2.0\n    return t\n"})
    results = run_files([str(pkg / "use.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "use.py").read_text() == code
    messages = [f.message for r in results for f in r.findings]
    assert any("writes into its parameter `t`" in m for m in messages), messages


@pytest.mark.parametrize("init, stub", [
    ("import lazy_loader as lazy\n__getattr__, __dir__, __all__ = lazy.attach_stub(__name__, __file__)\n",
     "from .rows import double_rows as double_rows\n"),
    ("import lazy_loader as lazy\n__getattr__, __dir__, __all__ = lazy.attach(__name__, submod_attrs={'rows': ['double_rows']})\n",
     None),
])
@pytest.mark.parametrize("imported, called", [
    ("from . import ops", "ops.double_rows"),
    ("from .ops import double_rows", "double_rows"),
])
def test_an_array_handed_to_a_writer_a_lazy_loader_package_exports_stays_numpy(tmp_path, init, stub, imported, called):
    # librosa's `util/__init__.py` exports its functions through `lazy_loader` (`attach_stub` reading the
    # `__init__.pyi` stub, or `attach` with `submod_attrs`); `decompose.hpss` hands buffers it fills to
    # `util.softmask`, which writes into one: the writer is found through the stub, as for a direct module import
    code = f"import numpy as np\n{imported}\n\ndef use(x):\n    return {called}(np.copy(x))\n"
    files = {"ops/__init__.py": init, "use.py": code,
             "ops/rows.py": "def double_rows(t):\n    for i in range(t.shape[0]):\n        t[i] = t[i] * 2.0\n    return t\n"}
    if stub is not None:
        files["ops/__init__.pyi"] = stub
    pkg, _ = _package(tmp_path, "sig", files)
    results = run_files([str(pkg / "use.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "use.py").read_text() == code
    messages = [f.message for r in results for f in r.findings]
    assert any("writes into its parameter `t`" in m for m in messages), messages


@pytest.mark.parametrize("imported, called", [
    ("from .kern import weigh", "weigh"),
    ("from est import kern", "kern.weigh"),
])
def test_an_array_handed_to_a_numba_function_of_another_module_stays_numpy(tmp_path, imported, called):
    # pyod's SOS: `D = dist(X)`, then `perplexity(D[0, 1:], beta)` with `@njit` perplexity: numba takes NumPy
    # arrays only (a JAX array raises `TypingError`), so the helper making `D` stays NumPy, and its caller
    kern = "import numpy as np\nimport numba as nb\n\n@nb.njit(cache=True)\ndef weigh(d, beta):\n    return np.exp(-d * beta).sum()\n"
    code = (f"import numpy as np\n{imported}\n\ndef spread(x):\n    return np.sqrt(np.abs(x[:, None] - x[None, :]))\n\n"
            f"def entropy(x):\n    d = spread(x)\n    return {called}(d[0, 1:], 1.0)\n\n"
            f"def other(x, y):\n    return np.sum(y) + {called}(x, 2.0)\n")
    pkg, _ = _package(tmp_path, "est", {"kern.py": kern, "use.py": code})
    results = run_files([str(pkg / "use.py"), str(pkg / "kern.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "kern.py").read_text() == kern
    assert (pkg / "use.py").read_text() == code.replace("import numpy as np\n", "import jax.numpy as jnp\nimport numpy as np\n", 1) \
        .replace("np.sum(y)", "jnp.sum(y)")
    messages = [f.message for r in results for f in r.findings]
    assert any("needs a NumPy array as its parameter `d`: it is compiled by numba" in m for m in messages), messages


@pytest.mark.parametrize("packaged", [True, False], ids=["package", "script-sibling"])
@pytest.mark.parametrize("inside", [True, False], ids=["import-in-function", "import-at-top"])
def test_arrays_a_helper_makes_for_a_numba_function_of_another_module_stay_numpy(tmp_path, packaged, inside):
    # mne's cluster statistics: `clusters = _components(labels)` (a helper returning `np.split(...)`), then
    # `[_masked_sum(x, c) for c in clusters]` with `_masked_sum` an `@njit` function of another module, imported at
    # the top or inside the function, from a package's module or from a script's sibling module
    source = ".kern" if packaged else "kern"
    kern = "import numpy as np\nfrom numba import njit\n\n@njit\ndef part_sum(v, idx):\n    return np.sum(v[idx])\n"
    imported = f"from {source} import part_sum\n"
    code = ("import numpy as np\n" + ("" if inside else imported) + "\n\ndef runs(flags):\n"
            "    on = np.flatnonzero(flags)\n    return np.split(on, np.flatnonzero(np.diff(on) > 1) + 1)\n\n\n"
            "def sums(v, flags):\n" + ("    " + imported if inside else "") +
            "    groups = runs(flags)\n    return [part_sum(v, g) for g in groups]\n")
    _numba_caller(tmp_path, "stats" if packaged else None, kern, code, code)


def _numba_caller(tmp_path, package, kern, code, expected):
    """Migrate `use.py` (`code`) with its `kern.py` (`kern`, left as it is: numba compiles it), in the package
    `package` or as a script's sibling modules (None): `use.py` must become `expected`, told why."""
    if package:
        folder, _ = _package(tmp_path, package, {"kern.py": kern, "use.py": code})
    else:
        folder = tmp_path
        (folder / "kern.py").write_text(kern)
        (folder / "use.py").write_text(code)
    results = run_files([str(folder / "use.py"), str(folder / "kern.py")], [NumpyNamespace],
                        RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (folder / "kern.py").read_text() == kern
    assert (folder / "use.py").read_text() == expected
    messages = [f.message for r in results for f in r.findings]
    assert any("which numba compiles" in m for m in messages), messages


@pytest.mark.parametrize("packaged, imported, called", [
    (True, "from . import kern as k", "k.scale"),
    (True, "from .kern import scale", "scale"),
    (False, "import kern as k", "k.scale"),
    (False, "import kern", "kern.scale"),
])
def test_a_buffer_handed_to_a_numba_alias_of_another_module_stays_numpy(tmp_path, packaged, imported, called):
    # arch: `recursions_python.py` binds `garch_recursion = jit(garch_recursion_python, nopython=True)` (`jit` from
    # numba, through a fallback import); a caller makes `sigma2 = np.empty(n)` and hands it to `rec.garch_recursion`,
    # which fills it: `jnp.empty` raised numba's `TypingError`; the compiled function itself is left as it is
    kern = ("import numpy as np\ntry:\n    from numba import jit\nexcept ImportError:\n    def jit(f, **kw):\n        return f\n\n"
            "def scale_python(dst, src):\n    for i in range(dst.shape[0]):\n        dst[i] = np.abs(src[i]) * 3.0\n\n"
            "scale = jit(scale_python, nopython=True)\n")
    code = (f"import numpy as np\n{imported}\n\ndef tripled(x):\n    buf = np.empty(x.shape[0])\n    {called}(buf, x)\n"
            f"    return buf\n\ndef total(x):\n    return np.sum(x)\n")
    _numba_caller(tmp_path, "vol" if packaged else None, kern, code, code.replace(
        "import numpy as np\n", "import jax.numpy as jnp\nimport numpy as np\n", 1).replace("np.sum(x)", "jnp.sum(x)"))


@pytest.mark.parametrize("imported, called", [
    ("from .hdr import clib", "clib.smooth"),
    ("from sg.hdr import clib as c", "c.smooth"),
    ("from sg import hdr", "hdr.clib.smooth"),
    ("from . import clib", "clib.smooth"),  # re-exported by the package
    ("from .hdr import smooth_c", "smooth_c"),  # a function of the library bound to a name
])
def test_an_array_handed_to_a_c_library_of_another_module_stays_numpy(tmp_path, imported, called):
    # obspy: `signal/headers.py` loads `clibsignal = _load_cdll("signal")` (a helper calling `ctypes.CDLL`) and sets
    # `clibsignal.recstalta.argtypes` to `np.ctypeslib.ndpointer(...)`; `trigger.py` makes `charfct = np.empty(n)` and
    # calls `clibsignal.recstalta(a, charfct, ...)`, which fills it: `jnp.empty` raised `ctypes.ArgumentError`
    hdr = ("import ctypes as C\nimport numpy as np\nfrom .libs import load\n\nclib = load('sm')\n"
           "clib.smooth.argtypes = [np.ctypeslib.ndpointer(dtype=np.float64), C.c_int]\nclib.smooth.restype = None\n"
           "smooth_c = clib.smooth\n")
    code = (f"import numpy as np\n{imported}\n\ndef run(n):\n    buf = np.zeros(n)\n    {called}(buf, n)\n    return buf\n\n"
            f"def total(x):\n    return np.sum(x)\n")
    pkg, _ = _package(tmp_path, "sg", {"hdr.py": hdr, "use.py": code,
                                       "libs.py": "import ctypes\n\ndef load(name):\n    return ctypes.CDLL(name)\n"})
    (pkg / "__init__.py").write_text("from .hdr import clib\n")
    results = run_files([str(p) for p in sorted(pkg.glob("*.py"))], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "use.py").read_text() == code.replace("import numpy as np\n", "import jax.numpy as jnp\nimport numpy as np\n", 1) \
        .replace("np.sum(x)", "jnp.sum(x)")
    messages = [f.message for r in results for f in r.findings]
    assert any(f"`{called}` is a C function called through ctypes" in m for m in messages), messages


def _package(tmp_path, name, files):
    """A package `name` under `tmp_path` with `files` ({file name: code}) and an empty `__init__.py`: its folder and
    its files' paths."""
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for file, code in files.items():  # (`sub/__init__.py`: a subpackage)
        (pkg / file).parent.mkdir(exist_ok=True)
        (pkg / file).write_text(code)
    return pkg, sorted(str(p) for p in pkg.glob("*.py"))


def _kept_numpy(tmp_path, name, files, kept, attribute, writer):
    """Migrate the package `name` made of `files` with JX501: the file `kept` must stay as it is, reported as storing
    the `attribute` that the module `writer` writes into in place; the package's folder."""
    pkg, paths = _package(tmp_path, name, files)
    results = run_files(paths, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / kept).read_text() == files[kept]
    messages = [f.message for r in results for f in r.findings]
    assert any(f"`.{attribute}` is written into in place in the package (in `{writer}`)" in m for m in messages), messages
    return pkg


def test_an_attribute_written_into_in_another_module_keeps_its_array_numpy(tmp_path):
    # emcee: `State.__init__` stores `np.atleast_2d(coords)`; a move in another module does `old.coords[m] = ...`
    state = "import numpy as np\n\nclass State:\n    def __init__(self, coords):\n        self.coords = np.atleast_2d(coords)\n"
    move = "def update(old, new, m):\n    old.coords[m] = new.coords[m]  # stays NumPy\n"
    pkg = _kept_numpy(tmp_path, "mc", {"state.py": state, "move.py": move}, "state.py", "coords", "mc.move")
    # alone, the module has no such write: the array moves to JAX
    alone = run_files([str(pkg / "state.py")], [NumpyNamespace], RunOptions(fix=True, write=False), jobs=1)
    assert "jnp.atleast_2d(coords)" in alone[0].fixed


def test_an_attribute_written_through_a_local_name_in_another_module_keeps_its_array_numpy(tmp_path):
    # pymcmcstat: `ModelSettings` stores `np.ones(nbatch)`; `ErrorVarianceEstimator` binds `sigma2 = model.sigma2`,
    # then writes `sigma2[jj] = ...`: a JAX array there raised `TypeError`
    settings = "import numpy as np\n\nclass Noise:\n    def __init__(self, k):\n        self.var = np.ones(k)\n"
    estimate = ("def refresh(noise, ss):\n    var = noise.var  # an alias\n    for j in range(len(ss)):\n"
                "        var[j] = 1.0 / (1.0 + ss[j])\n    return var\n")
    _kept_numpy(tmp_path, "est", {"settings.py": settings, "estimate.py": estimate}, "settings.py", "var", "est.estimate")


def test_an_attribute_updated_through_an_augmented_local_name_in_another_module_keeps_its_array_numpy(tmp_path):
    # pymcmcstat's `sigma2 = model.sigma2`, then `sigma2 += v`: in place for a NumPy array; a JAX array there left
    # the caller's model as it was, silently (the code review's repro)
    settings = "import numpy as np\n\nclass Noise:\n    def __init__(self, k):\n        self.var = np.ones(k)\n"
    for i, op in enumerate(("+=", "-=", "*=", "/=", "**=", "//=", "%=", "@=", "|=", "&=", "^=", "<<=", ">>=")):
        estimate = f"def refresh(noise, step):\n    var = noise.var\n    var {op} step\n"
        (tmp_path / str(i)).mkdir()
        _kept_numpy(tmp_path / str(i), "est", {"settings.py": settings, "estimate.py": estimate}, "settings.py", "var",
                    "est.estimate")


def test_the_attribute_index_follows_chained_tuple_getattr_and_walrus_aliases():
    from codemods._buffers import attribute_writes

    code = (b"def f(h, m, jj, v):\n    s = h.model.a\n    s[jj] = v\n\ndef g(m, jj, v):\n    k, s = 0, m.b\n"
            b"    s[jj] = v\n\ndef h(m, v):\n    s = getattr(m, 'c')\n    s.fill(v)\n\ndef k(m, jj, v):\n"
            b"    if (s := m.d) is not None:\n        s[jj] = v\n\ndef n(m, v):\n    s = m.e\n    s **= v\n"
            b"\ndef p(m, v):\n    s = m.q\n    t = s\n    s == v\n    return s + v\n")
    assert set(attribute_writes("p.py", "pkg.p", code)) == {"a", "b", "c", "d", "e"}


def test_a_numpy_test_in_a_module_without_numpy_calls_accepts_the_jax_arrays_of_another(tmp_path):
    # pymcmcstat: a JSON encoder tests `isinstance(obj, np.ndarray)`; the results it is given hold `np.dot(R.T, R)`,
    # which became `jnp.dot` (TypeError: ArrayImpl is not JSON serializable)
    enc = ("import json\nimport numpy as np\n\nclass Enc(json.JSONEncoder):\n    def default(self, obj):\n"
           "        if isinstance(obj, np.ndarray):\n            return obj.tolist()\n        return super().default(obj)\n")
    res = "import numpy as np\n\ndef summary(R):\n    out = {}\n    out['cov'] = np.dot(R.T, R)\n    return out\n"
    pkg, files = _package(tmp_path, "rep", {"enc.py": enc, "res.py": res})
    results = run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert "isinstance(obj, (np.ndarray, jax.Array))" in (pkg / "enc.py").read_text()
    assert "jnp.dot(R.T, R)" in (pkg / "res.py").read_text()


def test_a_numpy_test_of_a_parameter_is_widened_in_a_method_left_numpy(tmp_path):
    # pymoo: `Problem.evaluate(X)` tests `isinstance(X, np.ndarray)`, and a subclass in another module calls
    # `self.evaluate(X)` with `X = np.column_stack(...)`, which became `jnp.column_stack`: the method stays NumPy (here:
    # `np.errstate` raising), yet its test must take the JAX array for an array (it took it for one individual, 1 row
    # of 100, silently). A test whose other path rebinds the parameter, which the method then writes into, stays.
    base = ("import numpy as np\n\nclass Base:\n    def evaluate(self, X):\n"
            "        if isinstance(X, np.ndarray) and X.ndim == 2:\n            rows = X.shape[0]\n        else:\n"
            "            rows = 1\n        with np.errstate(divide='raise'):\n            scale = np.log(rows)\n"
            "        return rows, scale\n\n    def clip(self, X):\n        if isinstance(X, np.ndarray):\n"
            "            n = X.shape[0]\n        else:\n            X = np.asarray(X)\n            n = 1\n"
            "        with np.errstate(divide='raise'):\n            X[0] = np.log(n)\n        return X\n")
    square = ("import numpy as np\nfrom .base import Base\n\nclass Square(Base):\n    def front(self, n):\n"
              "        X = np.column_stack([np.linspace(0, 1, n), np.linspace(1, 2, n)])\n        return self.evaluate(X)\n")
    pkg, files = _package(tmp_path, "moo", {"base.py": base, "square.py": square})
    results = run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    migrated = (pkg / "base.py").read_text()
    assert "if isinstance(X, (np.ndarray, jax.Array)) and X.ndim == 2:" in migrated
    assert "np.log(rows)" in migrated and "np.errstate" in migrated  # the method itself stays NumPy
    assert "        if isinstance(X, np.ndarray):\n" in migrated  # `clip` rebinds `X` on the other path and writes into it
    assert "jnp.column_stack" in (pkg / "square.py").read_text()


def test_the_attribute_index_reads_bytes_only():
    from codemods._buffers import attribute_writes

    code = (b"def f(s, t, m, x):\n    s.a[m] = 1\n    s.b[i][j] += 1\n    s.c[idx[0]] -= 2\n    if s.d[0] == 3:\n"
            b"        s.e.fill(0)\n    np.add(x, x, out=s.f)\n    s.g = x\n    y = s.h[1]\n    s.k[0] <= 1\n")
    assert set(attribute_writes("p.py", "pkg.p", code)) == {"a", "b", "c", "e", "f"}
    # `out=` as an argument, on the call's line or the next; not a local name `out` bound to an attribute's array
    # (`out = s.c * 2`, astroML's `trunc_exp` refused only for naming it so)
    code = b"def f(s, x):\n    np.add(x, x,\n           out=s.m)\n    out = s.n * 2\n    output = s.p\n    return out\n"
    assert set(attribute_writes("p.py", "pkg.p", code)) == {"m"}
    # through a local name bound to the attribute and written into in the same function (not in another one)
    code = (b"def f(s, x):\n    w = s.w\n    v = s.v\n    u = s.u  # u\n    w[0] = x\n    u.fill(0)\n    return v\n\n"
            b"def g(v):\n    v[1] = 2\n")
    assert set(attribute_writes("p.py", "pkg.p", code)) == {"w", "u"}


def test_the_result_index_reads_bytes_only():
    from codemods._buffers import result_writes

    code = (b"from .util import to_bits, grid\nfrom .geo import to_polar\nimport numpy as np\n\ndef f(n):\n    bits = to_bits(n, 8)\n"
            b"    bits[0] = 1 - bits[0]\n    g = util.grid(n)\n    g.fill(0)\n    z = np.zeros(n)\n    z[0] = 1\n"
            b"    az, r = to_polar(n)\n    r[:] = 1.0\n    h = own(n)\n    h[1] += 2\n    k = seen(n)\n    k[0] == 1\n\ndef own(n):\n    return n\n")
    assert result_writes("p.py", "pkg.p", code) == {"pkg.util.to_bits": "pkg.p", "numpy.zeros": "pkg.p", "pkg.geo.to_polar": "pkg.p"}
    code = code.replace(b"from .util import to_bits, grid", b"from pkg import util\nfrom .util import to_bits as tb")
    assert result_writes("p.py", "pkg.p", code.replace(b"bits = to_bits", b"bits = tb")) == {
        "pkg.util.to_bits": "pkg.p", "pkg.util.grid": "pkg.p", "numpy.zeros": "pkg.p", "pkg.geo.to_polar": "pkg.p"}
    # an annotated binding, and a callee by its dotted path after `import pkg.util`
    code = b"import pkg.util\nfrom .util import to_ann\n\ndef f(n):\n    a: np.ndarray = to_ann(n)\n    a[0] = 1\n" \
           b"    b = pkg.util.to_ref(n)\n    b[0] = 2\n"
    assert result_writes("p.py", "pkg.p", code) == {"pkg.util.to_ann": "pkg.p", "pkg.util.to_ref": "pkg.p"}
    # a name given as `out=` is written into; one a local `out` is bound to is not
    code = b"from .util import to_o, to_p\n\ndef f(n):\n    o = to_o(n)\n    np.sqrt(n, out=o)\n    p = to_p(n)\n    out = p\n"
    assert result_writes("p.py", "pkg.p", code) == {"pkg.util.to_o": "pkg.p"}


def test_the_result_index_reads_arguments_of_a_private_compiled_module(tmp_path):
    """`bd = core.dist(a, b)`, then `_c_loop(a, bd)` with `_c_loop` imported from a compiled module of the package
    (PyKrige's `from .lib.cok import _c_exec_loop_moving_window`, a Cython function whose typed memoryviews refuse a
    read-only JAX buffer: `BufferError`): `core.dist` must keep returning a NumPy array. Not for a call of a Python
    module of the package (`from ._py import _helper`: `imported_writers` reads what it writes), nor for a name
    given inside an expression."""
    from codemods._buffers import result_writes

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "_py.py").write_text("")
    path = str(tmp_path / "pkg" / "ok.py")
    code = (b"from . import core\n\n\ndef f(a, b):\n    from .lib.cok import _c_loop\n    bd = core.dist(a, b)\n"
            b"    e = core.other(a)\n    return _c_loop(\n        a,\n        bd,\n        e * 2,\n    )\n")
    assert result_writes(path, "pkg.ok", code) == {"pkg.core.dist": "pkg.ok"}
    python = code.replace(b"from .lib.cok import _c_loop", b"from ._py import _c_loop")
    assert result_writes(path, "pkg.ok", python) == {}


def test_a_result_handed_to_a_private_compiled_module_of_another_module_stays_numpy(tmp_path):
    core = "import numpy as np\n\n\ndef dist(a, b):\n    return np.sqrt(a * b)\n"
    use = ("from . import core\n\n\ndef run(a, b):\n    from .lib.cok import _c_loop\n\n    d = core.dist(a, b)\n"
           "    return _c_loop(d)\n")
    pkg, files = _package(tmp_path, "krig", {"core.py": core, "use.py": use})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "core.py").read_text() == core
    messages = [f.message for f in results["core.py"].findings if f.code == "JX501"]
    assert any("hands it to a function of a compiled module" in m for m in messages), messages


def test_the_result_index_reads_tuple_targets():
    """A write through an element of a tuple target (`p[0], p[-1] = p[-1], p[0]`, nested in parentheses too), and
    an item of the result unpacked onto an attribute the module writes into (`self.ok, self.err = make(n)`, then
    `self.ok[i] = False`): the imported function must keep returning NumPy arrays. A call's keyword (`sep=`) is
    no write."""
    from codemods._buffers import result_writes

    code = (b"from .util import grid, ends, pair, shown\n\ndef f(n):\n    p = grid(n)\n    p[0], p[-1] = p[-1], p[0]\n"
            b"    e = ends(n)\n    (k, e[1:]) = 0, 1\n    s = shown(n)\n    print(n, s[0], sep=', ')\n\n"
            b"class C:\n    def __init__(self, n):\n        self.ok, self.err = pair(n)\n\n    def drop(self, i):\n"
            b"        self.ok[i] = False\n")
    assert result_writes("p.py", "pkg.p", code) == {"pkg.util.grid": "pkg.p", "pkg.util.ends": "pkg.p",
                                                     "pkg.util.pair": "pkg.p"}


def test_the_result_index_counts_reads_only_a_numpy_array_allows():
    """`y = normalize(x)` after `from .util import normalize`, then `y.flags["C_CONTIGUOUS"]` (nilearn): a JAX
    array has no `.flags`, so the imported function must keep returning a NumPy array; so for `.strides` of the
    result read at once. An attribute assigned (`obj.base = ...`) or `.data` (many objects have one) do not count."""
    from codemods._buffers import result_writes

    code = (b"from .util import unit, step, other, box\n\ndef f(x):\n    y = unit(x)\n    if not y.flags['C_CONTIGUOUS']:\n"
            b"        return None\n    s = step(x).strides[0]\n    o = other(x)\n    o.base = 1\n    b = box(x)\n"
            b"    return b.data\n")
    assert result_writes("p.py", "pkg.p", code) == {"pkg.util.unit": "pkg.p", "pkg.util.step": "pkg.p"}


def test_a_function_whose_result_another_module_reads_flags_of_stays_numpy(tmp_path):
    util = "import numpy as np\n\n\ndef unit_rows(a):\n    return a / np.linalg.norm(a, axis=1, keepdims=True)\n"
    use = ("from rowpkg.util import unit_rows\n\n\ndef writable(a):\n    r = unit_rows(a)\n"
           "    return r.flags.writeable\n")
    pkg, files = _package(tmp_path, "rowpkg", {"util.py": util, "use.py": use})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "util.py").read_text() == util
    messages = [f.message for f in results["util.py"].findings if f.code == "JX501"]
    assert any("code in `rowpkg.use` binds what this returns" in m for m in messages), messages
    alone = run_files([str(pkg / "util.py")], all_rules(), RunOptions(fix=True, write=False), jobs=1)
    assert "jnp.linalg.norm" in alone[0].fixed


def test_the_result_index_reads_a_write_in_the_function_that_binds_the_name():
    """`res = gauss(x)` in one test function and `res[i] = ...` in another are two names: the result is not written
    into (astroML's tests: `gauss` had been kept NumPy, and a second migrate, after the other function's write had
    become `.at`, rewrote it). A write in a nested function, or later in the same one, counts."""
    from codemods._buffers import result_writes

    code = (b"from .util import gauss\n\n\ndef test_one(x):\n    res = gauss(x)\n    assert res.sum() > 0\n\n\n"
            b"def test_two(x):\n    res = x.copy()\n    for i in range(3):\n        res[i] = 1.0\n")
    assert result_writes("t.py", "pkg.t", code) == {}
    same = code.replace(b"    assert res.sum() > 0\n", b"    res[0] = 2.0\n")
    assert result_writes("t.py", "pkg.t", same) == {"pkg.util.gauss": "pkg.t"}
    nested = code.replace(b"    assert res.sum() > 0\n", b"    def inner():\n        res[0] = 2.0\n    inner()\n")
    assert result_writes("t.py", "pkg.t", nested) == {"pkg.util.gauss": "pkg.t"}
    top = b"from .util import gauss\n\nres = gauss(3)\n\n\ndef f():\n    pass\nres[0] = 1\n"  # module level, after a def
    assert result_writes("t.py", "pkg.t", top) == {"pkg.util.gauss": "pkg.t"}
    # module level with a def between the binding and the write, or before the binding (code review)
    for between in (b"def helper(v):\n    return v\nres = gauss(3)\ndef later(v):\n    return v\nres[0] = 5.0\n",
                    b"def helper(v):\n    return v\nif True:\n    res = gauss(3)\ndef later(v):\n    return v\nres[0] = 5.0\n",
                    b"def fill():\n    res[0] = 5.0\nres = gauss(3)\n"):
        assert result_writes("t.py", "pkg.t", b"from .util import gauss\n" + between) == {"pkg.util.gauss": "pkg.t"}
    method = (b"from .util import gauss\n\nclass K:\n    def a(self):\n        res = gauss(3)\n        return res\n\n"
              b"    def b(self, res):\n        res[0] = 1\n")  # another method's `res`: not the same name
    assert result_writes("t.py", "pkg.t", method) == {}
    signature = method.replace(b"    def a(self):\n", b"    def a(\n        self,\n    ):\n")  # (pykrige's `execute`)
    assert result_writes("t.py", "pkg.t", signature) == {}
    text = (b'from .util import gauss\n\ndef f():\n    """Doc\nat column 0\n    """\n    res = gauss(3)\n    return res\n\n\n'
            b"def g(res):\n    res[0] = 1\n")  # the lines above cannot tell: the whole module
    assert result_writes("t.py", "pkg.t", text) == {"pkg.util.gauss": "pkg.t"}


def test_the_result_index_reads_results_stored_on_written_attributes():
    from codemods._buffers import result_writes

    # filterpy's UKF: a method of another object (its class unknown: `.name`), an imported function, a method of
    # `self` (which a subclass in another module may override), not an attribute nothing writes into
    code = (b"from .util import make\n\nclass F:\n    def predict(self, x):\n        self.sigmas = self.points_fn.sigma_points(x)\n"
            b"        self.sigmas[0] = 1.0\n        self.y = make(x)\n        self.y.fill(0)\n        self.z = self.own(x)\n"
            b"        self.z[0] = 2\n        self.w = self.points_fn.other(x)\n")
    assert result_writes("p.py", "pkg.p", code) == {".sigma_points": "pkg.p", "pkg.util.make": "pkg.p", ".own": "pkg.p"}


def test_the_result_index_reads_self_methods_bound_to_a_name_and_written():
    from codemods._buffers import result_writes

    # `y = self.evaluate(x)` then a write (an output, an item, `np.copyto`): `.evaluate`, whatever the class (a class
    # without a base may be a mixin, or mixed in); not a name only read (`z`), nor an output that is an attribute's
    # (`out=s.k`)
    code = (b"import numpy as np\n\nclass F:\n    def energy(self, x, s):\n        y = self.evaluate(x)\n"
            b"        np.power(y, 2, out=y)\n        a = self.first(x)\n        a[0] = 1\n        b = cls.second(x)\n"
            b"        np.copyto(b, x)\n        z = self.third(x)\n        np.add(z, 1, out=s.k)\n        return z\n")
    assert result_writes("p.py", "pkg.p", code) == {".evaluate": "pkg.p", ".first": "pkg.p", ".second": "pkg.p"}


def test_a_method_whose_result_another_module_stores_on_a_written_attribute_stays_numpy(tmp_path):
    """`filt.py` stores what `self.points_fn.sigma_points(x)` returns as `self.sigmas` and writes `self.sigmas[i] =
    ...`, a write that stays NumPy: `Points.sigma_points` in another module must keep returning a NumPy array
    (filterpy review repro 8: `TypeError` on the JAX array)."""
    points = ("import numpy as np\n\n\nclass Points:\n    def sigma_points(self, x):\n        sigmas = np.zeros((2, 2))\n"
              "        sigmas[0] = x\n        sigmas[1] = -x\n        return sigmas\n")
    filt = ("import numpy as np\n\n\nclass Filter:\n    def __init__(self, points):\n        self.points_fn = points\n"
            "        self.sigmas = np.zeros((2, 2))\n\n    def predict(self, x):\n        for i in range(2):\n"
            "            self.sigmas[i] = self.sigmas[i] + 1.0\n        self.sigmas = self.points_fn.sigma_points(x)\n")
    pkg, files = _package(tmp_path, "ukf", {"points.py": points, "filt.py": filt})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "points.py").read_text() == points and (pkg / "filt.py").read_text() == filt
    messages = [f.message for f in results["points.py"].findings if f.code == "JX501"]
    assert any("code in `ukf.filt` writes into what a method of this name returns" in m for m in messages), messages
    alone = run_files([str(pkg / "points.py")], all_rules(), RunOptions(fix=True, write=False), jobs=1)
    assert "jnp.zeros((2, 2))" in alone[0].fixed


@pytest.mark.parametrize("write", ["np.power(y, 2, out=y)", "y[0] = 0.5", "np.copyto(y, 0.5)"])
def test_an_override_in_another_module_of_a_method_whose_result_the_base_writes_into_stays_numpy(tmp_path, write):
    """`Filter.energy` writes into what `self.evaluate(x)` returns, so `Filter.evaluate` stays NumPy; an override in
    another module (`Modulation(Filter).evaluate`) must too: moved to JAX (`jnp.full` + `.at[].set`), the write
    raised `TypeError: return arrays must be of ArrayType` (pygsp review, repro r2)."""
    base = ("import numpy as np\n\n\nclass Filter:\n    def evaluate(self, x):\n"
            "        return np.exp(-np.asarray(x, dtype=float))\n\n    def energy(self, x):\n"
            f"        y = self.evaluate(x)\n        {write}\n        return y.sum()\n")
    sub = ("import numpy as np\n\nfrom .base import Filter\n\n\nclass Modulation(Filter):\n    def evaluate(self, x):\n"
           "        y = np.full(len(x), np.nan)\n        for i in range(len(x)):\n            y[i] = 2.0 * x[i]\n"
           "        return y\n")
    pkg, files = _package(tmp_path, "gsp", {"base.py": base, "sub.py": sub})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "sub.py").read_text() == sub
    found = [f for f in results["sub.py"].findings if f.code == "JX501" and "code in `gsp.base` writes into" in f.message]
    assert [f.line for f in found] == [11], [(f.line, f.message) for f in results["sub.py"].findings]
    alone = run_files([str(pkg / "sub.py")], all_rules(), RunOptions(fix=True, write=False), jobs=1)
    assert "jnp.full(len(x), np.nan)" in alone[0].fixed


def test_a_write_in_another_method_does_not_keep_a_result_numpy_and_migrating_twice_changes_nothing(tmp_path):
    """`Kriging._loop` writes into its own local `out`; `Kriging.run` binds what `self._loop()` returns to a name it
    only reads. Before, any write into a name of that spelling anywhere in the file counted (pykrige's `ok.py`:
    `sigmasq[j] = ...` in `_exec_loop`, `zvalues, sigmasq = self._exec_loop(...)` in `execute`), so `Kriging3D._loop`
    in another module was kept NumPy, and a second migrate, after the write had become `.at`, rewrote it."""
    two = ("import numpy as np\n\n\nclass Kriging:\n    def _loop(self, n):\n        out = np.zeros(n)\n        out[0] = 1.0\n"
           "        return out\n\n    def run(self, n):\n        out = self._loop(n)\n        return out.sum()\n")
    three = ("import numpy as np\n\n\nclass Kriging3D:\n    def _loop(self, n):\n        out = np.zeros(n)\n"
             "        out[1] = 2.0\n        return out\n")
    pkg, files = _package(tmp_path, "krig", {"ok.py": two, "ok3d.py": three})
    first = run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert "jnp.zeros(n)" in (pkg / "ok3d.py").read_text(), [f.message for r in first for f in r.findings]
    second = run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert all(r.fixes_applied == 0 for r in second), [(r.path, r.fixes_applied) for r in second]


def test_a_method_a_mixin_reaches_stays_numpy(tmp_path):
    """`ClipMixin` has no base but is mixed into `Concrete(ClipMixin, Model)`: its `self.evaluate(x)`, written into,
    reaches `Model.evaluate` in another module, which must stay NumPy (code review: the narrowed `self.evaluate`
    key had let it become JAX, and `Concrete().clipped(...)` raised TypeError)."""
    model = "import numpy as np\n\n\nclass Model:\n    def evaluate(self, x):\n        return np.exp(-0.5 * np.asarray(x) ** 2)\n"
    mixin = ("class ClipMixin:\n    def clipped(self, x):\n        y = self.evaluate(x)\n        y[0] = 0.0\n"
             "        return y\n")
    concrete = "from .mixin import ClipMixin\nfrom .model import Model\n\n\nclass Concrete(ClipMixin, Model):\n    pass\n"
    pkg, files = _package(tmp_path, "mixed", {"model.py": model, "mixin.py": mixin, "concrete.py": concrete})
    run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert (pkg / "model.py").read_text() == model


def test_a_helper_result_stored_on_an_attribute_another_module_writes_into_stays_numpy(tmp_path):
    """`Base.__init__` stores `yinit(n)` as `self.Y`; a subclass in another module writes `self.Y[0] = v`, which
    stays NumPy: `yinit` must keep returning a NumPy array (the package's attribute writes, from the index)."""
    base = "import numpy as np\n\n\ndef yinit(n):\n    return np.zeros(n)\n\n\nclass Base:\n    def __init__(self, n):\n        self.Y = yinit(n)\n"
    sub = "from .base import Base\n\n\nclass Sub(Base):\n    def step(self, v):\n        self.Y[0] = v\n        return self.Y\n"
    pkg, files = _package(tmp_path, "solvers", {"base.py": base, "sub.py": sub})
    run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert (pkg / "base.py").read_text() == base


MATRIX_MAKERS = "import numpy as np\n\n\ndef as_matrix(a):\n    return np.asmatrix(a)\n\n\nclass Base:\n    def __init__(self):\n" \
    "        self.P = np.asmatrix([[1.0, 2.0], [3.0, 4.0]])\n"


@pytest.mark.parametrize("imports, body", [
    pytest.param("from xm.consts import P", "Q = np.eye(2) + P\n    return Q * Q", id="module-level-name"),
    pytest.param("from .consts import P as PP", "return (np.eye(2) + PP) * PP", id="renamed-relative"),
    pytest.param("from xm.mats import as_matrix as am", "Q = np.eye(2) + am([[1.0, 2.0], [3.0, 4.0]])\n    return Q * Q",
                 id="maker-function"),
    pytest.param("from .consts import M", "return np.sum(M) + np.zeros(3)", id="masked-array"),
    pytest.param("from .consts import *", "Q = np.eye(2) + P\n    return Q * Q", id="star-import"),
    pytest.param("from xm.mats import *", "Q = np.eye(2) + as_matrix([[1.0, 2.0], [3.0, 4.0]])\n    return Q * Q",
                 id="maker-function-by-star-import"),
])
def test_a_matrix_made_in_another_module_keeps_the_function_reading_it_numpy(tmp_path, imports, body):
    """`P = np.asmatrix(...)` in `consts.py`, read in another module (`Q = np.eye(2) + P; Q * Q`): `jnp.eye` made `Q`
    a plain array, whose `*` is elementwise (review M3). So for a function of another module that returns a matrix,
    and a masked array (which `jax.numpy` rejects)."""
    consts = ("import numpy as np\nP = np.asmatrix([[1.0, 2.0], [3.0, 4.0]])\n"
              "M = np.ma.masked_invalid(np.array([1.0, np.nan, 3.0]))\n")
    model = f"import numpy as np\n{imports}\n\n\ndef step():\n    {body}\n\n\ndef plain(x):\n    return np.sum(x)\n"
    pkg, files = _package(tmp_path, "xm", {"consts.py": consts, "mats.py": MATRIX_MAKERS, "model.py": model})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)}
    fixed = (pkg / "model.py").read_text()
    assert "np.eye(2)" in fixed or "np.sum(M)" in fixed, fixed
    assert "jnp.sum(x)" in fixed, fixed  # the module's other functions still migrate
    kept = [f for f in results["model.py"].findings if "this function is left as it is" in f.message]
    # (lines of the fixed file, which gained `import jax.numpy as jnp`)
    assert kept and all(f.line == 7 for f in kept), [(f.line, f.message) for f in results["model.py"].findings]


def test_a_matrix_attribute_of_a_base_class_in_another_module_keeps_the_subclass_numpy(tmp_path):
    # `Base.__init__` binds `self.P` to a matrix; `Leaf(Mid)`, `Mid(Base)` each in another module, reads `self.P`
    mid = "from . import mats\n\n\nclass Mid(mats.Base):\n    pass\n"
    leaf = ("import numpy as np\nfrom .mid import Mid\n\n\nclass Leaf(Mid):\n    def step(self):\n"
            "        Q = np.eye(2) + self.P\n        return Q * Q\n\n\nclass Other:\n    def step(self):\n"
            "        Q = np.eye(2) + self.P\n        return Q * Q\n")
    pkg, files = _package(tmp_path, "xm", {"mats.py": MATRIX_MAKERS, "mid.py": mid, "leaf.py": leaf})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)}
    fixed = (pkg / "leaf.py").read_text()
    assert fixed.count(" np.eye(2) + self.P") == 1 and fixed.count("jnp.eye(2) + self.P") == 1, fixed  # `Other` is no subclass
    assert any(f.line == 8 and "`self.P` may hold a NumPy matrix" in f.message for f in results["leaf.py"].findings)


@pytest.mark.parametrize("graph, mid", [
    pytest.param("        self.W = sparse.csr_matrix(w)\n", None, id="attribute"),
    pytest.param("        self._adjacency = sparse.csr_matrix(w)\n\n    @property\n    def W(self):\n"
                 "        return self._adjacency\n", "from . import graph\n\n\nclass Mid(graph.Graph):\n    pass\n",
                 id="property-through-a-middle-class"),
])
def test_a_sparse_attribute_of_a_base_class_in_another_module_stays_out_of_jax(tmp_path, graph, mid):
    """`Graph.__init__` binds `self.W` to a SciPy sparse matrix; `np.abs(self.W - self.W.T)` in a subclass of another
    module became `jnp.abs(...)`, which raised `TypeError` (pygsp review, repro r4). Arithmetic on it in the
    subclass (`self.L = self.W - self.W.T`) gives a sparse attribute too."""
    graph = "import numpy as np\nfrom scipy import sparse\n\n\nclass Graph:\n    def __init__(self, w):\n" + graph
    base = "Mid" if mid else "Graph"
    regular = (f"import numpy as np\n\nfrom .{base.lower() if mid else 'graph'} import {base}\n\n\nclass Regular({base}):\n"
               "    def asymmetry(self):\n        return np.abs(self.W - self.W.T).sum()\n\n    def laplacian(self):\n"
               "        self.L = self.W - self.W.T\n        return np.max(self.L)\n\n\nclass Other:\n"
               "    def asymmetry(self, x):\n        return np.abs(x)\n")
    pkg, files = _package(tmp_path, "gsp", {"graph.py": graph, "regular.py": regular, **({"mid.py": mid} if mid else {})})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)}
    fixed = (pkg / "regular.py").read_text()
    assert "np.abs(self.W - self.W.T)" in fixed and "np.max(self.L)" in fixed and "jnp.abs(x)" in fixed, fixed
    lines = sorted(f.line for f in results["regular.py"].findings if "a SciPy sparse matrix" in f.message)
    assert lines == [9, 13], [(f.line, f.message) for f in results["regular.py"].findings]


def test_the_imported_values_index_skips_modules_without_a_trigger():
    from codemods._imported_values import wanted

    modules = frozenset({"pkg.a", "pkg.b"})
    assert not wanted(b"import numpy as np\n# the covariance matrix\ndef f(x):\n    return np.cov(x)\n", "pkg.a", False, modules)
    assert not wanted(b"import numpy as np\nclass A:\n    pass\n", "pkg.a", False, modules)  # no base from the run
    assert wanted(b"from .b import B\nclass A(B):\n    pass\n", "pkg.a", False, modules)
    for code in (b"P = np.asmatrix(x)\n", b"M = np.ma.masked_invalid(x)\n", b"from scipy import sparse\n",
                 b"import scipy.sparse as sp\n", b"from numpy import matrix\n", b"D = S.todense()\n"):
        assert wanted(code, "pkg.a", False, modules), code


def test_a_result_written_elsewhere_is_matched_through_a_package_reexport():
    from codemods._caller_writes import _written_elsewhere

    facts = {"pkg.to_bits": "pkg.coder", "pkg.util.grid": "pkg.view"}
    assert _written_elsewhere(facts, "pkg.util", "to_bits") == "pkg.coder"  # `from pkg import to_bits`
    assert _written_elsewhere(facts, "pkg.util", "grid") == "pkg.view"
    assert _written_elsewhere(facts, "other.util", "to_bits") is None and _written_elsewhere(facts, "pkg.util", "hist") is None


def test_a_function_whose_result_another_module_writes_into_stays_numpy(tmp_path):
    """`coder.py` writes into what `to_bits` returns, a write jaxfix leaves (it cannot see where the array comes
    from): moved to JAX, `to_bits` would hand it an immutable array (commpy's `bitarray`, `TypeError`)."""
    util = "import numpy as np\n\n\ndef to_bits(number, width):\n    result = np.zeros(width)\n    result[-1] = number & 1\n    return result\n"
    coder = "from bitcode.util import to_bits\n\n\ndef flip_first(number, width):\n    bits = to_bits(number, width)\n    bits[0] = 1 - bits[0]\n    return bits\n"
    pkg, files = _package(tmp_path, "bitcode", {"util.py": util, "coder.py": coder})
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "util.py").read_text() == util and (pkg / "coder.py").read_text() == coder
    messages = [f.message for f in results["util.py"].findings if f.code == "JX501"]
    assert any("code in `bitcode.coder` binds what this returns to a name and writes into it" in m for m in messages), messages
    # alone, nothing writes into the result: the helper moves to JAX
    alone = run_files([str(pkg / "util.py")], all_rules(), RunOptions(fix=True, write=False), jobs=1)
    assert "jnp.zeros(width)" in alone[0].fixed


@pytest.mark.parametrize("use", [
    "from .emb import embed\n\n\ndef order(x):\n    return embed(x, 3).argsort(kind=\"quicksort\")\n",
    "from . import emb\n\n\ndef order(x):\n    e = emb.embed(x, 3)\n    return e.argsort(0, \"mergesort\")\n",
])
def test_a_function_whose_result_another_module_sorts_with_a_kind_stays_numpy(tmp_path, use):
    """neurokit2's `complexity_embedding(...).argsort(kind="quicksort")` in another module: a JAX array's `argsort`
    rejects `kind` (`TypeError`), so the helper keeps returning a NumPy array; without a kind it moves to JAX."""
    emb = ("import numpy as np\n\n\ndef embed(x, d):\n    y = np.zeros((d, len(x) - d + 1))\n    for i in range(d):\n"
           "        y[i] = x[i:i + y.shape[1]]\n    return y.T\n")
    pkg, files = _package(tmp_path, "embpkg", {"emb.py": emb, "use.py": use})
    results = run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "emb.py").read_text() == emb
    (tmp_path / "plain").mkdir()
    unsorted = re.sub(r'(, )?(kind=)?"\w+"', "", use)  # `.argsort()`, `.argsort(0)`
    _, plain = _package(tmp_path / "plain", "embpkg", {"emb.py": emb, "use.py": unsorted})
    moved = run_files(plain, all_rules(), RunOptions(fix=True, write=False), jobs=1)
    assert any("jnp.zeros" in r.fixed for r in moved if r.path.endswith("emb.py"))


@pytest.mark.parametrize("use", [
    "    grid, edges = make_grid(n)\n    clear_rows(grid)\n    return edges\n",
    "    parts = make_grid(n)\n    clear_rows(parts[0])\n    return parts\n",
    "    clear_rows(make_grid(n)[0])\n",
])
def test_an_item_of_a_returned_tuple_handed_to_a_writer_by_another_module_stays_numpy(tmp_path, use):
    """`view.py` unpacks what `make_grid` returns and hands an item of it to `clear_rows`, of the same module as
    `make_grid`, which writes into its parameter (stumpy's `QT, QT_first = _get_QT(...)`): `make_grid` stays NumPy."""
    grid = ("import numpy as np\n\n\ndef make_grid(n):\n    g = np.zeros((n, n))\n    for i in range(n):\n"
            "        g[i] = i\n    return g, np.arange(n)\n\n\ndef clear_rows(q):\n    q[:, 0] = 0.0\n")
    view = f"from .grid import clear_rows, make_grid\n\n\ndef show(n):\n{use}"
    pkg, files = _package(tmp_path, "gridpkg", {"grid.py": grid, "view.py": view})
    results = run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "grid.py").read_text() == grid
    messages = [f.message for r in results for f in r.findings]
    assert any("hands what this returns to `clear_rows`" in m for m in messages), messages


CHECKED = ("import numpy as np\n\n\ndef flags(a, w, given=None):\n    if given is None:\n"
           "        given = np.zeros((a.shape[0], w), dtype=bool)\n    elif isinstance(given, np.ndarray):\n        pass\n"
           "    else:\n        raise ValueError(\"given must be an array\")\n    return given\n\n\n"
           "def mark(a, w, given=None):\n    out = flags(a, w, given)\n    out[:, -1] = True\n    return out\n")


@pytest.mark.parametrize("helper, called, why", [
    ("", "lib.mark", "`lib.mark` writes into its parameter `given`"),
    ("def relay(a, w, given=None):\n    return lib.mark(a, w, given)\n\n\n", "relay", "`relay` writes into its parameter `given`"),
    ("", "lib.flags", "checks it with `isinstance(given, np.ndarray)`"),
    ("def relay(a, w, given=None):\n    return lib.flags(a, w, given)\n\n\n", "relay", "hands it to `lib.flags`"),
])
def test_an_array_reaching_a_writer_or_a_numpy_check_of_another_module_stays_numpy(tmp_path, helper, called, why):
    """stumpy's `motif` makes `Q_isconstant = np.atleast_2d(...)` and hands it to `match`, which hands it to
    `core.preprocess`, which writes into it, after `core.rolling_isconstant` checked it is a NumPy array (a test that
    stays NumPy, as its function does): directly or through a function of the caller's module, it stays NumPy."""
    use = (f"import numpy as np\n\nfrom . import checks as lib\n\n\n{helper}def first(t, w):\n"
           f"    f = np.atleast_2d(t > 0)\n    return {called}(t, w, f)\n")
    pkg, _ = _package(tmp_path, "chk", {"checks.py": CHECKED, "use.py": use})
    results = run_files([str(pkg / "use.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "use.py").read_text() == use
    messages = [f.message for r in results for f in r.findings]
    assert any(why in m for m in messages), messages


@pytest.mark.parametrize("pandas", [True, False], ids=["widening-unsafe", "widening-safe"])
def test_an_array_for_a_type_chain_ending_in_raise_of_another_module_follows_the_callee(tmp_path, pandas):
    # arch's `to_array_1d(x)`: `if isinstance(x, np.ndarray): ...` / `elif isinstance(x, Series): ...` / `else: raise
    # TypeError`. In a module using pandas the test's widening is only an unsafe fix, so an array another module makes
    # for it (`to_array_1d(array([1.5]))`) stays NumPy (`jnp.array` raised `TypeError`); where the widening is safe,
    # both move to JAX
    conv = ("import numpy as np\n" + ("from pandas import Series\n" if pandas else "Series = list\n") +
            "\n\ndef as_floats(v):\n    if isinstance(v, np.ndarray):\n        return v.astype(float)\n"
            "    elif isinstance(v, Series):\n        return np.asarray(v, dtype=float)\n    else:\n"
            "        raise TypeError('v must be an array')\n")
    use = "import numpy as np\n\nfrom .conv import as_floats\n\n\ndef start():\n    return as_floats(np.array([0.5, 1.5]))\n"
    pkg, files = _package(tmp_path, "dist", {"conv.py": conv, "use.py": use})
    results = run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    if pandas:
        assert (pkg / "use.py").read_text() == use
        messages = [f.message for r in results for f in r.findings]
        assert any("checks it with `isinstance(v, np.ndarray)`" in m for m in messages), messages
    else:
        assert "isinstance(v, (np.ndarray, jax.Array))" in (pkg / "conv.py").read_text()
        assert "as_floats(jnp.array([0.5, 1.5]))" in (pkg / "use.py").read_text()


# --- one-triangle routines (eigh, eigvalsh, cholesky): `symmetrize_input=False` unless symmetric by construction

SYMMETRIC = [
    pytest.param("g = x.T @ x\n    return np.linalg.eigvalsh(g)", id="gram"),
    pytest.param("return np.linalg.eigh(np.dot(x, x.T))", id="dot"),
    pytest.param("return np.linalg.cholesky(np.cov(x) + 1e-3 * np.eye(3))", id="cov-plus-ridge"),
    pytest.param("return np.linalg.eigvalsh(0.5 * (x + x.T))", id="averaged"),
    pytest.param("return np.linalg.eigvalsh((x + x.T) / 2 - 1.0)", id="averaged-shifted"),
    pytest.param("return np.linalg.eigh(x, symmetrize_input=False)", id="keyword-there"),
]


@pytest.mark.parametrize("body", SYMMETRIC)
def test_symmetric_by_construction_is_a_plain_rename(body):
    out = migrate(f"import numpy as np\ndef f(x):\n    {body}\n")
    assert "np.linalg" not in out.replace("jnp.linalg", "") and out.count("symmetrize_input") == body.count("symmetrize_input")


NOT_SYMMETRIC = [
    pytest.param("return np.linalg.eigvalsh(x)", id="parameter"),
    pytest.param("g = x.T @ x\n    g = np.tril(g)\n    return np.linalg.eigvalsh(g)", id="rebound"),
    pytest.param("g = x.T @ x\n    g += np.eye(3)\n    return np.linalg.eigvalsh(g)", id="augmented"),
    pytest.param("return np.linalg.eigh(x @ y.T)", id="two-matrices"),
    pytest.param("return np.linalg.cholesky(x + 1.0 * y)", id="sum-with-unknown"),
]


@pytest.mark.parametrize("body", NOT_SYMMETRIC)
def test_other_matrices_get_the_keyword(body):
    out = migrate(f"import numpy as np\ndef f(x, y):\n    {body}\n")
    assert "symmetrize_input=False)" in out


LAYOUTS = [
    pytest.param("np.linalg.eigh(\n        a,  # m\n        UPLO='U'\n    )",
                 "jnp.linalg.eigh(\n        a,  # m\n        UPLO='U',\n        symmetrize_input=False\n    )", id="one-per-line"),
    pytest.param("np.linalg.cholesky(a, )", "jnp.linalg.cholesky(a, symmetrize_input=False)", id="trailing-comma"),
    pytest.param("np.linalg.cholesky( a )", "jnp.linalg.cholesky( a, symmetrize_input=False )", id="spaced"),
    pytest.param("np.linalg.eigvalsh(a,\n                              'L')  # lower",
                 "jnp.linalg.eigvalsh(a,\n                              'L', symmetrize_input=False)  # lower", id="hanging"),
]


@pytest.mark.parametrize("before, after", LAYOUTS)
def test_keyword_follows_the_call_layout(before, after):
    out = migrate(f"import numpy as np\ndef f(a):\n    return {before}\n")
    assert out == f"import jax.numpy as jnp\ndef f(a):\n    return {after}\n"


def test_one_triangle_rewrite_gives_numpys_values():
    import jax
    import jax.numpy as jnp
    import numpy as np

    x = np.random.default_rng(0).normal(size=(4, 4))
    lower = np.tril(x @ x.T + 4.0 * np.eye(4))
    namespace = {}
    exec(migrate("import numpy as np\ndef f(a):\n    return np.linalg.eigvalsh(a), np.linalg.cholesky(a)\n"), namespace)
    with jax.enable_x64(True):
        got = jax.jit(namespace["f"])(jnp.asarray(lower))
    np.testing.assert_allclose(got[0], np.linalg.eigvalsh(lower), rtol=1e-10)
    np.testing.assert_allclose(got[1], np.linalg.cholesky(lower), rtol=1e-10)


def test_an_array_indexed_under_except_star_stays_numpy():
    """`except* IndexError` catches NumPy's out-of-bounds error too; a JAX array would clamp the index."""
    code = ("import numpy as np\n\ndef pick(x, i):\n    y = np.cumsum(x)\n    v = -1.0\n    try:\n        v = y[i]\n"
            "    except* IndexError:\n        pass\n    return v\n")
    outcome = run_rule(NumpyNamespace, code, fix=True)
    assert outcome.fixed == code and "indexed in a `try` that catches `IndexError`" in outcome.findings[0].message


@pytest.mark.parametrize("imports, helper", [
    ("from numpy import divide", "    divide(a, 2.0, a)\n"),
    ("", "    np.modf(a, np.empty(3), a)\n"),  # the second of two outputs
    ("", "    np.clip(a, 0.0, 1.0, a)\n"),  # `out` by position to a function that is no ufunc
    ("from scipy.ndimage import uniform_filter1d as uf1d", "    uf1d(np.ones(3), 3, -1, a)\n"),
])
def test_a_helper_writing_its_parameter_as_a_positional_output_keeps_the_callers_array_numpy(imports, helper):
    """However the helper names the function and whichever output it passes by position, the caller's array is
    written into (code-review repros b2-b4): it stays NumPy."""
    code = f"import numpy as np\n{imports}\n\ndef fill(a):\n{helper}\ndef run():\n    c = np.ones(3)\n    fill(c)\n    return c\n"
    outcome = run_rule(NumpyNamespace, code, fix=True)
    assert "c = np.ones(3)" in outcome.fixed, outcome.fixed


def test_a_module_too_deep_for_the_project_index_does_not_abort_the_run(tmp_path):
    # a 400-term sum on an attribute of a class in a module using scipy.sparse: summarising it recursed too deep
    terms = " + ".join(["w"] * 400)
    deep = f"from scipy import sparse\n\nclass G:\n    def __init__(self, w):\n        self.A = {terms}\n"
    plain = "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n"
    pkg, files = _package(tmp_path, "deep", {"g.py": deep, "h.py": plain})
    results = run_files(files, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert (pkg / "h.py").read_text() == plain.replace("import numpy as np", "import jax.numpy as jnp").replace("np.sum", "jnp.sum")
    assert [r.path for r in results if r.error] in ([], [str(pkg / "g.py")])



FT = "import numpy as np\nfrom scipy.fftpack import fft\n\n\ndef gauss(t):\n    return np.exp(-t ** 2)\n\n\n" \
    "def spectrum(t, h):\n    phase = np.ones_like(t)\n    return fft(h * phase)\n"


@pytest.mark.parametrize("body", [
    pytest.param("return spectrum(t, gauss(t))", id="direct"),
    pytest.param("h = gauss(t)\n    return spectrum(t, h=h)", id="through-a-name-by-keyword"),
    pytest.param("return spectrum(t, 2 * gauss(t))", id="computed-from-it"),
])
def test_a_helper_result_another_module_hands_to_a_parameter_reaching_fftpack_stays_numpy(tmp_path, body, monkeypatch):
    """A test module calls `spectrum(t, gauss(t))`, both of one module, and `spectrum` hands `h` to
    `scipy.fftpack` (astroML's `FT_continuous(t, sinegauss(t, ...))`): `gauss` must keep returning a NumPy array
    (fftpack reads `.flags`); before, only calls in the module were seen, and `jnp.exp` made fftpack raise."""
    use = f"import numpy as np\nfrom .ft import gauss, spectrum\n\n\ndef run(t):\n    {body}\n"
    pkg, files = _package(tmp_path, "astro", {"ft.py": FT, "use.py": use})
    run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert (pkg / "ft.py").read_text() == FT
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    import sys
    import numpy as np
    for name in [m for m in sys.modules if m == "astro" or m.startswith("astro.")]:
        monkeypatch.delitem(sys.modules, name)
    out = importlib.import_module("astro.use").run(np.linspace(-1.0, 1.0, 8))
    assert out.shape == (8,)


def test_an_isinstance_test_of_an_item_does_not_crash(tmp_path):
    """`isinstance(x[0], np.ndarray)`: the subscript's slice is a tuple of elements, not a node (the new scalar test
    walked it as one: `rule JX501 crashed: AttributeError`, code review)."""
    path = tmp_path / "items.py"
    path.write_text("import numpy as np\n\n\ndef f(x):\n    y = np.asarray(x) * 2\n    return isinstance(x[0], np.ndarray), y\n\n\n"
                    "def g(r):\n    s = np.sum(r)\n    while isinstance(s, np.ndarray):\n        s = s[0]\n    return s\n")
    (result,) = run_files([str(path)], all_rules(), RunOptions(fix=True, write=False), jobs=1)
    assert result.error is None and "jnp.ndim(s) > 0" in result.fixed


HELPER_COPIES = "import numpy as np\n\n\ndef scale(series):\n    series = np.array(series)\n    series[0] = 0.0\n    return series\n"
USER = ("import numpy as np\n\nfrom .a_helper import scale\n\n\nclass Pair:\n    def __init__(self, a):\n"
        "        self.orig = np.array(a)\n        self.scaled = scale(self.orig)\n")


def test_migrate_writes_what_diff_shows_and_a_second_run_changes_nothing(tmp_path):
    """dtaidistance's `scale_linearly` copies its argument first (`series = np.array(series)`) and writes into the
    copy. Read by name, its write kept a caller's array NumPy; the helper, processed first and written, then had no
    write left (`.at`), so `migrate` converted the caller where `migrate --diff` did not, and a second run converted
    it too. Writes now come at the end of a run (every file is read as the run found it), and a write into a fresh
    copy of a parameter is no write into the caller's array."""
    pkg, files = _package(tmp_path, "pk", {"a_helper.py": HELPER_COPIES, "b_user.py": USER})
    shown = {r.path: r.fixed for r in run_files(files, all_rules(), RunOptions(fix=True, write=False), jobs=1)}
    results = run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert all(r.written for r in results if r.fixed is not None)
    assert {p: (pkg / os.path.basename(p)).read_text() for p in shown if shown[p] is not None} == \
        {p: text for p, text in shown.items() if text is not None}
    assert "self.orig = jnp.array(a)" in (pkg / "b_user.py").read_text()
    again = run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert not any(r.fixed for r in again)


@pytest.mark.parametrize("helper", [
    pytest.param(HELPER_COPIES.replace("np.array(series)", "np.asarray(series)"), id="asarray-may-alias"),
    pytest.param(HELPER_COPIES.replace("np.array(series)", "np.array(series, copy=False)"), id="asked-not-to-copy"),
    pytest.param(HELPER_COPIES.replace("    series = np.array(series)\n", "    n = series[0]\n    series = np.array(series)\n"
                                       "    if n:\n        series = series[1:]\n"), id="bound-again"),
    pytest.param(HELPER_COPIES.replace("    series = np.array(series)\n", "    series[1] = 1.0\n    series = np.array(series)\n"),
                 id="written-before-the-copy"),
])
def test_a_write_into_what_may_be_the_callers_array_still_keeps_it_numpy(helper):
    from codemods._buffers import writers
    import libcst as cst

    assert "scale" in writers(cst.parse_module(helper))
    assert "scale" not in writers(cst.parse_module(HELPER_COPIES))
    assert "scale" not in writers(cst.parse_module(HELPER_COPIES.replace("np.array(series)", "series.copy()")))


@pytest.mark.parametrize("caller", ["use.py", "fill.py"], ids=["third-module", "writer-module"])
@pytest.mark.parametrize("handed", ["    g = grid(n)\n    stretch(g, 2.0)\n    return g\n",
                                    "    return stretch(grid(n), 2.0)\n"], ids=["bound", "direct"])
def test_a_result_handed_to_a_writer_of_another_module_stays_numpy(tmp_path, caller, handed):
    # SALib: `make(n)` of one module builds an array with item writes, a caller (in a third module, or in the writer's
    # own) hands it to `scale(p, ...)` of another, which writes into `p` with `out=p`: `make` must keep NumPy
    grid = "import numpy as np\n\ndef grid(n):\n    g = np.ones((n, 2))\n    for i in range(n):\n        g[i, 0] = i\n    return g\n"
    fill = "import numpy as np\n\ndef stretch(p, k):\n    np.multiply(p, k, out=p)\n    return p\n"
    use = "from .cells import grid\nfrom .fill import stretch\n\ndef sample(n):\n" + handed
    files = {"cells.py": grid, "fill.py": fill, "use.py": use} if caller == "use.py" else \
        {"cells.py": grid, "fill.py": fill + "\nfrom .cells import grid\n\ndef sample(n):\n" + handed}
    pkg, paths = _package(tmp_path, "sq", files)
    results = run_files(paths, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "cells.py").read_text() == grid
    messages = [f.message for r in results for f in r.findings]
    assert any("hands what this returns to `sq.fill.stretch`, and `stretch` writes into its parameter `p`" in m
               for m in messages), messages
    # alone, the module has no such caller: the array moves to JAX
    alone = run_files([str(pkg / "cells.py")], [NumpyNamespace], RunOptions(fix=True, write=False), jobs=1)
    assert "jnp.ones((n, 2))" in alone[0].fixed


@pytest.mark.parametrize("imported, decorator", [
    ("from .guard import sequence_input", "sequence_input"),
    ("from sq import guard", "guard.sequence_input"),
])
def test_an_array_given_to_a_function_whose_imported_decorator_tests_for_ndarray_stays_numpy(tmp_path, imported, decorator):
    # pysal's inequality: `@consistent_input` (another module) wraps `lorenz_curve` in a wrapper that raises unless
    # `isinstance(data, np.ndarray | list)`; `wolfson` makes `y = np.array(data)` and calls `lorenz_curve(y)`: a JAX `y`
    # raised TypeError, so the call making it stays NumPy (its module is not migrated: its test is not widened)
    guard = ("from functools import wraps\n\nimport numpy as np\n\n\ndef sequence_input(func):\n    @wraps(func)\n"
             "    def inner(values, *args, **kwargs):\n        if isinstance(values, np.ndarray | list):\n"
             "            values = np.asarray(values)\n        else:\n            raise TypeError('no sequence')\n"
             "        return func(values, *args, **kwargs)\n\n    return inner\n")
    code = (f"import numpy as np\n{imported}\n\n\n@{decorator}\ndef shares(values):\n    return np.cumsum(values) / np.sum(values)\n\n\n"
            "def top(values):\n    v = np.array(values, dtype=float)\n    return shares(v)[-1]\n")
    pkg, _ = _package(tmp_path, "sq", {"guard.py": guard, "use.py": code})
    results = run_files([str(pkg / "use.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    migrated = (pkg / "use.py").read_text()
    assert "v = np.array(values, dtype=float)" in migrated, migrated
    assert "jnp.cumsum(values)" in migrated, migrated  # (the decorated function itself gets a NumPy array)
    messages = [f.message for r in results for f in r.findings]
    assert any(f"decorated with `@{decorator}`, whose wrapper checks it with `isinstance(values, np.ndarray | list)`" in m
               for m in messages), messages


def test_a_private_python_module_beside_is_no_compiled_one(tmp_path):
    """pywt's `from ._utils import _modes_per_axis`: a `.py` module of the package is read for what it writes
    (`imported_writers`), not taken for a compiled one; a private module with no source beside still is."""
    import libcst as cst

    from codemods import _buffers

    pkg, _ = _package(tmp_path, "wav", {"_utils.py": "def pick(axes):\n    return tuple(axes)\n", "core.py": ""})
    code = ("from ._utils import pick\nfrom ._ext import fill\nfrom . import _fast, _utils as u\n"
            "import numpy as np\n")
    module = cst.parse_module(code)
    assert _buffers.private_modules(module, str(pkg / "core.py")) == {"fill", "_fast"}
    assert _buffers.private_modules(module) == {"pick", "fill", "_fast", "u"}
    # ... and so for another module's writers read from its file (`imported_writers`): a helper handing its
    # parameter to a private function of a Python module beside it needs no NumPy array for it
    (pkg / "_util2.py").write_text("def _check(x):\n    return x\n")
    helper = "from ._util2 import _check\n\ndef use(x):\n    _check(x)\n    return x\n"
    (pkg / "helpers.py").write_text(helper)
    assert "use" not in _buffers._writers_of_file(str(pkg / "helpers.py"))
    assert "use" in _buffers.writers_of_source(helper)


def _migrated(paths):
    """The results of migrating `paths` with JX501 (written), none an error."""
    results = run_files(paths, [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    return results


@pytest.mark.parametrize("imported, made", [
    ("from .waves import Ricker", "2.0 / Ricker(3.0).period()"),  # a method of an instance made in place
    ("from .waves import Ricker", "1.0 if x is None else 2.0 / Ricker(3.0).period()"),  # one branch of a choice
    ("from .waves import Ricker", None),  # a method of an instance bound to a name first (`w = Ricker(3.0)`)
    ("from .waves import half_width", "np.sqrt(half_width(3.0))"),  # a function, through a NumPy call
    ("from trans import waves as half_width_module", "half_width_module.half_width(3.0) * 2"),  # a function through its module
])
def test_a_result_handed_to_fftpack_in_another_module_stays_numpy(tmp_path, imported, made):
    # leakpkg (a review's repro, after pycwt): `wavelet.cwt` computes scales from `Morlet().flambda()` of
    # `mothers.py` and hands them to `scipy.fftpack.ifft`, which reads `.flags`: `flambda` returning `jnp.sqrt(...)`
    # raised `AttributeError` there. The function (and the method) of the other module stays NumPy
    waves = ("import numpy as np\n\nclass Ricker:\n    def __init__(self, a):\n        self.a = a\n\n"
             "    def period(self):\n        return 2 * np.pi / np.sqrt(self.a + 2.5)\n\n\n"
             "def half_width(a):\n    return np.sqrt(2.0 * np.log(2.0)) * a\n")
    body = "    w = Ricker(3.0)\n    s = 2.0 / w.period()\n" if made is None else f"    s = {made}\n"
    use = (f"import numpy as np\nimport scipy.fftpack as fp\n{imported}\n\n\ndef transform(x):\n{body}"
           "    scales = s * 2.0 ** np.arange(4)\n    return fp.ifft(fp.fft(x) * scales[:, None], axis=1)\n")
    pkg, paths = _package(tmp_path, "trans", {"waves.py": waves, "use.py": use})
    results = _migrated(paths)
    kept = "return np.sqrt(2.0 * np.log(2.0)) * a" if "half_width" in imported else "return 2 * np.pi / np.sqrt(self.a"
    assert kept in (pkg / "waves.py").read_text()
    messages = [f.message for r in results if r.path.endswith("waves.py") for f in r.findings]
    assert any("code in `trans.use` hands what this returns (or a value computed from it) to `fp.ifft(...)` of "
               "`scipy.fftpack`" in m for m in messages), messages


def test_a_result_tested_for_a_python_number_in_another_module_stays_numpy(tmp_path):
    # `p = peak(x)`, then `isinstance(p, float)` in another module: `np.max` gives a NumPy float64 (a `float`), a
    # migrated `jnp.max` a JAX array, which never is one
    stats = "import numpy as np\n\n\ndef peak(x):\n    return np.max(np.abs(x))\n"
    use = ("from .stats import peak\n\n\ndef checked(x):\n    p = peak(x)\n    if not isinstance(p, float):\n"
           "        raise TypeError('not a number')\n    return p\n")
    pkg, paths = _package(tmp_path, "st", {"stats.py": stats, "use.py": use})
    results = _migrated(paths)
    assert (pkg / "stats.py").read_text() == stats
    messages = [f.message for r in results for f in r.findings]
    assert any("code in `st.use` tests whether what this returns" in m for m in messages), messages


def test_a_result_handed_to_a_python_number_test_of_another_module_stays_numpy(tmp_path):
    # mspkg (a review's repro, after a multiscale-entropy package): `radius(coarse(x, T))` in `msen.py`, with
    # `coarse` of `coarse.py` and `radius` of `sampen.py` doing `r = 0.2 * np.std(sig)`, then `assert isinstance(r,
    # (int, float))`: for a JAX array `np.std` calls its `.std()`, a JAX array, and the assertion failed
    coarse = "import numpy as np\n\n\ndef blocks(z, n):\n    return np.mean(np.reshape(z[: n * 4], (4, n)), axis=1)\n"
    sampen = ("import numpy as np\n\n\ndef tolerance(sig, r=None):\n    if r is None:\n        r = 0.2 * np.std(sig)\n"
              "    assert isinstance(r, (int, float))\n    return r\n")
    msen = "from .coarse import blocks\nfrom .sampen import tolerance\n\n\ndef scan(sig):\n    return [tolerance(blocks(sig, n)) for n in (1, 2)]\n"
    pkg, paths = _package(tmp_path, "ms", {"coarse.py": coarse, "sampen.py": sampen, "msen.py": msen})
    results = _migrated(paths)
    assert (pkg / "coarse.py").read_text() == coarse
    messages = [f.message for r in results for f in r.findings]
    assert any("`tolerance` needs a NumPy array as its parameter `sig`" in m for m in messages), messages


LOW = "import numpy as np\nfrom ._ext import combine\n\n\ndef rebuild(coeffs):\n    return combine(coeffs[0], coeffs[1])\n"
MID = "from .low import rebuild\n\n\ndef waverec(coeffs):\n    return rebuild(coeffs)\n"
TOP = ("import numpy as np\n\nfrom .mid import waverec\n\n\ndef split(x):\n    low = np.zeros_like(x)\n"
       "    return waverec([low, x - low])\n")


@pytest.mark.parametrize("low, mid, top", [
    pytest.param(LOW, MID, TOP, id="items"),
    pytest.param(LOW.replace("coeffs[0], coeffs[1]", "coeffs, coeffs"), MID,
                 TOP.replace("waverec([low, x - low])", "waverec(low) + x"), id="direct"),
    pytest.param(LOW, MID.replace("from .low import rebuild", "from . import low as lo").replace("rebuild(", "lo.rebuild("),
                 TOP, id="module-attribute"),
    pytest.param(LOW, MID + "\n\ndef again(x):\n    from .top import split\n    return split(x)\n", TOP, id="cycle"),
])
def test_an_array_reaching_a_compiled_module_through_two_other_modules_stays_numpy(tmp_path, low, mid, top):
    """pywt's `_mra` calls `waverec` of `_multilevel`, which hands the items of `coeffs` to `idwt` of `_dwt`, which
    hands them to the compiled extension: what `waverec` needs is read from `_multilevel` with what IT imports."""
    pkg, _ = _package(tmp_path, "wv", {"low.py": low, "mid.py": mid, "top.py": top})
    results = run_files([str(pkg / "top.py")], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "top.py").read_text() == top
    messages = [f.message for r in results for f in r.findings]
    assert any("`waverec` needs a NumPy array as its parameter `coeffs`" in m and "rebuild`" in m for m in messages), \
        messages
    assert {p for p, _, _ in results[0].depends} >= {str(pkg / "mid.py"), str(pkg / "low.py")}


def test_a_chain_longer_than_the_bound_is_not_followed(tmp_path):
    # (each module relays to the next: past `TRANSITIVE_DEPTH` modules the need is not seen, the rewrite is made)
    from codemods._buffers import TRANSITIVE_DEPTH
    files = {"m0.py": LOW.replace("rebuild", "f0")}
    for i in range(1, TRANSITIVE_DEPTH + 3):
        files[f"m{i}.py"] = f"from .m{i - 1} import f{i - 1}\n\n\ndef f{i}(coeffs):\n    return f{i - 1}(coeffs)\n"
    near = TOP.replace(".mid import waverec", ".m2 import f2").replace("waverec(", "f2(")
    far = TOP.replace(".mid import waverec", f".m{TRANSITIVE_DEPTH + 2} import f{TRANSITIVE_DEPTH + 2}").replace(
        "waverec(", f"f{TRANSITIVE_DEPTH + 2}(")
    pkg, _ = _package(tmp_path, "deep", {**files, "near.py": near, "far.py": far})
    results = run_files([str(pkg / "near.py"), str(pkg / "far.py")], [NumpyNamespace], RunOptions(fix=True, write=True),
                        jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / "near.py").read_text() == near
    assert "jnp.zeros_like" in (pkg / "far.py").read_text()
