"""Rule settings (`[tool.jaxfix]`) and project facts for analyses: LibCST instantiates metadata providers itself, so
the engine publishes the settings of the file being processed, its module name and the run's project facts here for
the duration of its analysis."""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Iterator, Mapping, Optional

_CURRENT: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar("jaxfix_settings", default={})
_PROJECT: contextvars.ContextVar[tuple[str, Mapping[str, Any]]] = contextvars.ContextVar("jaxfix_project",
                                                                                        default=("", {}))


def current() -> Mapping[str, Any]:
    return _CURRENT.get()


def current_project() -> tuple[str, Mapping[str, Any]]:
    """(the dotted name of the module being analysed, the run's project facts); ("", {}) outside a run."""
    return _PROJECT.get()


@contextlib.contextmanager
def using(
    settings: Mapping[str, Any], module_name: str = "", project: Optional[Mapping[str, Any]] = None
) -> Iterator[None]:
    token = _CURRENT.set(dict(settings))
    facts = _PROJECT.set((module_name, project or {}))
    try:
        yield
    finally:
        _PROJECT.reset(facts)
        _CURRENT.reset(token)
