"""The second-level pre-check (`jaxfix.precheck`): conservative, so a file it rules out really needs nothing."""

import ast
import glob
import os
import textwrap

import pytest

from codemods.numpy_namespace import NumpyNamespace
from jaxfix.engine import process_bytes, process_source
from jaxfix.prefilter import may_apply_to_tree
from jaxfix.precheck import numpy_aliases, numpy_in_functions, parse
from jaxfix.types import RunOptions, Status

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check(code: str) -> bool:
    code = textwrap.dedent(code)
    return numpy_in_functions(ast.parse(code), code)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import jax.numpy as jnp\ndef f(x):\n    return jnp.sum(x)\n", id="already-jax"),
        pytest.param("import numpy as np\nTABLE = np.ones(3)\ndef f(x):\n    return x + 1\n", id="module-level-only"),
        pytest.param("import numpy as np\nf = lambda x: np.sum(x)\n", id="module-level-lambda"),
        pytest.param("def f(x):\n    return np.sum(x)\n", id="no-numpy-import"),
        pytest.param("import numpy as np\ndef f(x):\n    return npx.sum(x)\n", id="word-boundary"),
    ],
)
def test_rules_out(code):
    assert not check(code)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import numpy as np\ndef f(x):\n    return np.sum(x)\n", id="call-in-function"),
        pytest.param("import numpy as np\n@np.vectorize\ndef f(x):\n    return x\n", id="decorator"),
        pytest.param("import numpy as np\ndef f(x, w=np.ones(3)):\n    return x\n", id="default-argument"),
        pytest.param("import numpy as np\ndef f(x): return np.sum(x)\n", id="one-line-def"),
        pytest.param("from numpy import dot\nclass A:\n    def f(self, a):\n        return dot(a, a)\n", id="method"),
        pytest.param("import numpy.linalg as la\nif True:\n    def f(a):\n        return la.norm(a)\n", id="nested-in-if"),
        pytest.param("import os, numpy\ndef f(a):\n    return numpy.sum(a)\n", id="import-list"),
    ],
)
def test_keeps(code):
    assert check(code)


def test_aliases_follow_top_level_imports():
    tree = ast.parse("import numpy as np\nfrom numpy import dot, zeros as z\nimport numpy.linalg\ndef f():\n    import numpy as inner\n")
    assert numpy_aliases(tree) == {"np", "dot", "z", "numpy"}


def test_keyword_only_parameters_without_defaults():
    """`def f(x, *, a)` has a None among its keyword defaults: the summary walk must not take it for a node."""
    code = "import numpy as np\ndef f(x, *, a, b=np.ones(3)):\n    d = {**a, 1: 2}\n    return np.sum(x) * d[1]\n"
    summarize(ast.parse(code), code)
    assert process_source("m.py", code, RULES, RunOptions()).findings


def test_syntax_error_is_left_to_libcst():
    assert parse("def (:\n") is None
    assert may_apply_to_tree("x.py", b"numpy", "import numpy\ndef (:\n", [NumpyNamespace])


def test_engine_skips_module_level_numpy_without_parsing(monkeypatch):
    import jaxfix.engine as engine

    def boom(text):
        raise AssertionError("LibCST should not be reached")

    monkeypatch.setattr(engine, "_parse", boom)
    data = b"import numpy as np\nTABLE = np.linspace(0, 1, 5)\ndef f(x):\n    return x * 2\n"
    assert process_bytes("m.py", data, [NumpyNamespace], RunOptions(fix=True)).status is Status.SKIPPED


def test_a_rule_without_a_tree_check_keeps_the_file_parsed():
    class Other(NumpyNamespace):
        CODE = "JX599"
        may_apply_to_tree = None

    data = b"import numpy as np\nTABLE = np.ones(3)\n"
    assert not may_apply_to_tree("m.py", data, data.decode(), [NumpyNamespace])
    assert may_apply_to_tree("m.py", data, data.decode(), [NumpyNamespace, Other])


def _sources():
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "**", "*.py"), recursive=True)):
        yield path, open(path, encoding="utf-8").read()
    for i, example in enumerate([*NumpyNamespace.VALID, *NumpyNamespace.INVALID]):
        code = example if isinstance(example, str) else example.code
        yield f"example-{i}", textwrap.dedent(code)


def test_sound_on_every_fixture_and_example():
    """Wherever the pre-check says no, the rule indeed reports nothing."""
    for name, code in _sources():
        tree = parse(code)
        if tree is None or NumpyNamespace.may_apply_to_tree(tree, code):
            continue
        outcome = process_source(name, code, [NumpyNamespace], RunOptions())
        assert not outcome.findings, name


# ---- soundness of every rule's pre-check (codemods._prechecks and class-level checks) ----------------------------
# A pre-check that answers False wrongly loses findings. These tests run the rules with the second level disabled
# wherever a check rules a rule out, and compare whole runs with and without pre-checks.

from codemods._inplace import updates_in_functions  # noqa: E402
from codemods._prechecks import CHECKS, FAST, summarize  # noqa: E402
from jaxfix import precheck  # noqa: E402
from jaxfix.registry import all_rules  # noqa: E402
from jaxfix.testing.corpus import assert_same_either_way, examples, fixture_files  # noqa: E402
from jaxfix.testing.fixtures import discover_fixtures, expected_case, migrate_case  # noqa: E402

RULES = all_rules()


# plain-Python helpers in NumPy modules (skipped by every rule) and near misses with array evidence in odd places
HELPERS = [
    ("plain-config-class", "import numpy as np\nclass C:\n    def __init__(self, values=None):\n        values = dict(values or {})\n"
     "        self.limit = int(values.get('limit', 3))\n    def describe(self):\n        if self.tags:\n"
     "            return '; '.join(self.tags)\n        return ''\n", {}),
    ("plain-retry", "import numpy as np\ndef retry(fn, n=3):\n    for k in range(n):\n        try:\n            return fn()\n"
     "        except OSError:\n            pass\n    print(n)\n", {}),
    ("plain-with-item-writes", "import numpy as np\nCOUNT = 0\ndef load(path, out):\n    global COUNT\n"
     "    with open(path) as h:\n        lines = h.read().splitlines()\n    lines[0] = lines[0].strip()\n    out[0] = len(lines)\n"
     "    COUNT += 1\n    return max(len(lines), 1)\n", {}),
    ("array-name-in-default", "import numpy as np\ndef f(x, w=np.ones(3)):\n    if x > 0:\n        x = x * 2\n"
     "    return ','.join([str(x)])\n", {}),
    ("jnp-in-annotation", "import jax.numpy as jnp\ndef f(x: jnp.ndarray):\n    if x > 0:\n        x = -x\n    return repr(x)\n", {}),
    ("bare-numpy-name", "from numpy import zeros\ndef f(n, s):\n    out = zeros(n)\n    out[0] = 1\n    return s.strip(), out\n", {}),
    ("nested-function-in-plain", "import numpy as np\ndef outer(s):\n    def inner(x):\n        if x > 0:\n            return x\n"
     "        return -x\n    return s.strip(), inner\n", {}),
    ("matmul-assign", "import numpy as np\ndef f(a, b, s):\n    a @= b\n    if a > 0:\n        a = -a\n    return s.split()\n", {}),
    ("builtin-of-static-values", "import numpy as np\ndef f(x):\n    return x * max(len(x), 1) + min(2, 3)\n", {}),
    ("builtin-of-a-traced-value", "import numpy as np\ndef f(x):\n    return max(x, 1)\n", {}),
]

SOURCES = [*examples(), *fixture_files(), *HELPERS]


def test_plain_helpers_cost_no_libcst_pass():
    """The helpers' files need nothing from any rule, and the pre-checks know it without LibCST."""
    for name, code, _ in HELPERS[:3]:
        assert len(_ruled_out(code)) == len(RULES) - 1, name  # all but JX401 (its triggers come from project facts)
        with precheck.disabled():
            assert not process_source(name, code, RULES, RunOptions()).findings, name


def _ruled_out(code: str) -> list:
    tree = parse(code)
    if tree is None:
        return []
    facts = precheck.TreeFacts(tree, code)
    return [rule for rule in RULES if not precheck.may_apply(rule, facts)]


@pytest.mark.parametrize("name, code, settings", SOURCES, ids=[s[0] for s in SOURCES])
def test_ruled_out_rules_report_nothing(name, code, settings):
    """Every rule a pre-check rules out on an example, an expected rewrite or a fixture file (before and after,
    package modules included) reports nothing there when run without pre-checks."""
    out = _ruled_out(code)
    if not out:
        return
    with precheck.disabled():
        findings = process_source(name, code, out, RunOptions(settings=tuple(settings.items()))).findings
    assert not findings, [(f.code, f.line, f.message) for f in findings]


@pytest.mark.parametrize("name, code, settings", [s for s in SOURCES if "-expected" not in s[0]], ids=lambda v: v if isinstance(v, str) and "\n" not in v and len(v) < 80 else "")
def test_same_result_with_and_without_prechecks(name, code, settings):
    """All rules, migrate with unsafe fixes: identical findings, output and fix counts either way (the first pass's
    findings are covered by the test above; this one covers the later passes, where the checks are asked again)."""
    options = RunOptions(fix=True, unsafe_fixes=True, settings=tuple(settings.items()))
    assert_same_either_way(name, code, RULES, options, precheck.disabled)


PACKAGES = [case for case in discover_fixtures() if case.is_package]


@pytest.mark.parametrize("case", PACKAGES, ids=[case.id for case in PACKAGES])
def test_package_fixtures_without_prechecks(case):
    """Package cases go through the runner (project facts); without pre-checks they migrate to the same files."""
    with precheck.disabled():
        assert migrate_case(case) == expected_case(case)


def test_every_first_party_rule_has_a_check_or_says_why():
    unchecked = {rule.CODE for rule in RULES if rule.__module__.startswith("codemods.") and rule.CODE not in CHECKS}
    assert unchecked <= {"JX401"}  # JX401's triggers come from project facts; see codemods/_prechecks.py


def test_fast_stand_ins_are_at_least_as_conservative_as_the_originals():
    """Except on plain-Python helpers, which the stand-ins skip like the rules do and the originals do not know
    (the soundness tests above cover them)."""
    for _, code, _ in [s for s in SOURCES if s not in HELPERS]:
        tree = parse(code)
        if tree is None or _all_plain(tree):
            continue
        summary = summarize(tree)
        for original, stand_in in FAST.items():
            assert stand_in(summary) or not original(tree, code), (original.__name__, code)


def _all_plain(tree: ast.Module) -> bool:
    """Every function of `tree` is a plain-Python helper (a rule example of one, such as a generator)."""
    from codemods._precheck_summary import _plain

    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = frozenset(numpy_aliases(tree))
    return bool(functions) and all(_plain(f, names) for f in functions)


def _summary(code: str):
    return summarize(ast.parse(textwrap.dedent(code)))


# The cases each check must keep are the rule's INVALID examples (real findings); the one each must rule out is
# written here, close to a finding: the construct outside a function, another name, a form the rule never reports.
KEEP = {  # hand-written extra keeps, each a real finding of the rule (checked below)
    "JX101": "def f(x):\n    x[0] = 1\n",
    "JX102": "import numpy as np\ndef f(c, i):\n    np.add.at(c, i, 1)\n",
    "JX103": "def f(x):\n    x.sort()\n",
    "JX104": "def f(x):\n    x += 1\n",
    "JX201": "def f(x):\n    if x > 0:\n        x = -x\n    return x\n",
    "JX202": "def f(x):\n    if x > 0:\n        return x\n    return -x\n",
    "JX203": "def f(x):\n    return max(x, 0)\n",
    "JX220": "def f(x, n):\n    for i in range(n):\n        x = x + i\n    return x\n",
    "JX221": "def f(x):\n    while x > 0:\n        x = x - 1\n",
    "JX301": "def f(x, m):\n    x[m] = 0\n",
    "JX302": "def f(x):\n    return x[x > 0].sum()\n",
    "JX303": "import numpy as np\ndef f(x):\n    return np.nonzero(x)\n",
    "JX304": "import jax.numpy as jnp\ndef f():\n    return jnp.sum([1, 2])\n",
    "JX501": "import numpy as np\ndef f(x):\n    return np.sum(x)\n",
    "JX502": "import math\ndef f(x):\n    return math.sqrt(x)\n",
    "JX503": "def f(x):\n    print(x)\n",
    "JX504": "CACHE = {}\ndef f(x):\n    CACHE['k'] = x\n",
    "JX510": "def f(x, n):\n    return x[:n]\n",
    "JX601": "import numpy as np\ndef f(x):\n    return x.astype(np.float64)\n",
}
RULE_OUT = {
    "JX101": "X = [0]\nX[0] = 1\ndef f(x):\n    return x[0]\n",
    "JX102": "import numpy as np\ndef f(c, i):\n    return np.add(c, i)\n",
    "JX103": "def f(x):\n    return sorted(x)\n",
    "JX104": "def f(x):\n    return x + 1\n",
    "JX201": "if X > 0:\n    X = 1\ndef f(x):\n    return abs\n",
    "JX202": "def f(x):\n    if x > 0:\n        x = -x\n",
    "JX203": "def f(x):\n    return max(x, default=0) + x.max(0)\n",
    "JX220": "def f(xs):\n    for v in xs:\n        pass\n",
    "JX221": "def f(x):\n    for v in x:\n        pass\n",
    "JX222": "for v in XS:\n    pass\ndef f(x):\n    return x\n",
    "JX223": "while X:\n    break\ndef f(x):\n    return x\n",
    "JX301": "def f(x):\n    x[0] = 0\n    x[1:3] = 1\n    x['k'] = 2\n",
    "JX302": "def f(x):\n    return x[0] + x[1:] + x[:, 0] + x['w']\n",
    "JX303": "import numpy as np\ndef f(x):\n    return np.where(x > 0, x, 0)[0]\n",
    # (a function returning a tuple, and a call given a call's result, but not of that function: already-JAX code)
    "JX304": "import jax.numpy as jnp\ndef f(x):\n    parts = [x]\n    return sum([1, 2]) + jnp.sum(x)\n\n"
             "def g(c, x):\n    return c, jnp.sum(jnp.exp(x))\n",
    "JX501": "import numpy as np\nT = np.ones(3)\ndef f(x):\n    return x * T\n",
    "JX502": "import jax.numpy as jnp\ndef f(x):\n    return jnp.sqrt(x) + float\n",
    "JX503": "print(X)\ndef f(x):\n    return x\n",
    "JX504": "CACHE = {}\ndef f(x):\n    cache = {}\n    cache['k'] = x\n",
    "JX510": "def f(x):\n    return x[1:-1]\n",
    "JX601": "import numpy as np\nD = np.float64\ndef f(x):\n    return x\n",
}


def _keeps(code: str) -> list[str]:
    rule = next(r for r in RULES if r.CODE == code)
    return [textwrap.dedent(e.code) for e in rule.INVALID] + ([KEEP[code]] if code in KEEP else [])


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_each_check_keeps_and_rules_out(code):
    for keep in _keeps(code):
        assert CHECKS[code](_summary(keep)), keep
    assert not CHECKS[code](_summary(RULE_OUT[code]))


@pytest.mark.parametrize("code", sorted(KEEP))
def test_each_keep_case_is_a_real_finding(code):
    """The hand-written keeps are real: the rule reports there (so a check that answered False would lose it)."""
    rule = next(r for r in RULES if r.CODE == code)
    with precheck.disabled():
        assert process_source("k.py", KEEP[code], [rule], RunOptions()).findings, code


@pytest.mark.parametrize("code", sorted(RULE_OUT))
def test_each_rule_out_case_reports_nothing(code):
    rule = next(r for r in RULES if r.CODE == code)
    with precheck.disabled():
        assert not process_source("r.py", RULE_OUT[code], [rule], RunOptions()).findings, code


def test_maskish_index_forms():
    keep = "def f(x, m, a, b):\n    return x[m], x[a > b], x[~m], x[a & b], x[g(a)], x[True]\n"
    assert "mask_read" in _summary(keep).flags
    rule_out = "def f(x, i):\n    return x[0], x[-1], x[1:i], x[i, 0], x[(i, 0)], x['w'], x[a.b], x[...]\n"
    assert "mask_read" not in _summary(rule_out).flags


def test_imports_of_the_same_name_from_two_modules_keep_both():
    summary = _summary("import jax.numpy as np\nimport numpy as np\ndef f(x):\n    return np.sum(x)\n")
    assert CHECKS["JX501"](summary)


def test_engine_skips_rules_ruled_out_on_later_passes(monkeypatch):
    """After a pass of fixes the checks run on the new text; when none may apply, no verification pass runs."""
    import jaxfix.engine as engine

    calls = []
    real = engine._analyse
    monkeypatch.setattr(engine, "_analyse", lambda *args: calls.append(args) or real(*args))
    code = "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n"
    outcome = process_source("m.py", code, [NumpyNamespace], RunOptions(fix=True))
    assert "jnp.sum" in outcome.fixed and len(calls) == 1
    calls.clear()
    with precheck.disabled():
        assert process_source("m.py", code, [NumpyNamespace], RunOptions(fix=True)).fixed == outcome.fixed
    assert len(calls) == 2


MISSED_UPDATES = {
    "jnp-rebinding": "import jax.numpy as jnp\ndef f(y):\n    y = jnp.add(y, 1.0)\n",
    "at-rebinding": "def f(y, i):\n    y = y.at[i].set(0.0)\n",
    "copyto-by-name": "from numpy import copyto\ndef f(d, s):\n    copyto(d, s)\n",
    "nested-tuple-target": "def f(x, v):\n    (a, (x[0], b)) = v\n",
}


@pytest.mark.parametrize("code", MISSED_UPDATES.values(), ids=MISSED_UPDATES.keys())
def test_update_forms_the_shared_class_check_missed(code):
    """JX104 reports functional rebindings in functions that return nothing, and JX103 `copyto` imported by name:
    `codemods._inplace.updates_in_functions` answers False on these, its stand-in must not."""
    assert CHECKS["JX104"](_summary(code)) and FAST[updates_in_functions](_summary(code))


def test_jx104_reports_a_functional_rebinding():
    from codemods.mutated_argument import MutatedArgument

    code = "import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    x = jnp.where(np.isnan(x), 0.0, x)\n"
    with precheck.disabled():
        assert process_source("r.py", code, [MutatedArgument], RunOptions()).findings
    assert process_source("r.py", code, [MutatedArgument], RunOptions()).findings


def test_rebinding_text_is_read_at_the_right_line():
    """JX104's rebinding test reads the value's text; a form feed or a non-ASCII character before it must not
    shift the line or column read (a wrong segment could rule JX104 out wrongly)."""
    code = "import jax.numpy as jnp\n\x0c\ndef f(y):\n    s = 'é'; y = jnp.add(y, 1.0)\n"
    assert CHECKS["JX104"](summarize(ast.parse(code), code))
    other = "import jax.numpy as jnp\ndef f(y):\n    z = jnp.add(1.0, 2.0)\n    return z\n"
    assert not CHECKS["JX104"](summarize(ast.parse(other), other))


def test_segments_match_the_source_segments_of_ast():
    """`_segment` (JX104's value text) agrees with `ast.get_source_segment` on every assignment of every source."""
    from codemods._prechecks import _segment
    from jaxfix.source import lines as source_lines

    extra = ("x = 1\ndef f(y):\n    s = 'é'; y = jnp.add(y, 'ü')\n    z = (a +\n      b)\n", "", {})
    for _, code, _ in [*SOURCES, extra]:
        tree = parse(code)
        if tree is None:
            continue
        lines = source_lines(code)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                assert _segment(lines, node.value) == ast.get_source_segment(code, node.value)
