"""Source texts the framework tests run over: every rule's embedded examples (and their expected rewrites) and every
fixture file. Used by the tests that compare two ways of running the engine (with and without pre-checks, with
and without incremental passes) and by the traversal tests."""

from __future__ import annotations

import glob
import os
import textwrap
from typing import Any, Callable, ContextManager, Iterator, Sequence

from jaxfix.engine import process_source
from jaxfix.registry import all_rules
from jaxfix.rule import Invalid, Rule
from jaxfix.types import RunOptions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def examples() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(id, code, settings) for every embedded example of every rule, and the expected text of each rewrite."""
    for rule in all_rules():
        for i, example in enumerate([*rule.VALID, *rule.INVALID]):
            code = example if isinstance(example, str) else example.code
            settings = dict(getattr(example, "settings", {}) or {})
            yield f"{rule.CODE}-{i}", textwrap.dedent(code), settings
            if isinstance(example, Invalid) and example.expected:
                yield f"{rule.CODE}-{i}-expected", textwrap.dedent(example.expected), settings


def fixture_files() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path relative to the repository, code, {}) for every fixture file, before and after."""
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True)):
        with open(path, encoding="utf-8") as handle:
            yield os.path.relpath(path, ROOT), handle.read(), {}


def assert_same_either_way(
    name: str, code: str, rules: Sequence[type[Rule]], options: RunOptions, off: Callable[[], ContextManager[None]]
) -> None:
    """`process_source` as it is and inside `off()` (an engine shortcut switched off) give the same output, findings
    and fix counts, or raise the same kind of error."""
    try:
        fast = process_source(name, code, rules, options)
    except Exception as error:  # noqa: BLE001 - the same error is expected either way
        with off():
            try:
                process_source(name, code, rules, options)
            except type(error):
                return
        raise AssertionError(f"{name}: {type(error).__name__} only with the shortcut") from error
    with off():
        slow = process_source(name, code, rules, options)
    assert fast.fixed == slow.fixed, name
    assert (fast.findings, fast.fix_counts) == (slow.findings, slow.fix_counts), name
