"""Host data: parameters a function tests for a Python number or a NumPy scalar (`ScalarCheck`), and the arguments
such a test tells apart (`element_argument`)."""

import libcst as cst
import pytest

from jaxfix.analysis.host_data import ScalarCheck, _typed_parameters_of, element_argument
from jaxfix.imports import dotted_name


def is_numpy(node: cst.BaseExpression) -> bool:
    return dotted_name(node).split(".")[0] == "np"


def checks(body: str) -> dict[str, str]:
    function = cst.parse_module("def f(v, w):\n" + "".join(f"    {line}\n" for line in body.split("\n"))).body[0]
    found = _typed_parameters_of(None, function, is_numpy, scalars=True)  # type: ignore[arg-type]
    return {name: check for name, check in found.get("f", ([], {}))[1].items()}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("return isinstance(v, int)", id="int-never-a-numpy-scalar"),
        pytest.param("return isinstance(v, (bool, str))", id="bool-str"),
        pytest.param("return isinstance(v, (float, jax.Array))", id="accepts-jax"),
        pytest.param("return isinstance(v, np.ndarray)", id="ndarray-not-raising"),
        pytest.param("x = 1\nreturn isinstance(x, float)", id="not-a-parameter"),
    ],
)
def test_no_scalar_check(body: str) -> None:
    assert checks(body) == {}


@pytest.mark.parametrize(
    "body, name",
    [
        pytest.param("return isinstance(v, Number) or isinstance(v, np.generic)", "v", id="or"),
        pytest.param("return not isinstance(w, numbers.Real)", "w", id="not-numbers-real"),
        pytest.param("if isinstance(v, (int, float)) and v > 0:\n    return v", "v", id="and-tuple"),
        pytest.param("return isinstance(v, np.floating)", "v", id="numpy-scalar-type"),
    ],
)
def test_scalar_check(body: str, name: str) -> None:
    found = checks(body)
    assert list(found) == [name]
    assert isinstance(found[name], ScalarCheck)


@pytest.mark.parametrize(
    "value, expected",
    [
        ("x[i]", True),
        ("x[i, 0]", True),
        ("x[1:]", False),
        ("x", False),
        ("row", True),  # a loop's item
        ("0.5", False),
        ("g(x)", False),
    ],
)
def test_element_argument(value: str, expected: bool) -> None:
    function = cst.parse_module("def f(x):\n    for row in x:\n        pass\n").body[0]
    assert element_argument(cst.parse_expression(value), function) is expected  # type: ignore[arg-type]
