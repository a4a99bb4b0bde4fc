"""Hashed values: which arrays' elements a function uses as set members or dict keys."""

import libcst as cst
import pytest

from jaxfix.analysis.hashed import hashed, hashing_parameters, memoized, module_containers


def found(body: str) -> tuple[set[str], list[str]]:
    module = cst.parse_module("def f(y, table, other):\n" + "".join(f"    {line}\n" for line in body.split("\n")))
    names, exprs = hashed(module.body[0])  # type: ignore[arg-type]
    assert names == {e.value for e in exprs if isinstance(e, cst.Name)}
    return names, sorted(module.code_for_node(e) for e in exprs if not isinstance(e, cst.Name))


@pytest.mark.parametrize(
    "body, names, exprs",
    [
        ("s = set(y)", {"y"}, []),
        # the items of a list grown by `.append`, hashed whole or iterated into keys (scikit-rf's distinct values:
        # `vals.append((target * d, d))`, then `set(vals)`); a list not hashed says nothing of its items
        ("t = np.mean(y)\nvals = []\nfor d in other:\n    vals.append((t * d, d))\nreturn sorted(set(vals))",
         {"vals", "t", "other"}, []),
        ("c = np.max(y)\nout = []\nout.insert(0, c + 1)\nseen = {}\nfor v in out:\n    seen[v] = 1", {"out", "c"}, []),
        ("c = np.max(y)\nout = []\nout.append(c)\nreturn len(out)", set(), []),
        ("s = frozenset(np.unique(y))", set(), ["np.unique(y)"]),
        ("d = dict.fromkeys(np.unique(y))", set(), ["np.unique(y)"]),
        ("d = {}\nfor v in y[1:]:\n    d[v] = 1", {"y"}, []),
        ("d = defaultdict(int)\nfor i, v in enumerate(np.sort(y)):\n    d[v] += i", set(), ["np.sort(y)"]),
        ("s = set()\nfor v in y:\n    if v not in s:\n        s.add(v)", {"y"}, []),
        ("d = {v: 0 for v in np.unique(y)}", set(), ["np.unique(y)"]),
        ("s = {v for v in y}", {"y"}, []),
        ("cache = {}\nkey = np.asarray(y)[()]\nreturn cache.get(key)", set(), ["np.asarray(y)"]),
        ("return [hash(v) for v in y]", {"y"}, []),
        # a list of items put into a set; rows of an array made frozensets, through the selection that made them
        ("lst = [y[i] for i in other]\nreturn set(lst)", {"lst", "y"}, []),
        ("rows = y[y > 0].reshape(-1, 1)\nreturn [frozenset(r) for r in rows]", {"r", "rows", "y"}, []),
        # the arrays of arithmetic given whole to a set (statsmodels' seasonal lags)
        ("return set(np.array(y) * other)", {"other"}, ["np.array(y)"]),
        # a scalar used as a set member itself (its binding is the call that makes it)
        ("left = set(other)\ni = np.argmin(y)\nleft.remove(i)", {"i", "other"}, []),
        # the keys of `dict(zip(...))`, and of a comprehension over `zip` (imblearn's class counts)
        ("u, c = np.unique(y, return_counts=True)\nreturn dict(zip(u, c))", {"u"}, []),
        ("return {k: v for k, v in zip(np.unique(y), other)}", set(), ["np.unique(y)"]),
        # a membership test in a parameter, which may be a dict (imblearn's `c not in class_type`)
        ("return [c for c in np.unique(y) if c not in table]", set(), ["np.unique(y)"]),
        # arithmetic of a call's result (or of an element of it) as a key: of the call's kind (librosa's accidentals)
        ("d = {1: 'a'}\nreturn d[np.sign(y) * 2], d[-np.argmax(other)], {0: 'z'}[1 + np.where(y)[0][0]]", set(),
         ["np.argmax(other)", "np.sign(y)", "np.where(y)"]),
        # an element of a call's result as a key
        ("return {np.where(y == k)[0][0]: v for k, v in other.items()}", set(), ["np.where(y == k)"]),
        # the elements of a call's result made a tuple key (commpy's viterbi: `tuple(to_bits(n))`), or of a slice
        ("d = {}\nreturn d[tuple(bits(y))], d.get(tuple(other[1:]))", {"other"}, ["bits(y)"]),
        # an annotated local dict; a set's `update`/`union` (and a dict's `update` of pairs: the keys)
        ("d: dict = {}\nfor v in np.unique(y):\n    d[v] = 1", set(), ["np.unique(y)"]),
        ("s = set()\ns.update(np.unique(y))\nreturn s.union(other)", {"other"}, ["np.unique(y)"]),
        ("d = {}\nd.update(zip(np.unique(y), other))", set(), ["np.unique(y)"]),
        # items of arithmetic on an array, or of a regrouping of it; a key of arithmetic on an item
        ("s = set()\nfor v in np.unique(y) + 1:\n    s.add(v)", set(), ["np.unique(y)"]),
        ("d = {}\nfor v in sorted(y):\n    d[v + 1] = 0", {"y"}, []),
        # a scalar a method of an array gives (bound to a name, or given at once), an element of it
        ("s = set(other)\nd = np.abs(y)\ni = d.argmin()\ns.remove(i)", {"d", "i", "other"}, []),
        ("s = set(other)\nd = np.abs(y)\ns.discard(d.argmax())\ns.add(d[0])", {"d", "other"}, ["d.argmax()"]),
        ("s = set(other)\ni = np.argmin(y)\nk = i + 1\ns.add(k)", {"i", "k", "other"}, []),
        # a tuple of items as a key (nitime's pair table: `d[i, j]` for `i, j` in zipped raveled grids), also
        # parenthesized, a set's member, a display's key; the items of an array's method (`x.ravel()`) are `x`'s
        ("x, z = np.meshgrid(y, y)\nd = {}\nfor i, j in zip(x.ravel(), z.ravel()):\n    d[i, j] = 1", {"x", "z"},
         ["x.ravel()", "z.ravel()"]),
        ("d = {}\nfor i, j in zip(y, other):\n    d[(i, j)] = 1", {"other", "y"}, []),
        ("s = set()\nfor i in y:\n    s.add((i, (0, i)))", {"y"}, []),
        ("return {(i, 0): 1 for i in np.unique(y)}", set(), ["np.unique(y)"]),
        # a parameter whose `.keys()` / `.items()` the function reads is a mapping: indexed by an item, it hashes
        # it, through a name bound twice (trimesh's graph roots: `roots = indexes[m]`, `roots = roots[order]`)
        ("idx = np.array(list(table.keys()))\nroots = idx[idx > 0]\nroots = roots[np.argsort(roots)]\n"
         "return [table[r] for r in roots]", {"idx", "roots"}, []),
        ("for k, v in other.items():\n    pass\nreturn [other.get(r) for r in np.sort(y)]", set(), ["np.sort(y)"]),
        ("z = y[0]\nz = other[1]\ns = set(z)", {"other", "y", "z"}, []),
        # the elements of a row unpacked, put into a set a dict holds (trimesh's graph `neighbors`: `defaultdict(set)`)
        ("d = defaultdict(set)\nfor a, b in np.asarray(y):\n    d[a].add(b)", set(), ["np.asarray(y)"]),
        ("d = defaultdict(set)\nfor a, b in y:\n    d[int(a)].add(b)", {"y"}, ["int(a)"]),
        ("d = {}\nfor i, (a, b) in enumerate(np.sort(y)):\n    d[a] = i", set(), ["np.sort(y)"]),
        # a key looked up in a dict display by a method, or tested for membership in a dict or set display
        ("i = np.argmin(y)\nreturn {0: 'a', 1: 'b'}.get(i, '')", {"i"}, []),
        ("return [v for v in np.sort(y) if v in {0, 2}], other not in {0: 'a'}", {"other"}, ["np.sort(y)"]),
        # ... or in a dict or set a call makes in place (`frozenset(...)`, `set([...])`, `dict(...)`, `Counter(...)`)
        ("i = np.argmin(y)\nreturn i in frozenset((0, 1)), other not in set([0])", {"i", "other"}, ["(0, 1)", "[0]"]),
        ("k = np.argmax(y)\nreturn dict(zip(a, b))[k], collections.Counter(c).get(other)", {"a", "c", "k", "other"}, []),
        ("return [v for v in np.sort(y) if v in dict.fromkeys(z)]", {"z"}, ["np.sort(y)"]),
        # not hashing: a parameter (maybe an array) indexed by an item; a list; items compared
        ("for v in y:\n    table[v] = 0", set(), []),
        ("seen = []\nfor v in y:\n    if v in seen:\n        pass", set(), []),
        ("t = 0\nfor v in np.unique(y):\n    t += np.sum(y == v)", set(), []),
        # nor a method of an object that is no array, nor a module's dict the function rebinds
        ("s = set()\nr = table.lookup(y)\ns.add(r)", {"r"}, []),
        ("CACHE = np.zeros(3)\nfor v in y:\n    CACHE[v] = 1", set(), []),
    ],
)
def test_hashed(body, names, exprs):
    assert found(body) == (names, exprs)


def test_memoized_arguments():
    """An `@lru_cache`'d function of the module hashes its arguments: the values given are hashed (galpy)."""
    module = cst.parse_module(
        "import functools\n\n@functools.lru_cache(maxsize=None)\ndef table(c):\n    return c\n\n"
        "def f(p, q):\n    k = split(q)\n    return table(split(p)), table(-k), other(p)\n"
    )
    assert memoized(module) == {"table"}
    names, exprs = hashed(module.body[2], memoized(module))  # type: ignore[arg-type]
    assert names == {"k"} and sorted(module.code_for_node(e) for e in exprs if not isinstance(e, cst.Name)) == ["split(p)"]
    assert hashed(module.body[2]) == (set(), set())  # type: ignore[arg-type]


def test_module_containers():
    """The module's dicts and sets a function uses without binding them: its own names, and a class's attributes
    (`self.counts = {}` in a method, `cache = {}` in the class body)."""
    module = cst.parse_module(
        "CACHE = {}\nLIMIT: dict = dict()\nTABLE = np.zeros(3)\n\nclass A:\n    memo = {}\n\n    def __init__(self):\n"
        "        self.counts = {}\n        self.x = np.zeros(2)\n\n    def add(self, y):\n        for v in np.unique(y):\n"
        "            self.counts[v] = CACHE.get(v)\n            self.x[v] = 0\n"
    )
    outside = module_containers(module)
    assert outside == {"CACHE", "LIMIT", "self.memo", "self.counts"}
    function = module.body[3].body.body[2]  # type: ignore[attr-defined]
    names, exprs = hashed(function, (), outside)
    assert [module.code_for_node(e) for e in exprs] == ["np.unique(y)"]
    assert hashed(function) == (set(), set())


def test_hashing_parameters():
    """A helper of the module that hashes a parameter as given (chaospy's `_get(kdata)` doing `tuple(kdata) in
    _cache`): what a caller passes there is hashed, by position, keyword, through `self.` and through a helper
    calling it; not a parameter the helper rebinds first, nor one it only reads."""
    module = cst.parse_module(
        "TABLE = {}\n\ndef lookup(row, scale=1.0):\n    if tuple(row) in TABLE:\n        return TABLE[tuple(row)]\n"
        "    return scale\n\ndef again(key):\n    return lookup(key)\n\n"
        "def rebinds(row):\n    row = [int(r) for r in row]\n    return TABLE.get(tuple(row))\n\n"
        "def f(a, b, c, d):\n    out = [lookup(r) for r in a.T]\n    return out, lookup(scale=2.0, row=b), again(c), rebinds(d)\n"
    )
    outside = module_containers(module)
    found = hashing_parameters(module, (), outside)
    assert {(name, hashed_params) for name, _, hashed_params in found} == {
        ("lookup", frozenset({"row"})), ("again", frozenset({"key"})), ("f", frozenset({"a", "b", "c"}))}
    names, exprs = hashed(module.body[4], (), outside, found)  # type: ignore[arg-type]
    assert names >= {"a", "b", "c"} and "d" not in names
    assert hashed(module.body[4], (), outside) == (set(), set())  # type: ignore[arg-type]


def test_a_parameter_converted_to_a_tuple_first_is_hashed_through_the_tuple():
    """`key = tuple(key)` first, then `_cache.setdefault(key, ...)` or `key in _cache`: the elements of what the caller
    passed are hashed; not when the name is bound again later, nor for an attribute or keyword of that name."""
    module = cst.parse_module(
        "_cache = {}\n\ndef get(key, obj):\n    key = tuple(key)\n    return _cache.setdefault(key, obj.key)\n\n"
        "def member(key):\n    key = tuple(key)\n    return key in _cache\n\n"
        "def later(key):\n    key = tuple(key)\n    key = 3\n    return _cache.setdefault(key, 1)\n\n"
        "def named(key, f):\n    key = tuple(key)\n    return f(key=1)\n"
    )
    found = hashing_parameters(module, (), module_containers(module))
    assert {(name, hashed_params) for name, _, hashed_params in found} == {
        ("get", frozenset({"key"})), ("member", frozenset({"key"}))}
