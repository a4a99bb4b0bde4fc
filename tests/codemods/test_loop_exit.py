"""Edge cases for JX223 loop-exit: no-change cases first, then rewrites, then refusals."""

import textwrap

import pytest

from codemods.loop_exit import LoopExit
from jaxfix.testing.examples import run_rule


def migrate(code: str) -> str:
    return run_rule(LoopExit, textwrap.dedent(code), fix=True).fixed


NOOP = [
    pytest.param("def f(x):\n    for i in range(8):\n        if i == 3:\n            break\n        x = x + i\n    return x\n", id="static-condition"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        if x[i] > 0:\n            break\n    else:\n        x = -x\n    return x\n", id="for-else"),
    pytest.param("def f(xs, s):\n    for x in xs:\n        if x < 0: continue\n        s = s * x\n    return s\n", id="one-line-if-not-handled"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        for j in range(n):\n            if x[j] > 0:\n                break\n    return x\n", id="inner-loop-only-is-its-own"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    # (the inner loop of the last case is rewritten on its own: only the outer loop must not be)
    out = migrate(code)
    assert out == textwrap.dedent(code) or "for i in range(n):\n        done = False" in out


REWRITES = [
    pytest.param(
        "def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] > 5:\n            s = -s\n            break\n        if x[i] < 0:\n            continue\n"
        "        s = s + x[i]\n    return s\n",
        "def f(x, n):\n    s = 0.0\n    done = False\n    for i in range(n):\n        if not done:\n            if x[i] > 5:\n                s = -s\n"
        "                done = True\n            else:\n                if not (x[i] < 0):\n                    s = s + x[i]\n    return s\n",
        id="break-then-continue",
    ),
    pytest.param(
        "def f(x, t, n):\n    idx = 0\n    for i in range(n):\n        if x[i] > t:\n            idx = i\n            break\n"
        "        if x[i] < -t:\n            idx = -i\n            break\n    return idx\n",
        "import jax.numpy as jnp\n\ndef f(x, t, n):\n    idx = 0\n    done = False\n    for i in range(n):\n"
        "        hit = jnp.logical_and(jnp.logical_not(done), x[i] > t)\n        idx = jnp.where(hit, i, idx)\n"
        "        done = done | hit\n        hit_2 = jnp.logical_and(jnp.logical_not(done), x[i] < -t)\n"
        "        idx = jnp.where(hit_2, -i, idx)\n        done = done | hit_2\n    return idx\n",
        id="two-breaks-read-as-hit-flags",
    ),
    pytest.param(
        "def f(x, t, n):\n    s = 0.0\n    for i in range(n):\n        d = x[i] - t\n        if d > 0:\n            break\n"
        "        s = s + d\n    return s\n",
        "import jax.numpy as jnp\n\ndef f(x, t, n):\n    s = 0.0\n    done = False\n    for i in range(n):\n        d = x[i] - t\n"
        "        hit = jnp.logical_and(jnp.logical_not(done), d > 0)\n        done = done | hit\n        if not done:\n"
        "            s = s + d\n    return s\n",
        id="temporary-before-the-jump-not-guarded",
    ),
    pytest.param(
        "def g(v):\n    return v * 2\n\ndef f(x, t, n):\n    s = 0.0\n    for i in range(n):\n        d = g(x[i])\n        if d > t:\n            break\n"
        "        s = s + d\n    return s\n",
        "import jax.numpy as jnp\n\ndef g(v):\n    return v * 2\n\ndef f(x, t, n):\n    s = 0.0\n    done = False\n    for i in range(n):\n        if not done:\n"
        "            d = g(x[i])\n        hit = jnp.logical_and(jnp.logical_not(done), d > t)\n        done = done | hit\n"
        "        if not done:\n            s = s + d\n    return s\n",
        id="call-before-the-jump-stays-guarded",
    ),
    pytest.param(
        "def f(x, t):\n    while True:\n        x = x * 0.5\n        if x < t or x > 9:\n            break\n    return x\n",
        "def f(x, t):\n    done = False\n    while not done:\n        x = x * 0.5\n        if x < t or x > 9:\n            done = True\n    return x\n",
        id="while-true",
    ),
]


NESTED = [
    pytest.param(
        "def f(x, n):\n    for i in range(n):\n        if x[i] > 0:\n            x = x + 1\n        else:\n            break\n    return x\n",
        "def f(x, n):\n    done = False\n    for i in range(n):\n        if not done:\n            if x[i] > 0:\n                x = x + 1\n"
        "            else:\n                done = True\n    return x\n",
        id="break-in-else",
    ),
    pytest.param(
        "def f(x, lo, hi):\n    idx = -1\n    for i in range(x.shape[0]):\n        if x[i] > lo:\n            if x[i] < hi:  # in band\n"
        "                idx = i\n                break\n            idx = -2\n        x = x * 1.0\n    return idx\n",
        "def f(x, lo, hi):\n    idx = -1\n    done = False\n    for i in range(x.shape[0]):\n        if not done:\n            if x[i] > lo:\n"
        "                if x[i] < hi:  # in band\n                    idx = i\n                    done = True\n                if not done:\n"
        "                    idx = -2\n            if not done:\n                x = x * 1.0\n    return idx\n",
        id="break-under-two-ifs-rest-guarded-at-each-level",
    ),
    pytest.param(
        "def f(x, t):\n    while x > 1:\n        x = x / 2\n        if x < 3:\n            if x < t:\n                return x\n        else:\n"
        "            x = x - 1; break  # give up\n    return -x\n",
        "import jax\n\ndef f(x, t):\n    result = x\n    done = False\n    while not done and x > 1:\n        x = x / 2\n        if x < 3:\n"
        "            if x < t:\n                result = x\n                done = True\n        else:\n            x = x - 1\n"
        "            done = True  # give up\n    return jax.lax.cond(done, lambda: result, lambda: -x)\n",
        id="while-return-and-break-in-nested-blocks",
    ),
]


@pytest.mark.parametrize("code, expected", NESTED)
def test_nested_jumps_are_guarded_at_every_level(code, expected):
    assert migrate(code) == expected


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


def test_index_read_after_break_is_reported_not_rewritten():
    code = "def f(x, n):\n    i = 0\n    for i in range(n):\n        if x[i] > 0:\n            break\n    return i\n"
    outcome = run_rule(LoopExit, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [4] and "read after the loop" in outcome.findings[0].message


def test_index_read_after_break_is_reported_not_rewritten():
    code = "def f(x, n):\n    i = 0\n    for i in range(n):\n        if x[i] > 0:\n            break\n    return i\n"
    outcome = run_rule(LoopExit, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [4] and "read after the loop" in outcome.findings[0].message


EARLY_RETURNS = [
    pytest.param(
        "def f(x, t):\n    for i in range(x.shape[0]):\n        if x[i] > t:\n            return i\n    return -1\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    result = -1\n    done = False\n    for i in range(x.shape[0]):\n"
        "        hit = jnp.logical_and(jnp.logical_not(done), x[i] > t)\n        result = jnp.where(hit, i, result)\n"
        "        done = done | hit\n    return result\n",
        id="final-independent-starts-the-result",
    ),
    pytest.param(
        "def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] > 5:\n            return s\n        s = s + 1.0\n    return s * 2\n",
        "import jax.numpy as jnp\n\ndef f(x, n):\n    s = 0.0\n    result = s\n    done = False\n    for i in range(n):\n"
        "        hit = jnp.logical_and(jnp.logical_not(done), x[i] > 5)\n        result = jnp.where(hit, s, result)\n"
        "        done = done | hit\n        if not done:\n            s = s + 1.0\n    return jnp.where(done, result, s * 2)\n",
        id="final-depends-same-shape-where",
    ),
    pytest.param(
        "def f(x, t):\n    s = 0.0\n    for i in range(x.shape[0]):\n        if x[i] > t:\n            return s\n        s += x[i]\n"
        "    return s * 2\n",
        "import jax\n\ndef f(x, t):\n    s = 0.0\n    result = s\n    done = False\n    for i in range(x.shape[0]):\n"
        "        if not done:\n            if x[i] > t:\n                result = s\n                done = True\n            else:\n"
        "                s += x[i]\n    return jax.lax.cond(done, lambda: result, lambda: s * 2)\n",
        id="final-depends-shape-unproved-cond",  # s += x[i] may turn the float into a row of a 2-D x
    ),
    pytest.param(
        "def f(x, t, a, b):\n    for i in range(a, b):\n        x = x * 0.5\n        if x[0] > t:\n            return i + 1\n"
        "    return g(x)\n",
        "import jax\n\ndef f(x, t, a, b):\n    result = a + 1\n    done = False\n    for i in range(a, b):\n        if not done:\n"
        "            x = x * 0.5\n            if x[0] > t:\n                result = i + 1\n                done = True\n"
        "    return jax.lax.cond(done, lambda: result, lambda: g(x))\n",
        id="index-starts-at-range-start-and-final-calls",
    ),
    pytest.param(
        "def f(x, t):\n    while x > 1:\n        x = x / 2\n        if x < t:\n            return x\n    return -x\n",
        "import jax\n\ndef f(x, t):\n    result = x\n    done = False\n    while not done and x > 1:\n        x = x / 2\n"
        "        if x < t:\n            result = x\n            done = True\n    return jax.lax.cond(done, lambda: result, lambda: -x)\n",
        id="while",
    ),
]


@pytest.mark.parametrize("code, expected", EARLY_RETURNS)
def test_early_return_becomes_a_carried_result(code, expected):
    assert migrate(code) == expected


REFUSALS = [
    pytest.param("def f(x, n):\n    for i in range(n):\n        for j in range(n):\n            if x[j] > 0:\n                try:\n                    return j\n                finally:\n                    pass\n    return -1\n", 6, "nested deeper", id="return-in-try"),
    pytest.param("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] > 0:\n            s = s + 1\n            if s > 3:\n                continue\n            s = s * 2\n    return s\n", 7, "nested deeper", id="continue-under-two-ifs"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        if x[i] > 0:\n            break\n    else:\n        x = -x\n    return x\n", 4, "`else` block", id="for-else"),
    pytest.param("def f(xs, s):\n    for x in xs:\n        if x < 0: continue\n        s = s * x\n    return s\n", 3, "nested deeper", id="one-line-if"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        if x[i] < 0:\n            return i\n    y = 1\n    return y\n", 4, "not directly followed", id="return-not-followed-by-return"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        x = x * 2\n        if x[0] < 0:\n            return x[i]\n    return x\n", 5, "starting value", id="early-value-indexes"),
    pytest.param("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        t = x[i] * 2\n        if t < 0:\n            return t\n        s = s + t\n    return s\n", 6, "starting value", id="early-value-defined-in-the-body"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        for j in range(n):\n            if x[j] > x[i]:\n                return j\n    return -1\n", 5, "nested deeper", id="return-in-inner-loop-reported-once"),
]


@pytest.mark.parametrize("code, line, reason", REFUSALS)
def test_jump_that_cannot_be_guarded_is_reported_at_its_line(code, line, reason):
    outcome = run_rule(LoopExit, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [line]
    assert reason in outcome.findings[0].message


def test_refusal_fixture_reports_each_jump_at_its_line():
    import os

    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules
    from jaxfix.types import RunOptions

    path = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "loop_exit", "refusals.before.py")
    code = open(path, encoding="utf-8").read()
    outcome = process_source("refusals.py", code, all_rules(), RunOptions())
    assert sorted(f.line for f in outcome.findings if f.code == "JX223") == [11, 21, 32, 40]


def test_continue_in_a_loop_that_calls_unknown_code_stays_a_safe_fix():
    # `continue` becomes an exact `if not`: only a `for` loop's flag changes how long a Python loop runs
    code = "def f(x, n, log):\n    s = 0.0\n    for i in range(n):\n        log(s)\n        if x[i] < 0:\n            continue\n        s = s + x[i]\n    return s\n"
    assert "if not (x[i] < 0):" in migrate(code)


def test_a_skipped_walrus_test_keeps_its_parentheses():
    # `if not (w := v.sum()): continue` is guarded by `if (w := v.sum()):`, not by `w := v.sum()` (which does not parse)
    code = ("import jax.numpy as jnp\n\ndef f(x, n):\n    s = 0.0\n    for i in range(n):\n        v = jnp.abs(x[i])\n"
            "        if not (w := v.sum()):\n            continue\n        s = s + w\n    return s\n")
    result = run_rule(LoopExit, code, fix=True)
    assert "(w := v.sum())" in result.fixed
    compile(result.fixed, "<fixed>", "exec")
