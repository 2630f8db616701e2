"""mnn used from several Python threads at once: evaluation releases the GIL, so recording, the
plan cache, the arena and the shared pool are entered concurrently. Every thread's results must
equal numpy's, in-place updates must stay private to their arrays, and the pool must keep its
size (callers queue for it instead of each starting their own workers)."""
import threading

import numpy

import mnn
import mnn.numpy as mnp


def _worker(seed, iterations, errors):
    rng = numpy.random.default_rng(seed)
    try:
        for i in range(iterations):
            xn = rng.standard_normal((97, 131)).astype(numpy.float32)
            x = mnp.asarray(xn)
            # a row region (softmax sum), a fused chain and a reduction in one evaluation
            got = (x * 2 + 1).sum(axis=1) + mnp.exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1)
            want = (xn * 2 + 1).sum(axis=1) + numpy.exp(xn - xn.max(axis=-1, keepdims=True)).sum(axis=-1)
            if not numpy.allclose(numpy.asarray(got), want, rtol=1e-5, atol=1e-5):
                errors.append(f"thread {seed}, iteration {i}: values differ from numpy")
            counts = mnp.arange(1000) % (seed + 2)
            counts += 1  # in place, on a buffer no other thread can see
            if int(counts.sum()) != int((numpy.arange(1000) % (seed + 2) + 1).sum()):
                errors.append(f"thread {seed}, iteration {i}: in-place update lost")
    except Exception as e:  # reported by the test, not swallowed by the thread
        errors.append(f"thread {seed}: {e!r}")


def test_concurrent_python_threads_get_numpys_answers():
    errors = []
    threads = [threading.Thread(target=_worker, args=(seed, 40, errors)) for seed in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_concurrent_callers_share_one_pool():
    old = mnn.get_num_threads()
    try:
        mnn.set_num_threads(2)
        errors = []
        threads = [threading.Thread(target=_worker, args=(seed, 10, errors)) for seed in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert mnn.get_num_threads() == 2
    finally:
        mnn.set_num_threads(old)
