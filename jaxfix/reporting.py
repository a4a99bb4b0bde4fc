"""Presenting results: text (one line per finding, fix titles, a summary), JSON, unified diffs."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence, TextIO

from rich.console import Console
from rich.text import Text

from jaxfix import advice
from jaxfix.types import Applicability, FileResult, Finding, Status


def finding_to_json(finding: Finding) -> dict:
    fix = None
    if finding.fix is not None:
        fix = {
            "applicability": finding.fix.applicability.value,
            "title": finding.fix.title,
            "edits": [
                {
                    "content": e.content,
                    "location": {"row": e.line, "column": e.column},
                    "end_location": {"row": e.end_line, "column": e.end_column},
                }
                for e in finding.fix.edits
            ],
        }
    return {
        "code": finding.code,
        "rule": finding.rule,
        "message": finding.message,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "fix": fix,
    }


def write_json(results: Iterable[FileResult], out: TextIO) -> None:
    findings = [finding_to_json(f) for r in results for f in r.findings]
    json.dump(findings, out, indent=2)
    out.write("\n")


def unified_diff(result: FileResult) -> str:
    if result.original is None or result.fixed is None:
        return ""
    return "".join(
        difflib.unified_diff(
            result.original.splitlines(keepends=True),
            result.fixed.splitlines(keepends=True),
            fromfile=result.path,
            tofile=result.path,
        )
    )


@dataclass
class Summary:
    files: int = 0
    changed: int = 0
    errors: int = 0
    findings: int = 0
    safe_fixable: int = 0
    unsafe_fixable: int = 0
    fixes_applied: int = 0

    @classmethod
    def of(cls, results: Sequence[FileResult]) -> "Summary":
        s = cls(files=len(results))
        for r in results:
            s.changed += r.status is Status.CHANGED
            s.errors += r.status is Status.ERROR
            s.fixes_applied += r.fixes_applied
            for f in r.findings:
                s.findings += 1
                if f.fix is not None:
                    if f.fix.applicability is Applicability.SAFE:
                        s.safe_fixable += 1
                    else:
                        s.unsafe_fixable += 1
        return s


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n} {word}{'es' if word.endswith(('x', 's')) else 's'}"


def original_lines(result: FileResult) -> Callable[[int], int]:
    """Maps a line of `result.fixed` to the line of `result.original` it comes from: for a run that wrote nothing
    (`--diff`, `--check`), findings and notes point into the file as it is on disk. A line a fix rewrote or added
    maps to the first line of the original it replaced (or to the line it was inserted before)."""
    if result.original is None or result.fixed is None or result.original == result.fixed:
        return lambda line: line
    before, after = result.original.splitlines(), result.fixed.splitlines()
    to_original: list[int] = [0] * (len(after) + 1)
    last = max(len(before), 1)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            i = i1 + (j - j1 if tag == "equal" else min(j - j1, max(i2 - i1 - 1, 0)))
            to_original[j] = min(i, last - 1) + 1
    to_original[len(after)] = last
    return lambda line: to_original[line - 1] if 0 < line <= len(after) else min(line, last)


def at_original_lines(result: FileResult) -> FileResult:
    """`result` with its findings and notes at lines of the original text (see `original_lines`)."""
    if result.original is None or result.fixed is None or result.original == result.fixed or result.path.endswith(".ipynb"):
        return result  # (a notebook's findings are at lines of cells of the rewrite: not mapped)
    where = original_lines(result)
    findings = tuple(
        replace(f, line=where(f.line), end_line=max(where(f.end_line), where(f.line))) for f in result.findings
    )
    return replace(result, findings=findings, needs_jit=tuple((name, where(line)) for name, line in result.needs_jit))


class TextReporter:
    def __init__(self, console: Console, err_console: Console) -> None:
        self.out = console
        self.err = err_console

    def finding(self, f: Finding) -> None:
        line = Text()
        line.append(f"{f.path}:{f.line}:{f.column}: ", style="bold")
        line.append(f.code, style="bold red")
        line.append(f" {f.message}")
        if f.fix is not None:
            marker = " [*]" if f.fix.applicability is Applicability.SAFE else " [unsafe fix]"
            line.append(marker, style="cyan")
        self.out.print(line, soft_wrap=True, highlight=False)
        if f.fix is not None:
            self.out.print(
                Text(f"    fix ({f.fix.applicability.value}): {f.fix.title}", style="dim"), soft_wrap=True, highlight=False
            )

    def error(self, r: FileResult) -> None:
        self.err.print(Text(f"{r.path}: error: {r.error}", style="bold red"), soft_wrap=True, highlight=False)

    def results(self, results: Sequence[FileResult]) -> None:
        for r in results:
            if r.status is Status.ERROR:
                self.error(r)
            for f in r.findings:
                self.finding(f)

    def summary(self, results: Sequence[FileResult], *, mode: str, unsafe_enabled: bool) -> None:
        s = Summary.of(results)
        parts = []
        if mode == "migrate":
            parts.append(f"Applied {_plural(s.fixes_applied, 'fix')} in {_plural(s.changed, 'file')}")
            if s.findings:
                parts.append(f"{_plural(s.findings, 'finding')} {'remains' if s.findings == 1 else 'remain'}")
        elif mode in ("diff", "check-migrate"):
            parts.append(f"{_plural(s.changed, 'file')} would be changed ({_plural(s.fixes_applied, 'fix')})")
            if s.findings:
                parts.append(f"{_plural(s.findings, 'finding')} would remain")
        else:
            parts.append(f"Found {_plural(s.findings, 'finding')} in {_plural(s.files, 'file')}")
            if s.safe_fixable:
                parts.append(f"{s.safe_fixable} fixable with `jaxfix migrate`")
            if s.unsafe_fixable and not unsafe_enabled:
                parts.append(f"{s.unsafe_fixable} more with `--unsafe-fixes`")
        if s.errors:
            parts.append(f"{_plural(s.errors, 'file')} could not be processed")
        self.err.print(". ".join(parts) + ".", highlight=False)

    def notes(self, results: Sequence[FileResult], *, x64: bool) -> None:
        """Advice on the rewritten code as a whole (migrate), after the summary: the functions that must run under
        `jax.jit` (`jaxfix.advice`), and float32 where NumPy computed in float64 unless the project enables x64."""
        needs_jit = [(r.path, name, line) for r in results for name, line in r.needs_jit]
        if needs_jit:
            one = len(needs_jit) == 1
            self.err.print(
                f"note: {_plural(len(needs_jit), 'function')} now {'uses' if one else 'use'} `lax` loops or branches; "
                f"run {'it' if one else 'them'} under `jax.jit` (or call {'it' if one else 'them'} from a jitted "
                f"function): outside `jit`, each call traces and compiles {'its' if one else 'their'} bodies again (tens "
                "of milliseconds, and memory that is not freed, per call), and a NumPy array argument that a loop or "
                "branch body indexes with a traced value raises (`TracerArrayConversionError`: pass JAX arrays, "
                "`jnp.asarray(x)`):",
                highlight=False,
                soft_wrap=True,
            )
            for path, name, line in needs_jit[:NOTES_LISTED]:
                self.err.print(f"  {path}:{line}: {name}", highlight=False, soft_wrap=True)
            if len(needs_jit) > NOTES_LISTED:
                self.err.print(f"  ... and {len(needs_jit) - NOTES_LISTED} more (`--report FILE` lists them all)", highlight=False)
        changed = [r for r in results if r.status is Status.CHANGED]
        if changed and not x64 and not any(r.fixed and advice.X64_ENABLED.search(r.fixed) for r in changed):
            self.err.print(
                "note: NumPy computes in float64 by default, JAX in float32 unless `jax_enable_x64` is set: the "
                "rewritten code may differ from about the 7th significant digit (more in finite differences, "
                "tolerances and long sums), and its integers are int32, not int64 (sums, products and counts past "
                "2**31 wrap around). To keep NumPy's precision, call "
                "`jax.config.update(\"jax_enable_x64\", True)` at program start and set `x64 = true` under "
                "[tool.jaxfix].",
                highlight=False,
                soft_wrap=True,
            )


NOTES_LISTED = 20  # functions named by the `lax` note; a report lists all


def rules_markdown(rules: Sequence[type]) -> str:
    """The README's rule table, generated from the registry (never written by hand)."""
    lines = ["| code | name | fix | summary |", "| --- | --- | --- | --- |"]
    for rule in sorted(rules, key=lambda r: r.CODE):
        lines.append(f"| {rule.CODE} | `{rule.name()}` | {rule.FIX.value} | {rule.SUMMARY} |")
    return "\n".join(lines) + "\n"
