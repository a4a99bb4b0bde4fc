"""What calls in other modules of the run pass a module's functions (`codemods._caller_inputs`, the project index read
by JX201, JX304 and JX501): the same outcome as if the call were in the callee's module. Two-module packages on
disk, run through the CLI and `run_files`; the no-change cases first."""

import ast

import pytest
from typer.testing import CliRunner

from codemods import _caller_inputs
from jaxfix import incremental, precheck
from jaxfix.cli import app
from jaxfix.registry import all_rules
from jaxfix.runner import build_project_facts, run_files
from jaxfix.types import RunOptions


def _package(tmp_path, files):
    """Files under `tmp_path` ({relative path: code}), with an empty `__init__.py` in every folder that has none:
    the paths of the `.py` files, sorted."""
    for name, code in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code)
        folder = path.parent
        while folder != tmp_path:
            if not (folder / "__init__.py").exists():
                (folder / "__init__.py").write_text("")
            folder = folder.parent
    return sorted(str(p) for p in tmp_path.rglob("*.py"))


def _migrate(tmp_path):
    """`jaxfix migrate` of the folder (the CLI, in process); the CLI's output."""
    result = CliRunner().invoke(app, ["migrate", str(tmp_path)])
    assert result.exit_code in (0, 1), result.output
    # (the runner catches an exception and gives exit code 1 too: a crash must not pass for findings)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.output


HELPERS = "import numpy as np\n\n\ndef reshape_z(z, dim_z):\n    z = np.atleast_2d(z)\n    return z.T if z.shape[1] == dim_z else z\n"


def test_a_plain_numpy_array_from_another_module_is_still_rewritten(tmp_path):
    use = ("import numpy as np\n\nfrom pkg.helpers import reshape_z\n\n\ndef update(n):\n"
           "    return reshape_z(np.arange(n, dtype=float), n)\n")
    _package(tmp_path, {"pkg/helpers.py": HELPERS, "pkg/use.py": use})
    _migrate(tmp_path)
    # (`jnp.asarray` inside: NumPy's atleast_2d of the parameter as given says it may be a list, from outside the run)
    assert "jnp.atleast_2d(jnp.asarray(z))" in (tmp_path / "pkg/helpers.py").read_text()


@pytest.mark.parametrize("call", ["reshape_z(x[:1].ravel(), n)", "list(map(reshape_z, [x, x.T], [n, n]))"])
def test_a_slice_or_map_of_a_plain_numpy_array_is_still_rewritten(tmp_path, call):
    use = f"import numpy as np\n\nfrom pkg.helpers import reshape_z\n\n\ndef update(n):\n    x = np.ones(n)\n    return {call}\n"
    _package(tmp_path, {"pkg/helpers.py": HELPERS, "pkg/use.py": use})
    _migrate(tmp_path)
    # (`jnp.asarray` inside: NumPy's atleast_2d of the parameter as given says it may be a list, from outside the run)
    assert "jnp.atleast_2d(jnp.asarray(z))" in (tmp_path / "pkg/helpers.py").read_text()


def test_the_summary_knows_the_methods_that_keep_the_elements():
    from codemods import _list_inputs
    assert _caller_inputs._ELEMENT_METHODS == _list_inputs.SAME_ELEMENT_METHODS
    assert _caller_inputs._ELEMENT_ATTRIBUTES == _list_inputs.ARRAY_ATTRIBUTES


def test_a_module_that_imports_nothing_of_the_run_is_not_summarised(tmp_path):
    files = _package(tmp_path, {"pkg/helpers.py": HELPERS, "pkg/other.py": "import numpy as np\n\nX = np.zeros(3)\n"})
    modules = frozenset({"pkg", "pkg.helpers", "pkg.other"})
    assert not any(_caller_inputs.wanted(open(f, "rb").read(), m, f.endswith("__init__.py"), modules)
                   for f, m in zip(files, ["pkg", "pkg.helpers", "pkg.other"]))
    assert build_project_facts(files, all_rules(), RunOptions())[_caller_inputs.KEY] == {}


OBJECT_CALLERS = [
    pytest.param("from .helpers import reshape_z\n", "reshape_z(np.array([None] * n), n)", id="object-array-relative"),
    pytest.param("import pkg.helpers as h\n", "h.reshape_z(np.array([None] * n), n)", id="object-array-module-alias"),
    pytest.param("from pkg import helpers\n", "helpers.reshape_z(np.empty(n, dtype=object), n)", id="object-dtype"),
    pytest.param("from pkg.helpers import reshape_z\n", "reshape_z(np.ma.masked_invalid(np.ones(n)), n)", id="masked-array"),
    pytest.param("from pkg.helpers import reshape_z as rz\n", "rz(lambda t: t, n)", id="lambda"),
    pytest.param("from pkg.helpers import reshape_z\n", "reshape_z(Decimal('0.5'), n)", id="decimal"),
    # a list or tuple of them (numpy_financial's tests: `npf.npv(rate, [Decimal(...),
    # ...])`): NumPy makes an object array of it
    pytest.param("from pkg.helpers import reshape_z\n", "reshape_z([Decimal('-2'), Decimal('1.5')], n)", id="decimal-list"),
    pytest.param("from pkg.helpers import reshape_z\n", "reshape_z((Decimal(1), 2), n)", id="decimal-tuple"),
]


@pytest.mark.parametrize("imported, call", OBJECT_CALLERS)
def test_a_function_another_module_passes_what_jax_cannot_hold_stays_numpy(tmp_path, imported, call):
    # filterpy's `kalman/EKF.py` gives `common.helpers.reshape_z` `np.array([None] * dim_z)`; pykalman's
    # `standard.py` gives `utils.array2d` masked arrays: `jnp.atleast_2d` rejects both
    use = f"from decimal import Decimal\n\nimport numpy as np\n\n{imported}\n\nclass EKF:\n    def __init__(self, n):\n        self.z = {call}\n"
    _package(tmp_path, {"pkg/helpers.py": HELPERS, "pkg/ekf.py": use})
    output = _migrate(tmp_path)
    assert (tmp_path / "pkg/helpers.py").read_text() == HELPERS
    assert "which a call in another module of the run passes a value JAX arrays cannot hold" in output, output


HIDDEN_CALLERS = [
    pytest.param("import numpy as np\nfrom pkg.helpers import *\n\nprint(reshape_z(np.array([None] * 2), 2))\n",
                 id="star-import"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\nclass K:\n    z = reshape_z(np.array([None] * 2), 2)\n",
                 id="class-body"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\ndef run():\n    class Inner:\n"
                 "        def go(self):\n            return reshape_z(np.array([None] * 2), 2)\n    return Inner().go()\n",
                 id="class-in-a-function"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\nmake = lambda n: reshape_z(np.array([None] * n), n)\n",
                 id="module-lambda"),
    pytest.param("import numpy as np\nfrom pkg import helpers\nrz = helpers.reshape_z\nprint(rz(np.array([None] * 2), 2))\n",
                 id="name-bound-to-the-function"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\n@print\ndef run(z=reshape_z(np.array([None] * 2), 2)):\n"
                 "    return z\n", id="default-value"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\ndef run():\n    z = np.array([None, 'a'])\n"
                 "    w = z[:1]\n    return reshape_z(w, 1)\n", id="slice-of-a-local"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\ndef run():\n    z = np.array([None, 'a'])\n"
                 "    return reshape_z(z.T.ravel(), 2)\n", id="reshaped-local"),
    pytest.param("import numpy as np\nfrom pkg import helpers\n\ndef run():\n"
                 "    return list(map(helpers.reshape_z, [np.array([None] * 2)], [2]))\n", id="handed-on-with-map"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\ndef run():\n    z = np.array([[None, 'a']])\n"
                 "    return list(map(reshape_z, z, [2]))\n", id="map-over-an-object-array"),
    pytest.param("import numpy as np\nfrom pkg.helpers import reshape_z\n\nTEXT = 'U5'\n\ndef run(x):\n"
                 "    return reshape_z(np.asarray(x, dtype=TEXT), 2)\n", id="text-dtype-constant"),
]


@pytest.mark.parametrize("use", HIDDEN_CALLERS)
def test_a_call_the_summary_used_to_skip_keeps_the_helper_numpy(tmp_path, use):
    # a call under a star import, in a class body (at module level or in a function), in a module-level lambda, of a
    # name bound to the function, in a default value, given a slice or reshaping of a local object array, or made
    # by `map`: the summary skipped each, and `jnp.atleast_2d` got the object array
    _package(tmp_path, {"pkg/helpers.py": HELPERS, "pkg/use.py": use})
    output = _migrate(tmp_path)
    assert (tmp_path / "pkg/helpers.py").read_text() == HELPERS, output


REEXPORTED = [
    pytest.param({"pkg/api.py": "from pkg.helpers import reshape_z\n"},
                 "from pkg.api import reshape_z\nprint(reshape_z(np.array([None] * 2), 2))\n", id="sibling-reexport"),
    pytest.param({"pkg/__init__.py": "from .helpers import reshape_z as rz\n"},
                 "import pkg\nprint(pkg.rz(np.array([None] * 2), 2))\n", id="renamed-package-reexport"),
    pytest.param({"pkg/api.py": "from .helpers import *\n", "pkg/front.py": "from pkg.api import reshape_z as shape\n"},
                 "from pkg import front\nprint(front.shape(np.array([None] * 2), 2))\n", id="chain-through-a-star"),
]


@pytest.mark.parametrize("reexports, call", REEXPORTED)
def test_a_call_through_a_reexport_keeps_the_helper_numpy(tmp_path, reexports, call):
    # the summary resolved a callee through the caller's imports only: `pkg.api.reshape_z`, `pkg.rz` named no
    # function of the run, and the helper went to `jax.numpy`
    _package(tmp_path, {"pkg/helpers.py": HELPERS, **reexports, "pkg/use.py": "import numpy as np\n" + call})
    output = _migrate(tmp_path)
    assert (tmp_path / "pkg/helpers.py").read_text() == HELPERS, output


def test_a_helper_defined_under_a_module_level_try_keeps_numpy(tmp_path):
    # `try: from fastlib import reshape_z` / `except ImportError: def reshape_z(...)`: what other modules pass was
    # applied to the functions directly in the module's body only
    helpers = "import numpy as np\n\ntry:\n    from fastlib_not_installed import reshape_z\nexcept ImportError:\n" \
        + "".join("    " + line if line else "" for line in HELPERS.split("\n", 3)[3].splitlines(True))
    use = "import numpy as np\nfrom pkg.helpers import reshape_z\nprint(reshape_z(np.array([None] * 2), 2))\n"
    _package(tmp_path, {"pkg/helpers.py": helpers, "pkg/use.py": use})
    output = _migrate(tmp_path)
    assert (tmp_path / "pkg/helpers.py").read_text() == helpers, output


def test_a_helper_of_a_namespace_package_keeps_numpy(tmp_path):
    # `pkg` without `__init__.py`: its modules are the run's `helpers` and `use`, and `pkg.helpers.reshape_z` named
    # none of them
    use = "import numpy as np\nfrom pkg.helpers import reshape_z\nprint(reshape_z(np.array([None] * 2), 2))\n"
    _package(tmp_path, {"pkg/helpers.py": HELPERS, "pkg/use.py": use})
    (tmp_path / "pkg/__init__.py").unlink()
    output = _migrate(tmp_path)
    assert (tmp_path / "pkg/helpers.py").read_text() == HELPERS, output


def test_resolving_reexports_ends_on_a_name_that_grows():
    # `from .a import b as a` in `pk`: `pk.a.x` is `pk.a.b.x`, which is `pk.a.b.b.x`, ...
    summaries = {"pk/__init__.py": {"module": "pk", "calls": [], "passes": [], "signatures": {},
                                    "exports": {"a": "pk.a.b"}, "stars": ["pk"]},
                 "pk/u.py": {"module": "pk.u", "calls": [("pk.a.x", 0, "list")], "passes": [], "signatures": {},
                             "exports": {}, "stars": []}}
    assert _caller_inputs.link(summaries)["pk.a.b"] == {"x": {"list": [0]}}


def test_a_lambda_parameter_is_not_the_enclosing_function_s():
    code = ("from .core import trimf\n\ndef f(z, w):\n    g = lambda z: trimf(z)\n    [trimf(w) for w in range(3)]\n"
            "    return trimf(w, z)\n")
    summary = _caller_inputs.summarize("pk/m.py", "pk.m", ast.parse(code), frozenset({"pk", "pk.m", "pk.core"}))
    assert summary["passes"] == [("f", "w", "pk.core.trimf", 0), ("f", "z", "pk.core.trimf", 1)]


def test_an_object_array_bound_to_a_name_through_a_star_reexport_keeps_the_helper_numpy(tmp_path):
    # filterpy's EKF: `z = np.array([None] * self.dim_z)`, then `reshape_z(z, ...)` from `filterpy.common`, which
    # re-exports `common.helpers` with `from .helpers import *`
    ekf = ("import numpy as np\n\nfrom fp.common import reshape_z\n\n\nclass EKF:\n    def __init__(self, dim_z):\n"
           "        z = np.array([None] * dim_z)\n        self.z = reshape_z(z, dim_z)\n")
    _package(tmp_path, {"fp/common/__init__.py": "from .helpers import *\n", "fp/common/helpers.py": HELPERS,
                        "fp/kalman/EKF.py": ekf})
    _migrate(tmp_path)
    assert (tmp_path / "fp/common/helpers.py").read_text() == HELPERS


def test_a_function_given_a_function_from_a_module_script_block_stays_numpy(tmp_path):
    core = "import numpy as np\n\n\ndef array1d(f):\n    return np.atleast_1d(f)\n"
    use = "from cb.core import array1d\n\n\ndef double(t):\n    return 2 * t\n\n\nif __name__ == '__main__':\n    print(array1d(double))\n"
    _package(tmp_path, {"cb/core.py": core, "cb/use.py": use})
    _migrate(tmp_path)
    assert (tmp_path / "cb/core.py").read_text() == core


def test_text_from_another_module_keeps_the_call_numpy(tmp_path):
    # colorspacious' `safe_equal(white, "D65")`, the call in another module
    core = "import numpy as np\n\n\ndef safe_equal(a, b):\n    return np.all(np.equal(a, b))\n"
    use = "from .core import safe_equal\n\n\ndef is_d65(white):\n    return safe_equal(white, 'D65')\n"
    _package(tmp_path, {"cs/core.py": core, "cs/use.py": use})
    output = _migrate(tmp_path)
    assert "np.equal(a, b)" in (tmp_path / "cs/core.py").read_text()
    assert "which a call in another module of the run passes text" in output, output


TRIMF = ("import numpy as np\n\n\ndef trimf(x, abc):\n    a, b, c = np.r_[abc]\n"
         "    return np.minimum(np.maximum(x, a), c)\n")


def test_a_list_from_a_test_module_through_a_package_reexport_is_converted(tmp_path):
    # skfuzzy's tests: `fuzz.trimf([1, 2, 3], [0, 1, 2])`, `trimf` re-exported by the package
    files = {"fz/__init__.py": "from .membership.generatedmf import trimf\n", "fz/membership/generatedmf.py": TRIMF,
             "tests/test_mf.py": "import fz\n\n\ndef test_trimf():\n    assert fz.trimf([1.0, 2.0], [0.0, 1.0, 2.0]) is not None\n"}
    _package(tmp_path, files)
    (tmp_path / "tests/__init__.py").unlink()  # (a tests folder, not a package)
    output = _migrate(tmp_path)
    assert "jnp.maximum(jnp.asarray(x), a)" in (tmp_path / "fz/membership/generatedmf.py").read_text(), output


def test_a_list_passed_on_through_a_parameter_of_another_module_is_converted(tmp_path):
    # a chain: `run` passes its list to `middle.update(z)`, which passes `z` on to `core.trimf`
    middle = "from .core import trimf\n\n\ndef update(z):\n    return trimf(z, (0.0, 1.0, 2.0))\n"
    run = "from pk.middle import update\n\n\ndef main():\n    return update([1.0, 2.0])\n"
    _package(tmp_path, {"pk/core.py": TRIMF, "pk/middle.py": middle, "pk/run.py": run})
    _migrate(tmp_path)
    assert "jnp.maximum(jnp.asarray(x), a)" in (tmp_path / "pk/core.py").read_text()


def test_the_same_results_with_and_without_prechecks_and_incremental_passes(tmp_path):
    use = "from .core import trimf\n\n\ndef main():\n    return trimf([1.0, 2.0], (0.0, 1.0, 2.0))\n"
    files = _package(tmp_path, {"pk/core.py": TRIMF, "pk/use.py": use})
    options = RunOptions(fix=True, write=False)

    def outcome():
        return [(r.fixed, [(f.code, f.line, f.message) for f in r.findings]) for r in run_files(files, all_rules(), options, jobs=1)]

    expected = outcome()
    assert "jnp.asarray(x)" in expected[1][0]
    with precheck.disabled():
        assert outcome() == expected
    with incremental.disabled():
        assert outcome() == expected


SUM = "import numpy as np\n\n\ndef total(z):\n    return np.sum(z)\n"


def test_a_caller_too_deep_to_read_back_does_not_abort_the_run(tmp_path):
    # a 600-term sum in the caller: `ast.unparse` of the caller raised RecursionError, which aborted the whole run;
    # the caller is now read from a copy cut past a depth, so the list it passes is still seen
    deep = " + ".join(["1"] * 600)
    use = f"from .core import total\n\n\ndef g():\n    x = [{deep}]\n    return total(x)\n\n\ndef h():\n    return total([{deep}])\n"
    _package(tmp_path, {"pk/core.py": SUM, "pk/use.py": use})
    output = _migrate(tmp_path)
    assert "jnp.sum(jnp.asarray(z))" in (tmp_path / "pk/core.py").read_text(), output


def test_the_summary_resolves_callees_and_reads_the_kinds_of_values():
    code = ("import numpy as np\nimport pkg.helpers as h\nfrom .core import trimf as tf, scale\nfrom . import util\n\n"
            "def f(z, w):\n    xs = [1, 2]\n    tf(xs, abc=[[0, 1], [2]])\n    scale(np.arange(3), 'k')\n    util.g(z)\n"
            "    w = 3\n    h.reshape_z(w, *[np.array([None] * 2)])\n    np.sum([1, 2])\n")
    summary = _caller_inputs.summarize("pkg/m.py", "pkg.m", ast.parse(code),
                                       frozenset({"pkg", "pkg.m", "pkg.core", "pkg.util", "pkg.helpers"}))
    assert summary["calls"] == sorted([
        ("pkg.core.trimf", 0, "list"), ("pkg.core.trimf", "abc", "list"), ("pkg.core.trimf", "abc", "unflat"),
        ("pkg.core.scale", 1, "text"), ("pkg.helpers.reshape_z", 1, "object")], key=repr)
    # `z` is passed on as it is; `w` is rebound first
    assert summary["passes"] == [("f", "z", "pkg.util.g", 0)] and summary["signatures"] == {"f": (["z", "w"], [])}


def test_the_link_follows_chains_and_leaves_a_module_its_own_calls():
    summaries = {
        "a.py": {"module": "pk.a", "calls": [("pk.b.update", 0, "list"), ("pk.a.own", 0, "list")], "passes": [],
                 "signatures": {}},
        "b.py": {"module": "pk.b", "calls": [], "passes": [("update", "z", "pk.c.trimf", "x")],
                 "signatures": {"update": (["z"], [])}},
    }
    linked = _caller_inputs.link(summaries)
    assert linked == {"pk.b": {"update": {"list": [0]}}, "pk.c": {"trimf": {"list": ["x"]}}}
    assert _caller_inputs.fed({_caller_inputs.KEY: linked}, "pk.c", "list") == {"trimf": frozenset({"x"})}
    # a package's re-export (`pk.trimf`) reaches the module under it that defines the function
    assert _caller_inputs.fed({_caller_inputs.KEY: {"pk": {"trimf": {"list": [0]}}}}, "pk.c", "list") == {"trimf": frozenset({0})}



@pytest.mark.parametrize("read", [
    pytest.param("np.round(r.flat[0], 2)", id="indexed"),
    pytest.param("np.sum([v for v in r.flat]) + max(list(r.flat))", id="iterated"),
    pytest.param("np.round(pm.ramp(n).flat[0], 2)", id="of-the-call"),
])
def test_a_flat_read_of_what_another_module_keeps_numpy_stays(tmp_path, read):
    # numpy_financial: its tests read `result.flat[0]` of `npf.ipmt(...)`, which kept `fv` (which `ipmt` reaches)
    # NumPy; the first migration also made the read `jnp.ravel(result)[0]`, after which the second, no longer seeing
    # it, rewrote `fv`. The read stays (the result is a NumPy array), and so does the function, once and for all
    maker = "import numpy as np\n\n\ndef ramp(n):\n    return np.where(np.arange(n) > 1, 1.0, 0.0)\n"
    user = f"import numpy as np\nimport pkg.maker as pm\n\n\ndef first(n):\n    r = pm.ramp(n)\n    return {read}\n"
    _package(tmp_path, {"pkg/maker.py": maker, "pkg/user.py": user})
    CliRunner().invoke(app, ["migrate", "--no-cache", str(tmp_path)])
    once = {p: p.read_text() for p in tmp_path.rglob("*.py")}
    assert once[tmp_path / "pkg/maker.py"] == maker
    assert ".flat" in once[tmp_path / "pkg/user.py"] and "ravel" not in once[tmp_path / "pkg/user.py"], once
    CliRunner().invoke(app, ["migrate", "--no-cache", str(tmp_path)])
    assert {p: p.read_text() for p in tmp_path.rglob("*.py")} == once


@pytest.mark.parametrize("signature, call", [("*, parts", "parts=x"), ("x, parts", "x, x")])
def test_a_result_tested_by_identity_is_no_parameter_passed_on(tmp_path, signature, call):
    """`a.joined(...) is True` in another module is a fact about `joined`'s result (position -1), not about a
    parameter: linking must not take it for the last positional one (with none, the index raised IndexError and
    the whole run stopped)."""
    joined = f"import numpy as np\nfrom pkg import b\n\n\ndef joined({signature}):\n    return b.stack(parts)\n"
    use = ("import numpy as np\nfrom pkg import a\n\n\ndef stack(parts):\n    return np.concatenate(parts)\n\n\n"
           f"def check(x):\n    if a.joined({call}) is True:\n        return 1\n    return np.sum(x)\n")
    _package(tmp_path, {"pkg/a.py": joined, "pkg/b.py": use})
    modules = frozenset({"pkg", "pkg.a", "pkg.b"})
    facts = _caller_inputs.link({name: _caller_inputs.summarize(name, name, ast.parse(code), modules)
                                 for name, code in (("pkg.a", joined), ("pkg.b", use))})
    assert _caller_inputs.IDENTITY not in facts.get("pkg.b", {}).get("stack", {})
    output = _migrate(tmp_path)
    assert "error" not in output.lower(), output
    assert "return jnp.sum(x)" in (tmp_path / "pkg/b.py").read_text()


def test_a_call_of_a_function_the_run_defines_is_no_numpy_only_sink():
    # migrating pywt itself (a `NUMPY_ONLY_MODULES` library): `pywt.waverec(...)` of its own `_multilevel` is
    # migrated too (what it needs is its own analysis); `pywt.Packed`, re-exported from a compiled extension the
    # run does not define, still is one
    modules = frozenset({"pywt", "pywt._multilevel", "pywt._mra"})
    init = "from ._multilevel import *\nfrom ._extensions._pywt import Packed\n"
    multilevel = ("import numpy as np\n\ndef waverec(coeffs):\n    return np.sum(coeffs)\n\n"
                  "def make(x):\n    return np.exp(x)\n")
    mra = ("import numpy as np\nimport pywt\nfrom ._multilevel import waverec, make\n\n"
           "def imra(x):\n    return waverec(make(x)) + pywt.waverec(make(x)) + pywt.Packed(make(x))\n")
    summaries = {path: _caller_inputs.summarize(path, name, ast.parse(code), modules) for path, name, code in [
        ("pywt/__init__.py", "pywt", init), ("pywt/_multilevel.py", "pywt._multilevel", multilevel),
        ("pywt/_mra.py", "pywt._mra", mra)]}
    linked = _caller_inputs.link(summaries)
    sinks = [kind for kinds in linked["pywt._multilevel"].values() for kind in kinds if kind.startswith(_caller_inputs.NUMPY_SINK)]
    assert len(sinks) == 1 and "`pywt.Packed(...)`" in sinks[0], sinks
