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
