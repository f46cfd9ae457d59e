# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled block of exact RBM log Z: ``-F`` of consecutive enumerated states (private).

The public API is :func:`bmrep.models.exact.rbm.log_partition`, which sums
one layer out analytically and enumerates the other (``k`` units, ``F`` on
the other side). For each state ``s`` of a block it needs

    -F(s) = -(L(s) - sum_j softplus(beta (x_j + bias_j) + offset_j)),   x = s A,

``L`` the linear term (computed by numpy, one matrix-vector product a chunk)
and ``A`` the weights as (k, F) rows. numpy computes ``x = S @ A`` for the
whole chunk as a matrix product, ``k F`` multiply-adds a state. For 0/1
states a product is a sum of the rows of A that are on, and numpy's OpenBLAS
adds them in unit order from 0 (one accumulator per entry; tested by
:func:`unit_order_sums` against numpy on every shape used), so the same sums
come from a walk over the states: states that share their leading units
share the partial sum over them, and each block of ``2^L`` states costs about
``2 F`` additions a state (prefix sums of the leading units kept from block
to block, the last ``L`` units by doubling). Then, a block at a time in L2:
bias, ``beta`` and offset as numpy rounds them (no FMA), the softplus of
``bmrep.special`` (``_expn.h``), numpy's pairwise row sum (``_pairwise.h``)
and the two negations. Brügge et al.'s 16x16 RBMs (2^16 states, evaluated
every 100 updates): about half of an evaluation was the product.
"""

cimport numpy as cnp
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

import numpy as np

cnp.import_array()

cdef extern from "../../_expn.h":
    void bm_softplus_d(double* x, Py_ssize_t n) noexcept nogil

cdef extern from "../../_pairwise.h":
    double bm_pairwise_sum(const double* a, Py_ssize_t n) noexcept nogil

# a block's sums stay within this many doubles (256 kB, in L2)
DEF BLOCK_VALUES = 32768


cdef inline void _add_row(const double* src, const double* row, double* dst, Py_ssize_t F) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(F):
        dst[j] = src[j] + row[j]


cdef int _block_bits(Py_ssize_t k, Py_ssize_t F, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """The largest L <= k with 2^L F <= BLOCK_VALUES that divides both ends of the range."""
    cdef int L = 0
    while (L < k and ((<Py_ssize_t> 2) << L) * F <= BLOCK_VALUES
           and start % ((<Py_ssize_t> 2) << L) == 0 and stop % ((<Py_ssize_t> 2) << L) == 0):
        L += 1
    return L


cdef int _walk(const double* A, Py_ssize_t k, Py_ssize_t F, Py_ssize_t start, Py_ssize_t stop,
               const double* bias, double beta, const double* offset, const double* lin, double* out,
               double* sums_out) noexcept nogil:
    """The blocks of states ``start .. stop - 1``; ``sums_out`` (or NULL) receives the raw sums ``s A``
    ((stop - start) x F), else ``out`` the values of -F. Returns -1 if out of memory."""
    cdef int L = _block_bits(k, F, start, stop)
    cdef Py_ssize_t nb = (<Py_ssize_t> 1) << L, H = k - L, q, prev = -1, i, e, r, j, u, size
    cdef double* pre = <double*> malloc((H + 1) * F * sizeof(double))
    cdef double* tab = <double*> malloc(nb * F * sizeof(double))
    cdef double* row
    if pre == NULL or tab == NULL:
        free(pre)
        free(tab)
        return -1
    memset(pre, 0, F * sizeof(double))
    for q in range(start >> L, stop >> L):
        # prefix sums over the leading H units (unit i is bit H - 1 - i of q): redo the levels below
        # the highest bit that changed since the previous block
        i = 0
        if prev >= 0:
            e = q ^ prev
            while (e >> (H - 1 - i)) == 0:
                i += 1
        while i < H:
            if (q >> (H - 1 - i)) & 1:
                _add_row(pre + i * F, A + i * F, pre + (i + 1) * F, F)
            else:
                memcpy(pre + (i + 1) * F, pre + i * F, F * sizeof(double))
            i += 1
        prev = q
        # the last L units by doubling: entry 2e + s of the next level is entry e (+ row u if s)
        memcpy(tab, pre + H * F, F * sizeof(double))
        size = 1
        for u in range(H, k):
            for e in range(size - 1, -1, -1):
                _add_row(tab + e * F, A + u * F, tab + (2 * e + 1) * F, F)
                if e:
                    memcpy(tab + 2 * e * F, tab + e * F, F * sizeof(double))
            size *= 2
        r = q * nb - start
        if sums_out != NULL:
            memcpy(sums_out + r * F, tab, nb * F * sizeof(double))
            continue
        for e in range(nb):
            row = tab + e * F
            if offset != NULL:
                for j in range(F):
                    row[j] = beta * (row[j] + bias[j]) + offset[j]
            else:
                for j in range(F):
                    row[j] = beta * (row[j] + bias[j])
        bm_softplus_d(tab, nb * F)
        for e in range(nb):
            out[r + e] = -(lin[r + e] - bm_pairwise_sum(tab + e * F, F))
    free(pre)
    free(tab)
    return 0


def _check(A, Py_ssize_t start, Py_ssize_t stop):
    if type(A) is not np.ndarray or A.dtype != np.float64 or A.ndim != 2 or not A.flags.c_contiguous:
        raise ValueError("A must be a C-contiguous float64 (k, F) array")
    if not (0 <= start <= stop <= (<Py_ssize_t> 1) << A.shape[0]):
        raise ValueError(f"states {start}..{stop} out of range for {A.shape[0]} units")


def neg_free_energies(A, bias, double beta, offset, lin, Py_ssize_t start, Py_ssize_t stop):
    """``-(lin - sum_j softplus(beta (x_j + bias_j) [+ offset_j])``, ``x = s A``, for states start..stop-1.

    ``A`` (k, F) float64 C-contiguous, ``bias`` (F,), ``offset`` (F,) or None
    (no term: numpy's ``beta * x`` alone), ``lin`` (stop - start,). Returns a
    new float64 array of ``stop - start`` values.
    """
    _check(A, start, stop)
    cdef Py_ssize_t k = A.shape[0], F = A.shape[1]
    cdef cnp.ndarray b = np.ascontiguousarray(bias, dtype=np.float64)
    cdef cnp.ndarray li = np.ascontiguousarray(lin, dtype=np.float64)
    cdef cnp.ndarray off = None if offset is None else np.ascontiguousarray(offset, dtype=np.float64)
    if b.shape[0] != F or li.shape[0] != stop - start or (off is not None and off.shape[0] != F):
        raise ValueError(f"bias and offset need {F} values and lin {stop - start}")
    cdef cnp.ndarray out = np.empty(stop - start)
    cdef cnp.ndarray Aa = A
    cdef int rc
    with nogil:
        rc = _walk(<const double*> cnp.PyArray_DATA(Aa), k, F, start, stop, <const double*> cnp.PyArray_DATA(b), beta,
                   NULL if off is None else <const double*> cnp.PyArray_DATA(off), <const double*> cnp.PyArray_DATA(li),
                   <double*> cnp.PyArray_DATA(out), NULL)
    if rc:
        raise MemoryError()
    return out


def unit_order_sums(A, Py_ssize_t start, Py_ssize_t stop):
    """The sums ``s A`` of the walk for states start..stop-1, (stop - start, F): numpy's ``S @ A`` where exact."""
    _check(A, start, stop)
    cdef Py_ssize_t k = A.shape[0], F = A.shape[1]
    cdef cnp.ndarray out = np.empty((stop - start, F))
    cdef cnp.ndarray Aa = A
    cdef int rc
    with nogil:
        rc = _walk(<const double*> cnp.PyArray_DATA(Aa), k, F, start, stop, NULL, 1.0, NULL, NULL, NULL,
                   <double*> cnp.PyArray_DATA(out))
    if rc:
        raise MemoryError()
    return out
