# cython: language_level=3
"""Numerically stable scalar helpers shared by the compiled modules (inline).

Log domain, no exp of a positive unbounded argument: sigmoid and
log-add-exp branch on the sign so that exp only ever sees x <= 0.
"""

from libc.math cimport exp, log, log1p


cdef inline double sigmoid(double x) noexcept nogil:
    cdef double e
    if x >= 0:
        return 1.0 / (1.0 + exp(-x))
    e = exp(x)
    return e / (1.0 + e)


cdef inline double logaddexp(double a, double b) noexcept nogil:
    if a > b:
        return a + log1p(exp(b - a))
    return b + log1p(exp(a - b))


cdef inline double xlogx(double x) noexcept nogil:
    """x log x with its limit 0 at x = 0 (entropy terms)."""
    if x <= 0.0:
        return 0.0
    return x * log(x)
