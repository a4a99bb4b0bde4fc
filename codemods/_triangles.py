"""NumPy's symmetric-matrix routines read one triangle; `jax.numpy`'s average the matrix with its transpose.

`np.linalg.eigh(a)`, `eigvalsh(a)` and `cholesky(a)` use only the lower triangle of `a` (or the upper, with
`UPLO='U'` / `upper=True`): a matrix filled in one triangle is a documented input. Their `jax.numpy` namesakes
symmetrize first by default (`(a + a.T) / 2`), which gives other results for such a matrix; with
`symmetrize_input=False` they read the same triangle NumPy does. JX501 adds that keyword unless the argument is
symmetric by construction (`x.T @ x`, `np.cov(...)`, `(a + a.T) / 2`), where both agree and the keyword would be noise.

`np.linalg.pinv(a)` has another default of the same kind: singular values up to `1e-15` times the largest are
dropped, where `jnp.linalg.pinv` drops those up to `10 * max(M, N) * eps` times it (a matrix with a singular value
of 3e-15 gets a pseudo-inverse entry of 3e14 from NumPy, 0 from JAX): `pinv_cutoff` says when `rtol=1e-15` is needed.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxfix.analysis.masks import FunctionFacts

ONE_TRIANGLE = frozenset({"linalg.eigh", "linalg.eigvalsh", "linalg.cholesky"})
KEYWORD = "symmetrize_input"
UPPER = ("reads the lower triangle of the matrix whatever `upper=` says (NumPy's `upper=True` reads the upper one), "
         "which differs for a matrix not symmetric by construction")

# NumPy functions whose result is symmetric whatever their arguments
_SYMMETRIC_CALLS = frozenset({"cov", "corrcoef", "eye", "identity"})

NumpyName = Callable[[cst.BaseExpression], Optional[str]]


def needs_keyword(call: cst.Call, short: str, facts: Optional[FunctionFacts], numpy_name: NumpyName) -> Optional[str]:
    """What the `jax.numpy` namesake of the one-triangle routine `call` (`short`: `linalg.eigh`, ...) needs to give
    NumPy's result: None when the plain rename does (the matrix is symmetric by construction, or the keyword is
    there already), "keyword" for `symmetrize_input=False`, "upper" when there is no such form: `cholesky(a,
    upper=...)`, whose `jax.numpy` namesake reads the lower triangle whatever `upper` says."""
    if any(arg.star for arg in call.args) or any(arg.keyword is not None and arg.keyword.value == KEYWORD for arg in call.args):
        return None
    matrix = next((arg.value for arg in call.args if arg.keyword is None or arg.keyword.value == "a"), None)
    if matrix is None or _symmetric(matrix, facts, numpy_name):
        return None
    if short == "linalg.cholesky" and any(arg.keyword is not None and arg.keyword.value == "upper" for arg in call.args):
        return "upper"
    return "keyword"


def with_keyword(call: cst.Call, keyword: str = KEYWORD, value: str = "False") -> cst.Call:
    """`call` with `symmetrize_input=False` (or `keyword=value`) after its last argument, in the call's layout: on a
    line of its own (with a trailing comma) when the arguments are one per line, keeping any comment after the last
    one."""
    new = cst.Arg(keyword=cst.Name(keyword), value=cst.parse_expression(value),
                  equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
    last = call.args[-1]
    comma, after = last.comma, last.whitespace_after_arg
    opening = call.whitespace_before_args
    if isinstance(opening, cst.ParenthesizedWhitespace) and isinstance(comma, cst.Comma) \
            and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        # one argument per line with a trailing comma: the new one on its own line, indented like the first, with
        # the comment after the last argument kept where it was
        closing = comma.whitespace_after
        last = last.with_changes(comma=comma.with_changes(whitespace_after=closing.with_changes(last_line=opening.last_line.deep_clone())))
        new = new.with_changes(comma=comma.with_changes(whitespace_after=closing.with_changes(
            first_line=cst.TrailingWhitespace(), empty_lines=())))
    elif isinstance(opening, cst.ParenthesizedWhitespace) and isinstance(after, cst.ParenthesizedWhitespace):
        # one argument per line, `)` on its own line: the same, without a trailing comma
        separator = cst.Comma(whitespace_after=after.with_changes(last_line=opening.last_line.deep_clone()))
        last = last.with_changes(comma=separator, whitespace_after_arg=cst.SimpleWhitespace(""))
        new = new.with_changes(whitespace_after_arg=after.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=()))
    else:  # `f(a)`, `f(a, )`, `f(a,\n  b)`: after the last argument on its line
        last = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        new = new.with_changes(whitespace_after_arg=after)
        last = last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))
    return call.with_changes(args=[*call.args[:-1], last, new.deep_clone()])  # no node shared with `last`


def _symmetric(value: cst.BaseExpression, facts: Optional[FunctionFacts], numpy_name: NumpyName, depth: int = 0) -> bool:
    if isinstance(value, cst.Name) and facts is not None and depth == 0:
        # a local name bound once, by an assignment (`g = x.T @ x`): not a parameter, loop target or `+=`
        values = facts.bindings.get(value.value, [])
        bound = values[0] if value.value not in facts.params and len(values) == 1 else None
        return bound is not None and _symmetric(bound, facts, numpy_name, depth + 1)
    if isinstance(value, cst.BinaryOperation):
        if isinstance(value.operator, cst.MatrixMultiply):
            return _transposes(value.left, value.right)
        if isinstance(value.operator, (cst.Add, cst.Subtract)):  # `a + a.T`, `np.cov(x) + 1e-3 * np.eye(n)`
            return (value.operator.__class__ is cst.Add and _transposes(value.left, value.right)) or all(
                _number(side) or _symmetric(side, facts, numpy_name, depth) for side in (value.left, value.right))
        if isinstance(value.operator, cst.Divide) and _number(value.right):  # `(a + a.T) / 2`
            return _symmetric(value.left, facts, numpy_name, depth)
        if isinstance(value.operator, cst.Multiply):  # `0.5 * (x.T @ x)`
            if _number(value.left):
                return _symmetric(value.right, facts, numpy_name, depth)
            if _number(value.right):
                return _symmetric(value.left, facts, numpy_name, depth)
        return False
    if isinstance(value, cst.Call):
        name = numpy_name(value.func)
        if name is None:
            return False
        short = name.split(".")[-1]
        if short in _SYMMETRIC_CALLS:
            return True
        if short == "dot" and len(value.args) == 2:  # `np.dot(x.T, x)`
            return _transposes(value.args[0].value, value.args[1].value)
    return False


def _transposes(left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
    """`x` and `x.T` (either way round), for the same plain expression `x` (a name or attribute chain)."""
    for plain, transposed in ((left, right), (right, left)):
        if isinstance(transposed, cst.Attribute) and transposed.attr.value == "T" and _plain(plain) \
                and plain.deep_equals(transposed.value):
            return True
    return False


def _number(value: cst.BaseExpression) -> bool:
    return isinstance(value, (cst.Integer, cst.Float))


def _plain(value: cst.BaseExpression) -> bool:
    while isinstance(value, cst.Attribute):
        value = value.value
    return isinstance(value, cst.Name)


def pinv_cutoff(call: cst.Call) -> Optional[str]:
    """How `np.linalg.pinv(...)` sets its cutoff: "default" when it relies on NumPy's default (`rcond=1e-15`: no cutoff
    by position or keyword), "other" when `jnp.linalg.pinv` would not read the same (`None` given, which NumPy reads as
    its default or as `max(M, N) * eps` and JAX as `10 * max(M, N) * eps`, or `*args`/`**kwargs` that may hold a
    cutoff or not), None when the cutoff given means the same in both."""
    if any(arg.star for arg in call.args):
        return "other"
    positional = [arg for arg in call.args if arg.keyword is None]
    given = [arg.value for arg in (*positional[1:2], *(a for a in call.args
                                                       if a.keyword is not None and a.keyword.value in ("rcond", "rtol")))]
    if not given:
        return "default"
    if any(isinstance(value, cst.Name) and value.value == "None" for value in given):
        return "other"
    return None
