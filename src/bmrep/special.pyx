# cython: language_level=3, boundscheck=False, wraparound=False
"""The logistic and softplus functions for hot loops of the Python code (compiled, in place).

``scipy.special.expit`` is the logistic function everywhere else. In float32
it evaluates libm's ``expf`` one element at a time, about 4 ns an element: in
the mean-field fixed point of a DBM update (Salakhutdinov 2010, section 2.1;
12 logistic calls on 100 x 1500 values) that was an eighth of the whole
update. :func:`logistic_` is the same function built on the kernels' exp of
a non-positive argument (``_expn.h``), vectorised: about 2 ulp from the exact
value (the tests check it against ``scipy.special.expit`` in float64).

:func:`softplus_` is ``log(1 + e^x)`` built the same way (``_expn.h``: that
exp and fdlibm's log kernel), for the AIS weights of the RBM and DBM
families, whose hidden units are summed out analytically (one softplus per
unit, chain and inverse temperature: Salakhutdinov & Murray 2008, eq. 12;
Carlson et al. 2016, eq. 2). ``scipy.special.softplus`` (``np.logaddexp``)
takes about 20 ns an element, and was about a third of a DBM AIS step.

:func:`positive_part_sum`, :func:`tempered_softplus_sum`,
:func:`tempered_pair_sums` and :func:`affine_softplus_sum` are the row sums
of the tempered families' ``log f`` (numpy's expressions to the last bit, a
row at a time in ``_row_sums.h``): numpy's (chains x units) float64
temporaries pushed the weights out of the cache between the matrix products
of an AIS step (784x500, float32: 3.0 -> 2.0 ms a step).

:func:`exp_` and :func:`log_` (float64) are the full-range exp and log of
the mean-field solver of sigmoid belief networks (``bmrep.meanfield._sbn``,
Saul et al. 1996, eqs. 22 and 33), vectorised over a unit's parents or
children; here so that the tests can hold them to numpy's.
"""

cimport numpy as cnp
import numpy as np

cnp.import_array()


cdef extern from "_expn.h":
    void bm_logistic_d(double* x, Py_ssize_t n) noexcept nogil
    void bm_logistic_f(float* x, Py_ssize_t n) noexcept nogil
    void bm_softplus_d(double* x, Py_ssize_t n) noexcept nogil
    void bm_softplus_f(float* x, Py_ssize_t n) noexcept nogil
    void bm_exp_scaled_d(const double* w, double s, double* out, Py_ssize_t n) noexcept nogil
    void bm_log_inplace_d(double* x, Py_ssize_t n) noexcept nogil

cdef extern from "_row_sums.h":
    void bm_row_sums_d(const double* x, Py_ssize_t n, Py_ssize_t F, int mode, double b1, double b2,
                       const double* offset, double* buf, double* out) noexcept nogil
    void bm_row_sums_f(const float* x, Py_ssize_t n, Py_ssize_t F, int mode, double b1, double b2,
                       const double* offset, double* buf, double* out) noexcept nogil


ctypedef void (*_double_fn)(double*, Py_ssize_t) noexcept nogil
ctypedef void (*_float_fn)(float*, Py_ssize_t) noexcept nogil


cdef object _in_place(x, str name, _double_fn fd, _float_fn ff):
    """Apply ``fd`` (float64) or ``ff`` (float32) to the C-contiguous, writeable array ``x``; return ``x``."""
    if type(x) is not cnp.ndarray or not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x) or not cnp.PyArray_ISWRITEABLE(<cnp.ndarray> x):
        raise ValueError(f"{name} needs a C-contiguous, writeable numpy array")
    cdef int t = cnp.PyArray_TYPE(<cnp.ndarray> x)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray> x)
    cdef void* p = cnp.PyArray_DATA(<cnp.ndarray> x)
    if t == cnp.NPY_DOUBLE:
        with nogil:
            fd(<double*> p, n)
    elif t == cnp.NPY_FLOAT and ff != NULL:
        with nogil:
            ff(<float*> p, n)
    else:
        raise TypeError(f"{name} needs {'float64 or float32' if ff != NULL else 'float64'}, got {x.dtype}")
    return x


def logistic_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 or float32 array) with ``1 / (1 + exp(-x))``; return it."""
    return _in_place(x, "logistic_", bm_logistic_d, bm_logistic_f)


def softplus_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 or float32 array) with ``log(1 + exp(x))``; return it."""
    return _in_place(x, "softplus_", bm_softplus_d, bm_softplus_f)


def softplus_sum_(x):
    """``log(1 + exp(x))`` summed over the last axis (float64 if ``x`` is), overwriting ``x``: pass a temporary.

    The hidden units' part of ``log f`` of the RBM and DBM families with the
    hidden layer summed out (one row per chain).
    """
    return softplus_(x).sum(axis=-1)


cdef object _dispatch_row_sums(x, int mode, double beta=0.0, double beta2=0.0, offset=None):
    """The row sums of ``_row_sums.h`` (modes there) of a 2-D float32 or float64 array: (n,) or (3, n)."""
    x = np.ascontiguousarray(x)
    if x.ndim != 2 or x.dtype not in (np.float32, np.float64):
        raise TypeError(f"needs a 2-D float32 or float64 array, got {x.ndim}-D {x.dtype}")
    cdef Py_ssize_t n = x.shape[0], F = x.shape[1]
    out = np.zeros((3, n)) if mode == 3 else np.zeros(n)
    if F == 0 or n == 0:
        return out
    cdef cnp.ndarray off = np.ascontiguousarray(np.broadcast_to(np.asarray(offset if offset is not None else 0.0, np.float64), (F,)))
    cdef cnp.ndarray buf = np.empty(3 * F)
    cdef cnp.ndarray o = out
    cdef cnp.ndarray xa = x
    cdef bint single = x.dtype == np.float32
    with nogil:
        if single:
            bm_row_sums_f(<const float*> cnp.PyArray_DATA(xa), n, F, mode, beta, beta2, <const double*> cnp.PyArray_DATA(off),
                          <double*> cnp.PyArray_DATA(buf), <double*> cnp.PyArray_DATA(o))
        else:
            bm_row_sums_d(<const double*> cnp.PyArray_DATA(xa), n, F, mode, beta, beta2, <const double*> cnp.PyArray_DATA(off),
                          <double*> cnp.PyArray_DATA(buf), <double*> cnp.PyArray_DATA(o))
    return out


def positive_part_sum(x):
    """``np.maximum(x, 0.0).sum(axis=1)`` of a 2-D float32 or float64 array, in float64, to numpy's last bit.

    With :func:`tempered_softplus_sum`, the hidden units' part of ``log f``
    of the tempered RBM family (Carlson et al. 2016, eq. 2) with the hidden
    layer summed out, ``sum_j [max(x_j, 0) + softplus(-beta |x_j|)]``, without
    the (n, F) float64 copies of the numpy expression (they were most of an
    AIS step's time outside its matrix products).
    """
    return _dispatch_row_sums(x, 0)


def tempered_softplus_sum(x, double beta):
    """``softplus_sum_(-np.abs(x.astype(float64)) * beta)`` per row of a 2-D float32 or float64 array, bit for bit."""
    return _dispatch_row_sums(x, 1, beta)


def tempered_pair_sums(x, double beta_a, double beta_b):
    """``positive_part_sum(x)``, ``tempered_softplus_sum(x, beta_a)`` and ``(x, beta_b)`` in one pass (3, n)."""
    return _dispatch_row_sums(x, 3, beta_a, beta_b)


def affine_softplus_sum(x, double beta, offset):
    """``softplus_sum_(beta * x.astype(float64) + offset)`` per row, bit for bit (``offset``: float64, one per column).

    The summed-out layer of the tempered DBM family: ``offset = (1 - beta) a``
    for base logits ``a`` (Salakhutdinov & Murray 2008; :func:`bmrep.models.dbm.tempered_log_f`).
    """
    return _dispatch_row_sums(x, 2, beta, 0.0, offset)


cdef void _exp_d(double* x, Py_ssize_t n) noexcept nogil:
    bm_exp_scaled_d(x, 1.0, x, n)


def exp_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 array) with ``exp(x)``; return it."""
    return _in_place(x, "exp_", _exp_d, NULL)


def log_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 array) with ``log(x)``; return it."""
    return _in_place(x, "log_", bm_log_inplace_d, NULL)
