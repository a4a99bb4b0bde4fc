"""`jaxfix lsp`: a language server over stdio (pygls), from the same engine as the CLI.

- Diagnostics on open, change and save (one per finding: code, message, `source = "jaxfix"`, the fix title in the
  message's related data), cleared on close.
- Code actions at a range: one quick fix per finding there that has a fix, titled with the fix title; safe fixes
  are marked preferred, unsafe ones say "(unsafe)" in the title and are never preferred. Plus
  `source.fixAll.jaxfix`, which applies every safe fix in the document (what `jaxfix migrate` would do).
- No formatting, no hover: the server only diagnoses and offers edits.

Configuration comes from the `pyproject.toml` nearest to each document (`[tool.jaxfix]`), as on the command line.
The logic lives in plain functions (`diagnostics`, `code_actions`) that the tests call directly; the server only
wires them to LSP messages. Columns are converted from code points (the engine's) to UTF-16 (LSP's default).
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from typing import Optional, Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types

from jaxfix import __version__
from jaxfix.api import options_for, rules_for
from jaxfix.config import ConfigError, load_config
from jaxfix.engine import EngineError, process_source
from jaxfix.fixes import text_edits
from jaxfix.prefilter import may_apply, may_apply_to_tree
from jaxfix.runner import module_name_for
from jaxfix.types import Applicability, Edit, FileResult, Finding, Status

SOURCE = "jaxfix"
FIX_ALL_KIND = "source.fixAll.jaxfix"


def uri_to_path(uri: str) -> str:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return uri  # untitled:..., a name for messages only
    return unquote(parsed.path)


def _utf16_column(line_text: str, column: int) -> int:
    """A 0-based code-point column -> a 0-based UTF-16 column (what LSP positions count by default)."""
    prefix = line_text[:column]
    return len(prefix.encode("utf-16-le")) // 2


def _position(lines: Sequence[str], line: int, column: int) -> types.Position:
    """1-based engine line/column -> an LSP position."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Position(line=line - 1, character=_utf16_column(text, column - 1))


def _lines(text: str) -> list[str]:
    import re

    return re.split(r"\r\n|\r|\n", text)


def analyse_text(path: str, text: str, rules, options) -> FileResult:
    """The engine on an editor buffer (already text: no decoding, whatever its coding cookie says)."""
    data = text.encode("utf-8", "surrogatepass")
    if not may_apply(data, rules) or not may_apply_to_tree(path, data, text, rules):
        return FileResult(path=path, status=Status.SKIPPED)
    module_name = module_name_for(path) if os.path.isabs(path) else ""
    try:
        outcome = process_source(path, text, rules, options, None, module_name)
    except EngineError as error:
        return FileResult(path=path, status=Status.ERROR, error=str(error))
    except Exception as error:  # noqa: BLE001 - never take the editor's server down
        return FileResult(path=path, status=Status.ERROR, error=f"internal error: {type(error).__name__}: {error}")
    changed = outcome.fixed != text
    return FileResult(
        path=path,
        status=Status.CHANGED if changed else Status.UNCHANGED,
        findings=tuple(outcome.findings),
        fixes_applied=outcome.fixes_applied,
        original=text if changed else None,
        fixed=outcome.fixed if changed else None,
    )


class Analysis:
    """Findings for one document version, with edits. Cached by (uri, text): code actions reuse the diagnostics'."""

    def __init__(self, rules: Optional[Sequence[type]] = None) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, tuple[str, FileResult]] = {}
        self._rules = tuple(rules) if rules is not None else None  # None: as configured for each document

    def run(self, uri: str, text: str, *, fix: bool = False) -> FileResult:
        if not fix:
            with self._lock:
                cached = self._last.get(uri)
            if cached is not None and cached[0] == text:
                return cached[1]
        path = uri_to_path(uri)
        folder_hint = path if os.path.isabs(path) else os.getcwd()
        try:
            config = load_config([folder_hint])
        except ConfigError as error:
            return FileResult(path=path, status=Status.ERROR, error=str(error))
        rules = self._rules if self._rules is not None else rules_for(config)
        options = options_for(config, fix=fix, want_edits=not fix, write=False)
        if fix:
            options = replace(options, unsafe_fixes=False)
        result = analyse_text(path, text, rules, options)
        if not fix:
            with self._lock:
                self._last[uri] = (text, result)
        return result

    def forget(self, uri: str) -> None:
        with self._lock:
            self._last.pop(uri, None)


def to_diagnostic(finding: Finding, lines: Sequence[str]) -> types.Diagnostic:
    message = finding.message
    if finding.fix is not None:
        safety = "" if finding.fix.applicability is Applicability.SAFE else " (unsafe)"
        message = f"{message}\nfix{safety}: {finding.fix.title}"
    return types.Diagnostic(
        range=types.Range(
            start=_position(lines, finding.line, finding.column),
            end=_position(lines, finding.end_line, finding.end_column),
        ),
        message=message,
        severity=types.DiagnosticSeverity.Warning,
        code=finding.code,
        source=SOURCE,
        data={"rule": finding.rule},
    )


def diagnostics(analysis: Analysis, uri: str, text: str) -> list[types.Diagnostic]:
    result = analysis.run(uri, text)
    lines = _lines(text)
    if result.status is Status.ERROR:
        # a file the engine cannot process (a syntax error mid-edit): one informational note, not an error storm
        return [
            types.Diagnostic(
                range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
                message=f"jaxfix could not analyse this file: {result.error}",
                severity=types.DiagnosticSeverity.Information,
                source=SOURCE,
            )
        ]
    return [to_diagnostic(f, lines) for f in result.findings]


def _text_edits(edits: Sequence[Edit], lines: Sequence[str]) -> list[types.TextEdit]:
    return [
        types.TextEdit(
            range=types.Range(start=_position(lines, e.line, e.column), end=_position(lines, e.end_line, e.end_column)),
            new_text=e.content,
        )
        for e in edits
    ]


def _overlaps(finding: Finding, start: types.Position, end: types.Position, lines: Sequence[str]) -> bool:
    f_start = _position(lines, finding.line, finding.column)
    f_end = _position(lines, finding.end_line, finding.end_column)
    return (f_start.line, f_start.character) <= (end.line, end.character) and (start.line, start.character) <= (
        f_end.line,
        f_end.character,
    )


def code_actions(
    analysis: Analysis, uri: str, text: str, range_: types.Range, only: Optional[Sequence[str]] = None
) -> list[types.CodeAction]:
    lines = _lines(text)
    actions: list[types.CodeAction] = []
    wants = lambda kind: not only or any(kind == k or kind.startswith(k + ".") for k in only)  # noqa: E731
    if wants(types.CodeActionKind.QuickFix):
        result = analysis.run(uri, text)
        for finding in result.findings:
            if finding.fix is None or not finding.fix.edits:
                continue
            if not _overlaps(finding, range_.start, range_.end, lines):
                continue
            safe = finding.fix.applicability is Applicability.SAFE
            actions.append(
                types.CodeAction(
                    title=f"{finding.fix.title} ({finding.code}{'' if safe else ', unsafe'})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[to_diagnostic(finding, lines)],
                    is_preferred=safe,
                    edit=types.WorkspaceEdit(changes={uri: _text_edits(finding.fix.edits, lines)}),
                )
            )
    if wants(FIX_ALL_KIND):
        fixed = analysis.run(uri, text, fix=True)
        if fixed.status is Status.CHANGED and fixed.fixed is not None:
            actions.append(
                types.CodeAction(
                    title="Apply all safe jaxfix fixes",
                    kind=FIX_ALL_KIND,
                    edit=types.WorkspaceEdit(changes={uri: _text_edits(text_edits(text, fixed.fixed), lines)}),
                )
            )
    return actions


def create_server():  # -> pygls LanguageServer; imported lazily so the CLI works without the `lsp` extra
    from pygls.lsp.server import LanguageServer

    server = LanguageServer("jaxfix", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
    analysis = Analysis()

    def publish(uri: str, text: Optional[str] = None) -> None:
        if text is None:
            text = server.workspace.get_text_document(uri).source
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics(analysis, uri, text))
        )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri, params.text_document.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: types.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: types.DidSaveTextDocumentParams) -> None:
        analysis.forget(params.text_document.uri)  # pyproject.toml may have changed with the save
        publish(params.text_document.uri, params.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams) -> None:
        analysis.forget(params.text_document.uri)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=False),
    )
    def code_action(ls, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        text = server.workspace.get_text_document(uri).source
        return code_actions(analysis, uri, text, params.range, params.context.only)

    server.jaxfix_analysis = analysis  # for tests
    return server


def main() -> None:  # pragma: no cover - exercised through a subprocess in tests
    create_server().start_io()
