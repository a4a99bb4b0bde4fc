"""The fast node check (`jaxfix.nodecheck`) answers `isinstance`/`issubclass` exactly as `ABCMeta` does, and the
engine's output does not depend on it."""

import abc
import glob
import os

import libcst as cst
import pytest

from jaxfix import nodecheck, walk
from jaxfix.engine import migrate_source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = '''
import numpy as np
from x import (a, b as c)

@decorator(1)
class Model(Base, metaclass=Meta):
    """Docstring."""
    w: float = 0.5

    async def step(self, x, *args, y=2, **kwargs) -> "Model":
        global g
        lam = lambda t, /, u=1: t ** -u
        for i, (j, k) in enumerate(zip(x, x[1:])):
            x[i, ...] += np.sum(x[::2]) @ y if i else ~j
            while not (k < 3 <= j):
                break
            else:
                continue
        with open(f"{x!r:>{y}}") as h, ctx():
            await h.read()
        try:
            del x[0], self.w
        except (ValueError, TypeError) as e:
            raise RuntimeError from e
        finally:
            pass
        match x:
            case [1, *rest] if rest: return {**kwargs, 'k': {v for v in rest}}
            case Point(x=0) | None: yield from (q async for q in z)
        assert x, "message"
        return [*x], (y := 3), b"bytes" b"more", 1j, ...
'''


def _nodes() -> list[cst.CSTNode]:
    return list(walk.walk(cst.parse_module(SAMPLE)))


def test_installed_by_the_walk_module():
    assert nodecheck.installed()
    assert type(cst.Name) is not abc.ABCMeta


def test_isinstance_and_issubclass_agree_with_abcmeta():
    classes = nodecheck._node_classes()
    kinds = {type(node) for node in _nodes()}
    assert len(kinds) > 60  # the sample reaches most node types, tokens included
    for node in _nodes():
        for kind in classes:
            assert isinstance(node, kind) == abc.ABCMeta.__instancecheck__(kind, node), (type(node), kind)
    for sub in classes:
        for kind in classes:
            assert issubclass(sub, kind) == abc.ABCMeta.__subclasscheck__(kind, sub), (sub, kind)
    assert not isinstance(1, cst.CSTNode) and not isinstance(None, cst.BaseExpression)


def test_abstract_classes_stay_abstract_and_new_subclasses_get_the_fast_check():
    with pytest.raises(TypeError):
        cst.BaseExpression()  # type: ignore[abstract]

    class Mine(cst.Name):
        pass

    assert type(Mine) is type(cst.Name)
    assert isinstance(Mine("x"), cst.BaseExpression) and not isinstance(cst.Name("x"), Mine)


def test_register_puts_abcmeta_back():
    class Virtual:
        pass

    class Local(cst.Name):  # a class of its own, so the registration does not leak into other tests
        pass

    try:
        Local.register(Virtual)
        assert not nodecheck.installed()
        assert isinstance(Virtual(), Local)
    finally:
        nodecheck.uninstall()
        abc._reset_registry(Local)  # type: ignore[attr-defined]
        assert nodecheck.install()


def test_install_is_idempotent_and_refuses_classes_with_virtual_subclasses():
    assert nodecheck.install() and nodecheck.install()
    nodecheck.uninstall()
    try:
        assert type(cst.Name) is abc.ABCMeta

        class Virtual:
            pass

        class Local(cst.Name):
            pass

        Local.register(Virtual)
        assert not nodecheck.install() and type(cst.Name) is abc.ABCMeta  # nothing changed
        abc._reset_registry(Local)  # type: ignore[attr-defined]
    finally:
        assert nodecheck.install()


@pytest.mark.parametrize(
    "path", sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "*.before.py")))[::8], ids=os.path.basename
)
def test_migration_is_the_same_without_it(path):
    text = open(path, encoding="utf-8").read()
    fast = migrate_source(text, path=path)
    nodecheck.uninstall()
    try:
        assert migrate_source(text, path=path) == fast
    finally:
        assert nodecheck.install()
