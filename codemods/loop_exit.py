from __future__ import annotations

import libcst as cst

from codemods import _loop_flags, _loop_guards
from codemods._purity import purity, stuck_boolean
from jaxfix import loopgen as gen
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.host_use import HOST_USE_DEPENDENCIES, python_value_after
from jaxfix.analysis.loops import loops_in_functions
from jaxfix.analysis.masks import MaskProvider
from jaxfix.analysis.loops import (
    ending_jump, own_jumps, target_names, traced_tests,
)
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness, tracedness
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class LoopExit(Rule):
    """
    ## What it does
    Removes `continue`, `break` and early `return` decided by traced values from a loop body, so that the loop rules
    (JX220-JX222) can convert it. `if c: continue` followed by the rest of the body becomes `if not (c):` around
    the rest. `if c: ...; break` in a `for` loop becomes a `done` flag carried by the loop:
    `hit = jnp.logical_and(jnp.logical_not(done), c)`, `v = jnp.where(hit, new, v)` for what the `if` assigns,
    `done = done | hit`, and the statements after it (or before it, when they bind names used later) under
    `if not done:`. In a `while` loop the flag joins the condition (`while not done and cond:`). An early
    `return v` becomes a carried `result`: it starts as the final `return w` when `w` can be evaluated before the
    loop (and the function then returns `result`), else as `v` evaluated before the loop (the index of a range loop
    replaced by its start), and the function returns `jnp.where(done, result, w)`.

    ## Why is this bad?
    `lax.fori_loop`, `lax.scan` and `lax.while_loop` have no `break` or `continue`, and a traced condition cannot
    decide a Python jump under `jit` (`TracerBoolConversionError`).

    ## Example
    ```python
    def first_above(x, t):
        for i in range(x.shape[0]):
            if x[i] > t:
                return i
        return -1
    ```

    ## Use instead
    ```python
    def first_above(x, t):
        result = -1
        done = False
        for i in range(x.shape[0]):
            hit = jnp.logical_and(jnp.logical_not(done), x[i] > t)
            result = jnp.where(hit, i, result)
            done = done | hit
        return result
    ```

    ## Fix safety
    Safe: the rewrite is exact. `jnp.where` is used only where both sides provably have one shape (numbers, loop
    indices, `x.shape[k]`, the same array combined element-wise with numbers, names that only ever hold such
    values), since it would broadcast; otherwise the body keeps Python `if not done:` guards (the branch rules,
    JX2xx, convert them) and the value after the loop is chosen with `lax.cond(done, lambda: result, lambda: w)`,
    which checks shapes and types instead of broadcasting. A `break`/`return` under several `if`s (or in an
    `else`) sets the flag where it was, and every level guards what follows it with `if not done:`. Offered only
    where no jump sits in a nested loop, `try` or `with` or on the `if` line, every `continue` ends a top-level
    `if`, the loop has no `else`, (for `break` in a `for`) the loop variable is not read after the loop,
    and (for `return`) the loop is followed by `return w` at the top level of the function and the result can be
    started before the loop (`v` is arithmetic on names defined there). Otherwise the jump is reported at its line.
    A `for` loop with a flag runs its full trip count; a `while` loop stops as soon as the flag is set. A `for`
    loop's flag is unsafe when the loop calls code not known to be pure JAX (a callback, `print`): the loop rules
    cannot convert such a loop safely, and a loop that stays in Python would run on after the jump (over
    `range(sys.maxsize)`, for ever).

    ## Known problems
    A `continue` nested deeper than the end of a top-level `if`, jumps in nested loops, `try`/`with` blocks or on
    the `if` line, loops with `else`, and early returns whose value reads names the loop defines (`return x[i]` when the final
    value also depends on the loop) are reported, not rewritten. `s += x[i]` is not proved to keep the shape of
    `s` (a Python float plus a row is a row), so such results are chosen with `lax.cond`.
    """

    CODE = "JX223"
    SUMMARY = "`break`/`continue`/`return` on a traced condition inside a loop; carry a `done` flag and guard the body"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, DataflowProvider, TracednessProvider, MaskProvider,
                             *HOST_USE_DEPENDENCIES)
    ORDER = 30
    may_apply_to_tree = staticmethod(loops_in_functions)

    VALID = [
        Valid("def f(x, n: int):\n    for i in range(10):\n        if i > n:\n            break\n        x = x + i\n    return x\n"),
        Valid("def f(x, n):\n    for i in range(n):\n        x = x + i\n    return x\n"),
        Valid(  # a generator (and sets): plain Python graph code, never traced
            "import numpy as np\n\ndef bfs(G, source, depth):\n    seen = {source}\n    queue = [(source, 0)]\n    while queue:\n        v, d = queue.pop(0)\n        if d > depth:\n            break\n        for w in G[v]:\n            if w not in seen:\n                seen.add(w)\n                queue.append((w, d + 1))\n        yield v\n"
        ),
        Valid(  # a module object's `__name__` is text, `hasattr` a Python bool: no traced exit test
            "import numpy as np\n\ndef present(name, mods):\n    for m in mods:\n        if hasattr(m, \"__name__\") and m.__name__ == name:\n            return True\n    return False\n"
        ),
    ]
    INVALID = [
        Invalid(  # the loop returns a counter, the function otherwise a bool: no one carried result (pymcmcstat's
            # first match: `jnp.where` gave a number for `False`, `lax.cond` raised `TypeError`)
            "def other_match(v, items, skip):\n    for k, item in enumerate(items):\n        if k == skip:\n            continue\n"
            "        if item == v:\n            return k\n    return False\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # ... or a name the `if` sets before `break`: a bool before the loop, a counter after the jump
            "import numpy as np\n\ndef f(w):\n    where = False\n    for j in range(w.shape[0]):\n        if np.abs(w[j]) > 1.0:\n"
            "            where = j\n            break\n    return where\n",
            expected=None,
            lines=[8],
        ),
        Invalid(
            "def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] < 0:\n            continue\n        s = s + x[i]\n"
            "    return s\n",
            expected=(
                "def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if not (x[i] < 0):\n            s = s + x[i]\n"
                "    return s\n"
            ),
            lines=[4],
        ),
        Invalid(  # the blank line above the loop stays once; the comment of the removed `continue` is kept
            "def f(x, n):\n    s = 0.0\n\n    for i in range(n):\n        if x[i] < 0:\n            # skip negatives\n"
            "            continue\n\n        s = s + x[i]\n    return s\n",
            expected=(
                "def f(x, n):\n    s = 0.0\n\n    for i in range(n):\n        # skip negatives\n        if not (x[i] < 0):\n"
                "            s = s + x[i]\n    return s\n"
            ),
            lines=[5],
        ),
        Invalid(  # the negation of a `not` drops it, and an equality, identity or membership test is inverted (no
            # `if not not v.any():`, trimesh's repair); an order test stays under `not` (both are False for NaN)
            "import jax.numpy as jnp\n\ndef f(x, n, q, keys):\n    s = 0.0\n    for i in range(n):\n"
            "        v = jnp.abs(x[i])\n        if not v.any():\n            continue\n        if len(q) == 0:\n"
            "            continue\n        if q is None:\n            continue\n        if i in keys:\n            continue\n"
            "        if not (v.sum() > 1 or i):\n            continue\n        s = s + v.sum()\n    return s\n",
            expected=(
                "import jax.numpy as jnp\n\ndef f(x, n, q, keys):\n    s = 0.0\n    for i in range(n):\n"
                "        v = jnp.abs(x[i])\n        if v.any():\n            if len(q) != 0:\n                if q is not None:\n"
                "                    if i not in keys:\n                        if v.sum() > 1 or i:\n"
                "                            s = s + v.sum()\n    return s\n"
            ),
            lines=[7],
        ),
        Invalid(
            "def f(x, t):\n    while x > 1:\n        x = x / 2\n        if x < t:\n            break\n        x = x - 1\n    return x\n",
            expected=(
                "def f(x, t):\n    done = False\n    while not done and x > 1:\n        x = x / 2\n        if x < t:\n"
                "            done = True\n        else:\n            x = x - 1\n    return x\n"
            ),
            lines=[4],
        ),
        Invalid(  # the index found is then a set member: a traced one is unhashable (pyclustering's k-means++)
            "import numpy as np\n\ndef f(p, t, free):\n    index = -1\n    for i in range(len(p)):\n        if t < np.cumsum(p)[i]:\n"
            "            index = i\n            break\n    free.remove(index)\n    return index\n",
            expected=None,
            lines=[8],
        ),
        Invalid(  # the early result's length depends on the index where the loop stops: no carry of one shape (fluids'
            # strip of leading zero coefficients)
            "import numpy as np\n\ndef f(coeffs):\n    for i in range(len(coeffs)):\n        if coeffs[i] != 0.0:\n"
            "            return coeffs[i:]\n    return coeffs\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # a flag would let a loop over a generator run forever
            "import numpy as np\n\ndef f(x, chunks, tol):\n    tot = 0.0\n    for c in chunks(0):\n        d = np.sum(x * c)\n        tot = tot + d\n        if d < tol:\n            break\n    return tot\n",
            expected=None,
            lines=[9],
        ),
        Invalid(  # ... or consume an iterator the code reads on after the loop (thermo's Mehra flash, `it = iter(xs)`)
            "def f(xs, t):\n    it = iter(xs)\n    for xi in it:\n        if xi > t:\n            break\n    return list(it)\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # the body calls unknown code: the loop may stay Python, where the flag lets it run on (unsafe)
            "import numpy as np\n\ndef f(x, n, log):\n    s = 0.0\n    for i in range(n):\n        log(s)\n        if x[i] < 0:\n            break\n        s = s + np.sum(x[i])\n    return s\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, n, log):\n    s = 0.0\n    done = False\n    for i in range(n):\n        if not done:\n            log(s)\n        hit = jnp.logical_and(jnp.logical_not(done), x[i] < 0)\n        done = done | hit\n        if not done:\n            s = s + np.sum(x[i])\n    return s\n",
            unsafe=True,
            lines=[7],
        ),
        Invalid(  # `or` with a call after it stays Python: a traced flag could not use it
            "import numpy as np\n\ndef f(x, n, g):\n    s = 0.0\n    for i in range(n):\n        if x[i] > 0 or g(x[i]) < 0:\n            break\n        s = s + x[i]\n    return s\n",
            expected=None,
            lines=[7],
        ),
    ]

    def __init__(self, context) -> None:
        super().__init__(context)
        self._reported: set[cst.CSTNode] = set()

    def visit_For(self, node: cst.For) -> None:
        self._visit_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._visit_loop(node)

    def _visit_loop(self, node) -> None:
        fn = self.current_function
        if fn is None:
            return
        body = list(node.body.body)
        own = own_jumps(body)
        jumps = [(k, s) for k, s in enumerate(body) if ending_jump(s) is not None]
        if not own or not traced_tests(self, body):
            return  # no jump, or every jump is decided by static values (the loop unrolls under jit)
        handled = {s.body.body[-1].body[-1] for _, s in jumps}
        unhandled = [j for j in own if j not in handled]
        deep = bool(unhandled) and not any(isinstance(j, cst.Continue) for j in own)  # breaks/returns under nested ifs
        if unhandled and not deep or node.orelse is not None:
            self._refuse(unhandled[0] if unhandled else own[0], "nested" if unhandled else "else")
            return
        if not deep and not any(tracedness(self, s.test) is not Tracedness.STATIC for _, s in jumps):
            return
        flow = function_flow(self, fn)
        kinds = {ending_jump(s) for _, s in jumps} | {"break" if isinstance(j, cst.Break) else "return" for j in unhandled}
        traced = function_tracedness(self, fn)
        stuck = stuck_boolean([s.test for _, s in jumps], lambda e: traced.of(e) is not Tracedness.STATIC,
                              frozenset(flow.params) | flow.writes(list(fn.body.body)))
        if stuck is not None:
            self._refuse(own[0], f"its condition `{stuck}` stays a Python `and`/`or` (a later operand is not cheap and "
                         "pure), which a traced flag cannot use; rewrite it with `jnp.logical_and`/`logical_or` first")
            return
        if kinds & {"break", "return"} and isinstance(node, cst.For) and not _loop_flags.finite(self, node.iter):
            jump = next(j for j in own if not isinstance(j, cst.Continue))
            self._refuse(jump, f"the loop runs over `{self.code(node.iter)}`, which may never end (a generator) or be "
                         "an iterator read on after the loop: only the jump stops it, and a flag would let it run on")
            return
        anchor = jumps[0][1] if jumps else own[0]
        taken = flow.reads(list(fn.body.body)) | flow.writes(list(fn.body.body)) | set(flow.params)
        done = gen.fresh(self, fn, "done", taken) if kinds & {"break", "return"} else None
        result = gen.fresh(self, fn, "result", taken) if "return" in kinds else None
        returns = [j for j in own if isinstance(j, cst.Return)]
        plan = _loop_flags.return_plan(self, fn, node, flow, returns, done, result) if result else None
        if isinstance(plan, str):
            self._refuse(returns[0], plan)
            return
        if done and target_names(node) & flow.live_out(node):
            self.report(anchor, f"`{sorted(kinds)[0]}` on a traced condition: the loop variable is read after "
                        "the loop, so the loop cannot be guarded with a flag instead")
            return
        # a flag makes what the loop sets after the jump an array (`index = jnp.where(hit, i, index)`, then
        # `free.remove(index)`: pyclustering); a `continue` only becomes an `if`, which JX201 judges in turn
        later = python_value_after(self, fn, node, sorted(flow.writes(body) & flow.live_out(node))) if done else None
        if later is not None:
            name, reason, line = later
            jump = next((j for j in own if not isinstance(j, cst.Continue)), own[0])
            self._refuse(jump, f"`{name}`, which the loop sets, is then used on line {line} ({reason}), where only a "
                         "Python value can stand, and a traced flag can only choose an array")
            return
        mixed = _loop_flags.mixed_carry(self, fn, [s for _, s in jumps], flow, node) if done else None
        if mixed is not None:
            self._refuse(next((j for j in own if not isinstance(j, cst.Continue)), own[0]), mixed)
            return
        if deep:
            new_body = _loop_guards.deep(self, body, done, result)
            if new_body is None:
                self._refuse(unhandled[0], "nested")
                return
            if isinstance(node, cst.For):
                new_body = [cst.If(test=self.expr(f"not {done}"), body=cst.IndentedBlock(body=new_body))]
        else:
            new_body = _loop_flags.hits(self, node, body, flow, done, result, plan[1] if plan else None, taken) \
                if done else None
        if new_body is None:
            new_body = _loop_guards.guarded(self, body, done, result)
            if done is not None and isinstance(node, cst.For):
                new_body = [cst.If(test=self.expr(f"not {done}"), body=cst.IndentedBlock(body=new_body))]
        changes = {"body": node.body.with_changes(body=new_body)}
        if done is not None and isinstance(node, cst.While):
            always = isinstance(node.test, cst.Name) and node.test.value == "True"
            changes["test"] = self.expr(
                f"not {done}" + ("" if always else f" and {_loop_guards.operand(self.code(node.test), node.test)}"))
        loop = node.with_changes(**changes)
        first = (f"{result} = {plan[1]}\n" if plan else "") + (f"{done} = False\n" if done else "")
        # the lines above the loop stay above what replaces it (`replace_statement` puts them there)
        new = [*(self.statements(first) if done else []), loop.with_changes(leading_lines=[])]
        fix = {node: self.replace_statement(node, new)}
        if plan:
            fix[plan[0]] = plan[0].with_changes(body=[plan[0].body[0].with_changes(value=self.expr(plan[2]))])
        kind = " and ".join(f"`{k}`" for k in sorted(kinds))
        # only a `for` loop's flag changes how long a Python loop runs (a `while` loop's flag joins its test, and
        # `continue` becomes an exact `if not`)
        # a body that calls code not known to be pure JAX may keep the loop in Python (the loop rules make its
        # rewrite unsafe): a flag there makes a `for` loop run on to its full trip count (`range(sys.maxsize)`: for ever)
        opaque = purity(self).opaque_call([node.body], fn, function_tracedness(self, fn).of) \
            if done is not None and isinstance(node, cst.For) else None
        runs_on = opaque is not None
        why = (f" (unsafe: the loop calls `{opaque}`, not known to be pure JAX code, so it may have to stay a Python loop, "
               "where the flag lets it run on to its full trip count after the jump)") if runs_on else ""
        generated = self.code(loop) + (plan[2] if plan else "")
        imports = tuple(n for n, local in (("jnp", self.jnp), ("lax", self.lax)) if f"{local}." in generated)
        self.report(
            anchor,
            f"{kind} on a traced condition inside a loop: `lax` loops cannot jump; guard the rest of the body{why}",
            changes=fix,
            unsafe=runs_on,
            title="guard the body" + (f" with a `{done}` flag" if done else " instead of `continue`"),
            imports=imports,
        )

    def _refuse(self, jump: cst.CSTNode, why: str) -> None:
        if jump in self._reported:
            return
        self._reported.add(jump)
        kind = {cst.Break: "break", cst.Continue: "continue", cst.Return: "return"}[type(jump)]
        if why == "nested":
            why = ("it is nested deeper than the end of a top-level `if` (a `continue` under several `if`s or in an "
                   "`else`, or any jump in a nested loop, `try`, `with` or on the `if` line), where it cannot be "
                   "guarded automatically; restructure it, or carry a `done` flag by hand")
        elif why == "else":
            why = "the loop has an `else` block, which runs only when the loop ends without `break`"
        self.report(jump, f"`{kind}` inside a loop whose body depends on traced values cannot be converted: {why}")
