"""The alias/view analysis: what each name refers to just before a statement."""

import textwrap

import libcst as cst
import pytest
from libcst._metadata_dependent import LazyValue
from libcst.metadata import MetadataWrapper

from jaxfix.analysis.aliases import AliasProvider, FunctionAliases


def analyse(code: str) -> tuple[FunctionAliases, list[cst.CSTNode]]:
    wrapper = MetadataWrapper(cst.parse_module(textwrap.dedent(code)))
    facts = wrapper.resolve(AliasProvider)
    function = next(n for n in facts if isinstance(n, cst.FunctionDef))
    last = function.body.body[-1]
    value = facts[function]  # computed when first asked (rules ask through `function_aliases`)
    return (value() if isinstance(value, LazyValue) else value), [last]


def at_end(code: str) -> tuple[FunctionAliases, cst.CSTNode]:
    facts, (last,) = analyse(code)
    return facts, last


def test_fresh_param_and_containers():
    facts, end = at_end(
        """
        import numpy as np
        def f(p, n):
            a = np.zeros(3)
            b = p.copy()
            c = [0] * n
            d = {}
            i = len(p)
            return a
        """
    )
    assert facts.kinds(end, "a") == {"fresh"} and facts.rank(end, "a") == 1
    assert facts.kinds(end, "b") == {"fresh"}
    assert facts.kinds(end, "p") == {"param"}
    assert facts.kinds(end, "c") == {"container"} and facts.kinds(end, "d") == {"container"}
    assert facts.is_int(end, "i")
    assert facts.sharers(end, "a") == frozenset()


def test_basic_indexing_keeps_a_known_rank():
    """`np.zeros(n)[:, None]` has two axes, a row of a matrix one; an index that is a name leaves it unknown."""
    facts, end = at_end(
        """
        import numpy as np
        def f(n, k):
            col = np.zeros(n)[:, np.newaxis]
            row = np.ones((n, 3))[0]
            some = np.ones((n, 3))[k]
            return col
        """
    )
    assert facts.rank(end, "col") == 2 and facts.rank(end, "row") == 1 and facts.rank(end, "some") is None


def test_aliases_views_and_escapes():
    facts, end = at_end(
        """
        import numpy as np
        def f(p):
            a = np.ones((2, 2))
            alias = a
            row = a[0]
            flat = np.asarray(p).ravel()
            copy = a[[0, 1]]
            box = (a,)
            return a
        """
    )
    assert facts.sharers(end, "a") == {"alias", "row"}  # `box` holds `a` (an escape), it is not an array alias
    assert facts.kinds(end, "flat") == {"param"}
    assert "copy" not in facts.sharers(end, "a")
    assert facts.escaped(end, "a")


def test_branches_merge_and_loops_carry():
    facts, end = at_end(
        """
        import numpy as np
        def f(p, flag):
            y = np.zeros(3)
            if flag:
                y = p
            for row in y:
                z = row
            return y
        """
    )
    assert facts.kinds(end, "y") == {"fresh", "param"}
    assert "y" in facts.sharers(end, "z")


def test_unknown_calls_and_globals():
    facts, end = at_end(
        """
        def f(x):
            h = helper(x)
            return h + G
        """
    )
    assert facts.kinds(end, "h") == {"unknown"}
    assert facts.kinds(end, "G") == {"global"}


def test_range_argument_parameters_are_ints():
    facts, end = at_end("def f(n, m):\n    for i in range(1, n):\n        pass\n    return m\n")
    assert facts.is_int(end, "n") and facts.is_int(end, "i")
    assert not facts.is_int(end, "m")


def test_diag_of_an_array_is_a_view_of_it():
    # np.diag of a 2-D array returns its diagonal as a view (made writable through `.flags`, as scikit-image does):
    # a write through it updates the matrix, so it must not become a functional update of the view alone
    facts, end = at_end(
        """
        import numpy as np
        def f(mu):
            result = np.zeros((2, 2))
            d = np.diag(result)
            e = np.diag(mu)
            return result
        """
    )
    assert facts.sharers(end, "result") == {"d"}


def test_rows_of_enumerate_and_zip_are_views():
    # `for k, coord in enumerate(grid): coord -= c` updates grid in place (scikit-image's LPIFilter2D centring); once
    # another fix had made `c` a JAX array, NumPy's `-=` rebound `coord` instead, and the grid was never centred
    facts, end = at_end(
        """
        import numpy as np
        def f(c):
            grid = np.zeros((2, 3))
            other = np.ones((2, 3))
            for k, coord in enumerate(grid):
                pass
            for a, b in zip(grid, other):
                pass
            return grid
        """
    )
    assert facts.sharers(end, "grid") == {"coord", "a"}
    assert facts.sharers(end, "other") == {"b"}


@pytest.mark.parametrize("view", [
    "np.rollaxis(result, 1)", "np.matrix_transpose(result)", "np.permute_dims(result, (1, 0))",
    "np.split(result, 2)[0]", "np.hsplit(result, 2)[1]", "np.array_split(result, 3)[0]", "np.trim_zeros(result[0])",
])
def test_more_numpy_views(view):
    # nilearn's TV-L1 `divergence_id` writes through `np.rollaxis(res, 1)`: a view of `res`, so the write must not
    # become a functional update of the view alone (the result came back all zeros)
    facts, end = at_end(f"import numpy as np\ndef f(x):\n    result = np.zeros((2, 4))\n    v = {view}\n    return result\n")
    assert facts.sharers(end, "result") == {"v"}


def test_items_of_a_split_are_views():
    facts, end = at_end(
        "import numpy as np\ndef f(x):\n    result = np.zeros((2, 4))\n    parts = np.split(result, 2)\n"
        "    first = parts[0]\n    return result\n"
    )
    assert {"parts", "first"} <= facts.sharers(end, "result")
