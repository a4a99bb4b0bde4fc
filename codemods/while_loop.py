from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods._purity import carry_dtype_change, carry_dtype_problem, held_numpy, held_problem, int_product, opaque_loop, scalar_carry_broadcast, shaped_loop_body
from jaxfix import loopgen as gen
from jaxfix.analysis.host_use import HOST_USE_DEPENDENCIES, python_value_after
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.loops import loops_in_functions
from jaxfix.analysis.loops import (
    appends, argument_inputs, body_obstacles, body_statements, carry_problem, loop_carried, traced_tests,
    written_input_problem,
)
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness
from jaxfix.analysis.loop_values import host_container_use
from jaxfix.analysis.masks import FunctionFacts, MaskProvider, function_facts
from jaxfix.analysis.value_dtypes import BOOL, dtype_of
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class WhileLoop(Rule):
    """
    ## What it does
    Rewrites a `while` loop whose condition depends on traced values into `lax.while_loop(cond, body, carry)`.
    The carry holds the loop-carried variables (a tuple when there are several); everything else is closed over.
    A parameter the condition or body indexes with a traced value (a NumPy array, when the function is called
    eagerly, would reject it) is read as `jnp.asarray` of it, bound before the loop (see JX220), unless the function
    writes into it in place (`xs[a], xs[b] = xs[b], xs[a]`: the caller's object, perhaps a Python list, stays what
    it is): then the loop is reported and left alone.
    `and` / `or` / `not` in the condition become `jnp.logical_and` / `jnp.logical_or` / `jnp.logical_not`.

    ## Why is this bad?
    Under `jit` a Python `while` on a traced condition raises `TracerBoolConversionError`: Python cannot decide how
    many times to run the body while the values are abstract.

    ## Example
    ```python
    def halvings(x, floor):
        count = 0
        while x > floor:
            x = x / 2
            count += 1
        return count
    ```

    ## Use instead
    ```python
    def halvings(x, floor):
        count = 0

        def cond(carry):
            x, _ = carry
            return x > floor

        def body(carry):
            x, count = carry
            x = x / 2
            count += 1
            return x, count

        x, count = lax.while_loop(cond, body, (x, count))
        return count
    ```

    ## Fix safety
    Safe when the body is a pure function of the carry (no `break`/`continue`/`return`, I/O, in-place updates or
    traced Python `if`s, which other rules convert first) and every carried variable has a value before the loop.
    Otherwise the loop is reported with the reason, as is a carry that changes shape (`a = a[1:]`). Unsafe when
    the condition or body calls code not known to be pure JAX (`while_loop` traces it once; see JX220 for NumPy
    calls JX501 keeps), or multiplies a carry
    that starts as a Python int (an int32 carry wraps around), or grows a carry with a whole parameter its start
    does not read (see JX220; also when it starts as a parameter whose default is a number, `y = start` with
    `start=1.0`, or grows through a temporary of the body, `nxt = f(y, x)` then `y = nxt`), or makes a carry that may be real complex (`z = z * 1j`; see JX220, which also
    reports an integer array the body makes a float). Weakly typed Python scalars in the carry (`count = 0`) are
    promoted by `while_loop` to the type the body produces.

    ## Known problems
    `lax.while_loop` supports forward-mode differentiation only (`jax.jvp`), not `jax.grad`; the fix title says
    so. A loop whose condition is static (a Python counter) is left alone: it unrolls under `jit`.
    """

    CODE = "JX221"
    SUMMARY = "Python `while` loop on a traced condition; use `lax.while_loop`"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, *HOST_USE_DEPENDENCIES, DataflowProvider, TracednessProvider)
    ORDER = 40
    may_apply_to_tree = staticmethod(loops_in_functions)

    VALID = [
        Valid("def f(x):\n    k = 0\n    while k < 3:\n        x = x * 2\n        k += 1\n    return x\n"),
        Valid("def f(items):\n    while items is not None:\n        items = None\n    return items\n"),
        Valid(  # the truth of a parameter: a count or a container (an array of several elements raises in NumPy)
            "import numpy as np\n\ndef gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return np.asarray(a)\n"
        ),
    ]
    INVALID = [
        Invalid(  # a name bound to an object's array is read as `jnp.asarray` of it too (ase's `DisjointSet.find`)
            "class D:\n    def find(self, i):\n        p = self.parents\n        while i != p[i]:\n            i = p[i]\n"
            "        return i\n",
            expected="import jax\nimport jax.numpy as jnp\n\nclass D:\n    def find(self, i):\n        p = self.parents\n"
                     "        p_jax = jnp.asarray(p)\n\n        def cond(i):\n            return i != p_jax[i]\n\n"
                     "        def body(i):\n            i = p_jax[i]\n            return i\n\n"
                     "        i = jax.lax.while_loop(cond, body, i)\n        return i\n",
            lines=[4]),
        Invalid(  # a parameter, a NumPy array when called eagerly, indexed by the traced carry: read as `jnp.asarray` (tslearn)
            "def f(x, t):\n    i = 0\n    s = 0.0\n    while x[i] < t:\n        s = s + x[i]\n        i = i + 1\n    return s, i\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(x, t):\n    i = 0\n    s = 0.0\n    x_jax = jnp.asarray(x)\n\n"
                     "    def cond(carry):\n        _, i = carry\n        return x_jax[i] < t\n\n    def body(carry):\n        s, i = carry\n"
                     "        s = s + x_jax[i]\n        i = i + 1\n        return s, i\n\n"
                     "    s, i = jax.lax.while_loop(cond, body, (s, i))\n    return s, i\n",
            lines=[4]),
        Invalid(  # `z * 0.5j` makes a real `z` complex, which its carry cannot (`TypeError`): unsafe
            "def spin(z, t):\n    while abs(z) > t:\n        z = z * 0.5j\n    return z\n",
            expected="import jax\n\ndef spin(z, t):\n    def cond(z):\n        return abs(z) > t\n\n    def body(z):\n"
                     "        z = z * 0.5j\n        return z\n\n    z = jax.lax.while_loop(cond, body, z)\n    return z\n",
            unsafe=True, lines=[2]),
        Invalid(  # the carry starts as a parameter's number default and its update, through the temporary `nxt`, mixes
            # in the parameter `a`, which may be an array: NumPy broadcasts `y`, a carry cannot (numpy-financial's `rate`)
            "import jax.numpy as jnp\n\ndef settle(a, start=1.0, tol=1e-9):\n    y = start\n    moving = True\n"
            "    while moving:\n        nxt = 0.5 * (y + a / y)\n        moving = jnp.any(abs(nxt - y) > tol)\n        y = nxt\n"
            "    return y\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef settle(a, start=1.0, tol=1e-9):\n    y = start\n    moving = True\n\n"
                     "    def cond(carry):\n        moving, _ = carry\n        return moving != 0\n\n    def body(carry):\n"
                     "        moving, y = carry\n        nxt = 0.5 * (y + a / y)\n        moving = jnp.any(abs(nxt - y) > tol)\n"
                     "        y = nxt\n        return moving, y\n\n    moving, y = jax.lax.while_loop(cond, body, (moving, y))\n"
                     "    return y\n",
            unsafe=True, lines=[6]),
        Invalid(  # a count as the test: the condition function must return a bool (skyfield's refract)
            "import numpy as np\n\ndef f(x, t):\n    m = np.ones_like(x, dtype=bool)\n    while m.sum():\n        x = x / 2\n"
            "        m = x > t\n    return x\n",
            expected="import jax\nimport numpy as np\n\ndef f(x, t):\n    m = np.ones_like(x, dtype=bool)\n\n    def cond(carry):\n"
            "        _, m = carry\n        return m.sum() != 0\n\n    def body(carry):\n        x, m = carry\n        x = x / 2\n"
            "        m = x > t\n        return x, m\n\n    x, m = jax.lax.while_loop(cond, body, (x, m))\n    return x\n",
            lines=[5],
        ),
        Invalid(
            "def f(x, t):\n    while x > t:  # shrink\n        x = x / 2\n    return x\n",
            expected=(
                "import jax\n\ndef f(x, t):\n    def cond(x):\n        return x > t\n\n    def body(x):  # shrink\n        x = x / 2\n"
                "        return x\n\n    x = jax.lax.while_loop(cond, body, x)\n    return x\n"
            ),
            lines=[2],
        ),
        Invalid(  # the function swaps items of its parameter `xs` (a Python list, kept as it is): the inner scans
            # must not read a `jnp.asarray` copy of it (deap's Hoare partition); reported, left alone
            "import numpy as np\n\ndef split(xs, lo, hi):\n    pivot = xs[lo]\n    a, b = lo - 1, hi + 1\n    while True:\n        a += 1\n"
            "        while xs[a] < pivot:\n            a += 1\n        b -= 1\n        while xs[b] > pivot:\n            b -= 1\n"
            "        if a >= b:\n            return b\n        xs[a], xs[b] = xs[b], xs[a]\n",
            expected=None, lines=[8, 11]),
        Invalid(  # the same with the write before the loop: a copy taken after it would be right, but the write stays
            # on the caller's object (a list of pairs has no array copy)
            "import numpy as np\n\ndef first_above(row, k, level):\n    row[0] = level\n    while row[k] <= level:\n"
            "        k = k + 1\n    return k\n",
            expected=None, lines=[5]),
        Invalid("def f(x, t):\n    while x > t:\n        x = x / 2\n    else:\n        x = -x\n    return x\n", lines=[2]),
        Invalid("def f(x, t, it):\n    while x > t:\n        x = x - next(it)\n    return x\n", lines=[2]),
        Invalid("def f(a):\n    while a[0] == 0:\n        a = a[1:]\n    return a\n", expected=None, lines=[2]),
        Invalid("def f(y, m):\n    while y.sum() > m:\n        y = y[::2]\n    return y\n", expected=None, lines=[2]),
        Invalid(  # a carry later indexes a Python list: a lax.while_loop would make it a traced array
            "import numpy as np\n\ndef f(x, m, n):\n    v = 0\n    w = np.sum(x)\n    while w >= m:\n        w = w - m\n        v = v + 1\n    names = [\"a\", \"b\", \"c\"]\n    return names[v], w\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # a module-level dict looked up with a traced carry: hashing a tracer raises: reported
            "import jax.numpy as jnp\n\ndef w(x, k):\n    steps = jnp.zeros(())\n    while k < 5:\n        k = k + 1\n"
            "        steps = steps + STEP.get(k, 0.0)\n    return steps\n\nSTEP = dict(a=1.0)\n",
            expected=None, lines=[5],
        ),
    ]

    def visit_While(self, node: cst.While) -> None:
        fn = self.current_function
        if fn is None or function_tracedness(self, fn).of_test(node.test) is not Tracedness.TRACED:
            return
        flow = function_flow(self, fn)
        carried = loop_carried(flow, node)
        inputs = argument_inputs(flow, node, ())
        problem = self.problem(node, flow, carried) or written_input_problem(self, flow, fn, inputs)
        if problem:
            self.report(node, f"`while` loop on a traced condition cannot become `lax.while_loop`: {problem}")
            return
        body_stmts = list(fn.body.body)
        taken = flow.reads(body_stmts) | flow.writes(body_stmts) | set(flow.params)
        cond_name, body_name = gen.fresh(self, fn, "cond", taken), gen.fresh(self, fn, "body", taken)
        names = list(carried)
        config = self.context.module.config_for_parsing
        renamed, converts = gen.jax_inputs(self, fn, inputs, taken, self.jnp)
        test = self.code(gen.rename_loads([node.test], renamed)[0].visit(_LogicalOps(self.jnp)))
        if not _boolean(function_facts(self, fn), node.test):  # `while mask.sum():` - `lax.while_loop` wants a bool
            test = f"({test}) != 0" if isinstance(node.test, (cst.IfExp, cst.Lambda, cst.NamedExpr)) else f"{test} != 0"
        if len(names) == 1:
            carry = names[0]
            cond_fn = gen.function_def(f"{cond_name}({carry})", [], epilogue=f"return {test}\n", config=config)
            body_fn = gen.function_def(
                f"{body_name}({carry})", gen.rename_loads(body_statements(node), renamed), epilogue=f"return {carry}\n", config=config,
                comment=gen.header_comment(node),
            )
        else:
            carry = gen.unique("carry", taken)
            cond_fn = gen.function_def(
                f"{cond_name}({carry})", [], prologue=gen.unpack_line(names, carry, flow.reads(node.test)),
                epilogue=f"return {test}\n", config=config,
            )
            body_fn = gen.function_def(
                f"{body_name}({carry})", gen.rename_loads(body_statements(node), renamed), prologue=gen.unpack_line(names, carry),
                epilogue=f"return {gen.targets(names)}\n", config=config, comment=gen.header_comment(node),
            )
        call = self.statements(f"{gen.targets(names)} = {self.lax}.while_loop({cond_name}, {body_name}, {gen.pack(names)})\n")
        call[0] = call[0].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        opaque = opaque_loop(self, node, fn, "lax.while_loop") + int_product(function_flow(self, fn), node, names) + scalar_carry_broadcast(function_flow(self, fn), node, names) + carry_dtype_change(self, fn, node, names)
        self.report(
            node,
            f"`while` loop on a traced condition; carry {', '.join(f'`{n}`' for n in names)} through `lax.while_loop`{opaque}",
            replacement=self.replace_statement(
                node if converts else gen.spaced(node, fn),
                # (the body indexes them with a traced value, which a NumPy array would reject)
                [*self.statements(converts), *([gen.blank_line_before(cond_fn)] if converts else [cond_fn]),
                 gen.blank_line_before(body_fn), *call]),
            unsafe=bool(opaque),
            title="replace with `lax.while_loop` (forward-mode differentiation only)",
            imports=("lax", "jnp") if "logical_" in test or converts else ("lax",),
        )

    def problem(self, node: cst.While, flow, carried) -> Optional[str]:
        if node.orelse is not None:
            return "`while ... else` (the `else` block runs only when the loop ends without `break`)"
        body = body_statements(node)
        if appends(body):
            return "it appends to a list, whose length would depend on traced values"
        found = body_obstacles(body)
        if found:
            return found[0][1]
        shaped = shaped_loop_body(self, body) or held_problem(held_numpy(self, node, self.current_function))
        if shaped:
            return shaped
        if traced_tests(self, body):
            return "a Python `if`/`while` in the body depends on traced values (the branch rules convert it first)"
        if not carried:
            return "nothing in the body changes the condition"
        container = host_container_use(function_tracedness(self, self.current_function), self.current_function, body,
                                       sorted(carried), self.context.module)
        if container is not None:
            return container
        later = python_value_after(self, self.current_function, node, sorted(carried))
        if later is not None:
            return f"`{later[0]}` is then used on line {later[2]} ({later[1]}), where only a Python value can stand"
        return carry_problem(flow, node, carried) or carry_dtype_problem(self, self.current_function, node, carried)


class _LogicalOps(cst.CSTTransformer):
    """`a and b` -> `jnp.logical_and(a, b)`, `or` likewise, `not a` -> `jnp.logical_not(a)` (traced operands)."""

    def __init__(self, jnp: str) -> None:
        super().__init__()
        self.jnp = jnp

    def leave_BooleanOperation(self, original_node, updated_node):
        op = "logical_and" if isinstance(updated_node.operator, cst.And) else "logical_or"
        return cst.parse_expression(f"{self.jnp}.{op}(a, b)").with_changes(
            args=[cst.Arg(_bare(updated_node.left), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                  cst.Arg(_bare(updated_node.right))]
        )

    def leave_UnaryOperation(self, original_node, updated_node):
        if isinstance(updated_node.operator, cst.Not):
            return cst.parse_expression(f"{self.jnp}.logical_not(a)").with_changes(args=[cst.Arg(_bare(updated_node.expression))])
        return updated_node


def _bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=[], rpar=[]) if expr.lpar else expr


def _boolean(facts: FunctionFacts, test: cst.BaseExpression) -> bool:
    """Whether a loop test is a bool (a comparison, `not`, `and`/`or` of bools, a value of bool dtype), which
    `lax.while_loop`'s condition must return; a count (`mask.sum()`) is compared with 0 instead."""
    if isinstance(test, (cst.Comparison, cst.UnaryOperation)) and not (
            isinstance(test, cst.UnaryOperation) and not isinstance(test.operator, cst.Not)):
        return True
    if isinstance(test, cst.BooleanOperation):
        return _boolean(facts, test.left) and _boolean(facts, test.right)
    dtype = dtype_of(facts, test)
    return dtype.exact and dtype.kind == BOOL
