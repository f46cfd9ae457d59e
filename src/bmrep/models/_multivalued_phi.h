/* ln phi_s (eqs. 6/7) and psi_s (eq. 14) of Yokoyama, Katsumata & Yasuda (2019),
   elementwise over a row, vectorised in the widest clone the CPU runs.

   Each function computes its series branch (small arguments) and its closed
   form (the rest) and selects: branch-free, so the loops vectorise (the
   closed form's inf or NaN at 0 is discarded, and no-trapping-math lets the
   compiler evaluate both). exp and log are _expn.h's (about 1 ulp); the
   closed forms use 1 - e^{-2a} where libm's expm1 served before, exact to a
   few ulp for a >= 0.1 (e^{-2a} <= 0.82). The helpers are always inlined: a
   call left in a loop (GCC declined to inline two of them) keeps it scalar. */
#ifndef BMREP_MULTIVALUED_PHI_H
#define BMREP_MULTIVALUED_PHI_H
#include "../_expn.h"

#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

/* ln(sinh(a) / a) for a >= 0: its Taylor series below 0.1 (next term ~ a^12 / 6.1e6),
   else a + ln(1 - e^{-2a}) - ln(2a) (sinh a = e^a (1 - e^{-2a}) / 2). */
__attribute__((always_inline)) static inline double mv_log_sinhc(double a) {
    double a2 = a * a;
    double series = a2 * (1.0 / 6.0 + a2 * (-1.0 / 180.0 + a2 * (1.0 / 2835.0
                    + a2 * (-1.0 / 37800.0 + a2 * (1.0 / 467775.0)))));
    double closed = a + bm_log_d(1.0 - bm_expn_d(-2.0 * a)) - bm_log_d(2.0 * a);
    return a < 0.1 ? series : closed;
}

/* The Langevin function coth(y) - 1/y (odd): its series below |y| = 0.1, else
   (1 + e) / (1 - e) - 1/|y| with e = e^{-2|y|}, signed. */
__attribute__((always_inline)) static inline double mv_langevin(double y) {
    double a = fabs(y), y2 = y * y, e = bm_expn_d(-2.0 * a);
    double series = y * (1.0 / 3.0 + y2 * (-1.0 / 45.0 + y2 * (2.0 / 945.0
                    + y2 * (-1.0 / 4725.0 + y2 * (2.0 / 93555.0)))));
    double r = (1.0 + e) / (1.0 - e) - 1.0 / a;
    return a < 0.1 ? series : (y > 0.0 ? r : -r);
}

/* tanh(y) (odd): its Taylor series below |y| = 0.1 (to y^13; the next term is
   1e-17 of the value), else (1 - e) / (1 + e) with e = e^{-2|y|}, signed. */
__attribute__((always_inline)) static inline double mv_tanh(double y) {
    double a = fabs(y), y2 = y * y, e = bm_expn_d(-2.0 * a);
    double series = y * (1.0 + y2 * (-1.0 / 3.0 + y2 * (2.0 / 15.0 + y2 * (-17.0 / 315.0
                    + y2 * (62.0 / 2835.0 + y2 * (-1382.0 / 155925.0 + y2 * (21844.0 / 6081075.0)))))));
    double r = (1.0 - e) / (1.0 + e);
    return a < 0.1 ? series : (y > 0.0 ? r : -r);
}

/* out = ln phi_s(x): ln 2 + g(|x|) (s = inf), ln(2 cosh x) (s = 1),
   ln 2 + g((s+1)|x|/s) - g(|x|/s) otherwise, g = mv_log_sinhc. */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
__attribute__((unused)) static void mv_log_phi(const double *x, double s, double *out, Py_ssize_t n) {
    const double ln2 = 0.6931471805599453;
    Py_ssize_t i;
    if (isinf(s)) {
        _Pragma("omp simd")
        for (i = 0; i < n; i++)
            out[i] = ln2 + mv_log_sinhc(fabs(x[i]));
    } else if (s == 1.0) {
        _Pragma("omp simd")
        for (i = 0; i < n; i++) {
            double a = fabs(x[i]);
            out[i] = a + bm_log1p01_d(bm_expn_d(-2.0 * a));
        }
    } else {
        _Pragma("omp simd")
        for (i = 0; i < n; i++) {
            double a = fabs(x[i]);
            out[i] = ln2 + mv_log_sinhc((s + 1.0) * a / s) - mv_log_sinhc(a / s);
        }
    }
}

/* out = psi_s(x) = d ln phi_s / dx: L(x) (s = inf), tanh x (s = 1),
   ((s+1)/s) L((s+1)x/s) - L(x/s)/s otherwise, L = mv_langevin. */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
__attribute__((unused)) static void mv_psi(const double *x, double s, double *out, Py_ssize_t n) {
    Py_ssize_t i;
    if (isinf(s)) {
        _Pragma("omp simd")
        for (i = 0; i < n; i++)
            out[i] = mv_langevin(x[i]);
    } else if (s == 1.0) {
        _Pragma("omp simd")
        for (i = 0; i < n; i++)
            out[i] = mv_tanh(x[i]);
    } else {
        _Pragma("omp simd")
        for (i = 0; i < n; i++)
            out[i] = (s + 1.0) / s * mv_langevin((s + 1.0) * x[i] / s) - mv_langevin(x[i] / s) / s;
    }
}

#pragma GCC pop_options
#endif
