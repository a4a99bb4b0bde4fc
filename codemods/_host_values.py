"""NumPy calls whose result must stay a host value: JX501 (numpy-namespace) leaves them NumPy, unreported.

- `static(rule, value)`: an argument that is a Python value, not an array (a shape, a literal, a tuple parameter, a
  constant of NumPy functions of literals, `2 * np.log(2)`): a call given only such arguments (`np.prod(x.shape)`,
  `np.sqrt(2 * np.log(2))`) must give a concrete number under `jit`, which its `jax.numpy` namesake would make a
  tracer; and a constant stays a NumPy scalar, which a list or a Python number meets as NumPy does (`fwhm / (2 *
  np.sqrt(2 * np.log(2)))` of a list is an array; a JAX scalar raises `TypeError` on the list); `host_result(rule,
  call, name)`: such a call, which JX501 leaves NumPy (read by `_kept_numpy` too);
- `SPACED` and `iterated(rule, call)`: evenly spaced values (`np.arange(1, n)`) that a `for` loop runs over, directly
  or through a local name: Python iterates them on the host, and the host code in the loop takes the numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from codemods._numpy_boundary import CREATION
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.static_params import static_by_name
from jaxfix.analysis.static_values import is_static_expression
from jaxfix.analysis.tracedness import function_tracedness

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# evenly spaced values: run over by a `for` loop, they are host numbers (`for i in np.arange(1, n)`)
SPACED = {"arange", "linspace", "logspace", "geomspace"}


def host_result(rule: Rule, call: cst.Call, name: str) -> bool:
    """Whether the NumPy function `name` (its last part: "prod"), called as `call`, is given only static arguments
    and makes no array by design (not `CREATION`): JX501 leaves it NumPy, so its result stays a concrete value."""
    return bool(call.args) and name not in CREATION and all(static(rule, arg.value) for arg in call.args)


def static(rule: Rule, value: cst.BaseExpression) -> bool:
    """A static expression, or a parameter that is not an array (`rng=(25, 75)`, `axis`, a mode string)."""
    if is_static_expression(value) or constant(rule, value):
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


NUMPY_CONSTANTS = frozenset({"numpy.pi", "numpy.e", "numpy.inf", "numpy.nan", "numpy.euler_gamma"})


def constant(rule: Rule, value: cst.BaseExpression) -> bool:
    """Literals, NumPy's constants, arithmetic on them and NumPy functions of them (`2 * np.sqrt(2 * np.log(2))`,
    `np.pi / 4`): a number fixed when the code is written (array makers such as `np.zeros(3)`, and `np.random`,
    are not)."""
    if is_static_expression(value):
        return True
    if isinstance(value, cst.UnaryOperation):
        return constant(rule, value.expression)
    if isinstance(value, cst.BinaryOperation):
        return constant(rule, value.left) and constant(rule, value.right)
    if isinstance(value, cst.Attribute):
        return numpy_name(rule, value) in NUMPY_CONSTANTS
    if not isinstance(value, cst.Call) or not value.args:
        return False
    qualified = numpy_name(rule, value.func) or ""
    if not qualified.startswith("numpy.") or qualified.startswith("numpy.random") or qualified.split(".")[-1] in CREATION:
        return False
    return all(arg.keyword is None and not arg.star and constant(rule, arg.value) for arg in value.args)


def iterated(rule: Rule, call: cst.Call) -> bool:
    """Whether `call` is what a `for` loop runs over (directly, or through `enumerate`/`zip`/`reversed`), or makes
    a local name a `for` loop runs over (`keys = np.arange(15, 26, 5)`, then `for key in keys:`, whose `key` is a
    dict key: acoustics' noise criteria); the name may be used otherwise too, as a NumPy array."""
    if _loop_iterable(rule, call):
        return True
    assign = rule.get_metadata(ParentProvider, call, None)
    function = rule.current_function
    if function is None or not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
                                and isinstance(assign.targets[0].target, cst.Name)):
        return False
    flow = function_flow(rule, function)
    return flow.knows(assign) and any(_loop_iterable(rule, use) for use in flow.uses(assign, assign.targets[0].target.value))


def _loop_iterable(rule: Rule, value: cst.BaseExpression) -> bool:
    """Whether `value` is what a `for` loop runs over (directly, or through `enumerate`/`zip`/`reversed`)."""
    node: cst.CSTNode = value
    parent = rule.get_metadata(ParentProvider, node, None)
    while isinstance(parent, cst.Arg):
        wrapper = rule.get_metadata(ParentProvider, parent, None)
        if not (isinstance(wrapper, cst.Call) and isinstance(wrapper.func, cst.Name) and
                wrapper.func.value in ("enumerate", "zip", "reversed")):
            return False
        node, parent = wrapper, rule.get_metadata(ParentProvider, wrapper, None)
    return isinstance(parent, cst.For) and parent.iter is node
