"""JX401 looks for RNG sites only in the top-level statements that may hold one (`random_sites.with_possible_sites`):
the result must be what a walk of the whole module finds."""

import textwrap

import libcst as cst
import pytest

from jaxfix.analysis import random_sites
from jaxfix.engine import process_source
from jaxfix.registry import all_rules
from jaxfix.testing.corpus import assert_same_either_way, examples, fixture_files
from jaxfix.types import RunOptions

RULES = all_rules()

# each draws, or calls something that must take a key, without the word `random` in the function
HIDDEN = {
    "alias-of-a-draw": "from numpy.random import normal as nrm\n\ndef f(x):\n    return x + nrm(size=3)\n",
    "alias-of-the-module": "import numpy.random as npr\n\ndef f(x):\n    return x + npr.normal(size=x.shape)\n",
    "module-imported-from-numpy": "from numpy import random as R\n\ndef f(x):\n    return x + R.uniform(size=x.shape)\n",
    "module-level-generator": "import numpy as np\n\nRNG = np.random.default_rng(0)\n\ndef f(x):\n    return x + RNG.normal(size=3)\n",
    "generator-parameter": "def f(rng, n):\n    return rng.normal(size=n)\n",
    "caller-and-value": (
        "import numpy as np\n\ndef noisy(x):\n    return x + np.random.normal(size=x.shape)\n\n"
        "def apply(fn, x):\n    return fn(x)\n\ndef g(x):\n    return apply(noisy, x)\n\ndef h(x):\n    return noisy(x) * 2\n"
    ),
    "seeded-source-imported": "from numpy.random import default_rng as make\n\ndef f(n):\n    g = make(0)\n    return g.normal(size=n)\n",
    "decorated": "import numpy as np\n\n@np.vectorize\ndef f(x):\n    return x\n\ndef g(x):\n    return f(x) + np.random.rand()\n",
}

CASES = [*((name, code, {}) for name, code in HIDDEN.items()), *examples(), *(f for f in fixture_files() if f[0].endswith(".before.py"))]


@pytest.mark.parametrize("name, code, settings", CASES, ids=[c[0] for c in CASES])
def test_same_result_with_and_without_the_statement_filter(name, code, settings):
    options = RunOptions(fix=True, settings=tuple(settings.items()))
    assert_same_either_way(name, code, RULES, options, random_sites.filter_disabled)


def test_a_function_named_through_an_import_alias_is_visited():
    code = "from pkg.other import draw as d\n\ndef f(x):\n    return d(x)\n\ndef plain(x):\n    return x\n"
    project = {"JX401": {"needs_key": ["pkg.other.draw"]}}
    fast = process_source("m.py", code, RULES, RunOptions(fix=True), project=project, module_name="m")
    with random_sites.filter_disabled():
        slow = process_source("m.py", code, RULES, RunOptions(fix=True), project=project, module_name="m")
    assert fast.fixed == slow.fixed and "d(key" in fast.fixed.replace("subkey", "key")


def test_functions_that_cannot_hold_a_site_are_left_out():
    import ast

    from jaxfix.analysis import random_keys

    code = textwrap.dedent(HIDDEN["caller-and-value"]) + "\ndef alone(x):\n    return x + 1  # draws nothing\n"
    tree = ast.parse(code)
    summary = random_keys.summarize("m.py", "m", tree)
    needs = set(random_keys.link({"m.py": summary})["needs_key"])
    kept = random_sites.with_possible_sites(cst.parse_module(code), tree, code, summary, needs)
    assert [s.name.value for s in kept if isinstance(s, cst.FunctionDef)] == ["noisy", "g", "h"]


def test_remembered_facts_are_the_facts():
    """`summarize` and `key_names_in` remember per statement text; moving, editing and re-importing give what a
    fresh computation gives."""
    import ast

    from jaxfix.analysis import random_keys

    base = textwrap.dedent(HIDDEN["caller-and-value"])
    variants = [
        base,
        "\n\n" + base,  # every function moved down: the draw lines in the facts move too
        base.replace("np.random.normal", "np.random.uniform"),
        base.replace("import numpy as np", "import numpy as np\nimport numpy.random as np_random"),
        base + "\ndef k(key, x):\n    key, sub = jax.random.split(key)\n    return sub\n",
    ]
    for code in variants:
        tree = ast.parse(code)
        assert random_keys.summarize("m.py", "m", tree, code) == random_keys.summarize("m.py", "m", tree), code
        assert random_sites.key_names_in(tree, code) == random_sites.key_names_in(tree), code
