/* Row sums over the summed-out layer of the tempered RBM and DBM families (bmrep.special): for each
   row of x (n x F, float or double, cast to double) numpy's pairwise sum (_pairwise.h) of
     mode 0: max(x, 0)                         (np.maximum: NaN kept)
     mode 1: softplus(-|x| b1)
     mode 2: softplus(b1 x + offset)
     mode 3: modes 0 and 1 at b1 and b2 in one pass (an AIS increment's two log f),
   into out (n values, or 3 x n in mode 3). buf holds 3F doubles. Each element is rounded as numpy
   rounds the expression (no FMA: -ffp-contract=off), so the sums are numpy's to the last bit; a
   row at a time they stay in L1, where numpy's (n x F) float64 temporaries evicted the weights
   the next matrix product reads. */
#ifndef BMREP_ROW_SUMS_H
#define BMREP_ROW_SUMS_H
#include <math.h>
#include "_expn.h"     /* bm_softplus_d */
#include "_pairwise.h" /* bm_pairwise_sum */

#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

#define BM_DEFINE_ROW_SUMS(T, SFX)                                                                   \
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))                                 \
__attribute__((unused)) static void bm_row_sums_##SFX(const T *x, Py_ssize_t n, Py_ssize_t F, int mode, \
                                                      double b1, double b2, const double *offset,    \
                                                      double *buf, double *out) {                    \
    double *pos = buf + 2 * F;                                                                       \
    for (Py_ssize_t i = 0; i < n; i++) {                                                             \
        const T *r = x + i * F;                                                                      \
        Py_ssize_t j;                                                                                \
        if (mode == 0 || mode == 3) {                                                                \
            _Pragma("omp simd")                                                                      \
            for (j = 0; j < F; j++) {                                                                \
                double v = (double)r[j];                                                             \
                pos[j] = (v >= 0.0 || v != v) ? v : 0.0;                                             \
            }                                                                                        \
            out[i] = bm_pairwise_sum(pos, F);                                                        \
        }                                                                                            \
        if (mode == 0) continue;                                                                     \
        if (mode == 2) {                                                                             \
            _Pragma("omp simd")                                                                      \
            for (j = 0; j < F; j++) buf[j] = b1 * (double)r[j] + offset[j];                          \
        } else {                                                                                     \
            _Pragma("omp simd")                                                                      \
            for (j = 0; j < F; j++) buf[j] = (-fabs((double)r[j])) * b1;                             \
        }                                                                                            \
        if (mode == 3) {                                                                             \
            _Pragma("omp simd")                                                                      \
            for (j = 0; j < F; j++) buf[F + j] = (-fabs((double)r[j])) * b2;                         \
        }                                                                                            \
        bm_softplus_d(buf, mode == 3 ? 2 * F : F);                                                   \
        if (mode == 3) {                                                                             \
            out[n + i] = bm_pairwise_sum(buf, F);                                                    \
            out[2 * n + i] = bm_pairwise_sum(buf + F, F);                                            \
        } else {                                                                                     \
            out[i] = bm_pairwise_sum(buf, F);                                                        \
        }                                                                                            \
    }                                                                                                \
}
BM_DEFINE_ROW_SUMS(double, d)
BM_DEFINE_ROW_SUMS(float, f)

#pragma GCC pop_options
#endif
