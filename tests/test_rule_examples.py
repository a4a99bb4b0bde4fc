"""Tests generated from every registered rule's embedded VALID / INVALID examples, plus registry invariants
(a rule cannot ship without examples, documentation in ruff's headings, fixtures and a test module)."""

import os

import pytest

from jaxfix.registry import all_rules
from jaxfix.testing.examples import check_invalid, check_valid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = all_rules()
VALID = [pytest.param(rule, ex, id=f"{rule.CODE}-valid-{i}") for rule in RULES for i, ex in enumerate(rule.VALID)]
INVALID = [pytest.param(rule, ex, id=f"{rule.CODE}-invalid-{i}") for rule in RULES for i, ex in enumerate(rule.INVALID)]
HEADINGS = ["## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety", "## Known problems"]


@pytest.mark.parametrize("rule, example", VALID)
def test_valid_example(rule, example):
    check_valid(rule, example)


@pytest.mark.parametrize("rule, example", INVALID)
def test_invalid_example(rule, example):
    check_invalid(rule, example)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.CODE)
def test_rule_is_complete(rule):
    assert rule.CODE[:2] == "JX" and len(rule.CODE) == 5 and rule.CODE[2:].isdigit()
    assert rule.SUMMARY and rule.VALID and rule.INVALID, "a rule ships with a summary and examples"
    doc = rule.documentation()
    missing = [h for h in HEADINGS if h not in doc]
    assert not missing, f"docstring lacks {missing}"
    module = rule.module_name()
    assert rule.__module__ == f"codemods.{module}", "module, class and CLI name agree"
    assert os.path.isdir(os.path.join(ROOT, "fixtures", module)), f"fixtures/{module}/ is missing"
    assert any(
        f == f"test_{module}.py" for _, _, files in os.walk(os.path.join(ROOT, "tests")) for f in files
    ), f"tests/.../test_{module}.py is missing"
