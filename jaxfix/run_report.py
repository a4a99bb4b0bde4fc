"""Reports for batch runs: `--statistics` (counts per rule, like ruff) and `--report FILE` (JSON or Markdown).

The JSON report is for tools (a conversion dashboard, CI artefacts); the Markdown report is for the person running a
large conversion: what changed, what remains per rule, which files failed and why, and where the time went.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from jaxfix import __version__
from jaxfix.reporting import finding_to_json
from jaxfix.types import Applicability, FileResult, Status


@dataclass
class RuleCount:
    code: str
    name: str
    findings: int = 0  # remaining after the run (for check: all findings)
    safe_fixable: int = 0
    unsafe_fixable: int = 0
    fixes_applied: int = 0


@dataclass
class RunInfo:
    command: str  # "check", "migrate", "migrate --diff", ...
    rules: Sequence[str] = ()
    seconds: float = 0.0  # wall clock of the whole run
    options: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # rule code -> rule name


def rule_counts(results: Sequence[FileResult], names: dict[str, str] | None = None) -> list[RuleCount]:
    """Per-rule counts, most frequent first (ties by code)."""
    counts: dict[str, RuleCount] = {}

    def get(code: str, name: str = "") -> RuleCount:
        if code not in counts:
            counts[code] = RuleCount(code, name or (names or {}).get(code, ""))
        elif name and not counts[code].name:
            counts[code].name = name
        return counts[code]

    for r in results:
        for code, n in r.fixes_by_rule:
            get(code).fixes_applied += n
        for f in r.findings:
            c = get(f.code, f.rule)
            c.findings += 1
            if f.fix is not None:
                if f.fix.applicability is Applicability.SAFE:
                    c.safe_fixable += 1
                else:
                    c.unsafe_fixable += 1
    return sorted(counts.values(), key=lambda c: (-(c.findings + c.fixes_applied), c.code))


def statistics_text(results: Sequence[FileResult], names: dict[str, str] | None = None, fixing: bool = False) -> str:
    """ruff-style `--statistics`: one line per rule. `[*]` marks rules with safe fixes available."""
    rows = rule_counts(results, names)
    if not rows:
        return ""
    lines = []
    width = max(len(str(max(c.findings, c.fixes_applied))) for c in rows)
    for c in rows:
        marker = "[*]" if c.safe_fixable else "[-]" if c.unsafe_fixable else "   "
        fixed = f"  ({c.fixes_applied} fixed)" if fixing and c.fixes_applied else ""
        lines.append(f"{c.findings:>{width}}\t{c.code}\t{marker} {c.name}{fixed}")
    return "\n".join(lines) + "\n"


def _file_entry(r: FileResult) -> dict[str, Any]:
    return {
        "path": r.path,
        "status": r.status.value,
        "fixes_applied": r.fixes_applied,
        "fixes_by_rule": dict(r.fixes_by_rule),
        "findings": len(r.findings),
        "findings_by_rule": dict(Counter(f.code for f in r.findings)),
        "error": r.error,
        "seconds": round(r.seconds, 4),
        "cached": r.cached,
        "written": r.written,
        "needs_jit": [{"function": name, "line": line} for name, line in r.needs_jit],
    }


def report_data(results: Sequence[FileResult], info: RunInfo) -> dict[str, Any]:
    status = Counter(r.status.value for r in results)
    return {
        "jaxfix_version": __version__,
        "command": info.command,
        "rules": list(info.rules),
        "options": info.options,
        "totals": {
            "files": len(results),
            **{s.value: status.get(s.value, 0) for s in Status},
            "fixes_applied": sum(r.fixes_applied for r in results),
            "findings_remaining": sum(len(r.findings) for r in results),
            "cached": sum(r.cached for r in results),
            "wall_seconds": round(info.seconds, 3),
            "file_seconds": round(sum(r.seconds for r in results), 3),
        },
        "by_rule": [c.__dict__ for c in rule_counts(results, info.names)],
        "errors": [{"path": r.path, "reason": r.error} for r in results if r.status is Status.ERROR],
        "files": [_file_entry(r) for r in results],
        "findings": [finding_to_json(f) for r in results for f in r.findings],
    }


def _md_cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def report_markdown(results: Sequence[FileResult], info: RunInfo) -> str:
    data = report_data(results, info)
    t = data["totals"]
    out = [
        f"# jaxfix report: `{info.command}`",
        "",
        f"jaxfix {data['jaxfix_version']}; {t['files']} files in {t['wall_seconds']:.1f} s "
        f"({t['cached']} from the cache); rules: {', '.join(data['rules']) or 'none'}.",
        "",
        "| files | changed | unchanged | skipped | errors | fixes applied | findings remaining |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {t['files']} | {t['changed']} | {t['unchanged']} | {t['skipped']} | {t['error']} | {t['fixes_applied']} "
        f"| {t['findings_remaining']} |",
        "",
        "## By rule",
        "",
    ]
    if data["by_rule"]:
        out += ["| code | rule | fixes applied | remaining | safe fix | unsafe fix |", "| --- | --- | ---: | ---: | ---: | ---: |"]
        for c in data["by_rule"]:
            out.append(
                f"| {c['code']} | `{c['name']}` | {c['fixes_applied']} | {c['findings']} | {c['safe_fixable']} "
                f"| {c['unsafe_fixable']} |"
            )
    else:
        out.append("Nothing to report.")
    out += ["", "## Errors", ""]
    if data["errors"]:
        out += [f"- `{e['path']}`: {_md_cell(e['reason'])}" for e in data["errors"]]
    else:
        out.append("None.")
    remaining = [f for f in data["files"] if f["findings"]]
    out += ["", "## Files with findings remaining", ""]
    if remaining:
        out += ["| file | findings | by rule |", "| --- | ---: | --- |"]
        for f in sorted(remaining, key=lambda f: (-f["findings"], f["path"])):
            by = ", ".join(f"{code} {n}" for code, n in sorted(f["findings_by_rule"].items()))
            out.append(f"| `{_md_cell(f['path'])}` | {f['findings']} | {by} |")
    else:
        out.append("None.")
    needs_jit = [(f["path"], entry) for f in data["files"] for entry in f["needs_jit"]]
    if needs_jit:
        out += [
            "",
            "## Functions to run under `jax.jit`",
            "",
            "The rewrite gave these functions `lax` loops or branches: outside `jax.jit`, every call traces and compiles "
            "them again (tens of milliseconds, and memory that is not freed, per call), and a NumPy array argument that a "
            "loop or branch body indexes with a traced value raises (`TracerArrayConversionError`): pass JAX arrays.",
            "",
        ]
        out += [f"- `{_md_cell(path)}:{entry['line']}` `{_md_cell(entry['function'])}`" for path, entry in needs_jit]
    slow = sorted((f for f in data["files"] if f["seconds"] > 0), key=lambda f: -f["seconds"])[:10]
    if slow:
        out += ["", "## Slowest files", "", "| file | seconds | status |", "| --- | ---: | --- |"]
        out += [f"| `{_md_cell(f['path'])}` | {f['seconds']:.3f} | {f['status']} |" for f in slow]
    return "\n".join(out) + "\n"


def write_report(path: str, results: Sequence[FileResult], info: RunInfo) -> None:
    """`.md` / `.markdown` -> Markdown, anything else -> JSON."""
    markdown = os.path.splitext(path)[1].lower() in (".md", ".markdown")
    text = report_markdown(results, info) if markdown else json.dumps(report_data(results, info), indent=2) + "\n"
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
