"""Calls that hand values to worker processes: a process pool's `map`, `submit`, `apply` ..., joblib's `delayed`.

A value handed there is pickled to another process, most often one forked from this one (`multiprocessing`'s
default on Linux). JAX's runtime is multithreaded and does not survive `fork`: a worker that meets a JAX array (or
runs `jax.numpy` code) can deadlock, and a pool that ran before now hangs (pyswarms' `compute_objective_function`:
`pool.map(f, np.array_split(pos, n))`). NumPy arrays pickle and travel as plain buffers, so what goes there stays
NumPy.

`ProcessPools.read(module)` finds the module's names for the pool classes (`multiprocessing.Pool`, the `multiprocess`
fork's, `concurrent.futures.ProcessPoolExecutor`, a context's `ctx.Pool`) and the names (`pool = mp.Pool(n)`, `with
Pool(n) as pool:`, `self.pool = Pool()`) and attributes bound to an instance anywhere in the module (by name, not
by scope: a name bound to a pool in one function counts in every function); `handed(call)` tells a call that
hands its arguments to worker processes: a pool method (`POOL_METHODS`) called on such a name or directly on a
constructor call, or a call of what joblib's `delayed(f)` makes (`Parallel(n)(delayed(f)(x) for x in xs)`); and
`worker(name)` tells a function of the module that the workers run (the callable such a call is given, and the
module's functions it calls), whose `jax.numpy` code would hang in a forked worker. Thread pools (`ThreadPool`,
`ThreadPoolExecutor`, `multiprocessing.dummy.Pool`) share the process and are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Optional

import libcst as cst

from jaxfix import walk
from jaxfix.imports import absolute_imports, dotted_name

# process pool classes, by qualified name (a `multiprocessing` context's `.Pool` is found by its attribute)
POOL_CLASSES = frozenset({
    "multiprocessing.Pool", "multiprocessing.pool.Pool", "multiprocess.Pool", "multiprocess.pool.Pool",
    "concurrent.futures.ProcessPoolExecutor", "concurrent.futures.process.ProcessPoolExecutor",
    "pathos.multiprocessing.ProcessingPool", "pathos.pools.ProcessPool",
})
# classes of a process that runs `target(*args)` in a new one (forked on Linux), by qualified name (a context's
# `.Process` is found by its attribute)
PROCESS_CLASSES = frozenset({"multiprocessing.Process", "multiprocessing.context.Process", "multiprocess.Process",
                             "multiprocess.context.Process"})
# the methods that send their arguments to the workers
POOL_METHODS = frozenset({"map", "imap", "imap_unordered", "starmap", "apply", "apply_async", "map_async",
                          "starmap_async", "submit", "amap", "uimap"})
# modules whose `get_context(...)` gives a context with a `.Pool`
_CONTEXT_MODULES = frozenset({"multiprocessing", "multiprocess"})
_WATCHED = ("multiprocessing", "multiprocess", "concurrent", "pathos", "joblib")


@dataclass(frozen=True)
class ProcessPools:
    imports: tuple[tuple[str, str], ...] = ()  # (local name, qualified) for the watched modules' imports
    pools: frozenset[str] = frozenset()  # local names and attribute names (".pool") bound to a process pool
    contexts: frozenset[str] = frozenset()  # local names bound to a `multiprocessing` context (`ctx = mp.get_context()`)
    # (function or method name, the call that runs it in worker processes, as written), by name
    workers: tuple[tuple[str, str], ...] = ()
    # the module's functions and methods that return a new process pool (`def make_pool(): return mp.Pool(2)`), by name
    factories: frozenset[str] = frozenset()

    @classmethod
    def read(cls, module: cst.Module) -> "ProcessPools":
        imports = absolute_imports(module, lambda full: full.split(".")[0] in _WATCHED)
        if not imports:
            return cls()
        found = cls(tuple(sorted(imports.items())))
        contexts = {t.target.value for a in walk.nodes_of(module, cst.Assign) for t in a.targets  # type: ignore[attr-defined]
                    if isinstance(t.target, cst.Name) and found._context(a.value)}  # type: ignore[attr-defined]
        bindings = [([t.target for t in a.targets], a.value) for a in walk.nodes_of(module, cst.Assign)]  # type: ignore[attr-defined]
        bindings += [([w.asname.name], w.item) for w in walk.nodes_of(module, cst.WithItem)  # type: ignore[attr-defined]
                     if w.asname is not None]
        functions = walk.nodes_of(module, cst.FunctionDef)
        factories: frozenset[str] = frozenset()
        while True:  # the names bound to a pool, and the functions returning one (`pool = make_pool()`), to a fixed point
            found = cls(found.imports, frozenset(), frozenset(contexts), (), factories)
            pools: set[str] = set()
            for targets, value in bindings:
                for target in targets if found._constructor(value, contexts) else ():
                    if isinstance(target, cst.Name):
                        pools.add(target.value)
                    elif isinstance(target, cst.Attribute):
                        pools.add(f".{target.attr.value}")
            made = factories | {f.name.value for f in functions for r in walk.nodes_of(f.body, cst.Return)  # type: ignore[attr-defined]
                                if r.value is not None and (found._constructor(r.value, contexts)  # type: ignore[attr-defined]
                                                            or isinstance(r.value, cst.Name) and r.value.value in pools)}  # type: ignore[attr-defined]
            if made == factories:
                break
            factories = frozenset(made)
        found = cls(found.imports, frozenset(pools), frozenset(contexts), (), factories)
        return cls(found.imports, found.pools, found.contexts, found._workers(module), factories)

    def __bool__(self) -> bool:
        return bool(self.imports)

    def _qualified(self, func: cst.BaseExpression) -> str:
        """The qualified name of a dotted `func` through the module's imports of the watched modules, else ""."""
        name = dotted_name(func)
        head, _, rest = name.partition(".")
        full = dict(self.imports).get(head)
        if full is None:
            return ""
        return f"{full}.{rest}" if rest else full

    def _context(self, value: cst.BaseExpression) -> bool:
        """`mp.get_context("fork")`: a `multiprocessing` context, whose `.Pool` makes a process pool."""
        if not isinstance(value, cst.Call):
            return False
        qualified = self._qualified(value.func)
        return qualified.split(".")[0] in _CONTEXT_MODULES and qualified.endswith(".get_context")

    def _constructor(self, value: cst.BaseExpression, contexts: Collection[str]) -> bool:
        """`mp.Pool(n)`, `ProcessPoolExecutor()`, `mp.get_context("spawn").Pool(n)`, `ctx.Pool(n)`, or a call of a
        function of the module that returns one (`make_pool()`, `self.make_pool()`)."""
        if not isinstance(value, cst.Call):
            return False
        func = value.func
        if self._qualified(func) in POOL_CLASSES:
            return True
        if isinstance(func, cst.Name) and func.value in self.factories or isinstance(func, cst.Attribute) \
                and isinstance(func.value, cst.Name) and func.value.value == "self" and func.attr.value in self.factories:
            return True
        if isinstance(func, cst.Attribute) and func.attr.value == "Pool":
            owner = func.value
            return self._context(owner) or isinstance(owner, cst.Name) and owner.value in contexts
        return False

    def _process(self, call: cst.Call) -> bool:
        """`mp.Process(target=f, args=(x,))`, `ctx.Process(...)`, `mp.get_context("fork").Process(...)`: a process
        that runs `f(x)`."""
        func = call.func
        if self._qualified(func) in PROCESS_CLASSES:
            return True
        return isinstance(func, cst.Attribute) and func.attr.value == "Process" and (
            self._context(func.value) or isinstance(func.value, cst.Name) and func.value.value in self.contexts)

    def handed(self, call: cst.CSTNode) -> Optional[str]:
        """How `call` hands its arguments to worker processes, as written for a finding (`` `pool.map(...)`, a
        process pool's method ``), else None."""
        if not self or not isinstance(call, cst.Call):
            return None
        func = call.func
        if isinstance(func, cst.Call):  # `delayed(f)(x)`: joblib runs `f(x)` in a worker process
            qualified = self._qualified(func.func)
            return "`delayed(...)(...)` of joblib, whose `Parallel` runs it in worker processes" \
                if qualified in ("joblib.delayed", "joblib.parallel.delayed") else None
        if self._process(call):
            return f"`{dotted_name(func) or '...Process'}(...)`, which runs its target with its arguments in a new process"
        if not isinstance(func, cst.Attribute) or func.attr.value not in POOL_METHODS:
            return None
        owner = func.value
        pool = isinstance(owner, cst.Name) and owner.value in self.pools \
            or isinstance(owner, cst.Attribute) and f".{owner.attr.value}" in self.pools \
            or self._constructor(owner, self.contexts)
        if not pool:
            return None
        shown = dotted_name(func) or f"....{func.attr.value}"
        return f"`{shown}(...)`, a process pool's method, which sends it to worker processes"

    def _workers(self, module: cst.Module) -> tuple[tuple[str, str], ...]:
        """(function or method name, the call as written) for the module's functions that worker processes run: the
        callable a pool method is given first (`pool.map(f, xs)`, `ex.submit(self.step, x)`, `partial(f, k)`, a name
        bound to one of these: `fn = f`, then `pool.map(fn, xs)`), the
        function joblib's `delayed(f)` wraps, and, to a fixed point, the module's functions those call by name (or
        as `self.name`). In a forked worker, `jax.numpy` code hangs once the parent has started JAX's runtime."""
        defined = {f.name.value: f for f in walk.nodes_of(module, cst.FunctionDef)}  # type: ignore[attr-defined]
        # local names bound to a function of the module (`fn = _assign`, then `pool.map(fn, xs)`: dtaidistance's
        # k-means), by name as pools are
        aliases = {t.target.value: _function_named(a.value) for a in walk.nodes_of(module, cst.Assign)  # type: ignore[attr-defined]
                   for t in a.targets if isinstance(t.target, cst.Name)  # type: ignore[attr-defined]
                   and _function_named(a.value) in defined and t.target.value not in defined}  # type: ignore[attr-defined]
        found: dict[str, str] = {}
        for call in walk.nodes_of(module, cst.Call):
            if self.handed(call) is None:
                continue
            func = call.func  # type: ignore[attr-defined]
            given = func.args[0].value if isinstance(func, cst.Call) and func.args else \
                call.args[0].value if call.args and call.args[0].keyword is None else None  # type: ignore[attr-defined]
            if self._process(call):  # type: ignore[arg-type]
                given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "target"),  # type: ignore[attr-defined]
                             call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else None)  # type: ignore[attr-defined]
            if isinstance(given, cst.Call) and dotted_name(given.func).split(".")[-1] == "partial" and given.args:
                given = given.args[0].value  # `partial(f, k)`
            name = given.value if isinstance(given, cst.Name) else given.attr.value \
                if isinstance(given, cst.Attribute) else None
            name = aliases.get(name, name) if name not in defined else name  # type: ignore[arg-type]
            if name in defined:
                found.setdefault(name, _CODE.code_for_node(call).strip())
        pending = list(found)
        while pending:  # the module's functions a worker calls, by name or as `self.name`
            caller = pending.pop()
            for inner in walk.nodes_of(defined[caller].body, cst.Call):
                func = inner.func  # type: ignore[attr-defined]
                name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) \
                    and isinstance(func.value, cst.Name) and func.value.value == "self" else None
                if name in defined and name not in found:
                    found[name] = found[caller]
                    pending.append(name)
        return tuple(sorted(found.items()))

    def worker(self, name: str) -> Optional[str]:
        """The call (as written) that runs the module's function or method `name` in worker processes, else None."""
        return dict(self.workers).get(name)


_CODE = cst.Module([])


def _function_named(value: cst.BaseExpression) -> Optional[str]:
    """`f` of `f`, `self.f` or `partial(f, k)`: the name of the function a value is, else None."""
    if isinstance(value, cst.Call) and dotted_name(value.func).split(".")[-1] == "partial" and value.args:
        value = value.args[0].value
    if isinstance(value, cst.Name):
        return value.value
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        return value.attr.value
    return None
