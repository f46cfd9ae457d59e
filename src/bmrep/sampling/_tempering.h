/* Passes of the simulated-tempering temperature step (bmrep.sampling._tempering;
   its module docstring says what each reproduces of numpy, bit for bit).
   Without FMA (-ffp-contract=off) every product and sum is rounded as numpy
   rounds it; the loops below only reorder what is order-free (a maximum) or
   interleave independent rows. */
#ifndef BMREP_TEMPERING_H
#define BMREP_TEMPERING_H
#include <stddef.h>
#include "../_pairwise.h"  /* bm_pairwise_sum: numpy's order of a row sum */

#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

/* out[k] = offset[k] + d * betas[k] - max_k(...), NaN everywhere if any logit is NaN (as numpy's max). */
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
static void bm_shifted_logits_row(double d, const double *restrict betas, const double *restrict offset,
                                  double *restrict out, ptrdiff_t K) {
    double m = -__builtin_inf();
    int nan = 0;
    for (ptrdiff_t k = 0; k < K; k++) out[k] = offset[k] + d * betas[k];
    /* the maximum of a set does not depend on the order (its zero's sign is lost in exp(x - m) anyway) */
#pragma omp simd reduction(max : m) reduction(| : nan)
    for (ptrdiff_t k = 0; k < K; k++) {
        double x = out[k];
        m = x > m ? x : m;
        nan |= x != x;
    }
    if (nan) m = __builtin_nan("");
    for (ptrdiff_t k = 0; k < K; k++) out[k] = out[k] - m;
}

/* a[k] /= sum(a) (numpy's order) */
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
static void bm_normalise_row(double *restrict a, ptrdiff_t K) {
    double s = bm_pairwise_sum(a, K);
    for (ptrdiff_t k = 0; k < K; k++) a[k] = a[k] / s;
}

/* Inverse-CDF draws of n rows of q (n x K, q >= 0): k[i] = #{j : cdf_ij < u_i * cdf_i,K-1}, at most
   K - 1, cdf the sequential cumulative sum (numpy's cumsum order). The sums of four rows are
   interleaved (a sequential sum is one add latency per term); cdf (n x K) is scratch. The cdf is
   non-decreasing, so the count is found by bisection; a NaN threshold counts nothing, as numpy's <. */
static void bm_sample_rows(const double *q, const double *u, ptrdiff_t n, ptrdiff_t K, double *cdf, long *k_out) {
    ptrdiff_t i0, r, j;
    for (i0 = 0; i0 < n; i0 += 4) {
        ptrdiff_t rows = n - i0 < 4 ? n - i0 : 4;
        double c[4] = {0.0, 0.0, 0.0, 0.0};
        for (j = 0; j < K; j++)
            for (r = 0; r < rows; r++) {
                c[r] = c[r] + q[(i0 + r) * K + j];
                cdf[(i0 + r) * K + j] = c[r];
            }
    }
    for (ptrdiff_t i = 0; i < n; i++) {
        const double *row = cdf + i * K;
        double thr = K > 0 ? u[i] * row[K - 1] : 0.0;
        ptrdiff_t lo = 0, hi = K; /* first index in [lo, hi) with row >= thr */
        if (thr != thr) hi = 0;
        while (lo < hi) {
            ptrdiff_t mid = lo + (hi - lo) / 2;
            if (row[mid] < thr) lo = mid + 1;
            else hi = mid;
        }
        k_out[i] = lo < K - 1 ? lo : K - 1;
    }
}

#pragma GCC pop_options
#endif
