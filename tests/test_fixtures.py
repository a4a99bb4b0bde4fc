"""Every fixture pair: byte-for-byte output, idempotence, output compiles, and behavioural equivalence of each
function its SPEC names (NumPy original vs jax.jit rewrite, and gradients where the SPEC asks)."""

import os

import pytest

from jaxfix.testing import behaviour
from jaxfix.testing.fixtures import discover_fixtures, expected_case, migrate_case, migrate_text, update_case
from jaxfix.testing.spec import read_specs

CASES = discover_fixtures()
UPDATE = os.environ.get("JAXFIX_UPDATE_FIXTURES") == "1"


def _single(case):
    return pytest.param(case, id=case.id)


@pytest.mark.parametrize("case", [_single(c) for c in CASES])
def test_fixture_output(case):
    produced = migrate_case(case)
    expected = expected_case(case)
    if UPDATE and produced != expected:
        update_case(case, produced)
        expected = produced
    assert expected, f"{case.after} is missing (run with JAXFIX_UPDATE_FIXTURES=1 to create it, then review)"
    assert produced.keys() == expected.keys()
    for rel in produced:
        assert produced[rel] == expected[rel], f"{case.id} {rel}: migrate output differs from the after-file"
        compile(produced[rel], rel or case.after, "exec")


@pytest.mark.parametrize("case", [_single(c) for c in CASES if not c.is_package])
def test_fixture_idempotent(case):
    with open(case.after, encoding="utf-8", newline="") as handle:
        after = handle.read()
    with open(case.before, encoding="utf-8", newline="") as handle:
        before = handle.read()
    from jaxfix.testing.fixtures import options_for_case

    assert migrate_text(after, case.after, options_for_case(before, case.before)) == after


BEHAVIOUR = [
    pytest.param(case, spec, id=f"{case.id}:{spec.function}")
    for case in CASES
    if not case.is_package
    for spec in read_specs(open(case.before, encoding="utf-8").read(), case.before)
]


@pytest.mark.behaviour
@pytest.mark.parametrize("case, spec", BEHAVIOUR)
def test_fixture_behaviour(case, spec):
    before = behaviour.load_module(case.before, "before")
    after = behaviour.load_module(case.after, "after")
    before_fn, after_fn = getattr(before, spec.function), getattr(after, spec.function)
    if spec.random is not None:
        behaviour.check_random(before_fn, after_fn, spec)
    else:
        behaviour.check_equivalence(before_fn, after_fn, spec)


def _package_specs(case):
    """(dotted module, spec) for every module of a package case whose source has a SPEC."""
    out = []
    for folder, _, names in sorted(os.walk(case.before)):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, case.before)[: -len(".py")].replace(os.sep, ".")
                dotted = rel[: -len(".__init__")] if rel.endswith(".__init__") else rel
                out.extend((dotted, spec) for spec in read_specs(open(path, encoding="utf-8").read(), path))
    return out


PACKAGE_BEHAVIOUR = [
    pytest.param(case, dotted, spec, id=f"{case.id}:{dotted}.{spec.function}")
    for case in CASES
    if case.is_package
    for dotted, spec in _package_specs(case)
]


@pytest.mark.behaviour
@pytest.mark.parametrize("case, dotted, spec", PACKAGE_BEHAVIOUR)
def test_package_fixture_behaviour(case, dotted, spec):
    """A package case: the SPEC'd module is imported from before/ and from after/ (cross-module calls included)."""
    before_fn = getattr(behaviour.load_package_module(case.before, dotted), spec.function)
    after_fn = getattr(behaviour.load_package_module(case.after, dotted), spec.function)
    if spec.random is not None:
        behaviour.check_random(before_fn, after_fn, spec)
    else:
        behaviour.check_equivalence(before_fn, after_fn, spec)


def test_every_fixture_has_a_spec_or_says_why():
    """A before-file without a SPEC must be a diagnostic-only case (before == after)."""
    for case in CASES:
        if case.is_package:
            continue
        source = open(case.before, encoding="utf-8").read()
        if not read_specs(source, case.before):
            assert os.path.exists(case.after) and open(case.after, encoding="utf-8").read() == source, (
                f"{case.id}: a rewritten fixture needs a SPEC for its behavioural test"
            )
