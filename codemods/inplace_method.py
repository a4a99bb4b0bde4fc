from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods import _inplace
from codemods._buffers import ARRAY_ATTRIBUTES
from codemods._inplace import Target
from jaxfix.analysis import jnp_api
from jaxfix.analysis.aliases import AliasProvider
from jaxfix.analysis.dataflow import DataflowProvider
from jaxfix.analysis.masks import MaskProvider
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import TracednessProvider  # `_inplace.judge` asks `_kept_numpy`
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class InplaceMethod(Rule):
    """
    ## What it does
    Rewrites NumPy calls that write into an existing array into functional forms assigned back:
    `x.fill(v)` -> `x = jnp.full_like(x, v)`, `x.sort(axis=0)` -> `x = jnp.sort(x, axis=0)`,
    `np.copyto(dst, src)` -> `dst = jnp.broadcast_to(src, dst.shape).astype(dst.dtype)` (with `where=m`:
    `dst = jnp.where(m, src, dst).astype(dst.dtype)`), and a call with `out=` such as `np.add(a, b, out=c)` ->
    `c = jnp.add(a, b)` (plus `.astype(c.dtype)` when `c` is not one of the inputs). On a view with basic indices,
    the view is written back: `x[:k].sort()` -> `x = x.at[:k].set(jnp.sort(x[:k]))`, `x[0].fill(v)` ->
    `x = x.at[0].set(v)` (an index that may be an array picks a copy: reported without a fix).

    ## Why is this bad?
    JAX arrays have no `fill` or in-place `sort`, `jax.numpy` has no `copyto` and ignores nothing silently: its
    functions do not take `out=`. Under `jit` the NumPy forms fail on traced values.

    ## Example
    ```python
    import numpy as np

    def normalise(x):
        y = x.copy()
        np.divide(y, np.linalg.norm(y), out=y)
        y.sort()
        return y
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def normalise(x):
        y = x.copy()
        y = jnp.divide(y, jnp.linalg.norm(y))
        y = jnp.sort(y)
        return y
    ```

    ## Fix safety
    Safe when the written array was created in the function and nothing else refers to its memory. Unsafe, with the
    reason, when it is a parameter (the caller saw NumPy's write; see JX104) or an attribute. Reported without a fix
    when a later-used alias or view shares the memory or the array is stored in a container (they would keep the
    old values). While such a write stays, no other rule's fix is applied in its function (outermost, when nested).

    ## Known problems
    `x.sort(kind=...)` loses its `kind` (`jnp.sort` is always stable; the sorted values are the same).
    `x.sort(order=...)` (structured arrays), other `sort` arguments (a masked array's `fill_value=`, a positional
    kind) and `out=` combined with `where=` are reported without a fix. With `out=`
    the result is not broadcast to a larger `out` array (NumPy would fill it).
    """

    CODE = "JX103"
    KEEPS_ARRAYS_NUMPY = True  # see Rule.KEEPS_ARRAYS_NUMPY
    HOLDS_BACK_UNFIXED = True  # see Rule.HOLDS_BACK_UNFIXED
    SUMMARY = "in-place array method or `out=` argument; assign the functional result back"
    FIX = FixAvailability.SOMETIMES
    may_apply_to_tree = staticmethod(_inplace.updates_in_functions)
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider, AliasProvider, DataflowProvider, MaskProvider, ParentProvider, TracednessProvider)
    ORDER = 40

    VALID = [
        Valid("import numpy as np\nX = np.zeros(3)\nX.fill(1.0)\n"),
        Valid("def f(names):\n    names = list(names)\n    names.sort()\n    return names\n"),
        Valid("import numpy as np\ndef f(x):\n    return np.add(x, 1.0)\n"),
        Valid("def f(x):\n    rows = [[3, 1], [2, x]]\n    rows[0].sort()\n    return rows\n"),
    ]
    INVALID = [
        Invalid(  # `out=` in an expression: the buffer must stay NumPy, so the whole function stays (skyfield's node_vector)
            "import numpy as np\n\ndef f(h):\n    v = np.array([-h[1], h[0]])\n    n = np.sqrt((v * v).sum(axis=0))\n"
            "    return np.divide(v, n, out=v, where=n != 0)\n",
            expected=None, lines=[6],
        ),
        Invalid(  # `np.add(..., out=s)` is a NumPy function, not `set.add`: `s` is not stored anywhere
            "import numpy as np\n\ndef f(v, d):\n    s = v.copy()\n    np.multiply(s, d, out=s)\n    np.add(s, 1.0, out=s)\n"
            "    np.clip(s, 0.0, 1.0, out=s)\n    return s\n",
            expected=(
                "import jax.numpy as jnp\n\ndef f(v, d):\n    s = v.copy()\n    s = jnp.multiply(s, d)\n"
                "    s = jnp.add(s, 1.0)\n    s = jnp.clip(s, 0.0, 1.0)\n    return s\n"
            ),
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    y = np.empty(3)\n    y.fill(2.0)  # start\n    np.add(y, x, out=y)\n"
            "    y.sort(axis=0)\n    return y\n",
            expected=(
                "import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    y = np.empty(3)\n"
                "    y = jnp.full_like(y, 2.0)  # start\n    y = jnp.add(y, x)\n    y = jnp.sort(y, axis=0)\n    return y\n"
            ),
        ),
        Invalid(  # `kind=` dropped (jnp.sort rejects it); a trailing comma kept out of the arguments
            "import numpy as np\n\ndef f(x):\n    y = np.zeros(3) + x\n    z = np.zeros(3) + x\n"
            "    y.sort(axis=0, kind=\"mergesort\")\n    z.sort(0, )\n    return y, z\n",
            expected=(
                "import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    y = np.zeros(3) + x\n    z = np.zeros(3) + x\n"
                "    y = jnp.sort(y, axis=0)\n    z = jnp.sort(z, 0)\n    return y, z\n"
            ),
        ),
        # not ndarray.sort's arguments (a masked array's `fill_value=`, a positional kind): reported, not rewritten
        Invalid("import numpy as np\n\ndef f(x):\n    y = np.zeros(3) + x\n    y.sort(axis=0, fill_value=1.0)\n    return y\n",
                expected=None, lines=[5]),
        Invalid("import numpy as np\n\ndef f(x):\n    y = np.zeros(3) + x\n    y.sort(0, \"quicksort\")\n    return y\n",
                expected=None, lines=[5]),
        # a view's method writes into the array (stumpy's `partition[:k].sort()`): a JAX array's `sort` returns a
        # copy, so the line must write the view back, never be left doing nothing
        Invalid(
            "import numpy as np\n\ndef smallest(v, n):\n    w = np.partition(v, n)\n    w[:n].sort()\n    return w[:n]\n",
            expected=(
                "import jax.numpy as jnp\nimport numpy as np\n\ndef smallest(v, n):\n    w = np.partition(v, n)\n"
                "    w = w.at[:n].set(jnp.sort(w[:n]))\n    return w[:n]\n"
            ),
        ),
        Invalid(
            "import numpy as np\n\ndef g(x):\n    t = np.ones((3, 3)) * x\n    t[:, 0].sort()\n    t[1, 1:].sort(axis=-1)\n"
            "    t[2:].fill(-1.0)\n    return t\n",
            expected=(
                "import jax.numpy as jnp\nimport numpy as np\n\ndef g(x):\n    t = np.ones((3, 3)) * x\n"
                "    t = t.at[:, 0].set(jnp.sort(t[:, 0]))\n    t = t.at[1, 1:].set(jnp.sort(t[1, 1:], axis=-1))\n"
                "    t = t.at[2:].set(-1.0)\n    return t\n"
            ),
        ),
        # all ints: a view of a row, or a scalar copy that NumPy fills to no effect; a view through `.T`: no fix
        Invalid("import numpy as np\n\ndef g(x):\n    t = np.ones(3) * x\n    t[0].fill(9.0)\n    return t\n",
                expected=None, lines=[5]),
        Invalid("import numpy as np\n\ndef g(x):\n    t = np.ones((3, 3)) * x\n    t.T[:, 0].sort()\n    return t\n",
                expected=None, lines=[5]),
        # an index that may be an array picks a copy, which NumPy sorts to no effect: reported, not rewritten
        Invalid("import numpy as np\n\ndef g(x, sel):\n    t = np.ones(5) * x\n    t[sel].sort()\n    return t\n",
                expected=None, lines=[5]),
        Invalid(
            "import numpy as np\n\ndef f(dst, src):\n    np.copyto(dst, src)\n",
            expected="import jax.numpy as jnp\n\ndef f(dst, src):\n    dst = jnp.broadcast_to(src, dst.shape).astype(dst.dtype)\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid(  # JX501 keeps `d` NumPy (it goes to `scipy.sparse`): its update stays NumPy's (spafe)
            "import numpy as np\nimport scipy.sparse as sp\n\ndef f(a, n):\n    d = np.ones(n) * a\n    d.fill(2.0)\n"
            "    return sp.diags(d)\n",
            expected=None, lines=[6]),
    ]

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if self.current_function is None:
            return
        for small in node.body:
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                self._call(node, small, small.value)

    def visit_Call(self, node: cst.Call) -> None:
        """`return np.divide(a, n, out=a)`, `y = np.add(a, b, out=c)`: `out=` inside an expression writes into the
        buffer and returns it. No fix; the buffer must stay a NumPy array, so the function stays as it is (else its
        other fixes would make the buffer a JAX array, which NumPy cannot write into)."""
        if self.current_function is None or not any(a.keyword is not None and a.keyword.value == "out" for a in node.args):
            return
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.Expr) or numpy_name(self, node.func) is None:
            return  # a statement of its own: `_call`
        self.report(node, f"`{self.code(node.func)}(..., out=...)` inside an expression writes into the `out=` array in "
                    "place and returns it; jaxfix cannot rewrite it here (call it as a statement of its own, then use "
                    "the array): the function is left as it is, the buffer staying NumPy", leaves_function=True)

    def _call(self, line: cst.SimpleStatementLine, stmt: cst.Expr, call: cst.Call) -> None:
        func = call.func
        qualified = numpy_name(self, func)
        jnp = self.jnp
        if qualified is None and isinstance(func, cst.Attribute) and func.attr.value in ("fill", "sort") \
                and isinstance(func.value, cst.Subscript):
            self._view_method(line, stmt, call, func.value)
            return
        if qualified is None and isinstance(func, cst.Attribute) and func.attr.value in ("fill", "sort"):
            target = _target(self, func.value)
            if target is None:
                return
            if func.attr.value == "fill":
                if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
                    return
                new = f"{target.base_src} = {jnp}.full_like({target.base_src}, {self.code(call.args[0].value)})"
            else:
                if any(a.keyword is not None and a.keyword.value == "order" for a in call.args):
                    self._judged(line, stmt, target, f"`{target.base_src}.sort(order=...)` sorts in place", None)
                    return
                positional = [a for a in call.args if a.keyword is None]
                if any(a.star for a in call.args) or len(positional) > 1 or any(
                    a.keyword is not None and a.keyword.value not in ("axis", "kind") for a in call.args
                ):  # not `ndarray.sort(axis, kind=...)`: a masked array's `fill_value=`, a positional kind, ...
                    self._judged(line, stmt, target, f"`{target.base_src}.sort(...)` sorts in place", None)
                    return
                # `kind=` is dropped: `jnp.sort` rejects it, and sorted values are the same whatever the algorithm
                args = [_arg_code(self, a) for a in call.args if a.keyword is None or a.keyword.value == "axis"]
                new = f"{target.base_src} = {jnp}.sort({', '.join([target.base_src, *args])})"
            self._judged(line, stmt, target, f"`{target.base_src}.{func.attr.value}(...)` updates the array in place", new)
            return
        if qualified == "numpy.copyto":
            self._copyto(line, stmt, call)
            return
        out = next((a for a in call.args if a.keyword is not None and a.keyword.value == "out"), None)
        if qualified is None or out is None:
            return
        self._out(line, stmt, call, qualified, out)

    def _view_method(self, line: cst.SimpleStatementLine, stmt: cst.Expr, call: cst.Call, view: cst.Subscript) -> None:
        """`a[:k].sort()`, `a[:, 0].fill(0)`: NumPy sorts or fills a view of `a` in place (stumpy's
        `partition[:k].sort()`); a JAX array's `sort` returns a sorted copy, and the line would silently do nothing.
        With every index basic (slices, `...`, `None`, ints), the view's write becomes `a = a.at[:k].set(jnp.sort(a[:k]))`
        (`a = a.at[:k].set(v)` for `fill(v)`); any other index may be an array, whose item is a copy NumPy sorts to no
        effect: reported without a fix, which leaves the function NumPy."""
        method = call.func.attr.value  # type: ignore[attr-defined]
        target, why = _inplace.split_target(self, line, view)
        if target is None:  # `a[idx][:k].sort()`: a view of a view, or of a copy
            root = _root(view)
            whole = Target(root, self.code(root), [], [e.slice for e in view.slice])
            if why is not None and not _inplace.judge(self, line, whole).skip:
                self.report(stmt, f"`{self.code(view)}.{method}(...)` {method}s in place what may be a view of "
                            f"`{whole.base_src}` or a copy: {why}; this function is left as it is")
            return
        src = self.code(view)
        problem = f"`{src}.{method}(...)` {method}s a view of `{target.base_src}` in place"
        basic = all(isinstance(e, cst.Slice) or isinstance(e, cst.Index) and (
            isinstance(e.value, cst.Ellipsis) or isinstance(e.value, cst.Name) and e.value.value == "None"
            or _inplace.is_scalar_index(self, line, e)) for e in target.elements)
        if method == "fill":
            ok = len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star
            value = _inplace.value_code(self, call.args[0].value) if ok else None
        else:
            positional = [a for a in call.args if a.keyword is None]
            ok = not any(a.star for a in call.args) and len(positional) <= 1 and all(
                a.keyword is None or a.keyword.value in ("axis", "kind") for a in call.args)
            args = [_arg_code(self, a) for a in call.args if a.keyword is None or a.keyword.value == "axis"]
            value = f"{self.jnp}.sort({', '.join([src, *args])})" if ok else None
        if not basic:
            if not _inplace.judge(self, line, target).skip:
                self.report(stmt, f"{problem} when `{target.index_src}` is a basic index (a slice, an int), but "
                            f"{method}s a copy, to no effect, when it is an array; jaxfix cannot tell which, so "
                            "this function is left as it is")
            return
        if not any(isinstance(e, cst.Slice) or isinstance(e.value, cst.Ellipsis)  # type: ignore[attr-defined]
                   or isinstance(e.value, cst.Name) and e.value.value == "None" for e in target.elements):  # type: ignore[attr-defined]
            # `a[0].fill(9.0)`: a view of a row when `a` has more axes than ints, but a scalar copy, which NumPy fills
            # to no effect, when it has as many
            if not _inplace.judge(self, line, target).skip:
                self.report(stmt, f"{problem} when `{target.base_src}` has more axes than `{target.index_src}` has "
                            f"ints, but {method}s a scalar copy, to no effect, when it has as many; jaxfix cannot tell "
                            "which, so this function is left as it is")
            return
        if isinstance(target.base, cst.Attribute) and target.base.attr.value in ARRAY_ATTRIBUTES:
            # `a.T[:, 0].sort()`: a view of `a` through `.T`, which cannot be assigned to
            self.report(stmt, f"{problem} through `.{target.base.attr.value}`, a view of the array that cannot be "
                        "assigned back; this function is left as it is")
            return
        new = None if value is None else f"{target.base_src} = {target.base_src}.at[{target.index_src}].set({value})"
        self._judged(line, stmt, target, problem, new)

    def _copyto(self, line: cst.SimpleStatementLine, stmt: cst.Expr, call: cst.Call) -> None:
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        values = dict(zip(("dst", "src", "casting", "where"), positional)) | keywords
        target = _target(self, values["dst"]) if "dst" in values and "src" in values else None
        if target is None or set(values) - {"dst", "src", "casting", "where"}:
            self.report(stmt, "`np.copyto` writes into an array in place; jaxfix cannot rewrite this call")
            return
        dst, src, jnp = target.base_src, self.code(values["src"]), self.jnp
        if "where" in values:
            value = f"{jnp}.where({self.code(values['where'])}, {src}, {dst})"
        else:
            value = f"{jnp}.broadcast_to({src}, {dst}.shape)"
        self._judged(line, stmt, target, f"`np.copyto` writes into array `{dst}` in place",
                     f"{dst} = {value}.astype({dst}.dtype)")

    def _out(self, line: cst.SimpleStatementLine, stmt: cst.Expr, call: cst.Call, qualified: str, out: cst.Arg) -> None:
        value = out.value
        if isinstance(value, cst.Tuple) and len(value.elements) == 1:
            value = value.elements[0].value
        source = self.code(call.func)
        target = _target(self, value)
        entry = jnp_api.lookup(qualified)
        rest = [a for a in call.args if a is not out]
        keywords = [a.keyword.value for a in rest if a.keyword is not None]
        if target is None or entry is None or entry.get("kind") in ("constant", "class"):
            self.report(stmt, f"`{source}(..., out=...)` writes into an array in place; jaxfix cannot rewrite it")
            return
        if "where" in keywords or not jnp_api.accepts_keywords(entry, keywords):
            self.report(stmt, f"`{source}(..., out=...)` writes into `{target.base_src}` in place with arguments "
                        "jaxfix cannot carry over; rewrite it with `jnp.where` and assign the result")
            return
        args = ", ".join(_arg_code(self, a) for a in rest)
        short = qualified.split(".", 1)[1]
        new = f"{target.base_src} = {self.jnp}.{short}({args})"
        if not any(self.code(a.value) == target.base_src for a in rest):
            new += f".astype({target.base_src}.dtype)"
        self._judged(line, stmt, target, f"`{source}(..., out={target.base_src})` writes into the array in place", new)

    def _judged(self, line: cst.CSTNode, stmt: cst.Expr, target: Target, problem: str, new: Optional[str]) -> None:
        verdict = _inplace.judge(self, line, target)
        if verdict.skip:
            self._maybe_array(line, stmt, target)
            return
        if verdict.blocker is not None or new is None:
            self.report(stmt, f"{problem}: {verdict.blocker or 'JAX has no in-place form of it'}")
            return
        reasons = verdict.reasons
        message = f"{problem}; the functional rewrite may change behaviour: " + "; ".join(reasons) if reasons else (
            f"{problem}: JAX arrays are immutable"
        )
        replacement = cst.ensure_type(self.statements(new + "\n")[0], cst.SimpleStatementLine).body[0]
        self.report(stmt, message, replacement=replacement, unsafe=bool(reasons), blocks_function=bool(reasons),
                    title=f"replace with `{new if len(new) < 60 else new[:57] + '...'}`", imports=("jnp",))


    def _maybe_array(self, line: cst.CSTNode, stmt: cst.Expr, target: Target) -> None:
        """`x.sort()` / `x.fill(v)` on a parameter with no sign of being an array: a list has these methods too, so
        nothing is rewritten, but if it is an array JAX's `sort`/`fill` return a new array and the line does nothing."""
        call = stmt.value
        aliases = _inplace.facts(self)
        if aliases is None or target.name is None or not isinstance(call, cst.Call) or call.func.attr.value != "sort":  # type: ignore[attr-defined]
            return
        if any(a.keyword is not None and a.keyword.value in ("key", "reverse") for a in call.args):
            return  # list.sort's own keywords: not an array
        kinds = aliases.kinds(line, target.name)
        if kinds & {"param", "unknown"} and not kinds & {"container", "int"}:
            self.report(
                stmt,
                f"if `{target.name}` is an array, `{target.base_src}.sort()` sorts it in place in NumPy, but in JAX "
                f"`sort` returns a sorted copy and this line does nothing: write `{target.name} = jnp.sort(...)` and "
                "return it (a list, which also has `.sort()`, needs no change)",
            )


def _target(rule: Rule, expr: cst.BaseExpression) -> Optional[Target]:
    node = expr
    while isinstance(node, cst.Attribute):
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    return Target(expr, rule.code(expr), [], [])


def _root(view: cst.BaseExpression) -> cst.BaseExpression:
    """`a` of `a[i][:k]`."""
    while isinstance(view, cst.Subscript):
        view = view.value
    return view


def _arg_code(rule: Rule, arg: cst.Arg) -> str:
    text = rule.code(arg.value)
    if arg.keyword is not None:
        return f"{arg.keyword.value}={text}"
    return f"{arg.star}{text}"
