"""The programmatic interface; the CLI and the LSP server are thin layers over it.

>>> from jaxfix.api import migrate_source
>>> print(migrate_source("import numpy as np\\ndef f(x):\\n    return np.sum(x)\\n"))
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Mapping, Optional, Sequence

from jaxfix.config import Config, load_config
from jaxfix.engine import migrate_source, process_bytes
from jaxfix.files import discover
from jaxfix.registry import select_rules
from jaxfix.rule import Rule
from jaxfix.runner import Progress, build_project_facts, module_name_for, run_files
from jaxfix.types import FileResult, RunOptions

__all__ = ["Config", "load_config", "options_for", "rules_for", "run_paths", "run_stdin", "migrate_source", "files_for"]


def rules_for(config: Config, select: Sequence[str] = (), ignore: Sequence[str] = ()) -> tuple[type[Rule], ...]:
    """The CLI's --select replaces the config's select; --ignore adds to the config's ignore."""
    return select_rules(tuple(select) or config.select, (*config.ignore, *ignore))


def options_for(config: Config, **overrides: object) -> RunOptions:
    base = RunOptions(max_file_bytes=config.max_file_bytes, settings=config.settings, unsafe_fixes=config.unsafe_fixes)
    return replace(base, **overrides)  # type: ignore[arg-type]


def files_for(paths: Sequence[str], config: Config, exclude: Sequence[str] = ()) -> list[str]:
    return list(
        discover(paths, exclude=(*config.exclude, *exclude), root=config.root, respect_gitignore=config.respect_gitignore)
    )


def run_paths(
    paths: Sequence[str],
    rules: Sequence[type[Rule]],
    options: RunOptions,
    config: Config,
    *,
    exclude: Sequence[str] = (),
    jobs: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> list[FileResult]:
    files = files_for(paths, config, exclude)
    return run_files(files, rules, options, jobs=jobs, progress=progress)


def run_stdin(
    data: bytes,
    rules: Sequence[type[Rule]],
    options: RunOptions,
    filename: str = "-",
    project: Optional[Mapping[str, object]] = None,
) -> FileResult:
    """Process source from stdin. Project facts come from the file's folder when a real filename is given."""
    if project is None and filename != "-" and os.path.exists(filename):
        project = build_project_facts([filename], rules, options)
    return process_bytes(filename, data, rules, replace(options, write=False), project, module_name_for(filename))
