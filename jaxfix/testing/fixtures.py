"""Fixture pairs: `fixtures/<rule>/<case>.before.py` and `<case>.after.py` (one module), or
`fixtures/<rule>/<case>/before/` and `after/` (a package of several modules, for whole-program rules).

The after-file is what `jaxfix migrate` (all rules; options from the SPEC's "migrate" entry) must produce, byte for
byte. Set JAXFIX_UPDATE_FIXTURES=1 to rewrite after-files from the current output (then review the diff).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Optional

from jaxfix.engine import process_source
from jaxfix.registry import select_rules
from jaxfix.runner import run_files
from jaxfix.source import decode
from jaxfix.testing.spec import read_migrate_options
from jaxfix.types import RunOptions

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "fixtures")


@dataclass(frozen=True)
class FixtureCase:
    rule: str
    name: str
    before: str  # a file, or a folder for a package case
    after: str

    @property
    def id(self) -> str:
        return f"{self.rule}/{self.name}"

    @property
    def is_package(self) -> bool:
        return os.path.isdir(self.before)


def discover_fixtures(root: str = ROOT) -> list[FixtureCase]:
    cases = []
    if not os.path.isdir(root):
        return cases
    for rule in sorted(os.listdir(root)):
        folder = os.path.join(root, rule)
        if not os.path.isdir(folder):
            continue
        for entry in sorted(os.listdir(folder)):
            path = os.path.join(folder, entry)
            if entry.endswith(".before.py"):
                name = entry[: -len(".before.py")]
                cases.append(FixtureCase(rule, name, path, os.path.join(folder, f"{name}.after.py")))
            elif os.path.isdir(os.path.join(path, "before")):
                cases.append(FixtureCase(rule, entry, os.path.join(path, "before"), os.path.join(path, "after")))
    return cases


def _read(path: str) -> str:
    with open(path, "rb") as handle:
        return decode(handle.read()).text


def options_for_case(source: str, path: str) -> RunOptions:
    raw = read_migrate_options(source, path)
    return RunOptions(
        fix=True,
        unsafe_fixes=bool(raw.get("unsafe_fixes", False)),
        settings=tuple(sorted((k, _freeze(v)) for k, v in raw.get("settings", {}).items())),
        select=tuple(raw.get("select", ())),
    )


def _freeze(value: object) -> object:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def migrate_text(source: str, path: str, options: Optional[RunOptions] = None) -> str:
    options = options or options_for_case(source, path)
    rules = select_rules(options.select)
    return process_source(path, source, rules, options).fixed


def migrate_case(case: FixtureCase) -> dict[str, str]:
    """relative path -> migrated text (one entry, "", for a single-file case)."""
    if not case.is_package:
        source = _read(case.before)
        return {"": migrate_text(source, case.before)}
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, os.path.basename(os.path.dirname(case.before)))
        shutil.copytree(case.before, work)
        files = sorted(
            os.path.join(d, f) for d, _, names in os.walk(work) for f in names if f.endswith(".py")
        )
        spec_source = "\n".join(_read(f) for f in files)
        options = options_for_case(spec_source, case.before)
        options = RunOptions(**{**options.__dict__, "write": True})
        results = run_files(files, select_rules(options.select), options, jobs=1)
        errors = [r for r in results if r.error]
        assert not errors, f"migration failed: {[(r.path, r.error) for r in errors]}"
        return {os.path.relpath(f, work): _read(f) for f in files}


def expected_case(case: FixtureCase) -> dict[str, str]:
    if not case.is_package:
        return {"": _read(case.after)} if os.path.exists(case.after) else {}
    out = {}
    for d, _, names in os.walk(case.after):
        for f in names:
            if f.endswith(".py"):
                path = os.path.join(d, f)
                out[os.path.relpath(path, case.after)] = _read(path)
    return out


def update_case(case: FixtureCase, produced: dict[str, str]) -> None:
    for rel, text in produced.items():
        target = case.after if rel == "" else os.path.join(case.after, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
