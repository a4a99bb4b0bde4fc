"""Module-level part of JX401 (explicit-random-key): seeds, module generators, calls made at import time, and
classes holding RNG state. Kept apart so the rule module stays small."""

from __future__ import annotations

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.random_keys import KEY_NAMES
from jaxfix.analysis.random_sites import Site

CLASS_HINT = (
    "an object holding RNG state cannot be traced: store a key (`self.key = jax.random.key(seed)`) and split it "
    "per use (`self.key, subkey = jax.random.split(self.key)`), or better, pass a key to each method"
)


def module_level(rule, module: cst.Module, sites: list[Site]) -> None:
    in_class = [s for s in sites if s.stmt is None and s.blocked.startswith("inside a class")]
    for site in in_class:
        if site.kind in ("call", "ref"):
            rule._refuse(site, "called from a class: the method cannot be given a key automatically")
        else:
            rule._report(site.owner, site.node, f"`{rule.code(site.call.func)}` inside a class: {CLASS_HINT}")
    sites = [s for s in sites if s not in in_class]
    draws = [s for s in sites if s.kind in ("draw", "bernoulli", "shuffle")]
    sources = [s for s in sites if s.kind == "source" and not s.blocked]
    calls = [s for s in sites if s.kind == "call"]
    for site in sites:
        if site.kind == "ref" or (site.kind == "call" and site.blocked):
            rule._refuse(site, site.blocked)
    calls = [s for s in calls if not s.blocked]
    keep = bool(draws or in_class or rule.refused)  # NumPy state is still read somewhere: keep the seed
    seeded = next((s for s in sources if s.call.args), None)
    if not calls:
        if rule.changes and not keep:
            taken = {n.value for n in walk.nodes_of(module, cst.Name)}
            for site in sources:
                rule._source(site.stmt, site, rule._fresh(taken, *KEY_NAMES))
        return
    if seeded is None:
        for site in calls:
            rule._refuse(site, "called at module level with no seed to derive a key from: pass `jax.random.key(seed)`")
        return
    taken = {n.value for n in walk.nodes_of(module, cst.Name)}
    key = rule._fresh(taken, *KEY_NAMES)
    if keep:
        new = rule.statements(f"{key} = {rule.jax}.random.key({rule.code(seeded.call.args[0].value)})\n")
        rule.changes[seeded.stmt] = cst.FlattenSentinel([seeded.stmt, *new])
        rule.findings.append((seeded.stmt, "module-level seed: calls made at import time get keys split from it", None))
    else:
        rule._source(seeded.stmt, seeded, key)
    rule._statements(calls, key, taken, params=set())


