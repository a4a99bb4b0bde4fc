"""The rule base class: a LibCST visitor that reports findings, each with an optional fix.

A rule is one module in `codemods/` holding one `Rule` subclass. It:

- declares its code (`JX` + three digits), a one-line summary, what fixes it can offer, the metadata providers it
  reads (`METADATA_DEPENDENCIES`), and embedded `VALID` / `INVALID` examples (tests are generated from them);
- overrides `visit_<Node>` / `leave_<Node>` only to *look*; it never edits the tree itself. It calls
  `self.report(node, message, replacement=..., unsafe=...)`, and the engine decides which fixes to apply, in which
  order, and checks that the result parses.

The docstring uses ruff's headings (What it does / Why is this bad? / Example / Use instead / Fix safety /
Known problems); `jaxfix explain CODE` prints it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Optional, Sequence, Union

import libcst as cst
from libcst.metadata import ProviderT

from jaxfix import walk
from jaxfix.analysis.positions import LazyPositions, PositionProvider
from jaxfix.imports import DATA_LIBRARIES, UNIT_LIBRARIES, top_level_import
from jaxfix.types import Applicability, FixAvailability

if TYPE_CHECKING:
    from jaxfix.context import RuleContext

Replacement = Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel, "Deferred"]


class Deferred:
    """A replacement built only if its fix is applied: never by `check`, nor when a fix overlapping it is chosen on
    this pass (the same finding is reported again on the next), nor for an unsafe fix without `--unsafe-fixes`.
    For rules whose replacement costs much more than deciding the finding (the message, safety, title and imports
    must not depend on it). `build()` returns the replacement; it runs after the rules' traversal, when
    `get_metadata` no longer answers: read any metadata it needs before. `resolved(value)` is what the engine
    applies."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[], Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]]) -> None:
        self.build = build


def resolved(value: Replacement) -> Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]:
    """A replacement, built if it was `Deferred`."""
    return value.build() if isinstance(value, Deferred) else value


@dataclass(frozen=True)
class ProjectIndex:
    """A project index that several rules read (each declares it in `Rule.INDEXES`; the runner builds it once per run,
    whichever of them are selected, and stores `link(summaries)` as the project facts under `key`, read with
    `context.project.get(key)`). Only the files `wanted(data, module_name, is_package, modules)` accepts, on their
    bytes and the dotted names of the run's modules, are parsed (with `ast`) and summarised:
    `summarize(path, module_name, tree, modules)`."""

    key: str
    wanted: Callable[[bytes, str, bool, frozenset], bool]
    summarize: Callable[[str, str, Any, frozenset], Any]
    link: Callable[[dict], Any]


class _NoFix:
    def __repr__(self) -> str:
        return "NO_FIX"


NO_FIX: Any = _NoFix()


@dataclass(frozen=True)
class Valid:
    """Code on which the rule must report nothing."""

    code: str
    settings: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Invalid:
    """Code on which the rule must report at least one finding.

    `expected`: the code after applying this rule's fixes (safe ones; unsafe ones too when `unsafe=True`, in which
    case the safe-only run must leave the code unchanged). `None` means diagnostic only: nothing may change.
    `lines`: when given, the 1-based lines the findings must be reported at (relative to the dedented code).
    """

    code: str
    expected: Optional[str] = None
    unsafe: bool = False
    lines: Optional[Sequence[int]] = None
    settings: Mapping[str, object] = field(default_factory=dict)


@dataclass
class Report:
    """What a rule said about one node. Positions are filled in by the engine."""

    node: cst.CSTNode
    message: str
    changes: dict[cst.CSTNode, Replacement]  # empty: no fix
    applicability: Applicability
    title: Optional[str]
    imports: tuple[str, ...]
    rule: "Rule"
    # Set by report(..., blocks_function=True): while this finding stands unfixed, no other fix is applied inside
    # this function, so a function whose behaviour cannot be preserved is never left half-migrated.
    scope: Optional[cst.FunctionDef] = None
    # Set by report(..., leaves_function=True): the function must stay as it is (NumPy code that cannot migrate):
    # fixes that block until applied (JX401's key threading) are held back there too, not only the others.
    final: bool = False
    # Set by report(..., independent=True): the fix keeps the function's behaviour whatever else in it is fixed or
    # held back (JX501's widening of `isinstance(x, np.ndarray)` on a parameter the function never writes into: a
    # JAX array a migrated caller passes must pass the test, even where the function itself stays NumPy).
    independent: bool = False


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


class Rule(cst.BatchableCSTVisitor):
    CODE: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""
    # A finding reported without a fix leaves an in-place write as it is, so its array must stay a NumPy array: no
    # other fix is applied in the outermost function around it (a nested function may write into the outer one's
    # arrays). Set by the in-place rules (JX101, JX102, JX103).
    HOLDS_BACK_UNFIXED: ClassVar[bool] = False
    # The rule's findings that block their function (an in-place write whose unsafe fix is not applied) leave a NumPy
    # in-place write, so the function's arrays must stay NumPy arrays: even fixes that block until applied (JX401,
    # which would make a drawn array a JAX array) are held back there. Set by JX101, JX102, JX103, JX301.
    KEEPS_ARRAYS_NUMPY: ClassVar[bool] = False
    FIX: ClassVar[FixAvailability] = FixAvailability.NONE
    METADATA_DEPENDENCIES: ClassVar[Sequence[ProviderT]] = (PositionProvider,)
    VALID: ClassVar[Sequence[Union[Valid, str]]] = ()
    INVALID: ClassVar[Sequence[Invalid]] = ()
    # The file is only parsed for this rule if its bytes contain one of these (a cheap pre-check before LibCST).
    TRIGGERS: ClassVar[tuple[bytes, ...]] = (b"numpy",)
    # For rules with `summarize`: the bytes that make a file worth summarising in the project-index phase (default:
    # TRIGGERS). The rewrite phase asks `triggers(project)`, which may add what the linked facts name.
    INDEX_TRIGGERS: ClassVar[Optional[tuple[bytes, ...]]] = None
    # Position in the fixed application order (lower first); ties broken by code. See jaxfix.engine.
    ORDER: ClassVar[int] = 50
    # Where fixes overlap, a rule of higher PRIORITY is applied first whatever the spans (then smallest span first).
    # JX401 threads PRNG keys before loop/branch rewrites move NumPy draws into traced bodies, where they would freeze.
    PRIORITY: ClassVar[int] = 0
    # Optional second-level pre-check on the file's `ast` tree, `(tree, text) -> bool` (see `jaxfix.precheck`, e.g.
    # `staticmethod(numpy_in_functions)`): when every triggered rule has one and all say False, LibCST is skipped.
    may_apply_to_tree: ClassVar[Optional[Callable[[Any, str], bool]]] = None

    def __init__(self, context: "RuleContext") -> None:
        super().__init__()
        self.context = context
        self.reports: list[Report] = []
        self._functions: list[cst.FunctionDef] = []
        self._plain: list[bool] = []

    @property
    def current_function(self) -> Optional[cst.FunctionDef]:
        """The innermost function being visited (None at module or class level): rules rewrite only inside
        functions, since module-level NumPy code (constants, data loading) runs once on the host. None inside a
        plain-Python helper too (`jaxfix.analysis.plain_python.plain_python`: a parser, a config class), which is host
        code with no arrays in it; such a function's own `visit_FunctionDef`/`leave_FunctionDef` are not called."""
        if not self._functions or self._plain[-1]:
            return None
        return self._functions[-1]

    def enclosing_functions(self) -> list[cst.FunctionDef]:
        """The functions around the current one, outermost first (empty at module level and in a top-level function)."""
        return self._functions[:-1]

    def _is_plain(self, node: cst.FunctionDef) -> bool:
        from jaxfix.analysis.plain_python import (
            array_names, host_functions, lazy_array_imports, optional_array_imports, plain_python,
        )

        names = self.context.__dict__.get("_array_names")
        if names is None:
            names = self.context._array_names = array_names(self.context.imports)
            self.context._lazy_imports = lazy_array_imports(self.context.module)
            self.context._optional_imports = optional_array_imports(self.context.module)
            self.context._compiled = host_functions(self.context.module)
        if self._plain and not self._plain[-1]:
            # a nested function is plain only inside a plain one, or when it runs on the host (a SciPy callback)
            return node.name.value in self.context._compiled
        return plain_python(node, names, self.context._lazy_imports, self.context._compiled,
                            self.context._optional_imports)  # answered once per function (shared with TracednessProvider)

    # ---- identity -------------------------------------------------------------------------------------------
    @classmethod
    def name(cls) -> str:
        return _kebab(cls.__name__)

    @classmethod
    def module_name(cls) -> str:
        return cls.name().replace("-", "_")

    @classmethod
    def family(cls) -> str:
        return cls.CODE[:3]

    @classmethod
    def documentation(cls) -> str:
        return textwrap.dedent(cls.__doc__ or "").strip()

    # ---- project-wide facts (optional) ---------------------------------------------------------------------
    # A rule that needs facts about other modules (who calls whom) overrides both; the runner then summarises
    # every file before rewriting, links the summaries once, and hands the result to every file as
    # `self.context.project_facts(CODE)`.
    summarize: ClassVar[Optional[Callable[..., Any]]] = None  # (path, module_name, ast.Module) -> picklable
    # True: `summarize` is given the file's bytes instead of its `ast` tree (a summary a pattern search can make,
    # which costs a small part of a parse: the index then adds almost nothing to a run over files that need nothing)
    INDEX_READS_BYTES: ClassVar[bool] = False
    link: ClassVar[Optional[Callable[..., Any]]] = None  # (dict[path, summary]) -> picklable facts
    # For a rule whose facts count on its fix being applied in several files (a callee gains a parameter that its
    # callers in other modules pass): (facts, summaries, {path: bytes}) -> {path: {name: why}}, the files whose
    # fix the facts count on and, for each, the names `link(summaries, pinned=...)` must pin when that file's fix
    # is not applied after all (held back by other findings, unsafe, an error). The runner settles this with a
    # trial run of those files (`jaxfix.runner.settle_project_facts`).
    cross_module: ClassVar[Optional[Callable[..., dict[str, dict[str, str]]]]] = None

    # Project indexes shared with other rules (`ProjectIndex`): what the rule's analyses read of other modules.
    INDEXES: ClassVar[tuple[ProjectIndex, ...]] = ()
    # (project facts, module name) -> whether the facts say the rule has something to do in this module that the
    # module's own text does not show (a parameter another module passes a list): then the tree pre-checks
    # (`jaxfix.precheck`), which read the text alone, do not rule the rule out there.
    @classmethod
    def wanted_by_project(cls, project: Mapping[str, Any], module_name: str) -> bool:
        return False

    @classmethod
    def triggers(cls, project: Mapping[str, Any]) -> tuple[bytes, ...]:
        """The bytes a file must contain for this rule to parse it: TRIGGERS, plus what the project facts add (a
        rule that threads a change through callers adds the names of the functions it changes)."""
        return cls.TRIGGERS

    # ---- reporting ------------------------------------------------------------------------------------------
    def report(
        self,
        node: cst.CSTNode,
        message: str,
        *,
        replacement: Any = NO_FIX,
        changes: Optional[Mapping[cst.CSTNode, Replacement]] = None,
        unsafe: bool = False,
        title: Optional[str] = None,
        imports: Sequence[str] = (),
        blocks_function: bool = False,
        leaves_function: bool = False,
        independent: bool = False,
    ) -> None:
        """Report a finding at `node`.

        A fix is either `replacement` (for `node` itself) or `changes` (several nodes replaced at once, applied
        all together or not at all). `imports` names what the replacement uses: "jnp", "lax", "jax" (see
        `jaxfix.imports`); the engine adds each import once, in the file's style, if the fix is applied.
        `blocks_function`: the enclosing function cannot be migrated with its behaviour kept until this finding is
        fixed (e.g. a caller-visible mutation of an argument); other rules' fixes inside it are held back meanwhile,
        so `migrate` never turns code that fails loudly under `jit` into code that runs with different results.
        `leaves_function`: the same, and the function must stay as it is whatever else is fixed (it must stay NumPy),
        so no fix touches it, not even one that itself blocks until applied (threading random keys).
        `independent`: the fix is applied even where the function's other fixes are held back (`Report.independent`).
        """
        fix_changes: dict[cst.CSTNode, Replacement] = {}
        if replacement is not NO_FIX:
            fix_changes[node] = replacement
        if changes:
            fix_changes.update(changes)
        if fix_changes and not unsafe and self.data_library is not None:
            unsafe = True
            if self.data_library in UNIT_LIBRARIES:
                message += (f"; unsafe in this module, which uses `{self.data_library}`: a quantity may reach this "
                            "code, whose units NumPy keeps and `jax.numpy`, `jnp.where`, `lax` and `.at[]` updates drop "
                            "or reject (a result off by the unit's scale, or an error)")
            else:
                message += (f"; unsafe in this module, which uses `{self.data_library}`: NumPy takes its objects as "
                            "arrays, `jax.numpy` and JAX arrays do not (a DataFrame, Series, polynomial or autograd value "
                            "raises, or loses its labels)")
        self.reports.append(
            Report(
                node=node,
                message=message,
                changes=fix_changes,
                applicability=Applicability.UNSAFE if unsafe else Applicability.SAFE,
                title=title,
                imports=tuple(imports),
                rule=self,
                scope=self.current_function if blocks_function or leaves_function else None,
                final=leaves_function and self.current_function is not None,
                independent=independent,
            )
        )
        if self.HOLDS_BACK_UNFIXED and not fix_changes and self._functions:
            self.reports[-1].scope = self._functions[0]

    @property
    def data_library(self) -> Optional[str]:
        """The library of `jaxfix.imports.DATA_LIBRARIES` the module imports anywhere (pandas, autograd, ...), or of
        `UNIT_LIBRARIES` it imports at top level (astropy.units, pint), else None: there every fix is unsafe, since any
        value may be one of its objects (looked up once per pass)."""
        cache = self.context.__dict__
        if "_data_library" not in cache:
            module = self.context.module
            cache["_data_library"] = top_level_import(module, DATA_LIBRARIES, nested=True) or \
                top_level_import(module, UNIT_LIBRARIES)
        return cache["_data_library"]

    # ---- helpers for building replacements --------------------------------------------------------------------
    def code(self, node: cst.CSTNode) -> str:
        """The source text of `node` as it stands in the module (generated once per pass: rules and the helpers
        they call ask for the same nodes again and again)."""
        cache = self.context.__dict__.setdefault("_code_cache", {})
        text = cache.get(node)
        if text is None:
            positions = self.metadata.get(PositionProvider)
            text = positions.text(node) if isinstance(positions, LazyPositions) else None  # read, not generated
            if text is None:
                text = self.context.module.code_for_node(node)
            cache[node] = text
        return text

    def expr(self, source: str) -> cst.BaseExpression:
        return cst.parse_expression(source, config=self.context.module.config_for_parsing)

    @staticmethod
    def dotted(source: str) -> cst.BaseExpression:
        """`expr` of a dotted name (`jnp.linalg.norm`), built without the parser. Each token is a new object (the
        default `Dot()` of `cst.Attribute` is one object shared by every node built with it, and the engine keys
        positions and parents by node)."""
        head, *rest = source.split(".")
        node: cst.BaseExpression = cst.Name(head)
        for part in rest:
            dot = cst.Dot(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
            node = cst.Attribute(node, cst.Name(part), dot=dot)
        return node

    def statements(self, source: str) -> list[cst.BaseStatement]:
        """Parse one or more statements written at indentation zero (the engine re-indents them)."""
        module = cst.parse_module(textwrap.dedent(source), config=self.context.module.config_for_parsing)
        return list(module.body)

    def replace_statement(
        self, original: cst.BaseStatement, new: Sequence[cst.BaseStatement]
    ) -> Union[cst.BaseStatement, cst.FlattenSentinel, cst.RemovalSentinel]:
        """Replace `original` by `new`, keeping the comments above it and the comment at the end of its line."""
        new = list(new)
        if not new:
            return cst.RemovalSentinel.REMOVE
        first = new[0]
        new[0] = first.with_changes(leading_lines=[*original.leading_lines, *first.leading_lines])
        if isinstance(original, cst.SimpleStatementLine) and isinstance(new[-1], cst.SimpleStatementLine):
            if original.trailing_whitespace.comment is not None:
                new[-1] = new[-1].with_changes(trailing_whitespace=original.trailing_whitespace)
        return new[0] if len(new) == 1 else cst.FlattenSentinel(new)

    @property
    def jnp(self) -> str:
        """The local name of jax.numpy in this module (its existing alias, else `jnp`)."""
        return self.context.imports.jnp

    @property
    def lax(self) -> str:
        """`lax` or `jax.lax`, following the module's import style."""
        return self.context.imports.lax

    @property
    def jax(self) -> str:
        return self.context.imports.jax

    # ---- crash attribution ------------------------------------------------------------------------------------
    def _visitor_methods(self) -> Mapping[str, Callable[..., Any]]:
        """LibCST's `get_visitors` (visit_/leave_ methods that are not no-op stubs), with the names read off the
        class once (`walk.batched_hook_names`): LibCST's `inspect.getmembers` walks every attribute of the instance,
        hundreds of stubs included, and computes every `cached_property` of the rule while at it."""
        return {name: getattr(self, name) for name in walk.batched_hook_names(type(self))}

    def get_visitors(self) -> Mapping[str, Callable[..., Any]]:
        visitors = dict(self._visitor_methods())
        user_visit = visitors.get("visit_FunctionDef")
        user_leave = visitors.get("leave_FunctionDef")

        def visit_function(node: cst.FunctionDef) -> None:
            plain = self._is_plain(node)
            self._functions.append(node)
            self._plain.append(plain)
            if user_visit is not None and not plain:
                user_visit(node)

        def leave_function(node: cst.FunctionDef) -> None:
            if user_leave is not None and not self._plain[-1]:
                user_leave(node)
            self._functions.pop()
            self._plain.pop()

        visitors["visit_FunctionDef"] = visit_function
        visitors["leave_FunctionDef"] = leave_function
        return {name: _attributed(self, fn) for name, fn in visitors.items()}




class RuleCrash(Exception):
    """A rule raised while visiting; the file is reported and left unchanged."""

    def __init__(self, rule: type[Rule], error: BaseException) -> None:
        super().__init__(f"rule {rule.CODE} ({rule.name()}) crashed: {type(error).__name__}: {error}")
        self.rule = rule
        self.error = error


def _attributed(rule: Rule, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(node: cst.CSTNode) -> Any:
        try:
            return fn(node)
        except (RuleCrash, RecursionError):  # (an expression nested too deep: the engine says so, not "crashed")
            raise
        except Exception as error:  # noqa: BLE001 - any rule failure is isolated to its file
            raise RuleCrash(type(rule), error) from error

    return call
