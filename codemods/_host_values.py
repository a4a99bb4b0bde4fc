"""NumPy calls whose result must stay a host value: JX501 (numpy-namespace) leaves them NumPy, unreported.

- `static(rule, value)`: an argument that is a Python value, not an array (a shape, a literal, a tuple parameter, a
  constant of NumPy functions of literals, `2 * np.log(2)`): a call given only such arguments (`np.prod(x.shape)`,
  `np.sqrt(2 * np.log(2))`) must give a concrete number under `jit`, which its `jax.numpy` namesake would make a
  tracer; and a constant stays a NumPy scalar, which a list or a Python number meets as NumPy does (`fwhm / (2 *
  np.sqrt(2 * np.log(2)))` of a list is an array; a JAX scalar raises `TypeError` on the list); `host_result(rule,
  call, name)`: such a call, which JX501 leaves NumPy (read by `_kept_numpy` too);
- `counted(rule, call)`: a call whose result is a count, a size or a shape (`x.repeat(n)`, `np.tile(a, n)`,
  `np.zeros((n, n))`, `range(n)`, `x.reshape(n, -1)`, the `s` of an FFT function: `fftw.rfftn(a, dims)`), directly
  or through local names, arithmetic, `int()` and `max()`/`min()`, or a slice bound (`X[:k]`): NumPy takes a float count where `jax.numpy` raises
  (`np.arange(3.0).repeat(np.sqrt(4))`; `jnp`'s `repeat` hashes it: commpy's QAM modem; pyfftw's cache hashes `s`),
  and under `jit` a count must be concrete, which only the NumPy call keeps it;
- `SPACED` and `iterated(rule, call)`: evenly spaced values (`np.arange(1, n)`) that a `for` loop runs over, directly
  or through a local name: Python iterates them on the host, and the host code in the loop takes the numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from codemods._numpy_boundary import CREATION
from jaxfix.analysis.dataflow import function_flow
from jaxfix.imports import dotted_name
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
    and makes no array by design (not `CREATION`): JX501 leaves it NumPy, so its result stays a concrete value.
    The `*_like` makers count too: given only static values, their prototype is a Python value, a shape
    (`np.ones_like(x.shape[1:])`, compared with the shape: PyEMD's emd), which `jnp.ones_like` rejects (`TypeError`),
    as a JAX array compared with a tuple raises."""
    return bool(call.args) and (name not in CREATION or name in _LIKE) and all(static(rule, arg.value) for arg in call.args)


_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})


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


# where a call takes counts, sizes and shapes: argument positions of the function (None: all of them), as a method
# of an array one fewer (`x.repeat(n)`, `x.reshape(n, -1)`); and keywords that are counts, sizes or shapes
COUNT_POSITIONS: dict[str, Optional[tuple[int, ...]]] = {
    "repeat": (1,), "tile": (1,), "zeros": (0,), "ones": (0,), "empty": (0,), "full": (0,), "eye": (0, 1),
    "identity": (0,), "tri": (0, 1), "reshape": tuple(range(1, 33)), "broadcast_to": (1,), "range": None,
}
COUNT_KEYWORDS = frozenset({"repeats", "reps", "shape", "newshape", "size", "num"})
# FFT functions, whose second argument (`n` or `s`) is a length or a shape in every library that has them (`np.fft`,
# `scipy.fft`, pyfftw's interfaces, whose cache hashes `s`: a JAX array raises `TypeError`, sporco's `fftconv`)
FFT_FUNCTIONS = frozenset({"fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
                           "fftn", "ifftn", "rfftn", "irfftn"})
# calls through which a count stays one: Python's own conversions
_CONVERSIONS = frozenset({"int", "round", "abs"})
# builtins whose result is one of their arguments: `max(2, int(np.sqrt(n)))` is a count when it is (pyod's bins)
_PICKS = frozenset({"max", "min"})


def counted(rule: Rule, call: cst.Call) -> Optional[str]:
    """The name of the function or method (`repeat`, `zeros`, `range`) whose count, size or shape the result of
    `call` is (see the module docstring), else None."""
    function = rule.current_function
    return _count_use(rule, call, function, 3) if function is not None else None


def _count_use(rule: Rule, node: cst.CSTNode, function: cst.FunctionDef, depth: int) -> Optional[str]:
    child, parent = node, rule.get_metadata(ParentProvider, node, None)
    while True:
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
            child, parent = parent, rule.get_metadata(ParentProvider, parent, None)
        elif isinstance(parent, cst.Element):  # `(n, n)`: a shape
            holder = rule.get_metadata(ParentProvider, parent, None)
            if not isinstance(holder, (cst.Tuple, cst.List)):
                return None
            child, parent = holder, rule.get_metadata(ParentProvider, holder, None)
        elif isinstance(parent, cst.Arg) and parent.value is child:
            outer = rule.get_metadata(ParentProvider, parent, None)
            if not isinstance(outer, cst.Call):
                return None
            if isinstance(outer.func, cst.Name) and (outer.func.value in _CONVERSIONS and len(outer.args) == 1
                                                     or outer.func.value in _PICKS and len(outer.args) > 1):
                child, parent = outer, rule.get_metadata(ParentProvider, outer, None)
                continue
            return _count_argument(rule, outer, parent)
        elif isinstance(parent, cst.Slice) and child in (parent.lower, parent.upper, parent.step):
            return "slice"  # `X[:k]`: a slice's bounds fix the result's shape, so they must be concrete under `jit`
        elif isinstance(parent, (cst.Assign, cst.AugAssign)) and parent.value is child and depth > 0:
            targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
            if len(targets) != 1 or not isinstance(targets[0], cst.Name):
                return None
            flow = function_flow(rule, function)
            if not flow.knows(parent):
                return None
            for use in flow.uses(parent, targets[0].value):
                holder = rule.get_metadata(ParentProvider, use, None)
                if isinstance(holder, cst.AugAssign) and holder.target is use:  # `n //= k`: still the value
                    found = _aug_uses(rule, holder, function, depth - 1)
                else:
                    found = _count_use(rule, use, function, depth - 1)
                if found is not None:
                    return found
            return None
        else:
            return None


def _aug_uses(rule: Rule, aug: cst.AugAssign, function: cst.FunctionDef, depth: int) -> Optional[str]:
    """A count reached by the name an augmented assignment (`n //= k`) rebinds."""
    flow = function_flow(rule, function)
    if depth < 0 or not flow.knows(aug) or not isinstance(aug.target, cst.Name):
        return None
    for use in flow.uses(aug, aug.target.value):
        found = _count_use(rule, use, function, depth - 1)
        if found is not None:
            return found
    return None


def _count_argument(rule: Rule, call: cst.Call, arg: cst.Arg) -> Optional[str]:
    """The name of `call`'s function (its last part) when `arg` is one of its count, size or shape arguments, else
    None."""
    func = call.func
    short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    written = short
    if short in FFT_FUNCTIONS and isinstance(func, cst.Attribute):  # `fftw.rfftn(a, dims, axes)`, `np.fft.fft(x, n=m)`
        position = call.args.index(arg)
        return written if (arg.keyword.value in ("n", "s") if arg.keyword is not None else position == 1) else None
    if arg.keyword is not None:
        return written if arg.keyword.value in COUNT_KEYWORDS else None
    if short not in COUNT_POSITIONS:
        return None
    positions = COUNT_POSITIONS[short]
    position = call.args.index(arg)
    function_form = isinstance(func, cst.Name) or numpy_name(rule, func) is not None \
        or dotted_name(func).startswith(("jnp.", "jax.numpy."))
    if isinstance(func, cst.Name) and short != "range" and numpy_name(rule, func) is None:
        return None  # a function of the module that happens to be called `zeros`
    if positions is None:
        return written
    if not function_form:
        positions = tuple(p - 1 for p in positions)
    return written if position in positions else None
