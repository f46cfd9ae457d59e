/* The elementwise per-edge passes of bmrep.meanfield._sbn's mean-field solver
   (Saul, Jaakkola & Jordan 1996): the terms of one unit's parents (eqs. 20-22)
   and of one unit's children (eqs. 25, 33, 34), vectorised in the widest clone
   the CPU runs, with gathers through the edge lists. Divisions and products
   are IEEE operations, so each lane gives the bits that one edge at a time
   gave. Children of one unit are distinct units, so their scatters do not
   collide. */
#ifndef BMREP_SBN_TERMS_H
#define BMREP_SBN_TERMS_H
#include "../_expn.h"

/* Parents of one unit at xi = x: ea = e^{-x J}, eb = e^{(1-x) J} (as ea e^J,
   ew = e^J, but directly where |J| > 700 and ew = 0), the factors dA, dB of
   eq. (22), m = mu of the parent, and p = m e^{tJ} / d for t = -x, 1 - x. */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
static void sbn_parent_terms(const double *mu, const npy_int64 *par, const double *w, double x,
                             const double *ew, double *ea, double *eb, double *da, double *db,
                             double *m, double *pa, double *pb, Py_ssize_t n) {
    Py_ssize_t k;
    bm_exp_scaled_d(w, -x, ea, n);  /* its own loop: fused with the gathers, the pass ran 1.6x slower */
    _Pragma("omp simd")
    for (k = 0; k < n; k++) {
        double mk = mu[par[k]], a = ea[k], b = a * ew[k];
        double dA = (1.0 - mk) + mk * a, dB = (1.0 - mk) + mk * b;
        m[k] = mk; eb[k] = b; da[k] = dA; db[k] = dB;
        pa[k] = mk * a / dA;
        pb[k] = mk * b / dB;
    }
    for (k = 0; k < n; k++) {
        if (!(fabs(w[k]) <= 700.0)) {
            eb[k] = bm_exp_d((1.0 - x) * w[k]);
            db[k] = (1.0 - m[k]) + m[k] * eb[k];
            pb[k] = m[k] * eb[k] / db[k];
        }
    }
}

/* Children of one unit j: t = J (mu_i - xi_i) - K_ij, the terms of eq. (25) (K of eq. 34). */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
static void sbn_child_terms(const npy_int64 *cedge, const npy_int64 *echild, const double *w,
                            const double *ea, const double *eb, const double *da, const double *db,
                            const double *phi, const double *mu, const double *xi, double *t, Py_ssize_t n) {
    Py_ssize_t k;
    _Pragma("omp simd")
    for (k = 0; k < n; k++) {
        npy_int64 e = cedge[k], i = echild[e];
        double K = (1.0 - phi[i]) * (ea[e] - 1.0) / da[e] + phi[i] * (eb[e] - 1.0) / db[e];
        t[k] = w[e] * (mu[i] - xi[i]) - K;
    }
}

/* Children of one unit j whose mean moved to mnew (by dm): <z_i> and the factors
   of eq. (22) move; r = (nb/db) / (na/da), whose log eq. (33)'s log-odds gains. */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
static void sbn_child_update(const npy_int64 *cedge, const npy_int64 *echild, const double *w,
                             const double *ea, const double *eb, double *da, double *db, double *mz,
                             double mnew, double dm, double *r, Py_ssize_t n) {
    Py_ssize_t k;
    _Pragma("omp simd")
    for (k = 0; k < n; k++) {
        npy_int64 e = cedge[k], i = echild[e];
        double na = (1.0 - mnew) + mnew * ea[e], nb = (1.0 - mnew) + mnew * eb[e];
        mz[i] += w[e] * dm;
        r[k] = (nb / db[e]) / (na / da[e]);
        da[e] = na;
        db[e] = nb;
    }
}
#endif
