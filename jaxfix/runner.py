"""Running the engine over many files: the project index phase, then a process pool, results in input order.

Two phases, so rules that need whole-program facts (random keys threaded through callers, static arguments of
callees) get them without a second design:

1. Index: every rule that defines `summarize`/`link` summarises each file it may apply to (with `ast`, cheap), and
   links the summaries once in the parent process into project facts.
2. Rewrite: each file is processed independently (in a pool with `--jobs` > 1), reading the linked facts.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Mapping, Optional, Sequence

from jaxfix import source as sourcelib
from jaxfix.engine import may_apply, process_file
from jaxfix.rule import Rule
from jaxfix.types import FileResult, RunOptions

Progress = Callable[[FileResult], None]


def module_name_for(path: str) -> str:
    """Dotted module name, walking up through package folders (those with `__init__.py`)."""
    path = os.path.abspath(path)
    folder, file = os.path.split(path)
    parts = [] if file == "__init__.py" else [os.path.splitext(file)[0]]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        folder, name = os.path.split(folder)
        parts.insert(0, name)
    return ".".join(parts)


def build_project_facts(files: Sequence[str], rules: Sequence[type[Rule]], options: RunOptions) -> dict[str, Any]:
    indexers = [r for r in rules if r.summarize is not None and r.link is not None]
    if not indexers:
        return {}
    summaries: dict[str, dict[str, Any]] = {r.CODE: {} for r in indexers}
    for path in files:
        try:
            if os.path.getsize(path) > options.max_file_bytes:
                continue
            with open(path, "rb") as handle:
                data = handle.read()
            wanted = [r for r in indexers if may_apply(data, [r])]
            if not wanted:
                continue
            tree = ast.parse(sourcelib.decode(data).text, filename=path)
        except (OSError, SyntaxError, ValueError, sourcelib.SourceError):
            continue  # reported by the rewrite phase
        name = module_name_for(path)
        for rule in wanted:
            summaries[rule.CODE][path] = rule.summarize(path, name, tree)
    return {rule.CODE: rule.link(summaries[rule.CODE]) for rule in indexers}


_WORKER: dict[str, Any] = {}


def _init_worker(rule_codes: Sequence[str], options: RunOptions, project: Mapping[str, Any]) -> None:
    from jaxfix.registry import get_rule

    _WORKER["rules"] = tuple(get_rule(code) for code in rule_codes)
    _WORKER["options"] = options
    _WORKER["project"] = project


def _work(path: str) -> FileResult:
    return process_file(path, _WORKER["rules"], _WORKER["options"], _WORKER["project"], module_name_for(path))


def run_files(
    files: Sequence[str],
    rules: Sequence[type[Rule]],
    options: RunOptions,
    jobs: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> list[FileResult]:
    """Process `files`; results come back in the order of `files` whatever the parallelism."""
    project = build_project_facts(files, rules, options)
    jobs = jobs or os.cpu_count() or 1
    results: list[FileResult] = []
    if jobs <= 1 or len(files) < 2 * jobs:
        for path in files:
            result = process_file(path, rules, options, project, module_name_for(path))
            results.append(result)
            if progress:
                progress(result)
        return results
    # fork is cheap and keeps the registry; once jax is imported (threads), fork is unsafe, so spawn instead.
    method = "spawn" if "jax" in sys.modules else "fork"
    context = multiprocessing.get_context(method)
    codes = [rule.CODE for rule in rules]
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(codes, options, project)) as pool:
        chunk = max(1, min(32, len(files) // (jobs * 8)))
        for result in pool.map(_work, files, chunksize=chunk):
            results.append(result)
            if progress:
                progress(result)
    return results
