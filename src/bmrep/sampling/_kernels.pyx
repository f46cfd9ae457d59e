# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled layer updates for binary units: Gibbs, flip-the-state, blend.

Private module; the public API is :mod:`bmrep.sampling.operators`.

For a batch of chains (rows) every unit of a layer is updated given its
pre-activation. The unit's log-odds of being on is

    x = beta_chain * (field + bias) + (1 - beta_chain) * base_field

(the tempered family of Carlson et al. 2016, eq. 2) and the unit

* Gibbs (mode 0): is set to 1 with probability sigmoid(x);
* flip-the-state (mode 1, Brügge et al. 2013, Def. 1 and sec. 3.1): changes
  state with probability min(1, p(other) / p(current)) = min(1, exp(d)),
  d = x if the unit is 0 else -x, and with probability 1/2 when both states
  are equally probable (d == 0);
* blend (mode 2): changes state with probability
  alpha * T_flip + (1 - alpha) * G_flip, G_flip = sigmoid(d) = p(other).

Each chain draws only from its own ``bitgen_t`` (numpy's BitGenerator C API),
in unit order, so the result does not depend on which thread runs the chain.
Flip-the-state draws no number for deterministic flips (d > 0). Sigmoids are
computed from exp(-|x|), so no input overflows.

Dense products go to BLAS (scipy.linalg.cython_blas ?gemm) inside the same
GIL-free loop, so ``n_sweeps`` sweeps cost one Python call.
"""

from cython.parallel cimport prange
from libc.math cimport exp, expf
from libc.stdint cimport uint64_t, uintptr_t
from numpy.random cimport bitgen_t
from scipy.linalg.cython_blas cimport dgemm, sgemm

ctypedef fused floating:
    float
    double

cdef enum:
    MODE_GIBBS = 0
    MODE_FLIP = 1
    MODE_BLEND = 2


cdef inline float _uniform_f(bitgen_t* g) noexcept nogil:
    # 24 random bits -> [0, 1) exactly representable in float32
    return <float>(g.next_uint32(g.state) >> 8) * (1.0 / 16777216.0)


cdef inline floating _exp(floating x) noexcept nogil:
    if floating is float:
        return expf(x)
    else:
        return exp(x)


cdef inline floating _draw(bitgen_t* g, floating like) noexcept nogil:
    if floating is float:
        return _uniform_f(g)
    else:
        return g.next_double(g.state)


cdef inline void _update_row(
    floating* s,
    const floating* field,
    const floating* bias,
    const floating* base,
    floating beta,
    Py_ssize_t n,
    int mode,
    floating alpha,
    bitgen_t* g,
) noexcept nogil:
    cdef Py_ssize_t i
    cdef floating x, e, u, d, q, qg
    cdef floating one = 1
    cdef floating zero = 0
    cdef floating half = 0.5
    cdef floating omb = one - beta
    for i in range(n):
        x = field[i]
        if bias != NULL:
            x = x + bias[i]
        x = beta * x
        if base != NULL:
            x = x + omb * base[i]
        if mode == MODE_GIBBS:
            u = _draw(g, x)
            if x >= zero:
                e = _exp(-x)
                s[i] = one if u * (one + e) < one else zero
            else:
                e = _exp(x)
                s[i] = one if u * (one + e) < e else zero
        else:
            # d: log-odds of the other state against the current one
            d = x if s[i] == zero else -x
            if mode == MODE_FLIP:
                if d > zero:
                    s[i] = one - s[i]
                else:
                    u = _draw(g, x)
                    if d == zero:
                        if u < half:
                            s[i] = one - s[i]
                    elif u < _exp(d):
                        s[i] = one - s[i]
            else:
                if d > zero:
                    e = _exp(-d)
                    qg = one / (one + e)
                    q = one
                elif d == zero:
                    qg = half
                    q = half
                else:
                    e = _exp(d)
                    qg = e / (one + e)
                    q = e
                q = alpha * q + (one - alpha) * qg
                u = _draw(g, x)
                if u < q:
                    s[i] = one - s[i]


cdef inline void _update_layer(
    floating[:, ::1] state,
    floating[:, ::1] field,
    const floating* bias,
    const floating* base,
    const floating[::1] betas,
    const uint64_t[::1] ptrs,
    int mode,
    floating alpha,
    int n_threads,
) noexcept nogil:
    cdef Py_ssize_t ch, nc = state.shape[0], n = state.shape[1]
    if n == 0:
        return
    if n_threads <= 1:
        for ch in range(nc):
            _update_row(&state[ch, 0], &field[ch, 0], bias, base, betas[ch], n, mode, alpha,
                        <bitgen_t*> <uintptr_t> ptrs[ch])
    else:
        for ch in prange(nc, nogil=True, num_threads=n_threads, schedule="static"):
            _update_row(&state[ch, 0], &field[ch, 0], bias, base, betas[ch], n, mode, alpha,
                        <bitgen_t*> <uintptr_t> ptrs[ch])


cdef inline void _gemm_hidden(floating[:, ::1] W, floating[:, ::1] v, floating[:, ::1] fh) noexcept nogil:
    # row-major fh (nc, nh) = v (nc, nv) @ W (nv, nh); in column-major terms fh^T = W^T v^T
    cdef int m = W.shape[1], n = v.shape[0], k = W.shape[0]
    cdef int lda = m, ldb = k, ldc = m
    cdef char* tn = b"N"
    cdef floating one = 1, zero = 0
    if floating is double:
        dgemm(tn, tn, &m, &n, &k, &one, &W[0, 0], &lda, &v[0, 0], &ldb, &zero, &fh[0, 0], &ldc)
    else:
        sgemm(tn, tn, &m, &n, &k, &one, &W[0, 0], &lda, &v[0, 0], &ldb, &zero, &fh[0, 0], &ldc)


cdef inline void _gemm_visible(floating[:, ::1] W, floating[:, ::1] h, floating[:, ::1] fv) noexcept nogil:
    # row-major fv (nc, nv) = h (nc, nh) @ W.T; column-major fv^T = W h^T, W row-major = (W^T) col-major
    cdef int m = W.shape[0], n = h.shape[0], k = W.shape[1]
    cdef int lda = k, ldb = k, ldc = m
    cdef char* tt = b"T"
    cdef char* tn = b"N"
    cdef floating one = 1, zero = 0
    if floating is double:
        dgemm(tt, tn, &m, &n, &k, &one, &W[0, 0], &lda, &h[0, 0], &ldb, &zero, &fv[0, 0], &ldc)
    else:
        sgemm(tt, tn, &m, &n, &k, &one, &W[0, 0], &lda, &h[0, 0], &ldb, &zero, &fv[0, 0], &ldc)


def update_layer(
    floating[:, ::1] state,
    floating[:, ::1] field,
    const floating[::1] bias,
    const floating[::1] base,
    const floating[::1] betas,
    const uint64_t[::1] ptrs,
    int mode,
    double alpha,
    int n_threads,
):
    """Update ``state`` (n_chains, n_units) in place given the pre-activation ``field``.

    ``bias`` and ``base`` are (n_units,) or empty (none); ``betas`` (n_chains,);
    ``ptrs`` the chains' bitgen_t addresses. Shapes are checked by the caller.
    """
    cdef const floating* bp = NULL
    cdef const floating* ap = NULL
    if bias.shape[0] > 0:
        bp = &bias[0]
    if base.shape[0] > 0:
        ap = &base[0]
    with nogil:
        _update_layer(state, field, bp, ap, betas, ptrs, mode, <floating> alpha, n_threads)


def rbm_sweeps(
    floating[:, ::1] W,
    const floating[::1] b,
    const floating[::1] c,
    floating[:, ::1] v,
    floating[:, ::1] h,
    floating[:, ::1] fh,
    floating[:, ::1] fv,
    const floating[::1] betas,
    const floating[::1] base,
    const uint64_t[::1] ptrs,
    int n_sweeps,
    int mode,
    double alpha,
    int n_threads,
):
    """``n_sweeps`` RBM sweeps (hidden layer, then visible layer) in place.

    ``fh`` (n_chains, n_hidden) and ``fv`` (n_chains, n_visible) are scratch
    buffers. ``base`` is the visible base-rate bias (n_visible,) or empty.
    """
    cdef const floating* ap = NULL
    cdef int s
    cdef floating a = <floating> alpha
    if base.shape[0] > 0:
        ap = &base[0]
    with nogil:
        for s in range(n_sweeps):
            _gemm_hidden(W, v, fh)
            _update_layer(h, fh, &c[0], <const floating*> NULL, betas, ptrs, mode, a, n_threads)
            _gemm_visible(W, h, fv)
            _update_layer(v, fv, &b[0], ap, betas, ptrs, mode, a, n_threads)
