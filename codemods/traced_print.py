from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, tracedness
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


class TracedPrint(Rule):
    """
    ## What it does
    Finds `print(...)` calls inside functions whose arguments include a traced value, and offers to replace them
    with `jax.debug.print`, moving string literals and f-string text into its format string:
    `print("loss", loss)` -> `jax.debug.print("loss {}", loss)`.

    ## Why is this bad?
    Under `jax.jit` the Python body runs once, while tracing: `print` then shows tracer objects
    (`Traced<ShapedArray(float32[])>`), not values, and prints nothing on later calls, which reuse the compiled
    function. `jax.debug.print` is staged into the computation and prints the runtime values at every call.

    ## Example
    ```python
    def step(x, lr):
        grad = 2 * x
        print("grad norm", (grad * grad).sum())
        return x - lr * grad
    ```

    ## Use instead
    ```python
    import jax

    def step(x, lr):
        grad = 2 * x
        jax.debug.print("grad norm {}", (grad * grad).sum())
        return x - lr * grad
    ```

    ## Fix safety
    Always unsafe: the output differs. `print` ran once per trace (and on every call without `jit`);
    `jax.debug.print` prints at every call, formats arrays with NumPy's printing (float32 values, `[1. 2.]`), and
    under `jit`/`vmap` its order relative to other side effects is not guaranteed (`ordered=True` fixes the order
    at a cost). There is no fix when `print` has `sep=`, `end=`, `file=` or `flush=`, when an f-string uses `=`
    or a nested format spec, or when a literal uses a prefix (`r`, `b`) or triple quotes.

    ## Known problems
    Whether an argument is traced is judged by `jaxfix.analysis.tracedness`; prints of static values only
    (messages, shapes) are left alone, though under `jit` they too run only at trace time.
    """

    CODE = "JX503"
    SUMMARY = "print of a traced value runs once at trace time; use jax.debug.print"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, TracednessProvider, DataflowProvider, ParentProvider)
    ORDER = 85
    TRIGGERS = (b"numpy", b"jax")  # array code only

    VALID = [
        Valid("def f(x):\n    print('shape', x.shape)\n    return x\n"),
        Valid("print('loaded')\nX = 3\nprint(X)\n"),
        Valid("import jax\ndef f(x):\n    jax.debug.print('x {}', x)\n    return x\n"),
        Valid("def f(x, print):\n    print(x)\n    return x\n"),
    ]
    INVALID = [
        Invalid(
            "def f(x):\n    print('total', x.sum())  # debug\n    return x\n",
            expected="import jax\n\ndef f(x):\n    jax.debug.print('total {}', x.sum())  # debug\n    return x\n",
            unsafe=True,
            lines=[2],
        ),
        Invalid(
            'def f(x, t):\n    print(f"t={t:.3f} first {x[0]!r}")\n    return x * t\n',
            expected='import jax\n\ndef f(x, t):\n    jax.debug.print("t={:.3f} first {!r}", t, x[0])\n    return x * t\n',
            unsafe=True,
        ),
        Invalid("import sys\ndef f(x):\n    print(x, file=sys.stderr)\n    return x\n", lines=[3]),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.current_function is None or not (isinstance(node.func, cst.Name) and node.func.value == "print"):
            return
        function = self.current_function
        params = {p.name.value for p in (*function.params.posonly_params, *function.params.params,
                                         *function.params.kwonly_params)}
        if "print" in params or "print" in function_flow(self, function).writes(function.body):
            return  # `print` rebound in the function
        values: list[cst.BaseExpression] = []
        for arg in node.args:
            if isinstance(arg.value, cst.FormattedString):
                values += [p.expression for p in arg.value.parts if isinstance(p, cst.FormattedStringExpression)]
            else:
                values.append(arg.value)
        if not values or all(tracedness(self, v) == Tracedness.STATIC for v in values):
            return
        statement = self.get_metadata(ParentProvider, node)
        line = self.get_metadata(ParentProvider, statement) if isinstance(statement, cst.Expr) else None
        message = (
            "`print` of a traced value inside a function: under `jit` it runs once, at trace time, and shows tracers, "
            "not values"
        )
        built = self._debug_print(node) if isinstance(line, cst.SimpleStatementLine) else None
        if built is None:
            self.report(line or node, message + "; use `jax.debug.print` to print runtime values")
            return
        self.report(
            line,
            message + "; `jax.debug.print` prints the values at every call (unsafe: the output format and timing "
            "differ)",
            changes={node: self.expr(built)},
            unsafe=True,
            title=f"replace with `{built}`",
            imports=("jax",),
        )

    def _debug_print(self, node: cst.Call) -> Optional[str]:
        if any(a.keyword is not None or a.star for a in node.args):
            return None
        quote: Optional[str] = None
        pieces: list[str] = []
        args: list[str] = []
        for arg in node.args:
            value = arg.value
            if isinstance(value, cst.SimpleString):
                if value.prefix.lower() not in ("", "u") or len(value.quote) != 1 or quote not in (None, value.quote):
                    return None
                quote = value.quote
                pieces.append(_escape(value.raw_value))
            elif isinstance(value, cst.FormattedString):
                if value.prefix.lower() != "f" or len(value.end) != 1 or quote not in (None, value.end):
                    return None
                quote = value.end
                text = self._fstring(value, args)
                if text is None:
                    return None
                pieces.append(text)
            else:
                pieces.append("{}")
                args.append(self.code(value))
        quote = quote or '"'
        fmt = " ".join(pieces)
        try:
            ast.literal_eval(quote + fmt + quote)
        except (SyntaxError, ValueError):
            return None
        return f"{self.jax}.debug.print({', '.join([quote + fmt + quote, *args])})"

    def _fstring(self, value: cst.FormattedString, args: list[str]) -> Optional[str]:
        text = ""
        for part in value.parts:
            if isinstance(part, cst.FormattedStringText):
                text += part.value  # already brace-escaped, as str.format expects
                continue
            if part.equal is not None:
                return None
            spec = ""
            if part.format_spec:
                if not all(isinstance(p, cst.FormattedStringText) for p in part.format_spec):
                    return None
                spec = ":" + "".join(p.value for p in part.format_spec)
            conversion = f"!{part.conversion}" if part.conversion else ""
            text += "{" + conversion + spec + "}"
            args.append(self.code(part.expression))
        return text
