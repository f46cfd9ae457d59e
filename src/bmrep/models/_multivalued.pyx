# cython: language_level=3
"""Compiled kernels of the RBM with multivalued hidden variables.

Yokoyama, Katsumata & Yasuda (2019), "Restricted Boltzmann machine with
multivalued hidden variables". Elementwise ``ln phi_s`` (eqs. 6/7) and
``psi_s`` (eq. 14), and the conditional sampling of ``h`` given the field
``lambda`` (eq. 9): a categorical over the ``s + 1`` levels of ``X(s)`` for
finite ``s`` and the inverse CDF of section 2 for ``s = inf``.

Every kernel is a pure function of its inputs (uniform variates are drawn
by the caller from its keyed stream), parallelised with ``prange`` over
rows, so the results do not depend on the number of threads.
"""

from cython.parallel import prange
from libc.math cimport exp, expm1, fabs, isinf, log, log1p

cdef extern from "_multivalued_phi.h":
    void mv_log_phi(const double* x, double s, double* out, Py_ssize_t n) noexcept nogil
    void mv_psi(const double* x, double s, double* out, Py_ssize_t n) noexcept nogil

ctypedef void (*_row_fn)(const double*, double, double*, Py_ssize_t) noexcept nogil


cdef void _rows(_row_fn f, const double[:, ::1] x, double s, double[:, ::1] out):
    """``f`` over every element: in one call, or row by row on threads when the array is large."""
    cdef Py_ssize_t i, n = x.shape[0], m = x.shape[1]
    if n * m == 0:
        return
    if n * m <= 262144:
        with nogil:
            f(&x[0, 0], s, &out[0, 0], n * m)
        return
    for i in prange(n, nogil=True, schedule="static"):
        f(&x[i, 0], s, &out[i, 0], m)


def log_phi(const double[:, ::1] x, double s, double[:, ::1] out):
    """``out = ln phi_s(x)`` elementwise (eq. 6; eq. 7 for ``s = inf``; ``_multivalued_phi.h``)."""
    _rows(mv_log_phi, x, s, out)


def psi(const double[:, ::1] x, double s, double[:, ::1] out):
    """``out = psi_s(x) = d ln phi_s / dx`` elementwise (eq. 14; ``_multivalued_phi.h``)."""
    _rows(mv_psi, x, s, out)


cdef inline double _sample_continuous(double lam, double u) noexcept nogil:
    """Inverse CDF of p(h) ∝ exp(lam h) on [-1, 1] (section 2), stable in lam."""
    cdef double a = fabs(lam), h, r
    if a == 0.0:
        h = 2.0 * u - 1.0
    elif a < 1.0:
        # F^{-1}(u) = 1 + ln(1 - (1-u)(1 - e^{-2a})) / a for the field a > 0
        h = 1.0 + log1p(-(1.0 - u) * (-expm1(-2.0 * a))) / a
    else:
        # ln(u + (1-u) e^{-2a}) as a log-sum-exp, no underflow for large a
        if u <= 0.0:
            h = -1.0
        else:
            h = log(u)
            r = log1p(-u) - 2.0 * a
            if r > h:
                h, r = r, h
            h = 1.0 + (h + log1p(exp(r - h))) / a
    if h > 1.0:
        h = 1.0
    elif h < -1.0:
        h = -1.0
    return h if lam >= 0.0 else -h


cdef inline double _sample_discrete(double lam, double u, int s) noexcept nogil:
    """Categorical over X(s) = {(2k - s)/s} with p(h) ∝ exp(lam h) (eq. 9).

    With a = |lam| the weight of level ``1 - 2j/s`` relative to the top level
    is r^j, r = exp(-2a/s) <= 1, so nothing overflows; walk the CDF from the
    most probable level.
    """
    cdef double a = fabs(lam), r = exp(-2.0 * a / s), total = 0.0, w = 1.0, acc, h
    cdef int j, k = s
    for j in range(s + 1):
        total += w
        w *= r
    acc = u * total
    w = 1.0
    for j in range(s):
        acc -= w
        if acc < 0.0:
            k = j
            break
        w *= r
    h = 1.0 - 2.0 * k / s
    return h if lam >= 0.0 else -h


def sample_hidden(const double[:, ::1] lam, double s, const double[:, ::1] u, double[:, ::1] out):
    """``out[i, j]`` ~ P_s(h | lambda = lam[i, j]) from the uniform ``u[i, j]``.

    Finite ``s``: categorical over ``X(s)``; ``s = inf``: inverse CDF of
    section 2, rewritten so it is stable for ``lambda -> 0`` and large
    ``|lambda|``.
    """
    cdef Py_ssize_t i, j, n = lam.shape[0], m = lam.shape[1]
    cdef bint cont = isinf(s)
    cdef int si = 0 if cont else <int>s
    for i in prange(n, nogil=True, schedule="static", use_threads_if=n * m > 262144):
        for j in range(m):
            if cont:
                out[i, j] = _sample_continuous(lam[i, j], u[i, j])
            else:
                out[i, j] = _sample_discrete(lam[i, j], u[i, j], si)
