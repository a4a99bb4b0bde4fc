"""An on/off switch for an engine shortcut, so tests can run the engine both ways and compare."""

from __future__ import annotations

import contextlib
from typing import Iterator


class Switch:
    """On unless inside `off()` (nestable)."""

    def __init__(self) -> None:
        self._states = [True]

    @contextlib.contextmanager
    def off(self) -> Iterator[None]:
        self._states.append(False)
        try:
            yield
        finally:
            self._states.pop()

    def on(self) -> bool:
        return self._states[-1]
