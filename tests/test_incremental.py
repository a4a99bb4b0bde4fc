"""Incremental passes (`jaxfix.incremental`): after a pass of fixes the rules run again only over the statements
that changed. The result must be exactly the result of running every pass over the whole module."""

import textwrap

import libcst as cst
import pytest

from jaxfix import incremental
from jaxfix.engine import process_source
from jaxfix.registry import all_rules
from jaxfix.testing.corpus import assert_same_either_way, examples, fixture_files
from jaxfix.types import RunOptions

RULES = all_rules()


def _statements(code: str) -> incremental.Statements:
    code = textwrap.dedent(code)
    return incremental.statements_of(cst.parse_module(code), code)


BASE = """
import numpy as np

SCALE = 2.0


# a helper
def helper(x):
    return x * SCALE


def caller(x):
    return helper(x) + 1


def alone(y):
    return y - 1
"""


@pytest.mark.parametrize(
    "after, kept",
    [
        pytest.param(BASE, ["helper", "caller", "alone"], id="nothing-changed"),
        pytest.param(BASE.replace("y - 1", "y - 2"), ["helper", "caller"], id="one-function"),
        pytest.param(BASE.replace("x * SCALE", "x * 3"), ["alone"], id="callee-changed-caller-not-kept"),
        pytest.param(BASE.replace("helper(x) + 1", "helper(x) + 2"), ["alone"], id="caller-changed-callee-not-kept"),
        pytest.param(BASE.replace("SCALE = 2.0", "SCALE = 3.0"), [], id="module-level-code"),
        pytest.param(BASE.replace("import numpy as np", "import numpy as np\nimport jax.numpy as jnp"),
                     ["helper", "caller", "alone"], id="import-nobody-names"),
        pytest.param(BASE.replace("import numpy as np", "import numpy as np\nimport jax.numpy as SCALE"), ["alone"],
                     id="import-a-kept-function-names"),
        pytest.param(BASE.replace("# a helper\n", "# the helper\n"), ["alone"], id="comment-above"),
        pytest.param(BASE + "\n\ndef added(z):\n    return alone(z)\n", ["helper", "caller"], id="new-function"),
        pytest.param(BASE.replace("x * SCALE", "x * 3"), ["alone"], id="non-ascii-names"),
    ],
)
def test_clean_statements(after, kept, request):
    if request.node.callspec.id == "non-ascii-names":  # a caller of a changed function named `hélper`
        old, new = _statements(BASE.replace("helper", "hélper")), _statements(after.replace("helper", "hélper"))
        assert sorted(new.nodes[j].name.value for j in incremental.clean_statements(old, new)) == kept
        return
    old, new = _statements(BASE), _statements(after)
    clean = incremental.clean_statements(old, new)
    assert sorted(new.nodes[j].name.value for j in clean) == sorted(kept)
    for j, i in clean.items():
        assert new.codes[j] == old.codes[i]


def test_statement_lines():
    statements = _statements(BASE)
    names = {getattr(n, "name", None) and n.name.value: (s, e) for n, s, e in zip(statements.nodes, statements.starts, statements.ends)}
    assert names["helper"] == (5, 9)  # the blank lines and the comment above belong to the statement
    assert names["alone"] == (14, 17)
    assert statements.index_at(8) == [i for i, n in enumerate(statements.nodes) if getattr(n, "name", None) and n.name.value == "helper"][0]


# several functions, fixes over several passes, findings left in functions no later pass changes
MULTI = textwrap.dedent(
    """
    import numpy as np


    def smooth(u, alpha):
        out = np.zeros_like(u)
        out[0] = u[0]
        for k in range(1, u.shape[0]):
            out[k] = alpha * u[k] + (1 - alpha) * out[k - 1]
        return out


    def clip(x, lo):
        y = x.copy()
        y[y < lo] = lo
        return np.mean(y), float(np.max(y))


    def counts(idx, n):
        c = np.zeros(n)
        np.add.at(c, idx, 1.0)
        return c


    def noisy(x):
        return x + np.random.normal(0.0, 1.0, size=x.shape)


    def uses_noisy(x):
        return noisy(x) * 2


    def mutate(a):
        a[0] = 1.0
    """
)

CASES = [("multi", MULTI, {}), *examples(), *(f for f in fixture_files() if f[0].endswith(".before.py"))]


def _reuse_disabled():
    from jaxfix import engine

    return engine.reuse_disabled()


@pytest.mark.parametrize("off", [incremental.disabled, _reuse_disabled], ids=["incremental", "reuse"])
@pytest.mark.parametrize("name, code, settings", CASES, ids=[c[0] for c in CASES])
def test_same_result_with_and_without_the_shortcut(name, code, settings, off):
    """`incremental`: rules only over the statements a pass changed; `reuse`: the next pass reads the tree the
    fixes made instead of parsing its code again."""
    for unsafe in (False, True):
        options = RunOptions(fix=True, unsafe_fixes=unsafe, settings=tuple(settings.items()))
        assert_same_either_way(name, code, RULES, options, off)


def test_later_passes_skip_unchanged_functions(monkeypatch):
    """The point of it: the verification pass after fixes does not run the rules over functions it kept."""
    import jaxfix.engine as engine

    skipped = []
    analyse = engine._analyse

    def spy(path, context, rules, suppressions, skip):
        skipped.append(sorted(n.name.value for n in skip))
        return analyse(path, context, rules, suppressions, skip)

    monkeypatch.setattr(engine, "_analyse", spy)
    process_source("m.py", MULTI, RULES, RunOptions(fix=True))
    assert skipped[0] == []  # the first pass sees everything
    assert any("mutate" in names for names in skipped[1:])  # nothing applies there after the first pass


def test_statements_from_the_ast_tree_line_up_with_libcst():
    """The engine takes statement lines from its `ast` tree (no code generation): same statements, same last
    lines, and the texts cover the module up to its last statement."""
    import ast

    odd = "import os; import sys\n\n@deco\n# between\ndef f(x):\n    return x  # c\n    # trailing, indented\n# module comment\nclass C: pass\n"
    for name, code, _ in [("odd", odd, {}), *CASES]:
        module = cst.parse_module(code)
        fast = incremental.statements_from_tree(module, ast.parse(code), code)
        slow = incremental.statements_of(module, code)
        assert fast.nodes == slow.nodes, name
        assert "".join(fast.codes) == "".join(code.splitlines(keepends=True)[: fast.ends[-1]]) if fast.ends else True, name
        for (start, end), node, slow_end in zip(zip(fast.starts, fast.ends), fast.nodes, slow.ends):
            assert start <= end <= slow_end, (name, getattr(node, "name", None))
        assert incremental.clean_statements(fast, fast) == {j: j for j, n in enumerate(fast.nodes) if isinstance(n, (cst.FunctionDef, cst.ClassDef))}


def test_statements_from_a_tree_that_does_not_line_up_fall_back():
    import ast

    code = "def f():\n    pass\n"
    module = cst.parse_module(code)
    other = ast.parse("def g():\n    pass\n")
    assert incremental.statements_from_tree(module, other, code).codes == incremental.statements_of(module, code).codes


def test_the_fixed_tree_is_parsed_once(monkeypatch):
    import jaxfix.engine as engine

    parsed = []
    parse = engine._parse
    monkeypatch.setattr(engine, "_parse", lambda text: parsed.append(text) or parse(text))
    outcome = process_source("m.py", MULTI, RULES, RunOptions(fix=True))
    assert outcome.fixes_applied > 1 and len(parsed) == 1
    with engine.reuse_disabled():
        process_source("m.py", MULTI, RULES, RunOptions(fix=True))
    assert len(parsed) > 2


def test_a_tree_with_a_node_at_two_places_is_not_reused():
    from jaxfix.analysis import positions

    name = cst.Name("x")
    module = cst.parse_module("a = 1\n").with_changes(body=[cst.SimpleStatementLine([cst.Expr(cst.BinaryOperation(name, cst.Add(), name))])])
    text, spans = positions.code_and_spans(module)
    assert text == "x + x\n" and spans is None
    text, spans = positions.code_and_spans(cst.parse_module(text))
    assert spans is not None


def _same_structure(a, b) -> bool:
    """Equal trees, where a hand-built node's `MaybeSentinel.DEFAULT` (the token generated by default) matches the
    token a parse gives, and a list matches a tuple."""
    if a is cst.MaybeSentinel.DEFAULT or b is cst.MaybeSentinel.DEFAULT:
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_structure(x, y) for x, y in zip(a, b))
    if isinstance(a, cst.CSTNode):
        import dataclasses

        return type(a) is type(b) and all(_same_structure(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b


def test_reused_trees_are_the_trees_a_parse_gives(monkeypatch):
    """Every tree the engine reuses is the tree parsing its code would give: the rules see the same structure."""
    from jaxfix.analysis import positions

    seen = []
    code_and_spans = positions.code_and_spans

    def spy(module):
        text, spans = code_and_spans(module)
        seen.append((module, text, spans))
        return text, spans

    monkeypatch.setattr(positions, "code_and_spans", spy)
    for name, code, settings in CASES:
        for unsafe in (False, True):
            try:
                process_source(name, code, RULES, RunOptions(fix=True, unsafe_fixes=unsafe, settings=tuple(settings.items())))
            except Exception:  # noqa: BLE001 - files the engine refuses are checked elsewhere
                pass
    assert len(seen) > 100
    for module, text, spans in seen:
        assert spans is not None
        assert _same_structure(module, cst.parse_module(text)), text


def test_parent_maps_kept_up_to_date_through_fixes(monkeypatch):
    """The parent map the engine hands to the next pass (updated as fixes rebuilt the tree) gives every node of the
    new tree the parent a fresh walk gives."""
    from jaxfix import walk
    from jaxfix.analysis import parents

    seen = []
    prime = parents.prime
    monkeypatch.setattr(parents, "prime", lambda module, up: seen.append((module, up)) or prime(module, up))
    for name, code, settings in CASES:
        try:
            process_source(name, code, RULES, RunOptions(fix=True, unsafe_fixes=True, settings=tuple(settings.items())))
        except Exception:  # noqa: BLE001 - files the engine refuses are checked elsewhere
            pass
    assert len(seen) > 50
    for module, up in seen:
        fresh = walk.parents(module)
        assert all(up.get(node) is parent for node, parent in fresh.items()), module.code
