"""Edge cases for JX220 range-loop: no-change cases first, then rewrites, then refusals at the loop's line."""

import textwrap

import pytest

from codemods.range_loop import RangeLoop
from jaxfix.testing.examples import run_rule


def migrate(code: str, **settings) -> str:
    return run_rule(RangeLoop, textwrap.dedent(code), fix=True, settings=settings).fixed


NOOP = [
    pytest.param("def f(x):\n    for i in range(4):\n        x = x + i\n    return x\n", id="small-literal-trip-unrolls"),
    pytest.param("def f(x):\n    for i in range(2, 40, 2):\n        x = x * 0.5\n    return x\n", id="unroll-max-setting"),
    pytest.param("def f(x):\n    n = 1\n    for d in range(x.ndim):\n        n = n * x.shape[d]\n    return n\n", id="host-side-shape-loop"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        y = x[i]\n    return x\n", id="nothing-carried"),
    pytest.param("def f(xs, n):\n    for i, x in enumerate(xs):\n        n = n + x\n    return n\n", id="not-a-range"),
    pytest.param("N = 50\nacc = 0\nfor i in range(N):\n    acc = acc + i\n", id="module-level"),
    pytest.param("def f(x, k):\n    for i in range(0, 64, k):\n        x = x + 1\n    return x\n", id="unknown-step-sign"),
    pytest.param("def f(x):\n    s = 0.0\n    for i in range(x.shape[0]):\n        s = s + x[:i].sum()\n    return s\n", id="static-loop-needing-int-index"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    settings = {"unroll-max": 64} if "40" in code else {}
    assert migrate(code, **settings) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        "def f(x, a, b):\n    s = 0.0\n    for i in range(a, b):\n        s = s + x[i]\n    return s\n",
        "import jax\nimport jax.numpy as jnp\n\ndef f(x, a, b):\n    s = 0.0\n    x_jax = jnp.asarray(x)\n\n    def body(i, s):\n"
        "        s = s + x_jax[i]\n        return s\n\n    s = jax.lax.fori_loop(a, b, body, s)\n    return s\n",
        id="start-stop",
    ),
    pytest.param(
        "from jax import lax\ndef f(x):\n    # decay\n    for i in range(1, 100, 3):  # stride\n        x = x * 0.9 + i\n    return x\n",
        "from jax import lax\ndef f(x):\n    # decay\n    def body(k, x):  # stride\n        i = 1 + k * 3\n        x = x * 0.9 + i\n        return x\n\n"
        "    x = lax.fori_loop(0, 33, body, x)\n    return x\n",
        id="literal-step-folded-trip-and-comment-kept",
    ),
    pytest.param(
        "def f(x, n):\n    body = 1.0\n    for i in range(n):\n        body = body * x[i]\n    return body\n",
        "import jax\nimport jax.numpy as jnp\n\ndef f(x, n):\n    body = 1.0\n    x_jax = jnp.asarray(x)\n\n"
        "    def body_2(i, body):\n        body = body * x_jax[i]\n        return body\n\n"
        "    body = jax.lax.fori_loop(0, n, body_2, body)\n    return body\n",
        id="fresh-function-name",
    ),
    pytest.param(
        "def f(x):\n    for i in range(x.shape[0]):\n        x = x.at[i].set(x[i - 1] * 2)\n    return x, i\n",
        "import jax\n\ndef f(x):\n    def body(i, x):\n        x = x.at[i].set(x[i - 1] * 2)\n        return x\n\n"
        "    x = jax.lax.fori_loop(0, x.shape[0], body, x)\n    if x.shape[0] > 0:\n        i = x.shape[0] - 1\n    return x, i\n",
        id="static-bound-after-at-set-index-left-unbound-by-zero-trips",
    ),
    pytest.param(
        "def f(x, n, i):\n    for i in range(n, 2, -1):\n        x = x * i\n    return x, i\n",
        "import jax\nimport jax.numpy as jnp\n\ndef f(x, n, i):\n    def body(k, x):\n        i = n - k\n        x = x * i\n        return x\n\n"
        "    x = jax.lax.fori_loop(0, n - 2, body, x)\n    i = jnp.where(n - 2 > 0, 3, i)\n    return x, i\n",
        id="traced-negative-step-index-after",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


REFUSALS = [
    pytest.param("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] > 0:\n            s = s + x[i]\n    return s\n", "branch", id="traced-if"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        x[i] = 0.0\n    return x\n", "in-place", id="item-assignment"),
    pytest.param("def f(x, n, it):\n    s = 0.0\n    for i in range(n):\n        s = s + next(it)\n    return s\n", "next", id="iterator"),
    pytest.param("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        s = s + x[i]\n        if s > 1:\n            break\n    return s\n", "break", id="break"),
    pytest.param("def f(x, n, log):\n    s = 0.0\n    for i in range(n):\n        s = s + x[i]\n        log.write(s)\n    return s\n", "mutates", id="outer-object"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        last = x[i]\n    return last\n", "no value before", id="undefined-carry"),
    pytest.param("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        s = s + x[i]\n    return s, i\n", "zero times", id="index-unbound-after"),
    pytest.param(  # scikit-learn's silhouette: lax loops trace the body even outside jit, where the mask raises
        "def f(X, labels, n):\n    s = 0.0\n    for k in range(n):\n        s = s + X[labels == k].sum()\n    return s\n",
        "shape that depends on values", id="masked-read-in-body"),
]


@pytest.mark.parametrize("code, reason", REFUSALS)
def test_refusal_reported_at_the_loop(code, reason):
    outcome = run_rule(RangeLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [3 if "s = 0.0" in code or "out = []" in code else 2]
    assert reason in outcome.findings[0].message


def test_refusal_fixture_reports_each_loop_at_its_line():
    import os

    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules
    from jaxfix.types import RunOptions

    path = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "range_loop", "refusals.before.py")
    code = open(path, encoding="utf-8").read()
    findings = process_source("refusals.py", code, all_rules(), RunOptions()).findings
    loops = sorted((f.line, f.code) for f in findings if f.code in ("JX220", "JX221", "JX222", "JX223"))
    assert loops == [(7, "JX220"), (14, "JX222"), (20, "JX220"), (27, "JX221"), (35, "JX222"), (42, "JX220"), (44, "JX223")]


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("def f(acc, x, n):\n    for i in range(n):\n        acc += x[i]\n    return acc\n", id="parameter"),
        pytest.param("def f(x, n):\n    acc = x\n    for i in range(n):\n        acc *= 0.5\n    return acc, x\n", id="alias"),
    ],
)
def test_shared_inplace_update_is_reported_not_rewritten(code):
    outcome = run_rule(RangeLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert "updates in place" in outcome.findings[0].message


LISTS = [
    pytest.param("def f(w1, w2, w3, h):\n    ws = [w1, w2, w3]\n    for i in range(len(ws)):\n        h = ws[i] @ h\n    return h\n", id="list-display-static-trip"),
    pytest.param("def f(ws, h):\n    for i in range(len(ws)):\n        h = ws[i] @ h\n    return h\n", id="parameter-bounding-len"),
    pytest.param("def f(cs, t):\n    v = 0.0 * t\n    for j in range(len(cs)):\n        v = v * t + cs[j]\n    return v\n", id="coefficients-parameter"),
    pytest.param("def f(xs, h):\n    ws = list(xs)\n    for i in range(0, len(ws), 1):\n        h = ws[i - 1] * h\n    return h\n", id="list-call-index-expression"),
]


@pytest.mark.parametrize("code", LISTS)
def test_python_list_indexed_by_the_counter_stays_a_loop(code):
    outcome = run_rule(RangeLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code and outcome.findings == []


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("def f(ws: list, h, n):\n    for i in range(n):\n        h = ws[i] @ h\n    return h\n", id="annotated-list"),
        pytest.param("def f(w1, w2, h, n):\n    ws = (w1, w2)\n    for i in range(n):\n        h = ws[i % 2] @ h\n    return h\n", id="tuple-display"),
    ],
)
def test_python_list_with_traced_trip_count_is_reported(code):
    outcome = run_rule(RangeLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [2 if "list" in code else 3]
    assert "Python list or tuple indexed by the loop index" in outcome.findings[0].message


def test_parameter_with_array_evidence_is_an_array():
    code = "def f(cs, t):\n    v = 0.0 * t\n    for j in range(len(cs)):\n        v = v * t + cs[j]\n    return v * cs.shape[0]\n"
    assert "fori_loop(0, len(cs), body, v)" in migrate(code)


def test_blank_line_before_the_body_function_only_when_needed():
    first = migrate("def f(x, n):\n    for i in range(n):\n        x = x * i\n    return x\n")
    assert "def f(x, n):\n    def body(i, x):" in first
    spaced = migrate("def f(x, n):\n    s = 0.0\n\n    # sum\n    for i in range(n):\n        s = s * 0.5 + i\n    return s\n")
    assert "    s = 0.0\n\n    # sum\n    def body(i, s):" in spaced


def test_a_parameter_indexed_by_the_counter_is_read_as_a_jax_array():
    """Called eagerly with a NumPy array, `x[i]` with the traced counter raises `TracerArrayConversionError`
    (tslearn's `X[i]`): the body reads `jnp.asarray(x)`, bound before it; the comment stays above."""
    fixed = migrate("def f(x, n):\n    s = 0.0\n    # sum\n    for i in range(n):\n        s = s + x[i] * x.shape[0]\n    return s, x\n")
    assert "    s = 0.0\n    # sum\n    x_jax = jnp.asarray(x)\n\n    def body(i, s):\n        s = s + x_jax[i] * x_jax.shape[0]\n" in fixed
    assert fixed.endswith("    return s, x\n")  # the caller's array itself is left as it was
    untouched = migrate("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        s = s + x[0] * i\n    return s\n")
    assert "asarray" not in untouched and "fori_loop" in untouched  # no traced index: NumPy takes `x[0]`


def test_an_array_from_a_call_not_known_to_be_jax_indexed_by_the_counter_is_an_unsafe_fix():
    """`PQd = squareform(P)` is a NumPy array at run time: indexed by the traced `fori_loop` counter it raises
    (scikit-learn's t-SNE gradient). An array from a NumPy call (moved to `jnp`) is fine."""
    code = (
        "import numpy as np\nfrom scipy.spatial.distance import squareform\n\ndef f(P, X, n):\n    PQd = squareform(P)\n"
        "    g = 0.0\n    for i in range(n):\n        g = g + np.dot(PQd[i], X[i])\n    return g\n"
    )
    [finding] = [f for f in run_rule(RangeLoop, code).findings if f.code == "JX220"]
    assert "`PQd` comes from `squareform(...)`" in finding.message and finding.fix.applicability == "unsafe"
    assert migrate(code) == code
    assert "fori_loop" in run_rule(RangeLoop, code, fix=True, unsafe=True).fixed
    numpy = code.replace("squareform(P)", "np.exp(P)")
    assert "fori_loop" in migrate(numpy)


LATTICE = """\
import numpy as np

def lattice(c):
    u = np.zeros((4, 3))
    v = np.zeros((4, 3))
    for k in range(len(c) - 1):
        e = c[k + 1] * 2.0
        for j in range(1, k + 1):
            e = e - u[j - 1] * c[k - j]
        for j in range(1, k + 1):
            u[j - 1] += e
        for j in range(1, k + 1):
            v[j - 1] -= 0.5 * e
    return u - v
"""


@pytest.mark.parametrize("loops", [2, 3])
def test_inner_loops_reusing_an_index_never_read_after_restore_nothing(loops):
    """Inner loops sharing the index `j`, which nothing reads after them, and run zero times on the first outer
    iteration (nitime's Levinson recursion): no line restores `j` (it used to be `j = k if k > 0 else j`, which
    raised `UnboundLocalError`, or `j = k` after two loops). The rewrite computes what NumPy does."""
    import jax
    import numpy as np

    from jaxfix.engine import migrate_source

    code = LATTICE if loops == 3 else LATTICE.replace("        for j in range(1, k + 1):\n            v[j - 1] -= 0.5 * e\n", "")
    fixed = migrate_source(code)
    assert fixed.count("fori_loop") == loops
    assert "j = " not in fixed
    c = np.arange(15.0).reshape(5, 3) / 7.0
    original, rewritten = {}, {}
    exec(code, original)
    exec(fixed, rewritten)
    with jax.enable_x64(True):
        np.testing.assert_allclose(np.asarray(rewritten["lattice"](c)), original["lattice"](c))


def test_an_index_left_unbound_by_zero_trips_stays_unbound_when_read_after():
    """Read after the loop, an index with no value before it keeps none when a static trip count is zero: the
    restoring line is guarded (`if trip > 0:`), never `j = ... else j`, which reads it unbound."""
    code = ("import jax.numpy as jnp\n\ndef f(x, m):\n    for j in range(x.shape[0]):\n        x = x.at[j].set(x[j - 1] * 2)\n"
            "    for j in range(m.shape[0]):\n        x = x.at[j].add(m[j])\n    return x, j\n")
    fixed = migrate(code)
    assert fixed.count("fori_loop") == 2 and "else j" not in fixed
    assert fixed.count("    if x.shape[0] > 0:\n        j = x.shape[0] - 1\n") == 1
    assert fixed.count("    if m.shape[0] > 0:\n        j = m.shape[0] - 1\n") == 1


LAGGED = """\
import numpy as np

def lagged(sig):
    m, k = sig.shape
    out = np.zeros((m, 2 * k - 1))
    for r in range(m):
        out[r] = np.convolve(sig[r], sig[m - 1 - r])
    return out
"""


@pytest.mark.parametrize("unsafe", [False, True])
def test_a_numpy_call_renamed_only_unsafely_keeps_the_loop_in_a_safe_run(unsafe):
    """JX501 renames `np.convolve` of inputs of unknown dtype only as an unsafe fix (integers become floats): left
    NumPy, it raises `TracerArrayConversionError` on the traced index of a `fori_loop` body (nitime's cross
    correlations). A safe run keeps the Python loop; `--unsafe-fixes` renames both, and both compute what NumPy does."""
    import jax
    import numpy as np

    from jaxfix.engine import migrate_source

    fixed = migrate_source(LAGGED, unsafe_fixes=unsafe)
    assert ("fori_loop" in fixed) is unsafe
    assert ("jnp.convolve" in fixed) is unsafe
    sig = np.arange(8.0).reshape(2, 4) - 2.5
    original, rewritten = {}, {}
    exec(LAGGED, original)
    exec(fixed, rewritten)
    with jax.enable_x64(True):
        np.testing.assert_allclose(np.asarray(rewritten["lagged"](sig)), original["lagged"](sig))
    message = next(f.message for f in run_rule(RangeLoop, LAGGED.replace("out[r] = ", "out = out.at[r].set(").replace(
        "m - 1 - r])", "m - 1 - r]))")).findings)
    assert "`np.convolve(...)` is given values the loop binds, and JX501 renames it only as an unsafe fix" in message


def test_a_numpy_call_that_stays_numpy_on_the_index_keeps_the_loop_even_with_unsafe_fixes():
    """`np.round(...)` made text stays NumPy in every run (JX501): given the traced index's element it would raise."""
    code = ("import numpy as np\n\ndef f(x, n):\n    s = 0.0\n    for i in range(n):\n"
            "        s = s + len(repr(np.round(x[i], 3)))\n    return s\n")
    outcome = run_rule(RangeLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    [finding] = outcome.findings
    assert "`np.round(...)` is given values the loop binds but stays NumPy" in finding.message
    fixed_rounds = code.replace("len(repr(np.round(x[i], 3)))", "np.round(x[i], 3)")
    assert "fori_loop" in migrate(fixed_rounds)  # renamed by JX501: the body is JAX


def test_a_parameter_indexed_by_the_counter_through_a_chain_is_read_as_a_jax_array():
    """`w[k][j]` takes the traced `j` in NumPy's `w[k]` (nitime's `fxy[i][j]`): the body reads `jnp.asarray(w)` as for
    `w[k, j]`, and called eagerly with a NumPy array the rewrite computes what NumPy does."""
    import jax
    import numpy as np

    code = ("import jax.numpy as jnp\n\ndef f(w, k):\n    n = w.shape[0]\n    q = jnp.zeros(n)\n"
            "    for j in range(k, n):\n        q = q.at[j].add(w[k][j][1] * w[k][0][0])\n    return q\n")
    fixed = migrate(code)
    assert "w_jax = jnp.asarray(w)" in fixed and "w_jax[k][j][1] * w_jax[k][0][0]" in fixed
    w = np.arange(18.0).reshape(3, 3, 2) / 5.0
    original, rewritten = {}, {}
    exec(code, original)
    exec(fixed, rewritten)
    with jax.enable_x64(True):
        np.testing.assert_allclose(np.asarray(rewritten["f"](w, 1)), np.asarray(original["f"](w, 1)))


def test_a_one_line_loop_body_becomes_the_body_function():
    """`for i in range(n): s = s + x[i]` (nitime's one-line inner loops): the body function holds that line; it used
    to be a `def` without an indented block, which does not compile."""
    fixed = migrate("def f(x, n):\n    s = 0.0\n    for i in range(n): s = s + x[i]; s = s * 0.5;  # halve\n    return s\n")
    assert "    def body(i, s):  # halve\n        s = s + x_jax[i]; s = s * 0.5\n        return s\n" in fixed
    compile(fixed, "f.py", "exec")
