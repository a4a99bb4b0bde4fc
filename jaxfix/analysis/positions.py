"""Line and column of each node, computed when first asked for and without an object per node.

LibCST's `PositionProvider` generates the module's code once per pass and creates a `CodeRange` (two frozen
`CodePosition`s) for every node, through a generator-based context manager for each statement and expression; the
engine and rules then ask for the positions of a few dozen nodes. `PositionProvider` here gives the same answers
(`self.get_metadata(PositionProvider, node)` is a `CodeRange`, syntactic: leading and trailing whitespace left
out, as LibCST's). The first time anything is asked, a `Layout` of the module is built: the code of each top-level
element (header line, statement, footer line) with its nodes' spans as token indices, generated once per file and
element and cached (after fixes, only the statements they rebuilt are generated again; the engine also takes the
code of a fixed module from its `Layout`). A node's line and column are worked out, and its `CodeRange` built, when
that node is asked for. `tests/analysis/test_positions.py` compares the positions with LibCST's on every node of
the fixtures, and the `Layout` with one code generation of the whole module.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import TYPE_CHECKING, Iterator, Mapping, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import BaseMetadataProvider, CodePosition, CodeRange

if TYPE_CHECKING:
    from libcst.metadata import MetadataWrapper

_NEWLINE = re.compile(r"\r\n?|\n")

Span = tuple[int, int, int, int]  # start line, start column, end line, end column


class _State(CodegenState):
    """LibCST's `PositionProvidingCodegenState`, recording each node's span as token indices (`[start, end)` in
    `tokens`) keyed by node id: lines and columns are worked out from them only for the nodes asked about, so the
    code generation itself does little more than LibCST's plain one."""

    def __init__(self, default_indent: str, default_newline: str) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.starts: list[int] = []
        self.spans: dict[int, tuple[int, int]] = {}
        self.repeated = False  # a node object generated twice (it sits at two places in the tree)
        self.drop_last = False

    def pop_trailing_newline(self) -> None:
        # the module's last line break is left out of its code, but, as in LibCST, not out of its span
        self.drop_last = bool(self.tokens)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.spans:
            self.repeated = True
        self.starts.append(len(self.tokens))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        key = id(node)
        if key not in self.spans:  # a syntactic position recorded inside the node's code generation wins
            self.spans[key] = (start, len(self.tokens))

    def record_syntactic_position(  # type: ignore[override]
        self, node: cst.CSTNode, *, start_node: Optional[cst.CSTNode] = None, end_node: Optional[cst.CSTNode] = None
    ) -> "_Syntactic":
        return _Syntactic(self, node, start_node, end_node)


class _Syntactic:
    """The context manager `record_syntactic_position` returns (a class: LibCST's generator-based one costs more
    than the rest of the bookkeeping)."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _State, node: cst.CSTNode, start_node: Optional[cst.CSTNode], end_node: Optional[cst.CSTNode]) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = len(self.state.tokens)

    def __exit__(self, *exc: object) -> None:
        state = self.state
        start = state.spans[id(self.start_node)][0] if self.start_node is not None else self.start
        end = state.spans[id(self.end_node)][1] if self.end_node is not None else len(state.tokens)
        state.spans[id(self.node)] = (start, end)


class _Text:
    """Generated tokens joined, with what turns a token index into a line (counted from `first`) and column."""

    __slots__ = ("code", "offsets", "line_starts")

    def __init__(self, tokens: list[str]) -> None:
        self.code = "".join(tokens)
        self.offsets = [0, *itertools.accumulate(map(len, tokens))]
        self.line_starts = [0, *(m.end() for m in _NEWLINE.finditer(self.code))]

    def point(self, token: int, first: int) -> tuple[int, int]:
        offset = self.offsets[token]
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + first, offset - self.line_starts[line]


def spans_of(module: cst.Module) -> dict[int, Span]:
    """id(node) -> (start line, start column, end line, end column) for every node of `module`, from one code
    generation of the whole module (the reference `Layout` is tested against)."""
    state = _State(module.default_indent, module.default_newline)
    module._codegen(state)
    text = _Text(state.tokens)
    return {key: (*text.point(a, 1), *text.point(b, 1)) for key, (a, b) in state.spans.items()}


class _Piece:
    """The code of one top-level element of a module (a header or footer line, a statement) and its nodes' spans,
    as token indices: the same wherever the element sits in a module (a top-level element starts at column 0 and
    its code does not depend on what is around it)."""

    __slots__ = ("node", "style", "text", "code", "spans", "lines", "last_token", "repeated")

    def __init__(self, node: cst.CSTNode, default_indent: str, default_newline: str) -> None:
        state = _State(default_indent, default_newline)
        node._codegen(state)
        self.node = node  # holds it, so the ids in `spans` are not reused while the piece is cached
        self.style = (default_indent, default_newline)  # the code depends on the module's defaults too
        self.text = _Text(state.tokens)
        self.code = self.text.code
        self.spans = state.spans
        self.lines = len(self.text.line_starts) - 1
        self.last_token = state.tokens[-1] if state.tokens else ""
        self.repeated = state.repeated or self.text.line_starts[-1] != len(self.code)  # each ends with a line break


class Layout:
    """Code and node spans of a module, assembled from its top-level elements' `_Piece`s (as `Module` generates its
    code); pieces are cached by element, so after fixes only the elements they rebuilt are generated again."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        pieces = [_piece(n, module) for n in (*module.header, *module.body, *module.footer)]
        self.repeated = any(p.repeated for p in pieces)
        self.owner: dict[int, tuple[_Piece, int]] = {}  # id(node) -> (its piece, the piece's first line)
        line = 1
        for piece in pieces:
            spans = piece.spans
            if not self.repeated and not self.owner.keys().isdisjoint(spans):
                self.repeated = True  # a node object in two elements
            self.owner.update(dict.fromkeys(spans, (piece, line)))
            line += piece.lines
        code = "".join(p.code for p in pieces)
        if module.has_trailing_newline:
            if not code:  # nothing in the header, body or footer: `Module` keeps the line break
                code, line = module.default_newline, line + 1
        elif pieces and pieces[-1].last_token:
            code = code[: len(code) - len(pieces[-1].last_token)]  # `Module` drops the last line break
        self.code = code
        self.module_span: Span = (1, 0, line, 0)

    def get(self, key: int) -> Optional[Span]:
        found = self.owner.get(key)
        if found is None:
            return self.module_span if key == id(self.module) else None
        piece, line = found
        start, end = piece.spans[key]
        return (*piece.text.point(start, line), *piece.text.point(end, line))

    def text(self, node: cst.CSTNode) -> Optional[str]:
        """`module.code_for_node(node)` for a one-line expression without parentheses (its code is its syntactic
        span), read from the generated code; None for other nodes. Not for an expression over several lines: in
        the module its continuation lines carry the enclosing block's indentation, which `code_for_node` leaves
        out; nor for a starred element, whose comma is its own but outside its span."""
        if not isinstance(node, cst.BaseExpression) or node.lpar or node.rpar or isinstance(node, cst.StarredElement):
            return None
        found = self.owner.get(id(node))
        if found is None:
            return None
        piece = found[0]
        start, end = piece.spans[id(node)]
        offsets = piece.text.offsets
        text = piece.code[offsets[start] : offsets[end]]
        return None if "\n" in text or "\r" in text else text

    def __contains__(self, key: int) -> bool:
        return key in self.owner or key == id(self.module)

    def __len__(self) -> int:
        return len(self.owner) + 1


_PIECES: dict[int, _Piece] = {}


def _piece(node: cst.CSTNode, module: cst.Module) -> _Piece:
    found = _PIECES.get(id(node))
    if found is not None and found.node is node and found.style == (module.default_indent, module.default_newline):
        return found
    found = _PIECES[id(node)] = _Piece(node, module.default_indent, module.default_newline)
    return found


def code_and_spans(module: cst.Module) -> tuple[str, Optional[Layout]]:
    """`module.code` and, from the same code generation, the spans of its nodes (a `Layout`); the spans are None
    when a node object sits at two places in the tree (positions keyed by node would be ambiguous)."""
    layout = Layout(module)
    return layout.code, (None if layout.repeated else layout)


def code_of(module: cst.Module) -> str:
    """`module.code`, generating only the top-level elements not generated before (`Layout`)."""
    return Layout(module).code


_primed: Optional[tuple[cst.Module, Layout]] = None


def prime(module: cst.Module, layout: Layout) -> None:
    """The spans of `module` are known (`code_and_spans`): the next `PositionProvider` over it uses them instead of
    generating its code again."""
    global _primed
    _primed = (module, layout)


def forget() -> None:
    """Drop the primed spans and the cached pieces (the engine calls this after each file)."""
    global _primed
    _primed = None
    _PIECES.clear()


class LazyPositions(Mapping[cst.CSTNode, CodeRange]):
    def __init__(self, module: cst.Module) -> None:
        global _primed
        self._module = module
        self._spans: Optional[Layout] = None
        if _primed is not None and _primed[0] is module:
            self._spans = _primed[1]
            _primed = None
        self._ranges: dict[int, CodeRange] = {}

    def _all(self) -> Layout:
        if self._spans is None:
            self._spans = Layout(self._module)
        return self._spans

    def get(self, node: cst.CSTNode, default: object = None) -> object:  # type: ignore[override]
        key = id(node)
        found = self._ranges.get(key)
        if found is not None:
            return found
        span = self._all().get(key)
        if span is None:
            return default
        found = self._ranges[key] = CodeRange(CodePosition(span[0], span[1]), CodePosition(span[2], span[3]))
        return found

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self.get(node, _MISSING)
        if found is _MISSING:
            raise KeyError(node)
        return found  # type: ignore[return-value]

    def text(self, node: cst.CSTNode) -> Optional[str]:
        """`Layout.text`."""
        return self._all().text(node)

    def __contains__(self, node: object) -> bool:
        return id(node) in self._all()

    def __iter__(self) -> Iterator[cst.CSTNode]:
        raise TypeError("positions are looked up by node, not listed")

    def __len__(self) -> int:
        return len(self._all())


_MISSING = object()


class PositionProvider(BaseMetadataProvider[CodeRange]):
    """node -> its syntactic `CodeRange` (as LibCST's `PositionProvider`), computed on first use."""

    def _gen(self, wrapper: "MetadataWrapper") -> Mapping[cst.CSTNode, CodeRange]:  # type: ignore[override]
        return LazyPositions(wrapper.module)
