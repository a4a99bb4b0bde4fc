"""Checks generated from each rule's embedded VALID / INVALID examples."""

from __future__ import annotations

import textwrap
from typing import Mapping, Union

from jaxfix.engine import process_source
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import RunOptions


def _options(settings: Mapping[str, object], **kw: object) -> RunOptions:
    return RunOptions(settings=tuple(settings.items()), **kw)  # type: ignore[arg-type]


def run_rule(rule: type[Rule], code: str, *, fix: bool = False, unsafe: bool = False, settings: Mapping[str, object] = {}):
    return process_source("example.py", code, [rule], _options(settings, fix=fix, unsafe_fixes=unsafe))


def check_valid(rule: type[Rule], example: Union[Valid, str]) -> None:
    example = Valid(example) if isinstance(example, str) else example
    code = textwrap.dedent(example.code)
    findings = [f for f in run_rule(rule, code, settings=example.settings).findings if f.code == rule.CODE]
    assert not findings, f"{rule.CODE} reported on valid code:\n{code}\n" + "\n".join(
        f"  line {f.line}: {f.message}" for f in findings
    )


def check_invalid(rule: type[Rule], example: Invalid) -> None:
    code = textwrap.dedent(example.code)
    findings = [f for f in run_rule(rule, code, settings=example.settings).findings if f.code == rule.CODE]
    assert findings, f"{rule.CODE} reported nothing on invalid code:\n{code}"
    if example.lines is not None:
        got = sorted({f.line for f in findings})
        assert got == sorted(set(example.lines)), f"{rule.CODE} reported at lines {got}, expected {sorted(set(example.lines))}"
    safe = run_rule(rule, code, fix=True, settings=example.settings).fixed
    unsafe = run_rule(rule, code, fix=True, unsafe=True, settings=example.settings).fixed
    if example.expected is None:
        assert unsafe == code, f"{rule.CODE} changed code that should only be reported:\n{unsafe}"
        return
    expected = textwrap.dedent(example.expected)
    if example.unsafe:
        assert safe == code, f"{rule.CODE}: a safe fix changed code whose fix should be unsafe:\n{safe}"
        assert unsafe == expected, f"{rule.CODE}: unsafe fix gave\n{unsafe}\nexpected\n{expected}"
    else:
        assert safe == expected, f"{rule.CODE}: fix gave\n{safe}\nexpected\n{expected}"
    compile(expected, "expected.py", "exec")
    again = run_rule(rule, expected, fix=True, unsafe=example.unsafe, settings=example.settings).fixed
    assert again == expected, f"{rule.CODE}: not idempotent; a second run gave\n{again}"
