"""Rule settings (`[tool.jaxfix]`) for analyses: LibCST instantiates metadata providers itself, so the engine
publishes the settings of the file being processed here for the duration of its analysis."""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Iterator, Mapping

_CURRENT: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar("jaxfix_settings", default={})


def current() -> Mapping[str, Any]:
    return _CURRENT.get()


@contextlib.contextmanager
def using(settings: Mapping[str, Any]) -> Iterator[None]:
    token = _CURRENT.set(dict(settings))
    try:
        yield
    finally:
        _CURRENT.reset(token)
