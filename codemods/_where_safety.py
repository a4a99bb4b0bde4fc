"""Evaluating both sides: `jnp.where` computes every branch, so what it evaluates must be cheap, pure and finite.

`cheap_and_pure` says whether an expression may be evaluated whichever way the condition goes (no side effects, no
expensive linear algebra or FFTs); `guarded` wraps the inputs of operations that give inf/NaN, or an infinite
derivative, outside the branch's domain (`log(u)`, `x / u`: the gradient guard known as the "double where").
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxfix import walk

# f(u) can give inf/NaN (or an infinite derivative) outside the branch's domain: guard u, the argument at
# `position`, with a value where f is finite and smooth.
UNSAFE_CALLS = {
    "log": (0, "1.0"), "log2": (0, "1.0"), "log10": (0, "1.0"), "sqrt": (0, "1.0"), "reciprocal": (0, "1.0"),
    "log1p": (0, "0.0"), "arcsin": (0, "0.0"), "arccos": (0, "0.0"), "arctanh": (0, "0.0"), "exp": (0, "0.0"),
    "power": (0, "1.0"), "divide": (1, "1.0"), "true_divide": (1, "1.0"), "float_power": (0, "1.0"),
}
PURE_METHODS = {
    "sum", "mean", "max", "min", "prod", "std", "var", "dot", "T", "reshape", "astype", "clip", "ravel", "flatten",
    "transpose", "squeeze", "cumsum", "cumprod", "any", "all", "argmax", "argmin", "round", "conj", "real", "imag",
}
EXPENSIVE = {
    "inv", "solve", "svd", "eig", "eigh", "qr", "cholesky", "lstsq", "det", "slogdet", "pinv", "matrix_power",
    "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "einsum", "convolve", "correlate", "expm",
}
SAFE_BUILTINS = {"abs", "max", "min", "float", "int", "round", "len"}
# builtins that need a concrete value: fine in both sides of `jnp.where` only on values that are not local
HOST_CONVERSIONS = {"int", "float", "bool", "complex"}


_IMPURE_OR_COSTLY = (cst.Lambda, cst.NamedExpr, cst.Yield, cst.Await, cst.List, cst.Dict, cst.Set, cst.ListComp,
                     cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.FormattedString, cst.SimpleString,
                     cst.ConcatenatedString)


def cheap_and_pure(node: cst.CSTNode, local_names: frozenset[str]) -> bool:
    """Side-effect free and cheap enough to evaluate on both sides of `jnp.where`."""
    for n in walk.nodes(node):
        if isinstance(n, _IMPURE_OR_COSTLY) or isinstance(n, cst.Name) and n.value == "None":
            return False
        if isinstance(n, cst.Call) and not _pure_call(n, local_names):
            return False
    return True


def _pure_call(call: cst.Call, local_names: frozenset[str]) -> bool:
    func = call.func
    if isinstance(func, cst.Name):
        if func.value in HOST_CONVERSIONS:
            # `int(n * m)` of a local value: it may be traced (then it raises under `jit`, and `jnp.where` evaluates it
            # even where the `if` skipped it: an overflow, a Python int turned array)
            return not any(walk.name_values(a.value) & local_names for a in call.args)
        return func.value in SAFE_BUILTINS
    if not isinstance(func, cst.Attribute) or func.attr.value in EXPENSIVE:
        return False
    root = func.value
    while isinstance(root, cst.Attribute):
        if root.attr.value in EXPENSIVE:
            return False
        root = root.value
    if isinstance(root, cst.Name) and root.value == "math" and root.value not in local_names:
        # `math.factorial(n)`, `math.log(x)` of a local value: Python numbers only (a tracer raises), and a domain
        # error raises (`factorial(-1)`), where the `if` that `jnp.where` replaces guarded it (pyDOE3's n_comb)
        return not any(walk.name_values(a.value) & local_names for a in call.args)
    if isinstance(root, cst.Name) and root.value not in local_names:
        return root.value in ("np", "jnp", "numpy", "onp", "jax", "lax")  # a numeric module function
    return func.attr.value in PURE_METHODS  # a method of a local array


def _literal(node: cst.BaseExpression) -> Optional[float]:
    if isinstance(node, (cst.Integer, cst.Float)):
        return float(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _literal(node.expression)
        return None if inner is None else -inner
    return None


class _Guard(cst.CSTTransformer):
    """Wrap the inputs of operations that can blow up outside the branch: `log(u)` -> `log(wrap(u, "1.0"))`."""

    def __init__(self, wrap: Callable[[cst.BaseExpression, str], cst.BaseExpression]) -> None:
        super().__init__()
        self.wrap = wrap

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        func = updated.func
        name = func.attr.value if isinstance(func, cst.Attribute) else None
        if name not in UNSAFE_CALLS or isinstance(func.value, cst.Name) and func.value.value == "self":  # type: ignore[union-attr]
            return updated
        position, safe = UNSAFE_CALLS[name]
        positional = [a for a in updated.args if a.keyword is None]
        if len(positional) <= position or _literal(positional[position].value) is not None:
            return updated
        if name == "power" and len(positional) > 1 and _harmless_exponent(positional[1].value):
            return updated
        target = positional[position]
        args = [a.with_changes(value=self.wrap(a.value, safe)) if a is target else a for a in updated.args]
        return updated.with_changes(args=args)

    def leave_BinaryOperation(self, original: cst.BinaryOperation, updated: cst.BinaryOperation) -> cst.BaseExpression:
        op = updated.operator
        if isinstance(op, (cst.Divide, cst.FloorDivide, cst.Modulo)):
            value = _literal(updated.right)
            if value is None or value == 0:
                return updated.with_changes(right=self.wrap(updated.right, "1.0"))
        elif isinstance(op, cst.Power) and not _harmless_exponent(updated.right):
            base = _literal(updated.left)
            if base is None or base <= 0:
                return updated.with_changes(left=self.wrap(updated.left, "1.0"))
        return updated


def _harmless_exponent(node: cst.BaseExpression) -> bool:
    value = _literal(node)
    return value is not None and value >= 1 and float(value).is_integer() or value == 0


def guarded(node: cst.BaseExpression, wrap: Callable[[cst.BaseExpression, str], cst.BaseExpression]) -> cst.BaseExpression:
    return node.visit(_Guard(wrap))  # type: ignore[return-value]
