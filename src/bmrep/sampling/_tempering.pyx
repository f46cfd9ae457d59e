# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled passes of the simulated-tempering temperature step (Carlson et al. 2016, eq. 7, Algorithm 1).

Private module; the public API is :mod:`bmrep.sampling.simulated_tempering`.

Each function computes, bit for bit, the numpy expression it replaces, with
fewer passes over the (chains x temperatures) matrix and no temporaries:

* :func:`shifted_logits`: ``a = offset + delta * betas`` then
  ``a - a.max(axis=1)`` (one product and one sum per entry, in numpy's order);
* :func:`normalise_rows`: ``a /= a.sum(axis=1)``, the row sum taken in numpy's
  pairwise order (``bm_pairwise_sum``);
* :func:`sample_rows`: ``(cumsum(q, axis=1) < u * cdf[:, -1]).sum(axis=1)``
  clipped to ``K - 1`` (the cumulative sum is sequential in numpy too, and
  non-decreasing, so the count is the first index where it reaches the
  threshold: a bisection).

The exp between the first two stays numpy's (``np.exp(a, out=a)``), so q is
unchanged to the last bit: these are a refactoring, not a new sampler. At
K = 1000 temperatures and 100 chains numpy's seven passes and its row-wise
cumsum cost about 7 ns an entry, more than the RBM sweep they follow. The loops are C (``_tempering.h``).
"""

import numpy as np

cdef extern from "_tempering.h":
    void bm_shifted_logits_row(double d, const double* betas, const double* offset, double* out, Py_ssize_t K) noexcept nogil
    void bm_normalise_row(double* a, Py_ssize_t K) noexcept nogil
    void bm_sample_rows(const double* q, const double* u, Py_ssize_t n, Py_ssize_t K, double* cdf, long* k_out) noexcept nogil


def shifted_logits(const double[::1] delta, const double[::1] betas, const double[::1] offset, double[:, ::1] out):
    """``out[i, k] = offset[k] + delta[i] * betas[k]`` minus its row maximum (eq. 7's log-odds, shifted)."""
    cdef Py_ssize_t n = out.shape[0], K = out.shape[1], i
    if delta.shape[0] != n or betas.shape[0] != K or offset.shape[0] != K:
        raise ValueError(f"shapes differ: delta {delta.shape[0]}, betas {betas.shape[0]}, offset {offset.shape[0]}, out ({n}, {K})")
    if K == 0:
        return
    with nogil:
        for i in range(n):
            bm_shifted_logits_row(delta[i], &betas[0], &offset[0], &out[i, 0], K)


def normalise_rows(double[:, ::1] a):
    """Divide every row of ``a`` by its sum (numpy's pairwise order), in place."""
    cdef Py_ssize_t n = a.shape[0], K = a.shape[1], i
    if K == 0:
        return
    with nogil:
        for i in range(n):
            bm_normalise_row(&a[i, 0], K)


def sample_rows(const double[:, ::1] q, const double[::1] u, long[::1] k_out):
    """Inverse-CDF draw per row of ``q`` (>= 0): ``k_out[i]`` = number of cumulative sums below ``u[i]`` times the row total, at most K - 1."""
    cdef Py_ssize_t n = q.shape[0], K = q.shape[1]
    cdef double[:, ::1] cdf
    if u.shape[0] != n or k_out.shape[0] != n or K == 0:
        raise ValueError(f"shapes differ: q ({n}, {K}), u {u.shape[0]}, k {k_out.shape[0]}")
    if n == 0:
        return
    cdf = np.empty((n, K))
    with nogil:
        bm_sample_rows(&q[0, 0], &u[0], n, K, &cdf[0, 0], &k_out[0])
