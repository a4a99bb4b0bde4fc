"""`c_libraries`: names a module binds or configures as a C library loaded with ctypes, or one of its functions."""

import ast

from jaxfix.analysis import c_libraries


def test_libraries_are_told_by_what_loads_or_configures_them():
    code = (
        "import ctypes as C\nimport numpy as np\nfrom ctypes import CDLL, cdll\nfrom numpy.ctypeslib import load_library\n"
        "a = C.CDLL('liba.so')\nb = CDLL('libb.so')\nc = cdll.LoadLibrary('libc.so')\nd = np.ctypeslib.load_library('d', '.')\n"
        "e = load_library('e', '.')\nm = C.cdll.msvcrt\nf = cdll.LoadLibrary('libf.so').step\n"
        "g = helper('g')\ng.run.argtypes = [C.c_int]\nh = g.run\nk = other()\nk.restype = C.c_double\n"
        "plain = helper('p')\nplain.run.flags = 1\nnumbers = np.zeros(3)\n"
        "class W:\n    def __init__(self):\n        self._lib = C.CDLL('w')\n        self.fn = self._lib.w\n"
    )
    found = c_libraries.libraries(ast.parse(code))
    assert found == {"a", "b", "c", "d", "e", "m", "f", "g", "h", "k", "self._lib", "self.fn"}
    summary = c_libraries._summarize("pkg/hdr.py", "pkg.hdr", ast.parse(code), frozenset())
    assert "self._lib" not in summary["names"] and "g" in summary["names"]


def test_only_modules_that_may_load_a_library_are_read():
    assert c_libraries._wanted(b"import ctypes\n", "pkg.a", False, frozenset())
    assert c_libraries._wanted(b"lib.f.argtypes = []\n", "pkg.a", False, frozenset())
    assert not c_libraries._wanted(b"import numpy as np\nx = np.zeros(3)\n", "pkg.a", False, frozenset())
