# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""One compiled SGD update of a float64 binary RBM (private; used by :func:`bmrep.learning.rbm_training.train_rbm`).

Brügge, Fischer & Igel (2013, sec. 4.2) train 720 RBMs of 16 x 16 units
(and 784 x 10 on MNIST) with CD-k, PCD-k and t-PT_k. At that size the numpy
expressions of an update (the gradient of eq. 3, ``rbm_gradient``, and
``SGD.step``) cost more in per-call overhead than in arithmetic: about half of
an update. :class:`SGDStep` does the same update in one call, **to the last
bit**, by repeating numpy's arithmetic operation for operation:

* every matrix product goes to *numpy's own* ``cblas_dgemm`` (the OpenBLAS
  that ``numpy.matmul`` calls, found once at import, with the arguments
  numpy passes for ``a @ b`` and ``a.T @ b``): another BLAS (scipy's, a
  different OpenBLAS build) sums some of these shapes in another order.
  Where numpy's is not found, the products are ``numpy.matmul`` calls
  (the same bits, a microsecond more each);
* ``expit`` is ``1 / (1 + exp(-x))`` with libm's ``exp``, as scipy's;
* column sums add the rows in order (numpy's reduction over axis 0 of a
  C-contiguous array), then divide by the row count;
* ``p += lr * g``: the product rounded, then the sum (no FMA: the module is
  built with ``-ffp-contract=off``).

With a CD/PCD chain set the update also gathers its minibatch and runs the
``k`` sweeps of the sampler (``bmrep.sampling._kernels.rbm_sweeps``, the
operators' own kernel) on the chain set's arrays, so CD-k and PCD-k updates
are one call. ``tests/learning/test_rbm_step.py`` checks whole trainings against the
numpy loop bit for bit.
"""

cimport numpy as cnp
from libc.math cimport exp, isfinite
from libc.stdint cimport int64_t, uintptr_t

import ctypes
import glob
import os

import numpy as np

from bmrep.sampling import _kernels

cnp.import_array()

ctypedef void (*dgemm_t)(int order, int ta, int tb, int64_t M, int64_t N, int64_t K, double alpha,
                         const double* A, int64_t lda, const double* B, int64_t ldb, double beta,
                         double* C, int64_t ldc) noexcept nogil

cdef enum:
    ROW_MAJOR = 101
    NO_TRANS = 111
    TRANS = 112


def _numpy_cblas_dgemm() -> int:
    """Address of ``cblas_dgemm`` in the OpenBLAS that numpy's wheels bundle (ILP64), or 0 if not found."""
    here = os.path.dirname(np.__file__)
    for lib in sorted(glob.glob(here + ".libs/*openblas64_*") + glob.glob(os.path.join(here, ".dylibs", "*openblas64_*"))):
        try:
            return ctypes.cast(getattr(ctypes.CDLL(lib), "scipy_cblas_dgemm64_"), ctypes.c_void_p).value or 0
        except (OSError, AttributeError):
            continue
    return 0


cdef dgemm_t _dgemm = <dgemm_t> <uintptr_t> _numpy_cblas_dgemm()
NUMPY_BLAS = _dgemm != NULL  # True: products through numpy's cblas_dgemm; False: numpy.matmul calls


cdef inline double* _ptr(cnp.ndarray a):
    return <double*> cnp.PyArray_DATA(a)


cdef inline void _expit_plus(double* x, const double* c, Py_ssize_t rows, Py_ssize_t m) noexcept nogil:
    # expit(x + c) as scipy.special.expit(np.add(x, c)): 1 / (1 + exp(-(x + c)))
    cdef Py_ssize_t i, j
    cdef double t
    for i in range(rows):
        for j in range(m):
            t = x[i * m + j] + c[j]
            x[i * m + j] = 1.0 / (1.0 + exp(-t))


cdef inline void _col_sums(const double* a, Py_ssize_t rows, Py_ssize_t n, double* out) noexcept nogil:
    # numpy's a.sum(axis=0) of a C-contiguous array: the first row, then the others added in order
    cdef Py_ssize_t i, j
    for j in range(n):
        out[j] = a[j]
    for i in range(1, rows):
        for j in range(n):
            out[j] = out[j] + a[i * n + j]


cdef inline bint _sgd(double* p, const double* gd, const double* gm, double nd, double nm, double lr,
                      Py_ssize_t size) noexcept nogil:
    # p += lr * (gd / nd - gm / nm); True if every new value is finite
    cdef Py_ssize_t i
    cdef double g
    cdef bint ok = True
    for i in range(size):
        g = gd[i] / nd - gm[i] / nm
        p[i] = p[i] + lr * g
        ok = ok and isfinite(p[i])
    return ok


def _require(a, str name, shape):
    if type(a) is not np.ndarray or a.dtype != np.float64 or not a.flags.c_contiguous or a.shape != shape:
        raise ValueError(f"{name} must be a C-contiguous float64 array of shape {shape}, "
                         f"got {type(a).__name__} {getattr(a, 'dtype', '')} {getattr(a, 'shape', '')}")
    return a


cdef class SGDStep:
    """``params += lr * rbm_gradient(rbm, X[rows], v_model)`` in place, one call an update.

    Parameters
    ----------
    W, b, c : ndarray, float64, C-contiguous
        The live parameters (updated in place).
    X : ndarray (N, n_visible), float64, C-contiguous
        The training data; an update's minibatch is ``X[rows]``.
    batch_size, n_model : int
        Rows of a minibatch and of the model samples.
    chains : dict or None
        A CD/PCD chain set whose sweeps run inside the update: ``v``, ``h``
        (its state arrays, n_model rows), ``pointers`` (its streams),
        ``k``, ``mode``, ``alpha``, ``n_threads`` (as for ``rbm_sweeps``) and
        ``persistent`` (False: the chains restart at the minibatch, CD).
        None: the model samples are passed to each call.
    numpy_blas : bool
        Products through numpy's ``cblas_dgemm`` where it was found (default);
        False: through ``numpy.matmul`` (the same bits; for tests).
    """

    cdef cnp.ndarray W, b, c, X, vd, hd, hm, gw_d, gw_m, s_d, s_m
    cdef object chains, sweep_args
    cdef Py_ssize_t n, m, B, M, N
    cdef bint persistent, blas

    def __init__(self, W, b, c, X, int batch_size, int n_model, chains=None, numpy_blas=True):
        nv, nh = W.shape[0], W.shape[1]
        self.W = _require(W, "W", (nv, nh))
        self.b = _require(b, "b", (nv,))
        self.c = _require(c, "c", (nh,))
        self.X = _require(X, "X", (X.shape[0], nv))
        self.n, self.m, self.B, self.M, self.N = nv, nh, batch_size, n_model, X.shape[0]
        self.vd = np.empty((batch_size, nv))
        self.hd = np.empty((batch_size, nh))
        self.hm = np.empty((n_model, nh))
        self.gw_d, self.gw_m = np.empty((nv, nh)), np.empty((nv, nh))
        self.s_d, self.s_m = np.empty(max(nv, nh)), np.empty(max(nv, nh))
        self.chains = chains
        self.blas = bool(numpy_blas) and _dgemm != NULL
        if chains is not None:
            _require(chains["v"], "chain states v", (n_model, nv))
            _require(chains["h"], "chain states h", (n_model, nh))
            self.persistent = bool(chains["persistent"])
            if not self.persistent and n_model != batch_size:
                raise ValueError(f"CD restarts {n_model} chains at a minibatch of {batch_size} rows")
            self.sweep_args = (W, b, c, chains["v"], chains["h"], None, None, chains["pointers"], int(chains["k"]),
                               int(chains["mode"]), float(chains["alpha"]), int(chains["n_threads"]), None, None)

    cdef void _product(self, cnp.ndarray a, bint trans_a, cnp.ndarray bm, cnp.ndarray out):
        # out = a @ bm (trans_a: a.T @ bm) exactly as numpy.matmul computes it
        cdef int64_t M = a.shape[1] if trans_a else a.shape[0]
        cdef int64_t K = a.shape[0] if trans_a else a.shape[1]
        cdef int64_t N = bm.shape[1]
        cdef int64_t lda = a.shape[1]
        if self.blas:
            _dgemm(ROW_MAJOR, TRANS if trans_a else NO_TRANS, NO_TRANS, M, N, K, 1.0, _ptr(a), lda, _ptr(bm), N,
                   0.0, _ptr(out), N)
        else:
            np.matmul(a.T if trans_a else a, bm, out=out)

    def __call__(self, rows, double lr, v_model=None):
        """One update with minibatch ``X[rows]`` (``rows`` int64) and learning rate ``lr``.

        ``v_model`` (n_model, n_visible): the model samples, unless the chain
        set's sweeps make them. Returns False if a parameter became non-finite.
        """
        cdef cnp.ndarray idx = np.ascontiguousarray(rows, dtype=np.int64)
        cdef Py_ssize_t B = self.B, n = self.n, m = self.m, i, j, r
        cdef const int64_t* ip = <const int64_t*> cnp.PyArray_DATA(idx)
        cdef double* vd = _ptr(self.vd)
        cdef double* X = _ptr(self.X)
        cdef cnp.ndarray vm
        if idx.shape[0] != B:
            raise ValueError(f"a minibatch has {B} rows, got {idx.shape[0]}")
        for i in range(B):
            r = ip[i]
            if r < 0 or r >= self.N:
                raise IndexError(f"row {r} out of range for {self.N} training examples")
            for j in range(n):
                vd[i * n + j] = X[r * n + j]
        if self.chains is not None:
            vm = self.chains["v"]
            if not self.persistent:
                vm[...] = self.vd
            _kernels.rbm_sweeps(*self.sweep_args)
        else:
            if type(v_model) is np.ndarray and v_model.ndim == 2 and v_model.shape[0] != self.M:
                self.M = v_model.shape[0]  # a negative phase's sample size is known at its first sample
                self.hm = np.empty((self.M, m))
            vm = _require(v_model, "v_model", (self.M, n))
        self._product(self.vd, False, self.W, self.hd)
        self._product(vm, False, self.W, self.hm)
        cdef double* hd = _ptr(self.hd)
        cdef double* hm = _ptr(self.hm)
        cdef double* c = _ptr(self.c)
        with nogil:
            _expit_plus(hd, c, B, m)
            _expit_plus(hm, c, self.M, m)
        self._product(self.vd, True, self.hd, self.gw_d)
        self._product(vm, True, self.hm, self.gw_m)
        cdef double nd = <double> B, nm = <double> self.M
        cdef double* sd = _ptr(self.s_d)
        cdef double* sm = _ptr(self.s_m)
        cdef double* vmp = _ptr(vm)
        cdef double* Wp = _ptr(self.W)
        cdef double* bp = _ptr(self.b)
        cdef double* gd = _ptr(self.gw_d)
        cdef double* gm = _ptr(self.gw_m)
        cdef bint ok
        with nogil:
            ok = _sgd(Wp, gd, gm, nd, nm, lr, n * m)
            _col_sums(vd, B, n, sd)
            _col_sums(vmp, self.M, n, sm)
            ok = _sgd(bp, sd, sm, nd, nm, lr, n) and ok
            _col_sums(hd, B, m, sd)
            _col_sums(hm, self.M, m, sm)
            ok = _sgd(c, sd, sm, nd, nm, lr, m) and ok
        return ok
