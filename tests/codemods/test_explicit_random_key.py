"""Edge cases for JX401 explicit-random-key: no-change cases first, then rewrites, refusals, and the project index."""

import ast
import os
import textwrap

import pytest

from codemods.explicit_random_key import ExplicitRandomKey
from jaxfix.analysis import random_keys
from jaxfix.analysis.random_draws import Names, translate
from jaxfix.registry import all_rules
from jaxfix.runner import run_files
from jaxfix.testing.examples import run_rule
from jaxfix.types import RunOptions

import libcst as cst


def migrate(code: str, unsafe: bool = False, settings=None) -> str:
    return run_rule(ExplicitRandomKey, textwrap.dedent(code), fix=True, unsafe=unsafe, settings=settings or {}).fixed


def findings(code: str):
    return run_rule(ExplicitRandomKey, textwrap.dedent(code)).findings


NOOP = [
    pytest.param("import numpy as np\nW = np.random.randn(3, 3)\n", id="module-level-draw-stays-numpy"),
    pytest.param("import numpy as np\nnp.random.seed(0)\nW = np.random.randn(3)\n", id="seed-kept-for-module-draws"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.sum(x)\n", id="no-randomness"),
    pytest.param("import random\ndef f():\n    return random.random()\n", id="stdlib-random-is-not-numpy"),
    pytest.param(
        "import jax\ndef f(key, x):\n    key, subkey = jax.random.split(key)\n    return x + jax.random.normal(subkey)\n",
        id="already-jax",
    ),
    pytest.param("import numpy as np\ndef f(n):\n    return [np.random.rand() for _ in range(n)]\n", id="comprehension-refused"),
    pytest.param("import numpy as np\ndef f(s):\n    return lambda x: x + s * np.random.randn()\n", id="lambda-refused"),
    pytest.param("import numpy as np\ndef f(n):\n    return np.random.zipf(2.0, size=n)\n", id="no-jax-equivalent"),
    pytest.param("import numpy as np\ndef f(p):\n    while np.random.rand() < p:\n        pass\n", id="draw-in-while-header"),
    pytest.param(
        "import numpy as np\nclass A:\n    def __init__(self):\n        self.rng = np.random.default_rng()\n"
        "    def draw(self):\n        return self.rng.normal()\n",
        id="object-holding-rng",
    ),
    pytest.param("import numpy as np\ndef f(b):\n    np.random.shuffle(b)\n", id="shuffle-of-parameter-is-unsafe"),
    pytest.param(
        "import numpy as np\ndef _noise(n):\n    return np.random.normal(size=n)\nfns = [_noise]\n",
        id="drawing-function-used-as-value-is-unsafe",
    ),
    pytest.param(
        "import numpy as np\ndef _noise(n):\n    return np.random.normal(size=n)\nX = _noise(3)\n",
        id="module-level-call-without-seed-is-unsafe",
    ),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code) == code


REWRITES = [
    pytest.param(
        "import numpy as np\ndef f(n):\n    return np.random.randint(10, size=n)\n",
        "import jax\ndef f(key, n):\n    return jax.random.randint(key, n, 0, 10)\n",
        id="randint-one-bound-is-half-open-from-zero",
    ),
    pytest.param(
        "import numpy as np\ndef f(x, key):\n    return x[key] + np.random.exponential()\n",
        "import jax\ndef f(rng_key, x, key):\n    return x[key] + jax.random.exponential(rng_key)\n",
        id="key-name-taken",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    return x + np.random.normal()\n",
        "import jax\ndef f(prng, x):\n    return x + jax.random.normal(prng)\n",
        id="key-name-setting",
    ),
    pytest.param(
        "from numpy.random import default_rng\ndef f(seed, n):\n    gen = default_rng(seed)\n    return gen.integers(1, 6, size=n, endpoint=True)\n",
        "import jax\ndef f(seed, n):\n    key = jax.random.key(seed)\n    return jax.random.randint(key, n, 1, 6 + 1)\n",
        id="generator-from-import-endpoint-closed",
    ),
    pytest.param(
        "import numpy as np\ndef f(mu):\n    return np.random.normal(mu, 2.0)\n",
        "import jax\nimport jax.numpy as jnp\ndef f(key, mu):\n    return mu + 2.0 * jax.random.normal(key, jnp.shape(mu))\n",
        id="size-none-with-array-loc-keeps-broadcast-shape",
    ),
    pytest.param(
        "import numpy as np\ndef f(n):\n    rng = np.random.default_rng()\n    return rng.random(n)\n",
        "import jax\ndef f(key, n):\n    return jax.random.uniform(key, n)\n",
        id="unseeded-generator-takes-callers-key",
    ),
    pytest.param(
        "import numpy as np\ndef f(xs):\n    for i in range(3):\n        xs = xs + np.random.rand(2)\n    return xs\n",
        "import jax\ndef f(key, xs):\n    for i in range(3):\n        key, subkey = jax.random.split(key)\n"
        "        xs = xs + jax.random.uniform(subkey, (2,))\n    return xs\n",
        id="split-per-iteration",
    ),
    pytest.param(
        "import numpy as np\ndef f(b):\n    np.random.shuffle(b)\n    return b\n",
        "import jax\ndef f(key, b):\n    b = jax.random.permutation(key, b)\n    return b\n",
        id="shuffle-of-parameter-with-unsafe-fixes",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected, request):
    unsafe = "unsafe" in request.node.callspec.id
    settings = {"key-name": "prng"} if "setting" in request.node.callspec.id else None
    out = migrate(code, unsafe=unsafe, settings=settings)
    assert out == expected
    assert migrate(out, unsafe=unsafe, settings=settings) == out  # idempotent


@pytest.mark.parametrize(
    "code, lines",
    [
        ("import numpy as np\ndef f(n):\n    return [np.random.rand() for _ in range(n)]\n", [3]),
        ("import numpy as np\nclass A:\n    def __init__(self):\n        self.rng = np.random.default_rng()\n", [4]),
        ("import numpy as np\ndef f(n):\n    x = 1\n    return np.random.zipf(\n        2.0, size=n)\n", [4]),
    ],
    ids=["comprehension", "object", "no-equivalent-multiline-reports-first-line"],
)
def test_refusals_are_reported_at_the_statement(code, lines):
    assert sorted({f.line for f in findings(code)}) == lines
    assert all(f.fix is None for f in findings(code))


def test_public_api_change_is_reported():
    messages = [f.message for f in findings("import numpy as np\ndef sample(n):\n    return np.random.rand(n)\n")]
    assert any("public API change" in m for m in messages)
    private = [f.message for f in findings("import numpy as np\ndef _sample(n):\n    return np.random.rand(n)\n")]
    assert not any("public API change" in m for m in private)


@pytest.mark.parametrize(
    "call, expected",
    [
        ("np.random.uniform(size=3)", "jax.random.uniform(k, 3)"),
        ("np.random.uniform(2.0, 5.0)", "jax.random.uniform(k, (), minval=2.0, maxval=5.0)"),
        ("np.random.poisson(size=4)", "jax.random.poisson(k, 1.0, 4)"),
        ("np.random.laplace(1.0, 2.0, 5)", "1.0 + 2.0 * jax.random.laplace(k, 5)"),
        ("np.random.logistic(size=(2, 2))", "jax.random.logistic(k, (2, 2))"),
        ("np.random.multivariate_normal(m, c, size=n)", "jax.random.multivariate_normal(k, m, c, n if isinstance(n, tuple) else (n,), method=\"svd\")"),
        ("np.random.choice([1, 2], p=q)", "jax.random.choice(k, jnp.array([1, 2]), p=q)"),
        ("np.random.randn()", "jax.random.normal(k)"),
        # a count by NumPy is a NumPy integer, which `jax.random` rejects as a shape (numpy-ml's truncated normal)
        ("np.random.normal(0, s, size=reject.sum())", "s * jax.random.normal(k, int(reject.sum()))"),
        ("np.random.uniform(size=np.count_nonzero(m))", "jax.random.uniform(k, int(np.count_nonzero(m)))"),
        ("np.random.normal(0, s, (3,))", "s * jax.random.normal(k, (3,))"),
    ],
)
def test_translation_table(call, expected):
    node = cst.parse_expression(call)
    method = node.func.attr.value
    text, reason = translate(method, node, lambda n: cst.Module([]).code_for_node(n), Names("jax", "jnp"), "k")
    assert (text, reason) == (expected, "")


@pytest.mark.parametrize(
    "call", ["np.random.normal(*args)", "np.random.integers(0, 5, dtype=np.int8)", "np.random.choice(a, axis=1)"]
)
def test_translation_refuses_what_it_cannot_read(call):
    node = cst.parse_expression(call)
    text, reason = translate(node.func.attr.value, node, lambda n: cst.Module([]).code_for_node(n), Names("jax", "jnp"), "k")
    assert text is None and reason


def test_key_threaded_across_modules(tmp_path):
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "draws.py").write_text("import numpy as np\n\ndef kick(v):\n    return v + np.random.normal(size=v.shape)\n")
    (pkg / "step.py").write_text("from sim.draws import kick\n\ndef step(v):\n    return kick(kick(v))\n")
    (pkg / "run.py").write_text("from . import step as s\n\ndef run(v):\n    v = s.step(v)\n    return v\n")
    files = sorted(str(p) for p in pkg.glob("*.py"))
    options = RunOptions(fix=True, write=True)
    results = run_files(files, [ExplicitRandomKey], options, jobs=1)
    assert not [r.error for r in results if r.error]
    assert "def step(key, v):\n    key, subkey1, subkey2 = jax.random.split(key, 3)\n    return kick(subkey1, kick(subkey2, v))" in (pkg / "step.py").read_text()
    assert "def run(key, v):\n    key, subkey = jax.random.split(key)\n    v = s.step(subkey, v)" in (pkg / "run.py").read_text()
    # a second run changes nothing
    again = run_files(files, [ExplicitRandomKey], options, jobs=1)
    assert all(r.fixed is None for r in again)


@pytest.mark.parametrize("reexport", ["from .core import *\n", "from .core import kick\n"])
def test_a_function_a_package_reexports_is_linked_to_its_callers(tmp_path, reexport):
    """`from sim import kick`, where `sim/__init__.py` re-exports `sim.core.kick` (pyswarms' `from .generators
    import *`): the caller is found, so a function caller gets a key to pass, and a class caller pins the callee. The
    index does not read the `__init__.py`; the one function of that name in the package is taken."""
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(reexport)
    core = "import numpy as np\n\ndef kick(v):\n    return v + np.random.normal(size=v.shape)\n"
    (pkg / "core.py").write_text(core)
    (pkg / "run.py").write_text("from sim import kick\n\ndef run(v):\n    return kick(v) * 2.0\n")
    files = sorted(str(p) for p in pkg.glob("*.py"))
    options = RunOptions(fix=True, write=True)
    results = run_files(files, [ExplicitRandomKey], options, jobs=1)
    assert not [r.error for r in results if r.error]
    assert "def kick(key, v):" in (pkg / "core.py").read_text()
    assert "def run(key, v):\n    key, subkey = jax.random.split(key)\n    return kick(subkey, v) * 2.0" in (pkg / "run.py").read_text()
    assert all(r.fixed is None for r in run_files(files, [ExplicitRandomKey], options, jobs=1))

    (pkg / "core.py").write_text(core)
    (pkg / "run.py").write_text("from sim import kick\n\nclass Swarm:\n    def reset(self, v):\n        return kick(v)\n")
    results = {os.path.basename(r.path): r for r in run_files(files, [ExplicitRandomKey], options, jobs=1)}
    assert (pkg / "core.py").read_text() == core
    [finding] = results["core.py"].findings
    assert "called in `sim.run` from a class" in finding.message


def test_a_function_called_from_a_class_of_another_module_keeps_its_signature(tmp_path):
    """A method is never given a key, so giving its callee a key parameter would break the call; and a second run
    would see a callee that already takes a key and rewrite the rest differently. The callee's draw is reported."""
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    core = "import numpy as np\n\ndef kick(v):\n    return v + np.random.normal(size=v.shape)\n"
    user = (
        "import numpy as np\nfrom sim.core import kick\n\ndef twice(v):\n    return kick(kick(v))\n\n"
        "class TestKick:\n    def test_shape(self):\n        assert kick(np.zeros(3)).shape == (3,)\n"
    )
    (pkg / "core.py").write_text(core)
    (pkg / "test_core.py").write_text(user)
    files = sorted(str(p) for p in pkg.glob("*.py"))
    options = RunOptions(fix=True, write=True, unsafe_fixes=True)
    results = {os.path.basename(r.path): r for r in run_files(files, [ExplicitRandomKey], options, jobs=1)}
    assert (pkg / "core.py").read_text() == core and (pkg / "test_core.py").read_text() == user
    [finding] = results["core.py"].findings
    assert finding.line == 4 and "called in `sim.test_core` from a class" in finding.message
    assert not results["test_core.py"].findings  # `twice` needs no key: `kick` does not take one
    again = run_files(files, [ExplicitRandomKey], options, jobs=1)
    assert all(r.fixed is None for r in again)


@pytest.mark.parametrize(
    "caller, where",
    [
        ("X = kick(np.zeros(3))\n", "from module-level code with no seed"),
        ("def twice(v):\n    g = lambda u: kick(u) * 2\n    return g(v)\n", "from a lambda"),
        ("def twice(v):\n    return [kick(u) for u in v]\n", "from a comprehension"),
        ("def twice(v):\n    while kick(v).sum() > 0:\n        v = v - 1\n    return v\n", "from a compound statement's header"),
        ("def twice(v):\n    return list(map(kick, v))\n", "from a reference"),
        ("class Noisy:\n    def __init__(self, noise=kick):\n        self.noise = noise\n", "from a reference"),
        ("def twice(v):\n    return kick(v) + np.random.zipf(2.0)\n", "from `twice`, which is left unconverted"),
    ],
)
def test_a_function_called_from_another_module_where_no_key_can_be_passed_keeps_its_signature(tmp_path, caller, where):
    """The callee's fix would be safe in its own module, but the caller's place cannot pass a key: giving the callee
    a key parameter would leave that caller broken (a `TypeError` at import, or at the call)."""
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    core = "import numpy as np\n\ndef kick(v):\n    return v + np.random.normal(size=v.shape)\n"
    user = "import numpy as np\nfrom sim.core import kick\n\n" + caller
    (pkg / "core.py").write_text(core)
    (pkg / "user.py").write_text(user)
    files = sorted(str(p) for p in pkg.glob("*.py"))
    options = RunOptions(fix=True, write=True, unsafe_fixes=True)
    results = {os.path.basename(r.path): r for r in run_files(files, [ExplicitRandomKey], options, jobs=1)}
    assert (pkg / "core.py").read_text() == core
    [finding] = results["core.py"].findings
    assert finding.line == 4 and f"called in `sim.user` {where}" in finding.message, finding.message
    again = run_files(files, [ExplicitRandomKey], options, jobs=1)
    assert all(r.fixed is None for r in again)


@pytest.mark.parametrize("local", ["from sim.core import kick", "from .core import kick", "from . import core as _c; from .core import kick"])
def test_a_function_imported_inside_a_function_of_another_module_keeps_its_signature(tmp_path, local):
    """The index follows calls through top-level imports: a call through an import inside a function would be left
    without a key (pingouin's pairwise imports `corr` that way), so the callee keeps its signature."""
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    core = "import numpy as np\n\ndef kick(v):\n    return v + np.random.normal(size=v.shape)\n"
    (pkg / "core.py").write_text(core)
    (pkg / "user.py").write_text(f"def twice(v):\n    {local}\n\n    return kick(v)\n")
    files = sorted(str(p) for p in pkg.glob("*.py"))
    results = {os.path.basename(r.path): r for r in run_files(files, [ExplicitRandomKey], RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "core.py").read_text() == core
    [finding] = results["core.py"].findings
    assert "called in `sim.user` from an import inside a function" in finding.message, finding.message


def _package(tmp_path, files):
    pkg = tmp_path / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    for name, code in files.items():
        (pkg / name).write_text(code)
    return pkg, sorted(str(p) for p in pkg.glob("*.py"))


_GEN = "import numpy as np\n\n\ndef bits(n):\n    data = np.random.randint(0, 2, n)\n    return 2 * data - 1, data\n"


@pytest.mark.parametrize("write, imported, called", [
    (True, "from .gen import bits", "bits"), (False, "from .gen import bits", "bits"), (True, "from . import gen as g", "g.bits"),
])
def test_a_callee_keeps_its_signature_when_the_caller_module_is_held_back(tmp_path, write, imported, called):
    """The index plans `bits` to take a key that `tx` passes; but `tx.py`'s key threading is held back by another
    function's finding (a tuple target jaxfix cannot split), so `tx` would call `bits(n)` without one: `TypeError`
    (commpy's `nrz`). The trial run pins `bits`: neither side changes, and the callee says why."""
    caller = (f"import numpy as np\n{imported}\n\n\ndef tx(n):\n    x, data = {called}(n)\n    return x\n\n\n"
              f"def interleaved(n):\n    data = np.zeros(2 * n)\n    x, data[0::2] = {called}(n)\n    return data\n")
    pkg, files = _package(tmp_path, {"gen.py": _GEN, "tx.py": caller})
    results = {os.path.basename(r.path): r for r in run_files(files, all_rules(), RunOptions(fix=True, write=write), jobs=1)}
    assert (pkg / "gen.py").read_text() == _GEN and (pkg / "tx.py").read_text() == caller
    assert results["gen.py"].fixed is None and results["tx.py"].fixed is None
    [finding] = [f for f in results["gen.py"].findings if f.code == "JX401"]
    assert "`bits` is left unconverted: it is called from `pkg.tx`, whose key threading is not applied" in finding.message
    assert finding.fix is None


def test_callers_pass_no_key_when_the_callee_module_fix_is_unsafe(tmp_path):
    """`gen.py`'s key threading is unsafe (a `test_` function pytest calls makes its own key), so `migrate` leaves
    it; the caller in `tx.py` must then not pass `bits` a key. With `--unsafe-fixes` both sides change."""
    gen = _GEN + "\n\ndef test_bits():\n    assert bits(3)[0].shape == (3,)\n"
    caller = "from .gen import bits\n\n\ndef tx(n):\n    x, data = bits(n)\n    return x\n"
    pkg, files = _package(tmp_path, {"gen.py": gen, "tx.py": caller})
    results = {os.path.basename(r.path): r for r in run_files(files, all_rules(), RunOptions(fix=True, write=False), jobs=1)}
    assert results["gen.py"].fixed is None and results["tx.py"].fixed is None
    unsafe = {os.path.basename(r.path): r for r in run_files(files, all_rules(), RunOptions(fix=True, unsafe_fixes=True), jobs=1)}
    assert "def bits(key, n):" in unsafe["gen.py"].fixed
    assert "bits(subkey, n)" in unsafe["tx.py"].fixed or "bits(key, n)" in unsafe["tx.py"].fixed


@pytest.mark.parametrize("files", [
    # the caller's file is skipped: it stays as it is, so the callee must too
    {"tx.py": "# jaxfix: skip-file\nfrom .gen import bits\n\n\ndef tx(n):\n    x, data = bits(n)\n    return x\n"},
    # the callee is reached through a package's star re-export (the index links the alias `pkg.sub.bits`)
    {"sub/__init__.py": "from .gen import *\n", "sub/gen.py": _GEN,
     "tx.py": "import numpy as np\nfrom .sub import bits\n\n\ndef tx(n):\n    x, data = bits(n)\n    return x\n\n\n"
              "def interleaved(n):\n    data = np.zeros(2 * n)\n    x, data[0::2] = bits(n)\n    return data\n"},
])
def test_a_caller_module_left_as_it_is_pins_its_callee(tmp_path, files):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    pkg, paths = _package(tmp_path, {**({"gen.py": _GEN} if "sub/gen.py" not in files else {}), **files})
    paths = sorted(str(p) for p in pkg.rglob("*.py"))
    before = {p: open(p).read() for p in paths}
    results = run_files(paths, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert {p: open(p).read() for p in paths} == before


def test_a_consistent_cross_module_plan_is_written_once_from_the_trial_run(tmp_path):
    """Every file the plan counts on applies it: the trial runs' results are the run's results (each file is run
    once), written as `migrate` writes, and a second run changes nothing."""
    caller = "from .gen import bits\n\n\ndef tx(n):\n    x, data = bits(n)\n    return x\n"
    pkg, files = _package(tmp_path, {"gen.py": _GEN, "tx.py": caller})
    results = {os.path.basename(r.path): r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert results["gen.py"].written and results["tx.py"].written
    assert "def bits(key, n):" in (pkg / "gen.py").read_text()
    assert "def tx(key, n):" in (pkg / "tx.py").read_text()
    again = run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert all(r.fixed is None for r in again)


def test_a_seeded_module_level_caller_in_another_module_does_not_pin():
    """Module-level code with a seed gets a key from it, so the callee may still take a key."""
    facts = random_keys.link({
        "core.py": random_keys.summarize("sim/core.py", "sim.core", ast.parse(
            "import numpy as np\n\ndef kick(v):\n    return v + np.random.normal(size=v.shape)\n")),
        "user.py": random_keys.summarize("sim/user.py", "sim.user", ast.parse(
            "import numpy as np\nfrom sim.core import kick\n\nnp.random.seed(0)\nX = kick(np.zeros(3))\n")),
    })
    assert facts == {"needs_key": ["sim.core.kick"], "pinned": {}}


def test_generator_parameter_is_reported_and_function_left_alone():
    code = "import numpy as np\ndef f(x, rng: np.random.Generator):\n    return x + rng.normal(size=x.shape)\n"
    assert migrate(code) == code
    found = findings(code)
    assert [f.line for f in found] == [3] and "generator passed in" in found[0].message


@pytest.mark.parametrize("code, line", [
    ("import numpy as np\ndef f(w, rstate):\n    return (rstate.uniform() + np.arange(len(w))) / len(w)\n", 3),
    ("import numpy as np\ndef f(model, x):\n    return np.sum(x) * model.random.normal(size=3)\n", 3),
    ("import numpy as np\nclass A:\n    def f(self, x):\n        return np.sum(x) + self.rng.normal()\n", 4),
])
def test_a_generator_by_its_conventional_name_holds_back_its_function(code, line):
    # dynesty's `rstate`, emcee's `model.random`: under `jit` their draws would be frozen at trace time
    assert migrate(code) == code
    assert line in [f.line for f in findings(code) if f.code == "JX401"]


def test_a_function_numba_compiles_keeps_np_random():
    # numba runs `np.random` itself and rejects `jax.random` (pyts's `generate_kernels` failed at import)
    code = ("import numpy as np\nfrom numba import njit\n\n@njit(\"float64[:](int64, int64)\")\ndef draw(n, seed):\n"
            "    np.random.seed(seed)\n    return np.random.uniform(-1, 1, n)\n")
    assert migrate(code) == code and not findings(code)


def test_seed_inside_function_feeds_helpers():
    code = (
        "import numpy as np\n\ndef _noise(n):\n    return np.random.normal(size=n)\n\n"
        "def run(n, seed):\n    np.random.seed(seed)\n    return _noise(n) + _noise(n)\n"
    )
    assert migrate(code) == (
        "import jax\n\ndef _noise(key, n):\n    return jax.random.normal(key, n)\n\n"
        "def run(n, seed):\n    key = jax.random.key(seed)\n    key, subkey1, subkey2 = jax.random.split(key, 3)\n"
        "    return _noise(subkey1, n) + _noise(subkey2, n)\n"
    )


def test_module_seed_feeds_calls_under_main_guard():
    code = (
        "import numpy as np\n\nnp.random.seed(3)\n\ndef _noise(n):\n    return np.random.normal(size=n)\n\n"
        "if __name__ == '__main__':\n    print(_noise(2))\n"
    )
    assert migrate(code) == (
        "import jax\n\nkey = jax.random.key(3)\n\ndef _noise(key, n):\n    return jax.random.normal(key, n)\n\n"
        "if __name__ == '__main__':\n    key, subkey = jax.random.split(key)\n    print(_noise(subkey, 2))\n"
    )


def test_one_split_for_the_draws_of_a_block_and_one_per_iteration_inside_a_loop():
    code = (
        "import numpy as np\n\ndef f(x, n):\n    a = np.random.rand(n)\n    for _ in range(3):\n"
        "        x = x + np.random.rand(n)\n    b = np.random.rand(n)  # last\n    return a + b + x\n"
    )
    assert migrate(code) == (
        "import jax\n\ndef f(key, x, n):\n    key, subkey1, subkey2 = jax.random.split(key, 3)\n"
        "    a = jax.random.uniform(subkey1, (n,))\n    for _ in range(3):\n        key, subkey = jax.random.split(key)\n"
        "        x = x + jax.random.uniform(subkey, (n,))\n    b = jax.random.uniform(subkey2, (n,))  # last\n"
        "    return a + b + x\n"
    )


@pytest.mark.parametrize(
    "code",
    [
        "import numpy as np\ndef f(x, seed):\n    rng = np.random.default_rng(seed)\n    return helper(rng, x)\n"
        "def helper(g, x):\n    return x\n",
        "import numpy as np\ndef f(x):\n    a = np.random.default_rng(1)\n    b = np.random.default_rng(1)\n    return a.random() - b.random()\n",
        "import numpy as np\ndef f(x, s):\n    y = np.random.rand()\n    np.random.seed(s)\n    return y + np.random.rand()\n",
        "import numpy as np\ndef noise(d):\n    return np.random.randn() / d\n\nclass F:\n    def __init__(self, rel=noise):\n"
        "        self.rel = rel\n",
    ],
    ids=["generator-passed-around", "two-sources", "draw-before-seed", "default-value"],
)
def test_state_one_key_cannot_express_is_left_alone(code):
    assert migrate(code) == code
    assert findings(code)


def test_other_rules_wait_for_keys_and_hold_back_where_a_draw_stays():
    """With every rule on: a loop is rewritten only after its draw uses a key (else the draw would be frozen into
    the traced loop body), and not at all while a draw in it is refused."""
    from jaxfix.engine import migrate_source

    walk = "import numpy as np\n\ndef walk(x, n):\n    for i in range(n):\n        x = x + np.random.rand(2)\n    return x\n"
    out = migrate_source(walk)
    assert "np.random" not in out and "jax.random.split(key)" in out
    refused = "import numpy as np\n\ndef f(t):\n    v = 0.0\n    while np.random.rand() < t:\n        v += 1.0\n    return v\n"
    assert migrate_source(refused) == refused


def test_literals_in_any_spelling_are_read():
    """scikit-learn writes `size=(100)`; reading it as `int("(100)")` crashed the rule (the file was left unchanged)."""
    code = (
        "import numpy as np\n\ndef f():\n    rng = np.random.RandomState(0)\n"
        "    return rng.normal(size=(100), scale=-(2.0)), rng.uniform(0, 1_000, size=0x10)\n"
    )
    out = run_rule(ExplicitRandomKey, code, fix=True).fixed
    assert "jax.random.normal(" in out and "maxval=1_000" in out


def test_a_suppressed_call_keeps_both_sides_as_they_are(tmp_path):
    """`# jaxfix: ignore[JX401]` on a call leaves that line alone; key threading is one fix over the module, so it
    is not applied at all (before, `run` gained a key and `noise(subkey, 3)` replaced the suppressed call), and
    across modules the callee keeps its signature (the caller's fix is not applied: the trial run pins it)."""
    code = ("import numpy as np\n\n\ndef noise(n):\n    return np.random.normal(size=n)\n\n\n"
            "def run(x):\n    return x + noise(3)  # jaxfix: ignore[JX401]\n\n\ndef run2(x):\n    return x + noise(3)\n")
    pkg, files = _package(tmp_path, {"m.py": code})
    [result] = run_files(files[1:], all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert (pkg / "m.py").read_text() == code
    assert all(f.fix is None for f in result.findings if f.code == "JX401")
    assert any(f.line == 13 and f.message.endswith("one fix with the finding suppressed at line 9") for f in result.findings)
    caller = "from .gen import bits\n\n\ndef tx(n):\n    x, data = bits(n)  # jaxfix: ignore[JX401]\n    return x\n"
    pkg, files = _package(tmp_path, {"gen.py": _GEN, "tx.py": caller})
    results = {os.path.basename(r.path): r for r in run_files(files, all_rules(), RunOptions(fix=True, write=True), jobs=1)}
    assert (pkg / "gen.py").read_text() == _GEN and (pkg / "tx.py").read_text() == caller
    [finding] = [f for f in results["gen.py"].findings if f.code == "JX401"]
    assert "it is called from `pkg.tx`, whose key threading is not applied" in finding.message


@pytest.mark.parametrize("caller", ["syntax", "oversize", "notebook"])
def test_a_callee_keeps_its_signature_when_a_caller_cannot_be_rewritten(tmp_path, caller):
    """A file of the run that jaxfix cannot parse, one over max-file-bytes, and a notebook are not indexed as
    callers, and never get keys threaded into their calls: before, `bits` gained a key while they called `bits(n)`."""
    call = "from pkg.gen import bits\n\n\ndef tx(n):\n    x, data = bits(n)\n    return x\n"
    pkg, files = _package(tmp_path, {"gen.py": _GEN})
    if caller == "notebook":
        nbformat = pytest.importorskip("nbformat")
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(call), nbformat.v4.new_code_cell("tx(4)")]
        nbformat.write(nb, str(pkg / "use.ipynb"))
        files.append(str(pkg / "use.ipynb"))
    else:
        (pkg / "tx.py").write_text(call + ("def broken(:\n" if caller == "syntax" else "# padding\n" * 200))
        files.append(str(pkg / "tx.py"))
    options = RunOptions(fix=True, write=True, max_file_bytes=1000)
    results = {os.path.basename(r.path): r for r in run_files(files, all_rules(), options, jobs=1)}
    assert (pkg / "gen.py").read_text() == _GEN
    [finding] = [f for f in results["gen.py"].findings if f.code == "JX401"]
    assert "`bits` is left unconverted: it is called in " in finding.message and finding.fix is None


@pytest.mark.parametrize("text, called", [
    ("from pkg.gen import bits as draw\ndraw(n)\n", True),  # an alias
    ("import pkg.gen as g\nx = g.bits(4)\n", True),  # an attribute of the module
    ("from pkg import bits\nprint bits(3)\n", True),  # a re-export, in Python 2 syntax
    ("def bits(n):\n    return n\nprint bits(3)\n", False),  # its own function of that name
    ("x = bits(3)\n", False),  # neither the module nor an import of the name
])
def test_code_that_cannot_be_parsed_is_searched_for_calls(text, called):
    assert random_keys._called_in_text("pkg.gen.bits", text) is called


def test_a_notebooks_code_cells_are_searched_not_its_markdown():
    """`source` may be one string or a list of lines; markdown that names the function calls nothing."""
    import json

    nb = {"cells": [{"cell_type": "markdown", "source": ["We add noise(n) here"]},
                    {"cell_type": "code", "source": "from pkg.gen import bits\nbits(4)"}]}
    code = random_keys.notebook_code(json.dumps(nb).encode())
    assert "bits(4)" in code and "noise" not in code
