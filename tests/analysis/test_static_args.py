"""Known answers for static-argument inference (jaxfix/analysis/static_args.py) and the tracedness seeds it feeds."""

import textwrap

import libcst as cst

from jaxfix.analysis.static_args import concrete_uses, value_reads
from jaxfix.analysis.tracedness import FunctionTracedness, Tracedness


def function(code: str) -> cst.FunctionDef:
    return next(s for s in cst.parse_module(textwrap.dedent(code)).body if isinstance(s, cst.FunctionDef))


def test_shapes_slices_keywords_and_derived_locals():
    fn = function(
        """
        def f(x, n, m, k, a, i, t):
            z = jnp.zeros((n, 2))
            head = x[:m]
            q = 2 * k
            w = jnp.ones(q)
            s = x.sum(axis=a)
            v = x[i] + t
            r = x.reshape(x.shape[0] // 2, -1)
            return z, head, w, s, v, r
        """
    )
    uses = concrete_uses(fn)
    assert set(uses) == {"n", "m", "k", "a"}
    assert uses["k"][0].reason == "a shape or size argument of `jnp.ones`"
    assert uses["m"][0].reason == "a slice bound"


def test_loop_bounds_only_when_the_loop_stays_python():
    fn = function(
        """
        def f(x, kept, carried, sliced):
            out = []
            for i in range(kept):
                out.append(x[i])
            for j in range(carried):
                x = x * 2
            for s in range(sliced):
                x = x[: s + 1]
            return out, x
        """
    )
    assert set(concrete_uses(fn)) == {"kept", "sliced"}


def test_callee_static_arguments():
    fn = function("def f(x, n, y):\n    return g(x, n) + g(y, size=3)\n")
    uses = concrete_uses(fn, {"g": (["a", "size"], {"size"})})
    assert set(uses) == {"n"} and "static argument `size` of `g`" in uses["n"][0].reason


def test_value_reads_skip_metadata():
    expr = cst.parse_expression("x.shape[0] + len(y) + z.ndim * w")
    assert value_reads(expr) == {"w"}


def test_tracedness_seeds_concrete_uses_and_flags_static():
    fn = function(
        """
        def f(x, n, flat, verbose, scale, w):
            if flat:
                x = x.reshape(-1)
            if not verbose and n > 2:
                x = x[:n]
            if w:
                x = x * w
            return x * scale
        """
    )
    table = FunctionTracedness(fn, frozenset(), None).variables()
    assert table["n"] is Tracedness.STATIC  # a slice bound
    assert table["flat"] is Tracedness.STATIC and table["verbose"] is Tracedness.STATIC  # bare truth tests only
    assert table["w"] is Tracedness.TRACED  # also used as data
    assert table["scale"] is Tracedness.TRACED and table["x"] is Tracedness.TRACED


def test_assigned_values():
    fn = function("def f(x, n):\n    ok = x > 0\n    ok = ok & (x < 1)\n    s = 0\n    s += x\n    for i in x:\n        pass\n    return ok\n")
    analysis = FunctionTracedness(fn, frozenset(), None)
    assert [cst.Module([]).code_for_node(v) for v in analysis.assigned_values("ok")] == ["x > 0", "ok & (x < 1)"]
    assert analysis.assigned_values("s")[1] is None and analysis.assigned_values("i") == [None]
    assert analysis.assigned_values("x") == []


def test_condition_of_a_while_loop_whose_arrays_change_shape():
    """A `while` loop that grows arrays (`np.vstack`, `np.unique`, a list's `append`) stays a Python loop, so its
    condition must be concrete: the parameters it reads, directly or through a counter, are static (pymoo's
    check_n_points); not where the condition reads an array value, or where the body keeps its shapes."""
    grows = function(
        """
        def f(x, n_points, n_dim):
            W = np.zeros((1, n_dim))
            while len(W) < n_points:
                W = np.vstack((W + 1, x))
            return W
        """
    )
    assert set(concrete_uses(grows)) == {"n_dim", "n_points"}
    assert "while" in concrete_uses(grows)["n_points"][0].reason
    counted = function(
        """
        def f(x, n, tol):
            out = []
            i = 0
            while i < n // 2:
                out.append(x * i)
                i += 1
            return out
        """
    )
    assert set(concrete_uses(counted)) == {"n"}
    masked = function("def f(e, n):\n    while len(e) > n:\n        e = e[np.any(e == 0, axis=1)]\n    return e\n")
    assert set(concrete_uses(masked)) == {"n"}
    for body in ("err = np.abs(x).max()\nwhile err > tol:\n    x = np.unique(x)\n    err = np.abs(x).max()",
                 "i = 0\nwhile i < n:\n    x = x * 2\n    i += 1",
                 "out = []\nwhile n > tol:\n    n /= 2\n    out.append(n)"):
        code = "def f(x, n, tol):\n" + textwrap.indent(body, "    ") + "\n    return x\n"
        assert concrete_uses(function(code)) == {}, body


def test_a_branch_on_such_a_parameter_stays_python():
    """`if len(W) == n_points: return [i]` after such a loop compares concrete values: it stays an `if` (it became a
    `lax.cond` turning the returned Python ints into arrays, safe fix)."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules
    from jaxfix.types import RunOptions

    code = (
        "import numpy as np\n\n\ndef f(x, n_points):\n    W = np.zeros((1, 2))\n    i = 0\n    while len(W) < n_points:\n"
        "        W = np.unique(np.vstack((W + 1, x)), axis=0)\n        i += 1\n    if len(W) == n_points:\n"
        "        return [i]\n    return [len(W), i]\n"
    )
    fixed = process_source("w.py", code, all_rules(), RunOptions(fix=True)).fixed
    assert "    if len(W) == n_points:\n        return [i]\n    return [len(W), i]\n" in fixed and "lax" not in fixed
