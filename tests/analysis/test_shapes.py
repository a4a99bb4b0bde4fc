"""Known answers for the shape classes (0-d, like(v), unknown) and for what an `if` test proves."""

import textwrap

import libcst as cst
import pytest

from jaxfix.analysis.dataflow import FunctionFlow
from jaxfix.analysis.shapes import FunctionShapes, array_modules, math_modules

HEADER = "import math\nimport numpy as np\nimport jax.numpy as jnp\nfrom numpy import pi, sqrt\n"


def analyse(code: str) -> tuple[FunctionShapes, cst.FunctionDef]:
    module = cst.parse_module(HEADER + textwrap.dedent(code))
    fn = next(s for s in module.body if isinstance(s, cst.FunctionDef))
    return FunctionShapes(fn, FunctionFlow(fn), array_modules(module), math_modules(module)), fn


def assigned(fn: cst.FunctionDef, name: str) -> cst.Assign:
    found = []

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.targets[0].target, cst.Name) and node.targets[0].target.value == name:
                found.append(node)

    fn.visit(Visitor())
    return found[-1]


def short(shape) -> str:
    return {"0-d": "0-d", "unknown": "?"}.get(shape.kind) or f"like {shape.ref.name}" + "[0]" * shape.drop


def shape_of(body: str, params: str = "x, t") -> str:
    """The class of the value assigned to `out` in the last line of `body` (a function of `params`)."""
    shapes, fn = analyse(f"def f({params}):\n" + textwrap.indent(textwrap.dedent(body), "    "))
    return short(shapes.of(assigned(fn, "out").value))


CASES = [
    # 0-d values
    pytest.param("out = 2.5", "0-d", id="float-literal"),
    pytest.param("out = -3", "0-d", id="negative-int"),
    pytest.param("out = True", "0-d", id="bool-literal"),
    pytest.param("out = float(x)", "0-d", id="float-call"),
    pytest.param("out = len(x)", "0-d", id="len"),
    pytest.param("out = x.sum()", "0-d", id="method-reduction"),
    pytest.param("out = x.mean(dtype=np.float64)", "0-d", id="reduction-dtype-keyword"),
    pytest.param("out = np.mean(x)", "0-d", id="np-reduction"),
    pytest.param("out = jnp.max(x)", "0-d", id="jnp-reduction"),
    pytest.param("out = np.linalg.norm(x)", "0-d", id="norm"),
    pytest.param("out = x.item()", "0-d", id="item"),
    pytest.param("out = x.size * 2.0", "0-d", id="size-arithmetic"),
    pytest.param("out = np.sqrt(x.sum()) + 1", "0-d", id="ufunc-of-0d"),
    pytest.param("s = x.sum()\nout = s / 2", "0-d", id="followed-local"),
    pytest.param("out = np.pi * 2 + jnp.inf - pi", "0-d", id="numpy-constants"),
    pytest.param("out = math.sqrt(t) + math.pi", "0-d", id="math-module"),
    pytest.param("s = x.max()\nfor i in range(3):\n    s = s * 0.5\nout = s", "0-d", id="0d-through-loop"),
    pytest.param("s = x.max()\nfor i in range(3):\n    s = s + x\nout = s", "like s", id="array-update-in-loop"),
    # the shape of a variable
    pytest.param("out = x", "like x", id="name"),
    pytest.param("out = -x", "like x", id="negation"),
    pytest.param("out = abs(x)", "like x", id="abs"),
    pytest.param("out = x.copy()", "like x", id="copy"),
    pytest.param("out = x.astype(np.float32)", "like x", id="astype"),
    pytest.param("out = np.zeros_like(x)", "like x", id="zeros-like"),
    pytest.param("out = np.full_like(x, 2.0)", "like x", id="full-like"),
    pytest.param("out = np.asarray(x * 2, t.dtype)", "like x", id="asarray-with-a-positional-dtype"),
    pytest.param("out = np.zeros_like(x, t.dtype)", "like x", id="zeros-like-with-a-positional-dtype"),
    pytest.param("out = np.full_like(x, t)", "?", id="full-like-with-an-array-fill"),
    pytest.param("out = 3.0 * x ** 2 - x / t.sum()", "like x", id="arithmetic-with-0d"),
    pytest.param("out = np.maximum(x, 0.0)", "like x", id="binary-ufunc"),
    pytest.param("out = sqrt(x)", "like x", id="from-numpy-import"),
    pytest.param("out = np.arctan(t / x) + np.pi", "?", id="two-arrays-plus-pi"),
    pytest.param("out = np.arctan(x / 2) + np.pi", "like x", id="array-plus-pi"),
    pytest.param("out = np.clip(x, 0, 1) > 0.5", "like x", id="comparison"),
    pytest.param("y = x * 2\nout = y + x", "like x", id="followed-elementwise"),
    pytest.param("y = x * 2\ny += 1\nout = y", "like x", id="followed-augmented"),
    pytest.param("out = x[0] * 2", "like x[0]", id="int-index"),
    pytest.param("out = x[-1, 2]", "like x[0][0]", id="two-int-indices"),
    # unknown
    pytest.param("out = x[1:]", "?", id="slice"),
    pytest.param("out = x[t]", "?", id="index-by-a-name"),
    pytest.param("out = x.T", "?", id="transpose"),
    pytest.param("out = x.sum(axis=0)", "?", id="axis-reduction"),
    pytest.param("out = np.sum(x, 0)", "?", id="positional-axis"),
    pytest.param("out = x @ x", "?", id="matmul"),
    pytest.param("out = x + t", "?", id="two-unrelated-arrays"),
    pytest.param("out = x.reshape(-1)", "?", id="reshape"),
    pytest.param("out = g(x)", "?", id="unknown-call"),
    pytest.param("out = np.where(x > 0, x, 0.0)", "like x", id="three-argument-where"),
    pytest.param("out = np.where(x > 0)", "?", id="one-argument-where-gives-indices"),
    pytest.param("out = np.random.normal(x)", "?", id="numpy-submodule"),
    pytest.param("out = np.e(x)", "?", id="not-a-function"),
    pytest.param("out = np.zeros_like(x, shape=(2,))", "?", id="like-with-shape"),
    pytest.param("out = None", "?", id="none"),
    pytest.param("out = x if t > 0 else x.sum()", "?", id="ternary-of-different-classes"),
]


@pytest.mark.parametrize("body, expected", CASES)
def test_shape_classes(body, expected):
    assert shape_of(body) == expected


def test_parameters_annotated_as_python_numbers_are_0d():
    assert shape_of("out = alpha * x", params="x, alpha: float") == "like x"
    assert shape_of("out = alpha", params="x, alpha: float") == "0-d"
    assert shape_of("out = alpha", params="x, alpha: np.ndarray") == "like alpha"


def test_a_local_with_mixed_definitions_is_its_own_class():
    assert shape_of("y = x.sum()\nif t > 0:\n    y = x\nout = y") == "like y"


def test_shadowed_numpy_name_is_not_numpy():
    assert shape_of("np = t\nout = np.sum(x)") == "?"


def test_a_variable_rebound_in_between_is_another_value():
    shapes, fn = analyse("def f(x):\n    a = x * 2\n    x = x[:2]\n    b = x\n    return a, b\n")
    a = shapes.of(assigned(fn, "a").value)
    b_at_return = shapes.of(cst.Name("b"), at=fn.body.body[-1].body[0])
    assert a.kind == b_at_return.kind == "like" and a != b_at_return


def test_elementwise_definitions_in_a_loop_are_not_followed():
    # after the loop `x` has the same reaching definitions as where `y` was bound, but may be another value
    shapes, fn = analyse("def f(x):\n    while x.sum() > 1:\n        y = x * 2\n        x = x[1:]\n    out = y\n")
    assert short(shapes.of(assigned(fn, "out").value)) == "like y"


SIZE_ONE = [
    pytest.param("x < 0", {"like x"}, id="comparison"),
    pytest.param("2 * x + 1 > t", {"like x", "like t"}, id="arithmetic-operands"),
    pytest.param("x.sum() > t", {"like t"}, id="reduction-proves-nothing-about-x"),
    pytest.param("x[0] > 0", {"like x[0]"}, id="int-index-proves-the-row"),
    pytest.param("x[1:] > 0", set(), id="slice-proves-nothing"),
    pytest.param("np.isnan(x)", {"like x"}, id="elementwise-call"),
    pytest.param("not x > t", {"like x", "like t"}, id="not"),
    pytest.param("x > 0 and t > 0", {"like x"}, id="only-the-first-operand-of-and"),
    pytest.param("np.all(x > 0)", set(), id="reduction-call"),
    pytest.param("np.where(x > 0)", set(), id="one-argument-where-is-a-tuple"),
    pytest.param("x is None", set(), id="identity"),
]


@pytest.mark.parametrize("test, names", SIZE_ONE)
def test_size_one(test, names):
    shapes, fn = analyse(f"def f(x, t):\n    if {test}:\n        pass\n")
    node = fn.body.body[0]
    assert {short(shape) for shape in shapes.size_one(node.test, node)} == names


def test_size_one_follows_a_local_condition():
    shapes, fn = analyse("def f(x):\n    ok = x > 0\n    if ok:\n        pass\n")
    node = fn.body.body[1]
    assert {short(shape) for shape in shapes.size_one(node.test, node)} == {"like ok", "like x"}


def problem(code: str):
    """select_problem for the function's if/elif chain of returns (the default: a trailing `else: return`)."""
    shapes, fn = analyse(code)
    node = next(s for s in fn.body.body if isinstance(s, cst.If))
    tests, values, current = [], [], node
    while isinstance(current, cst.If):
        tests.append(current.test)
        values.append(current.body.body[0].body[0].value)
        current = current.orelse
    values.append(current.body.body[0].body[0].value)
    found = shapes.select_problem(tests, values, node)
    code_of = cst.Module([]).code_for_node
    return None if found is None else (code_of(found[0]), found[1].describe(), code_of(found[2]), found[3].describe())


SELECT = [
    pytest.param("if x < 3:\n        return 3.0 * x ** 2\n    else:\n        return -4 * x", None, id="same-class"),
    pytest.param("if x < 0:\n        return 0.0\n    else:\n        return x", None, id="test-proves-x-has-one-element"),
    pytest.param(
        "if x.sum() > 0:\n        return x\n    else:\n        return 0.0",
        ("0.0", "0-d", "x", "the shape of `x`"),
        id="scalar-against-array",
    ),
    pytest.param("if x.sum() > t:\n        return x.mean()\n    else:\n        return t", None, id="t-proven-0d"),
    pytest.param("if x[0] > 0:\n        return x[1]\n    else:\n        return x[2]", None, id="rows-of-one-array"),
    pytest.param("if x[0] > 0:\n        return x[0]\n    else:\n        return 0.0", None, id="test-proves-the-row"),
    pytest.param(
        "if x[0] > 0:\n        return x[:2]\n    else:\n        return x[1:]",
        ("x[:2]", "a shape the analysis cannot tell", "x[1:]", "a shape the analysis cannot tell"),
        id="unknown-never-equal",
    ),
    pytest.param(
        "if x < 0:\n        return 0.0\n    elif x < 1:\n        return x * 2\n    else:\n        return x",
        None,
        id="chain-first-test-proves",
    ),
    pytest.param(
        "if x.sum() > 0:\n        return 0.0\n    elif x > 1:\n        return 1.0\n    else:\n        return 2.0",
        ("0.0", "0-d", "x > 1", "the shape of `x`"),
        id="later-test-broadcasts-an-earlier-path",
    ),
]


@pytest.mark.parametrize("body, expected", SELECT)
def test_select_problem(body, expected):
    assert problem(f"def f(x, t):\n    {body}\n") == expected


# ---- lax loop bodies: the carry has the shapes of the initial value -----------------------------------------------
LOOP_HEADER = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n"


def loop_analyse(code: str, name: str = "body") -> tuple[FunctionShapes, cst.FunctionDef]:
    """The shapes of the nested function `name` of the module's first function (through the provider)."""
    from libcst.metadata import MetadataWrapper

    from jaxfix.analysis.shapes import ShapeProvider

    wrapper = MetadataWrapper(cst.parse_module(LOOP_HEADER + textwrap.dedent(code)))
    found = wrapper.resolve(ShapeProvider)
    fn = next(f for f in found if f.name.value == name)
    return found[fn], fn


def loop_shape(code: str, name: str = "body") -> str:
    shapes, fn = loop_analyse(code, name)
    return short(shapes.of(assigned(fn, "out").value))


FORI = """
def f(x, n):
    s = 0.0
    m = x * 2
    {init}
    def body(i, carry):
        a, b, c = carry
        out = {value}
        return a, b, c

    a, b, c = {call}
    return a
"""


def fori(value: str, init: str = "a = x.sum()\n    b = m\n    c = x", call: str = "lax.fori_loop(0, n, body, (a, b, c))") -> str:
    return loop_shape(FORI.format(init=init, value=value, call=call))


LOOP_CASES = [
    pytest.param("i", {}, "0-d", id="fori-index"),
    pytest.param("a", {}, "0-d", id="slot-with-0d-initial-value"),
    pytest.param("a + i * 2.0", {}, "0-d", id="arithmetic-of-0d-slots"),
    pytest.param("b", {}, "like b", id="slot-with-array-initial-value"),
    pytest.param("b + c", {}, "like b", id="slots-whose-initial-values-share-a-shape"),
    pytest.param("b + c", {"init": "a = x.sum()\n    b = m\n    c = x[:2]"}, "?", id="slots-of-unknown-relative-shape"),
    pytest.param("a", {"init": "a = g(x)\n    b = m\n    c = x"}, "like a", id="unknown-initial-value-proves-nothing"),
    pytest.param("i", {"call": "jax.lax.fori_loop(0, n, body, (a, b, c))"}, "0-d", id="jax-lax-spelling"),
    pytest.param("i", {"call": "loop(0, n, body, (a, b, c))"}, "like i", id="not-a-lax-loop"),
    pytest.param("a", {"call": "lax.fori_loop(0, n, body, carry0)"}, "like a", id="initial-value-not-a-tuple-display"),
]


@pytest.mark.parametrize("value, changes, expected", LOOP_CASES)
def test_fori_loop_body_slots(value, changes, expected):
    assert fori(value, **changes) == expected


def test_a_body_used_twice_has_no_loop_facts():
    code = FORI.format(init="a = x.sum()\n    b = m\n    c = x", value="a", call="lax.fori_loop(0, n, body, (a, b, c))")
    code = code.replace("    return a\n", "    body(0, (x, x, x))\n    return a\n")
    assert loop_shape(code) == "like a"


def test_shadowed_lax_is_not_jax():
    code = FORI.format(init="a = x.sum()\n    b = m\n    c = x\n    lax = x", value="a", call="lax.fori_loop(0, n, body, (a, b, c))")
    assert loop_shape(code) == "like a"


def test_scan_element_is_not_a_slot():
    code = """
    def f(xs):
        h = 0.0
        def step(h, x):
            out = x
            keep = h
            return h + x, x
        h, ys = lax.scan(step, h, xs)
        return h
    """
    shapes, fn = loop_analyse(code, "step")
    assert short(shapes.of(assigned(fn, "out").value)) == "like x"
    assert short(shapes.of(assigned(fn, "keep").value)) == "0-d"


def test_while_loop_body_one_slot_carry_and_cond_function():
    code = """
    def f(x):
        t = x.max()
        def cond(t):
            out = t
            return t > 1
        def body(t):
            out = t
            return t / 2
        t = lax.while_loop(cond, body, t)
        return t
    """
    assert loop_shape(code, "body") == "0-d"
    assert loop_shape(code, "cond") == "like t"  # only the body is matched


def test_the_carry_parameter_of_a_tuple_carry_is_not_a_slot():
    code = """
    def f(x):
        def body(i, carry):
            a, = carry
            out = carry
            return (a * 2,)
        (a,) = lax.fori_loop(0, 3, body, (x.sum(),))
        return a
    """
    assert loop_shape(code) == "like carry"


CARRIED = """
def f(x, n):
    spent = 0.0
    done = False
    m = x * 2
    def body(i, carry):
        done, spent, m = carry
        tmp = m
{body}
        return done, spent, m

    done, spent, m = lax.fori_loop(0, n, body, (done, spent, m))
    return spent
"""


def carried(body: str, name: str) -> bool:
    """carried_scalar(name) for the body's first `if`."""
    shapes, fn = loop_analyse(CARRIED.format(body=textwrap.indent(textwrap.dedent(body), "        ")))

    class Find(cst.CSTVisitor):
        found: list = []

        def visit_If(self, node: cst.If) -> None:
            self.found.append(node)

    finder = Find()
    finder.found = []
    fn.visit(finder)
    return shapes.carried_scalar(name, finder.found[0])


CARRIED_CASES = [
    pytest.param("if x[i] > 0:\n    spent = spent + x[i]\n", "spent", True, id="0d-slot"),
    pytest.param("if x[i] > 0:\n    done = True\n", "done", True, id="bool-slot"),
    pytest.param("if done:\n    if x[i] > 0:\n        spent = spent + x[i]\n", "spent", True, id="inside-an-if"),
    pytest.param("if x[i] > 0:\n    m = m * 2\n", "m", False, id="slot-with-array-initial-value"),
    pytest.param("if x[i] > 0:\n    tmp = spent + x[i]\n", "tmp", False, id="temporary-not-returned"),
    pytest.param("if x[i] > 0:\n    spent = spent + x[i]\nspent = spent.sum()\n", "spent", False, id="assigned-again-later"),
    pytest.param("if x[i] > 0:\n    spent = spent + x[i]\nelse:\n    pass\nif done:\n    spent = 1.0\n", "spent", False,
                 id="maybe-assigned-again-later"),
    pytest.param("for j in range(2):\n    if x[j] > 0:\n        spent = spent + x[j]\n", "spent", False, id="in-a-python-loop"),
    pytest.param("if x[i] > 0:\n    spent = spent + x[i]\nif done:\n    return done, spent.sum(), m\n", "spent", False,
                 id="another-return"),
]


@pytest.mark.parametrize("body, name, expected", CARRIED_CASES)
def test_carried_scalar(body, name, expected):
    assert carried(body, name) is expected


def test_carried_scalar_needs_the_name_in_a_0d_slot_of_the_returned_carry():
    code = CARRIED.format(body="        if x[i] > 0:\n            spent = spent + x[i]\n").replace(
        "return done, spent, m\n", "return done, m, m\n")
    shapes, fn = loop_analyse(code)
    stmt = next(s for s in fn.body.body if isinstance(s, cst.If))
    assert not shapes.carried_scalar("spent", stmt)


def test_carried_scalar_in_a_scan_step():
    code = """
    def f(xs):
        total = 0.0
        def step(total, x):
            if x > 0:
                total = total + x
            return total, x
        total, ys = lax.scan(step, total, xs)
        return total
    """
    shapes, fn = loop_analyse(code, "step")
    stmt = next(s for s in fn.body.body if isinstance(s, cst.If))
    assert shapes.carried_scalar("total", stmt)
    assert not shapes.carried_scalar("x", stmt)
