# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled layer updates for binary units: Gibbs, flip-the-state, blend.

Private module; the public API is :mod:`bmrep.sampling.operators`.

For a batch of chains (rows) every unit of a layer is updated given its
pre-activation. The unit's log-odds of being on is

    x = beta_chain * (field + bias) + (1 - beta_chain) * base_field

(the tempered family of Carlson et al. 2016, eq. 2) and, with one uniform
u in [0, 1) per unit drawn from the chain's own stream, the unit

* Gibbs (mode 0): becomes 1 iff u < sigmoid(x);
* flip-the-state (mode 1, Brügge et al. 2013, Def. 1 and sec. 3.1): changes
  state iff u < q_T, q_T = min(1, p(other)/p(current)) = exp(min(d, 0)) with
  d = x if the unit is 0 else -x, and q_T = 1/2 when d == 0 (equal
  probabilities);
* blend (mode 2): changes state iff u < alpha q_T + (1 - alpha) q_G with
  q_G = sigmoid(d) = p(other).

Every unit gets one uniform (flip-the-state too, although its flips from
the less probable state are deterministic). A row takes one 64-bit draw
from its chain's ``bitgen_t`` (numpy's BitGenerator C API, PCG64), which
seeds a SplitMix64 sequence whose outputs are the row's uniforms
(``_row_update.h``), so a chain's path depends only on its own stream, not
on which thread runs it. float64 uniforms have 52 random bits, float32 ones
23. (Until then each unit called the generator through its function
pointer: 2.3 ns a unit, the whole cost of a 784x10 sweep's updates.)

A row is updated in two passes: the uniforms (vectorised integer mixing,
into a per-thread buffer), then the log-odds and the decision, fused,
branch-free and vectorised (x86-64-v4/AVX-512/AVX2 clones picked at load time): exp is a Cephes-style
range reduction + rational approximation (about 1 ulp, same bits on every
x86-64, no FMA) of a non-positive argument, so no input overflows; arguments
below -708 (float32: -87) give exactly 0 where libm gives < 3e-308
(1.7e-38): such a unit's probability is 0 to working precision either way.

Dense products go to BLAS (scipy.linalg.cython_blas ?gemm) inside the same
GIL-free loop, so ``n_sweeps`` sweeps cost one Python call. (In-kernel
products for small models were tried and were slower than ?gemm even at
16x16: without register blocking the row updates cost more than the call.)
"""

cimport numpy as cnp
from cython.parallel cimport prange, threadid
from libc.stdint cimport uint64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from numpy.random cimport bitgen_t
from scipy.linalg.cython_blas cimport dgemm, sgemm

cnp.import_array()

cdef extern from "_row_update.h":
    double bm_expn_d(double x) noexcept nogil
    float bm_expn_f(float x) noexcept nogil
    void bm_update_row_d(double* s, const double* field, const double* bias, const double* base,
                         double beta, Py_ssize_t n, int mode, double alpha, bitgen_t* g,
                         const double* zeros, double* u) noexcept nogil
    void bm_update_row_f(float* s, const float* field, const float* bias, const float* base,
                         float beta, Py_ssize_t n, int mode, float alpha, bitgen_t* g,
                         const float* zeros, float* u) noexcept nogil


ctypedef fused floating:
    float
    double


cdef inline void _update_row(floating* s, const floating* field, const floating* bias, const floating* base,
                             floating beta, Py_ssize_t n, int mode, floating alpha, bitgen_t* g,
                             const floating* zeros, floating* u) noexcept nogil:
    if floating is double:
        bm_update_row_d(s, field, bias, base, beta, n, mode, alpha, g, zeros, u)
    else:
        bm_update_row_f(s, field, bias, base, beta, n, mode, alpha, g, zeros, u)


cdef void _update_layer(
    floating* state,
    const floating* field,
    const floating* bias,
    const floating* base,
    const floating* betas,
    const uint64_t* ptrs,
    Py_ssize_t nc,
    Py_ssize_t n,
    int mode,
    floating alpha,
    int n_threads,
    floating* scratch,
    Py_ssize_t stride,
) noexcept nogil:
    """Rows of ``state`` and ``field`` are contiguous (n values); ``betas`` may be
    NULL (all 1); ``scratch`` holds ``2 * stride`` values per thread, the
    first ``stride`` of them zeros."""
    cdef Py_ssize_t ch
    cdef floating* buf
    cdef floating one = 1
    if n == 0 or nc == 0:
        return
    if n_threads <= 1:
        for ch in range(nc):
            _update_row(state + ch * n, field + ch * n, bias, base, betas[ch] if betas != NULL else one,
                        n, mode, alpha, <bitgen_t*> <uintptr_t> ptrs[ch], scratch, scratch + stride)
    else:
        for ch in prange(nc, nogil=True, num_threads=n_threads, schedule="static"):
            buf = scratch + 2 * stride * threadid()
            _update_row(state + ch * n, field + ch * n, bias, base, betas[ch] if betas != NULL else one,
                        n, mode, alpha, <bitgen_t*> <uintptr_t> ptrs[ch], buf, buf + stride)


cdef inline void _gemm(char* transa, int m, int n, int k, const floating* A, int lda,
                       const floating* B, int ldb, floating* C, int ldc) noexcept nogil:
    # column-major C (m, n) = op(A) (m, k) @ B (k, n): ?gemm of the floating type, alpha 1, beta 0
    cdef char* tn = b"N"
    cdef floating one = 1, zero = 0
    if floating is double:
        dgemm(transa, tn, &m, &n, &k, &one, <double*> A, &lda, <double*> B, &ldb, &zero, C, &ldc)
    else:
        sgemm(transa, tn, &m, &n, &k, &one, <float*> A, &lda, <float*> B, &ldb, &zero, C, &ldc)


cdef inline void _gemm_hidden(const floating* W, const floating* v, floating* fh,
                              int nv, int nh, int nc) noexcept nogil:
    # row-major fh (nc, nh) = v (nc, nv) @ W (nv, nh); in column-major terms fh^T = W^T v^T
    _gemm(b"N", nh, nc, nv, W, nh, v, nv, fh, nh)


cdef inline void _gemm_visible(const floating* W, const floating* h, floating* fv,
                               int nv, int nh, int nc) noexcept nogil:
    # row-major fv (nc, nv) = h (nc, nh) @ W.T; column-major fv^T = W h^T, W row-major = (W^T) col-major
    _gemm(b"T", nv, nc, nh, W, nh, h, nh, fv, nv)


cdef void _sweeps(const floating* W, const floating* b, const floating* c, floating* v, floating* h,
                  const floating* betas, const floating* base, const uint64_t* ptrs,
                  Py_ssize_t nc, Py_ssize_t nv, Py_ssize_t nh, int n_sweeps, int mode, floating alpha,
                  int n_threads, floating* work, const floating* fh0, floating* fv_out) noexcept nogil:
    """``work`` holds nc*nh + nc*nv + 2*max(nv, nh)*n_threads values.

    ``fh0`` (or NULL): the hidden pre-activation ``c + v W`` of the current
    chains, bias included, already computed by the caller (AIS needs it for
    its weights), used by the first sweep instead of a product. ``fv_out``
    (or NULL) receives the last sweep's visible product ``h W^T`` (no bias).
    (``p + c`` in the row update and the caller's ``c + p`` are the same
    float, so either way the states are the same bits.)
    """
    cdef floating* fh = work
    cdef floating* fv = fv_out if fv_out != NULL else work + nc * nh
    cdef floating* scratch = work + nc * nh + nc * nv
    cdef Py_ssize_t stride = nv if nv > nh else nh
    cdef int s
    for s in range(n_sweeps):
        if s == 0 and fh0 != NULL:
            _update_layer(h, fh0, <const floating*> NULL, <const floating*> NULL, betas, ptrs, nc, nh, mode, alpha,
                          n_threads, scratch, stride)
        else:
            _gemm_hidden(W, v, fh, <int> nv, <int> nh, <int> nc)
            _update_layer(h, fh, c, <const floating*> NULL, betas, ptrs, nc, nh, mode, alpha, n_threads, scratch,
                          stride)
        _gemm_visible(W, h, fv, <int> nv, <int> nh, <int> nc)
        _update_layer(v, fv, b, base, betas, ptrs, nc, nv, mode, alpha, n_threads, scratch, stride)


# ----------------------------------------------------------------- checks --
cdef inline bint _is_c_array(object a, int typenum, int ndim):
    return (type(a) is cnp.ndarray
            and cnp.PyArray_TYPE(<cnp.ndarray> a) == typenum
            and cnp.PyArray_NDIM(<cnp.ndarray> a) == ndim
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> a))


cdef void* _array(object a, str name, int typenum, Py_ssize_t n0, Py_ssize_t n1, bint writeable) except NULL:
    """Data pointer of a C-contiguous array of the given type and shape (n1 < 0: 1-d)."""
    cdef int ndim = 1 if n1 < 0 else 2
    cdef cnp.ndarray arr
    if not _is_c_array(a, typenum, ndim):
        raise ValueError(
            f"{name} must be a C-contiguous {ndim}-d numpy array of dtype "
            f"{cnp.PyArray_DescrFromType(typenum)}, got {type(a).__name__} "
            f"{getattr(a, 'dtype', '')} {getattr(a, 'shape', '')}")
    arr = <cnp.ndarray> a
    if cnp.PyArray_DIM(arr, 0) != n0 or (ndim == 2 and cnp.PyArray_DIM(arr, 1) != n1):
        want = f"({n0},)" if ndim == 1 else f"({n0}, {n1})"
        raise ValueError(f"{name} must have shape {want}, got {a.shape}")
    if writeable and not cnp.PyArray_ISWRITEABLE(arr):
        raise ValueError(f"{name} must be writeable")
    return cnp.PyArray_DATA(arr)


cdef void* _optional(object a, str name, int typenum, Py_ssize_t n) except? NULL:
    if a is None:
        return NULL
    return _array(a, name, typenum, n, -1, False)


cdef int _typenum(object state) except -1:
    if type(state) is cnp.ndarray:
        t = cnp.PyArray_TYPE(<cnp.ndarray> state)
        if t == cnp.NPY_DOUBLE or t == cnp.NPY_FLOAT:
            return t
    raise TypeError(f"states must be float64 or float32 numpy arrays, got {getattr(state, 'dtype', type(state))}")


cdef void* _scratch(Py_ssize_t n_fields, Py_ssize_t stride, int nt, size_t itemsize) except NULL:
    """Work buffer: ``n_fields`` values (the products, uninitialised), then
    per thread ``stride`` zeros and ``stride`` uniforms (zeroed).

    malloc + memset rather than calloc: after the first call glibc serves a
    freed block of this size from the heap, without the page faults of fresh
    zero pages (about 250 us per call at 784x500). The per-thread part is
    zeroed: left stale, float32 sweeps ran twice as slow (most likely the
    vectorised loops compute on, and discard, lanes past a row's end, where
    stale bytes are denormal floats); results never depend on them.
    """
    cdef size_t nbytes = (n_fields + 2 * stride * nt + 1) * itemsize
    cdef void* p = malloc(nbytes)
    if p == NULL:
        raise MemoryError()
    memset(<char*> p + n_fields * itemsize, 0, nbytes - n_fields * itemsize)
    return p


# ------------------------------------------------------------- interface --
def update_layer(state, field, bias, base, betas, ptrs, int mode, double alpha, int n_threads):
    """Update ``state`` (n_chains, n_units) in place given the pre-activation ``field``.

    ``bias`` and ``base`` are (n_units,) arrays or None; ``betas`` (n_chains,)
    or None (all 1); ``ptrs`` (n_chains,) uint64 the chains' bitgen_t
    addresses. All arrays share the dtype of ``state`` (float64 or float32).
    """
    cdef int t = _typenum(state)
    cdef Py_ssize_t nc, n
    cdef void* sp
    if cnp.PyArray_NDIM(<cnp.ndarray> state) != 2:
        raise ValueError(f"state must be 2-d (n_chains, n_units), got shape {state.shape}")
    nc, n = state.shape[0], state.shape[1]
    sp = _array(state, "state", t, nc, n, True)
    cdef void* fp = _array(field, "field", t, nc, n, False)
    cdef void* bp = _optional(bias, "bias", t, n)
    cdef void* ap = _optional(base, "base_field", t, n)
    cdef void* tp = _optional(betas, "betas", t, nc)
    cdef uint64_t* pp = <uint64_t*> _array(ptrs, "stream pointers", cnp.NPY_UINT64, nc, -1, False)
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef void* scratch = _scratch(0, n, nt, 8 if t == cnp.NPY_DOUBLE else 4)
    with nogil:
        if t == cnp.NPY_DOUBLE:
            _update_layer(<double*> sp, <double*> fp, <double*> bp, <double*> ap, <double*> tp, pp, nc, n,
                          mode, <double> alpha, nt, <double*> scratch, n)
        else:
            _update_layer(<float*> sp, <float*> fp, <float*> bp, <float*> ap, <float*> tp, pp, nc, n,
                          mode, <float> alpha, nt, <float*> scratch, n)
    free(scratch)


def rbm_sweeps(W, b, c, v, h, betas, base, ptrs, int n_sweeps, int mode, double alpha, int n_threads,
               hidden_field=None, visible_product=None):
    """``n_sweeps`` RBM sweeps (hidden layer, then visible layer) of the chains
    ``v`` (n_chains, n_visible) and ``h`` (n_chains, n_hidden), in place.

    ``W, b, c`` share the dtype of ``v`` and ``h``; ``betas`` (n_chains,) or
    None; ``base`` the visible base-rate bias (n_visible,) or None; ``ptrs``
    (n_chains,) uint64 bitgen_t addresses. Products go to ?gemm, the whole
    loop runs without the GIL. ``hidden_field`` (n_chains, n_hidden) or
    None: ``c + v W`` of the current ``v``, used instead of the first
    sweep's hidden product; ``visible_product`` (n_chains, n_visible) or
    None: written with the last sweep's ``h W^T``.
    """
    cdef int t = _typenum(v)
    cdef Py_ssize_t nc, nv, nh
    if cnp.PyArray_NDIM(<cnp.ndarray> v) != 2 or type(W) is not cnp.ndarray or cnp.PyArray_NDIM(<cnp.ndarray> W) != 2:
        raise ValueError("v and W must be 2-d arrays")
    nc, nv, nh = v.shape[0], W.shape[0], W.shape[1]
    cdef void* Wp = _array(W, "W", t, nv, nh, False)
    cdef void* bp = _array(b, "b", t, nv, -1, False)
    cdef void* cp = _array(c, "c", t, nh, -1, False)
    cdef void* vp = _array(v, "v", t, nc, nv, True)
    cdef void* hp = _array(h, "h", t, nc, nh, True)
    cdef void* tp = _optional(betas, "betas", t, nc)
    cdef void* ap = _optional(base, "base_bias", t, nv)
    cdef uint64_t* pp = <uint64_t*> _array(ptrs, "stream pointers", cnp.NPY_UINT64, nc, -1, False)
    cdef void* f0 = NULL
    cdef void* fo = NULL
    if hidden_field is not None:
        f0 = _array(hidden_field, "hidden_field", t, nc, nh, False)
    if visible_product is not None:
        fo = _array(visible_product, "visible_product", t, nc, nv, True)
    if n_sweeps < 0:
        raise ValueError(f"n_sweeps must be >= 0, got {n_sweeps}")
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef void* work = _scratch(nc * nh + nc * nv, nv if nv > nh else nh, nt, 8 if t == cnp.NPY_DOUBLE else 4)
    with nogil:
        if t == cnp.NPY_DOUBLE:
            _sweeps(<double*> Wp, <double*> bp, <double*> cp, <double*> vp, <double*> hp, <double*> tp,
                    <double*> ap, pp, nc, nv, nh, n_sweeps, mode, <double> alpha, nt, <double*> work,
                    <double*> f0, <double*> fo)
        else:
            _sweeps(<float*> Wp, <float*> bp, <float*> cp, <float*> vp, <float*> hp, <float*> tp,
                    <float*> ap, pp, nc, nv, nh, n_sweeps, mode, <float> alpha, nt, <float*> work,
                    <float*> f0, <float*> fo)
    free(work)


def rbm_products(W, v, h, fh, fv, int n_repeats):
    """The two products of a sweep (``v @ W`` and ``h @ W.T``) through the same
    ?gemm calls as :func:`rbm_sweeps`, ``n_repeats`` times (for benchmarks)."""
    cdef int t = _typenum(v)
    cdef Py_ssize_t nc = v.shape[0], nv = W.shape[0], nh = W.shape[1]
    cdef void* Wp = _array(W, "W", t, nv, nh, False)
    cdef void* vp = _array(v, "v", t, nc, nv, False)
    cdef void* hp = _array(h, "h", t, nc, nh, False)
    cdef void* fhp = _array(fh, "fh", t, nc, nh, True)
    cdef void* fvp = _array(fv, "fv", t, nc, nv, True)
    cdef int s
    with nogil:
        for s in range(n_repeats):
            if t == cnp.NPY_DOUBLE:
                _gemm_hidden(<double*> Wp, <double*> vp, <double*> fhp, <int> nv, <int> nh, <int> nc)
                _gemm_visible(<double*> Wp, <double*> hp, <double*> fvp, <int> nv, <int> nh, <int> nc)
            else:
                _gemm_hidden(<float*> Wp, <float*> vp, <float*> fhp, <int> nv, <int> nh, <int> nc)
                _gemm_visible(<float*> Wp, <float*> hp, <float*> fvp, <int> nv, <int> nh, <int> nc)


def exp_nonpositive(floating[::1] x, floating[::1] out):
    """The kernels' exp of non-positive arguments, exposed for tests."""
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        if floating is double:
            out[i] = bm_expn_d(x[i])
        else:
            out[i] = bm_expn_f(x[i])
