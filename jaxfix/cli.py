"""The `jaxfix` command line (typer). Exit codes: 0 nothing to report, 1 findings or changes remain, 2 a usage error
or a file that could not be processed."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import List, Optional

import typer
from rich.console import Console

from jaxfix import __version__
from jaxfix.api import files_for, options_for, rules_for, run_stdin
from jaxfix.config import ConfigError, load_config
from jaxfix.fixes import HELD_NOTE, SILENCED_NOTE
from jaxfix.registry import all_rules, get_rule, unknown_selectors
from jaxfix.reporting import TextReporter, at_original_lines, finding_to_json, unified_diff, write_json
from jaxfix.runner import run_files
from jaxfix.types import Applicability, FileResult, Finding, Status

app = typer.Typer(
    name="jaxfix",
    help=(
        "Rewrite NumPy-style Python into JAX-safe Python, on disk, keeping formatting and comments.\n\n"
        "Examples:\n\n"
        "  jaxfix migrate src/            rewrite in place (safe fixes)\n\n"
        "  jaxfix migrate --diff model.py show what would change, write nothing\n\n"
        "  jaxfix check --format json .   findings only, as JSON\n\n"
        "  jaxfix explain JX101           what a rule does and why"
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

SelectOpt = typer.Option(None, "--select", help="Rule codes, prefixes (JX1) or names to run; repeat or comma-separate.")
IgnoreOpt = typer.Option(None, "--ignore", help="Rule codes, prefixes or names to skip; repeat or comma-separate.")
ExcludeOpt = typer.Option(None, "--exclude", help="gitignore-style patterns of files to leave out; repeatable.")
JobsOpt = typer.Option(None, "--jobs", "-j", help="Worker processes (default: the number of cores).")
def _format(value: str) -> str:
    if value not in ("text", "json"):
        raise typer.BadParameter(f"{value!r} is not one of 'text', 'json'")
    return value


FormatOpt = typer.Option("text", "--format", "--output-format", callback=_format, help="Output format: text or json.")
StdinNameOpt = typer.Option(None, "--stdin-filename", help="The path the source read from '-' stands for.")
ConfigOpt = typer.Option(None, "--config", help="A pyproject.toml to read [tool.jaxfix] from (default: the nearest).")
UnsafeOpt = typer.Option(None, "--unsafe-fixes/--no-unsafe-fixes", help="Also apply fixes that may change behaviour.")
ProgressOpt = typer.Option(True, "--progress/--no-progress", help="Show a progress bar on long runs (on a terminal).")
NoCacheOpt = typer.Option(False, "--no-cache", help="Neither read nor write the result cache (.jaxfix_cache/).")
CacheDirOpt = typer.Option(None, "--cache-dir", help="Where to keep the result cache (default: .jaxfix_cache/ in the project root).")
ReportOpt = typer.Option(
    None, "--report", metavar="FILE", help="Write a batch report: FILE.md for Markdown, otherwise JSON (per file, per rule, errors, timings)."
)
StatisticsOpt = typer.Option(False, "--statistics", help="Print counts per rule instead of each finding.")
QuietOpt = typer.Option(False, "--quiet", "-q", help="Print findings and errors only: no summary, no progress bar.")
ExitZeroOpt = typer.Option(False, "--exit-zero", help="Exit 0 even when findings or changes remain (2 still means an error).")


def _split(values: Optional[List[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for value in values or []:
        out.extend(v.strip() for v in value.split(",") if v.strip())
    return tuple(out)


def _consoles() -> tuple[Console, Console]:
    return (
        Console(highlight=False, soft_wrap=True, markup=False),
        Console(stderr=True, highlight=False, soft_wrap=True, markup=False),
    )  # no markup: paths and messages may hold `[...]`


def _fail(message: str) -> None:
    Console(stderr=True, markup=False, soft_wrap=True).print(f"jaxfix: error: {message}", style="bold red", highlight=False)
    raise typer.Exit(EXIT_ERROR)


def _setup(paths: List[str], select, ignore, config_path):
    try:
        config = load_config(paths, config_path)
    except ConfigError as error:
        _fail(str(error))
    select_t, ignore_t = _split(select), _split(ignore)
    bad = unknown_selectors([*select_t, *ignore_t])
    if bad:
        _fail(f"unknown rule selector(s): {', '.join(bad)} (see `jaxfix rules`)")
    for path in paths:
        if path != "-" and not os.path.exists(path):
            _fail(f"{path}: no such file or directory")
    return config, rules_for(config, select_t, ignore_t)


def _cache_dir(config, no_cache: bool, cache_dir: Optional[str]) -> Optional[str]:
    if no_cache:
        return None
    from jaxfix.cache import default_cache_dir

    return cache_dir or default_cache_dir(config.root)


def _run(paths, rules, options, config, exclude, jobs, show_progress, cache_dir=None) -> list[FileResult]:
    files = files_for(paths, config, _split(exclude))
    if not show_progress or len(files) < 50 or not sys.stderr.isatty():
        return run_files(files, rules, options, jobs=jobs, cache_dir=cache_dir)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    ) as bar:
        task = bar.add_task("jaxfix", total=len(files))
        return run_files(files, rules, options, jobs=jobs, progress=lambda _: bar.advance(task), cache_dir=cache_dir)


def _finish(results, rules, *, command, started, report, statistics, fixing, out, options) -> None:
    """--statistics and --report, shared by check and migrate."""
    if statistics:
        from jaxfix.run_report import statistics_text

        sys.stdout.write(statistics_text(results, {r.CODE: r.name() for r in rules}, fixing=fixing))
    if report:
        from jaxfix.run_report import RunInfo, write_report

        info = RunInfo(
            command=command, rules=[r.CODE for r in rules], seconds=time.perf_counter() - started,
            names={r.CODE: r.name() for r in rules},
            options={"unsafe_fixes": options.unsafe_fixes, "settings": dict(options.settings)},
        )
        try:
            write_report(report, results, info)
        except OSError as error:
            _fail(f"cannot write the report {report}: {error.strerror or error}")


def _exit(code: int, exit_zero: bool) -> None:
    raise typer.Exit(EXIT_OK if exit_zero and code == EXIT_FINDINGS else code)


def _show_fixes(results: list[FileResult], err: Console) -> None:
    """ruff's --show-fixes: what was fixed, per file and rule."""
    fixed = [r for r in results if r.fixes_by_rule]
    if not fixed:
        return
    err.print(f"Fixed {sum(r.fixes_applied for r in fixed)} finding(s):", highlight=False)
    for r in fixed:
        err.print(f"- {r.path}:", highlight=False)
        for code, n in r.fixes_by_rule:
            err.print(f"    {n} x {code}", highlight=False)


def _exit_code(results: list[FileResult], *, changes_count: bool) -> int:
    if any(r.status is Status.ERROR for r in results):
        return EXIT_ERROR
    if any(r.findings for r in results) or (changes_count and any(r.status is Status.CHANGED for r in results)):
        return EXIT_FINDINGS
    return EXIT_OK


@app.command()
def migrate(
    paths: List[str] = typer.Argument(..., help="Files or folders (recursive, *.py); '-' reads stdin."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff and write nothing (exit 1 if anything would change)."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if anything would change or remain."),
    unsafe_fixes: Optional[bool] = UnsafeOpt,
    select: Optional[List[str]] = SelectOpt,
    ignore: Optional[List[str]] = IgnoreOpt,
    exclude: Optional[List[str]] = ExcludeOpt,
    jobs: Optional[int] = JobsOpt,
    output_format: str = FormatOpt,
    stdin_filename: Optional[str] = StdinNameOpt,
    config_path: Optional[str] = ConfigOpt,
    progress: bool = ProgressOpt,
    no_cache: bool = NoCacheOpt,
    cache_dir: Optional[str] = CacheDirOpt,
    report: Optional[str] = ReportOpt,
    statistics: bool = StatisticsOpt,
    quiet: bool = QuietOpt,
    exit_zero: bool = ExitZeroOpt,
    show_fixes: bool = typer.Option(False, "--show-fixes", help="List the fixes applied, per file and rule."),
) -> None:
    """Rewrite NumPy-style code into JAX-safe code, in place.

    Applies every safe fix (and unsafe ones with --unsafe-fixes), re-analysing until nothing changes, then reports
    what could not be fixed. Files that cannot be processed are reported and left byte-for-byte unchanged.

    Batch runs: results are cached in .jaxfix_cache/ (--no-cache), --report FILE writes a JSON or Markdown report,
    --statistics prints counts per rule.

    Example: jaxfix migrate --diff examples/heat.py
    """
    started = time.perf_counter()
    config, rules = _setup(paths, select, ignore, config_path)
    write = not (diff or check)
    unsafe = config.unsafe_fixes if unsafe_fixes is None else unsafe_fixes
    options = options_for(config, fix=True, unsafe_fixes=unsafe, write=write, want_edits=output_format == "json")
    out, err = _consoles()
    if paths == ["-"]:
        data = sys.stdin.buffer.read()
        result = run_stdin(data, rules, options, stdin_filename or "-")
        if diff:
            sys.stdout.write(unified_diff(result))
        elif not check:
            sys.stdout.flush()
            sys.stdout.buffer.write(result.fixed.encode("utf-8") if result.fixed is not None else data)
        TextReporter(err, err).results([at_original_lines(result) if diff or check else result])
        _exit(_exit_code([result], changes_count=diff or check), exit_zero)
    results = _run(paths, rules, options, config, exclude, jobs, progress and not quiet, _cache_dir(config, no_cache, cache_dir))
    # a run that wrote nothing shows its findings, notes and report at lines of the files as they are (JSON keeps
    # the lines its edits are relative to)
    shown = results if write else [at_original_lines(r) for r in results]
    reporter = TextReporter(out, err)
    if output_format == "json":
        write_json(results, sys.stdout)
        for r in results:
            if r.status is Status.ERROR:
                reporter.error(r)
    else:
        if diff:
            for r in results:
                text = unified_diff(r)
                if text:
                    sys.stdout.write(text)
        if statistics:
            for r in results:
                if r.status is Status.ERROR:
                    reporter.error(r)
        else:
            reporter.results(shown)
        if show_fixes:
            _show_fixes(results, err)
        if not quiet:
            reporter.summary(results, mode="diff" if diff else "check-migrate" if check else "migrate", unsafe_enabled=unsafe)
            reporter.notes(shown, x64=bool(dict(options.settings).get("x64", False)))
    command = "migrate --diff" if diff else "migrate --check" if check else "migrate"
    _finish(shown, rules, command=command, started=started, report=report, statistics=statistics and output_format != "json",
            fixing=True, out=out, options=options)
    _exit(_exit_code(results, changes_count=diff or check), exit_zero)


@app.command("check")
def check_command(
    paths: List[str] = typer.Argument(..., help="Files or folders (recursive, *.py); '-' reads stdin."),
    select: Optional[List[str]] = SelectOpt,
    ignore: Optional[List[str]] = IgnoreOpt,
    exclude: Optional[List[str]] = ExcludeOpt,
    jobs: Optional[int] = JobsOpt,
    output_format: str = FormatOpt,
    stdin_filename: Optional[str] = StdinNameOpt,
    config_path: Optional[str] = ConfigOpt,
    unsafe_fixes: Optional[bool] = UnsafeOpt,
    progress: bool = ProgressOpt,
    no_cache: bool = NoCacheOpt,
    cache_dir: Optional[str] = CacheDirOpt,
    report: Optional[str] = ReportOpt,
    statistics: bool = StatisticsOpt,
    quiet: bool = QuietOpt,
    exit_zero: bool = ExitZeroOpt,
) -> None:
    """Report findings (sharp bits JAX would trip on) without changing anything.

    Each finding names the problem at its line and, where one exists, the fix `migrate` would apply and whether
    it is safe. Exit 1 when there are findings.

    Example: jaxfix check --format json src/     (--statistics: counts per rule; --report report.md)
    """
    started = time.perf_counter()
    config, rules = _setup(paths, select, ignore, config_path)
    unsafe = config.unsafe_fixes if unsafe_fixes is None else unsafe_fixes
    options = options_for(config, want_edits=output_format == "json", unsafe_fixes=unsafe)
    out, err = _consoles()
    if paths == ["-"]:
        results = [run_stdin(sys.stdin.buffer.read(), rules, options, stdin_filename or "-")]
    else:
        results = _run(paths, rules, options, config, exclude, jobs, progress and not quiet, _cache_dir(config, no_cache, cache_dir))
    reporter = TextReporter(out, err)
    if output_format == "json":
        write_json(results, sys.stdout)
        for r in results:
            if r.status is Status.ERROR:
                reporter.error(r)
    else:
        if statistics:
            for r in results:
                if r.status is Status.ERROR:
                    reporter.error(r)
        else:
            reporter.results(results)
        if not quiet:
            reporter.summary(results, mode="check", unsafe_enabled=unsafe)
    _finish(results, rules, command="check", started=started, report=report, statistics=statistics and output_format != "json",
            fixing=False, out=out, options=options)
    _exit(_exit_code(results, changes_count=False), exit_zero)


@app.command()
def fix(
    path: str = typer.Argument(..., help="The file to fix; '-' reads stdin and writes the result to stdout."),
    line: int = typer.Option(..., "--line", "-l", help="1-based line of the position to fix."),
    column: Optional[int] = typer.Option(None, "--column", "-c", help="1-based column (default: the whole line)."),
    unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes", help="Also apply an unsafe fix at that position."),
    output_format: str = typer.Option(
        "text", "--format", "--output-format", callback=_format, help="text: apply; json: print findings and edits only."
    ),
    stdin_filename: Optional[str] = StdinNameOpt,
    config_path: Optional[str] = ConfigOpt,
) -> None:
    """The IDE quick-fix: apply only the fixes whose finding covers LINE (and COLUMN).

    With --format json nothing is written: the findings at that position are printed with their edits, for editors
    that apply edits themselves.

    Example: jaxfix fix model.py --line 12
    """
    config, rules = _setup([path], None, None, config_path)
    json_mode = output_format == "json"
    options = options_for(
        config, fix=not json_mode, unsafe_fixes=unsafe_fixes, write=not json_mode and path != "-",
        want_edits=json_mode, only_position=(line, column),
    )
    out, err = _consoles()
    if path == "-":
        data = sys.stdin.buffer.read()
        result = run_stdin(data, rules, options, stdin_filename or "-")
    else:
        result = run_files([path], rules, options, jobs=1)[0]
        data = None
    if result.status is Status.ERROR:
        TextReporter(out, err).error(result)
        if data is not None:
            sys.stdout.buffer.write(data)
        raise typer.Exit(EXIT_ERROR)
    from jaxfix.fixes import covers as _covers

    if json_mode:
        here = [finding_to_json(f) for f in result.findings if _covers(f, (line, column))]
        json.dump(here, sys.stdout, indent=2)
        sys.stdout.write("\n")
        raise typer.Exit(EXIT_OK)
    if path == "-":
        sys.stdout.write(result.fixed if result.fixed is not None else data.decode("utf-8", "surrogateescape"))
    elif result.fixes_applied == 0:
        err.print(f"{path}:{line}: no fix applies at this position", highlight=False)
        for finding in (f for f in result.findings if _covers(f, (line, column))):
            why = _why_not_fixed(finding, unsafe_fixes)
            err.print(f"  {finding.code} {finding.message}" + (f" ({why})" if why else ""), highlight=False)
        raise typer.Exit(EXIT_FINDINGS)
    else:
        err.print(f"{path}:{line}: applied {result.fixes_applied} fix(es)", highlight=False)
    raise typer.Exit(EXIT_OK)


def _why_not_fixed(finding: Finding, unsafe_enabled: bool) -> str:
    """Why the quick-fix left a finding at the position alone, for the editor's user."""
    if finding.fix is None:  # the message says why when a fix was withheld (held back, one fix with a suppressed one)
        withheld = HELD_NOTE in finding.message or SILENCED_NOTE.split("{")[0] in finding.message
        return "" if withheld else "reported only: no sound fix"
    if finding.fix.applicability is Applicability.UNSAFE and not unsafe_enabled:
        return f"its fix is unsafe: {finding.fix.title}; pass --unsafe-fixes to apply it"
    return "its fix goes with the file's other fixes: `jaxfix migrate` applies it"


@app.command()
def rules(output_format: str = typer.Option("text", "--format", help="text, json or markdown.")) -> None:
    """List every rule: code, name, family, fix safety and summary.

    Example: jaxfix rules --format json
    """
    listed = sorted(all_rules(), key=lambda r: r.CODE)  # by code, like ruff (all_rules() is application order)
    if output_format == "markdown":
        from jaxfix.reporting import rules_markdown

        sys.stdout.write(rules_markdown(listed))
        return
    if output_format == "json":
        json.dump(
            [{"code": r.CODE, "name": r.name(), "fix": r.FIX.value, "summary": r.SUMMARY} for r in listed],
            sys.stdout,
            indent=2,
        )
        sys.stdout.write("\n")
        return
    from rich.table import Table
    from rich.text import Text

    table = Table("code", "name", "fix", "summary", box=None, pad_edge=False)
    for r in listed:
        table.add_row(r.CODE, r.name(), r.FIX.value, Text(r.SUMMARY))  # Text: `x.at[idx]` is not markup
    Console().print(table)


@app.command()
def explain(code: str = typer.Argument(..., help="A rule code (JX101) or name (inplace-index-update).")) -> None:
    """Print a rule's documentation: what it does, why, an example, the fix and its safety.

    Example: jaxfix explain JX101
    """
    try:
        rule = get_rule(code)
    except KeyError:
        _fail(f"unknown rule {code!r} (see `jaxfix rules`)")
    print(f"# {rule.CODE} {rule.name()}\n")
    print(f"Fix: {rule.FIX.value}. {rule.SUMMARY}\n")
    print(rule.documentation())


@app.command()
def lsp() -> None:
    """Run the language server on stdin/stdout (needs the `lsp` extra: pip install "jaxfix[lsp]").

    Diagnostics on open, change and save; quick fixes (safe and unsafe, titled) at a range, and
    source.fixAll.jaxfix for every safe fix. Configure your editor to start `jaxfix lsp` for Python files.

    Example (Neovim): vim.lsp.start({name = "jaxfix", cmd = {"jaxfix", "lsp"}})
    """
    try:
        from jaxfix.lsp import main as serve

        import pygls  # noqa: F401
    except ImportError as error:
        _fail(f"the language server needs the lsp extra ({error}); install it with: pip install 'jaxfix[lsp]'")
    serve()


def _version(value: bool) -> None:
    if value:
        print(f"jaxfix {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """Rewrite NumPy-style Python into JAX-safe Python."""


def main() -> None:
    try:
        app(prog_name="jaxfix")
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)
