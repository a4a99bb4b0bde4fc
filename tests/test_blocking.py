"""Engine: a finding that blocks its function holds back other rules' fixes there."""

from jaxfix.types import RunOptions


def test_blocking_finding_holds_back_other_fixes_in_its_function():
    """A function whose behaviour cannot be kept (blocks_function) is not half-migrated by other rules."""
    import libcst as cst

    from codemods.numpy_namespace import NumpyNamespace
    from jaxfix.engine import process_source
    from jaxfix.rule import Rule

    class Blocker(Rule):
        CODE = "JX998"

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            if node.name.value == "bad":
                self.report(node, "cannot keep behaviour", replacement=node.with_changes(name=cst.Name("bad_fixed")),
                            unsafe=True, blocks_function=True)

    code = "import numpy as np\n\ndef bad(x):\n    return np.sum(x)\n\ndef good(x):\n    return np.sum(x)\n"
    safe = process_source("b.py", code, [Blocker, NumpyNamespace], RunOptions(fix=True)).fixed
    assert "def bad(x):\n    return np.sum(x)" in safe and "def good(x):\n    return jnp.sum(x)" in safe
    unsafe = process_source("b.py", code, [Blocker, NumpyNamespace], RunOptions(fix=True, unsafe_fixes=True)).fixed
    assert "def bad_fixed(x):\n    return jnp.sum(x)" in unsafe


def test_unsafe_in_place_fix_keeps_its_function_numpy():
    """An unapplied unsafe in-place fix (a float scattered into ints) leaves the whole function in NumPy: turning
    `np.zeros` into `jnp.zeros` would make the remaining `np.add.at` fail outside `jit` as well."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = (
        "import numpy as np\n\ndef counts(bins, w):\n    c = np.zeros(4, dtype=np.int32)\n    np.add.at(c, bins, w)\n"
        "    return c\n\ndef total(x):\n    return np.sum(x)\n"
    )
    fixed = process_source("c.py", code, all_rules(), RunOptions(fix=True)).fixed
    assert "c = np.zeros(4, dtype=np.int32)\n    np.add.at(c, bins, w)" in fixed
    assert "return jnp.sum(x)" in fixed
    unsafe = process_source("c.py", code, all_rules(), RunOptions(fix=True, unsafe_fixes=True)).fixed
    assert "c = c.at[bins].add(w)" in unsafe and "jnp.zeros" in unsafe


def test_writes_left_in_place_keep_their_arrays_numpy():
    """An in-place write reported without a fix keeps the array it writes into a NumPy array: a nested function's
    `acc[i] += v` into its enclosing function's `acc = np.zeros(n)` (a closure variable), and a `np.add.at` whose
    array is also stored in a list. Turning `np.zeros` into `jnp.zeros` made both fail outside `jit` too."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = (
        "import numpy as np\n\ndef closure(n):\n    acc = np.zeros(n)\n\n    def add(i, v):\n        acc[i] += v\n\n"
        "    for i in range(n):\n        add(i, 1.0)\n    return acc\n\n"
        "def stored(idx, n):\n    counts = np.zeros(n)\n    parts = [counts]\n    np.add.at(counts, idx, 1.0)\n"
        "    return parts[0] * 2.0\n\ndef total(x):\n    return np.sum(x)\n"
    )
    result = process_source("c.py", code, all_rules(), RunOptions(fix=True))
    assert "acc = np.zeros(n)" in result.fixed and "counts = np.zeros(n)" in result.fixed
    assert "return jnp.sum(x)" in result.fixed
    reported = {(f.code, f.message.split("`")[1]) for f in result.findings if f.code in ("JX101", "JX102")}
    assert reported == {("JX101", "acc"), ("JX102", "np.add.at")}


def test_a_masked_write_left_in_place_keeps_its_function_draws_numpy():
    """JX401's key threading blocks until applied, so ordinary findings do not hold it back; but an in-place write
    whose fix is not applied (here a masked assignment, JX301, unsafe) needs its array to stay NumPy: a drawn array
    made a JAX array would make the write raise. The function (and its caller, which would pass it a key) stays;
    another function of the module, whose update is safe once its draw is JAX, is converted."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = (
        "import numpy as np\n\ndef f(n, idx):\n    x = np.random.normal(size=n)\n    x[idx] += 1.0\n    return x\n\n"
        "def g(n, t):\n    x = np.random.normal(size=n)\n    x[x > t] = np.random.uniform(size=3)\n    return x\n\n"
        "def h(n, t):\n    return g(n, t) + 1.0\n"
    )
    fixed = process_source("r.py", code, all_rules(), RunOptions(fix=True)).fixed
    assert "def f(key, n, idx):\n    x = jax.random.normal(key, n)\n    x = x.at[idx].set(x[idx] + 1.0)" in fixed
    assert "def g(n, t):\n    x = np.random.normal(size=n)\n    x[x > t] = np.random.uniform(size=3)" in fixed
    assert "def h(n, t):\n    return g(n, t) + 1.0" in fixed
    assert process_source("r.py", fixed, all_rules(), RunOptions(fix=True)).fixed == fixed


def test_held_back_fixes_are_not_reported_as_fixable():
    """`check` must not offer what `migrate` holds back: a held-back finding has no fix and says why; with
    `--unsafe-fixes` the blocking fix applies, and nothing is held back."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = "import numpy as np\n\ndef counts(bins, w):\n    c = np.zeros(4, dtype=np.int32)\n    np.add.at(c, bins, w)\n    return c\n"
    findings = process_source("c.py", code, all_rules(), RunOptions()).findings
    held = [f for f in findings if f.code == "JX501"]
    assert held and all(f.fix is None and "held back" in f.message for f in held)
    unsafe = process_source("c.py", code, all_rules(), RunOptions(unsafe_fixes=True)).findings
    assert all("held back" not in f.message for f in unsafe)
    assert any(f.code == "JX501" and f.fix is not None for f in unsafe)


def test_numba_functions_by_imported_name_are_left_to_numba():
    """`from numba import jit` then `@jit(nopython=True)`, and the implementation an `@overload` returns: numba
    compiles them, so no rule touches them (quantecon: `static_argnames` in a numba decorator, `lax` loops inside
    numba code, and a package that failed at import)."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = (
        "import numpy as np\nfrom numba import jit as nb_jit\nfrom numba.extending import overload\n\n"
        "@nb_jit(nopython=True, cache=True)\ndef trap(n, a, b, vals):\n    nodes = np.linspace(a, b, n)\n"
        "    m = 0\n    for j in range(1, n):\n        if vals[j] > vals[m]:\n            m = j\n    return nodes, m\n\n"
        "def square_sum(a):\n    pass\n\n@overload(square_sum)\ndef _ol(a):\n    return _impl\n\n"
        "def _impl(a):\n    s = 0.0\n    for x in a.flat:\n        s += x ** 2\n    return s\n"
    )
    outcome = process_source("q.py", code, all_rules(), RunOptions(fix=True))
    assert outcome.fixed == code


def test_a_masked_write_left_in_place_holds_back_its_function():
    """JX301 refuses a masked write whose array a view shares (`x1 = x[0]`): the write stays NumPy, so the
    calls that make `x` must stay NumPy too (cma's step ellipsoid: `jnp.dot` made the kept write raise)."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = ("import numpy as np\n\ndef f(x, r):\n    x = np.dot(x, r)\n    x1 = x[0]\n    m = np.abs(x) > 0.5\n"
            "    x[m] = 0.0\n    return x, x1\n")
    result = process_source("r.py", code, all_rules(), RunOptions(fix=True))
    assert result.fixed in (None, code)
    assert any(f.code == "JX301" and f.line == 7 for f in result.findings)
