"""The API surface of the installed `jax.numpy`, learned from jax.numpy itself (not a hand-kept list).

Importing jax costs about a second, so the surface is computed once per jax version and cached as JSON in the user
cache folder (`$JAXFIX_CACHE_DIR`, else `$XDG_CACHE_HOME/jaxfix`, else `~/.cache/jaxfix`). Each entry records what
kind of object the name is and, for functions, the names of the parameters it accepts (None: accepts any keyword),
how many it takes by position (`positional`; None: any number, or not known) and its whole signature
(`signature`, which `binding_problem` binds a call against).
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import os
import tempfile
from functools import lru_cache
from typing import Optional

SUBMODULES = ("linalg", "fft")

# NumPy functions with no `jax.numpy` namesake that are `jnp.asarray` for JAX arrays (JX501 renames them so, as an
# unsafe fix: `np.asanyarray` keeps an array subclass, `np.matrix` or a masked array, which JAX has none of). Not `ascontiguousarray`: it gives at least 1-D
# (`np.ascontiguousarray(2.5)` has shape (1,)).
SUBSTITUTES = {"asanyarray": "asarray"}

# NumPy utilities that only configure or describe the host, or read host data: JX501 leaves them NumPy (they are
# fine on static values), so what they give stays a NumPy array.
HOST_ONLY = {
    "errstate", "seterr", "geterr", "printoptions", "set_printoptions", "get_printoptions", "dtype", "isscalar",
    "iinfo", "finfo", "ndindex", "broadcast_shapes", "result_type", "can_cast", "promote_types", "issubdtype",
    "min_scalar_type", "find_common_type",
    "isdtype",  # `jnp.isdtype` raises TypeError on a scalar type as kind (`np.isdtype(d, np.number)` is False)
    "load", "save", "savez", "loadtxt", "savetxt", "genfromtxt", "fromfile", "memmap",
    "frombuffer", "fromstring",  # bytes from files and sockets: host I/O, and often in a non-native byte order
    "fromiter",  # reads a Python iterator (`jnp.fromiter` raises NotImplementedError)
}


def _cache_dir() -> str:
    explicit = os.environ.get("JAXFIX_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "jaxfix")


def _params(obj: object) -> Optional[list[str]]:
    try:
        sig = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    return [p.name for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_POSITIONAL]


def _positional(obj: object) -> Optional[int]:
    """How many arguments `obj` takes by position (`jnp.sort(a, axis=-1, *, kind=None, ...)`: 2), or None (it takes
    `*args`, or its signature is not known)."""
    try:
        sig = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in sig.parameters.values()]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    return sum(k in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) for k in kinds)


_KINDS = {inspect.Parameter.POSITIONAL_ONLY: "positional", inspect.Parameter.POSITIONAL_OR_KEYWORD: "either",
          inspect.Parameter.VAR_POSITIONAL: "args", inspect.Parameter.KEYWORD_ONLY: "keyword",
          inspect.Parameter.VAR_KEYWORD: "kwargs"}


def _signature(obj: object) -> Optional[list[list]]:
    """[name, kind, has a default] for each parameter of `obj` (kind: "positional" only, "either", "args",
    "keyword" only, "kwargs"), or None when its signature is not known."""
    try:
        sig = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return [[p.name, _KINDS[p.kind], p.default is not inspect.Parameter.empty] for p in sig.parameters.values()]


def _describe(namespace: object) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in dir(namespace):
        if name.startswith("_"):
            continue
        obj = getattr(namespace, name, None)
        if obj is None:
            continue
        kind_name = type(obj).__name__
        if inspect.ismodule(obj):
            continue
        if kind_name == "ufunc":
            methods = [m for m in ("reduce", "accumulate", "at", "outer", "reduceat") if hasattr(obj, m)]
            out[name] = {"kind": "ufunc", "params": _params(obj), "methods": methods}
        elif kind_name == "_ScalarMeta":
            out[name] = {"kind": "scalar", "params": None}
        elif inspect.isclass(obj):
            out[name] = {"kind": "class", "params": None}
        elif callable(obj):
            out[name] = {"kind": "function", "params": _params(obj), "positional": _positional(obj),
                         "signature": _signature(obj)}
        else:
            out[name] = {"kind": "constant", "params": None}
    return out


def _compute() -> dict[str, dict]:
    import jax.numpy as jnp

    surface = {name: entry for name, entry in _describe(jnp).items()}
    for sub in SUBMODULES:
        for name, entry in _describe(getattr(jnp, sub)).items():
            surface[f"{sub}.{name}"] = entry
    return surface


@lru_cache(maxsize=1)
def surface() -> dict[str, dict]:
    """Qualified names relative to jax.numpy ("sum", "linalg.norm") -> {"kind", "params", ...}."""
    try:
        version = importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover
        version = "unknown"
    path = os.path.join(_cache_dir(), f"jnp-api-{version}-3.json")  # (-2: entries say `positional`; -3: `signature`)
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        pass
    data = _compute()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home is fine: compute again next time
    return data


def lookup(numpy_name: str) -> Optional[dict]:
    """The jax.numpy entry for a qualified NumPy name such as "numpy.linalg.norm", or None."""
    if not numpy_name.startswith("numpy."):
        return None
    return surface().get(numpy_name[len("numpy.") :])


def positional_limit(entry: dict) -> Optional[int]:
    """How many arguments the function takes by position (`jnp.argsort`: 2, where NumPy's takes `kind` third), or
    None (any number, or not known)."""
    return entry.get("positional")


def binding_problem(entry: dict, positional: int, keywords: list[str]) -> Optional[str]:
    """Why a call with `positional` arguments by position and these `keywords` does not bind to the function's
    signature (as `inspect.Signature.bind` would say), or None (it binds, or the signature is not known): a
    required parameter left out (`jnp.permute_dims(a)`: `axes`), a positional-only one given by keyword
    (`jnp.real(val=x)`), a keyword it does not take, one given twice, too many arguments by position."""
    signature = entry.get("signature")
    if signature is None:
        return None
    slots = [name for name, kind, _ in signature if kind in ("positional", "either")]
    if positional > len(slots) and not any(kind == "args" for _, kind, _ in signature):
        return f"it takes at most {len(slots)} argument(s) by position"
    filled = set(slots[:positional])
    kinds = {name: kind for name, kind, _ in signature}
    for keyword in keywords:
        if kinds.get(keyword) == "positional":
            return f"`{keyword}` is positional-only there"
        if kinds.get(keyword) not in ("either", "keyword"):
            if any(kind == "kwargs" for _, kind, _ in signature):
                continue
            return f"it takes no keyword `{keyword}`"
        if keyword in filled:
            return f"`{keyword}` would be given twice"
        filled.add(keyword)
    missing = [name for name, kind, default in signature
               if not default and kind in ("positional", "either", "keyword") and name not in filled]
    if missing:
        return "it requires " + ", ".join(f"`{name}`" for name in missing)
    return None


def accepts_keywords(entry: dict, keywords: list[str]) -> bool:
    params = entry.get("params")
    return params is None or all(k in params for k in keywords)
