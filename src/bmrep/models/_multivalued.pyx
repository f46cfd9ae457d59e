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
from libc.math cimport exp, expm1, fabs, isinf, log, log1p, tanh

cdef double LN2 = 0.6931471805599453


cdef inline double _log_sinhc(double a) noexcept nogil:
    """ln(sinh(a) / a) for a >= 0, accurate to a few ulp everywhere."""
    cdef double a2
    if a < 0.1:
        a2 = a * a
        # Taylor series of ln(sinh a / a); next term ~ a^12 / 6.1e6
        return a2 * (1.0 / 6.0 + a2 * (-1.0 / 180.0 + a2 * (1.0 / 2835.0
                     + a2 * (-1.0 / 37800.0 + a2 * (1.0 / 467775.0)))))
    # sinh a = e^a (1 - e^{-2a}) / 2
    return a + log(-expm1(-2.0 * a)) - log(2.0 * a)


cdef inline double _langevin(double y) noexcept nogil:
    """coth(y) - 1/y, the derivative of ln(sinh(y)/y); odd in y."""
    cdef double a = fabs(y), y2, r
    if a < 0.1:
        y2 = y * y
        return y * (1.0 / 3.0 + y2 * (-1.0 / 45.0 + y2 * (2.0 / 945.0
                    + y2 * (-1.0 / 4725.0 + y2 * (2.0 / 93555.0)))))
    r = 1.0 / tanh(a) - 1.0 / a
    return r if y > 0 else -r


cdef inline double _log_phi(double x, double s) noexcept nogil:
    cdef double a = fabs(x)
    if isinf(s):
        return LN2 + _log_sinhc(a)
    if s == 1.0:
        # ln(2 cosh a)
        return a + log1p(exp(-2.0 * a))
    return LN2 + _log_sinhc((s + 1.0) * a / s) - _log_sinhc(a / s)


cdef inline double _psi(double x, double s) noexcept nogil:
    if isinf(s):
        return _langevin(x)
    if s == 1.0:
        return tanh(x)
    return (s + 1.0) / s * _langevin((s + 1.0) * x / s) - _langevin(x / s) / s


def log_phi(const double[:, ::1] x, double s, double[:, ::1] out):
    """``out = ln phi_s(x)`` elementwise (eq. 6; eq. 7 for ``s = inf``)."""
    cdef Py_ssize_t i, j, n = x.shape[0], m = x.shape[1]
    for i in prange(n, nogil=True, schedule="static", use_threads_if=n * m > 262144):
        for j in range(m):
            out[i, j] = _log_phi(x[i, j], s)


def psi(const double[:, ::1] x, double s, double[:, ::1] out):
    """``out = psi_s(x) = d ln phi_s / dx`` elementwise (eq. 14)."""
    cdef Py_ssize_t i, j, n = x.shape[0], m = x.shape[1]
    for i in prange(n, nogil=True, schedule="static", use_threads_if=n * m > 262144):
        for j in range(m):
            out[i, j] = _psi(x[i, j], s)


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
