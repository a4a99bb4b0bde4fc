"""Known answers for the loop facts: loop-carried variables, body obstacles, appends, static uses of the index."""

import textwrap

import libcst as cst
import pytest

from jaxfix.analysis.dataflow import FunctionFlow
from jaxfix.analysis.loops import appends, body_obstacles, body_statements, loop_carried, static_index_uses


def first_loop(code: str):
    module = cst.parse_module(textwrap.dedent(code))
    fn = next(s for s in module.body if isinstance(s, cst.FunctionDef))
    loop = next(s for s in fn.body.body if isinstance(s, (cst.For, cst.While)))
    return FunctionFlow(fn), loop


@pytest.mark.parametrize(
    "code, expected",
    [
        # `t` is rebound every iteration before it is read and is dead after: a temporary, not carried
        ("def f(x, n):\n    s = 0\n    for i in range(n):\n        t = x[i] * 2\n        s = s + t\n    return s\n", ("s",)),
        # `a, b` read before written: carried; `w` only read: invariant
        ("def f(w, n):\n    a, b = 0, 1\n    for i in range(n):\n        a, b = b, a + w * b\n    return a\n", ("a", "b")),
        # `last` is only written in the body but live after the loop: carried
        ("def f(x, n):\n    last = 0.0\n    for i in range(n):\n        last = x[i]\n    return last\n", ("last",)),
        # written, never read later: not carried
        ("def f(x, n):\n    for i in range(n):\n        y = x[i]\n    return x\n", ()),
        # while: the test reads `err`, so it is live at the header
        ("def f(x, tol):\n    err = 1.0\n    while err > tol:\n        x = x / 2\n        err = x * x\n    return x\n", ("x", "err")),
    ],
)
def test_loop_carried(code, expected):
    flow, loop = first_loop(code)
    assert loop_carried(flow, loop) == expected


def test_obstacles_and_appends():
    code = (
        "def f(x, it, n):\n    out = []\n    for i in range(n):\n        v = next(it)\n        x[i] = v\n"
        "        out.append(v)\n        for j in range(3):\n            break\n        if v:\n            continue\n    return out\n"
    )
    _, loop = first_loop(code)
    body = body_statements(loop)
    (stmt, name, value), = appends(body)
    assert name == "out" and cst.Module([]).code_for_node(value) == "v"
    reasons = [reason for _, reason in body_obstacles(body, [stmt.body[0].value])]
    assert len(reasons) == 3  # next(...), x[i] = v, continue (the nested loop's break is its own)
    assert "next" in reasons[0] and "in-place" in reasons[1] and "continue" in reasons[2]
    assert any("appended" in reason for _, reason in body_obstacles(body))


@pytest.mark.parametrize(
    "line, found",
    [("y = x[i] + x[i - 1]", ""), ("y = x[:i]", "a slice bound"), ("y = sum(range(i))", "`range(...)`"), ("y = int(i) + 1", "`int(...)`")],
)
def test_static_index_uses(line, found):
    _, loop = first_loop(f"def f(x, n):\n    for i in range(n):\n        {line}\n")
    assert static_index_uses(body_statements(loop), "i") == found


def test_shared_inplace_updates_and_targets():
    from jaxfix.analysis.loops import shared_inplace_updates, target_names

    flow, loop = first_loop(
        "def f(a, x, n):\n    b = x\n    c = x * 1.0\n    for i, (p, q) in enumerate(x):\n        a += 1\n        b += 1\n        c += 1\n    return a, b, c\n"
    )
    assert shared_inplace_updates(flow, loop) == ["a", "b"]  # `c` is a fresh array
    assert target_names(loop) == {"i", "p", "q"}


def test_precheck_finds_loops_only_inside_functions():
    import ast

    from jaxfix.analysis.loops import loops_in_functions

    assert loops_in_functions(ast.parse("def f(x):\n    while x:\n        x = 0\n"), "")
    assert not loops_in_functions(ast.parse("for i in range(3):\n    pass\ndef f(x):\n    return [v for v in x]\n"), "")


def test_own_jumps_leave_inner_loops_alone_but_not_returns():
    from jaxfix.analysis.loops import own_jumps

    _, loop = first_loop(
        "def f(x, n):\n    for i in range(n):\n        for j in range(n):\n            if x[j]:\n                break\n"
        "            if x[i]:\n                return j\n        if x[i] < 0:\n            continue\n    return 0\n"
    )
    assert [type(j).__name__ for j in own_jumps(body_statements(loop))] == ["Return", "Continue"]


@pytest.mark.parametrize(
    "values, same",
    [
        (["s", "s * 2", "-s + 1"], True),
        (["i", "-1", "x.shape[0] - 1", "len(x)"], True),
        (["s", "t"], False),
        (["s", "x[i]"], False),
        (["s / 2", "s"], False),
    ],
)
def test_same_shape_is_a_proof(values, same):
    from jaxfix.analysis.loop_values import same_shape

    assert same_shape([cst.parse_expression(v) for v in values], frozenset({"i"}), frozenset()) is same


def test_reshaped_and_scalar_names():
    from jaxfix.analysis.loop_values import reshaped_names, scalar_names

    code = (
        "def f(x, n, p):\n    k = 0\n    s = 0.0\n    for i in range(n):\n        s += x[i]\n        t = s * 2\n"
        "        k = k + 1\n        m = i - 1\n        p = p * 0.5\n    return s, k, m, p\n"
    )
    flow, loop = first_loop(code)
    # `s += x[i]` may turn the float into a row; `m = i - 1` is not read as 0-d here (conservative)
    assert reshaped_names(body_statements(loop)) == {"s", "t", "m"}
    assert scalar_names(flow.function, loop) == {"k", "i", "m"}  # parameters never


@pytest.mark.parametrize(
    "code, found",
    [
        ("def f(a, b, h):\n    ws = [a, b]\n    for i in range(len(ws)):\n        h = ws[i] @ h\n    return h\n", ("ws", True)),
        ("def f(ws: list[int], h, n):\n    for i in range(n):\n        h = ws[i] * h\n    return h\n", ("ws", True)),
        ("def f(cs, t):\n    for j in range(len(cs)):\n        t = t * cs[j]\n    return t\n", ("cs", False)),
        ("def f(cs, t):\n    for j in range(len(cs)):\n        t = t * cs[j]\n    return t * cs.shape[0]\n", None),
        ("def f(x, t, n):\n    for j in range(n):\n        t = t * x[j]\n    return t\n", None),
    ],
)
def test_indexed_sequence(code, found):
    from jaxfix.analysis.loop_values import indexed_sequence
    from jaxfix.analysis.tracedness import FunctionTracedness

    flow, loop = first_loop(code)
    analysis = FunctionTracedness(flow.function, frozenset(), None)
    stop = loop.iter.args[-1].value if len(loop.iter.args) > 1 else loop.iter.args[0].value
    assert indexed_sequence(analysis, flow.function, body_statements(loop), "i" if "for i" in code else "j", stop) == found
