"""NumPy calls that JX501 (numpy-namespace) leaves NumPy, asked by the rules that rely on an array becoming a JAX array.

The in-place rules (JX101, JX102, JX103, JX301) rewrite an update of an array made in the function (`x[i] = v` ->
`x = x.at[i].set(v)`, `jnp.where`), which holds only when the NumPy call that makes the array is renamed to its
`jax.numpy` namesake: a NumPy array has no `.at`, and an array JX501 keeps NumPy on purpose (it goes to
`scipy.sparse`, is hashed, is made text, is checked against NumPy types) must not become a JAX array either.
`kept_reason(rule, call)` asks JX501's own tests: `NumpyBoundary.call_reason`, the one JX501 reports with, and
`_host_values.host_result` (a call given only Python values, which JX501 leaves NumPy silently), `iterated` (evenly
spaced values a `for` loop runs over) and `counted` (a count, size or shape), `_namesakes.unaccepted`
(arguments the namesake does not take: `np.log(p, where=p > 0)`) and `out=` (left to JX1xx); a call of a module
function JX501 leaves NumPy because a caller hands its result to `scipy.fftpack`, a `scipy.sparse` constructor or a
function that requires NumPy arrays (`_caller_writes.kept_results`). JX501's reasons that
leave the whole function NumPy (a callee or numba writes into the array, see `NumpyBoundary.filled_reason`) are not
repeated here: JX501 reports them with `leaves_function`, which holds back every fix in the function already.

A rule asking must declare `ParentProvider`, `DataflowProvider`, `MaskProvider`, `NumpyNameProvider` and
`TracednessProvider` (`DEPENDENCIES`), which JX501 reads too, so a full run resolves them once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst
import numpy as np

from codemods import _namesakes
from codemods._caller_writes import kept_results
from codemods._host_values import SPACED, counted, host_result, iterated
from codemods._namesakes import OTHER_FAMILIES
from codemods._numpy_boundary import NumpyBoundary
from jaxfix.analysis.dataflow import DataflowProvider
from jaxfix.analysis.masks import MaskProvider
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import TracednessProvider

if TYPE_CHECKING:
    from jaxfix.rule import Rule

DEPENDENCIES = (ParentProvider, DataflowProvider, MaskProvider, NumpyNameProvider, TracednessProvider)


def boundary(rule: Rule) -> NumpyBoundary:
    """The rule's `NumpyBoundary` (one per rule instance, so per pass: it caches module and function facts)."""
    found = rule.__dict__.get("_numpy_boundary")
    if found is None:
        found = rule.__dict__["_numpy_boundary"] = NumpyBoundary(rule)
    return found


def kept_reason(rule: Rule, call: cst.Call) -> Optional[str]:
    """Why JX501 leaves the NumPy call `call` (in the current function) NumPy, as its message says it, or None (not a
    NumPy call, or one JX501 renames). Facts JX501 gathers while it visits (`NumpyBoundary.kept`: a result read as a
    buffer, written through) are not seen here; they leave the whole function NumPy, which JX501's report holds."""
    if isinstance(call.func, cst.Name) and call.func.value in kept_results(rule):
        # a module function whose result a caller hands to `scipy.fftpack` (or `scipy.sparse`...): JX501 leaves it NumPy (fluids' pychebfun)
        return f"`{call.func.value}` stays NumPy in JX501's judgement: {kept_results(rule)[call.func.value]}"
    qualified = numpy_name(rule, call.func)
    if qualified is None or not qualified.startswith("numpy.") or qualified.startswith(OTHER_FAMILIES):
        return None
    reason = boundary(rule).call_reason(call, qualified)
    if reason is not None:
        return reason[0]
    if any(a.keyword is not None and a.keyword.value == "out" for a in call.args):
        return f"`{rule.code(call.func)}(..., out=...)` writes into its `out` array, which JX501 leaves NumPy"
    unaccepted = _namesakes.unaccepted(call, qualified, rule.code(call.func))
    if unaccepted is not None:  # `np.log(p, where=p > 0)`: JX501 reports it and leaves it NumPy (nolds' lyap_r)
        return unaccepted
    short = qualified.split(".")[-1]
    if host_result(rule, call, short):
        return (f"`{rule.code(call.func)}(...)` is given only Python values (shapes, literals), so JX501 keeps its "
                "result a concrete NumPy value")
    if short in SPACED and iterated(rule, call):  # `alphas = np.arange(...)`, `for i, a in enumerate(alphas)` (arch)
        return (f"a `for` loop runs over the values `{rule.code(call.func)}(...)` makes, so JX501 keeps them NumPy "
                "(Python iterates them on the host)")
    count = counted(rule, call)
    if count is not None:
        return (f"`{rule.code(call.func)}(...)` gives a count, size or shape (of `{count}`), which JX501 keeps a "
                "concrete NumPy value")
    return None


def kept_or_unsafe(rule: Rule, call: cst.Call) -> Optional[str]:
    """`kept_reason`, or, without `--unsafe-fixes`, why JX501 renames the call only as an unsafe fix
    (`_unsafe_rename`): either way the call stays NumPy in this run, so JX304 does not wrap its arguments
    (`np.logaddexp(0, x, **kwargs)`). The loop rules ask `kept_reason` alone: a call kept in every run blocks a loop,
    an unsafe rename makes its fix unsafe."""
    kept = kept_reason(rule, call)
    if kept is not None or rule.context.options.unsafe_fixes:
        return kept
    qualified = numpy_name(rule, call.func)
    if qualified is None or not qualified.startswith("numpy.") or qualified.startswith(OTHER_FAMILIES):
        return None
    unsafe = _unsafe_rename(rule, call, qualified)
    return None if unsafe is None else f"JX501 renames `{rule.code(call.func)}` only as an unsafe fix: the JAX function {unsafe}"


def _unsafe_rename(rule: Rule, call: cst.Call, qualified: str) -> Optional[str]:
    """How JX501's namesake differs for `call` where the rule offers the rename only as an unsafe fix, for the
    reasons that do not depend on JX501's own state: a namesake that differs by design (`_namesakes.DIFFERENT`),
    subnormal results (`nextafter`, `spacing`), integer inputs made floats, `np.histogram`'s counts, a computed static
    keyword, forwarded `**kwargs`, a query cast to a narrow sorted array; else
    None. Under safe fixes the call stays NumPy, so wrapping its arguments in `jnp.asarray` (JX304) only converts
    them (to float32 without x64) for nothing."""
    parts = qualified.split(".")
    short = parts[-1]
    named = ".".join(parts[1:])
    if named in _namesakes.SUBNORMAL:
        return "differs on subnormal numbers (flushed to zero by XLA on CPU)"
    different = _namesakes.DIFFERENT.get(named)
    if different is not None:
        return different
    ufunc = getattr(np, parts[1], None) if len(parts) == 2 else None
    before_out = ufunc.nin if isinstance(ufunc, np.ufunc) else _namesakes.out_position(parts[1]) if len(parts) == 2 else None
    # the call-by-call differences JX501 tells from the call alone too (`_purity.held_numpy` asks the same):
    # `jnp.histogram`'s float counts (a caller's edges made float32 by `jnp.asarray` change the counts), integer
    # inputs made floats, a computed static keyword
    integers = _namesakes.integer_inputs(rule, call, named) if named in _namesakes.INTEGER_TO_FLOAT else None
    return integers or _namesakes.float_counts(call, named) or _namesakes.static_keyword(call, named) \
        or _namesakes.forwarded(rule, call, before_out) or _namesakes.cast_query(rule, call, short)
