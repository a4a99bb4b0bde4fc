"""`jaxfix.analysis.positions.PositionProvider` answers exactly what LibCST's `PositionProvider` answers."""

import libcst as cst
from libcst.metadata import MetadataWrapper
from libcst.metadata import PositionProvider as LibcstPositions

from jaxfix import walk
from jaxfix.analysis.positions import PositionProvider
from jaxfix.testing.corpus import fixture_files

TRICKY = (
    "x = (1 +\r\n     2)  # crlf\r\n"
    "def f(a, *, b=3):\r\n    if a:\r\n        return [i for i in range(b)]\r\n    return f'{a!r:>{b}}'\r\n"
)


def _modules():
    yield "tricky", cst.parse_module(TRICKY)
    for name, code, _ in fixture_files():
        if name.endswith(".before.py"):
            yield name, cst.parse_module(code)


def test_same_positions_as_libcst_for_every_node():
    for name, module in _modules():
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        theirs = wrapper.resolve(LibcstPositions)
        ours = wrapper.resolve(PositionProvider)
        for node in walk.walk(module):
            assert node in ours, (name, type(node).__name__)
            assert ours[node] == theirs[node], (name, type(node).__name__)


def test_lookups():
    module = cst.parse_module("a = 1\n")
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    stranger = cst.Name("a")
    assert positions.get(stranger) is None and stranger not in positions
    target = module.body[0].body[0].targets[0].target
    assert positions[target].start.line == 1 and positions[target].end.column == 1
    assert positions[target] is positions[target]  # built once


EDGES = ["", "\n", "x = 1", "# only a comment", "# c\n\nx = 1\n# trailing\n", "\n\n", "if x:\n    pass\n# end"]


def test_layout_from_pieces_matches_one_code_generation():
    """`Layout` assembles the code and spans from top-level pieces (cached by element): the same as generating the
    whole module, also after elements change and the cached pieces of the others are reused."""
    from jaxfix.analysis import positions

    modules = [(repr(code), cst.parse_module(code)) for code in EDGES] + list(_modules())
    for name, module in modules:
        for variant in (module, module.with_changes(body=list(reversed(module.body))), module.with_changes(body=module.body[1:])):
            layout = positions.Layout(variant)
            assert layout.code == variant.code, name
            spans = positions.spans_of(variant)
            assert len(layout) == len(spans), name
            assert all(layout.get(key) == span for key, span in spans.items()), name
    positions.forget()


def test_a_node_in_two_statements_is_seen():
    from jaxfix.analysis import positions

    module = cst.parse_module("a = b\nc = d\n")
    shared = cst.Name("z")
    first = module.body[0].with_changes(body=[module.body[0].body[0].with_changes(value=shared)])
    second = module.body[1].with_changes(body=[module.body[1].body[0].with_changes(value=shared)])
    text, layout = positions.code_and_spans(module.with_changes(body=[first, second]))
    assert text == "a = z\nc = z\n" and layout is None
    positions.forget()


MULTILINE = (
    "def f(x, a):\n"
    "    if x:\n"
    "        return foo(a,\n"
    "            x) + [*a, x] + g(\n"
    "            # a comment\n"
    "            a)\n"
    "    y = {'k': [*a, *x],\n"
    "         'j': (a +\n"
    "               x)}\n"
)


def test_text_of_an_expression_is_its_code():
    """`Layout.text` (what `Rule.code` reads instead of generating) is `code_for_node` wherever it answers, on
    every example and fixture, tab- and CRLF-indented copies, and multi-line expressions inside blocks; it answers
    for every one-line expression without parentheses."""
    from jaxfix.analysis import positions
    from jaxfix.testing.corpus import examples

    sources = [MULTILINE, *(code for _, code, _ in examples())] + [code for _, module in _modules() for code in [module.code]]
    variants = [v for code in sources for v in (code, code.replace("\n", "\r\n"), code.replace("    ", "\t"))]
    answered = 0
    for code in variants:
        try:
            module = cst.parse_module(code)
        except cst.ParserSyntaxError:
            continue  # a tab-indented copy that mixes tabs and spaces
        layout = positions.Layout(module)
        for node in walk.walk(module):
            text = layout.text(node)
            if text is not None:
                answered += 1
                assert isinstance(node, cst.BaseExpression) and text == module.code_for_node(node), (code, type(node).__name__)
            elif isinstance(node, cst.BaseExpression) and not node.lpar and not node.rpar and not isinstance(node, cst.StarredElement):
                assert "\n" in module.code_for_node(node) or "\r" in module.code_for_node(node), (code, type(node).__name__)
        positions.forget()
    assert answered > 10_000


def test_a_cached_piece_is_not_used_for_another_code_style():
    from jaxfix.analysis import positions

    statement = cst.parse_module("if x:\n    y = 1\n").body[0].with_changes(body=cst.IndentedBlock([cst.parse_statement("y = 1\n")]))
    spaces = cst.parse_module("a = 1\n").with_changes(body=[statement])
    tabs = cst.parse_module("if a:\r\n\tb = 1\r\n").with_changes(body=[statement])
    assert positions.Layout(spaces).code == spaces.code
    assert positions.Layout(tabs).code == tabs.code == "if x:\r\n\ty = 1\r\n"
    positions.forget()
