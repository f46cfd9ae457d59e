# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled mean-field bound for sigmoid belief networks (Saul et al. 1996).

Private module; the public API is :mod:`bmrep.meanfield.sbn_bound`.

For one evidence pattern the solver maximises the bound L_V of eq. (23),

    L_V = sum_i mu_i <z_i> - sum_i [xi_i <z_i> + ln(<e^{-xi_i z_i}> + <e^{(1-xi_i) z_i}>)]
          + sum_{i in H} H(mu_i),

(``<z_i> = sum_j J_ij mu_j + h_i``; the first sum is eq. (16)'s energy terms)
by alternating

1. for every unit with parents, the 1-D convex minimisation over xi_i in
   [0, 1] of ``xi <z> + ln(<e^{-xi z}> + <e^{(1-xi) z}>)`` (eq. 20/21) by
   Newton's method safeguarded by bisection (g'(0) <= 0 <= g'(1) always), and
2. one asynchronous sweep of the mean-field equation (25),
   ``mu_j = sigmoid(<z_j> + sum_i [J_ij (mu_i - xi_i) - K_ij])``, with
   ``K_ij = d/dmu_j ln(<e^{-xi_i z_i}> + <e^{(1-xi_i) z_i}>)`` (eq. 24,
   appendix B eq. 34),

until L_V changes by less than ``tol * (1 + |L_V|)``. Each unit update of
step 2 maximises a minoriser of L_V (the logarithm is concave in mu_j), so
both steps increase the bound monotonically.

All expectations under the factorial Q of eq. (15) are kept in the log
domain: ``ln <e^{t z_i}> = t h_i + sum_j ln(1 - mu_j + mu_j e^{t J_ij})``
(eq. 22). Patterns are independent, so ``prange`` over patterns gives the
same numbers for any number of threads.
"""

import numpy as np

cimport numpy as cnp
from cython.parallel cimport parallel, prange, threadid
from libc.math cimport fabs, log
from libc.stdlib cimport free, malloc

from bmrep._cmath cimport logaddexp as _logaddexp, sigmoid as _sigmoid, xlogx as _xlogx


cnp.import_array()


cdef void _eval_unit(const Net* net, Work* wk, const double* mu, Py_ssize_t i, double x,
                     double* g1, double* g2) noexcept nogil:
    """State of unit i's eq. (20) bound at xi = x; g1, g2 = first/second xi-derivatives.

    ``ln <e^{t z}>`` (eq. 22) is accumulated as a running product of the
    factors, folded into the logarithm whenever it leaves [1e-200, 1e200], so
    a unit costs one exp per parent and a few logs instead of two of each.
    The per-parent exps, factors and probabilities come first, in one
    vectorised pass (one libm exp at a time they were a third of the
    solver's time); the products and sums after them keep their order.
    """
    cdef cnp.int64_t e, k, e0 = net.pptr[i], e1 = net.pptr[i + 1]
    cdef double hi = net.h[i]
    cdef double la = -x * hi, lb = (1.0 - x) * hi, qa = 1.0, qb = 1.0
    cdef double mz = hi, ma = hi, mb = hi, va = 0.0, vb = 0.0
    cdef double m, wj, pa, pb, phi
    cdef double* M = wk.buf
    cdef double* PA = wk.buf + net.n
    cdef double* PB = wk.buf + 2 * net.n
    sbn_parent_terms(mu, &net.epar[e0], &net.w[e0], x, &wk.ew[e0], &wk.ea[e0], &wk.eb[e0], &wk.da[e0],
                     &wk.db[e0], M, PA, PB, e1 - e0)
    # the sums in a loop of their own: with no call in it, the accumulators stay in registers
    for e in range(e0, e1):
        qa *= wk.da[e]
        qb *= wk.db[e]
        if not (1e-200 < qa < 1e200):
            la += log(qa)
            qa = 1.0
        if not (1e-200 < qb < 1e200):
            lb += log(qb)
            qb = 1.0
    for k in range(e1 - e0):
        wj = net.w[e0 + k]
        m = M[k]
        pa = PA[k]
        pb = PB[k]
        mz += wj * m
        ma += wj * pa
        mb += wj * pb
        va += wj * wj * pa * (1.0 - pa)
        vb += wj * wj * pb * (1.0 - pb)
    la += log(qa)
    lb += log(qb)
    phi = _sigmoid(lb - la)
    wk.la[i] = la
    wk.lb[i] = lb
    wk.mz[i] = mz
    wk.phi[i] = phi
    wk.stale[i] = 0
    g1[0] = mz - (1.0 - phi) * ma - phi * mb
    g2[0] = (1.0 - phi) * va + phi * vb + phi * (1.0 - phi) * (ma - mb) * (ma - mb)


cdef void _xi_step(const Net* net, Work* wk, const double* mu, double* xi) noexcept nogil:
    """Step (i): N independent 1-D convex minimisations over xi_i in [0, 1]."""
    cdef Py_ssize_t i, it
    cdef double x, lo, hi, g1 = 0.0, g2 = 0.0, xn
    for i in range(net.n):
        x = xi[i]
        if net.pptr[i] == net.pptr[i + 1]:
            _eval_unit(net, wk, mu, i, x, &g1, &g2)   # no parents: the bound is exact for any xi
            continue
        lo = 0.0
        hi = 1.0
        for it in range(200):
            _eval_unit(net, wk, mu, i, x, &g1, &g2)
            # stop once the Newton step would gain < 1e-15 nats: g'^2 / (2 g'') (convex g)
            if g1 == 0.0 or (g2 > 0.0 and g1 * g1 <= 2e-15 * g2):
                break
            if g1 > 0.0:
                hi = x
            else:
                lo = x
            if hi - lo <= 1e-15:
                break
            xn = x - g1 / g2 if g2 > 0.0 else 0.5 * (lo + hi)
            if not (lo < xn < hi):
                xn = 0.5 * (lo + hi)
            x = xn
        xi[i] = x


cdef void _mu_sweep(const Net* net, Work* wk, double* mu, const double* xi) noexcept nogil:
    """Step (ii): one asynchronous sweep of the mean-field equation (25) over hidden units.

    The per-child terms run vectorised over j's children (distinct units, so
    the passes may be split): K_ij and the field's terms, then for a changed
    mu_j each child's factors, the log of eq. (33)'s log-odds increment and
    its new phi_i; the sums keep their order.
    """
    cdef Py_ssize_t j, i
    cdef cnp.int64_t k, c0, c1
    cdef double f, mnew
    cdef double* buf = wk.buf
    for j in range(net.n):
        if net.vis[j]:
            continue
        f = wk.mz[j]
        c0 = net.cptr[j]
        c1 = net.cptr[j + 1]
        # f gains J_ij (mu_i - xi_i) - K_ij per child (eq. 25; K_ij of eq. 34)
        sbn_child_terms(&net.cedge[c0], net.echild, net.w, wk.ea, wk.eb, wk.da, wk.db, wk.phi, mu, xi,
                        buf, c1 - c0)
        for k in range(c0, c1):
            f += buf[k - c0]
        mnew = _sigmoid(f)
        if mnew == mu[j]:
            continue
        # children's <z_i> and factors (eq. 22) move; the log-odds of phi_i (eq. 33)
        # gains ln(nb/db) - ln(na/da): one log per edge
        sbn_child_update(&net.cedge[c0], net.echild, net.w, wk.ea, wk.eb, wk.da, wk.db, wk.mz,
                         mnew, mnew - mu[j], buf, c1 - c0)
        bm_log_inplace_d(buf, c1 - c0)
        for k in range(c0, c1):
            i = net.echild[net.cedge[k]]
            wk.lb[i] += buf[k - c0]
            buf[k - c0] = wk.lb[i] - wk.la[i]
        bm_logistic_d(buf, c1 - c0)
        for k in range(c0, c1):
            i = net.echild[net.cedge[k]]
            wk.phi[i] = buf[k - c0]
            wk.stale[i] = 1
        mu[j] = mnew


cdef void _refresh(const Net* net, Work* wk, const double* xi, Py_ssize_t i) noexcept nogil:
    """Recompute ln<e^{-xi z_i}> from the stored factors; ln<e^{(1-xi) z_i}> from the log-odds."""
    cdef cnp.int64_t e
    cdef double la = 0.0, q = 1.0, diff = wk.lb[i] - wk.la[i]
    for e in range(net.pptr[i], net.pptr[i + 1]):
        q *= wk.da[e]
        if not (1e-200 < q < 1e200):
            la += log(q)
            q = 1.0
    la += log(q)
    wk.la[i] = la - xi[i] * net.h[i]
    wk.lb[i] = wk.la[i] + diff
    wk.stale[i] = 0


cdef double _bound(const Net* net, Work* wk, const double* mu, const double* xi) noexcept nogil:
    """L_V of eq. (23) from the current state."""
    cdef Py_ssize_t i
    cdef double L = 0.0
    for i in range(net.n):
        if wk.stale[i]:
            _refresh(net, wk, xi, i)
        L += (mu[i] - xi[i]) * wk.mz[i] - _logaddexp(wk.la[i], wk.lb[i])
        if not net.vis[i]:
            L -= _xlogx(mu[i]) + _xlogx(1.0 - mu[i])
    return L


cdef int _solve_one(const Net* net, Work* wk, double* mu, double* xi, double tol, int max_iter,
                    double* L_out, double* trace, int n_trace) noexcept nogil:
    """Alternate steps (i) and (ii) until L_V converges; returns the number of sweeps."""
    cdef Py_ssize_t i
    cdef int it
    cdef double g1, g2, L, Lprev
    for i in range(net.n):
        _eval_unit(net, wk, mu, i, xi[i], &g1, &g2)
    Lprev = _bound(net, wk, mu, xi)
    L = Lprev
    it = 0
    while it < max_iter:
        _xi_step(net, wk, mu, xi)
        if 2 * it < n_trace:
            trace[2 * it] = _bound(net, wk, mu, xi)
        _mu_sweep(net, wk, mu, xi)
        L = _bound(net, wk, mu, xi)
        if 2 * it + 1 < n_trace:
            trace[2 * it + 1] = L
        it += 1
        if fabs(L - Lprev) <= tol * (1.0 + fabs(L)):
            break
        Lprev = L
    L_out[0] = L
    return it


cdef void _gradients(const Net* net, Work* wk, const double* mu, const double* xi,
                     double* gw, double* gh) noexcept nogil:
    """dL_V/dJ_ij (eq. 35) and dL_V/dh_i (eq. 36) at the current (mu, xi)."""
    cdef Py_ssize_t i
    cdef cnp.int64_t e
    cdef double mj, phi, x
    for i in range(net.n):
        phi = wk.phi[i]
        x = xi[i]
        gh[i] = mu[i] - phi
        for e in range(net.pptr[i], net.pptr[i + 1]):
            mj = mu[net.epar[e]]
            gw[e] = ((mu[i] - x) * mj + (1.0 - phi) * x * mj * wk.ea[e] / wk.da[e]
                     - phi * (1.0 - x) * mj * wk.eb[e] / wk.db[e])


cdef void _set_work(Work* wk, double* buf, Py_ssize_t n, Py_ssize_t ne) noexcept nogil:
    wk.ea = buf
    wk.eb = buf + ne
    wk.da = buf + 2 * ne
    wk.db = buf + 3 * ne
    wk.la = buf + 4 * ne
    wk.lb = buf + 4 * ne + n
    wk.mz = buf + 4 * ne + 2 * n
    wk.phi = buf + 4 * ne + 3 * n
    wk.stale = buf + 4 * ne + 4 * n
    wk.buf = buf + 4 * ne + 5 * n


cdef inline Py_ssize_t _work_size(Py_ssize_t n, Py_ssize_t ne) noexcept nogil:
    return 4 * ne + 8 * n + 1


cdef void _exp_weights(const double* w, double* ew, Py_ssize_t ne) noexcept nogil:
    """ew[e] = exp(J_e), the factor that turns exp(-xi J) into exp((1 - xi) J); 0 where |J| > 700 (unused there)."""
    cdef Py_ssize_t e
    bm_exp_scaled_d(w, 1.0, ew, ne)
    for e in range(ne):
        if not fabs(w[e]) <= 700.0:
            ew[e] = 0.0


cdef Net _make_net(const cnp.int64_t[::1] pptr, const cnp.int64_t[::1] epar, const cnp.int64_t[::1] echild,
                   const cnp.int64_t[::1] cptr, const cnp.int64_t[::1] cedge, const double[::1] w,
                   const double[::1] h, const unsigned char[::1] vis):
    cdef Net net
    cdef Py_ssize_t n = h.shape[0]
    if pptr.shape[0] != n + 1 or cptr.shape[0] != n + 1 or vis.shape[0] != n:
        raise ValueError("inconsistent network arrays")
    if epar.shape[0] != w.shape[0] or echild.shape[0] != w.shape[0] or cedge.shape[0] != w.shape[0]:
        raise ValueError("inconsistent edge arrays")
    net.n = n
    net.pptr = &pptr[0]
    net.cptr = &cptr[0]
    net.h = &h[0]
    net.vis = &vis[0]
    # zero-length memoryviews have no element 0; point at a harmless address
    net.epar = &epar[0] if epar.shape[0] else net.pptr
    net.echild = &echild[0] if echild.shape[0] else net.pptr
    net.cedge = &cedge[0] if cedge.shape[0] else net.pptr
    net.w = &w[0] if w.shape[0] else net.h
    return net


def solve_patterns(const cnp.int64_t[::1] pptr, const cnp.int64_t[::1] epar, const cnp.int64_t[::1] echild,
                   const cnp.int64_t[::1] cptr, const cnp.int64_t[::1] cedge, const double[::1] w,
                   const double[::1] h, const unsigned char[::1] vis,
                   double[:, ::1] mu, double[:, ::1] xi, double[::1] L_out, int[::1] iters_out,
                   double[:, ::1] trace, double[:, ::1] grad_w, double[:, ::1] grad_h,
                   double tol, int max_iter, int n_threads):
    """Solve the bound for every row of ``mu``/``xi`` (in/out: initial values in).

    ``trace`` (P, T) receives L_V after each half-step (T may be 0);
    ``grad_w`` (P, E) / ``grad_h`` (P, N) receive eqs. (35)/(36) if they have P rows.
    """
    cdef Net net = _make_net(pptr, epar, echild, cptr, cedge, w, h, vis)
    cdef Py_ssize_t P = mu.shape[0], n = net.n, ne = w.shape[0], p
    cdef int n_trace = trace.shape[1] if trace.shape[0] == P else 0
    cdef bint want_grad = grad_w.shape[0] == P and grad_h.shape[0] == P and P > 0
    cdef int nt = max(n_threads, 1), tid, t
    cdef double[:, ::1] scratch = np.empty((nt, _work_size(n, ne)))
    cdef double[::1] ew = np.empty(ne + 1)
    cdef Work* wks
    _exp_weights(net.w, &ew[0], ne)
    if xi.shape[0] != P or L_out.shape[0] != P or iters_out.shape[0] != P or mu.shape[1] != n or xi.shape[1] != n:
        raise ValueError("mu, xi, L_out, iters_out must have P rows and N columns")
    if want_grad and (grad_w.shape[1] != ne or grad_h.shape[1] != n):
        raise ValueError("grad_w must be (P, E) and grad_h (P, N)")
    if P == 0:
        return
    # One work area per thread, chosen by thread id inside the loop: a
    # struct shared across the parallel region would be a data race.
    wks = <Work*> malloc(nt * sizeof(Work))
    if wks == NULL:
        raise MemoryError()
    for t in range(nt):
        _set_work(&wks[t], &scratch[t, 0], n, ne)
        wks[t].ew = &ew[0]
    try:
        with nogil, parallel(num_threads=nt):
            for p in prange(P, schedule="dynamic"):
                tid = threadid()
                iters_out[p] = _solve_one(&net, &wks[tid], &mu[p, 0], &xi[p, 0], tol, max_iter, &L_out[p],
                                          &trace[p, 0] if n_trace > 0 else NULL, n_trace)
                if want_grad:
                    _gradients(&net, &wks[tid], &mu[p, 0], &xi[p, 0],
                               &grad_w[p, 0] if ne > 0 else NULL, &grad_h[p, 0])
    finally:
        free(wks)


def bound_at(const cnp.int64_t[::1] pptr, const cnp.int64_t[::1] epar, const cnp.int64_t[::1] echild,
             const cnp.int64_t[::1] cptr, const cnp.int64_t[::1] cedge, const double[::1] w,
             const double[::1] h, const unsigned char[::1] vis,
             const double[:, ::1] mu, const double[:, ::1] xi, double[::1] L_out,
             double[:, ::1] grad_w, double[:, ::1] grad_h):
    """L_V (eq. 23) and its gradients (eqs. 35, 36) at given (mu, xi), without optimising."""
    cdef Net net = _make_net(pptr, epar, echild, cptr, cedge, w, h, vis)
    cdef Py_ssize_t P = mu.shape[0], n = net.n, ne = w.shape[0], p, i
    cdef Work wk
    cdef double g1, g2
    cdef double[::1] scratch = np.empty(_work_size(n, ne))
    cdef double[::1] ew = np.empty(ne + 1)
    _set_work(&wk, &scratch[0], n, ne)
    _exp_weights(net.w, &ew[0], ne)
    wk.ew = &ew[0]
    for p in range(P):
        for i in range(n):
            _eval_unit(&net, &wk, &mu[p, 0], i, xi[p, i], &g1, &g2)
        L_out[p] = _bound(&net, &wk, &mu[p, 0], &xi[p, 0])
        if grad_w.shape[0] == P:
            _gradients(&net, &wk, &mu[p, 0], &xi[p, 0], &grad_w[p, 0] if ne > 0 else NULL, &grad_h[p, 0])


def sgd_sweep(const cnp.int64_t[::1] pptr, const cnp.int64_t[::1] epar, const cnp.int64_t[::1] echild,
              const cnp.int64_t[::1] cptr, const cnp.int64_t[::1] cedge, double[::1] w,
              double[::1] h, const unsigned char[::1] vis, const double[:, ::1] patterns,
              double lr, double mu_init, double xi_init, double tol, int max_iter,
              double[::1] L_out, int[::1] iters_out):
    """One pass of pattern-by-pattern gradient ascent on L_V (eqs. 26, 27), in row order.

    For each row: solve the bound from (mu_init, xi_init), then
    ``J += lr dL_V/dJ`` and ``h += lr dL_V/dh``. ``w`` and ``h`` are updated in
    place; ``L_out[p]`` is the bound of pattern p before its update.
    """
    cdef Net net = _make_net(pptr, epar, echild, cptr, cedge, w, h, vis)
    cdef Py_ssize_t P = patterns.shape[0], n = net.n, ne = w.shape[0], p, i
    cdef cnp.int64_t e
    cdef Work wk
    if patterns.shape[1] != n or L_out.shape[0] != P or iters_out.shape[0] != P:
        raise ValueError("patterns must be (P, N); L_out, iters_out (P,)")
    cdef double[::1] scratch = np.empty(_work_size(n, ne))
    cdef double[::1] state = np.empty(3 * n + ne + 1)
    cdef double[::1] ew = np.empty(ne + 1)
    _set_work(&wk, &scratch[0], n, ne)
    wk.ew = &ew[0]
    cdef double* st = &state[0]
    cdef double* mu = st
    cdef double* xi = st + n
    cdef double* gh = st + 2 * n
    cdef double* gw = st + 3 * n
    cdef double* wp = <double*> net.w
    with nogil:
        for p in range(P):
            for i in range(n):
                mu[i] = patterns[p, i] if net.vis[i] else mu_init
                xi[i] = xi_init
            _exp_weights(net.w, &ew[0], ne)
            iters_out[p] = _solve_one(&net, &wk, mu, xi, tol, max_iter, &L_out[p], NULL, 0)
            _gradients(&net, &wk, mu, xi, gw, gh)
            for e in range(ne):
                wp[e] += lr * gw[e]
            for i in range(n):
                h[i] += lr * gh[i]
