"""`functools.singledispatch` on NumPy types, for JX501 (numpy-namespace).

A function dispatching on the type of its first argument (`@singledispatch def area(shape)`) with an implementation
registered for `np.ndarray` (`@area.register def _(shape: np.ndarray)`, `@area.register(np.ndarray)`,
`area.register(np.ndarray, impl)`) or a NumPy scalar type sends every JAX array to its default implementation: a JAX
array is no `np.ndarray`, and under `jit` a tracer is not even a `jax.Array` subclass, so registering `jax.Array` too
would not help there. The default implementation commonly converts its argument and dispatches again
(`return area(np.asarray(shape))`, pointpats' geometry helpers): rewritten to `jnp.asarray`, that recurses forever.
The default implementation is left as it is (NumPy), so JAX arrays reach the registered one as NumPy arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from codemods._isinstance_widening import numpy_scalar_type
from jaxfix import walk
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.imports import dotted_name

if TYPE_CHECKING:
    from jaxfix.rule import Rule

_DISPATCHERS = frozenset({"singledispatch", "singledispatchmethod"})


def _dispatcher(fn: cst.FunctionDef) -> Optional[str]:
    """"singledispatch" or "singledispatchmethod" when `fn` is decorated with it, else None."""
    for decorator in fn.decorators:
        last = dotted_name(decorator.decorator).rpartition(".")[2]
        if last in _DISPATCHERS:
            return last
    return None


def _numpy_type(rule: Rule, node: Optional[cst.BaseExpression]) -> bool:
    if not isinstance(node, (cst.Attribute, cst.Name)):
        return False
    return numpy_name(rule, node) == "numpy.ndarray" or numpy_scalar_type(rule, node)


def _registered(rule: Rule, impl: cst.FunctionDef, register: cst.Decorator, method: bool) -> Optional[cst.BaseExpression]:
    """The type `register` (a decorator of `impl`) registers `impl` for: its argument, else the annotation of the
    dispatched parameter (the first; after `self` for a `singledispatchmethod`)."""
    decorator = register.decorator
    if isinstance(decorator, cst.Call):
        return decorator.args[0].value if decorator.args and decorator.args[0].keyword is None else None
    params = impl.params.params
    param = params[1] if method and len(params) > 1 else params[0] if params and not method else None
    return param.annotation.annotation if param is not None and param.annotation is not None else None


def numpy_registration(rule: Rule, fn: cst.FunctionDef) -> Optional[tuple[cst.BaseExpression, str]]:
    """For a `singledispatch` function `fn` with an implementation registered in the module for `np.ndarray` or a
    NumPy scalar type: (that type's node, the implementation's code name or "a function"); else None."""
    kind = _dispatcher(fn)
    if kind is None:
        return None
    name = fn.name.value
    method = kind == "singledispatchmethod"
    register = f"{name}.register"
    module = rule.context.module
    for impl in walk.nodes_of(module, cst.FunctionDef):
        for decorator in impl.decorators:  # type: ignore[attr-defined]
            target = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if dotted_name(target) == register:
                kind_node = _registered(rule, impl, decorator, method)  # type: ignore[arg-type]
                if _numpy_type(rule, kind_node):
                    return kind_node, f"`{impl.name.value}`"  # type: ignore[attr-defined,return-value]
    for call in walk.nodes_of(module, cst.Call):  # `area.register(np.ndarray, impl)`, `area.register(np.ndarray)(impl)`
        if dotted_name(call.func) == register and call.args and _numpy_type(rule, call.args[0].value):  # type: ignore[attr-defined]
            return call.args[0].value, "a function"  # type: ignore[attr-defined]
    return None


def default_message(rule: Rule, fn: cst.FunctionDef) -> Optional[str]:
    """Why the default implementation of a dispatch on a NumPy type stays as it is, or None."""
    found = numpy_registration(rule, fn)
    if found is None:
        return None
    kind, impl = found
    return (f"`{fn.name.value}` dispatches on the type of its argument and registers {impl} for `{rule.code(kind)}`: a "
            "JAX array is none (under `jit` a tracer is not even a `jax.Array` subclass), so after the migration every "
            "JAX array takes this default implementation, where a NumPy conversion that dispatches again "
            f"(`{fn.name.value}(np.asarray(x))`) would recurse forever as `jnp.asarray`: this default implementation "
            "is left as it is (NumPy), so JAX arrays reach the registered one as NumPy arrays")
