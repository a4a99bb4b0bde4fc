"""NumPy calls whose result must stay a host value: JX501 (numpy-namespace) leaves them NumPy, unreported.

- `static(rule, value)`: an argument that is a Python value, not an array (a shape, a literal, a tuple parameter):
  a call given only such arguments (`np.prod(x.shape)`) must give a concrete number under `jit`, which its
  `jax.numpy` namesake would make a tracer;
- `SPACED` and `iterated(rule, call)`: evenly spaced values (`np.arange(1, n)`) that a `for` loop runs over: Python
  iterates them on the host, and the host code in the loop takes the numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.static_params import static_by_name
from jaxfix.analysis.static_values import is_static_expression
from jaxfix.analysis.tracedness import function_tracedness

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# evenly spaced values: run over by a `for` loop, they are host numbers (`for i in np.arange(1, n)`)
SPACED = {"arange", "linspace", "logspace", "geomspace"}


def static(rule: Rule, value: cst.BaseExpression) -> bool:
    """A static expression, or a parameter that is not an array (`rng=(25, 75)`, `axis`, a mode string)."""
    if is_static_expression(value):
        return True
    if isinstance(value, cst.Attribute) and static_by_name(value.attr.value):
        return True  # `self.grid_shape`, `self.axis`: a Python value by NumPy's naming conventions
    if isinstance(value, cst.Subscript) and all(isinstance(e.slice, cst.Slice) for e in value.slice):
        return static(rule, value.value)  # `shape[k + 1:]`: a slice of a Python tuple is one too (findiff's indices)
    function = rule.current_function
    if not isinstance(value, cst.Name) or function is None:
        return False
    # (a local list of metadata, `shapes = [len(e) for e in nodes]`, too: `np.prod(shapes)` stays a Python
    # number, where `jnp.prod` would make a shape traced under `jit`: quantecon's cartesian)
    return function_tracedness(rule, function).static_value(value.value)


def iterated(rule: Rule, call: cst.Call) -> bool:
    """Whether `call` is what a `for` loop runs over (directly, or through `enumerate`/`zip`/`reversed`)."""
    node: cst.CSTNode = call
    parent = rule.get_metadata(ParentProvider, node, None)
    while isinstance(parent, cst.Arg):
        wrapper = rule.get_metadata(ParentProvider, parent, None)
        if not (isinstance(wrapper, cst.Call) and isinstance(wrapper.func, cst.Name) and
                wrapper.func.value in ("enumerate", "zip", "reversed")):
            return False
        node, parent = wrapper, rule.get_metadata(ParentProvider, wrapper, None)
    return isinstance(parent, cst.For) and parent.iter is node
