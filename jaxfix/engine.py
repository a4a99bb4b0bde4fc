"""The per-file pipeline: pre-check, parse, run the rules, apply fixes until nothing changes, verify, write.

Order of work for one file (see `process_file`):

1. Pre-check on the raw bytes (`jaxfix.prefilter`): a file none of the selected rules can apply to (no rule's
   TRIGGERS occur in it) is skipped before decoding or parsing. This is what keeps a large codebase that mostly needs nothing cheap. Second
   level (`jaxfix.precheck`): the file is parsed with `ast` and each rule's conservative tree check is asked (its
   `may_apply_to_tree`, and for first-party rules `codemods._prechecks`); the file is skipped when every triggered
   rule is ruled out, and otherwise only the rules not ruled out run (the checks are asked again after each pass of
   fixes, so a pass whose text no rule may apply to is not parsed by LibCST).
2. Decode (PEP 263 cookie, BOM) and parse with LibCST; resolve the union of the rules' metadata once; run all rules
   in one batched traversal.
3. Fixes (`jaxfix.fixes`): among the applicable fixes (safe ones, and unsafe ones with `--unsafe-fixes`), the engine
   applies a set that do not overlap, innermost first (smallest span), then by rule ORDER and code; overlapping ones
   wait for the next pass, which re-parses and re-analyses the result. So a loop rewrite sees its body's item assignments already
   rewritten. Passes stop when a pass applies nothing, or after `max_passes`.
4. Imports the applied fixes need are added once, numpy imports the rewrite left unused are dropped, and the result
   must `compile`; otherwise the file is reported and left unchanged.
"""

from __future__ import annotations

import ast
import functools
import os
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

import libcst as cst
from libcst.metadata import CodeRange

from jaxfix import advice, fixes, incremental, prefilter, walk
from jaxfix import source as sourcelib
from jaxfix.analysis import parents as parentslib
from jaxfix.analysis import positions as positionslib
from jaxfix.analysis import hashed, host_regions, loops, plain_python, random_keys
from jaxfix.analysis import settings as analysis_settings
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.positions import PositionProvider
from jaxfix.context import RuleContext
from jaxfix.imports import (
    IMPORTS_KEY, ModuleImports, NameCollector, add_imports, numpy_names_in_use, remove_unused_numpy_imports,
)
from jaxfix.rule import Report, Rule, RuleCrash, resolved
from jaxfix.source import SourceError
from jaxfix.suppression import Suppressions
from jaxfix.switch import Switch
from jaxfix.types import FileResult, Finding, Fix, RunOptions, Status
from jaxfix.walk import FastMetadataWrapper


class EngineError(Exception):
    """The file could not be processed; it is left unchanged and the message says why."""


@dataclass
class SourceOutcome:
    findings: list[Finding]
    fixed: str
    fixes_applied: int
    rules_applied: set[str] = field(default_factory=set)
    fix_counts: dict[str, int] = field(default_factory=dict)  # rule code -> fixes applied
    fixed_ast: Optional[ast.Module] = None  # the `ast` tree of `fixed`, when a pre-check parsed that very text


def _parse(text: str) -> cst.Module:
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        raise EngineError(f"syntax error on line {error.raw_line}, column {error.raw_column + 1}: {error.message}") from None
    except RecursionError:
        raise EngineError("too deeply nested for the parser") from None


def apply_reports(
    module: cst.Module,
    reports: Sequence[Report],
    up: Optional[Mapping[cst.CSTNode, cst.CSTNode]] = None,
    track: Optional[dict[cst.CSTNode, cst.CSTNode]] = None,
) -> cst.Module:
    """`module` with the fixes of `reports` and the imports they need. `up` and `track` as for `walk.replace`."""
    changes: dict[cst.CSTNode, Any] = {}
    keys: set[str] = set()
    for report in reports:
        for node, value in report.changes.items():
            try:
                changes[node] = resolved(value)
            except Exception as error:  # noqa: BLE001 - a deferred replacement is the rule's code, isolated as a crash
                raise EngineError(f"{RuleCrash(type(report.rule), error)} (please report this; the file was left unchanged)") from error
        keys.update(report.imports)
    new = walk.replace(module, changes, up, track)
    imports = ModuleImports.read(new)
    final = add_imports(new, imports.missing(sorted(keys)))
    if track is not None and final is not new:
        for child in walk.children(final):
            if child not in track:  # an import statement added or changed
                track.update(walk.parents(child))
            track[child] = final
    return final


# what the engine and the analyses remember while processing one file (traversal caches, primed positions and
# parents, code pieces, facts remembered across passes)
_PER_FILE_CACHES: tuple[Callable[[], None], ...] = (
    walk.clear_caches, positionslib.forget, parentslib.forget, random_keys.forget, plain_python.forget,
    loops.concrete_params.cache_clear, hashed.forget,
)


def _forgetting_caches(fn: Callable[..., SourceOutcome]) -> Callable[..., SourceOutcome]:
    """Forget the per-file caches (`_PER_FILE_CACHES`) when `fn` returns: they hold the trees of the file just
    processed."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> SourceOutcome:
        try:
            return fn(*args, **kwargs)
        finally:
            for forget in _PER_FILE_CACHES:
                forget()

    return run


def _imported_elsewhere(
    path: str, module_name: str, names: set[str], project: Optional[Mapping[str, Any]]
) -> Iterable[str]:
    """Names another module may import from this one, which its imports must keep: those other files of the run
    import from it (`from .functions import where`), and in a package's `__init__.py` every public name (its
    imports are the package's interface)."""
    if os.path.basename(path) == "__init__.py":
        return {name for name in names if not name.startswith("_")}
    return (project or {}).get(IMPORTS_KEY, {}).get(module_name, ()) if module_name else ()


@_forgetting_caches
def process_source(
    path: str,
    text: str,
    rules: Sequence[type[Rule]],
    options: RunOptions,
    project: Optional[Mapping[str, Any]] = None,
    module_name: str = "",
    first_rules: Optional[Sequence[type[Rule]]] = None,
    first_tree: Optional[ast.Module] = None,
) -> SourceOutcome:
    """Run `rules` over `text`; with `options.fix`, apply fixes until nothing changes. Raises EngineError.

    Each pass runs only the rules the tree pre-checks (`jaxfix.precheck`) do not rule out on that pass's text
    (`first_rules`: that subset for `text`, when the caller has computed it, and `first_tree` the `ast` tree it
    read); a pass after fixes where none may apply ends the loop without another LibCST parse (it would report
    nothing)."""
    suppressions = Suppressions(text)
    if suppressions.skip_file or not rules:
        return SourceOutcome([], text, 0)
    original = text
    first: Optional[tuple[cst.Module, ModuleImports, set[str]]] = None  # for the numpy names in use before the rewrite
    last_parsed: Optional[cst.Module] = None
    applied_total = 0
    fix_counts: dict[str, int] = {}
    rules_applied: set[str] = set()
    single_pass = options.only_position is not None
    findings: list[Finding] = []
    # incremental passes (`jaxfix.incremental`): after a pass of fixes, the rules run again only over the top-level
    # statements that changed; not for edits or a quick-fix at a position, which report one pass exactly
    use_incremental = options.fix and not options.want_edits and not single_pass and incremental.enabled()
    previous: Optional[tuple[incremental.Statements, list[Finding]]] = None
    last_names: Optional[set[str]] = set()
    fixed_tree: Optional[cst.Module] = None  # the tree the last fixes made, for the next pass (see `reuse`)
    tree: Optional[ast.Module] = None
    tree_text: Optional[str] = None  # the text `tree` was parsed from
    kept = prefilter.kept_by_project(rules, project or {}, module_name)  # (what other modules pass this one's functions)
    for pass_number in range(options.max_passes + 1):
        if pass_number == 0 and first_rules is not None:
            pass_rules, tree = list(first_rules), first_tree
        else:
            pass_rules, tree = prefilter.tree_filter(path, text, rules, kept)
        tree_text = text
        if not pass_rules:
            findings = []
            if options.want_edits:
                analysed_module, analysed_reports = (module if pass_number else None), []
            if pass_number == 0:
                return SourceOutcome([], text, 0)
            break  # the fixed text gives no rule anything to report: the verification pass is not needed
        module = fixed_tree if fixed_tree is not None else _parse(text)
        statements: Optional[incremental.Statements] = None
        clean: dict[int, int] = {}
        if use_incremental:
            statements = incremental.statements_from_tree(module, tree, text)
            if previous is not None:
                clean = incremental.clean_statements(previous[0], statements)
        context = RuleContext(
            path=path,
            module=module,
            imports=ModuleImports.read(module),
            options=options,
            project=project or {},
            module_name=module_name,
            text=text,
            ast_tree=tree,
        )
        skip = frozenset(statements.nodes[j] for j in clean) if statements is not None else frozenset()
        if pass_number and text != suppressions.text:
            suppressions = Suppressions(text)  # fixes moved lines (an import added): read the comments again
        reports, positions, names, parents = _analyse(path, context, pass_rules, suppressions, skip)
        if clean and statements is not None:
            kept = [(statements.starts[j], statements.ends[j]) for j in clean]
            inside = [[_within(positions.get(node), kept) for node in (r.node, *r.changes)] for r, _ in reports]
            if any(any(flags) and not all(flags) for flags in inside):
                # a module-wide fix (keys threaded through callers) reaches into a kept statement: run in full
                clean, skip = {}, frozenset()
                reports, positions, names, parents = _analyse(path, context, pass_rules, suppressions, skip)
            else:
                # found again by a rule that walks the whole module itself: the kept findings already hold it
                reports = [pair for pair, flags in zip(reports, inside) if not all(flags)]
        held = fixes.held_back(reports, positions, options)
        if held:
            reports = fixes.without_held_fixes(reports, held)
        last_parsed, last_names = module, names
        if first is None:
            first = (module, context.imports, names or set())
        carried = _carried(previous, statements, clean) if clean else []
        findings = [finding for _, finding in reports] + carried
        if statements is not None:
            previous = (statements, findings)
        if options.want_edits:
            analysed_module, analysed_reports = module, reports
        if not options.fix or pass_number == options.max_passes:
            break
        chosen = fixes.choose(reports, positions, options, held)
        if not chosen:
            break
        up = parents.mapping()
        track = dict(up) if _REUSE.on() else None  # a copy: the map each pass was given stays that pass's
        module = apply_reports(module, chosen, up, track)
        text, fixed_tree = _code_of_fixed(module, track)
        applied_total += len(chosen)
        rules_applied.update(report.rule.CODE for report in chosen)
        for report in chosen:
            fix_counts[report.rule.CODE] = fix_counts.get(report.rule.CODE, 0) + 1
        if single_pass:
            findings = [f for report, f in reports if report not in chosen]
            analysed_reports = [(r, f) for r, f in reports if r not in chosen]
            break
    if options.want_edits:
        # edits only for the findings finally reported, relative to the text they were found in
        findings = _with_edits(analysed_module, analysed_reports)
    if text != original:
        # `module` is the tree of `text` (the last pass's parse, or the transformed tree): no need to parse again
        numpy_in_use = numpy_names_in_use(*first) if first is not None else set()
        cleaned = remove_unused_numpy_imports(module, numpy_in_use, last_names if module is last_parsed else None,
                                              keep=_imported_elsewhere(path, module_name, numpy_in_use, project))
        if cleaned is not module:
            module, cleaned_text = cleaned, positionslib.code_of(cleaned)
            findings = _shift_lines(findings, text, cleaned_text)
            text = cleaned_text
        try:
            compile(text, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            raise EngineError(
                f"internal error: the rewrite by {', '.join(sorted(rules_applied))} does not compile ({error}); "
                "the file was left unchanged (please report this)"
            ) from None
    findings.sort(key=lambda f: f.sort_key)
    final_tree = tree if tree_text is text else None
    return SourceOutcome(findings, text, applied_total, rules_applied, fix_counts, final_tree)


def _code_of_fixed(module: cst.Module, up: Optional[dict[cst.CSTNode, cst.CSTNode]]) -> tuple[str, Optional[cst.Module]]:
    """The code of the tree fixes made and, unless `reuse` is switched off, that tree for the next pass with its
    positions recorded in the same code generation and its parent map `up` (kept up to date while applying),
    instead of parsing the code again (a parse costs more than everything else in a pass but the rules). The tree
    is not reused when a node object sits at two places in it (a replacement reusing a node): positions and
    metadata are keyed by node."""
    if up is None:  # `reuse` is switched off
        return module.code, None
    text, spans = positionslib.code_and_spans(module)
    if spans is None:
        return text, None
    positionslib.prime(module, spans)
    parentslib.prime(module, up)
    return text, module


_REUSE = Switch()
reuse_disabled = _REUSE.off  # tests: parse the code of every pass's fixes again, and compare


def _analyse(
    path: str,
    context: RuleContext,
    rules: Sequence[type[Rule]],
    suppressions: Suppressions,
    skip: frozenset[cst.CSTNode],
) -> tuple[list[tuple[Report, Finding]], Mapping[cst.CSTNode, CodeRange], Optional[set[str]], Any]:
    """One pass of `rules` over `context.module` (not entering the top-level statements in `skip`): the reports with
    their findings (suppressed ones dropped), the positions, the names in use (None when statements were
    skipped: the import clean-up then collects them itself), and the parents (`ParentProvider`'s lazy map)."""
    wrapper = FastMetadataWrapper(context.module, unsafe_skip_copy=True, skip=skip)
    names = NameCollector() if not skip else None  # names in use, for the import clean-up, in the same traversal
    instances = [rule(context) for rule in rules]
    try:
        with analysis_settings.using(dict(context.options.settings), context.module_name, context.project):
            wrapper.visit_batched([*instances, *([names] if names is not None else [])], skip=skip)
    except RuleCrash as crash:
        raise EngineError(f"{crash} (please report this; the file was left unchanged)") from crash
    except RecursionError:
        raise EngineError("too deeply nested to analyse") from None
    positions = wrapper.resolve(PositionProvider)
    parents = wrapper.resolve(ParentProvider)
    reports: list[tuple[Report, Finding]] = []
    # branches that run only for NumPy arrays or sparse matrices (`host_regions`): every rule leaves them as they are
    regions = [positions[body] for body in host_regions.host_branches(context.module, context.source, context.imports)]
    silenced: dict[tuple[str, cst.CSTNode], int] = {}  # (rule, a node its suppressed finding's fix changes) -> line
    for instance in instances:
        for report in instance.reports:
            span = positions[report.node]
            if suppressions.suppressed(instance.CODE, span.start.line):
                for node in report.changes:
                    silenced.setdefault((instance.CODE, node), span.start.line)
                continue
            if regions and any(_starts_in(span, region) for region in regions):
                continue
            fix = None
            if report.changes:
                fix = Fix(report.applicability, report.title or f"apply the {instance.name()} fix")
            finding = Finding(
                code=instance.CODE,
                rule=instance.name(),
                message=report.message,
                path=path,
                line=span.start.line,
                column=span.start.column + 1,
                end_line=span.end.line,
                end_column=span.end.column + 1,
                fix=fix,
            )
            reports.append((report, finding))
    if silenced:
        reports = fixes.without_silenced_fixes(reports, silenced)
    return reports, positions, (names.names if names is not None else None), parents


def _starts_in(span: CodeRange, region: CodeRange) -> bool:
    start = (span.start.line, span.start.column)
    return (region.start.line, region.start.column) <= start < (region.end.line, region.end.column)


def _within(span: Optional[CodeRange], ranges: Sequence[tuple[int, int]]) -> bool:
    """Whether `span` starts inside one of the line `ranges` (top-level statements never share a line)."""
    return span is not None and any(start <= span.start.line <= end for start, end in ranges)


def _carried(
    previous: Optional[tuple["incremental.Statements", list[Finding]]],
    statements: Optional["incremental.Statements"],
    clean: Mapping[int, int],
) -> list[Finding]:
    """The previous pass's findings inside the statements kept from it, moved to those statements' new lines."""
    if previous is None or statements is None:
        return []
    old, old_findings = previous
    out = []
    for j, i in clean.items():
        delta = statements.starts[j] - old.starts[i]
        for f in old_findings:
            if old.starts[i] <= f.line <= old.ends[i]:
                out.append(Finding(**{**f.__dict__, "line": f.line + delta, "end_line": f.end_line + delta}) if delta else f)
    return out


def _shift_lines(findings: list[Finding], before: str, after: str) -> list[Finding]:
    """Findings of the last pass were located in `before`; move those below the first changed line to `after`
    (the import clean-up only removes whole import lines near the top)."""
    delta = before.count("\n") - after.count("\n")
    if not delta or not findings:
        return findings
    old_lines, new_lines = before.splitlines(), after.splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b), len(new_lines)) + 1
    return [
        Finding(**{**f.__dict__, "line": f.line - delta, "end_line": f.end_line - delta}) if f.line > first else f
        for f in findings
    ]


def _with_edits(module: cst.Module, reports: Sequence[tuple[Report, Finding]]) -> list[Finding]:
    out = []
    for report, finding in reports:
        if finding.fix is not None:
            fixed = apply_reports(module, [report]).code
            finding = Finding(
                **{**finding.__dict__, "fix": Fix(finding.fix.applicability, finding.fix.title, fixes.text_edits(module.code, fixed))}
            )
        out.append(finding)
    return out


def process_file(
    path: str,
    rules: Sequence[type[Rule]],
    options: RunOptions,
    project: Optional[Mapping[str, Any]] = None,
    module_name: str = "",
) -> FileResult:
    """Process one file on disk. Never raises for a problem with the file: it becomes an ERROR result."""
    try:
        size = os.path.getsize(path)
        if size > options.max_file_bytes:
            raise SourceError(
                f"file is {size / 1e6:.1f} MB, over the {options.max_file_bytes / 1e6:.1f} MB limit "
                "(max-file-bytes in [tool.jaxfix])"
            )
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return FileResult(path=path, status=Status.ERROR, error=f"cannot read: {error.strerror or error}")
    except SourceError as error:
        return FileResult(path=path, status=Status.ERROR, error=str(error))
    return process_bytes(path, data, rules, options, project, module_name)


def process_bytes(
    path: str,
    data: bytes,
    rules: Sequence[type[Rule]],
    options: RunOptions,
    project: Optional[Mapping[str, Any]] = None,
    module_name: str = "",
) -> FileResult:
    if not prefilter.may_apply(data, rules, project) or prefilter.numpy_backend(module_name):
        return FileResult(path=path, status=Status.SKIPPED)
    try:
        decoded = sourcelib.decode(data)
        active, tree, allowed = prefilter.first_rules(path, data, decoded.text, rules, project, module_name)
        if not active:
            return FileResult(path=path, status=Status.SKIPPED)
        outcome = process_source(
            path, decoded.text, allowed, options, project, module_name, first_rules=active, first_tree=tree
        )
        changed = outcome.fixed != decoded.text
        written = False
        if changed and options.write:
            sourcelib.atomic_write(path, sourcelib.encode(outcome.fixed, decoded.encoding))
            written = True
    except (SourceError, EngineError) as error:
        return FileResult(path=path, status=Status.ERROR, error=str(error))
    except RecursionError:  # (parsing or pre-checking an expression nested too deep: a 3000-term sum)
        return FileResult(path=path, status=Status.ERROR, error="too deeply nested to analyse")
    except Exception as error:  # noqa: BLE001 - isolate any failure to its file
        return FileResult(path=path, status=Status.ERROR, error=f"internal error: {type(error).__name__}: {error}")
    return FileResult(
        path=path,
        status=Status.CHANGED if changed else Status.UNCHANGED,
        findings=tuple(outcome.findings),
        fixes_applied=outcome.fixes_applied,
        fixes_by_rule=tuple(sorted(outcome.fix_counts.items())),
        original=decoded.text if changed else None,
        fixed=outcome.fixed if changed else None,
        written=written,
        needs_jit=advice.new_control_flow(decoded.text, outcome.fixed, tree, outcome.fixed_ast) if changed else (),
    )


def write_result(path: str, data: bytes, result: FileResult) -> FileResult:
    """Write the fixed text of `result` (a run of `data` that wrote nothing) to `path`, in the encoding `data` was
    read in: `result` marked written, or an ERROR result when the file cannot be written."""
    try:
        sourcelib.atomic_write(path, sourcelib.encode(result.fixed or "", sourcelib.decode(data).encoding))
    except (SourceError, OSError) as error:
        return FileResult(path=path, status=Status.ERROR, error=f"cannot write: {error}")
    return replace(result, written=True)


def migrate_source(
    text: str,
    rules: Optional[Iterable[type[Rule]]] = None,
    *,
    unsafe_fixes: bool = False,
    path: str = "<string>",
    settings: Mapping[str, object] | None = None,
) -> str:
    """Convenience for tests and the API: the migrated text of `text` (all rules unless given)."""
    from jaxfix.registry import all_rules

    options = RunOptions(fix=True, unsafe_fixes=unsafe_fixes, settings=tuple((settings or {}).items()))
    return process_source(path, text, tuple(rules) if rules is not None else all_rules(), options).fixed
