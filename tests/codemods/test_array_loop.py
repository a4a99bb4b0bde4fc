"""Edge cases for JX222 array-loop: no-change cases first, then rewrites, then refusals at the loop's line."""

import textwrap

import pytest

from codemods.array_loop import ArrayLoop
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(ArrayLoop, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


NOOP = [
    pytest.param("def f(x):\n    dims = []\n    for d in x.shape:\n        dims.append(d)\n    return dims\n", id="static-shape-loop"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        x = x + i\n    return x\n", id="range-without-append-is-JX220"),
    pytest.param("def f(xs):\n    for x in xs:\n        y = x * 2\n    return xs\n", id="nothing-carried-or-stacked"),
    pytest.param("ys = []\nfor x in [1, 2]:\n    ys.append(x)\n", id="module-level"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        # (0-d items: for items with axes an empty `xs` gives `jnp.array([])` of shape (0,): see the test below)
        "import jax.numpy as jnp\nfrom jax import lax\ndef f(xs: jnp.ndarray, c):\n    outs = []\n    for x in xs:\n        c = c * 0.5 + x\n        outs.append(c.sum())\n"
        "    return jnp.array(outs), c\n",
        "import jax.numpy as jnp\nfrom jax import lax\ndef f(xs: jnp.ndarray, c):\n    def step(c, x):\n        c = c * 0.5 + x\n        return c, c.sum()\n\n"
        "    c, outs = lax.scan(step, c, xs)\n    return outs, c\n",
        id="jnp-array-of-list",
    ),
    pytest.param(
        "def f(xs):\n    sq, cube = [], []\n    for x in xs:\n        sq.append(x * x)\n        cube.append(x * x * x)\n    return sq\n",
        "def f(xs):\n    sq, cube = [], []\n    for x in xs:\n        sq.append(x * x)\n        cube.append(x * x * x)\n    return sq\n",
        id="tuple-initialised-lists-are-left",
    ),
    pytest.param(
        "import numpy as np\ndef f(xs: np.ndarray):\n    sq = []\n    cube = []\n    for x in xs:\n        sq.append(x * x)\n        cube.append(x * x * x)\n"
        "    return np.stack(sq) + np.stack(cube)\n",
        "import jax\nimport numpy as np\ndef f(xs: np.ndarray):\n    def step(_, x):\n        return None, (x * x, x * x * x)\n\n"
        "    _, (sq, cube) = jax.lax.scan(step, None, xs)\n    return sq + cube\n",
        id="two-outputs-no-carry",
    ),
    pytest.param(
        "def f(a, b, s):\n    for x, y in zip(a, b):\n        s = s + x * y\n    return s - a.sum() + b.sum()\n",
        "import jax\n\ndef f(a, b, s):\n    def step(s, item):\n        x, y = item\n        s = s + x * y\n        return s, None\n\n"
        "    s, _ = jax.lax.scan(step, s, (a, b))\n    return s - a.sum() + b.sum()\n",
        id="zip",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


REFUSALS = [
    pytest.param("def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return out\n", "used after the loop", id="list-not-stacked"),
    pytest.param("import numpy as np\ndef f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n        x = x + 1\n    return np.stack(out)\n", "last statements", id="append-not-last"),
    pytest.param("def f(a, b, h):\n    for m in [a, b.T]:\n        h = m @ h\n    return h\n", "may differ in shape", id="list-of-arrays"),
    pytest.param("def f(xs, h):\n    mats = [xs, xs[1:]]\n    for m in mats:\n        h = m @ h\n    return h\n", "may differ in shape", id="list-variable"),
    pytest.param("def f(xs, h):\n    for x in xs:\n        h = h + x\n        if h > 3:\n            break\n    return h\n", "break", id="break"),
    pytest.param("def f(xs, h):\n    for x in xs:\n        h = h + x\n    else:\n        h = 0\n    return h\n", "else", id="for-else"),
    pytest.param(  # scikit-image's label2rgb: `nonzero` of a traced mask raises in a scan body
        "def f(lf, image, labels, acc):\n    for label in labels:\n        idx = (lf == label).nonzero()\n"
        "        acc = acc + image[idx].sum()\n    return acc\n",
        "shape that depends on values", id="nonzero-in-body"),
    pytest.param(  # scikit-learn's OPTICS: slice bounds read from each scanned element
        "import numpy as np\ndef f(x, clusters, acc):\n    for c in clusters:\n        acc = acc + np.sum(x[c[0]:c[1] + 1])\n    return acc\n",
        "slice bound", id="element-as-slice-bound"),
    pytest.param(  # filterpy's order_by_derivative: a slice bound computed from the enumerate index
        "import numpy as np\ndef f(Q, D, n):\n    for i, x in enumerate(Q):\n        ix, iy = (i // n) * 2, i % n\n"
        "        D = D.at[ix:ix + 2, iy].set(x)\n    return D\n",
        "slice bound", id="index-derived-slice-bound"),
    pytest.param(  # trimesh's hashable_rows: uint32 << int32 is int32, where a Python int kept uint32
        "import jax.numpy as jnp\ndef f(h, cols):\n    for k, c in enumerate(cols):\n        h = h ^ (c << (k * 21))\n    return h\n",
        "bit shift", id="index-in-a-bit-shift"),
]


def test_a_list_of_strings_is_not_scanned():
    """filterpy's pretty_str: the lines of `str(...)` are Python strings, which `jnp.asarray` rejects."""
    code = ("import numpy as np\ndef f(label, arr):\n    s = label\n    rows = str(np.asarray(arr)).split(\"\\n\")\n"
            "    for line in rows[1:]:\n        s = s + \"\\n\" + line\n    return s\n")
    outcome = run_rule(ArrayLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code and not outcome.findings


@pytest.mark.parametrize("code, reason", REFUSALS)
def test_refusal_reported_at_the_loop(code, reason):
    outcome = run_rule(ArrayLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    loop_line = 1 + next(i for i, line in enumerate(code.splitlines()) if line.lstrip().startswith("for "))
    assert [f.line for f in outcome.findings] == [loop_line]
    assert reason in outcome.findings[0].message


# What `lax.scan` scans: an array as it is; a parameter that may be a Python list of arrays through `jnp.asarray`
# (lax.scan would take the list as a pytree of separate leaves); a local list of one shape through `jnp.stack`.
N = "import numpy as np\n"
BUILD = "    out = []\n    for a in {it}:\n        out.append(a * 2)\n    return np.stack(out)\n"
SCANNED = [
    pytest.param("def f(xs):\n", "jnp.asarray(xs)", True, id="parameter-may-be-a-list"),
    pytest.param("def f(xs):\n    n = xs.shape[0]\n", "xs)", False, id="shape-is-array-evidence"),
    pytest.param("def f(xs):\n    ys = xs - 1\n", "xs)", False, id="subtraction-is-array-evidence"),
    pytest.param("def f(xs):\n    m = np.mean(xs)\n", "jnp.asarray(xs)", True, id="numpy-call-accepts-lists-no-evidence"),
    pytest.param("def f(xs: 'NDArray[np.float32]'):\n", "xs)", False, id="array-annotation"),
    pytest.param("def f(xs: list[np.ndarray]):\n", "jnp.stack(xs)", True, id="list-annotation"),
    pytest.param("def f(x):\n    xs = np.split(x, 4)\n", "jnp.stack(xs)", False, id="split-into-equal-sections"),
    pytest.param("def f(x, n: int):\n    xs = [x[i] for i in range(n)]\n", "jnp.stack(xs)", False, id="rows-by-comprehension"),
    pytest.param("def f(x):\n    k = x.ndim\n    xs = list(x)\n", "jnp.stack(xs)", False, id="list-of-an-array"),
    pytest.param("def f(x):\n    xs = [x, -x, 2.0 * x]\n", "jnp.stack(xs)", False, id="elementwise-of-one-array"),
    pytest.param("def f(x):\n    xs = np.atleast_1d(x)\n", "xs)", False, id="atleast-of-one-is-an-array"),
]


@pytest.mark.parametrize("head, scanned, note", SCANNED)
def test_scanned_sequence(head, scanned, note):
    code = N + head + BUILD.format(it="xs")
    outcome = run_rule(ArrayLoop, code, fix=True, unsafe=True)
    assert f"scan(step, None, {scanned}" in outcome.fixed
    message = run_rule(ArrayLoop, code).findings[0].message
    assert ("traced again for every list length" in message) is note
    # a parameter that may be a list of different shapes (python-control's `fill([1.0, np.array([1., 2., 3.])])`):
    # stacking it raises where the loop worked, so the fix is unsafe
    assert (run_rule(ArrayLoop, code, fix=True).fixed == code) is note
    assert migrate(outcome.fixed, unsafe=True) == outcome.fixed


def test_array_of_an_empty_list_of_items_with_axes_is_unsafe():
    """`np.array([])` has shape (0,), the scan's stacked outputs (0, *item shape): unsafe when the loop may run zero
    times and the items may have axes (SALib); `np.stack([])` raises instead, so it stays safe."""
    code = ("import jax.numpy as jnp\ndef f(xs: jnp.ndarray, c):\n    outs = []\n    for x in xs:\n        c = c * 0.5 + x\n"
            "        outs.append(c * 2)\n    return jnp.array(outs), c\n")
    assert migrate(code) == code
    assert "shape (0,)" in run_rule(ArrayLoop, code).findings[0].message
    assert "lax.scan(step, c, xs)" in migrate(code, unsafe=True)
    assert "lax.scan(step, c, xs)" in migrate(code.replace("jnp.array(outs)", "jnp.stack(outs)"))


def test_zip_stacks_only_the_parameter_without_evidence():
    code = "def f(xs, ys, s):\n    for a, b in zip(xs, ys):\n        s = s + a * b\n    return s + xs.T\n"
    assert "(xs, jnp.asarray(ys))" in migrate(code, unsafe=True)
    assert "`ys` may be a Python list" in run_rule(ArrayLoop, code).findings[0].message


RAGGED = [
    pytest.param("def f(x):\n    xs = [x, x[:2]]\n", id="different-shapes"),
    pytest.param("def f(x):\n    xs = np.array_split(x, 3)\n", id="array-split"),
    pytest.param("def f(x, y):\n    xs = np.split(x, 2)\n    xs.append(y)\n", id="list-changed-in-place"),
    pytest.param("def f(x, n: int):\n    xs = [x[i:i + 2] for i in range(n)]\n", id="slices-by-comprehension"),
    pytest.param("def f(x, y):\n    xs = [x, y]\n", id="two-arrays-of-unknown-shapes"),
    pytest.param("def f(x, y):\n    xs = np.meshgrid(x, y, sparse=True)\n", id="sparse-meshgrid"),
    pytest.param("def f(x, y):\n    xs = np.atleast_1d(x, y)\n", id="atleast-of-two"),
]


@pytest.mark.parametrize("head", RAGGED)
def test_list_of_possibly_different_shapes_is_reported(head):
    code = N + head + BUILD.format(it="xs")
    outcome = run_rule(ArrayLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    loop = [f for f in outcome.findings if f.line == code.splitlines().index("    for a in xs:") + 1]
    assert loop and loop[0].fix is None and "differ in shape" in loop[0].message


def test_evidence_on_a_later_binding_does_not_count():
    code = N + "def f(xs):\n" + BUILD.format(it="xs").replace("    return", "    xs = np.zeros((2, 3))\n    n = xs.shape\n    return")
    assert "scan(step, None, jnp.asarray(xs))" in migrate(code, unsafe=True)


def test_an_array_from_a_call_not_known_to_be_jax_indexed_by_the_element_is_an_unsafe_fix():
    code = (
        "import numpy as np\nfrom scipy import ndimage as ndi\n\ndef f(x, idx, acc):\n    data = ndi.gaussian_filter(x, 1.0)\n"
        "    for k in idx:\n        acc = acc + data[k]\n    return acc\n"
    )
    [finding] = [f for f in run_rule(ArrayLoop, code).findings if f.code == "JX222"]
    assert "`data` comes from `ndi.gaussian_filter(...)`" in finding.message and finding.fix.applicability == "unsafe"
    assert migrate(code) == code


@pytest.mark.parametrize("routine", ["union1d", "setdiff1d", "intersect1d"])
def test_a_carry_updated_by_a_set_routine_is_not_scanned(routine):
    """`np.union1d(seen, ids)` has as many elements as the values say: a scan carry keeps one shape and the traced
    body raises (`ConcretizationTypeError`; nitime's `multi_intersect`), so the loop is reported and left."""
    code = (f"import numpy as np\n\ndef f(groups, seen):\n    for ids in groups.T:\n        seen = np.{routine}(seen, ids)\n"
            "    return seen\n")
    outcome = run_rule(ArrayLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    [finding] = outcome.findings
    assert f"`np.{routine}(seen, ids)` in the body has a shape that depends on values" in finding.message


@pytest.mark.parametrize("iterable", ["arrays[1:]", "matrices"])
def test_a_parameter_named_as_arrays_is_scanned_only_as_an_unsafe_fix(iterable):
    """`arrays` (a slice of it) and `matrices` may be a Python list of arrays of different shapes (nitime's `arrays[1:]`):
    `jnp.asarray` of it raises where the loop worked, so the scan is unsafe, as for `P_list`."""
    code = f"def f(arrays, matrices):\n    t = 0.0\n    for m in {iterable}:\n        t = t + m.sum()\n    return t\n"
    [finding] = run_rule(ArrayLoop, code).findings
    assert finding.fix.applicability == "unsafe" and f"`{iterable.split('[')[0]}` is named as a list" in finding.message
    assert migrate(code) == code
