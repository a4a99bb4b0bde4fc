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
