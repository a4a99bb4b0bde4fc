from __future__ import annotations

from typing import Mapping, Optional

import libcst as cst

from codemods._random_module import module_level
from jaxfix import walk
from jaxfix.analysis import random_keys
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.random_draws import Names, bernoulli, translate
from jaxfix.analysis.random_sites import Site, SiteCollector, key_names_in, parameters, with_possible_sites
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

_M = "import numpy as np\n\n"


class ExplicitRandomKey(Rule):
    """
    ## What it does
    Replaces NumPy's hidden RNG state (`np.random.seed`, `default_rng`, `RandomState`, draws such as
    `np.random.normal`, `rng.integers`, `np.random.shuffle`) with explicit `jax.random` keys. Every draw consumes a
    fresh subkey (`key, subkey = jax.random.split(key)` before its statement, inside loops too, so each iteration
    splits); a function that draws gains a `key` parameter (first), and every call of it in the batch passes a
    fresh subkey, transitively up the call graph and across modules. A seeded generator (`default_rng(seed)`)
    becomes `key = jax.random.key(seed)`.

    ## Why is this bad?
    Under `jax.jit` a NumPy draw runs once, at trace time: the "random" numbers are frozen into the compiled
    function, identical on every call. JAX has no hidden state; reproducible, independent randomness needs a key
    passed in and split for each use. Reusing a key silently correlates the numbers.

    ## Example
    ```python
    def noisy(x, sigma):
        return x + np.random.normal(0.0, sigma, size=x.shape)
    ```

    ## Use instead
    ```python
    def noisy(key, x, sigma):
        key, subkey = jax.random.split(key)
        return x + sigma * jax.random.normal(subkey, x.shape)
    ```

    ## Fix safety
    Safe: each draw keeps its distribution, shape and dtype kind (`size=None` gives shape `()`, integer draws stay
    integer, half-open ranges stay half-open) and never shares a key. The values differ from NumPy's, as they must.
    A public function's signature changes (it takes a key first): reported at its `def`. A function a framework
    calls with arguments of its choosing keeps its signature and makes its own key, `key = jax.random.key(0)`, as an
    unsafe fix (it then draws the same numbers on every run): a pytest `test*` function (a new parameter would be a
    missing fixture) and a function with a decorator that may supply its arguments (`@pytest.fixture`,
    `@testing.parametrized(...)`, `@lru_cache`: any but `staticmethod`, `functools.wraps(...)` and a bare
    `jax.jit`). Unsafe: `shuffle` of a
    parameter (the caller no longer sees its array shuffled in place), and rewrites that leave a call site without
    a key (a call at module level with no seed, a function used as a value).

    ## Known problems
    Reported, not rewritten: draws in lambdas, comprehensions, nested functions, loop or `if` headers; objects
    holding a generator (`self.rng = np.random.default_rng()`): store a key and split it per use instead; draws
    from a generator passed in (a parameter annotated as one or named by convention: `rng`, `random_state`,
    `rstate`, `random`) or stored on an object (`self.rng.normal()`, `model.random.shuffle(x)`), which hold back
    the function's other fixes (under `jit` the draw would be frozen at trace time); a generator
    returned or handed on rather than bound to a local name (`return np.random.RandomState(seed)`); draws with
    no `jax.random` equivalent (`np.random.zipf`); draws in a function that another module calls from a place no
    key can be passed: a class (a method is never given a key), a lambda, a comprehension, a loop or `if` header,
    module-level code with no seed, a reference to the function, a function of its own that stays unconverted, or
    a module whose key threading is not applied after all (held back by its other findings, unsafe, failing: the
    runner tries those modules first, `jaxfix.runner.settle_project_facts`).
    Such a function keeps its signature, so that the other module still runs. Module-level draws stay NumPy. A
    function is taken for framework-called by its name (`test*`) or any non-transparent decorator: a library
    function named `test_...` or wrapped by a decorator that passes its arguments through also gets a fixed key of
    its own (an unsafe fix) rather than a `key` parameter.
    """

    CODE = "JX401"
    SUMMARY = "NumPy draws from hidden RNG state; thread an explicit jax.random key"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider)
    ORDER = 40
    PRIORITY = 10  # keys are threaded before loop/branch rewrites move draws into traced bodies (see Rule.PRIORITY)
    # a module that only calls a drawing function of another module has no "random" in it, but imports it
    # modules that mention `random`, then (as the project facts grow) modules that name a function gaining a key
    TRIGGERS = (b"random", b"rng", b"rstate")  # `rstate.uniform()`: a generator by its conventional name

    @classmethod
    def triggers(cls, project):
        facts = project.get(cls.CODE) or {}
        return cls.TRIGGERS + tuple(name.rsplit(".", 1)[-1].encode() for name in facts.get("needs_key", ()))
    summarize = staticmethod(random_keys.summarize)
    link = staticmethod(random_keys.link)
    cross_module = staticmethod(random_keys.cross_module)

    VALID = [
        Valid(_M + "X = np.random.normal(size=3)\n"),
        Valid("import jax\n\ndef f(key, x):\n    return x + jax.random.normal(key, x.shape)\n"),
        Valid("import random\n\ndef f():\n    return random.random()\n"),
        Valid(  # `jit` from the project's numba wrappers: numba compiles it and runs `np.random` itself (lenstronomy)
            "import numpy as np\nfrom .numba_util import jit\n\n@jit(nopython=True)\ndef noisy(x):\n"
            "    return x + np.random.normal(0.0, 1.0)\n"),
        Valid(  # handed to numba's `jit` by name (`noisy = jit(noisy_python)`, imported in a `try`): numba compiles it
            "import numpy as np\ntry:\n    from numba import jit\nexcept ImportError:\n    def jit(f, **kw):\n        return f\n\n"
            "def noisy_python(x):\n    return x + np.random.normal(0.0, 1.0)\n\nnoisy = jit(noisy_python, nopython=True)\n"),
    ]
    INVALID = [
        Invalid(
            _M + "def noisy(x, sigma):\n    return x + np.random.normal(0.0, sigma, size=x.shape)  # noise\n",
            expected="import jax\n\ndef noisy(key, x, sigma):\n"
            "    return x + sigma * jax.random.normal(key, x.shape)  # noise\n",
            lines=[3, 4],
        ),
        Invalid(
            _M + "def f(n, seed):\n    rng = np.random.default_rng(seed)\n    return rng.integers(0, 5, size=n)\n",
            expected="import jax\n\ndef f(n, seed):\n    key = jax.random.key(seed)\n"
            "    return jax.random.randint(key, n, 0, 5)\n",
            lines=[4, 5],
        ),
        Invalid(_M + "def f(n):\n    return [np.random.rand() for _ in range(n)]\n", expected=None, lines=[4]),
        Invalid(  # a seed that defaults to None is fresh OS entropy; `jax.random.key(None)` raises (POT)
            _M + "def f(c, random_state=None):\n    np.random.seed(random_state)\n    return c + np.random.uniform(size=c.shape)\n",
            expected=None, lines=[4, 5]),
        Invalid(  # the helper is left unconverted (its seed may be None), so its caller must not pass it a key (mlxtend)
            _M + "def pick(xs, seed=None):\n    if seed:\n        np.random.seed(seed)\n    return xs[np.random.randint(len(xs))]\n\n"
            "def pick_two(xs, seed=None):\n    return pick(xs, seed=seed), pick(xs)\n", expected=None, lines=[5, 6]),
        Invalid(  # a returned generator: the caller draws from it, so it cannot become a key here (pykalman)
            _M + "def check(seed):\n    if isinstance(seed, int):\n        return np.random.RandomState(seed)\n"
            "    raise ValueError(seed)\n", expected=None, lines=[5]),
        Invalid(_M + "class A:\n    def __init__(self):\n        self.rng = np.random.default_rng()\n", expected=None, lines=[5]),
        Invalid(  # pytest calls a `test*` function and would take a `key` parameter for a missing fixture: it makes its own
            _M + "def test_mean():\n    y = np.random.randn(1000)\n    assert abs(y.mean()) < 0.5\n",
            expected="import jax\n\ndef test_mean():\n    key = jax.random.key(0)\n    y = jax.random.normal(key, (1000,))\n"
                     "    assert abs(y.mean()) < 0.5\n",
            unsafe=True, lines=[3, 4]),
        Invalid(  # a decorator that supplies the arguments (nevergrad's `@testing.parametrized(...)`): the signature stays
            _M + "@testing.parametrized(a=(1,), b=(2,))\ndef check(n):\n    \"\"\"Doc.\"\"\"\n    return np.random.rand(n)\n",
            expected="import jax\n\n@testing.parametrized(a=(1,), b=(2,))\ndef check(n):\n    \"\"\"Doc.\"\"\"\n"
                     "    key = jax.random.key(0)\n    return jax.random.uniform(key, (n,))\n",
            unsafe=True, lines=[4, 6]),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        summary = random_keys.summarize(
            self.context.path, self.context.module_name, self.context.tree, self.context.source, project=False
        )
        facts = self.context.project_facts(self.CODE) or {}
        own = f"{summary['module']}."
        external = {q for q in facts.get("needs_key", ()) if not (q.startswith(own) and q[len(own):] in summary["functions"])}
        pinned = facts.get("pinned", {})
        self.pinned = dict(pinned) if isinstance(pinned, Mapping) else dict.fromkeys(pinned, "from another module")
        self.needs = set(random_keys.link({self.context.path: summary}, external, self.pinned)["needs_key"])
        self.summary = summary
        if not self.needs and not any(word.decode() in self.context.source for word in self.TRIGGERS):
            return
        key_names = key_names_in(self.context.tree, self.context.source) | {self.context.setting("key-name", "key")}
        self.names = Names(self.jax, self.jnp)
        collector = self._collect(node, key_names, external)
        self.changes: dict[cst.CSTNode, object] = {}
        self.findings: list[tuple[cst.CSTNode, str, Optional[cst.FunctionDef]]] = []  # fixed together
        self.unsafe: list[str] = []
        self.refused = False
        self.imports: tuple[str, ...] = ("jax",)
        by_scope: dict[Optional[cst.FunctionDef], list[Site]] = {}
        for site in collector.sites:
            by_scope.setdefault(site.scope, []).append(site)
        for stmt in node.body:
            if isinstance(stmt, cst.FunctionDef) and stmt in by_scope and stmt.name.value in summary["functions"]:
                # (not in the summary: compiled by numba, which runs `np.random` itself)
                self._function(stmt, by_scope[stmt])
        module_level(self, node, by_scope.get(None, []))
        for target, message, owner in self.findings:
            self._report(owner, target, message, changes=self.changes, unsafe=bool(self.unsafe),
                        title="thread explicit `jax.random` keys through this module", imports=self.imports)

    def _collect(self, node: cst.Module, key_names: set[str], external: set[str]) -> SiteCollector:
        """The module's random sites. A function whose own draws are refused (`_problems`: a seed that may be None,
        a draw JAX has no form of) is left unconverted, so it gains no key: it is taken as blocked and the functions
        that need a key are linked again, until none of them is refused. Else a caller would pass a subkey to a
        function that does not take one (`shuffle(subkey, arrays=...)`: a `TypeError`)."""
        summary = self.summary
        while True:
            collector = SiteCollector(summary, self.needs, lambda n: numpy_name(self, n), key_names)
            collector.stack.append(node)  # as a visit of the module would
            for stmt in with_possible_sites(node, self.context.tree, self.context.source, summary, self.needs):
                walk.visit(stmt, collector, tokens=False)  # sites are calls, comparisons and names
            collector.stack.pop()
            by_function: dict[cst.FunctionDef, list[Site]] = {}
            for site in collector.sites:
                if isinstance(site.scope, cst.FunctionDef) and site.scope.name.value in summary["functions"]:
                    by_function.setdefault(site.scope, []).append(site)
            refused = {
                fn.name.value for fn, sites in by_function.items()
                if f"{summary['module']}.{fn.name.value}" in self.needs
                and not summary["functions"][fn.name.value]["blocked"] and any(r for _, r in self._problems(fn, sites))
            }
            if not refused:
                return collector
            functions = dict(summary["functions"])
            for name in refused:
                functions[name] = {**functions[name], "blocked": [(None, "its own draws are left unconverted")]}
            summary = {**summary, "functions": functions}
            self.needs = set(random_keys.link({self.context.path: summary}, external, self.pinned)["needs_key"])

    def _problems(self, fn: cst.FunctionDef, sites: list[Site]) -> list[tuple[Site, str]]:
        """Each site of `fn` with why it cannot be rewritten ("" when it can)."""
        return [(s, s.blocked or self._untranslatable(s) or _seed_may_be_none(s, fn)) for s in sites]

    # ---- functions --------------------------------------------------------------------------------------------
    def _function(self, fn: cst.FunctionDef, sites: list[Site]) -> None:
        name = fn.name.value
        info = self.summary["functions"][name]
        qualified = f"{self.summary['module']}.{name}"
        problems = self._problems(fn, sites)
        blocked = {r for _, r in info["blocked"]}
        if qualified in self.pinned:
            blocked.add(f"it is called {self.pinned[qualified]}, so its signature must stay")
        if blocked or any(reason for _, reason in problems):
            self.refused = True
            for site, reason in problems:
                why = "; ".join(sorted(blocked)) or "see the other findings in it"
                self._refuse(site, reason or f"`{name}` is left unconverted: {why}")
            return
        taken = walk.name_values(fn)
        framework = info.get("framework")
        gains = qualified in self.needs and not info["keyed"] and not info["local_key"] and not framework
        key = info["keyed"][0] if info["keyed"] else self._fresh(taken, self.context.setting("key-name", "key"), *random_keys.KEY_NAMES)
        if gains:
            self._add_key_param(fn, key)
            public = "" if name.startswith("_") else "; public API change: callers outside this batch must pass a key"
            self.findings.append((fn, f"`{name}` draws random numbers: it now takes a PRNG key `{key}` first{public}", fn))
        uses = [s for s in sites if s.kind != "source"]
        direct = len(uses) == 1 and uses[0].kind != "call" and not uses[0].in_loop  # the key's only use: no split
        self._statements(sites, key, taken, params=parameters(fn), direct=direct)
        if framework and uses and not info["keyed"] and not info["local_key"] and not info["seeded"]:
            self._own_key(fn, key, framework)

    def _own_key(self, fn: cst.FunctionDef, key: str, why: str) -> None:
        """A function a framework calls (`random_keys.framework_called`) cannot be given a key: it makes its own,
        `key = jax.random.key(0)`, first in its body (after the docstring). Unsafe: it draws the same numbers on every
        run (and every call), where NumPy's hidden state gave new ones."""
        body = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else []
        docstring = bool(body) and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Expr) \
            and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString))
        if not body or docstring and len(body) == 1:
            return
        first = body[1] if docstring else body[0]
        inner = {node: value for node, value in self.changes.items() if node is not first and node in walk.parents(first)}
        current = self.changes.get(first, walk.replace(first, inner) if inner else first)
        for node in inner:
            del self.changes[node]
        rest = list(current.nodes) if isinstance(current, cst.FlattenSentinel) else [] if isinstance(current, cst.RemovalSentinel) else [current]
        if rest:
            rest[0] = rest[0].with_changes(leading_lines=())
        made = self.statements(f"{key} = {self.jax}.random.key(0)\n")
        self.changes[first] = self.replace_statement(first, [*made, *rest])
        message = (f"`{fn.name.value}` draws random numbers, and {why.removeprefix('it ')}: it keeps its signature and makes "
                   f"its own key, `{key} = jax.random.key(0)` (unsafe: the same numbers on every run; pass a seed in if they "
                   "should vary)")
        self.findings.append((fn, message, fn))
        self.unsafe.append(message)

    def _add_key_param(self, fn: cst.FunctionDef, key: str) -> None:
        params = fn.params
        new = cst.Param(cst.Name(key))
        if params.posonly_params:
            params = params.with_changes(posonly_params=[new, *params.posonly_params])
        else:
            params = params.with_changes(params=[new, *params.params])
        self.changes[fn.params] = params

    def _statements(self, sites: list[Site], key: str, taken: set[str], params: set[str], direct: bool = False) -> None:
        """One split per run of drawing statements in the same block (after any seeding there), before the first."""
        groups: dict[cst.SimpleStatementLine, list[Site]] = {}
        for site in sites:
            groups.setdefault(site.stmt, []).append(site)  # type: ignore[arg-type]
        runs: list[list[tuple[cst.SimpleStatementLine, list[Site]]]] = []
        open_runs: dict[int, list] = {}
        for stmt, group in groups.items():
            sources = [s for s in group if s.kind == "source"]
            if sources:
                self._source(stmt, sources[0], key)
                open_runs.pop(id(group[0].block), None)
                continue
            run = open_runs.get(id(group[0].block))
            if run is None:
                run = open_runs[id(group[0].block)] = []
                runs.append(run)
            run.append((stmt, group))
        for run in runs:
            total = sum(len(group) for _, group in run)
            names = ["subkey"] if total == 1 else [f"subkey{i + 1}" for i in range(total)]
            allocated = [key] if direct else [self._fresh(taken, n) for n in names]
            split = f"{key}, {', '.join(allocated)} = {self.jax}.random.split({key}{'' if total == 1 else f', {total + 1}'})\n"
            subkeys = iter(allocated)
            for index, (stmt, group) in enumerate(run):
                new = self._rewrite(stmt, group, [next(subkeys) for _ in group], params)
                first = index == 0 and not direct
                self.changes[stmt] = self.replace_statement(stmt, [*self.statements(split), new] if first else [new])

    def _rewrite(self, stmt: cst.SimpleStatementLine, group: list[Site], subkeys: list[str], params: set[str]) -> cst.BaseStatement:
        mapping = {}
        for site, subkey in zip(group, subkeys):
            mapping[site.node] = self._builder(site, subkey, params)
            self.findings.append((stmt, self._message(site, params), site.owner))
        shuffle = next((s for s in group if s.kind == "shuffle"), None)
        if shuffle is not None:
            target = self.code(shuffle.call.args[0].value)
            new = self.statements(f"{target} = {self.jax}.random.permutation({subkeys[0]}, {target})\n")[0]
        else:
            new = stmt.visit(_Swap(mapping))
        return new.with_changes(leading_lines=())

    def _builder(self, site: Site, subkey: str, params: set[str]):
        if site.kind == "call":
            return lambda updated: updated.with_changes(args=[cst.Arg(cst.Name(subkey)), *updated.args])
        if site.kind == "shuffle":
            arg = site.call.args[0].value if site.call.args else None
            if not isinstance(arg, cst.Name) or len(site.call.args) != 1:
                self.unsafe.append("shuffle of a non-name")
            elif arg.value in params:
                self.unsafe.append(f"`{arg.value}` is a parameter: its caller no longer sees it shuffled in place")
            return lambda updated: updated
        if site.kind == "bernoulli":
            def build(updated: cst.Comparison) -> cst.BaseExpression:
                comparison = updated.comparisons[0]
                text = bernoulli(site.method, updated.left, comparison.operator, comparison.comparator, self.code, self.names, subkey)
                if text is None:
                    return updated.with_changes(left=self._draw(site.method, updated.left, subkey))
                return self.expr(text)
            return build
        return lambda updated: self._draw(site.method, updated, subkey)

    def _untranslatable(self, site: Site) -> str:
        if site.kind not in ("draw", "bernoulli"):
            return ""
        return translate(site.method, site.call, self.code, self.names, "subkey")[1]

    def _draw(self, method: str, call: cst.Call, subkey: str) -> cst.BaseExpression:
        text, reason = translate(method, call, self.code, self.names, subkey)
        if text is None:
            raise _Untranslatable(reason)
        if f"{self.jnp}." in text:
            self.imports = ("jax", "jnp")
        return self.expr(text)

    def _source(self, stmt: cst.SimpleStatementLine, site: Site, key: str) -> None:
        call = site.call
        args = call.args if site.method != "Generator" or not call.args else getattr(call.args[0].value, "args", ())
        if not args:
            self.changes[stmt] = cst.RemovalSentinel.REMOVE
            self.findings.append((stmt, f"`{self.code(call)}`: an unseeded generator; draws now use the caller's key", site.owner))
            return
        seed = self.code(args[0].value)
        new = self.statements(f"{key} = {self.jax}.random.key({seed})\n")
        self.changes[stmt] = self.replace_statement(stmt, new)
        message = (
            f"`{self.code(call)}` seeds hidden RNG state; use a typed key `{key} = jax.random.key({seed})` "
            "(same distributions, but not NumPy's numbers for this seed: values pinned in tests need updating)"
        )
        self.findings.append((stmt, message, site.owner))

    def _message(self, site: Site, params: set[str]) -> str:
        target = site.call.args[0].value if site.kind == "shuffle" and site.call.args else None
        if isinstance(target, cst.Name) and target.value in params:
            return (
                f"`{self.code(site.call)}` shuffles the caller's array in place; JAX arrays are immutable, so the "
                f"rewrite rebinds `{target.value}` locally (unsafe: the caller no longer sees it shuffled; return it)"
            )
        if site.kind == "call":
            return f"`{site.method.rpartition('.')[2]}` now takes a PRNG key: pass it a fresh subkey"
        return f"`{self.code(site.call.func)}` draws from hidden NumPy RNG state (frozen at trace time under `jit`); use `jax.random` with a fresh subkey"

    def _report(self, owner: Optional[cst.FunctionDef], node: cst.CSTNode, message: str, **fix) -> None:
        """Report; while the finding stands unfixed, other rules' fixes in its function are held back (a loop or
        branch rewrite would move the NumPy draw into a traced body, where it is frozen at trace time)."""
        self.report(node, message, **fix)
        self.reports[-1].scope = owner

    def _refuse(self, site: Site, reason: str) -> None:
        target = site.stmt or site.node
        what = self.code(site.call.func) if site.call is not None else self.code(site.node)
        self._report(site.owner, target, f"`{what}`: {reason}")
        if site.kind in ("call", "ref"):
            self.unsafe.append(reason)

    # ---- module level -----------------------------------------------------------------------------------------
    def _fresh(self, taken: set[str], *candidates: str) -> str:
        for name in candidates:
            if name not in taken:
                taken.add(name)
                return name
        base, i = candidates[0], 2
        while f"{base}{i}" in taken:
            i += 1
        taken.add(f"{base}{i}")
        return f"{base}{i}"


def _seed_may_be_none(site: Site, fn: cst.FunctionDef) -> str:
    """Why a seeding site cannot become `jax.random.key(seed)`: the seed is `None`, or a parameter that defaults to
    `None` and is not rebound here. NumPy takes `None` as fresh entropy from the OS; `jax.random.key(None)` raises,
    and on the default path (POT's `random_state=None`)."""
    if site.kind != "source" or site.call is None:
        return ""
    call = site.call
    args = call.args if site.method != "Generator" or not call.args else getattr(call.args[0].value, "args", ())
    seed = args[0].value if args else None
    if not isinstance(seed, cst.Name):
        return ""
    params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
    default = next((p.default for p in params if p.name.value == seed.value), None)
    if seed.value != "None" and not (isinstance(default, cst.Name) and default.value == "None"):
        return ""
    rebound = any(
        isinstance(t, cst.Name) and t.value == seed.value
        for node in walk.nodes_of(fn.body, cst.Assign) for target in node.targets for t in walk.nodes_of(target.target, cst.Name)
    ) or any(isinstance(n.target, cst.Name) and n.target.value == seed.value for n in walk.nodes_of(fn.body, cst.AugAssign))
    if rebound and seed.value != "None":
        return ""
    what = "`None`" if seed.value == "None" else f"`{seed.value}`, which defaults to `None`,"
    return (f"the seed is {what} which NumPy takes as fresh entropy from the OS; `jax.random.key(None)` raises, and "
            "JAX has no entropy of its own: take a key (or an int seed) and update the callers by hand")


class _Untranslatable(Exception):
    pass


class _Swap(cst.CSTTransformer):
    def __init__(self, mapping: dict) -> None:
        super().__init__()
        self.mapping = mapping

    def on_leave(self, original_node, updated_node):
        build = self.mapping.get(original_node)
        return build(updated_node) if build is not None else updated_node
