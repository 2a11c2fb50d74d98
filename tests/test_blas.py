"""BLAS on one thread inside svmviz's computations (svmviz._blas): the limit nests across threads and
makes the kernel matrices' bits independent of the machine's BLAS thread count."""
import threading

import numpy as np
import scipy.linalg.cython_blas  # noqa: F401  (SciPy's BLAS loaded, as numba's np.dot loads it)
from threadpoolctl import ThreadpoolController

from svmviz._blas import one_blas_thread
from svmviz.kernels import SSANOVAKernel, fit_kernel, gram
from svmviz.kernels import _gram


def blas_threads():
    return [lib["num_threads"] for lib in ThreadpoolController().select(user_api="blas").info()]


def test_overlapping_computations_in_threads_restore_blas_threads_once_the_last_leaves():
    """Computations of two app sessions overlap: the one-thread limit holds until the last leaves, then
    the original thread counts are back (not the first one's one-thread setting, restored by the
    second)."""
    with ThreadpoolController().limit(limits=2, user_api="blas"):  # a count the limit visibly changes
        before = blas_threads()
        assert before and all(n == 2 for n in before)  # numpy's BLAS at least is found
        first, second = one_blas_thread(), one_blas_thread()
        first.__enter__()
        second.__enter__()
        assert all(n == 1 for n in blas_threads())
        first.__exit__(None, None, None)
        assert all(n == 1 for n in blas_threads())
        second.__exit__(None, None, None)
        assert blas_threads() == before


def test_the_limit_is_left_when_the_computation_raises():
    with ThreadpoolController().limit(limits=2, user_api="blas"):
        before = blas_threads()
        try:
            with one_blas_thread():
                raise KeyError("stop")
        except KeyError:
            pass
        assert blas_threads() == before


def test_kernel_blocks_are_multiplied_on_one_blas_thread_and_the_count_restored():
    seen = []

    def finish(blk, r0, c0):  # called inside the block loop, right after each product
        seen.append(blas_threads())

    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((300, 4)), rng.standard_normal((200, 4))
    with ThreadpoolController().limit(limits=2, user_api="blas"):
        before = blas_threads()
        _gram._blocked(A, B, finish)
        _gram._blocked(A, A, finish)
        assert blas_threads() == before
    assert seen and all(all(n == 1 for n in s) for s in seen), seen


def test_kernel_matrices_have_the_same_bits_whatever_the_blas_thread_count():
    """Every kernel on random shapes, with BLAS limited to one thread and to two around the call: the
    same bits (fails when the blocks' products run on the caller's thread count: OpenBLAS splits a
    product differently on two threads, and 35 of 40 such shapes differed in the last bits)."""
    ctl = ThreadpoolController()
    rng = np.random.default_rng(1)
    for _ in range(10):
        n, m, d = int(rng.integers(50, 700)), int(rng.integers(50, 700)), int(rng.integers(1, 30))
        A, B = rng.standard_normal((n, d)), rng.standard_normal((m, d))
        anova = fit_kernel(SSANOVAKernel(order="two-way"), A[:, :4])
        for kw in (dict(kernel="rbf", sigma=3.0), dict(kernel="linear"), dict(kernel="poly", degree=3)):
            with ctl.limit(limits=1, user_api="blas"):
                one = (gram(A, B, **kw), gram(A, **kw))
            with ctl.limit(limits=2, user_api="blas"):
                two = (gram(A, B, **kw), gram(A, **kw))
            for x, z in zip(one, two):
                assert x.tobytes() == z.tobytes(), (n, m, d, kw)
        with ctl.limit(limits=1, user_api="blas"):
            one = gram(A[:, :4], B[:, :4], kernel=anova)
        with ctl.limit(limits=2, user_api="blas"):
            two = gram(A[:, :4], B[:, :4], kernel=anova)
        assert one.tobytes() == two.tobytes(), (n, m, "SS-ANOVA")


def test_concurrent_kernel_matrices_in_threads_match_the_serial_ones():
    rng = np.random.default_rng(2)
    X = [rng.standard_normal((400, 6)) for _ in range(4)]
    serial = [gram(x, kernel="rbf", sigma=2.0) for x in X]
    out = [None] * 4
    threads = [threading.Thread(target=lambda k=k: out.__setitem__(k, gram(X[k], kernel="rbf", sigma=2.0)))
               for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(serial, out):
        assert a.tobytes() == b.tobytes()


def _bits(*arrays):
    return b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)


def test_an_irwls_prototype_fit_has_the_same_bits_whatever_the_blas_thread_count():
    """The semiparametric IRWLS machine (its products (n × q)ᵀ(n × q) and the prototypes' eigenvectors)
    with the caller's BLAS on one thread and on two: the same coefficients, intercept and iterations."""
    from svmviz.data import make_dataset
    from svmviz.usvc import IRWLSClassifier

    ctl = ThreadpoolController()
    ds = make_dataset("ringnorm", n=300, seed=1)
    X = (ds.X - ds.X.mean(0)) / ds.X.std(0)
    fits = []
    for limit in (1, 2):
        with ctl.limit(limits=limit, user_api="blas"):
            r = IRWLSClassifier(C=10.0, kernel="rbf", sigma=1.0, n_prototypes=90, prototypes="fscl").fit(X, ds.y)
            assert blas_threads() == [limit] * len(blas_threads())  # the caller's count is back after fit
        fits.append((_bits(r.coef_, r.intercept_, r.history_.coef), r.n_iter_))
    assert fits[0] == fits[1]

