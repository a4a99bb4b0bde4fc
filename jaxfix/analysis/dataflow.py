"""Per-function control flow, liveness and reaching definitions (after AutoGraph's `pyct/static_analysis`).

`DataflowProvider` puts a `FunctionFlow` on every FunctionDef; rules call `function_flow(rule, fn)`. The flow is
built lazily on first question, so a rule that never asks pays nothing.

The control-flow graph has one node per small statement (`a = 1; b = 2` are two) and one header node per compound
statement (`if`/`while` test, `for` iteration + target binding, `with` items, `try`, `match` subject). `return`
and `raise` go to the exit, `break`/`continue` to the loop's follow/header; every statement of a `try` body may jump
to each handler. Locals are dead at the exit.

Questions (statement = a SimpleStatementLine, a small statement inside one, or a compound statement):
- `reads(node)`, `writes(node)`, `mutates(node)`: activity of any node or list of statements (see activity.py).
- `live_in(stmt)`: the function's variables (parameters and names it binds; not globals) whose current value may be read before being rebound, from the start of `stmt`.
- `live_out(stmt)`: the same from the point where `stmt` completes normally (for a compound statement: where
  control goes after it; for a line ending in `return`: nothing).
- `reaching(stmt, name)`: the definitions of `name` that may reach the start of `stmt`: `Definition`s whose `node`
  is the defining statement (small statement, `for`, `with`, `except` handler, nested def) or the `cst.Param`.
- `maybe_undefined(stmt, name)`: some path from the function entry reaches `stmt` with `name` unbound.
- `unbound_reads(statements)`: the names a read in `statements` may find unbound (on some path from the entry).
- `uses(defining_stmt, name)`: the `Name` nodes that may read the value bound there (in a nested function too).
- `knows(stmt)`: whether `stmt` is in the function's own graph (questions about other statements raise KeyError).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional, Sequence, Union

import libcst as cst
from libcst.metadata import BatchableMetadataProvider

from jaxfix import walk
from jaxfix.analysis.activity import Activity, _Collector, analyse, parameter_names


@dataclass(frozen=True)
class Definition:
    name: str
    node: Optional[cst.CSTNode]  # None: unbound at function entry

    @property
    def is_parameter(self) -> bool:
        return isinstance(self.node, cst.Param)


@dataclass(eq=False)
class _Node:
    owner: Optional[cst.CSTNode]
    reads: list[cst.Name] = field(default_factory=list)
    writes: frozenset[str] = frozenset()
    succ: set[int] = field(default_factory=set)


class FunctionFlow:
    def __init__(self, function: cst.FunctionDef) -> None:
        self.function = function
        self.params: tuple[str, ...] = tuple(parameter_names(function))
        self._built = False

    # ---- activity (no graph needed) -----------------------------------------------------------------------------
    @staticmethod
    def activity(node: Union[cst.CSTNode, Sequence[cst.CSTNode]]) -> Activity:
        return analyse(list(node) if isinstance(node, (list, tuple)) else node)

    def reads(self, node: Union[cst.CSTNode, Sequence[cst.CSTNode]]) -> frozenset[str]:
        return self.activity(node).read_names

    def writes(self, node: Union[cst.CSTNode, Sequence[cst.CSTNode]]) -> frozenset[str]:
        return frozenset(self.activity(node).writes)

    def mutates(self, node: Union[cst.CSTNode, Sequence[cst.CSTNode]]) -> frozenset[str]:
        return frozenset(self.activity(node).mutates)

    # ---- graph questions ----------------------------------------------------------------------------------------
    def knows(self, stmt: cst.CSTNode) -> bool:
        """Whether `stmt` is a statement of this function's own graph (not one of a nested function, whose reads of
        the function's names `uses` reports as reads at the nested `def`)."""
        self._build()
        return stmt in self._entry

    def live_in(self, stmt: cst.CSTNode) -> frozenset[str]:
        self._build()
        return self._live_in[self._entry[stmt]]

    def live_out(self, stmt: cst.CSTNode) -> frozenset[str]:
        self._build()
        if stmt in self._last:
            return self._live_out[self._last[stmt]]
        return self._live_in[self._follow[stmt]]

    def reaching(self, stmt: cst.CSTNode, name: str) -> tuple[Definition, ...]:
        self._build()
        reach = self._reach_in[self._entry[stmt]] & self._by_name.get(name, 0)
        return tuple(self._defs[d] for d in _indices(reach) if self._defs[d].node is not None)

    def maybe_undefined(self, stmt: cst.CSTNode, name: str) -> bool:
        self._build()
        reach = self._reach_in[self._entry[stmt]] & self._by_name.get(name, 0)
        return any(self._defs[d].node is None for d in _indices(reach))

    def unbound_reads(self, statements: Sequence[cst.CSTNode]) -> frozenset[str]:
        """The names that a read in `statements` (statements of this graph, with everything nested in them) may find
        unbound: some path from the function entry reaches the read without binding the name."""
        self._build()
        inside = {n for stmt in statements for n in walk.nodes(stmt)}
        found: set[str] = set()
        for index, node in enumerate(self._nodes):
            if node.owner is None or node.owner not in inside:
                continue
            for name in node.reads:
                reach = self._reach_in[index] & self._by_name.get(name.value, 0)
                if any(self._defs[d].node is None for d in _indices(reach)):
                    found.add(name.value)
        return frozenset(found)

    def uses(self, defining_stmt: cst.CSTNode, name: str) -> tuple[cst.Name, ...]:
        self._build()
        ids = 0
        for d in _indices(self._by_name.get(name, 0)):
            if self._owner_matches(self._defs[d], defining_stmt):
                ids |= 1 << d
        found = []
        for index, node in enumerate(self._nodes):
            if self._reach_in[index] & ids:
                found.extend(n for n in node.reads if n.value == name)
        return tuple(found)

    def _owner_matches(self, definition: Definition, stmt: cst.CSTNode) -> bool:
        node = definition.node
        if node is stmt:
            return True
        return isinstance(stmt, cst.SimpleStatementLine) and any(node is small for small in stmt.body)

    # ---- construction -------------------------------------------------------------------------------------------
    def _build(self) -> None:
        if self._built:
            return
        self._nodes: list[_Node] = []
        self._entry: dict[cst.CSTNode, int] = {}
        self._follow: dict[cst.CSTNode, int] = {}
        self._last: dict[cst.CSTNode, int] = {}
        exit_id = self._new(None)
        self._exit = exit_id
        body = self.function.body
        statements = list(body.body) if isinstance(body, cst.IndentedBlock) else list(body.body)
        first = self._block(statements, exit_id, None)
        entry_id = self._new(None)
        self._nodes[entry_id].succ.add(first)
        self._start = entry_id
        self._entry[self.function] = entry_id
        self._liveness()
        self._reaching_definitions()
        self._built = True

    def _new(self, owner: Optional[cst.CSTNode], activity: Optional[Activity] = None, writes: Iterable[str] = ()) -> int:
        node = _Node(owner)
        if activity is not None:
            node.reads = list(activity.reads)
            node.writes = frozenset(activity.writes) | frozenset(writes)
        else:
            node.writes = frozenset(writes)
        self._nodes.append(node)
        return len(self._nodes) - 1

    def _block(self, statements: Sequence[cst.CSTNode], follow: int, loop: Optional[tuple[int, int]]) -> int:
        nxt = follow
        for stmt in reversed(statements):
            nxt = self._statement(stmt, nxt, loop)
        return nxt

    def _statement(self, stmt: cst.CSTNode, follow: int, loop: Optional[tuple[int, int]]) -> int:
        self._follow[stmt] = follow
        if isinstance(stmt, cst.SimpleStatementLine):
            nxt = follow
            last = None
            for small in reversed(stmt.body):
                nxt = self._small(small, nxt, loop)
                last = nxt if last is None else last
            self._last[stmt] = last if last is not None else nxt
            self._entry[stmt] = nxt
            return nxt
        if isinstance(stmt, cst.If):
            then_entry = self._block(stmt.body.body, follow, loop)
            else_entry = follow
            if isinstance(stmt.orelse, cst.If):
                else_entry = self._statement(stmt.orelse, follow, loop)
            elif isinstance(stmt.orelse, cst.Else):
                else_entry = self._block(stmt.orelse.body.body, follow, loop)
            header = self._new(stmt, analyse(stmt.test))
            self._nodes[header].succ |= {then_entry, else_entry}
        elif isinstance(stmt, (cst.While, cst.For)):
            header = self._new(stmt, analyse(stmt.test if isinstance(stmt, cst.While) else stmt.iter))
            else_entry = self._block(stmt.orelse.body.body, follow, loop) if stmt.orelse is not None else follow
            body_entry = self._block(stmt.body.body, header, (header, follow))
            if isinstance(stmt, cst.For):
                # the target is bound only on the way into the body: a loop that runs zero times leaves it as it was
                target = Activity()
                _Collector(target).target(stmt.target)
                binding = self._new(stmt, target)
                self._nodes[binding].succ.add(body_entry)
                body_entry = binding
            self._nodes[header].succ |= {body_entry, else_entry}
        elif isinstance(stmt, cst.With):
            activity = Activity()
            for item in stmt.items:
                activity.reads.extend(analyse(item).reads)
                activity.writes |= analyse(item).writes
            header = self._new(stmt, activity)
            self._nodes[header].succ.add(self._block(stmt.body.body, follow, loop))
        elif isinstance(stmt, cst.Try):
            after = follow
            if stmt.finalbody is not None:
                after = self._block(stmt.finalbody.body.body, follow, loop)
            after_body = self._block(stmt.orelse.body.body, after, loop) if stmt.orelse is not None else after
            handlers = []
            for handler in stmt.handlers:
                handler_activity = Activity()
                if handler.type is not None:
                    handler_activity.reads.extend(analyse(handler.type).reads)
                if handler.name is not None:
                    handler_activity.writes.add(handler.name.name.value)  # type: ignore[union-attr]
                hid = self._new(handler, handler_activity)
                self._nodes[hid].succ.add(self._block(handler.body.body, after, loop))
                self._entry[handler] = hid
                handlers.append(hid)
            start = len(self._nodes)
            body_entry = self._block(stmt.body.body, after_body, loop)
            for index in range(start, len(self._nodes)):
                self._nodes[index].succ |= set(handlers)
            header = self._new(stmt)
            self._nodes[header].succ |= {body_entry, *handlers}
        elif isinstance(stmt, cst.Match):
            header = self._new(stmt, analyse(stmt.subject))
            self._nodes[header].succ.add(follow)
            for case in stmt.cases:
                self._nodes[header].succ.add(self._block(case.body.body, follow, loop))
        else:  # nested def/class and anything else: one node with its activity
            header = self._new(stmt, analyse(stmt))
            self._nodes[header].succ.add(follow)
        self._entry[stmt] = header
        return header

    def _small(self, small: cst.CSTNode, follow: int, loop: Optional[tuple[int, int]]) -> int:
        node_id = self._new(small, analyse(small))
        node = self._nodes[node_id]
        if isinstance(small, (cst.Return, cst.Raise)):
            node.succ.add(self._exit)
        elif isinstance(small, cst.Break) and loop is not None:
            node.succ.add(loop[1])
        elif isinstance(small, cst.Continue) and loop is not None:
            node.succ.add(loop[0])
        else:
            node.succ.add(follow)
        self._entry[small] = node_id
        self._follow[small] = follow
        self._last[small] = node_id
        return node_id

    # ---- dataflow -----------------------------------------------------------------------------------------------
    def _liveness(self) -> None:
        # only the function's own variables (parameters and names it binds); globals and builtins are not tracked
        local_names = set(self.params).union(*(node.writes for node in self._nodes))
        n = len(self._nodes)
        live_in: list[frozenset[str]] = [frozenset()] * n
        live_out: list[frozenset[str]] = [frozenset()] * n
        preds: list[set[int]] = [set() for _ in range(n)]
        for index, node in enumerate(self._nodes):
            for s in node.succ:
                preds[s].add(index)
        # a nested function reads the variables it captures when it is called: a reference to it reads them
        captured = self._captured(local_names)
        node_reads = []
        for node in self._nodes:
            reads = {r.value for r in node.reads if r.value in local_names}
            for name in [r for r in reads if r in captured]:
                reads |= captured[name]
            node_reads.append(frozenset(reads))
        work = list(range(n))
        while work:
            index = work.pop()
            node = self._nodes[index]
            out: frozenset[str] = frozenset().union(*(live_in[s] for s in node.succ)) if node.succ else frozenset()
            reads = node_reads[index]
            new_in = reads | (out - node.writes)
            live_out[index] = out
            if new_in != live_in[index]:
                live_in[index] = new_in
                work.extend(preds[index])
        self._live_in, self._live_out = live_in, live_out

    def _captured(self, local_names: set[str]) -> dict[str, frozenset[str]]:
        """{nested function name: the function's variables it may read when called} (by name: a superset), for the
        nested `def`s and the lambdas assigned to a name; a name a nested function calls adds what that one reads."""
        found: dict[str, set[str]] = {}
        for node in walk.nodes(self.function.body):
            # its free names: not its parameters or its own locals (`def body(i, d)` reads no enclosing `i`)
            if isinstance(node, cst.FunctionDef):
                found.setdefault(node.name.value, set()).update(analyse(node).read_names)
            elif isinstance(node, cst.Assign) and isinstance(node.value, cst.Lambda):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        found.setdefault(target.target.value, set()).update(analyse(node.value).read_names)
        changed = True
        while changed:
            changed = False
            for name, names in found.items():
                more = set().union(*(found[n] for n in names if n in found and n != name))
                if not more <= names:
                    names |= more
                    changed = True
        return {name: frozenset(names & local_names) for name, names in found.items() if names & local_names}

    def _reaching_definitions(self) -> None:
        # sets of definitions are bit masks (bit d: `self._defs[d]`): unions and differences over a long function's
        # hundreds of definitions stay cheap
        defs: list[Definition] = []
        n = len(self._nodes)
        gen = [0] * n
        by_name: dict[str, int] = {}
        params = {p.name.value: p for p in _params(self.function)}
        local_names = set(params)
        for node in self._nodes:
            local_names |= node.writes
        start = self._start
        for name in sorted(local_names):
            bit = 1 << len(defs)
            defs.append(Definition(name, params.get(name)))
            gen[start] |= bit
            by_name[name] = by_name.get(name, 0) | bit
        for index, node in enumerate(self._nodes):
            for name in node.writes:
                bit = 1 << len(defs)
                defs.append(Definition(name, node.owner))
                gen[index] |= bit
                by_name[name] = by_name.get(name, 0) | bit
        keep = [0] * n  # the definitions a node lets through: all but those of the names it binds (its own excepted)
        everything = (1 << len(defs)) - 1
        for index, node in enumerate(self._nodes):
            killed = 0
            for name in node.writes:
                killed |= by_name[name]
            keep[index] = everything & ~(killed & ~gen[index])
        preds: list[list[int]] = [[] for _ in range(n)]
        for index, node in enumerate(self._nodes):
            for s in node.succ:
                preds[s].append(index)
        reach_in = [0] * n
        reach_out = list(gen)
        work = deque(range(n))
        queued = [True] * n
        while work:
            index = work.popleft()
            queued[index] = False
            incoming = 0
            for p in preds[index]:
                incoming |= reach_out[p]
            out = gen[index] | (incoming & keep[index])
            reach_in[index] = incoming
            if out != reach_out[index]:
                reach_out[index] = out
                for s in self._nodes[index].succ:
                    if not queued[s]:
                        queued[s] = True
                        work.append(s)
        self._defs = defs
        self._by_name = by_name
        self._reach_in = reach_in


def _indices(mask: int) -> Iterator[int]:
    """The positions of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _params(function: cst.FunctionDef) -> list[cst.Param]:
    p = function.params
    out = [*p.posonly_params, *p.params, *p.kwonly_params]
    for star in (p.star_arg, p.star_kwarg):
        if isinstance(star, cst.Param):
            out.append(star)
    return out


class DataflowProvider(BatchableMetadataProvider[FunctionFlow]):
    """Metadata on each FunctionDef: its FunctionFlow (built lazily)."""

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.set_metadata(node, FunctionFlow(node))


def function_flow(rule: cst.MetadataDependent, function: cst.FunctionDef) -> FunctionFlow:
    return rule.get_metadata(DataflowProvider, function)
