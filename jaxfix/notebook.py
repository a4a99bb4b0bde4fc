"""Jupyter notebooks: `jaxfix migrate notebook.ipynb` rewrites the code cells and keeps everything else (outputs,
metadata, markdown cells, execution counts).

The code cells are joined into one module, separated by marker comments, so the rules see the notebook as the
kernel does (imports in the first cell, functions in later ones); the result is split back at the markers. IPython
magics and shell escapes (`%timeit ...`, `!pip ...`) are masked as `pass` statements while the rules run and restored
afterwards. Findings name their cell as ruff does: `notebook.ipynb:cell 3:2:5: JX501 ...` (the `path` of a finding
is `notebook.ipynb:cell 3`, lines and columns count within the cell).

Notebooks are processed when named on the command line (folders are searched for `*.py` only). Reading and writing
uses `nbformat` (the `notebook` extra), which writes the notebook the way Jupyter does.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping, Optional, Sequence

from jaxfix import advice
from jaxfix.engine import EngineError, process_source
from jaxfix.prefilter import may_apply, may_apply_to_tree
from jaxfix.rule import Rule
from jaxfix.source import SourceError, atomic_write
from jaxfix.types import FileResult, Finding, RunOptions, Status

_MARKER = "# %%jaxfix-cell {}"
_MARKER_LINE = re.compile(r"^# %%jaxfix-cell (\d+)$", re.M)
_MAGIC = re.compile(r"^([ \t]*)([%!].*)$")
_MASKED = re.compile(r"^([ \t]*)pass  # jaxfix-magic-(\d+)$", re.M)


def is_notebook(path: str) -> bool:
    return path.endswith(".ipynb")


def _mask(source: str, magics: list[str]) -> str:
    lines = []
    for line in source.split("\n"):
        match = _MAGIC.match(line)
        if match:
            magics.append(match.group(2))
            line = f"{match.group(1)}pass  # jaxfix-magic-{len(magics) - 1}"
        lines.append(line)
    return "\n".join(lines)


def _unmask(source: str, magics: list[str]) -> str:
    return _MASKED.sub(lambda m: m.group(1) + magics[int(m.group(2))], source)


def join_cells(sources: Sequence[str]) -> tuple[str, list[str], list[int]]:
    """(module text, masked magics, the module line where each cell's code starts)."""
    magics: list[str] = []
    parts, starts, line = [], [], 1
    for index, source in enumerate(sources):
        body = _mask(source, magics)
        if not body.endswith("\n"):
            body += "\n"
        parts.append(_MARKER.format(index) + "\n" + body)
        starts.append(line + 1)
        line += 1 + body.count("\n")
    return "".join(parts), magics, starts


def split_cells(text: str, count: int, magics: list[str]) -> list[str]:
    """The module text split back into `count` cell sources; raises EngineError if the markers did not survive."""
    matches = list(_MARKER_LINE.finditer(text))
    if [int(m.group(1)) for m in matches] != list(range(count)):
        raise EngineError("the rewrite moved code across notebook cells; the notebook was left unchanged (please report this)")
    cells = []
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[match.end() + 1 : end]
        if i == 0 and match.start() > 0:
            body = text[: match.start()] + body  # imports added above the first cell's code
        cells.append(_unmask(body, magics))
    return cells


def _restore_newline(new: str, old: str) -> str:
    """Cells are stored without a final newline (usually); keep each cell's convention."""
    if not old.endswith("\n") and new.endswith("\n"):
        return new[:-1]
    return new


def _cell_of(line: int, starts: list[int]) -> int:
    cell = 0
    for index, start in enumerate(starts):
        if start <= line:
            cell = index
    return cell


def _in_cells(functions: tuple[tuple[str, int], ...], text: str, numbers: list[int]) -> tuple[tuple[str, int], ...]:
    """`advice.new_control_flow`'s functions of the rewritten module `text`, with the cell named and the line
    counted in that cell (imports added above the first marker belong to the first cell, as in `split_cells`)."""
    markers = [text.count("\n", 0, m.start()) + 1 for m in _MARKER_LINE.finditer(text)]
    placed = []
    for name, line in functions:
        cell = max((i for i, marker in enumerate(markers) if marker < line), default=0)
        in_cell = line - markers[cell] + (markers[0] - 1 if cell == 0 else 0) if markers else line
        placed.append((f"{name} (cell {numbers[cell]})", in_cell))
    return tuple(placed)


def _finding_in_cell(finding: Finding, path: str, starts: list[int], numbers: list[int]) -> Finding:
    cell = _cell_of(finding.line, starts)
    offset = starts[cell] - 1
    return replace(
        finding,
        path=f"{path}:cell {numbers[cell]}",
        line=finding.line - offset,
        end_line=max(finding.end_line - offset, 1),
        fix=None if finding.fix is None else replace(finding.fix, edits=()),  # edits would be relative to the join
    )


def process_notebook(
    path: str,
    data: bytes,
    rules: Sequence[type[Rule]],
    options: RunOptions,
    project: Optional[Mapping[str, Any]] = None,
    module_name: str = "",
) -> FileResult:
    try:
        import nbformat
    except ImportError:
        return FileResult(path=path, status=Status.ERROR, error="notebooks need the notebook extra: pip install 'jaxfix[notebook]'")
    if not may_apply(data, rules):
        return FileResult(path=path, status=Status.SKIPPED)
    try:
        text = data.decode("utf-8")
        notebook = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        return FileResult(path=path, status=Status.ERROR, error=f"not a readable notebook: {error}")
    except Exception as error:  # noqa: BLE001 - nbformat raises its own validation errors
        return FileResult(path=path, status=Status.ERROR, error=f"not a readable notebook: {type(error).__name__}: {error}")
    code_cells = [(n, cell) for n, cell in enumerate(notebook.cells, start=1) if cell.get("cell_type") == "code"]
    sources = [cell.source for _, cell in code_cells]
    module, magics, starts = join_cells(sources)
    try:
        if not may_apply_to_tree(path, module.encode("utf-8"), module, rules):
            return FileResult(path=path, status=Status.SKIPPED)
        outcome = process_source(path, module, rules, replace(options, want_edits=False), project, module_name)
        findings = [_finding_in_cell(f, path, starts, [n for n, _ in code_cells]) for f in outcome.findings]
        changed = outcome.fixed != module
        new_text = text
        if changed:
            new_sources = split_cells(outcome.fixed, len(sources), magics)
            for (_, cell), old, new in zip(code_cells, sources, new_sources):
                new = _restore_newline(new, old)
                if new != old:
                    cell.source = new
            new_text = nbformat.writes(notebook)
            if text.endswith("\n") and not new_text.endswith("\n"):
                new_text += "\n"
            if options.write:
                atomic_write(path, new_text.encode("utf-8"))
    except (SourceError, EngineError) as error:
        return FileResult(path=path, status=Status.ERROR, error=str(error))
    except Exception as error:  # noqa: BLE001 - isolate any failure to its file
        return FileResult(path=path, status=Status.ERROR, error=f"internal error: {type(error).__name__}: {error}")
    return FileResult(
        path=path,
        status=Status.CHANGED if changed else Status.UNCHANGED,
        findings=tuple(findings),
        fixes_applied=outcome.fixes_applied,
        original=text if changed else None,
        fixed=new_text if changed else None,
        written=changed and options.write,
        fixes_by_rule=tuple(sorted(outcome.fix_counts.items())),
        needs_jit=_in_cells(advice.new_control_flow(module, outcome.fixed), outcome.fixed, [n for n, _ in code_cells])
        if changed else (),
    )
