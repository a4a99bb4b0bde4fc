"""`isinstance(x, np.ndarray)` becomes `isinstance(x, (np.ndarray, jax.Array))`, for JX501 (numpy-namespace); for a
value NumPy gives as a scalar exactly when 0-d (`np.dot(r, r)`, `np.sum(x)`), `jnp.ndim(x) > 0`.

After the migration `x` is a JAX array (under `jit`, a tracer), so a test for a NumPy array would turn False where
it was True; accepting both keeps its answer. Not where the code the test guards writes into the array
(`np.divide(a, b, out=a)`, `a[i] = v`, `a += v`), which it could not do to a JAX array: there JAX arrays take the
other path, as before. Nor where the function tests an element of the array for a Python number
(`isinstance(x.flatten()[0], numbers.Number)`): a JAX array's element is none, so the function is left as it is.
`IsinstanceWidening` (one per rule instance, so per pass) notes those tests at each `if`
(`note_if`) and widens the others (`widen`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from codemods._buffers import OUT_KEYWORDS, WRITING_METHODS
from codemods._sequences import tuple_kind
from jaxfix import walk
from jaxfix.analysis import jnp_api
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.host_data import NUMBER_TYPES, NUMPY_SCALAR_TYPES, exact_numpy_type_test, union_members
from jaxfix.analysis.masks import ELEMENTWISE, SCALAR_REDUCTIONS
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.analysis.scalars import METHOD_REDUCTIONS
from jaxfix.analysis.numpy_names import numpy_name

if TYPE_CHECKING:
    from jaxfix.rule import Rule


# keywords of array methods a JAX array's method rejects, and attributes it does not have (`_independent`)
_NUMPY_ONLY_KEYWORDS = frozenset({"order", "casting", "subok", "kind"})
_NUMPY_ONLY_ATTRIBUTES = frozenset({"flags", "base", "ctypes", "strides", "data"})

class IsinstanceWidening:
    """The `isinstance(..., np.ndarray)` tests of one module, widened to accept JAX arrays, for one pass of `rule`."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.no_widen: set[cst.Call] = set()
        self.widened: set[cst.Tuple] = set()  # the displays of types held in a name, widened once

    def note_if(self, node: cst.If) -> None:
        """`if isinstance(a, np.ndarray): np.divide(a, b, out=a)`: the guarded code writes into the array, which it
        could not do to a JAX array; the test is not widened there (JAX arrays take the other path, as before)."""
        tests = [c for c in walk.nodes_of(node.test, cst.Call) if isinstance(c.func, cst.Name) and c.func.value == "isinstance"]  # type: ignore[attr-defined]
        if not tests:
            return
        writes = any(
            isinstance(n, (cst.AugAssign,)) or isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Subscript) for t in n.targets)
            or isinstance(n, cst.Call) and any(a.keyword is not None and a.keyword.value == "out" for a in n.args)
            for n in walk.nodes(node.body)
        )
        if writes:
            self.no_widen.update(tests)  # type: ignore[arg-type]

    def widen(self, node: cst.Call) -> None:
        """`isinstance(x, np.ndarray)`: after the migration `x` is a JAX array, so the test would be False where it
        was True; `(np.ndarray, jax.Array)` keeps its answer for both."""
        rule = self.rule
        if not (isinstance(node.func, cst.Name) and node.func.value == "isinstance" and len(node.args) == 2):
            return
        kinds = node.args[1].value
        held = self._held_tuple(node, kinds) if isinstance(kinds, cst.Name) else None
        if held is not None:  # `valid = (list, tuple, ndarray)`, then `isinstance(data, valid)` (python-control)
            kinds, only_tests = held
        # (a union, `np.ndarray | list`: pysal's `consistent_input` decorator)
        elements = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else union_members(kinds)
        number = next((e for e in elements if _number_type(e)), None)
        if number is None and not any(numpy_name(rule, e) == "numpy.ndarray" for e in elements):
            # `isinstance(idx, (int, np.integer))`: a NumPy scalar type, which a JAX array never is (with `np.ndarray`
            # among the types, widening keeps the answer for an array and its elements alike)
            number = next((e for e in elements if numpy_scalar_type(rule, e)), None)
        if number is not None and self._number_test(node, number):
            return  # (whatever the guarded code does: `if isinstance(v, np.floating): n += 1`)
        if node in self.no_widen:
            return
        if not any(isinstance(e, (cst.Attribute, cst.Name)) and numpy_name(rule, e) == "numpy.ndarray" for e in elements):
            return
        if any(rule.code(e) in (f"{rule.jax}.Array", "jax.Array") for e in elements):
            return
        element = self._element_number_test(node)
        if element is not None:
            rule.report(node, f"`{rule.code(node)}` tests for a NumPy array, and `{rule.code(element)}` tests an element "
                        "of it for a Python number: a NumPy array's element is a NumPy scalar, which is one, a JAX "
                        "array's is a 0-d JAX array, which never is; accepting JAX arrays here would change the second "
                        "test's answer: this function is left as it is", leaves_function=True)
            return
        scalar, other = self._scalar_sources(node)
        if scalar:
            subject = rule.code(node.args[0].value)
            # (a value bound in the test, `s := np.dot(r, r)`: its maker becomes `jnp.dot` first, in the same pass)
            listed = next((o for o in other if any(o is s for s in scalar)), None)
            if listed is not None:
                rule.report(node, f"`{rule.code(node)}` tests for a NumPy array, and `{subject}` is `{rule.code(listed)}`, "
                            "an item of a Python list of an array's elements at a key that may be an integer (a NumPy "
                            "scalar, no array, for a 1-D array; a 0-d JAX array after the migration) or a slice (a "
                            "list): neither widening the test nor testing its number of dimensions keeps its answer: "
                            "this function is left as it is", leaves_function=True)
                return
            if other or len(elements) > 1 or isinstance(node.args[0].value, cst.NamedExpr):
                rule.report(node, f"`{rule.code(node)}` tests for a NumPy array, and `{subject}` may be a NumPy scalar "
                            f"here (`{rule.code(scalar[0])}` gives one for a 0-d result), which is no array, but after "
                            "the migration it is a JAX array, and the value may also come from elsewhere: neither "
                            "widening the test nor testing its number of dimensions keeps its answer: this function "
                            "is left as it is", leaves_function=True)
                return
            text = f"{rule.jnp}.ndim({subject}) > 0"
            parent = rule.get_metadata(ParentProvider, node, None)
            if isinstance(parent, (cst.Comparison, cst.BinaryOperation, cst.Attribute, cst.Subscript)) or \
                    isinstance(parent, cst.UnaryOperation) and not isinstance(parent.operator, cst.Not):
                text = f"({text})"
            rule.report(node, f"`{rule.code(node)}` tests for a NumPy array, and `{subject}` is made by "
                        f"`{rule.code(scalar[0])}`, which NumPy gives as a NumPy scalar (no array) exactly when it is "
                        "0-d, while after the migration it is always a JAX array: widening the test would change its "
                        "answer for a 0-d result; test its number of dimensions", replacement=rule.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))
            return
        inner = ", ".join(rule.code(e) for e in elements)
        text = f"({inner}, {rule.jax}.Array)" if isinstance(kinds, cst.Tuple) or len(elements) == 1 else \
            f"{rule.code(kinds)} | {rule.jax}.Array"
        if held is not None:
            if kinds in self.widened:
                return  # (another test of the same name widened it)
            self.widened.add(kinds)
            name = rule.code(node.args[1].value)
            if not only_tests:
                rule.report(node, f"`{rule.code(node)}` tests for a NumPy array with the types `{name}` holds "
                            f"(`{rule.code(kinds)}`), but after the migration the value is a JAX array: the test would "
                            f"turn False; `{name}` is also used otherwise than as the types of this function's `isinstance` tests, so it "
                            "is not widened: this function is left as it is (add `jax.Array` to the tests by hand)",
                            leaves_function=True)
                return
            rule.report(kinds, f"`{rule.code(node)}` tests for a NumPy array with the types `{name}` holds, but after "
                        "the migration the value is a JAX array (under `jit`, a tracer): the test would turn False; "
                        "accept both", replacement=rule.expr(text), title=f"replace with `{text}`", imports=("jax",))
            return
        rule.report(
            kinds,
            f"`{rule.code(node)}` tests for a NumPy array, but after the migration the value is a JAX array (under `jit`"
            f", a tracer): the test would turn False; accept both",
            replacement=rule.expr(text),
            title=f"replace with `{text}`",
            imports=("jax",),
            independent=self._independent(node),
        )

    def _independent(self, node: cst.Call) -> bool:
        """Whether widening the test `node` keeps the function's behaviour even where the function stays NumPy (its
        other fixes held back): the test is of a parameter (which a migrated caller, in this module or another, may
        give a JAX array: pymoo's `Problem.evaluate(X)`, called from a subclass's `pareto_front`, took the JAX array
        for one individual), which the function rebinds only under this test, and into which, or into a name bound
        from it, it never writes. A JAX array then takes the array path, as a NumPy one does, and meets the same
        code either way."""
        function, subject = self.rule.current_function, node.args[0].value
        if function is None or not isinstance(subject, cst.Name):
            return False
        params = function.params
        name = subject.value
        if name not in {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}:
            return False
        # the bodies of the `if`s this test must pass to enter (`if isinstance(X, np.ndarray) and X.ndim == 2:`): the
        # array path, which a JAX array takes once the test is widened (not `if not isinstance(...)`'s body)
        guarded = {id(n) for branch in walk.nodes_of(function.body, cst.If) if _conjunct(branch.test, node)  # type: ignore[attr-defined]
                   for n in walk.nodes(branch.body)}  # type: ignore[attr-defined]
        derived = {name}  # names bound from the parameter (`Y = X[:, 0]`, `X2 = X.T`), to a fixed point
        assigns = walk.nodes_of(function.body, cst.Assign)
        for _ in range(len(assigns) + 1):
            before = len(derived)
            for assign in assigns:
                if walk.name_values(assign.value) & derived:  # type: ignore[attr-defined]
                    derived.update(n.value for t in assign.targets for n in walk.nodes_of(t.target, cst.Name))  # type: ignore[attr-defined]
            if len(derived) == before:
                break
        for n in walk.nodes(function.body):
            if isinstance(n, cst.Assign):
                bound = {x.value for t in n.targets if not isinstance(t.target, cst.Subscript)
                         for x in walk.nodes_of(t.target, cst.Name)}
                written = {_root(t.target) for t in n.targets if isinstance(t.target, (cst.Subscript, cst.Attribute))}
                if name in bound and id(n) not in guarded or written & derived:
                    return False  # rebound on the other path (`X = np.asarray(X)`), or written into (`X[0] = v`)
            elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.WithItem, cst.NamedExpr)):
                target = n.asname.name if isinstance(n, cst.WithItem) and n.asname else getattr(n, "target", None)
                if target is not None and (_root(target) in derived or name in walk.name_values(target)):
                    return False
            elif isinstance(n, cst.Call):
                func = n.func
                if isinstance(func, cst.Attribute) and func.attr.value in WRITING_METHODS and _root(func.value) in derived \
                        or any(a.keyword is not None and a.keyword.value in OUT_KEYWORDS
                               and _root(a.value) in derived for a in n.args):
                    return False
                if isinstance(func, cst.Attribute) and _root(func.value) in derived and any(
                        a.keyword is not None and a.keyword.value in _NUMPY_ONLY_KEYWORDS for a in n.args):
                    return False  # `X.astype(float, order='F')`: a JAX array's method rejects the keyword
            elif isinstance(n, cst.Attribute) and n.attr.value in _NUMPY_ONLY_ATTRIBUTES and _root(n.value) in derived:
                return False  # `X.flags`, `X.base`: a JAX array has none
        return True

    def _held_tuple(self, node: cst.Call, kinds: cst.Name) -> Optional[tuple[cst.Tuple, bool]]:
        """The tuple display of types the name `kinds` holds where the test `node` reads it: a local name every
        definition reaching the test binds to the same display, or a module-level name bound once, at top level, to
        one and never rebound; with whether every other read of the name is also the types of an `isinstance` test
        (so widening the display changes nothing else). None for anything else."""
        rule, function = self.rule, self.rule.current_function
        if function is None:
            return None
        flow = function_flow(rule, function)
        stmt = enclosing_statement(rule, node)
        scope: cst.CSTNode = function
        if stmt is None or not flow.knows(stmt):
            return None
        found = flow.reaching(stmt, kinds.value)
        if found:
            values = {id(d.node.value): d.node.value for d in found if isinstance(d.node, cst.Assign)
                      and len(d.node.targets) == 1 and isinstance(d.node.targets[0].target, cst.Name)}
            if len(values) != 1 or len(found) != 1:
                return None
            value = next(iter(values.values()))
        else:
            if kinds.value in walk.name_values(function):  # (bound in the function, yet no definition reaches)
                bound = [t for a in walk.nodes_of(function, cst.Assign) for t in a.targets  # type: ignore[attr-defined]
                         if isinstance(t.target, cst.Name) and t.target.value == kinds.value]
                if bound:
                    return None
            module = rule.context.module
            scope = module
            top = [a for line in module.body if isinstance(line, cst.SimpleStatementLine) for a in line.body
                   if isinstance(a, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == kinds.value
                                                        for t in a.targets)]
            if len(top) != 1 or len(top[0].targets) != 1:
                return None
            for other in walk.nodes(module):  # rebound anywhere else: `global`, a loop, another assignment
                if isinstance(other, cst.Global) and any(n.name.value == kinds.value for n in other.names) or \
                        isinstance(other, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.With)) \
                        and other is not top[0] and any(isinstance(n, cst.Name) and n.value == kinds.value for n in (
                            [t.target for t in other.targets] if isinstance(other, cst.Assign)
                            else [other.target] if isinstance(other, (cst.AugAssign, cst.AnnAssign, cst.For)) else [])):
                    return None
            value = top[0].value
        if not isinstance(value, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        # every read of the name: the types of an `isinstance` test, or the name bound
        tests = {id(c.args[1].value) for c in walk.nodes_of(scope, cst.Call)  # type: ignore[attr-defined]
                 if isinstance(c.func, cst.Name) and c.func.value in ("isinstance", "issubclass")  # type: ignore[attr-defined]
                 and len(c.args) == 2}  # type: ignore[attr-defined]
        targets = {id(t.target) for a in walk.nodes_of(scope, cst.Assign) for t in a.targets}  # type: ignore[attr-defined]
        skipped = {id(a.attr) for a in walk.nodes_of(scope, cst.Attribute)} | {  # type: ignore[attr-defined]
            id(a.keyword) for a in walk.nodes_of(scope, cst.Arg) if a.keyword is not None}  # type: ignore[attr-defined]
        only = all(id(n) in tests or id(n) in targets or id(n) in skipped
                   for n in walk.nodes_of(scope, cst.Name) if n.value == kinds.value)  # type: ignore[attr-defined]
        if scope is not function and only:  # a module-level name: widening it changes every function's tests, whose
            # values may stay NumPy arrays another function writes into (the code review's `g(a)`: `a *= 2` in place)
            inside = {id(n) for n in walk.nodes_of(function, cst.Name)}  # type: ignore[attr-defined]
            only = all(id(n) in inside or id(n) in targets for n in walk.nodes_of(scope, cst.Name)  # type: ignore[attr-defined]
                       if n.value == kinds.value)
        return value, only

    def _scalar_sources(self, node: cst.Call) -> tuple[list[cst.BaseExpression], list[cst.CSTNode]]:
        """The values that the subject of the test `node` may be made by, split into those NumPy gives as a NumPy
        scalar exactly when they are 0-d (reductions, `np.dot`, ufuncs, arithmetic of those, an element of an array
        made here; pwlf's `ssr = np.dot(r, r)`, then `isinstance(ssr, np.ndarray)`), and the others (a parameter, a
        constructor such as `np.asarray(x)`, which gives an array also when 0-d)."""
        function = self.rule.current_function
        flow = function_flow(self.rule, function) if function is not None else None
        return self._sources(flow, node, node.args[0].value, set())

    def _sources(self, flow, at: cst.CSTNode, value: cst.BaseExpression, seen: set) -> tuple[list, list]:  # type: ignore[no-untyped-def]
        if isinstance(value, cst.IfExp):  # `np.sum(x) if flat else np.asarray(x)`: either
            s1, o1 = self._sources(flow, at, value.body, seen)
            s2, o2 = self._sources(flow, at, value.orelse, seen)
            return s1 + s2, o1 + o2
        if isinstance(value, cst.NamedExpr):  # `isinstance(s := np.dot(r, r), np.ndarray)`: the value bound
            return self._sources(flow, at, value.value, seen)
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value in ("self", "cls"):
            return self._attribute_sources(flow, value, seen)
        if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)):
            # arithmetic with a NumPy scalar gives one when 0-d, whatever the other operand
            parts = [value.left, value.right] if isinstance(value, cst.BinaryOperation) else [value.expression]
            found = [self._sources(flow, at, part, seen) for part in parts]
            scalar = [x for s, _ in found for x in s]
            return (scalar, []) if scalar else ([], [value])
        if isinstance(value, cst.Subscript):
            key = self._list_item_key(flow, value)
            if key == "slice":
                return [], [value]  # a list, as NumPy's list of rows is too
            if key == "unknown":
                return [value], [value]  # an element (a NumPy scalar when 0-d) or a list: neither test keeps both
        if not isinstance(value, cst.Name):
            found = self._scalar_maker(value)
            return ([found], []) if found is not None else ([], [value])
        stmt = enclosing_statement(self.rule, at)
        if flow is None or stmt is None or not flow.knows(stmt):
            return [], [value]
        if (stmt, value.value) in seen:
            return [], []
        seen.add((stmt, value.value))
        scalar: list = []
        other: list = []
        for d in flow.reaching(stmt, value.value):
            if isinstance(d.node, cst.Assign) and len(d.node.targets) == 1 and isinstance(d.node.targets[0].target, cst.Name):
                s, o = self._sources(flow, d.node, d.node.value, seen)
            elif isinstance(d.node, cst.AugAssign):  # `ssr += 1`: a scalar stays one, an array stays one
                s, o = self._sources(flow, d.node, d.node.target, seen)  # type: ignore[arg-type]
            else:
                s, o = [], [d.node]
            scalar += s
            other += o
        return scalar, other

    def _list_item_key(self, flow, value: cst.Subscript) -> Optional[str]:  # type: ignore[no-untyped-def]
        """For `rows[key]` with `rows` only ever bound to `list(...)`/`tuple(...)` of an array made here (a Python
        list of its rows or elements): "item" for an integer key (an element: a NumPy scalar when the array is
        1-D), "slice" for a slice (a list), "unknown" for any other key; None when `rows` is no such list."""
        if not isinstance(value.value, cst.Name) or len(value.slice) != 1 or flow is None:
            return None
        stmt = enclosing_statement(self.rule, value)
        if stmt is None or not flow.knows(stmt):
            return None
        found = flow.reaching(stmt, value.value.value)
        if not found or not all(
                isinstance(d.node, cst.Assign) and isinstance(d.node.value, cst.Call)
                and isinstance(d.node.value.func, cst.Name) and d.node.value.func.value in ("list", "tuple")
                and len(d.node.value.args) == 1 and not d.node.value.args[0].star
                and any(_migrated(self.rule, c) for c in walk.nodes_of(d.node.value.args[0].value, cst.Call))
                and not (isinstance(d.node.value.args[0].value, cst.Call)  # (`list(np.split(..))`: arrays, never scalars)
                         and _sequence_result(self.rule, d.node.value.args[0].value))
                for d in found):
            return None
        key = value.slice[0].slice
        if isinstance(key, cst.Slice):
            return "slice"
        index = key.value if isinstance(key, cst.Index) else None
        if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
            index = index.expression
        return "item" if isinstance(index, cst.Integer) else "unknown"

    def _attribute_sources(self, flow, value: cst.Attribute, seen: set) -> tuple[list, list]:  # type: ignore[no-untyped-def]
        """`self.ssr`: the values the module stores in an attribute of that name (`self.ssr = np.dot(r, r)`), and
        the attribute itself among the others (code elsewhere may store something else in it)."""
        name = value.attr.value
        if ("attribute", name) in seen:
            return [], []
        seen.add(("attribute", name))
        scalar: list = []
        other: list = [value]
        for assign in walk.nodes_of(self.rule.context.module, cst.Assign):
            if any(isinstance(t.target, cst.Attribute) and t.target.attr.value == name for t in assign.targets):  # type: ignore[attr-defined]
                s, o = self._sources(flow, assign, assign.value, seen)  # type: ignore[attr-defined]
                scalar += s
                other += o
        return scalar, other

    def _scalar_maker(self, value: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """`value` if NumPy gives it as a NumPy scalar when 0-d (`np.dot(r, r)`, `x.max()` or `y[i]` for `y` made
        here by NumPy), else None."""
        rule = self.rule
        if isinstance(value, cst.Call):
            qualified = numpy_name(rule, value.func)
            if qualified is not None:
                name = qualified.split(".")[-1]
                if _migrated(rule, value) and name not in _ZERO_D_ARRAYS \
                        and (name in _SCALAR_MAKERS or name in ELEMENTWISE or name in SCALAR_REDUCTIONS) \
                        and not any(a.keyword is not None and a.keyword.value == "out" for a in value.args):
                    return value
                return None
            if isinstance(value.func, cst.Attribute) and value.func.attr.value in METHOD_REDUCTIONS | {"dot"} and \
                    self._made_here(value, _element_base(value.func.value)):
                return value  # `r.dot(r)`, `x.sum()` of an array made here
            return None
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and not any(
                isinstance(n, cst.Ellipsis) or isinstance(n, cst.Name) and n.value == "None"
                for element in value.slice for n in walk.nodes(element)) \
                and self._made_here(value, value.value) and not self._made_here(value, value.value, sequence=True):
            # an element (or a row) of an array made here; not an item of a list of arrays (`np.split(..)[key]`,
            # which is a list where `key` is a slice: skfda's `_coordinate_nonfull`)
            return value
        return None

    def _element_number_test(self, node: cst.Call) -> Optional[cst.Call]:
        """The test of the function, if any, of whether an element of the name `node` tests for a NumPy array is a
        Python number (`isinstance(x.flatten()[0], numbers.Number)`, `x[0]`, `x.flat[0]`; galpy's `_check_array`):
        true of a NumPy array's element, false of a JAX array's, so `node` must not be widened."""
        subject, function = node.args[0].value, self.rule.current_function
        if not isinstance(subject, cst.Name) or function is None:
            return None
        for call in walk.nodes_of(function.body, cst.Call):
            if not (isinstance(call.func, cst.Name) and call.func.value == "isinstance" and len(call.args) == 2):  # type: ignore[attr-defined]
                continue
            kinds = call.args[1].value  # type: ignore[attr-defined]
            if not any(_number_type(e) for e in ([e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds])):
                continue
            value, indexed = call.args[0].value, False  # type: ignore[attr-defined]
            while True:
                if isinstance(value, cst.Subscript):
                    value, indexed = value.value, True
                elif isinstance(value, cst.Attribute) and value.attr.value in _ELEMENT_PATHS:
                    value = value.value  # `x.flat`, `x.T`
                elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _ELEMENT_PATHS:
                    value = value.func.value  # `x.flatten()`, `x.ravel()`
                else:
                    break
            if indexed and isinstance(value, cst.Name) and value.value == subject.value:
                return call  # type: ignore[return-value]
        return None

    def _number_test(self, node: cst.Call, number: cst.BaseExpression) -> bool:
        """`isinstance(v, (int, float))` where `v` is made by a NumPy call (`v = 1.0 - np.exp(-x)`): NumPy gives a
        float scalar for a scalar input, which is a Python `float`, while a JAX array never is; the test would change
        its answer, and the branch for arrays would run instead (lmfit's `bose = max(bose, tiny)`). So for an element of
        such an array (`h = np.zeros((n, n), complex)`, then `isinstance(h[0, 0], complex)`: commpy's MIMO channel),
        a NumPy scalar where a JAX array gives a 0-d array. So for a NumPy scalar type (`isinstance(idx, np.integer)`
        over the items of `list(np.argsort(s))`: pyod's top-k indices). The function is left as it is."""
        rule = self.rule
        subject = _element_base(node.args[0].value)  # `h[0, 0]`, `h.flat[0]`: an element of the name `h` (commpy)
        if not self._made_here(node, subject):
            return False  # (`if isinstance(std, numbers.Real): std = np.full(n, std)` tests the caller's value)
        kind = "Python number" if _number_type(number) else "NumPy scalar"
        rule.report(node, f"`{rule.code(node)}` tests whether `{rule.code(node.args[0].value)}`, made by NumPy here, is a {kind} "
                    f"(`{rule.code(number)}`): a NumPy scalar is one, a JAX array never is, so after the migration the test "
                    "would change its answer: this function is left as it is (test `jnp.ndim(v) == 0` instead, by hand)",
                    leaves_function=True)
        return True

    def exact_type(self, node: cst.Comparison) -> None:
        """`type(x) is np.ndarray` (`==`, `in (...)`, `x.__class__`) where `x` is made by a NumPy call here: a JAX
        array's type is none of NumPy's, and no widening keeps the answer of an exact test; the function is left as
        it is. (A parameter tested so keeps its callers' arguments NumPy: `host_data.numpy_typed_parameters`.)"""
        name = exact_numpy_type_test(self.rule, node)
        if name is None or not self._made_here(node, cst.Name(name)):
            return
        self.rule.report(node, f"`{self.rule.code(node)}` tests the exact type of `{name}`, made by NumPy here: a JAX "
                         "array's type is none of NumPy's, so after the migration the test would change its answer: "
                         "this function is left as it is", leaves_function=True)

    def _made_here(self, node: cst.CSTNode, subject: cst.BaseExpression, sequence: bool = False) -> bool:
        """Whether the name `subject`, as `node` reads it, is made by a NumPy call that JX501 migrates (bound to one,
        or an item of one a `for` loop runs over); with `sequence`, by one that gives a list or tuple of arrays
        (`np.split`, `np.nonzero`, `np.linalg.svd`), bound to the name as it is."""
        rule = self.rule
        function = rule.current_function
        if not isinstance(subject, cst.Name) or function is None:
            return False
        flow = function_flow(rule, function)
        stmt = enclosing_statement(rule, node)
        if stmt is None or not flow.knows(stmt):
            return False
        it = _comprehension_iter(rule, node, subject.value)
        if it is not None:  # `[int(i) for i in idx if isinstance(i, np.integer)]`: the items of what it runs over
            values = [d.node.value for d in flow.reaching(stmt, it.value) if isinstance(d.node, cst.Assign)] \
                if isinstance(it, cst.Name) else [it]
            return any(any(_migrated(rule, c) for c in walk.nodes_of(v, cst.Call)) for v in values)  # type: ignore[attr-defined]
        found = flow.reaching(stmt, subject.value)
        values = [d.node.value for d in found if isinstance(d.node, cst.Assign)]
        if sequence:  # (`list(np.split(..))`, `tuple(..)` of one: the same arrays)
            values = [v.args[0].value if isinstance(v, cst.Call) and isinstance(v.func, cst.Name)
                      and v.func.value in ("list", "tuple") and len(v.args) == 1 and not v.args[0].star else v for v in values]
            return any(isinstance(v, cst.Call) and _migrated(rule, v) and _sequence_result(rule, v) for v in values)
        for loop in (d.node for d in found if isinstance(d.node, cst.For) and flow.knows(d.node)):
            # `for item in m_ref: isinstance(item, (int, float))`: the items of an array NumPy made here (ahrs)
            # (`for i in np.argsort(s)[::-1]`: any expression made by such a call)
            it = loop.iter
            values += [d.node.value for d in flow.reaching(loop, it.value) if isinstance(d.node, cst.Assign)] \
                if isinstance(it, cst.Name) else [it]
        return any(any(_migrated(rule, c) for c in walk.nodes_of(v, cst.Call)) for v in values)  # type: ignore[attr-defined]


def _comprehension_iter(rule: Rule, node: cst.CSTNode, name: str) -> Optional[cst.BaseExpression]:
    """What the innermost comprehension around `node` that binds `name` as its target runs over, else None."""
    current: Optional[cst.CSTNode] = node
    while current is not None and not isinstance(current, (cst.BaseStatement, cst.BaseSmallStatement)):
        if isinstance(current, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            comp: Optional[cst.CompFor] = current.for_in
            while comp is not None:
                if isinstance(comp.target, cst.Name) and comp.target.value == name:
                    return comp.iter
                comp = comp.inner_for_in
        current = rule.get_metadata(ParentProvider, current, None)
    return None


def _element_base(value: cst.BaseExpression) -> cst.BaseExpression:
    """The array `value` is an element of (`h` for `h[0, 0]`, `h.flat[0]`, `h.T[1]`), or `value` itself: indexed, a
    NumPy array made here gives a NumPy scalar (a Python `float` or `complex` for those dtypes), a JAX array a 0-d
    array, which is no Python number. (`h.item()` gives a Python scalar either way: not an element here.)"""
    base, indexed = value, False
    while True:
        if isinstance(base, cst.Subscript):
            base, indexed = base.value, True
        elif isinstance(base, cst.Attribute) and base.attr.value in _ELEMENT_PATHS:
            base = base.value
        elif isinstance(base, cst.Call) and isinstance(base.func, cst.Attribute) and base.func.attr.value in _ELEMENT_PATHS:
            base = base.func.value
        else:
            break
    return base if indexed and isinstance(base, cst.Name) else value


def _migrated(rule: Rule, call: cst.Call) -> bool:
    """A NumPy call that `jax.numpy` has (JX501 moves it; `np.array2string`, which gives text, stays)."""
    qualified = numpy_name(rule, call.func)
    return qualified is not None and jnp_api.lookup(qualified) is not None


# NumPy functions that give a list or tuple of arrays besides the tuples `_sequences.tuple_kind` knows
_SEQUENCE_MAKERS = frozenset({"split", "array_split", "hsplit", "vsplit", "dsplit", "unstack", "eig", "eigh", "svd", "qr",
                              "slogdet", "lstsq"})


def _sequence_result(rule: Rule, call: cst.Call) -> bool:
    """`np.split(x, 3)`, `np.nonzero(m)`, `np.where(m)` (one argument), `np.unique(x, return_counts=True)`,
    `np.atleast_1d(a, b)`: a list or tuple of arrays."""
    name = (numpy_name(rule, call.func) or "").split(".")[-1]
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    return name in _SEQUENCE_MAKERS or tuple_kind(name, call) is not None \
        or name == "indices" and "sparse" in keywords \
        or name == "unique" and any(k.startswith("return_") for k in keywords)


# NumPy functions besides ufuncs (`masks.ELEMENTWISE`) and reductions (`masks.SCALAR_REDUCTIONS`) whose result is a
# NumPy scalar, no array, exactly when it is 0-d
_SCALAR_MAKERS = frozenset({
    "dot", "vdot", "inner", "matmul", "trace", "det", "norm", "interp", "add", "subtract", "multiply", "divide",
    "true_divide", "floor_divide", "power", "mod", "remainder", "maximum", "minimum", "fmax", "fmin", "arctan2",
    "hypot", "log2", "log10", "exp2", "arcsin", "arccos", "arcsinh", "arccosh", "arctanh", "cbrt", "reciprocal",
    "percentile", "quantile", "nanpercentile", "nanquantile", "average", "ptp", "nanstd", "nanvar", "nanprod",
    "nanmedian", "argmax", "argmin", "nanargmax", "nanargmin", "trapz", "trapezoid", "float64", "float32", "int64",
    "int32", "complex128", "float_", "int_", "bool_"})

# ... and those among them that give a 0-d array of a 0-d array (`np.real(np.array(0.5))` is an array, no scalar)
_ZERO_D_ARRAYS = frozenset({"real", "imag", "isin", "in1d"})

# array attributes and methods through which an element is reached (`x.flatten()[0]`, `x.flat[0]`, `x.T[0, 0]`)
_ELEMENT_PATHS = frozenset({"flat", "flatten", "ravel", "reshape", "squeeze", "T", "real", "imag", "copy", "astype",
                            "transpose"})

def numpy_scalar_type(rule: Rule, node: cst.BaseExpression) -> bool:
    """`np.integer`, `np.floating`, `np.float64`, `numpy.generic`: a NumPy scalar type."""
    if not isinstance(node, (cst.Attribute, cst.Name)):
        return False
    qualified = numpy_name(rule, node)
    return qualified is not None and qualified.count(".") == 1 and qualified.split(".")[1] in NUMPY_SCALAR_TYPES


def _number_type(node: cst.BaseExpression) -> bool:
    """`float`, `complex`, `numbers.Number`, `numbers.Real`: number types a NumPy scalar is an instance of."""
    if isinstance(node, cst.Name):
        return node.value in NUMBER_TYPES
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "numbers" \
        and node.attr.value in NUMBER_TYPES


def _root(node: cst.BaseExpression) -> Optional[str]:
    """`x` for `x`, `x[i]`, `x.real[i]`, else None."""
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _conjunct(test: cst.BaseExpression, call: cst.Call) -> bool:
    """Whether `test` holds only when `call` is true: it is `call`, or an `and` with it among the conjuncts."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _conjunct(test.left, call) or _conjunct(test.right, call)
    return test is call

