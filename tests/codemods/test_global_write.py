"""Edge cases for JX504 global-write: no-change cases first, then the writes it reports (never fixed)."""

import textwrap

import pytest

from codemods.global_write import GlobalWrite
from jaxfix.testing.examples import run_rule


def findings(code: str):
    outcome = run_rule(GlobalWrite, textwrap.dedent(code), fix=True, unsafe=True)
    assert outcome.fixed == textwrap.dedent(code), "JX504 never rewrites"
    return [(f.line, f.message) for f in outcome.findings]


NOOP = [
    pytest.param("LOG = []\nLOG.append(1)\n", id="module-level-write"),
    pytest.param("SCALE = 2.0\ndef f(x):\n    return x * SCALE\n", id="read-only-constant"),
    pytest.param("def f(x, acc):\n    acc.append(x)\n    acc[0] = x\n    return x\n", id="parameter-mutation-is-JX1"),
    pytest.param("buf = []\ndef f(x):\n    buf = []\n    buf.append(x)\n    return buf\n", id="local-shadows-global"),
    pytest.param("import numpy as np\ndef f(x):\n    np.seterr(all='ignore')\n    return x\n", id="imported-module"),
    pytest.param("N = 1\ndef f(x):\n    global N\n    return x * N\n", id="global-declared-but-only-read"),
    pytest.param("D = {}\ndef f(x):\n    return D.get('k', x)\n", id="non-mutating-method"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert findings(code) == []


REPORTED = [
    pytest.param("T = 0\ndef f(x):\n    global T\n    T = x\n    return x\n", 3, "global `T`", id="global-assign"),
    pytest.param("S = set()\ndef f(x):\n    S.add(1)\n    return x\n", 3, "`S`", id="set-add"),
    pytest.param("class C:\n    n = 0\nC_ = C()\ndef f(x):\n    C_.n += 1\n    return x\n", 5, "`C_`", id="attribute-augassign"),
    pytest.param("M = {1: 2}\ndef f(x):\n    del M[1]\n    return x\n", 3, "`M`", id="del-item"),
    pytest.param("L = []\ndef f(x):\n    if x.ndim:\n        L.extend(\n            [x])\n    return x\n", 4, "tracer", id="nested-multiline"),
]


@pytest.mark.parametrize("code, line, text", REPORTED)
def test_reported(code, line, text):
    got = findings(code)
    assert [g[0] for g in got] == [line]
    assert text in got[0][1]
