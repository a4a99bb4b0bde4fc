"""Running the engine over many files: the project index phase, then a process pool, results in input order.

Two phases, so rules that need whole-program facts (random keys threaded through callers, static arguments of
callees) get them without a second design:

1. Index: every rule that defines `summarize`/`link` summarises each file it may apply to (with `ast`, cheap,
   or with a pattern search over the file's bytes when the rule sets `INDEX_READS_BYTES`: JX501's attributes written
   in place), and links the summaries once in the parent process into project facts; so does each index several
   rules share (`Rule.INDEXES`: what other modules pass a module's functions), once per run.
2. Rewrite: each file is processed independently (in a pool with `--jobs` > 1), reading the linked facts. Files the
   byte pre-check rules out, and files with a cached result (`jaxfix.cache`), are settled in the parent first.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import multiprocessing
import os
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence

from jaxfix import dependencies
from jaxfix.analysis import private_names
from jaxfix import source as sourcelib
from jaxfix.cache import ResultCache, cache_key, run_fingerprint
from jaxfix.engine import process_bytes, process_file, write_result
from jaxfix.fixes import HELD_NOTE
from jaxfix.imports import IMPORTS_KEY, imported_names, link_imported_names
from jaxfix.notebook import is_notebook, process_notebook
from jaxfix.prefilter import may_apply
from jaxfix.rule import Rule
from jaxfix.types import FileResult, RunOptions, Status

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
    """Summarise the files each indexing rule may care about, and link the summaries into project facts.

    A file is summarised when it contains one of the rule's trigger bytes. The triggers grow with the facts
    (`Rule.triggers(project)`: a rule threading a change through callers adds the names of the functions it
    changes), so the summaries are linked again until no new file matches: callers of callers are found without
    parsing the files that mention none of them.
    """
    return _index(files, rules, options)[0]


Summaries = dict[str, dict[str, Any]]  # {rule code: {path: summary}}


def _index(
    files: Sequence[str], rules: Sequence[type[Rule]], options: RunOptions
) -> tuple[dict[str, Any], Summaries, dict[str, bytes], list[str]]:
    """`build_project_facts`, with the summaries it linked, the bytes of the files it read, and the files it left
    unread for being over max-file-bytes."""
    indexers = [r for r in rules if r.summarize is not None and r.link is not None]
    shared = {index.key: index for rule in rules for index in rule.INDEXES}
    if not indexers and not shared and not options.fix and len(files) < 2:
        return {}, {}, {}, []  # (with several files, `private_names` reads them)
    contents: dict[str, bytes] = {}
    oversize: list[str] = []
    for path in files:
        try:
            if os.path.getsize(path) <= options.max_file_bytes:
                with open(path, "rb") as handle:
                    contents[path] = handle.read()
            else:
                oversize.append(path)  # not rewritten (the rewrite phase reports it); searched when settling
        except OSError:
            continue  # reported by the rewrite phase
    trees: dict[str, Optional[ast.Module]] = {}

    def tree_of(path: str) -> Optional[ast.Module]:
        if path not in trees:
            try:
                trees[path] = ast.parse(sourcelib.decode(contents[path]).text, filename=path)
            except (SyntaxError, ValueError, sourcelib.SourceError):
                trees[path] = None  # reported by the rewrite phase
        return trees[path]

    project: dict[str, Any] = {}
    linked: Summaries = {}
    for rule in indexers:
        summaries: dict[str, Any] = {}
        linked[rule.CODE] = summaries
        pending = dict(contents)
        triggers = rule.INDEX_TRIGGERS or rule.TRIGGERS
        while True:
            matched = [path for path, data in pending.items() if any(t in data for t in triggers)]
            if not matched:
                break
            for path in matched:
                del pending[path]
                if rule.INDEX_READS_BYTES:  # a summary read off the bytes (a pattern search): no parse at all
                    summaries[path] = rule.summarize(path, module_name_for(path), contents[path])
                    continue
                tree = tree_of(path)
                if tree is not None:
                    summaries[path] = rule.summarize(path, module_name_for(path), tree)
            project[rule.CODE] = rule.link(summaries)
            triggers = rule.triggers({rule.CODE: project[rule.CODE]})
        project.setdefault(rule.CODE, rule.link(summaries))
    if shared:
        modules = {path: module_name_for(path) for path in contents}
        known = frozenset(modules.values())
        for key, index in sorted(shared.items()):
            found: dict[str, Any] = {}
            for path, data in contents.items():
                if index.wanted(data, modules[path], os.path.basename(path) == "__init__.py", known):
                    tree = tree_of(path)
                    if tree is None:
                        continue
                    try:
                        found[path] = index.summarize(path, modules[path], tree, known)
                    except RecursionError:  # an expression too deep to summarise (a 300-term sum): the file's own
                        continue  # processing reports it; the run goes on
            project[key] = index.link(found)
    if options.fix:
        project[IMPORTS_KEY] = _imports_between(contents)
    private = private_names.link(contents, module_name_for)
    if private:
        project[private_names.KEY] = private
    return project, linked, contents, oversize


def settle_project_facts(
    rules: Sequence[type[Rule]], options: RunOptions, project: dict[str, Any], summaries: Summaries,
    contents: Mapping[str, bytes], oversize: Sequence[str] = (),
) -> tuple[dict[str, Any], dict[str, FileResult]]:
    """The project facts once the fixes they count on across modules are known to be applied, and the results of
    the trial runs (valid for those final facts) by path.

    A rule's facts may count on its fix in several files (`Rule.cross_module`: a callee gains a key parameter that
    callers in other modules pass). Each such file is run once without writing; when the rule's fix there is not
    applied after all (held back by the file's other findings, unsafe without `--unsafe-fixes`, an error), the
    names the other side counts on are pinned (`link(summaries, pinned=...)`) and the trial runs again, until no
    file adds a pin: each side then keeps its signatures and calls, and the rest of the run never sees the other.
    The files over max-file-bytes (`oversize`) are never rewritten: a name they call is pinned."""
    settling = [r for r in rules if r.cross_module is not None and r.CODE in summaries and r.CODE in project]
    trial_options = _trial_options(options)
    pins: dict[str, dict[str, str]] = {}
    trials: dict[str, FileResult] = {}
    searched = {**contents, **_read_all(oversize)} if settling and oversize else contents
    for _ in range(len(contents) + 1):  # each round pins at least one more name, or ends
        scope: dict[str, list[tuple[type[Rule], dict[str, str]]]] = {}
        for rule in settling:
            for path, names in rule.cross_module(project[rule.CODE], summaries[rule.CODE], searched).items():  # type: ignore[misc]
                scope.setdefault(path, []).append((rule, names))
        # (a notebook is not tried, nor a file over max-file-bytes: their names are pinned)
        trials = {path: process_bytes(path, contents[path], rules, trial_options, project, module_name_for(path))
                  for path in sorted(scope) if path in contents and not is_notebook(path)}
        added = False
        for path in sorted(scope):
            for rule, names in scope[path]:
                if path in trials and _applied(rule.CODE, trials[path]):
                    continue
                for name, why in names.items():
                    if name not in pins.setdefault(rule.CODE, {}):
                        pins[rule.CODE][name], added = why, True
        if not added:
            break
        project = dict(project)
        for rule in settling:
            if rule.CODE in pins:
                project[rule.CODE] = rule.link(summaries[rule.CODE], pinned=pins[rule.CODE])  # type: ignore[misc]
    return project, trials


def _read_all(paths: Sequence[str]) -> dict[str, bytes]:
    out = {}
    for path in paths:
        try:
            with open(path, "rb") as handle:
                out[path] = handle.read()
        except OSError:
            pass
    return out


def _trial_options(options: RunOptions) -> RunOptions:
    """What a trial run is asked: to fix as `migrate` would, writing nothing."""
    return replace(options, fix=True, write=False, want_edits=False, only_position=None)


def _applied(code: str, result: FileResult) -> bool:
    """Whether the trial `result` applied rule `code`'s fixes, and left none unapplied (a finding that still offers
    one or whose fix was held back). Not when the file failed or was left as it is (`# jaxfix: skip-file`, a NumPy
    backend module, a fix suppressed): the plan counted on it changing."""
    if code not in dict(result.fixes_by_rule):
        return False
    return not any(f.code == code and (f.fix is not None or f.message.endswith(HELD_NOTE)) for f in result.findings)


def _imports_between(contents: Mapping[str, bytes]) -> dict[str, list[str]]:
    """{module of the run: NumPy/`math` names other files of the run import from it} (`jaxfix.imports.imported_names`):
    a rewrite must not drop such an import from the module, though its own code no longer reads it."""
    modules = {path: module_name_for(path) for path in contents}
    known = set(modules.values())
    summaries = []
    for path, data in contents.items():
        if b"import" in data:
            found = imported_names(modules[path], os.path.basename(path) == "__init__.py", data)
            summaries.append({source: names for source, names in found.items() if source in known})
    return link_imported_names(summaries)


_WORKER: dict[str, Any] = {}


def _init_worker(
    rule_codes: Sequence[str], options: RunOptions, project: Mapping[str, Any], fingerprint: Optional[str] = None
) -> None:
    from jaxfix.registry import get_rule

    gc.set_threshold(100_000, *gc.get_threshold()[1:])  # see _fewer_collections (a worker only runs files)
    _WORKER["rules"] = tuple(get_rule(code) for code in rule_codes)
    _WORKER["options"] = options
    _WORKER["project"] = project
    _WORKER["fingerprint"] = fingerprint


def _read(path: str, options: RunOptions) -> Optional[bytes]:
    """The file's bytes, or None when it cannot be read or is too big (process_file then reports why)."""
    try:
        if os.path.getsize(path) > options.max_file_bytes:
            return None
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _process(
    path: str,
    rules: Sequence[type[Rule]],
    options: RunOptions,
    project: Mapping[str, Any],
    fingerprint: Optional[str],
) -> tuple[FileResult, Optional[str]]:
    """One file, timed; with a cache fingerprint, also the cache key of the very bytes that were processed."""
    start = time.perf_counter()
    module_name = module_name_for(path)
    data = _read(path, options)
    if data is None:
        result, key = process_file(path, rules, options, project, module_name), None
    else:
        process = process_notebook if is_notebook(path) else process_bytes
        with dependencies.recording() as read:  # other files the result is computed from (for the cache)
            result = process(path, data, rules, options, project, module_name)
        if read:
            result = replace(result, depends=dependencies.digests(read))
        key = cache_key(fingerprint, path, module_name, data) if fingerprint else None
    return replace(result, seconds=time.perf_counter() - start), key


def _work(path: str) -> tuple[FileResult, Optional[str]]:
    return _process(path, _WORKER["rules"], _WORKER["options"], _WORKER["project"], _WORKER["fingerprint"])


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run with the cyclic garbage collector's first threshold raised: a pass allocates hundreds of thousands of
    short-lived tree nodes, freed by reference counting, and the default threshold (700) makes the collector scan
    the live trees over and over (about a fifth of the run). Cycles are still collected, less often."""
    old = gc.get_threshold()
    gc.set_threshold(100_000, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def run_files(
    files: Sequence[str],
    rules: Sequence[type[Rule]],
    options: RunOptions,
    jobs: Optional[int] = None,
    progress: Optional[Progress] = None,
    cache_dir: Optional[str] = None,
) -> list[FileResult]:
    """Process `files`; results come back in the order of `files` whatever the parallelism.

    In the parent, files the byte pre-check rules out are settled at once, and with `cache_dir` so are files whose
    result is cached (see `jaxfix.cache`); only the rest go to the pool.
    """
    trial_options, trials = _trial_options(options), {}
    try:
        project, summaries, contents, oversize = _index(files, rules, options)
        if options.only_position is None:  # (a quick fix at a position applies what it is asked, nothing settles)
            project, trials = settle_project_facts(rules, options, project, summaries, contents, oversize)
    except Exception as error:  # noqa: BLE001 - a crash of the run's index is reported for every file, none changed
        return _unindexed(files, error, progress)
    if replace(options, write=False) != trial_options:
        trials = {}  # run to see what `migrate` would do; `check`, edits for JSON, ... report afresh
    cache = ResultCache(cache_dir, run_fingerprint(rules, options, project)) if cache_dir else None
    results: list[Optional[FileResult]] = [None] * len(files)
    # With `write`, every file is processed as it was when the run began, and the changed ones are written at the
    # end, in the parent: analyses that read another module of the run from disk (a helper's writes into its
    # parameter) then see the same text whatever the order of the files and the number of workers, so `migrate`
    # does what `migrate --diff` shows. (`originals`: the bytes each changed file was processed from.)
    deferred = options.write
    work_options = replace(options, write=False) if deferred else options
    originals: dict[int, bytes] = {}

    def settle(index: int, result: FileResult) -> None:
        results[index] = result
        if progress:
            progress(result)

    todo: list[int] = []
    for index, path in enumerate(files):
        data = _read(path, options)
        if data is not None and not may_apply(data, rules, project):
            settle(index, FileResult(path=path, status=Status.SKIPPED))
            continue
        trial = trials.get(path)
        if trial is not None and data == contents.get(path):  # run already, with the final facts
            originals[index] = data
            settle(index, trial)
            continue
        if cache is not None and data is not None:
            hit = cache.get(cache_key(cache.fingerprint, path, module_name_for(path), data), options)
            if hit is not None:
                settle(index, hit)
                continue
        todo.append(index)
        if deferred and data is not None:
            originals[index] = data

    def finish(index: int, outcome: tuple[FileResult, Optional[str]]) -> None:
        result, key = outcome
        if cache is not None and key is not None:
            cache.put(key, result)
        settle(index, result)

    jobs = jobs or os.cpu_count() or 1
    fingerprint = cache.fingerprint if cache is not None else None
    if jobs <= 1 or len(todo) < 2 * jobs:
        with _fewer_collections():
            for index in todo:
                finish(index, _process(files[index], rules, work_options, project, fingerprint))
        return _finished(files, results, rules, work_options, project, originals if deferred else None)  # type: ignore[arg-type]
    # fork is cheap and keeps the registry; once jax is imported (threads), fork is unsafe, so spawn instead.
    method = "spawn" if "jax" in sys.modules else "fork"
    context = multiprocessing.get_context(method)
    codes = [rule.CODE for rule in rules]
    initargs = (codes, work_options, project, fingerprint)
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=initargs) as pool:
        chunk = max(1, min(32, len(todo) // (jobs * 8)))
        for index, outcome in zip(todo, pool.map(_work, [files[i] for i in todo], chunksize=chunk)):
            finish(index, outcome)
    return _finished(files, results, rules, work_options, project, originals if deferred else None)  # type: ignore[arg-type]


def _unindexed(files: Sequence[str], error: Exception, progress: Optional[Progress]) -> list[FileResult]:
    """Every file of the run as an error, left unchanged, when indexing the run (`_index`, `settle_project_facts`)
    raised: the facts the rewrites of every file rest on are unknown, so no file is rewritten without them."""
    frame = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ is not None else None
    where = f" at {os.path.basename(frame.filename)}:{frame.lineno}" if frame is not None else ""
    message = (f"internal error while indexing the run's files ({type(error).__name__}: {error}{where}); "
               "no file was changed (please report this)")
    results = [FileResult(path=path, status=Status.ERROR, error=message) for path in files]
    for result in results:
        if progress:
            progress(result)
    return results


def _finished(files: Sequence[str], results: list[FileResult], rules: Sequence[type[Rule]], options: RunOptions,
              project: Mapping[str, Any], originals: Optional[dict[int, bytes]]) -> list[FileResult]:
    """The results once the files whose facts about other files of the run changed with the run's rewrites of them
    are processed again (`_with_rewritten_dependencies`); written, with `originals` (a run that writes)."""
    first: dict[int, FileResult] = {}  # round one's result of each file processed again
    if options.fix and options.only_position is None:
        results, first = _with_rewritten_dependencies(files, results, rules, options, project, originals)
    if originals is None:
        return results
    # the files processed again are written last: one counting on a rewrite that could not be written (a read-only
    # helper) is written as round one made it, against the helper as it stays on disk
    out = [result if index in first else _write(files[index], index, result, originals)
           for index, result in enumerate(results)]
    failed = {os.path.abspath(files[i]) for i, r in enumerate(out) if r.status is Status.ERROR and i not in first
              and results[i].status is Status.CHANGED}
    for index in sorted(first):
        counted_on = {path for path, found, _ in results[index].depends if dependencies.rewritten(found)}
        out[index] = _write(files[index], index, first[index] if counted_on & failed else results[index], originals)
    return out


def _with_rewritten_dependencies(files: Sequence[str], results: list[FileResult], rules: Sequence[type[Rule]],
                                 options: RunOptions, project: Mapping[str, Any],
                                 originals: Optional[dict[int, bytes]], rounds: int = 3
                                 ) -> tuple[list[FileResult], dict[int, FileResult]]:
    """`results`, with each file that read another file of the run whose rewrite changes what it read
    (`jaxfix.dependencies`: `main.py` calls `fill` of `util.py`, whose write into its parameter the run turned into
    `.at[...].set`, so `main.py`'s array no longer needs to stay NumPy) processed again, from its own bytes, with the
    rewritten text of the others in place of theirs; to a fixed point (`rounds` at most). Without it a second run
    would change the file again. Those results are not cached (they are not what the files on disk give). Also gives
    round one's result of each file processed again."""
    results = list(results)
    first: dict[int, FileResult] = {}
    texts: dict[str, Optional[dependencies.Text]] = {}  # the contents each digest of a dependency was taken of

    def contents(path: str, found: str) -> Optional[dependencies.Text]:
        if found not in texts:
            texts[found] = dependencies.read(path)  # (a digest of round one: the file on disk has it)
        return texts[found]

    for _ in range(rounds):
        rewritten = {os.path.abspath(r.path): r.fixed for r in results
                     if r.status is Status.CHANGED and r.fixed is not None and not is_notebook(r.path)}
        stale = [index for index, result in enumerate(results) if any(
            path in rewritten and dependencies.digest_of_text(rewritten[path]) != found
            and dependencies.facts(reader, contents(path, found)) != dependencies.facts(reader, rewritten[path])
            for path, found, reader in result.depends)]
        if not stale:
            break
        texts.update({dependencies.digest_of_text(text): text for text in rewritten.values()})
        with dependencies.overlaid(rewritten):
            for index in stale:
                if originals is not None and index not in originals:
                    data = _read(files[index], options)
                    if data is not None:
                        originals[index] = data
                first.setdefault(index, results[index])
                results[index] = _process(files[index], rules, options, project, None)[0]
    return results, first


def _write(path: str, index: int, result: FileResult, originals: Mapping[int, bytes]) -> FileResult:
    if result.status is Status.CHANGED and not result.written and index in originals:
        return write_result(path, originals[index], result)
    return result
