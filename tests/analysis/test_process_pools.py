"""`jaxfix.analysis.process_pools`: which calls hand their arguments to worker processes."""

import libcst as cst
import pytest

from jaxfix.analysis.process_pools import ProcessPools


def _handed(code: str) -> dict[str, bool]:
    module = cst.parse_module(code)
    pools = ProcessPools.read(module)
    found: dict[str, bool] = {}

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found[module.code_for_node(node)] = pools.handed(node) is not None

    module.visit(Calls())
    return found


@pytest.mark.parametrize("code, call", [
    # a thread pool shares the process; a `.map` of something that is no pool; no pool module imported
    ("from multiprocessing.pool import ThreadPool\n\ndef f(g, x):\n    tp = ThreadPool(2)\n    return tp.map(g, x)\n",
     "tp.map(g, x)"),
    ("from concurrent.futures import ThreadPoolExecutor\n\ndef f(g, x):\n    with ThreadPoolExecutor() as ex:\n"
     "        return ex.submit(g, x)\n", "ex.submit(g, x)"),
    ("import multiprocessing as mp\n\ndef f(g, x, df):\n    return df.map(g)\n", "df.map(g)"),
    ("from multiprocessing.dummy import Pool\n\ndef f(g, x):\n    with Pool(2) as p:\n        return p.map(g, x)\n",
     "p.map(g, x)"),
    ("def f(pool, g, x):\n    return pool.map(g, x)\n", "pool.map(g, x)"),
    ("import multiprocessing as mp\n\ndef f(g, x):\n    pool = mp.Pool(2)\n    return pool.close()\n", "pool.close()"),
    # a thread shares the process
    ("import threading\nimport multiprocessing as mp\n\ndef f(g, x):\n    return threading.Thread(target=g, args=(x,))\n",
     "threading.Thread(target=g, args=(x,))"),
])
def test_not_handed(code, call):
    assert not _handed(code)[call]


@pytest.mark.parametrize("code, call", [
    ("import multiprocessing as mp\n\ndef f(g, x):\n    pool = mp.Pool(2)\n    return pool.map(g, x)\n", "pool.map(g, x)"),
    ("from multiprocessing import Pool\n\ndef f(g, x):\n    with Pool(2) as p:\n        return p.imap(g, x)\n",
     "p.imap(g, x)"),
    ("import multiprocess\n\ndef f(g, x):\n    return multiprocess.Pool(2).starmap(g, x)\n",
     "multiprocess.Pool(2).starmap(g, x)"),
    ("import multiprocessing as mp\n\ndef f(g, x):\n    ctx = mp.get_context('spawn')\n    p = ctx.Pool(2)\n"
     "    return p.apply_async(g, (x,))\n", "p.apply_async(g, (x,))"),
    ("import concurrent.futures\n\ndef f(g, x):\n    with concurrent.futures.ProcessPoolExecutor() as ex:\n"
     "        return ex.submit(g, x)\n", "ex.submit(g, x)"),
    ("import multiprocessing as mp\n\nclass O:\n    def __init__(self):\n        self.pool = mp.Pool(2)\n\n"
     "    def run(self, g, x):\n        return self.pool.map(g, x)\n", "self.pool.map(g, x)"),
    ("from joblib import Parallel, delayed\n\ndef f(g, xs):\n    return Parallel(2)(delayed(g)(x) for x in xs)\n",
     "delayed(g)(x)"),
    ("import joblib\n\ndef f(g, xs):\n    return joblib.Parallel(2)(joblib.delayed(g)(x) for x in xs)\n",
     "joblib.delayed(g)(x)"),
    # a process started on a target, and a pool a function of the module makes (a code review: the child hung)
    ("import multiprocessing as mp\n\ndef f(g, x, q):\n    return mp.Process(target=g, args=(x, q))\n",
     "mp.Process(target=g, args=(x, q))"),
    ("import multiprocessing as mp\n\ndef f(g, x):\n    return mp.get_context('fork').Process(target=g, args=(x,))\n",
     "mp.get_context('fork').Process(target=g, args=(x,))"),
    ("import multiprocessing as mp\n\ndef make_pool():\n    return mp.Pool(2)\n\n"
     "def f(g, x):\n    pool = make_pool()\n    return pool.map_async(g, [x])\n", "pool.map_async(g, [x])"),
    ("import multiprocessing as mp\n\nclass O:\n    def _pool(self):\n        p = mp.Pool(2)\n        return p\n\n"
     "    def run(self, g, x):\n        with self._pool() as pool:\n            return pool.map(g, x)\n", "pool.map(g, x)"),
])
def test_handed(code, call):
    assert _handed(code)[call]


def test_workers():
    """The target of a `Process`, and what a pool made by a helper runs, are run by worker processes."""
    module = cst.parse_module(
        "import multiprocessing as mp\n\ndef work(x, q):\n    q.put(x)\n\ndef step(x):\n    return x\n\n"
        "def make_pool():\n    return mp.Pool(2)\n\ndef run(x, q):\n    mp.Process(None, work, args=(x, q)).start()\n"
        "    return make_pool().map(step, [x])\n")
    pools = ProcessPools.read(module)
    assert pools.worker("work") and pools.worker("step") and not pools.worker("run")


def test_workers_through_a_local_name():
    """`fn = nearest`, then `pool.map(fn, items)` (dtaidistance's k-means): the function the name is bound to runs in
    worker processes, and so does one bound through `partial`; a name bound to something else is not followed."""
    module = cst.parse_module(
        "import multiprocessing as mp\nfrom functools import partial\n\ndef nearest(t):\n    return t\n\n"
        "def scaled(k, t):\n    return k * t\n\ndef other(t):\n    return t\n\n"
        "def fit(items, parallel):\n    fn = nearest\n    g = partial(scaled, 2)\n    h = len\n"
        "    with mp.Pool(2) as p:\n        a = p.map(fn, items)\n        b = p.map(g, items)\n        c = p.map(h, items)\n"
        "    return a, b, c, list(map(other, items))\n")
    pools = ProcessPools.read(module)
    assert pools.worker("nearest") and pools.worker("scaled")
    assert not pools.worker("other") and not pools.worker("fit")
