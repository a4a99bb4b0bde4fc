"""The language server (`jaxfix lsp`): diagnostics and code actions from the same engine, tested in-process by
calling the handlers' logic directly, plus one end-to-end session over stdio with pygls's client."""

import asyncio
import sys

import libcst as cst
import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra")
from lsprotocol import types  # noqa: E402

from codemods.numpy_namespace import NumpyNamespace  # noqa: E402
from jaxfix.lsp import FIX_ALL_KIND, Analysis, code_actions, create_server, diagnostics  # noqa: E402
from jaxfix.rule import Rule  # noqa: E402

URI = "file:///project/model.py"
SOURCE = "import numpy as np\n\n\ndef f(x):\n    return np.sum(x)  # total\n"


class DropAbs(Rule):
    """Test-only rule with an unsafe fix: `abs(x)` -> `x`."""

    CODE = "JX598"
    TRIGGERS = (b"abs(",)

    def visit_Call(self, node):
        if isinstance(node.func, cst.Name) and node.func.value == "abs":
            self.report(node, "needless abs", replacement=node.args[0].value, unsafe=True, title="drop `abs`")


def rng(line, start, end=None):
    return types.Range(start=types.Position(line, start), end=types.Position(line, end if end is not None else start))


def apply(text, edits):
    lines = text.split("\n")

    def offset(p):
        return sum(len(l) + 1 for l in lines[: p.line]) + p.character

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


def test_no_findings_no_diagnostics():
    assert diagnostics(Analysis([NumpyNamespace]), URI, "import jax.numpy as jnp\n") == []


def test_diagnostics_are_findings():
    (diag,) = diagnostics(Analysis([NumpyNamespace]), URI, SOURCE)
    assert diag.code == "JX501" and diag.source == "jaxfix"
    assert diag.range == rng(4, 11, 17)  # `np.sum`, 0-based
    assert "fix: replace with `jnp.sum`" in diag.message


def test_columns_are_utf16():
    text = "import numpy as np\n\n\ndef f(x):\n    s = '😀'; return np.sum(x)\n"
    (diag,) = diagnostics(Analysis([NumpyNamespace]), URI, text)
    # the emoji is one code point but two UTF-16 units
    assert diag.range.start.character == text.split("\n")[4].index("np.sum") + 1


def test_a_file_that_does_not_parse_gets_one_note():
    (diag,) = diagnostics(Analysis([NumpyNamespace]), URI, "import numpy as np\ndef f(:\n")
    assert diag.severity == types.DiagnosticSeverity.Information and "syntax error" in diag.message


def test_quick_fix_at_a_range_applies_cleanly():
    analysis = Analysis([NumpyNamespace])
    assert code_actions(analysis, URI, SOURCE, rng(1, 0), [types.CodeActionKind.QuickFix]) == []
    (action,) = code_actions(analysis, URI, SOURCE, rng(4, 13), [types.CodeActionKind.QuickFix])
    assert action.title == "replace with `jnp.sum` (JX501)" and action.is_preferred
    edits = action.edit.changes[URI]
    # one finding's fix adds the import it needs; unused NumPy imports are dropped only by migrate / fix-all
    assert apply(SOURCE, edits) == "import jax.numpy as jnp\nimport numpy as np\n\n\ndef f(x):\n    return jnp.sum(x)  # total\n"
    assert any(e.new_text == "j" for e in edits), "minimal edit, not a whole-line replacement"


def test_unsafe_fixes_are_offered_but_never_preferred():
    text = "def f(x):\n    return abs(x)\n"
    (action,) = code_actions(Analysis([DropAbs]), URI, text, rng(1, 12), None)
    assert action.title == "drop `abs` (JX598, unsafe)" and not action.is_preferred
    assert apply(text, action.edit.changes[URI]) == "def f(x):\n    return x\n"


def test_fix_all_applies_only_safe_fixes():
    text = "import numpy as np\n\n\ndef f(x):\n    return abs(np.sum(x))\n"
    analysis = Analysis([NumpyNamespace, DropAbs])
    (action,) = code_actions(analysis, URI, text, rng(0, 0), [FIX_ALL_KIND])
    assert action.kind == FIX_ALL_KIND
    assert apply(text, action.edit.changes[URI]).endswith("    return abs(jnp.sum(x))\n")


def test_server_registers_its_features():
    server = create_server()
    features = server.protocol.fm.features
    for method in (
        types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_SAVE,
        types.TEXT_DOCUMENT_DID_CLOSE, types.TEXT_DOCUMENT_CODE_ACTION,
    ):
        assert method in features


def test_end_to_end_over_stdio(tmp_path):
    """A real session: initialize, open a document, receive diagnostics, ask for code actions, shut down."""
    from pygls.lsp.client import LanguageClient

    (tmp_path / "pyproject.toml").write_text('[tool.jaxfix]\nselect = ["JX501"]\n')
    path = tmp_path / "model.py"
    path.write_text(SOURCE)
    uri = path.as_uri()

    async def session():
        client = LanguageClient("test-client", "1")
        received = asyncio.Event()
        published = {}

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            published[params.uri] = params.diagnostics
            received.set()

        await client.start_io(sys.executable, "-m", "jaxfix", "lsp")
        await client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri())
        )
        client.initialized(types.InitializedParams())
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SOURCE))
        )
        await asyncio.wait_for(received.wait(), 90)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=rng(4, 13),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return published, actions

    published, actions = asyncio.run(session())
    assert [d.code for d in published[uri]] == ["JX501"]
    assert [a.title for a in actions if a.kind == types.CodeActionKind.QuickFix] == ["replace with `jnp.sum` (JX501)"]
