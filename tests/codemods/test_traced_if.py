"""Edge cases for JX201 traced-if: no-change cases first, then rewrites, then refusals (reported, not changed)."""

import textwrap

import pytest

from codemods.traced_if import TracedIf
from jaxfix.registry import all_rules
from jaxfix.runner import run_files
from jaxfix.testing.examples import run_rule
from jaxfix.types import RunOptions


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(TracedIf, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


def findings(code: str):
    return [f for f in run_rule(TracedIf, textwrap.dedent(code)).findings if f.code == "JX201"]


NOOP = [
    pytest.param("def f(x):\n    if x.ndim == 1:\n        x = x[None]\n    return x\n", id="ndim"),
    pytest.param("def f(x):\n    if x.shape[0] > 3:\n        x = x[:3]\n    return x\n", id="shape"),
    pytest.param("def f(x, mode='sum'):\n    if mode == 'sum':\n        y = x.sum()\n    else:\n        y = x.mean()\n    return y\n", id="string-mode"),
    pytest.param("def f(x, center=True):\n    if center:\n        x = x - x.mean()\n    return x\n", id="bool-default-flag"),
    pytest.param("def f(x, flat):\n    if flat:\n        x = x.reshape(-1)\n    return x\n", id="bare-flag-parameter"),
    pytest.param("DEBUG = False\ndef f(x):\n    if DEBUG:\n        x = x * 1\n    return x\n", id="module-constant"),
    pytest.param("def f(x, y=None):\n    if y is None:\n        y = x\n    return x + y\n", id="is-none"),
    pytest.param("def f(x):\n    if x > 0:\n        y = 1\n    return x\n", id="dead-assignment"),
    pytest.param("def f(x):\n    for v in x:\n        if v > 0:\n            break\n    return x\n", id="break-left-to-loops"),
    pytest.param("def f(x):\n    if x > 0:\n        return x\n    return -x\n", id="returns-left-to-JX202"),
    pytest.param("x = 1\nif x > 0:\n    y = 2\n", id="module-level"),
    pytest.param(  # a dtype comparison is a Python bool (jnp.where would have promoted the cast away)
        "import numpy as np\ndef f(arr, low):\n    dt = np.promote_types(np.min_scalar_type(low), np.uint8)\n"
        "    if arr.dtype != dt:\n        arr = arr.astype(dt)\n    return arr + 200\n",
        id="dtype-comparison",
    ),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        "def f(x, t):\n    if x.sum() > t:\n        a = x\n        b = 2 * x\n    else:\n        a = -x\n        b = x\n    return a + b\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    a = jnp.where(x.sum() > t, x, -x)\n    b = jnp.where(x.sum() > t, 2 * x, x)\n    return a + b\n",
        id="two-outputs",
    ),
    pytest.param(
        # (read as arrays: a swap of parameters that may be Python numbers, an int and a float, is unsafe)
        "def f(x, y):\n    if x.sum() > y.sum():\n        x, y = y, x\n    return x - y\n",
        None,
        id="tuple-target-becomes-cond",
    ),
    pytest.param(
        "def f(a, b):\n    if a.sum() > b.sum():\n        a = b\n        b = a\n    return a, b\n",
        None,
        id="reads-earlier-assignment-becomes-cond",
    ),
    pytest.param(
        "def f(x, t):\n    y = x * 1.0\n    if t > 0:\n        y += t\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    y = x * 1.0\n    y = jnp.where(t > 0, y + t, y)\n    return y\n",
        id="augmented-on-fresh-array",
    ),
    pytest.param(
        "def f(x, d):\n    if d > 0:\n        y = x / d\n    else:\n        y = x\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x, d):\n    y = jnp.where(d > 0, x / jnp.where(d > 0, d, 1.0), x)\n    return y\n",
        id="division-guarded",
    ),
    pytest.param(
        "def f(x):\n    if x < 0:\n        y = 0.0\n    elif x < 1:\n        y = x * 2\n    elif x < 2:\n        y = x + 1\n    else:\n        y = x\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.select([x < 0, x < 1, x < 2], [0.0, x * 2, x + 1], x)\n    return y\n",
        id="elif-chain-select",
    ),
    pytest.param(
        "def f(x, t):\n    y = x * 1.0\n    if t > 1:\n        y = y / t\n    elif t < -1:\n        y = -y\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    y = x * 1.0\n    y = jnp.select([t > 1, t < -1], [y / jnp.where(t > 1, t, 1.0), -y], y)\n    return y\n",
        id="one-sided-elif-chain-keeps-prior-value-guarded",
    ),
    pytest.param(
        "import numpy as np\ndef f(x, t):\n    if x.sum() > t:\n        y = x\n    else:\n        y = np.zeros_like(x)\n    return y\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x, t):\n    y = jnp.where(x.sum() > t, x, np.zeros_like(x))\n    return y\n",
        id="zeros-like-has-the-shape",
    ),
    pytest.param(
        "def f(z, alpha: float):\n    if z.mean() > 0:\n        y = z * 2.0\n    else:\n        y = alpha * z\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(z, alpha: float):\n    y = jnp.where(z.mean() > 0, z * 2.0, alpha * z)\n    return y\n",
        id="float-annotated-parameter-is-0d",
    ),
    pytest.param(
        "def f(x):\n    if x > 0:\n        y = x ** 0.5\n    else:\n        y = x ** 2\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.where(x > 0, jnp.where(x > 0, x, 1.0) ** 0.5, x ** 2)\n    return y\n",
        id="fractional-power-guarded-integer-power-not",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    out = migrate(code)
    compile(out, "out.py", "exec")
    if expected is None:
        assert "lax.cond(" in out and "_if_true" in out
    else:
        assert out == expected
    assert migrate(out) == out  # idempotent


def test_cond_operands_and_results_come_from_the_analysis():
    code = (
        "def f(x, w, n: int):\n    acc = x\n    if x.mean() > w:\n        acc = acc * 2\n        extra = n\n"
        "        for i in range(n):\n            acc = acc + i\n    return acc\n"
    )
    out = migrate(code)
    assert "def acc_if_true(x, w, acc):" not in out  # x, w are not read by the branch
    assert "def acc_if_true(acc):" in out and "acc = jax.lax.cond(x.mean() > w, acc_if_true, acc_if_false, acc)" in out


SHAPES_TO_COND = [
    pytest.param("def f(x):\n    if x.sum() > 0:\n        y = x\n    else:\n        y = 0.0\n    return y\n", "`0.0` (0-d) and `x`", id="scalar-vs-array"),
    pytest.param("def f(x):\n    if x[0] > 0:\n        y = x[:2]\n    else:\n        y = x[1:]\n    return y\n", "`x[:2]`", id="two-slices"),
    pytest.param("def f(x, t):\n    y = x\n    if x.sum() > 0:\n        y = t\n    return y * t.size\n", "`t`", id="one-sided-unrelated-array"),
    pytest.param("def f(x):\n    if x.sum() > 0:\n        y = (x, x)\n    else:\n        y = (x, -x)\n    return y\n", "`(x, x)`", id="tuple-values"),
    pytest.param(
        "def f(x):\n    z = x * 2\n    w = z\n    while z.sum() > 1:\n        w = z * 2\n        z = z[1:]\n    if x.sum() > 0:\n        y = w\n    else:\n        y = z\n    return y\n",
        "`w`",
        id="loop-rebinds-between",
    ),
]


@pytest.mark.parametrize("code, words", SHAPES_TO_COND)
def test_shapes_not_provably_equal_become_cond(code, words):
    """`jnp.where` would broadcast; `lax.cond` raises at trace time on a mismatch instead (a safe fix)."""
    [finding] = [f for f in findings(code) if "x.sum() > 0" in f.message or "x[0] > 0" in f.message]
    assert words in finding.message and "`lax.cond`, not `jnp.where`" in finding.message
    out = migrate(code)
    assert "jnp.where" not in out and "lax.cond(" in out
    assert migrate(out) == out


def test_unknown_condition_is_an_unsafe_fix():
    code = "def f(self, x):\n    if self.gain > 0:\n        y = x\n    else:\n        y = -x\n    return y\n"
    assert migrate(code) == code
    assert "jnp.where(self.gain > 0, x, -x)" in migrate(code, unsafe=True)


REFUSALS = [
    pytest.param("def f(x):\n    if x.sum() > 0:\n        print(x)\n        x = x + 1\n    return x\n", "print", id="print"),
    pytest.param("def f(x, log):\n    if x.sum() > 0:\n        log.append(x)\n    return x\n", "log.append", id="append"),
    pytest.param("def f(x, out):\n    if x.sum() > 0:\n        out[0] = 1.0\n    return x\n", "mutates `out[0]`", id="mutation"),
    pytest.param("def f(x):\n    if x.min() < 0:\n        raise ValueError(x)\n    return x\n", "checkify", id="raise"),
    pytest.param("def f(x):\n    if x.sum() > 0:\n        s = 2.0\n    return x * s\n", "undefined before", id="one-sided-undefined"),
    pytest.param("def f(x, a):\n    b = a\n    if x > 0:\n        b += x\n    return a, b\n", "in place", id="aliased-augmented"),
]


@pytest.mark.parametrize("code, words", REFUSALS)
def test_refusal_reported_at_the_if_line(code, words):
    found = findings(code)
    assert [f.line for f in found] == [textwrap.dedent(code).splitlines().index(next(l for l in code.splitlines() if l.strip().startswith("if "))) + 1]
    assert words in found[0].message
    assert migrate(code, unsafe=True) == code


def test_swap_through_subscripts_is_a_mutation():
    code = "def f(a, j):\n    if a[j] > a[j + 1]:\n        a[j], a[j + 1] = a[j + 1], a[j]\n    return a\n"
    [finding] = findings(code)
    assert finding.line == 2 and "mutates `a[j], a[j + 1]` in place" in finding.message


# ---- inside lax loop bodies: a 0-d carry proves the value assigned back to it ---------------------------------------
LOOP = """\
import jax.numpy as jnp
from jax import lax

def spend(costs, budget):
    spent = {init}
    hits = 0
    def body(i, carry):
        hits, spent = carry
{body}
        return hits, spent

    hits, spent = lax.fori_loop(0, costs.shape[0], body, (hits, spent))
    return spent, hits
"""
BUDGET = """\
        if spent + costs[i] > budget:
            hits = hits + 1
        else:
            spent = spent + costs[i]
"""


def loop_code(body: str = BUDGET, init: str = "0.0") -> str:
    return LOOP.format(init=init, body=body)


def test_carried_0d_names_become_where_in_a_fori_loop_body():
    out = migrate(loop_code())
    assert "        hits = jnp.where(spent + costs[i] > budget, hits + 1, hits)\n" in out
    assert "        spent = jnp.where(spent + costs[i] > budget, spent, spent + costs[i])\n" in out
    assert "lax.cond" not in out and migrate(out) == out


LOOP_TO_COND = [
    pytest.param(BUDGET, "costs[0] * 0", id="carry-with-unproven-initial-shape"),
    pytest.param(
        "        if spent + costs[i] > budget:\n            step = 0.0\n        else:\n            step = costs[i]\n"
        "        spent = spent + step\n",
        "0.0",
        id="temporary-is-not-carried",
    ),
    pytest.param(BUDGET + "        spent = spent.sum()\n", "0.0", id="assigned-again-before-the-return"),
]


@pytest.mark.parametrize("body, init", LOOP_TO_COND)
def test_loop_body_values_without_a_carry_proof_become_cond(body, init):
    out = migrate(loop_code(body, init))
    assert "lax.cond(spent + costs[i] > budget" in out and "spent = jnp.where" not in out


def test_scan_element_is_not_proven_but_the_carry_is():
    code = (
        "import jax.numpy as jnp\nfrom jax import lax\n\ndef f(xs):\n    total = 0.0\n    def step(total, x):\n"
        "        if x.sum() > 0:\n            y = x\n            total = total + x.sum()\n        else:\n            y = 0.0\n"
        "        return total, y\n    total, ys = lax.scan(step, total, xs)\n    return total, ys\n"
    )
    out = migrate(code)
    assert "y = jnp.where" not in out and "lax.cond(x.sum() > 0" in out  # `y` is not carried: `0.0` vs `x`
    code = code.replace("            y = x\n", "").replace("            y = 0.0\n", "            pass\n").replace("return total, y", "return total, x")
    assert "        total = jnp.where(x.sum() > 0, total + x.sum(), total)\n" in migrate(code)


def _run_budget(code: str, costs, budget):
    import jax

    namespace: dict = {}
    exec(compile(code, "rewritten.py", "exec"), namespace)
    return jax.jit(namespace["spend"])(costs, budget)


def test_loop_body_where_matches_python_and_fails_loudly_on_a_shape_change():
    import jax.numpy as jnp
    import numpy as np

    out = migrate(loop_code())
    rng = np.random.default_rng(0)
    for _ in range(5):
        costs, budget = rng.uniform(0, 2, size=6).astype(np.float32), float(rng.uniform(0, 6))
        spent, hits = 0.0, 0
        for c in costs:  # the loop body's meaning in plain Python
            if spent + c > budget:
                hits += 1
            else:
                spent = spent + c
        got_spent, got_hits = _run_budget(out, jnp.asarray(costs), budget)
        assert np.allclose(got_spent, spent, rtol=1e-6) and int(got_hits) == hits and np.shape(got_spent) == ()
    # a row of costs per step would make `spent` 1-D: jnp.where cannot broadcast silently, the carry check raises
    with pytest.raises(TypeError, match="carry"):
        _run_budget(out, jnp.ones((6, 1), jnp.float32), 10.0)


def test_a_conversion_of_a_local_value_is_not_evaluated_on_both_sides_of_jnp_where():
    """`int(m * n)` may be traced (it raises under `jit`) and `jnp.where` would evaluate it where the `if` skipped it
    (an OverflowError for large counts): `lax.cond`, unsafe, not `jnp.where`."""
    code = "def f(m, n):\n    if m <= 1:\n        m = int(m * n)\n    return m\n"
    assert migrate(code) == code
    assert "jnp.where" not in migrate(code, unsafe=True)


def test_values_of_unknown_kind_are_closed_over_not_passed():
    """`problem = algorithm.problem` may be an object, which is no JAX type: `lax.cond` may not be given it as an
    operand (pymoo's Nelder-Mead, unsafe fix), so the branches close over it; the traced `X` is passed."""
    code = (
        "import numpy as np\n\ndef upd(algorithm, X):\n    pop, problem = algorithm.pop, algorithm.problem\n"
        "    if problem.has_bounds():\n        d = np.abs(X / (problem.xu - problem.xl)).max()\n"
        "    else:\n        d = np.abs(X).max()\n    return d\n"
    )
    fixed = run_rule(TracedIf, code, fix=True, unsafe=True).fixed
    assert "def d_if_true(X):" in fixed and "lax.cond(problem.has_bounds(), d_if_true, d_if_false, X)" in fixed


def test_a_local_bound_to_an_int_and_rebound_in_a_loop_is_still_an_int_on_the_first_pass():
    """`mu = 0`, then a loop keeps `mu` in one branch and a float in the other (sk_dsp_comm's NDA_symb_sync): on the
    first pass `lax.cond` gets int32 against a float and raises, so the fix is unsafe."""
    code = (
        "import jax.numpy as jnp\n\ndef f(xs, w):\n    mu = 0\n    for x in xs:\n        if x < 0:\n"
        "            mu_next = x / w\n        else:\n            mu_next = mu\n        mu = mu_next * 2.0\n    return mu\n"
    )
    [finding] = findings(code)
    assert "the int `0`" in finding.message
    assert migrate(code) == textwrap.dedent(code) and migrate(code, unsafe=True) != textwrap.dedent(code)


@pytest.mark.parametrize("call", ["jax.numpy.sqrt(self.tau)", "sqrt(self.tau)", "jnp.maximum(self.tau, 0.5)"])
def test_an_attribute_through_any_spelling_of_an_array_function_makes_lax_cond_unsafe(call):
    """`attribute_dtype` follows array functions however the module names them (`import jax.numpy`, `from numpy
    import sqrt`): before, `jax.numpy.sqrt(self.tau)` (what JX501 makes of `np.sqrt` after `import jax.numpy`) left
    the `lax.cond` fix safe, which raises on a float32 attribute under x64."""
    code = ("import jax.numpy\nimport jax.numpy as jnp\nfrom numpy import sqrt\n\nclass S:\n    def f(self, x, y):\n"
            f"        rsf = 1.0\n        if jnp.sum(x) > jnp.sum(y):\n            rsf = {call}\n        return rsf\n")
    [finding] = findings(code)
    assert finding.fix is not None and finding.fix.applicability.value == "unsafe", finding


def test_branch_value_sources_are_followed_once_per_name(monkeypatch):
    """`attribute_dtype` follows each local name once for the whole search: before, a chain of names each computed
    twice from the one before (`a2 = np.add(a1, a1)`) was walked once per path, 2**n times (a scipy.optimize file
    hung the migration)."""
    from codemods import _branch_values

    calls = []
    real = _branch_values._array_function
    monkeypatch.setattr(_branch_values, "_array_function", lambda called: calls.append(called) or real(called))
    chain = "".join(f"    a{i + 1} = np.add(a{i}, a{i})\n" for i in range(30))
    code = (f"import numpy as np\n\ndef f(x, a0):\n{chain}    r = 0.0\n    if np.sum(x) > 0:\n        r = a30\n"
            "    return r\n")
    findings(code)
    assert 0 < len(calls) < 200, len(calls)


def test_one_slot_selection_keeps_every_value_exact():
    """`x.at[k].set(jnp.where(c, v, x[k]))` promotes `v` and `x[k]` together: for an int64 array given a float, the
    slots left would be rounded through float64 (2**60 + 1 came back 2**60), so `lax.cond` stays; an array of floats
    adds -0.0 where a branch does not add (0 would turn a -0.0 slot into +0.0; code review)."""
    ints = ("import jax.numpy as jnp\n\ndef f(t):\n    x = jnp.full(len(t), 2**60 + 1, dtype=jnp.int64)\n"
            "    for k in range(len(t)):\n        if t[k] > 0:\n            x = x.at[k].set(0.5)\n    return x\n")
    assert "lax.cond" in migrate(ints) and "jnp.where" not in migrate(ints)
    floats = ("import jax.numpy as jnp\n\ndef g(t, w):\n    x = jnp.zeros(len(t)) * -1.0\n    for k in range(len(t)):\n"
              "        if w > t[k]:\n            x = x.at[k].add(w)\n    return x\n")
    out = migrate(floats)
    assert "x = x.at[k].add(jnp.where(w > t[k], w, -0.0))" in out, out
    namespace: dict = {}
    exec(compile(out, "g", "exec"), namespace)
    import numpy as np

    got = np.asarray(namespace["g"](np.array([1.0, -1.0]), 0.5))
    assert got[1] == 0.5 and got[0] == 0.0 and np.signbit(got[0])


def _kept_for_identity_test(tmp_path, name, kept, caller, rules, message=None):
    """Migrate a package of `kept` (its module `name`) and a `caller` module: `kept` stays as it is (its result is
    compared by identity with a Python bool), with `message` among the findings; the package folder."""
    from tests.codemods.test_numpy_namespace import _package

    pkg, files = _package(tmp_path, "mc", {name: kept, "chains.py": caller})
    results = run_files(files, rules, RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert (pkg / name).read_text() == kept
    messages = [f.message for r in results for f in r.findings]
    assert message is None or any(message in m for m in messages), messages
    return pkg


def test_a_result_compared_with_true_in_another_module_keeps_the_if(tmp_path):
    # pymcmcstat: `ParallelMCMC` tests `is_sample_outside_bounds(...) is True`, a function of another module; as
    # `jnp.where(...)` (or the condition itself) the result is an array, never `True`: the check silently passes
    bounds = ("import numpy as np\n\ndef beyond(x, top):\n    if np.max(x) > top:\n        over = True\n    else:\n"
              "        over = False\n    return over\n")
    caller = ("from .bounds import beyond\n\ndef accept(x, top):\n    hit = beyond(x, top)\n"
              "    return 'no' if hit is True else 'yes'\n")
    pkg = _kept_for_identity_test(tmp_path, "bounds.py", bounds, caller, [TracedIf],
                                  "another module of the run compares what this returns by identity")
    # alone, nothing needs a Python bool: the flag is the condition
    alone = run_files([str(pkg / "bounds.py")], [TracedIf], RunOptions(fix=True, write=False), jobs=1)
    assert "over = np.max(x) > top" in alone[0].fixed


def test_an_unpacked_result_compared_with_true_in_another_module_keeps_the_if(tmp_path):
    # `hit, w = outside(x, lo, hi)`, then `hit is True`: an item of the returned tuple must stay a Python bool
    limits = ("import numpy as np\n\ndef outside(x, lo, hi):\n    w = np.sum(x)\n"
              "    if np.any(x < lo) or np.any(x > hi):\n        return True, w\n    return False, w\n")
    caller = ("from .limits import outside\n\ndef accept(x, lo, hi):\n    hit, w = outside(x, lo, hi)\n"
              "    if hit is True:\n        return 0.0\n    return w\n")
    _kept_for_identity_test(tmp_path, "limits.py", limits, caller, all_rules(), "compares what this returns by identity")


def test_a_result_compared_with_true_in_another_module_through_a_walrus_or_an_item_keeps_the_if(tmp_path):
    # the code review's `(r := clipped(v, top)) is True` and `r = clipped(v, top)`, `r[0] is True` of `return hit, v`
    bounds = ("import numpy as np\n\ndef beyond(x, top):\n    if np.max(x) > top:\n        over = True\n    else:\n"
              "        over = False\n    return over, x\n\ndef under(x, low):\n    if np.min(x) < low:\n"
              "        below = True\n    else:\n        below = False\n    return below\n")
    caller = ("from .bounds import beyond, under\n\ndef accept(x, top):\n    res = beyond(x, top)\n"
              "    return 'no' if res[0] is True else 'yes'\n\ndef keep(x, low):\n"
              "    if (u := under(x, low)) is not False:\n        return u\n    return x\n")
    _kept_for_identity_test(tmp_path, "bounds.py", bounds, caller, [TracedIf])
