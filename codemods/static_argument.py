from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxfix.analysis.static_args import array_parameters, concrete_uses
from jaxfix.analysis.plain_python import numba_decorator
from jaxfix.analysis.static_params import _jit_static, is_jit
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class StaticArgument(Rule):
    """
    ## What it does
    Finds parameters used where JAX needs a concrete Python value: a shape (`jnp.zeros((n,))`,
    `x.reshape(n, -1)`), a slice bound (`x[:n]`), an `axis=`, the bound of a `for ... in range(n)` loop that stays
    Python, or a static argument of a jitted callee in the same module. Such a parameter must be static under
    `jax.jit`. When the function has a `jax.jit` decorator, the fix adds the parameter to its `static_argnames`;
    otherwise the message says how to call `jax.jit` for it.

    ## Why is this bad?
    A traced parameter in those places raises `ConcretizationTypeError` / `TracerIntegerConversionError` under
    `jit`: shapes must be known when the function is traced.

    ## Example
    ```python
    @jax.jit
    def head(x, n):
        return x[:n] * 2
    ```

    ## Use instead
    ```python
    @jax.jit(static_argnames=("n",))
    def head(x, n):
        return x[:n] * 2
    ```

    ## Fix safety
    Safe: a static argument computes the same values; `jit` compiles once per distinct value of it (and the value
    must be hashable, which an `int`, a tuple or a string is).

    ## Known problems
    Only direct uses and locals computed from a parameter are followed, within one function (callees: same
    module, through their `jit` decorators). A size computed from the values of a parameter the function treats as
    an array (annotated `np.ndarray`, given `.T` or `.conj()`, passed to `linalg`) is reported without a fix: an
    array cannot be static, and the size must be computed outside `jit`. Other parameters are assumed to come as
    Python numbers.
    """

    CODE = "JX510"
    SUMMARY = "parameter used as a shape, slice bound or loop bound must be static under jit"
    FIX = FixAvailability.SOMETIMES
    ORDER = 60
    TRIGGERS = (b"numpy", b"jax")  # array code only

    VALID = [
        Valid("import jax\n@jax.jit\ndef f(x):\n    return x[: x.shape[0] // 2]\n"),
        Valid("import jax\n@jax.jit(static_argnames=('n',))\ndef f(x, n):\n    return x.reshape(n, -1)\n"),
        Valid("def f(x, i):\n    return x[i] * 2\n"),
        # numba's `jit` (imported in a `try`): it takes no `static_argnames`, and numba compiles shapes itself (pymoo)
        Valid("import numpy as np\ntry:\n    from numba import jit\nexcept ImportError:\n    raise\n\n"
              "@jit(nopython=True, fastmath=True)\ndef head(x, n):\n    return np.zeros(n) + x[:n]\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\n\n@jax.jit\ndef f(x, n):\n    return x[:n]\n",
            expected="import jax\n\n@jax.jit(static_argnames=(\"n\",))\ndef f(x, n):\n    return x[:n]\n",
            lines=[5],
        ),
        Invalid("import jax.numpy as jnp\ndef f(x, n):\n    return jnp.zeros((n, 2)) + x\n", expected=None, lines=[3]),
        # a decorator that only mentions jit is not `jax.jit`: it would not take `static_argnames`
        Invalid("from deco import capabilities\n@capabilities(jax_jit=False)\ndef f(x, n):\n    return x[:n]\n",
                expected=None, lines=[4]),
        # a size computed from an array's values: no static argument helps (an array is not hashable), and the
        # Python number beside it still gets its fix
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef head(x, tol):\n    s = jnp.linalg.svd(x, compute_uv=False)\n"
            "    rank = int(jnp.sum(s > tol * s[0])) if tol > 0 else x.shape[0]\n    return s[:rank]\n",
            expected="import jax\nimport jax.numpy as jnp\n\n@jax.jit(static_argnames=(\"tol\",))\ndef head(x, tol):\n"
            "    s = jnp.linalg.svd(x, compute_uv=False)\n"
            "    rank = int(jnp.sum(s > tol * s[0])) if tol > 0 else x.shape[0]\n    return s[:rank]\n",
            lines=[8, 8],
        ),
        Invalid(
            "import functools\nimport jax\n\n@functools.partial(jax.jit)\ndef f(x, n):\n    return x[:n]\n",
            expected="import functools\nimport jax\n\n@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef f(x, n):\n"
            "    return x[:n]\n",
            lines=[6],
        ),
    ]

    def __init__(self, context) -> None:
        super().__init__(context)
        self._callees: dict[str, tuple[list[str], set[str]]] = {}
        for stmt in context.module.body:
            if isinstance(stmt, cst.FunctionDef):
                static = _jit_static(stmt)
                if static:
                    params = [p.name.value for p in (*stmt.params.posonly_params, *stmt.params.params)]
                    self._callees[stmt.name.value] = (params, static)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if len(self._functions) > 1:
            return  # a nested function is called with whatever its enclosing function passes
        uses = concrete_uses(node, self._callees)
        declared = _jit_static(node)
        missing = [name for name in uses if name not in declared and name not in ("self", "cls")]
        arrays = array_parameters(node) & set(missing) if missing else set()
        for name in arrays:  # its values, not a Python number, set the size: no static argument helps
            use = uses[name][0]
            self.report(use.node, (
                f"`{self.code(use.node).strip()}` is {use.reason}, computed from the values of the array parameter "
                f"`{name}`: the result's shape depends on data, which `jit` cannot trace, and an array cannot be a "
                "static argument; compute it outside the jitted function and pass it in as a static Python int"
            ))
        missing = [name for name in missing if name not in arrays]
        if not missing:
            return
        decorator = _jit_decorator(node, self.context.module)
        fix: dict = {}
        if decorator is not None:
            new = _with_static(decorator, missing)
            if new is not None:
                fix = {decorator: new}
        names = ", ".join(repr(n) for n in missing)
        for name in missing:
            use = uses[name][0]
            where = f"`{self.code(use.node).strip()}` is {use.reason}"
            if fix:
                message = f"parameter `{name}` must be static under `jit`: {where}"
                self.report(use.node, message, changes=fix, title=f"add {names} to `static_argnames`")
            else:
                message = (
                    f"parameter `{name}` must be static under `jit`: {where}; jit this function with "
                    f"`jax.jit({node.name.value}, static_argnames=({names},))`"
                )
                self.report(use.node, message)


def _jit_decorator(node: cst.FunctionDef, module: cst.Module) -> Optional[cst.Decorator]:
    for decorator in node.decorators:
        # `@jit(nopython=True)` after `from numba import jit` is numba's, which takes no `static_argnames` (pymoo)
        if is_jit(decorator.decorator) and not numba_decorator(decorator.decorator, module):
            return decorator
    return None


def _with_static(decorator: cst.Decorator, names: list[str]) -> Optional[cst.Decorator]:
    expr = decorator.decorator
    quoted = f'"{names[0]}",' if len(names) == 1 else ", ".join(f'"{n}"' for n in names)
    if not isinstance(expr, cst.Call):
        call = cst.parse_expression(f"{cst.Module([]).code_for_node(expr)}(static_argnames=({quoted}))")
        return decorator.with_changes(decorator=call)
    args = list(expr.args)
    for index, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == "static_argnames":
            value = arg.value
            if isinstance(value, (cst.Tuple, cst.List)):
                old = [cst.Module([]).code_for_node(e.value) for e in value.elements]
            elif isinstance(value, cst.SimpleString):
                old = [cst.Module([]).code_for_node(value)]
            else:
                return None
            items = [*old, *(f'"{n}"' for n in names)]
            text = f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
            args[index] = arg.with_changes(value=cst.parse_expression(text))
            return decorator.with_changes(decorator=expr.with_changes(args=args))
    extra = cst.parse_expression(f"f(static_argnames=({quoted}))").args[0]  # type: ignore[attr-defined]
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return decorator.with_changes(decorator=expr.with_changes(args=[*args, extra]))
