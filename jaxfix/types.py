"""Data types shared by the engine, the CLI, the LSP server and the tests.

Everything here is a frozen dataclass (or an enum), so results can cross process boundaries and be compared
in tests.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional


class Applicability(str, enum.Enum):
    """How safe a fix is. `migrate` applies SAFE fixes; `--unsafe-fixes` opts in to UNSAFE ones."""

    SAFE = "safe"
    UNSAFE = "unsafe"


class FixAvailability(str, enum.Enum):
    """What a rule can offer, for `jaxfix rules` and the README table."""

    ALWAYS = "always"  # every finding carries a safe fix
    SOMETIMES = "sometimes"  # a safe fix where provably equivalent, otherwise unsafe or none
    UNSAFE = "unsafe"  # fixes exist but change behaviour in some cases
    NONE = "none"  # diagnostic only


@dataclass(frozen=True)
class Edit:
    """Replace the text between (line, column) and (end_line, end_column) with `content`.

    Lines are 1-based, columns are 1-based character offsets (as in ruff's JSON output).
    """

    content: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    title: str
    edits: tuple[Edit, ...] = ()


@dataclass(frozen=True)
class Finding:
    code: str
    rule: str
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    fix: Optional[Fix] = None

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)


class Status(str, enum.Enum):
    UNCHANGED = "unchanged"
    CHANGED = "changed"  # a fix was applied (or would be, with --diff/--check)
    SKIPPED = "skipped"  # the pre-check showed that no rule can apply
    ERROR = "error"  # could not be processed; left byte-for-byte unchanged


@dataclass(frozen=True)
class FileResult:
    path: str
    status: Status
    findings: tuple[Finding, ...] = ()
    fixes_applied: int = 0
    original: Optional[str] = None  # decoded source, only kept when the result is changed (for --diff)
    fixed: Optional[str] = None
    error: Optional[str] = None
    # Set when the file was written back (migrate without --diff/--check).
    written: bool = False
    fixes_by_rule: tuple[tuple[str, int], ...] = ()  # (rule code, fixes applied), for reports and --statistics
    # functions the rewrite gave `lax` control flow (qualified name, line): to be run under `jax.jit` (jaxfix.advice)
    needs_jit: tuple[tuple[str, int], ...] = ()
    # other files the result was computed from: (path, digest of its bytes, reader) (`jaxfix.dependencies.Depends`);
    # the cache reuses the result only while they are unchanged
    depends: tuple[tuple[str, str, str], ...] = field(default=(), compare=False)
    # Bookkeeping for batch reports; not part of the result's value.
    seconds: float = field(default=0.0, compare=False)
    cached: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class RunOptions:
    """What the engine is asked to do; frozen so it can be sent to worker processes."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fix: bool = False  # apply fixes (migrate / fix)
    unsafe_fixes: bool = False
    write: bool = False  # write fixed files back (False for --diff / --check)
    want_edits: bool = False  # compute Fix.edits for each finding (JSON output, IDE)
    only_position: Optional[tuple[int, Optional[int]]] = None  # `fix --line L [--column C]`
    max_passes: int = 32  # deep `elif` chains of nested `lax.cond` take one pass a level (test_deep_nesting_converges_in_one_run)
    max_file_bytes: int = 10 * 1024 * 1024
    settings: tuple[tuple[str, object], ...] = field(default_factory=tuple)  # rule settings from config

    def setting(self, name: str, default: object = None) -> object:
        for key, value in self.settings:
            if key == name:
                return value
        return default
