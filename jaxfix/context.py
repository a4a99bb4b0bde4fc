"""What a rule sees of the file being processed, rebuilt for every pass."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import libcst as cst

from jaxfix.imports import ModuleImports
from jaxfix.types import RunOptions


@dataclass
class RuleContext:
    path: str
    module: cst.Module
    imports: ModuleImports
    options: RunOptions
    project: Mapping[str, Any] = field(default_factory=dict)  # rule code -> linked project facts
    module_name: str = ""

    def setting(self, name: str, default: Any = None) -> Any:
        """A value from `[tool.jaxfix]` (keys in kebab-case, e.g. "static-args")."""
        return self.options.setting(name, default)

    def project_facts(self, code: str) -> Any:
        return self.project.get(code)
