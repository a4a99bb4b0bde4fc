from __future__ import annotations

from typing import Optional

import libcst as cst
import numpy as np

from codemods._masked import Consumer, broadcast_mask, consumer, named_consumers
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.masks import Kind, MaskIndex, MaskProvider, function_facts, mask_index
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.analysis.static_params import ARRAY_METHODS
from jaxfix.analysis.value_dtypes import FLOAT, INT, dtype_of
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)
INITIAL = {"max": "-{jnp}.inf", "min": "{jnp}.inf"}  # for floats; integers get jnp.iinfo(x.dtype).min / .max


class MaskedReduction(Rule):
    """
    ## What it does
    Rewrites reductions of a boolean-masked read, `x[m].sum()`, `.mean()`, `.max()`, `.min()`, `.prod()`, `.std()`,
    `.var()`, `.any()`, `.all()` and `np.sum(x[m])` ..., into `jnp.sum(x, where=m)` ..., row masks of a 2-D array
    with `axis` (`X[y == k].sum(0)` -> `jnp.sum(X, axis=0, where=(y == k)[:, None])`), and counts `len(x[m])`,
    `x[m].shape[0]`, `x[m].size` into `jnp.count_nonzero(m)`. Also through a name (`sel = x[m]` then `sel.mean()`,
    `sel.size == 0`) when every read of that name is such a reduction.

    ## Why is this bad?
    `x[m]` has a shape that depends on the values of `m`, so `jit` cannot trace it (`NonConcreteBooleanIndexError`).
    The `where=` argument reduces over the selected elements while keeping static shapes.

    ## Example
    ```python
    def nansum(x):
        return x[~np.isnan(x)].sum()
    ```

    ## Use instead
    ```python
    def nansum(x):
        return jnp.sum(x, where=~jnp.isnan(x))
    ```

    ## Fix safety
    Safe when the mask provably has the array's shape (computed elementwise from it) or is a 1-D row mask of an array
    of known rank (`n, d = X.shape`). Unsafe otherwise: the fix then assumes the mask has the array's shape (no
    `axis`) or is a 1-D row mask of a 2-D array (with `axis`), and says so. `max`/`min` get `initial=-jnp.inf` /
    `jnp.inf`: on an empty selection they return it where NumPy raises `ValueError` (the fix title says so). An
    infinity is an identity only for floats (cast to ints it wraps), so that fix is unsafe unless the array is known
    to be floating (`astype(np.float32)`, `np.zeros(n)`); an array known to be integer gets its own bounds,
    `initial=jnp.iinfo(x.dtype).min`, safely. `mean`/`std`/`var` of an empty selection are NaN in both; means of
    integers are floats and sums of bools integers in both (NumPy's int64 is JAX's default int).

    A user's own `initial=` of `sum`/`prod`/`max`/`min` is kept (NumPy and JAX both cast it to the array's dtype,
    and neither raises on an empty selection then).

    ## Known problems
    `keepdims=`, `out=` and reductions without a `where=` (`median`, `ptp`) are reported, not rewritten. An index
    whose dtype is unknown is reported: annotate it as a bool array if it is a mask.
    """

    CODE = "JX302"
    SUMMARY = "reduction of a boolean-masked read; use where="
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, DataflowProvider, ParentProvider)
    ORDER = 30
    TRIGGERS = (b"numpy", b"jax")

    VALID = [
        Valid("import numpy as np\ndef f(x):\n    return x[1:].sum()\n"),
        Valid("import numpy as np\ndef f(x, i: int):\n    return x[i].max()\n"),
        Valid("import jax.numpy as jnp\ndef f(x):\n    return jnp.sum(x, where=x > 0)\n"),
    ]
    INVALID = [
        Invalid(
            "import numpy as np\n\ndef nansum(x):\n    return x[~np.isnan(x)].sum()\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef nansum(x):\n    return jnp.sum(x, where=~np.isnan(x))\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(x, t):\n    m = x > t\n    return len(x[m])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, t):\n    m = x > t\n    return jnp.count_nonzero(m)\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(x, t):\n    m = x > t\n    return np.max(x[m])\n",
            expected="import jax.numpy as jnp\n\ndef f(x, t):\n    m = x > t\n    return jnp.max(x, where=m, initial=-jnp.inf)\n",
            unsafe=True,  # initial=-inf assumes a float array
        ),
        Invalid(
            "import numpy as np\n\ndef f(X, y, k):\n    n, d = X.shape\n    return X[y == k].mean(axis=0)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(X, y, k):\n    n, d = X.shape\n"
            "    return jnp.mean(X, axis=0, where=(y == k)[:, None])\n",
            unsafe=True,
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    sel = x[x > 0]\n    if sel.size == 0:\n        return 0.0\n    return sel.mean()\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    if jnp.count_nonzero(x > 0) == 0:\n"
            "        return 0.0\n    return jnp.mean(x, where=x > 0)\n",
        ),
        Invalid(  # the subject comes from a method no NumPy array has (a pandas Series, say): unsafe, `jnp.sum`
            # rejects it (tsfresh's `counts = x.value_counts()`, then `counts[counts > 1].sum()`)
            "import numpy as np\n\ndef f(s):\n    c = s.value_counts()\n    return c[c > 1].sum() + len(s.dropna()[s.dropna() > 0])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(s):\n    c = s.value_counts()\n"
                     "    return jnp.sum(c, where=c > 1) + jnp.count_nonzero(s.dropna() > 0)\n",
            unsafe=True, lines=[5, 5],
        ),
        Invalid(  # ... through a local alias, a call of `.size` (an array's attribute, never called: a pandas
            # `groupby(...).size()`), or an array method of such a result (`.copy()`): a code review's variants
            "import numpy as np\n\ndef f(s):\n    c = s.value_counts()\n    d = c\n    return d[d > 1].sum()\n\n"
            "def g(s):\n    c = s.groupby(s).size()\n    return c[c > 1].sum()\n\n"
            "def h(s):\n    c = s.value_counts().copy()\n    return c[c > 1].sum()\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(s):\n    c = s.value_counts()\n    d = c\n"
                     "    return jnp.sum(d, where=d > 1)\n\ndef g(s):\n    c = s.groupby(s).size()\n"
                     "    return jnp.sum(c, where=c > 1)\n\ndef h(s):\n    c = s.value_counts().copy()\n"
                     "    return jnp.sum(c, where=c > 1)\n",
            unsafe=True, lines=[6, 10, 14],
        ),
        Invalid("import numpy as np\n\ndef f(x):\n    c = np.abs(x).round(2)\n    return c[c > 1].sum()\n",
                expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    c = np.abs(x).round(2)\n"
                         "    return jnp.sum(c, where=c > 1)\n"),
        Invalid("import numpy as np\n\ndef f(x, idx):\n    return x[idx].sum()\n", lines=[4]),
    ]

    def visit_Subscript(self, node: cst.Subscript) -> None:
        fn = self.current_function
        info = mask_index(self, node) if fn is not None else None
        if fn is None or info is None or info.kind is Kind.INDEX:
            return
        facts = function_facts(self, fn)
        found = consumer(self, facts, node)
        stmt = enclosing_statement(self, node)
        if found is None or stmt is None:
            return
        if info.kind is Kind.UNKNOWN:
            if isinstance(info.mask, cst.Name):
                self.report(stmt, f"cannot tell whether `{self.code(info.mask)}` is a boolean mask: if it is, "
                            f"`{self.code(found.node)}` fails under `jit`; annotate it as a bool array so that jaxfix "
                            "can use `where=`")
            return
        self._fix(stmt, [(found, node, info)])

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        fn = self.current_function
        if fn is None or len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
            return
        value = node.body[0].value
        info = mask_index(self, value) if isinstance(value, cst.Subscript) else None
        if info is None or info.kind is not Kind.MASK:
            return
        found = named_consumers(self, function_facts(self, fn), function_flow(self, fn), node)
        if found:
            self._fix(node, [(c, value, info) for c in found], remove=node)

    def _fix(self, stmt: cst.CSTNode, items: list[tuple[Consumer, cst.Subscript, MaskIndex]],
             remove: Optional[cst.SimpleStatementLine] = None) -> None:
        changes: dict = {}
        reasons: list[str] = []
        notes: list[str] = []
        titles: list[str] = []
        for found, read, info in items:
            text, why, note = self._rewrite(found, read, info)
            if text is None:
                self.report(stmt, f"`{self.code(found.node)}` reduces a boolean-masked read, which fails under `jit`; "
                            f"no automatic rewrite: {why}")
                return
            changes[found.node] = self.expr(text)
            titles.append(text)
            reasons += [why] if why else []
            notes += [note] if note else []
        if remove is not None:
            changes[remove] = self.replace_statement(remove, [])
        message = f"reduction of the boolean-masked read `{self.code(items[0][1])}` fails under `jit`"
        if reasons:
            parts = [part for reason in reasons for part in reason.split("; ")]  # one clause once (`min` and `max`)
            message += "; the rewrite is unsafe: it assumes " + "; ".join(dict.fromkeys(parts))
        title = "replace with `" + "`, `".join(titles) + "`" + ("".join(f" ({n})" for n in dict.fromkeys(notes)))
        self.report(stmt, message, changes=changes, unsafe=bool(reasons), title=title, imports=("jnp",))

    def _rewrite(self, found: Consumer, read: cst.Subscript, info: MaskIndex) -> tuple[Optional[str], Optional[str], Optional[str]]:
        """(replacement, assumption if unproven, note) or (None, why not, None)."""
        x, m = self.code(read.value), self.code(info.mask)
        atom = m if isinstance(info.mask, ATOMS) else f"({m})"
        unknown = self._unknown_subject(read.value)
        if found.reduction == "count":
            if found.node is not found.operand and isinstance(found.node, cst.Attribute) and not info.same_rank:
                return (f"{self.jnp}.count_nonzero({m})",
                        _joined(unknown, f"`{m}` has the shape of `{x}` (`.size` counts elements)"), None)
            return f"{self.jnp}.count_nonzero({m})", unknown, None
        axis: Optional[str] = None
        keywords = []
        for i, arg in enumerate(found.args):
            key = arg.keyword.value if arg.keyword is not None else ("axis" if i == 0 else None)
            if key == "initial" and found.reduction in ("sum", "prod", "max", "min"):
                keywords.append(f"initial={self.code(arg.value)}")  # both cast it to the array's dtype; no raise on empty
                continue
            if key is None or key in ("out", "keepdims", "where", "initial") or arg.star:
                return None, f"the argument `{self.code(arg).rstrip(', ')}` has no masked equivalent", None
            if key == "axis":
                axis = self.code(arg.value)
            else:
                keywords.append(f"{key}={self.code(arg.value)}")
        why = unknown
        if info.same_rank:
            if axis is not None and axis not in ("0", "-1", "None"):
                return None, f"`{x}[{m}]` is 1-D, so `axis={axis}` does not map onto `{x}`", None
            axis, where = None, m
        elif info.trailing:
            where = broadcast_mask(self, info)[0]
            if axis is not None and not info.row_mask:
                why = _joined(why, f"`{x}` is 2-D (only then is axis {axis} of the selection axis {axis} of `{x}`)")
        elif axis is not None:
            where, why = f"{atom}[:, None]", _joined(why, f"`{m}` is a 1-D mask selecting rows of a 2-D `{x}`")
        else:
            where, why = m, _joined(why, f"`{m}` has the shape of `{x}`")
        parts = [x] + ([f"axis={axis}"] if axis is not None else []) + keywords + [f"where={where}"]
        note = None
        if found.reduction in INITIAL and not any(k.startswith("initial=") for k in keywords):
            kind = dtype_of(function_facts(self, self.current_function), read.value)  # type: ignore[arg-type]
            integer = kind.exact and kind.kind == INT and isinstance(read.value, cst.Name)
            initial = (f"{self.jnp}.iinfo({x}.dtype).{'min' if found.reduction == 'max' else 'max'}" if integer
                       else INITIAL[found.reduction].format(jnp=self.jnp))
            parts.append(f"initial={initial}")
            note = f"an empty selection gives {initial} where NumPy raises ValueError"
            if not integer and not (kind.exact and kind.kind == FLOAT):
                # initial=±inf is only an identity for floats: cast to an integer dtype it wraps (inf -> INT_MIN)
                float_why = f"`{x}` has a floating dtype (an infinite `initial=` is cast to an integer dtype wrongly)"
                why = f"{why}; {float_why}" if why else float_why
        return f"{self.jnp}.{found.reduction}({', '.join(parts)})", why, note

    def _unknown_subject(self, subject: cst.BaseExpression, seen: frozenset[str] = frozenset()) -> Optional[str]:
        """The assumption that the masked `subject` is an array, when it is (or a local binding of it is) the result
        of a method no NumPy array has (`counts = x.value_counts()`, then `counts[counts > 1].sum()`: tsfresh's
        reoccurring values, a pandas Series that `jnp.sum` rejects), of a call of an array's attribute that is no
        method (`s.groupby(s).size()`), or of an array method of such a result (`x.value_counts().copy()`), also
        through a local alias (`d = counts`); else None."""
        facts = function_facts(self, self.current_function)  # type: ignore[arg-type]
        values: list = [subject]
        if isinstance(subject, cst.Name):
            if subject.value in seen:
                return None
            values = facts.bindings.get(subject.value, [])
        for value in values:
            if isinstance(value, cst.Name):  # `d = counts`
                inner = self._unknown_subject(value, seen | {subject.value}) if isinstance(subject, cst.Name) else None
                if inner is not None:
                    return inner
                continue
            func = value.func if isinstance(value, cst.Call) else None
            if not isinstance(func, cst.Attribute) or facts.array_function(func) is not None:
                continue
            if func.attr.value not in ARRAY_METHODS or func.attr.value in _ARRAY_DATA_ATTRIBUTES:
                return (f"`{self.code(subject)}` is an array (it is the result of `.{func.attr.value}()`, which is no "
                        "NumPy array method: `jax.numpy` rejects other types)")
            receiver = func.value  # `.copy()` of such a result: what the receiver is
            while isinstance(receiver, cst.Subscript):
                receiver = receiver.value
            if isinstance(receiver, (cst.Call, cst.Name)):
                inner = self._unknown_subject(receiver, seen | ({subject.value} if isinstance(subject, cst.Name) else set()))
                if inner is not None:
                    return inner
        return None


# the attributes of a NumPy array that are no methods (`.size`, `.shape`, `.T`): a call of one is of another type
_ARRAY_DATA_ATTRIBUTES = frozenset(name for name in dir(np.ndarray) if not name.startswith("_")
                                   and not callable(getattr(np.ndarray, name)))


def _joined(first: Optional[str], second: str) -> str:
    return f"{first}; {second}" if first else second
