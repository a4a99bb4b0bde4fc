"""Throughput of `jaxfix check` and `jaxfix migrate --diff` against the cost of just parsing the same files.

    python benchmarks/throughput.py                  # ~120k lines, in-process, one worker (the fair comparison)
    python benchmarks/throughput.py --cli            # also the real CLI (subprocess, default --jobs, no cache)
    python benchmarks/throughput.py --lines 20000 --profile   # smaller corpus, cProfile of the engine
    python benchmarks/throughput.py --only rewrite --breakdown  # where rewriting spends its time, by stage and rule

A corpus of realistic NumPy code is generated deterministically (a fixed seed) into a temporary folder, in two
groups measured separately:

- no-change files: plain Python modules, NumPy used only at module level (constants, data loading), code that is
  already JAX. A large codebase is mostly these; the target is under 1.5x the time of `ast.parse`.
- rewrite files: NumPy calls, in-place updates, host conversions, `np.random` inside functions. The target is under
  2x LibCST's parse + codegen time.

Every baseline (read + decode + `ast.parse`; read + decode + `libcst.parse_module` + `.code`) is measured in the same
run as jaxfix, over the same files, so the printed ratios do not depend on the machine. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from typing import Callable, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import libcst as cst  # noqa: E402

from jaxfix import source as sourcelib  # noqa: E402
from jaxfix.registry import all_rules  # noqa: E402
from jaxfix.runner import run_files  # noqa: E402
from jaxfix.types import RunOptions, Status  # noqa: E402

# ---------------------------------------------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------------------------------------------

WORDS = [
    "alpha", "beta", "grid", "field", "state", "step", "flux", "mass", "heat", "wave", "signal", "batch", "layer",
    "weight", "bias", "score", "loss", "error", "mesh", "cell", "node", "edge", "path", "trace", "sample", "point",
]


def _name(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{rng.randrange(1000)}"


PLAIN_BLOCKS = [
    '''
class {Name}Config:
    """Settings for the {a} stage, read from a mapping."""

    def __init__(self, values=None):
        values = dict(values or {{}})
        self.name = values.get("name", "{a}")
        self.limit = int(values.get("limit", {n}))
        self.tags = [t.strip() for t in values.get("tags", "").split(",") if t.strip()]

    def describe(self):
        parts = [f"{{self.name}}: limit={{self.limit}}"]
        if self.tags:
            parts.append("tags=" + ", ".join(sorted(self.tags)))
        return "; ".join(parts)
''',
    '''
def parse_{a}(lines):
    """Parse `key = value` lines, skipping comments and blanks."""
    out = {{}}
    for number, line in enumerate(lines, start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise ValueError(f"line {{number}}: expected key = value")
        key, value = (part.strip() for part in line.split("=", 1))
        out[key] = value
    return out
''',
    '''
def group_{a}(records, key="{b}"):
    groups = {{}}
    for record in records:
        groups.setdefault(record.get(key), []).append(record)
    return {{k: sorted(v, key=lambda r: r.get("id", 0)) for k, v in groups.items()}}
''',
    '''
def retry_{a}(fn, attempts={n}, delay=0.1):
    import time

    last = None
    for attempt in range(attempts):
        try:
            return fn()
        except OSError as error:  # transient
            last = error
            time.sleep(delay * (2 ** attempt))
    raise RuntimeError("gave up after {n} attempts") from last
''',
]

MODULE_LEVEL_BLOCKS = [
    '''
{A} = np.linspace(0.0, 1.0, {n})
{A}_WEIGHTS = np.ones({n}) / {n}
''',
    '''
TABLE_{A} = np.array([[1.0, 0.5], [0.5, 1.0]], dtype=np.float32)
INV_{A} = np.linalg.inv(TABLE_{A})
''',
    '''
def load_{a}(path):
    """Read a CSV of floats (host side, before any jit)."""
    with open(path) as handle:
        rows = [line.split(",") for line in handle if line.strip()]
    return [[float(v) for v in row] for row in rows]
''',
    '''
def summarize_{a}(values):
    total = sum(values)
    return {{"n": len(values), "mean": total / max(len(values), 1), "max": max(values, default=None)}}
''',
]

JAX_BLOCKS = [
    '''
@jax.jit
def {a}_step(u, alpha):
    """One explicit step, already functional."""
    lap = jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1)
    return u.at[1:-1].set(u[1:-1] + alpha * lap[1:-1])
''',
    '''
def {a}_loss(params, x, y):
    pred = jnp.tanh(x @ params["w"] + params["b"])
    return jnp.mean((pred - y) ** 2)


{a}_grad = jax.grad({a}_loss)
''',
    '''
def {a}_scan(xs, init):
    def body(carry, x):
        carry = carry * 0.9 + x
        return carry, jnp.sum(carry)

    return lax.scan(body, init, xs)
''',
    '''
def {a}_where(x, threshold={f}):
    return jnp.where(x > threshold, jnp.log1p(x), jnp.zeros_like(x))
''',
]

REWRITE_BLOCKS = [
    '''
def normalize_{a}(x, eps=1e-8):
    """Scale rows to unit norm."""
    norms = np.sqrt(np.sum(x ** 2, axis=1, keepdims=True))
    return x / np.maximum(norms, eps)
''',
    '''
def smooth_{a}(u, alpha={f}):
    out = np.zeros_like(u)
    out[0] = u[0]
    for k in range(1, u.shape[0]):
        out[k] = alpha * u[k] + (1 - alpha) * out[k - 1]
    return out
''',
    '''
def softmax_{a}(logits, axis=-1):
    shifted = logits - np.max(logits, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
''',
    '''
def clip_{a}(x, lo={f}, hi=1.0):
    y = x.copy()
    y[y < lo] = lo
    y[y > hi] = hi
    return np.mean(y), float(np.max(y))
''',
    '''
def energy_{a}(u):
    # clip tiny values before the log
    v = np.maximum(u, 1e-6)
    if v.sum() > 1.0:
        total = np.sum(v * np.log(v))
    else:
        total = 0.0
    return total
''',
    '''
def noisy_{a}(x, scale={f}):
    noise = np.random.normal(0.0, scale, size=x.shape)
    return np.clip(x + noise, -1.0, 1.0)
''',
    '''
def stats_{a}(x):
    centered = x - np.mean(x, axis=0)
    cov = np.dot(centered.T, centered) / (x.shape[0] - 1)
    vals, vecs = np.linalg.eigh(cov)
    return vals[::-1], vecs[:, ::-1]
''',
    '''
def histogram_{a}(idx, n={n}):
    counts = np.zeros(n)
    np.add.at(counts, idx, 1.0)
    counts /= np.sum(counts)
    return counts
''',
]


def _fill(template: str, rng: random.Random) -> str:
    a = _name(rng)
    return template.format(
        a=a, b=rng.choice(WORDS), Name=a.title().replace("_", ""), A=a.upper(), n=rng.randrange(2, 64),
        f=round(rng.uniform(0.05, 0.95), 2),
    )


def _module(kind: str, rng: random.Random, target_lines: int) -> str:
    header = {
        "plain": '"""Utilities for the {w} pipeline."""\nimport os\nimport json\n',
        "module_level": '"""Constants and host-side loading for {w}."""\nimport os\n\nimport numpy as np\n',
        "already_jax": '"""{w}, already written for JAX."""\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n',
        "rewrite": '"""{w} kernels, written the NumPy way."""\nimport math\n\nimport numpy as np\n',
    }[kind].format(w=rng.choice(WORDS))
    blocks = {"plain": PLAIN_BLOCKS, "module_level": MODULE_LEVEL_BLOCKS + PLAIN_BLOCKS, "already_jax": JAX_BLOCKS}.get(
        kind, REWRITE_BLOCKS + PLAIN_BLOCKS[:2]
    )
    parts = [header]
    lines = header.count("\n")
    while lines < target_lines:
        block = "\n" + _fill(rng.choice(blocks), rng)
        parts.append(block)
        lines += block.count("\n")
    return "".join(parts)


NO_CHANGE_KINDS = ("plain", "module_level", "already_jax")
MIX = (("plain", 3), ("module_level", 2), ("already_jax", 2), ("rewrite", 3))


def generate(folder: str, total_lines: int, seed: int = 20240601) -> dict[str, list[str]]:
    """Write the corpus; returns the files of each kind. Same seed, same bytes."""
    rng = random.Random(seed)
    weights = sum(w for _, w in MIX)
    files: dict[str, list[str]] = {kind: [] for kind, _ in MIX}
    for kind, weight in MIX:
        budget = total_lines * weight // weights
        sub = os.path.join(folder, kind)
        os.makedirs(sub, exist_ok=True)
        written = 0
        while written < budget:
            text = _module(kind, rng, rng.randrange(120, 480))
            path = os.path.join(sub, f"{kind}_{len(files[kind]):04d}.py")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            files[kind].append(path)
            written += text.count("\n")
    return files


RULES = all_rules()

# ---------------------------------------------------------------------------------------------------------------
# measurements
# ---------------------------------------------------------------------------------------------------------------


def _read(path: str) -> str:
    with open(path, "rb") as handle:
        return sourcelib.decode(handle.read()).text


def baseline_ast(files: Sequence[str]) -> None:
    for path in files:
        ast.parse(_read(path), filename=path)


def baseline_libcst(files: Sequence[str]) -> None:
    for path in files:
        cst.parse_module(_read(path)).code  # noqa: B018 - parse + codegen is the baseline


def jaxfix_check(files: Sequence[str]) -> None:
    run_files(files, RULES, RunOptions(), jobs=1)


def jaxfix_migrate_diff(files: Sequence[str]) -> None:
    results = run_files(files, RULES, RunOptions(fix=True, write=False), jobs=1)
    from jaxfix.reporting import unified_diff

    for r in results:
        unified_diff(r)


def timed(fn: Callable[[Sequence[str]], None], files: Sequence[str], repeat: int) -> float:
    """CPU seconds of this process (best of `repeat`): everything runs in-process on one worker, and CPU time keeps
    the ratios meaningful on a machine shared with other work, where wall-clock time is mostly waiting."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn(files)
        best = min(best, time.process_time() - start)
    return best


def count_lines(files: Sequence[str]) -> int:
    return sum(_read(p).count("\n") for p in files)


def describe(files: Sequence[str]) -> str:
    results = run_files(files, RULES, RunOptions(fix=True, write=False), jobs=1)
    by = {s: sum(r.status is s for r in results) for s in Status}
    return ", ".join(f"{n} {s.value}" for s, n in by.items() if n)


def measure_group(label: str, files: Sequence[str], repeat: int, target: str) -> None:
    lines = count_lines(files)
    t_ast = timed(baseline_ast, files, repeat)
    t_cst = timed(baseline_libcst, files, repeat)
    t_check = timed(jaxfix_check, files, repeat)
    t_diff = timed(jaxfix_migrate_diff, files, repeat)
    print(f"\n{label}: {len(files)} files, {lines} lines ({describe(files)})", flush=True)
    print(f"  {'':28} {'cpu s':>8} {'lines/s':>10} {'x ast.parse':>12} {'x libcst':>9}")
    for name, t in (
        ("ast.parse", t_ast),
        ("libcst parse+codegen", t_cst),
        ("jaxfix check", t_check),
        ("jaxfix migrate --diff", t_diff),
    ):
        print(f"  {name:28} {t:8.3f} {lines / t:10.0f} {t / t_ast:12.2f} {t / t_cst:9.2f}")
    print(f"  target: {target}")


def breakdown(files: Sequence[str], t_cst: float) -> None:
    """Where `migrate --diff` spends its CPU time on `files`, by stage (the engine's functions wrapped with timers;
    rule time is each rule's own visits, including the shared analyses it is first to ask for), each also as a
    multiple of LibCST's parse + codegen of the same files (`t_cst`): what a target on that ratio leaves each stage."""
    from collections import Counter

    from jaxfix import engine, prefilter, runner
    from jaxfix import rule as rulemod

    spent: Counter[str] = Counter()
    passes: dict[str, int] = {}
    saved = [(engine, "_parse"), (engine, "apply_reports"), (engine, "_code_of_fixed"), (engine, "_analyse"),
             (prefilter, "tree_filter"), (runner, "_index"), (rulemod, "_attributed")]
    originals = [getattr(module, name) for module, name in saved]

    def timing(fn: Callable, label: Callable[..., str]) -> Callable:
        def run(*args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[label(*args)] += time.process_time() - start
        return run

    def analyse_label(path: str, *rest: object) -> str:
        number = passes[path] = passes.get(path, -1) + 1
        return f"analysis, pass {min(number, 2)}{'+' if number >= 2 else ''} (all rules)"

    def attributed(rule: object, fn: Callable) -> Callable:
        return timing(originals[-1](rule, fn), lambda *_: f"  rule {type(rule).CODE}")  # type: ignore[attr-defined]

    labels = ["LibCST parse (first pass)", "applying fixes to the tree", "code generation of fixed trees", None,
              "pre-checks (ast parse per pass)", "project index (before rewriting)"]
    for (module, name), original, label in zip(saved[:-1], originals[:-1], labels):
        setattr(module, name, timing(original, analyse_label if label is None else (lambda *_, label=label: label)))
    rulemod._attributed = attributed
    try:
        start = time.process_time()
        jaxfix_migrate_diff(files)
        total = time.process_time() - start
    finally:
        for (module, name), original in zip(saved, originals):
            setattr(module, name, original)
    print(f"\nwhere migrate --diff spends its time on the rewrite files ({total:.2f} cpu s, "
          f"{total / t_cst:.2f}x libcst parse+codegen):")
    stages = {k: v for k, v in spent.items() if not k.startswith("  rule")}
    stages["other (reading, imports, compile check, diff)"] = total - sum(stages.values())
    for label, t in sorted(stages.items(), key=lambda kv: -kv[1]):
        print(f"  {label:52} {t:7.2f} s {100 * t / total:5.1f}% {t / t_cst:6.2f}x")
    print("  of the analysis, by rule (its visits, and the shared analyses it asks for first):")
    for label, t in sorted(((k, v) for k, v in spent.items() if k.startswith("  rule")), key=lambda kv: -kv[1])[:10]:
        print(f"  {label:52} {t:7.2f} s {100 * t / total:5.1f}% {t / t_cst:6.2f}x")


def measure_cli(folder: str, lines: int) -> None:
    print("\nCLI end to end (subprocess, default --jobs, --no-cache; includes interpreter start-up):")
    for args in (["check"], ["migrate", "--diff"]):
        cmd = [sys.executable, "-m", "jaxfix", *args, "--no-cache", "--no-progress", folder]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, cwd=os.path.dirname(HERE))
        t = time.perf_counter() - start
        print(f"  jaxfix {' '.join(args):22} {t:8.3f} s {lines / t:10.0f} lines/s (exit {proc.returncode})")
    cmd = [sys.executable, "-m", "jaxfix", "check", "--no-progress", folder]
    for run in ("cold cache", "warm cache"):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, cwd=os.path.dirname(HERE))
        t = time.perf_counter() - start
        print(f"  jaxfix check ({run}){'':9} {t:8.3f} s {lines / t:10.0f} lines/s (exit {proc.returncode})")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=120_000, help="corpus size in lines (default 120000)")
    parser.add_argument("--repeat", type=int, default=1, help="best of N timings (default 1)")
    parser.add_argument("--cli", action="store_true", help="also time the CLI end to end")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of migrate --diff on rewrite files")
    parser.add_argument("--breakdown", action="store_true",
                        help="print where migrate --diff spends its time on rewrite files, by stage and rule")
    parser.add_argument("--keep", metavar="DIR", help="write the corpus to DIR and keep it")
    parser.add_argument("--select", help="comma-separated rule selectors (default: all rules)")
    parser.add_argument("--only", choices=("no-change", "rewrite"), help="measure one group only")
    args = parser.parse_args(argv)

    folder = args.keep or tempfile.mkdtemp(prefix="jaxfix-bench-")
    files = generate(folder, args.lines)
    no_change = [p for kind in NO_CHANGE_KINDS for p in files[kind]]
    rewrite = files["rewrite"]
    if args.select:
        global RULES
        from jaxfix.registry import select_rules

        RULES = select_rules(tuple(args.select.split(",")))
    rules = RULES
    print(f"jaxfix throughput: {sum(map(len, files.values()))} files in {folder}")
    print(f"rules: {', '.join(r.CODE for r in rules)}; python {sys.version.split()[0]}; times are CPU seconds")
    # Warm-up outside the timings: imports, the jax.numpy API surface (cached on disk), regex compilation.
    start = time.process_time()
    jaxfix_migrate_diff(rewrite[:2])
    print(f"warm-up (2 files; loads the jax.numpy API surface): {time.process_time() - start:.2f} cpu s")

    if args.only != "rewrite":
        for kind in NO_CHANGE_KINDS:
            measure_group(f"no-change / {kind}", files[kind], args.repeat, "under 1.5x ast.parse")
        measure_group("no-change (all)", no_change, args.repeat, "jaxfix check under 1.5x ast.parse")
    if args.only != "no-change":
        measure_group("rewrite", rewrite, args.repeat, "jaxfix migrate --diff under 2x libcst parse+codegen")
    if args.breakdown:
        breakdown(rewrite, timed(baseline_libcst, rewrite, args.repeat))
    if args.cli:
        measure_cli(folder, count_lines(no_change) + count_lines(rewrite))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        jaxfix_migrate_diff(rewrite)
        profiler.disable()
        print("\nprofile of jaxfix migrate --diff on the rewrite files (top 25 by cumulative time):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(int(os.environ.get("JAXFIX_PROFILE_ROWS", "25")))
    if not args.keep:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
