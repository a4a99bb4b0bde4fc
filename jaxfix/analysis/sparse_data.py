"""SciPy sparse matrices meeting NumPy calls: values `jax.numpy` cannot take, and calls that cannot take JAX arrays.

NumPy hands a sparse matrix given to a ufunc back to the matrix's own methods (`np.multiply(P, lam)` scales it),
where `jax.numpy` raises `TypeError`. The other way round, SciPy's sparse constructors tell a NumPy array from a
sequence of diagonals or rows by its type: `sp.diags(jnp.ones(m))` raises "Different number of diagonals and
offsets" (pygam's penalties). A NumPy call on either side of that meeting stays NumPy.

`SparseNames.read(module)` finds the local names the module's imports bind to `scipy.sparse` (the module, or its
functions); `is_sparse_call` then tells a call of one of its functions. `SparseNames.read(module, "fftpack")` does the
same for another SciPy module: `scipy.fftpack`'s transforms read their input's `.flags`, which a JAX array lacks
(`AttributeError`: spafe's cepstra), where `scipy.fft` and the rest of SciPy convert a JAX array.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix import walk
from jaxfix.imports import dotted_name


@dataclass(frozen=True)
class SparseNames:
    modules: frozenset[str] = frozenset()  # `import scipy.sparse as sp`, `from scipy import sparse`
    functions: frozenset[str] = frozenset()  # `from scipy.sparse import diags, csr_matrix`
    scipy: frozenset[str] = frozenset()  # `import scipy` (as ...): `scipy.sparse.diags(...)`
    submodule: str = "sparse"  # the SciPy module these names are of

    @classmethod
    def read(cls, module: cst.Module, submodule: str = "sparse") -> "SparseNames":
        full = f"scipy.{submodule}"
        modules, functions, scipy = set(), set(), set()
        for kind in (cst.Import, cst.ImportFrom):
            for node in walk.nodes_of(module, kind):
                names = node.names  # type: ignore[attr-defined]
                if isinstance(names, cst.ImportStar):
                    continue
                if isinstance(node, cst.ImportFrom):
                    source = dotted_name(node.module) if node.module is not None and not node.relative else ""
                    for alias in names:
                        local = alias.evaluated_alias or dotted_name(alias.name)
                        if source == "scipy" and dotted_name(alias.name) == submodule:
                            modules.add(local)
                        elif source == full:  # (not `scipy.sparse.linalg`'s solvers, which take arrays)
                            functions.add(local)
                    continue
                for alias in names:
                    imported = dotted_name(alias.name)
                    if alias.asname is not None and imported == full:
                        modules.add(alias.evaluated_alias or "")
                    elif imported.split(".")[0] == "scipy":
                        scipy.add(alias.evaluated_alias or "scipy")
        return cls(frozenset(modules), frozenset(functions), frozenset(scipy), submodule)

    def __bool__(self) -> bool:
        return bool(self.modules or self.functions or self.scipy)

    def is_sparse_call(self, node: cst.CSTNode) -> bool:
        """A call of a `scipy.sparse` function or class that makes a matrix (`sp.diags(d)`, `csr_matrix(a)`,
        `scipy.sparse.eye(n)`); not a test (`issparse(X)`, `isspmatrix_csr(X)`), which takes anything. (For another
        submodule, a call of one of its functions: `dct(y)`, `fftpack.fft(y)`, `scipy.fftpack.dct(y)`.)"""
        if not isinstance(node, cst.Call):
            return False
        func = node.func
        if isinstance(func, cst.Name):
            return func.value in self.functions and not func.value.startswith("is")
        if not isinstance(func, cst.Attribute) or func.attr.value.startswith("is"):
            return False
        owner = func.value
        if isinstance(owner, cst.Name):
            return owner.value in self.modules
        return isinstance(owner, cst.Attribute) and owner.attr.value == self.submodule and isinstance(owner.value, cst.Name) \
            and owner.value.value in self.scipy
