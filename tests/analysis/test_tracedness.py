"""Known answers for tracedness on small functions."""

import textwrap

import libcst as cst
import pytest

from jaxfix.analysis import settings
from jaxfix.analysis.tracedness import FunctionTracedness, Tracedness

S, U, T = Tracedness.STATIC, Tracedness.UNKNOWN, Tracedness.TRACED


def analyse(code: str, config=frozenset()):
    module = cst.parse_module(textwrap.dedent(code))
    fn = next(s for s in module.body if isinstance(s, cst.FunctionDef))
    return FunctionTracedness(fn, frozenset(config), None), fn


def level(analysis, source: str) -> Tracedness:
    return analysis.of(cst.parse_expression(source))


def test_parameters_traced_unless_static():
    a, _ = analyse(
        "def f(x, n: int, mode='fast', flag=False, axis=None, kind=None, t=0.5, *, scale: float = 1.0):\n"
        "    if kind == 'a':\n        pass\n"
    )
    table = a.variables()
    assert table["x"] is T and table["t"] is T and table["scale"] is T
    assert {k for k, v in table.items() if v is S} == {"n", "mode", "flag", "axis", "kind"}


def test_jit_decorator_and_config():
    a, _ = analyse("@partial(jax.jit, static_argnames=('n',), static_argnums=(2,))\ndef f(x, n, k, m):\n    pass\n", {"f.m"})
    table = a.variables()
    assert (table["x"], table["n"], table["k"], table["m"]) == (T, S, S, S)


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("x < 3", T), ("x.shape[0] > 2", S), ("x.ndim == 2", S), ("len(x) > 1", S), ("x is None", S),
        ("x.sum() > t", T), ("np.sum(x) > 0", T), ("np.prod(x.shape)", S), ("mode == 'a'", S),
        ("n + 1", S), ("x[0]", T), ("CONST * 2", S), ("helper(n)", U), ("self.w", U), ("isinstance(x, list)", S),
        ("a if x > 0 else b", T), ("max(x, 0.0)", T), ("x.T", T), ("float(n)", S),
        # predicates answer from the type: public or private (scikit-learn's `_is_numpy_namespace(xp)`)
        ("issparse(x)", S), ("_is_numpy_namespace(t)", S), ("_isclose(x, t)", T), ("np.isnan(x)", T),
    ],
)
def test_expressions(expr, expected):
    a, _ = analyse("def f(x, n: int, t, mode='a', self=None):\n    pass\n")
    assert level(a, expr) is expected


def test_variables_follow_assignments_flow_insensitively():
    a, _ = analyse(
        """
        def f(x, n: int):
            k = n * 2
            acc = 0.0
            for i in range(n):
                acc = acc + x[i]
            for j in range(x.shape[0]):
                pass
            for row in x:
                pass
            m = x.shape[0]
            y = x[:m]
            return acc
        """
    )
    table = a.variables()
    assert (table["k"], table["acc"], table["i"], table["j"], table["row"], table["m"], table["y"]) == (S, T, S, S, T, S, T)


def test_traced_loop_bound_makes_the_counter_traced():
    a, _ = analyse("def f(x, n):\n    for i in range(n):\n        pass\n")
    assert a.variables()["i"] is T


def test_settings_context():
    with settings.using({"static-args": ("n",)}):
        assert settings.current()["static-args"] == ("n",)
    assert settings.current() == {}


def test_providers_through_the_engine():
    """Rules read both providers as metadata; settings from [tool.jaxfix] reach the analysis."""
    from jaxfix.analysis.dataflow import DataflowProvider, function_flow
    from jaxfix.analysis.tracedness import TracednessProvider, tracedness
    from jaxfix.engine import process_source
    from jaxfix.rule import Rule
    from jaxfix.types import RunOptions

    seen = {}

    class Probe(Rule):
        CODE = "JX999"
        METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, DataflowProvider, TracednessProvider)
        TRIGGERS = (b"def",)

        def visit_If(self, node):
            seen["test"] = tracedness(self, node.test)
            seen["live"] = function_flow(self, self.current_function).live_out(node)

    code = "def f(x, n):\n    y = 0\n    if n > 2:\n        y = x\n    return y\n"
    process_source("p.py", code, [Probe], RunOptions())
    assert seen == {"test": T, "live": {"y"}}
    process_source("p.py", code, [Probe], RunOptions(settings=(("static-args", ("f.n",)),)))
    assert seen["test"] is S


def test_plain_python_helpers_in_a_numpy_module_are_static():
    """A string/dict helper (no array evidence) keeps Python control flow; array code does not."""
    code = (
        "import numpy as np\n"
        "def parse(lines, sep):\n    for line in lines:\n        if not line.strip():\n            continue\n    return sep\n"
        "def relu(x):\n    return x if x > 0 else 0.0\n"
        "def mixed(x, names):\n    return {k: np.sum(x) for k in names.keys()}\n"
    )
    module = cst.parse_module(code)
    fns = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    arrays = frozenset({"np"})
    parse, relu, mixed = (FunctionTracedness(fn, frozenset(), None, arrays) for fn in fns)
    assert parse.is_plain_python() and parse.variables()["lines"] is S
    assert not relu.is_plain_python() and relu.variables()["x"] is T
    assert not mixed.is_plain_python() and mixed.variables()["x"] is T


@pytest.mark.parametrize(
    "source, plain",
    [
        pytest.param("def f(self, values=None):\n    values = dict(values or {})\n    self.limit = int(values['n'])\n", True,
                     id="dict-builtin"),
        pytest.param("def f(fn, n=3):\n    for k in range(n):\n        try:\n            return fn()\n        except OSError:\n"
                     "            pass\n", True, id="try-except"),
        pytest.param("def f(x, n):\n    for j in range(n):\n        try:\n            return x[j]\n        finally:\n"
                     "            pass\n", False, id="try-finally-is-not-evidence"),
        pytest.param("def f(x):\n    try:\n        return np.log(x)\n    except ValueError:\n        return x\n", False,
                     id="array-evidence-wins"),
        pytest.param("def f(seg, limit):\n    if seg[0].span() <= limit:\n        return 0\n    return seg[1].stop\n", True,
                     id="object-attributes-of-a-parameter"),
        pytest.param("def f(x, limit):\n    if x.real.max() <= limit:\n        return 0\n    return x.T\n", False,
                     id="array-attributes-are-not-objects"),
        pytest.param("def f(self, limit):\n    if self.n <= limit:\n        self.n = 0\n    return self.n\n", False,
                     id="self-attributes-are-not-evidence"),
    ],
)
def test_plain_python_evidence(source, plain):
    fn = cst.ensure_type(cst.parse_module(source).body[0], cst.FunctionDef)
    analysis = FunctionTracedness(fn, frozenset(), None, frozenset({"np"}))
    assert analysis.is_plain_python() is plain


def test_everything_in_a_plain_helper_is_static():
    """`if self.tags:` in a string-formatting method is not a traced branch (attributes of `self` are otherwise
    UNKNOWN)."""
    code = "def describe(self):\n    parts = []\n    if self.tags:\n        parts.append('t')\n    return '; '.join(parts)\n"
    fn = cst.ensure_type(cst.parse_module(code).body[0], cst.FunctionDef)
    test = cst.ensure_type(fn.body.body[1], cst.If).test
    assert FunctionTracedness(fn, frozenset(), None, frozenset({"np"})).of(test) is S


@pytest.mark.parametrize(
    "expr",
    [
        "x.dtype != t",  # a dtype compared with anything is a Python bool
        "t == np.float32",  # `input_dtype == np.float32`: an array is never compared with a scalar type
        "np.promote_types(np.min_scalar_type(t), np.uint8)",  # dtypes, known when tracing
        "np.result_type(x, t)",
        "x.shape == (t, 3)",  # tuples compared in Python: a Python bool (trimesh's colors_to_gl)
        "x.shape != t.shape",
    ],
)
def test_dtypes_and_their_comparisons_are_static(expr):
    a, _ = analyse("def f(x, t):\n    pass\n")
    assert level(a, expr) is S


def test_tuple_assignment_binds_item_by_item():
    """`pop, problem = algorithm.pop, algorithm.problem`: `problem` is an object's attribute (UNKNOWN), whatever
    `algorithm.pop` is (`pop` is a dict method name, so it reads as the parameter's own level); pymoo's
    Nelder-Mead had `if problem.has_bounds():` rewritten into a `lax.cond` as a safe fix."""
    # (`x.T`: a sign of arrays; without one, `algorithm.problem` makes the function a plain-Python one)
    a, _ = analyse("def f(algorithm, x):\n    pop, problem = algorithm.pop, algorithm.problem\n    y, z = x.T, 1\n    return pop\n")
    table = a.variables()
    assert (table["pop"], table["problem"], table["y"], table["z"]) == (T, U, T, S)


def test_mapping_entries_and_enumerate_counters():
    """`opts["double"]` is a mapping's entry (a setting as often as an array): unknown, not traced; `x[0]` is an
    array's item. `enumerate` counts in Python, in a loop and in a comprehension: its counter is static."""
    a, _ = analyse(
        "def f(x, opts, gs):\n    for i, g in enumerate(gs):\n        pass\n"
        "    return [j for j, h in enumerate(gs)]\n"
    )
    assert level(a, 'opts["double"]') is U and level(a, "x[0]") is T and level(a, "opts[i]") is T
    assert level(a, "i") is S and level(a, "j") is S and level(a, "g") is T


@pytest.mark.parametrize(
    "prelude, plain",
    [
        pytest.param("try:\n    import numpy as np\nexcept ImportError:\n    np = None\n", True, id="optional-numpy"),
        pytest.param("try:\n    import numpy as np\nexcept ImportError:\n    raise\n", False, id="required-numpy"),
        pytest.param("import numpy as np\n", False, id="plain-import"),
    ],
)
def test_functions_without_numpy_in_a_module_whose_numpy_is_optional_are_plain(prelude, plain):
    """dtaidistance's `np = None` fallback: a function that does not use NumPy runs on Python values (`v1 == v2` of
    two letters); one that does is array code."""
    from jaxfix.analysis.plain_python import optional_array_imports

    module = cst.parse_module(prelude + "def cost(a, b):\n    if a == b:\n        return 0\n    return 1\n"
                              "def total(x):\n    return np.sum(x)\n")
    cost, total = (s for s in module.body if isinstance(s, cst.FunctionDef))
    optional = optional_array_imports(module)
    assert optional is plain
    assert FunctionTracedness(cost, frozenset(), None, frozenset({"np"}), optional=optional).is_plain_python() is plain
    assert not FunctionTracedness(total, frozenset(), None, frozenset({"np"}), optional=optional).is_plain_python()


def test_host_counts_and_dtype_parameters_are_static():
    # `os.cpu_count()` is the host's count (a Python int); `n_jobs` is joblib's count of workers; a parameter read
    # for an attribute only dtypes have (`.kind`), or annotated `np.dtype`, is a dtype (pyod's helpers)
    a, _ = analyse(
        "def f(x, n_jobs, src, dst, t: np.dtype):\n    k = max(os.cpu_count() + n_jobs, 1)\n"
        "    same = src.kind == dst.kind\n"
    )
    table = a.variables()
    assert (table["x"], table["n_jobs"], table["src"], table["dst"], table["t"], table["k"], table["same"]) == (T, S, S, S, S, S, S)
    assert level(a, "cpu_count()") is S and level(a, "x.kind") is U


@pytest.mark.parametrize("kind, expected", [
    ("int", S), ("int, optional", S), ("positive int", S), ("int or None", S), ("int, default 3", S),
    ("int (default 3)", S), ("bool", S), ("str {'a', 'b'}", S), ("integer, optional", S),
    ("float", T), ("int or float", T), ("array_like", T), ("int or array_like", T), ("list of int", T),
    ("ndarray of int", T), ("int, default 3 or ndarray of ints", T), ("int, default: 3", S),
])
def test_parameters_documented_as_python_values_are_static(kind, expected):
    """A docstring's `target : int` is the documented form of `target: int` (mne's `next_fast_len`): a size whose
    `if` stays Python. `float` is not (a step or threshold that `jit` traces), nor anything array- or list-like."""
    numpydoc, _ = analyse(f'def f(x, target):\n    """Next size.\n\n    Parameters\n    ----------\n'
                          f'    target : {kind}\n        Where to start.\n    """\n')
    google, _ = analyse(f'def f(x, target):\n    """Next size.\n\n    Args:\n        target ({kind}): where.\n    """\n')
    assert numpydoc.variables()["target"] is expected and numpydoc.variables()["x"] is T
    assert google.variables()["target"] is expected


def test_a_returns_entry_named_like_a_parameter_says_nothing_of_it():
    a, _ = analyse('def f(x, n):\n    """Grow.\n\n    Parameters\n    ----------\n    x : ndarray\n\n'
                   '    Returns\n    -------\n    n : int\n        How many.\n    """\n')
    assert a.variables()["n"] is T


def _params_at_if(code: str, project=None, module_name: str = "") -> dict:
    """{function name: its parameters' tracedness}, read by a rule visiting each `if` of `code` (a module
    `module_name` of a run with the project facts `project`)."""
    from jaxfix.analysis.tracedness import TracednessProvider, function_tracedness
    from jaxfix.engine import process_source
    from jaxfix.rule import Rule
    from jaxfix.types import RunOptions

    seen = {}

    class Probe(Rule):
        CODE = "JX999"
        METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, TracednessProvider)
        TRIGGERS = (b"def",)

        def visit_If(self, node):
            analysis = function_tracedness(self, self.current_function)
            params = self.current_function.params
            seen[self.current_function.name.value] = {
                p.name.value: analysis.variables()[p.name.value] for p in (*params.params, *params.kwonly_params)}

    process_source("p.py", textwrap.dedent(code), [Probe], RunOptions(), project, module_name)
    return seen


def test_parameters_every_call_of_the_module_gives_a_static_value_are_static():
    """mne's `next_fast_len(2 * len(h) - 1)`: a size in practice, whose `if`/`min` stay Python."""
    seen = _params_at_if("""
        import numpy as np

        def _next_len(target, scale, floor=2):
            if target <= floor:
                return target
            return min(target * scale, 3 * target)

        def smooth(x, h, k):
            n = 2 * len(h) - 1
            a = _next_len(n, 2)
            b = _next_len(x.shape[0], scale=k)
            return a, b

        class Filter:
            def run(self, x):
                return _next_len(len(x), 3, floor=4)
    """)
    assert seen["_next_len"] == {"target": S, "scale": T, "floor": S}  # `k`, a parameter of `smooth`, is traced


def test_a_private_helper_another_file_of_the_run_mentions_is_not_judged_by_its_module_calls():
    """`from ._utils import _pad` in a sibling module (`private_names`): that module may hand it an array."""
    from jaxfix.analysis import private_names

    code = "def _pad(n, low):\n    if n > low:\n        return n\n    return low\n\ndef f(x):\n    return _pad(len(x), 4)\n"
    assert _params_at_if(code)["_pad"]["n"] is S
    assert _params_at_if(code, {private_names.KEY: {"p": ["_pad"]}}, "p")["_pad"]["n"] is T
    assert _params_at_if(code, {private_names.KEY: {"other": ["_pad"]}}, "p")["_pad"]["n"] is S


@pytest.mark.parametrize(
    "callers",
    [
        pytest.param("", id="no-call"),
        pytest.param("def use(x):\n    return _scale(x.sum(), 3)\n", id="a-traced-argument"),
        pytest.param("def use(x):\n    return _scale(*x)\n", id="a-starred-argument"),
        pytest.param("def use(x):\n    return list(map(_scale, x, x))\n", id="passed-as-a-function"),
        pytest.param("def use(x):\n    def inner(m):\n        return _scale(m, 2)\n    return inner(x)\n",
                     id="called-in-a-nested-function-with-its-parameter"),
        pytest.param("def use(x):\n    return _scale(3, 2) + _scale(x, 2)\n", id="one-call-of-two"),
    ],
)
def test_parameters_stay_traced_without_caller_evidence(callers):
    code = "import jax\ndef _scale(n, k):\n    if n > 2:\n        return n * k\n    return n\n" + callers
    seen = _params_at_if(code)
    assert seen["_scale"]["n"] is T


def test_decorated_functions_keep_traced_parameters():
    """`jax.jit` traces what its callers pass, whatever they are."""
    seen = _params_at_if("import jax\n@jax.jit\ndef _scale(n, k):\n    if n > 2:\n        return n * k\n    return n\n"
                         "def use(x):\n    return _scale(3, 2)\n")
    assert seen["_scale"]["n"] is T


def test_recursive_calls_do_not_make_their_parameters_static():
    seen = _params_at_if("def _down(n):\n    if n > 0:\n        return _down(n - 1)\n    return n\n"
                         "def use():\n    return _down(5)\n")
    assert seen["_down"]["n"] is T


def test_method_parameters_every_self_call_gives_a_static_value_are_static():
    seen = _params_at_if("""
        import numpy as np

        class Resampler:
            def __init__(self, x):
                self.x = x

            def _pad(self, n, low):
                if n % 2:
                    n += 1
                return max(n, low)

            def run(self, k):
                pad = self._pad(len(self.x), 3)
                pad2 = self._pad(self.x.shape[0], low=k)
                return np.sum(self.x) * (pad + pad2)
    """)
    assert seen["_pad"] == {"self": S, "n": S, "low": T}  # `k`, a parameter of `run`, is traced


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param("def use(r, x):\n    return r._pad(x, 2)\n", id="called-on-another-object"),
        pytest.param("class Other(Resampler):\n    def _pad(self, n, low):\n        if n:\n            return n\n"
                     "        return low\n", id="overridden"),
        pytest.param("def use(r):\n    return list(map(r._pad, [1], [2]))\n", id="passed-as-a-function"),
    ],
)
def test_method_parameters_stay_traced_when_the_method_is_used_elsewhere(extra):
    code = ("class Resampler:\n    def _pad(self, n, low):\n        if n % 2:\n            n += 1\n"
            "        return max(n, low)\n\n    def run(self):\n        return self._pad(3, 3)\n" + extra)
    seen = _params_at_if(code)
    assert seen["_pad"]["n"] is T


def test_public_functions_keep_traced_parameters():
    """Another module may call a public function with an array (jaxfix sees only this module's calls)."""
    seen = _params_at_if("def cap(v, m):\n    if v > m:\n        return m\n    return v\n"
                         "def total(x):\n    return cap(len(x), 3)\n")
    assert seen["cap"]["v"] is T


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("arg.startswith('S')", S),
        ("line.split()", S),
        ("', '.join(names)", S),
        ("xp.split(x, 2)", T),  # an array namespace's `split`, given an array
        ("cv.split(x)", T),  # an object's method, given an array
    ],
)
def test_text_methods_are_static_only_on_text(expr, expected):
    a, _ = analyse("def f(x, xp, cv, arg, line, names):\n    return x\n")
    assert level(a, expr) is expected
