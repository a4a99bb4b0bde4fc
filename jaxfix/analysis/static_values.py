"""A purely syntactic test for expressions that are static under `jit` whatever the inputs: literals, shape
metadata (`x.shape`, `x.ndim`, `x.size`, `x.dtype`, `len(...)`) and arithmetic on them.

It needs no context, so any rule can use it; the tracedness provider (`jaxfix.analysis.tracedness`) gives the
fuller answer that also follows names.
"""

from __future__ import annotations

import libcst as cst

STATIC_ATTRIBUTES = {"shape", "ndim", "size", "dtype", "itemsize"}


def is_static_expression(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("None", "True", "False")
    if isinstance(node, cst.Attribute):
        return node.attr.value in STATIC_ATTRIBUTES
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(is_static_expression(el.value) for el in node.elements if isinstance(el, cst.Element))
    if isinstance(node, cst.Subscript):
        return is_static_expression(node.value)
    if isinstance(node, cst.UnaryOperation):
        return is_static_expression(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return is_static_expression(node.left) and is_static_expression(node.right)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len":
        return True
    return False
