"""What a rule sees of the file being processed, rebuilt for every pass."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

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
    text: str = ""  # the source `module` was parsed from ("" when not given: `module.code`)
    ast_tree: Optional[ast.Module] = None  # the `ast` tree of that source, when the engine has one already

    @property
    def source(self) -> str:
        """The module's source text (what `module.code` returns, without generating it again)."""
        if not self.text:
            self.text = self.module.code
        return self.text

    @property
    def tree(self) -> ast.Module:
        """The module's `ast` tree, parsed once per pass (rules that summarise a module with `ast` share it). Read
        only: rules must not change it."""
        if self.ast_tree is None:
            self.ast_tree = ast.parse(self.source)
        return self.ast_tree

    def setting(self, name: str, default: Any = None) -> Any:
        """A value from `[tool.jaxfix]` (keys in kebab-case, e.g. "static-args")."""
        return self.options.setting(name, default)

    def project_facts(self, code: str) -> Any:
        return self.project.get(code)
