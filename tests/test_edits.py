"""Fix edits (JSON output, `jaxfix fix --format json`, the LSP server) are correct and minimal."""

import json

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from jaxfix.cli import app
from jaxfix.fixes import text_edits
from jaxfix.source import lines as source_lines


def apply_edits(text: str, edits) -> str:
    """Apply 1-based (line, column) edits the way an editor does (from the last to the first)."""
    lines = source_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line, column):
        return starts[line - 1] + column - 1 if line - 1 < len(starts) else len(text)

    for e in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        text = text[: offset(e.line, e.column)] + e.content + text[offset(e.end_line, e.end_column) :]
    return text


def test_a_renamed_call_is_one_character():
    old = "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n"
    new = "import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    return jnp.sum(x)\n"
    edits = text_edits(old, new)
    assert [(e.line, e.column, e.end_line, e.end_column, e.content) for e in edits] == [
        (1, 1, 1, 1, "import jax.numpy as jnp\n"),
        (4, 12, 4, 12, "j"),
    ]
    assert apply_edits(old, edits) == new


def test_line_breaks_are_counted_as_libcst_counts_them():
    old = "a = 1\x0c  # form feed\r\nb = np.x\r\n"
    new = "a = 1\x0c  # form feed\r\nb = jnp.x\r\n"
    (edit,) = text_edits(old, new)
    assert (edit.line, edit.column, edit.content) == (2, 5, "j")


TEXT = st.lists(st.sampled_from(["a", "b", "np", " ", "\n", "\r\n", "(", "x"]), max_size=30).map("".join)


@given(TEXT, TEXT)
def test_edits_turn_old_into_new(old, new):
    assert apply_edits(old, text_edits(old, new)) == new


def test_fix_json_edits_match_the_applied_fix(tmp_path):
    source = "import numpy as np\n\n\ndef f(x):\n    y = np.abs(x)\n    return np.sum(y)  # keep\n"
    path = tmp_path / "m.py"
    path.write_text(source)
    runner = CliRunner()
    out = runner.invoke(app, ["fix", str(path), "--line", "6", "--format", "json", "--config", str(tmp_path / "none.toml")])
    assert out.exit_code == 2  # no such config: a usage error
    (tmp_path / "pyproject.toml").write_text('[tool.jaxfix]\nselect = ["JX501"]\n')
    out = runner.invoke(app, ["fix", str(path), "--line", "6", "--format", "json"])
    assert out.exit_code == 0
    (finding,) = json.loads(out.stdout)
    edits = finding["fix"]["edits"]
    # the import and one character on line 6; line 5 is not touched
    assert [(e["location"]["row"], e["content"]) for e in edits] == [(1, "import jax.numpy as jnp\n"), (6, "j")]
    assert runner.invoke(app, ["fix", str(path), "--line", "6"]).exit_code == 0
    applied = path.read_text()
    assert "y = np.abs(x)" in applied and "return jnp.sum(y)  # keep" in applied

    class E:  # the JSON edit as the editor sees it
        def __init__(self, d):
            self.line, self.column = d["location"]["row"], d["location"]["column"]
            self.end_line, self.end_column = d["end_location"]["row"], d["end_location"]["column"]
            self.content = d["content"]

    assert apply_edits(source, [E(e) for e in edits]) == applied
