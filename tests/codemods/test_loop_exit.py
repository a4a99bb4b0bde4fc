"""Edge cases for JX223 loop-exit: no-change cases first, then rewrites, then refusals."""

import textwrap

import pytest

from codemods.loop_exit import LoopExit
from jaxfix.testing.examples import run_rule


def migrate(code: str) -> str:
    return run_rule(LoopExit, textwrap.dedent(code), fix=True).fixed


NOOP = [
    pytest.param("def f(x):\n    for i in range(8):\n        if i == 3:\n            break\n        x = x + i\n    return x\n", id="static-condition"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        if x[i] > 0:\n            x = x + 1\n        else:\n            break\n    return x\n", id="jump-in-else"),
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
        "def f(x, t):\n    while True:\n        x = x * 0.5\n        if x < t or x > 9:\n            break\n    return x\n",
        "def f(x, t):\n    done = False\n    while not done:\n        x = x * 0.5\n        if x < t or x > 9:\n            done = True\n    return x\n",
        id="while-true",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


def test_index_read_after_break_is_reported_not_rewritten():
    code = "def f(x, n):\n    i = 0\n    for i in range(n):\n        if x[i] > 0:\n            break\n    return i\n"
    outcome = run_rule(LoopExit, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [4] and "read after the loop" in outcome.findings[0].message


def test_early_return_becomes_a_carried_result():
    code = "def f(x, n):\n    for i in range(n):\n        if x[i] < 0:\n            return i\n    return -1\n"
    expected = (
        "def f(x, n):\n    result = -1\n    done = False\n    for i in range(n):\n        if not done:\n            if x[i] < 0:\n"
        "                result = i\n                done = True\n    return result\n"
    )
    assert migrate(code) == expected


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("def f(x, n):\n    for i in range(n):\n        x = x * 2\n        if x[0] < 0:\n            return i\n    return x\n", id="final-depends-on-loop"),
        pytest.param("def f(x, n):\n    for i in range(n):\n        if x[i] < 0:\n            return i\n    return g(x)\n", id="final-calls"),
        pytest.param("def f(x, n):\n    for i in range(n):\n        if x[i] < 0:\n            return i\n    y = 1\n    return y\n", id="not-followed-by-return"),
    ],
)
def test_early_return_left_when_result_cannot_start_before_the_loop(code):
    assert migrate(code) == code
