"""Which fixes a pass applies, and fixes as text edits.

A pass of the engine (`jaxfix.engine.process_source`) gets every rule's reports with their findings. `choose` picks
the applicable fixes (safe ones, and unsafe ones with `--unsafe-fixes`) that do not overlap, innermost first
(smallest span), then by rule PRIORITY, ORDER and code; overlapping ones wait for the next pass. A report whose rule
says its function must not be half-migrated (`Rule.report`'s `blocks_function`) and whose fix is not applied holds
back every other fix in that function (`held_back`); such findings lose their fix (`without_held_fixes`), so
`check` never offers what `migrate` will not do. `text_edits` turns a fixed text into minimal editor edits.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
from typing import Mapping, Optional, Sequence

import libcst as cst
from libcst.metadata import CodeRange

from jaxfix import source as sourcelib
from jaxfix.rule import Report
from jaxfix.types import Applicability, Edit, Finding, RunOptions


def report_spans(report: Report, positions: Mapping[cst.CSTNode, CodeRange]) -> Optional[list[CodeRange]]:
    spans = []
    for node in report.changes:
        span = positions.get(node)
        if span is None:
            return None  # the rule pointed at a node that is not in this tree: never apply such a fix
        spans.append(span)
    return spans


def _size(span: CodeRange) -> tuple[int, int]:
    return (span.end.line - span.start.line, span.end.column - span.start.column)


def overlap(a: CodeRange, b: CodeRange) -> bool:
    return (a.start.line, a.start.column) < (b.end.line, b.end.column) and (b.start.line, b.start.column) < (
        a.end.line,
        a.end.column,
    )


_BREAK = re.compile(r"\r\n|\r|\n")


def _offset_position(chunk: str, offset: int, line: int) -> tuple[int, int]:
    """(line, column), 1-based, of `offset` in `chunk`, which starts at column 1 of `line`."""
    breaks = list(_BREAK.finditer(chunk, 0, offset))
    if not breaks:
        return line, offset + 1
    return line + len(breaks), offset - breaks[-1].end() + 1


def text_edits(old: str, new: str) -> tuple[Edit, ...]:
    """Minimal edits that turn `old` into `new`, with 1-based lines and columns (code points): changed lines are
    found by a line diff, then each hunk is trimmed to the characters that differ (`np.sum` -> `jnp.sum` is one
    insertion of `j`), so an editor keeps the cursor and the undo step small."""
    old_lines = sourcelib.lines(old)
    new_lines = sourcelib.lines(new)
    edits = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a, b = "".join(old_lines[i1:i2]), "".join(new_lines[j1:j2])
        prefix = len(os.path.commonprefix([a, b]))
        if 0 < prefix < len(a) and a[prefix - 1] == "\r" and a[prefix] == "\n":
            prefix -= 1  # never split a "\r\n" line break: a position between them does not exist
        suffix = len(os.path.commonprefix([a[prefix:][::-1], b[prefix:][::-1]]))
        cut = len(a) - suffix
        if suffix and cut > prefix and a[cut - 1] == "\r" and a[cut] == "\n":
            suffix -= 1
        line, column = _offset_position(a, prefix, i1 + 1)
        end_line, end_column = _offset_position(a, len(a) - suffix, i1 + 1)
        edits.append(Edit(b[prefix : len(b) - suffix], line, column, end_line, end_column))
    return tuple(edits)


def covers(finding: Finding, position: tuple[int, Optional[int]]) -> bool:
    line, column = position
    if not finding.line <= line <= finding.end_line:
        return False
    if column is None:
        return True
    after_start = line > finding.line or column >= finding.column
    before_end = line < finding.end_line or column <= finding.end_column
    return after_start and before_end


def applicable(report: Report, options: RunOptions) -> bool:
    return bool(report.changes) and (report.applicability is Applicability.SAFE or options.unsafe_fixes)


def held_back(
    reports: Sequence[tuple[Report, Finding]], positions: Mapping[cst.CSTNode, CodeRange], options: RunOptions
) -> set[int]:
    """The ids of the applicable reports whose fix is held back: it lies in a function with a finding that must be
    fixed first and is not applied (`Rule.report`'s `blocks_function`, `scope`); never an `independent` one."""
    blocked = [positions[r.scope] for r, _ in reports if r.scope is not None and r.scope in positions and not applicable(r, options)]
    if not blocked:
        return set()
    final = [positions[r.scope] for r, _ in reports if (r.final or r.rule.KEEPS_ARRAYS_NUMPY) and r.scope in positions
             and not applicable(r, options)]
    held = set()
    for report, _ in reports:
        if applicable(report, options) and not report.independent and (report.scope is None or final):
            spans = report_spans(report, positions)
            if spans is not None and any(overlap(s, b) for s in spans for b in (blocked if report.scope is None else final)):
                held.add(id(report))
    return held


HELD_NOTE = "; its fix is held back until the function's other findings are resolved"


def without_held_fixes(reports: list[tuple[Report, Finding]], held: set[int]) -> list[tuple[Report, Finding]]:
    """The findings of held-back reports lose their fix (their message ends with `HELD_NOTE`): `check` must not
    count as fixable what `migrate` holds back."""
    return [(r, dataclasses.replace(f, fix=None, message=f.message + HELD_NOTE) if id(r) in held and f.fix is not None
             else f) for r, f in reports]


SILENCED_NOTE = "; not fixed: it is one fix with the finding suppressed at line {line}"


def without_silenced_fixes(
    reports: list[tuple[Report, Finding]], silenced: Mapping[tuple[str, cst.CSTNode], int]
) -> list[tuple[Report, Finding]]:
    """A fix that changes a node the fix of a suppressed finding of the same rule changes (`silenced`: (rule code,
    node) -> the suppressed line) is not applied either: the two are one fix (JX401 threads keys through a whole
    module at once), and applying it anyway would change the line the comment asked to leave alone, or leave a
    callee and its suppressed call disagreeing (`noise(subkey, 3)` against `noise(3)`). Such findings are reported
    without a fix, naming the suppressed line. Another rule's fix of the same statement is its own."""
    out = []
    for report, finding in reports:
        code = report.rule.CODE
        line = next((silenced[(code, node)] for node in report.changes if (code, node) in silenced), None)
        if line is None:
            out.append((report, finding))
            continue
        note = SILENCED_NOTE.format(line=line)
        out.append((dataclasses.replace(report, changes={}), dataclasses.replace(finding, fix=None, message=finding.message + note)))
    return out


def choose(
    reports: Sequence[tuple[Report, Finding]], positions: Mapping[cst.CSTNode, CodeRange], options: RunOptions,
    held: Optional[set[int]] = None,
) -> list[Report]:
    held = held_back(reports, positions, options) if held is None else held
    candidates = []
    for report, finding in reports:
        if not applicable(report, options) or id(report) in held:
            continue  # held back: the function has a finding that must be fixed first (see `Rule.report`)
        if options.only_position is not None and not covers(finding, options.only_position):
            continue
        spans = report_spans(report, positions)
        if spans is None:
            continue
        biggest = max(_size(s) for s in spans)
        priority = -report.rule.PRIORITY
        candidates.append((priority, biggest, report.rule.ORDER, report.rule.CODE, finding.line, finding.column, report, spans))
    candidates.sort(key=lambda c: c[:6])
    chosen: list[Report] = []
    taken: list[CodeRange] = []
    for *_, report, spans in candidates:
        if any(overlap(s, t) for s in spans for t in taken):
            continue
        chosen.append(report)
        taken.extend(spans)
    return chosen
