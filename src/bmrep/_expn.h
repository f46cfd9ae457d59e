/* The branch-free exp of a non-positive argument shared by the compiled modules
   (bmrep.sampling._kernels' layer updates, bmrep.special's logistic function),
   and the vectorised logistic function built on it. */
#ifndef BMREP_EXPN_H
#define BMREP_EXPN_H
#include <stdint.h>
#include <string.h>

#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

/* exp(x) for x <= 0 (Cephes exp / expf: n = round(x / ln 2), r = x - n ln 2,
   rational (double) or polynomial (float) approximation of exp(r), times 2^n
   built in the exponent bits). Branch-free so loops over it vectorise. */
static inline double bm_expn_d(double x) {
    const double magic = 6755399441055744.0;             /* 1.5 * 2^52 */
    double xc = x < -708.0 ? -708.0 : x;
    double t = xc * 1.4426950408889634 + magic;          /* low bits hold round(x/ln2) */
    double n = t - magic;
    double r = xc - n * 6.93145751953125e-1;
    r = r - n * 1.42860682030941723212e-6;
    double rr = r * r;
    double px = r * ((1.26177193074810590878e-4 * rr + 3.02994407707441961300e-2) * rr
                     + 9.99999999999999999910e-1);
    double qx = ((3.00198505138664455042e-6 * rr + 2.52448340349684104192e-3) * rr
                 + 2.27265548208155028766e-1) * rr + 2.00000000000000000009e0;
    double e = 1.0 + 2.0 * px / (qx - px);
    int64_t ti; memcpy(&ti, &t, 8);
    uint64_t sb = (uint64_t)(ti - (int64_t)0x4338000000000000LL + 1023) << 52;
    double scale; memcpy(&scale, &sb, 8);
    e = e * scale;
    return x < -708.0 ? 0.0 : e;
}

static inline float bm_expn_f(float x) {
    const float magic = 12582912.0f;                     /* 1.5 * 2^23 */
    float xc = x < -87.0f ? -87.0f : x;
    float t = xc * 1.44269504088896341f + magic;
    float n = t - magic;
    float r = xc - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float z = r * r;
    float e = (((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r
                 + 4.1665795894e-2f) * r + 1.6666665459e-1f) * r + 5.0000001201e-1f) * z + r + 1.0f;
    int32_t ti; memcpy(&ti, &t, 4);
    uint32_t sb = (uint32_t)(ti - (int32_t)0x4B400000 + 127) << 23;
    float scale; memcpy(&scale, &sb, 4);
    e = e * scale;
    return x < -87.0f ? 0.0f : e;
}

/* x[i] <- 1 / (1 + exp(-x[i])) in place: exp only of -|x| (no overflow), then
   1 / (1 + e) or e / (1 + e). About 2 ulp; one division, vectorised in the
   widest clone the CPU runs (all clones compute the same bits: no FMA). */
#define BM_DEFINE_LOGISTIC(T, SFX)                                                    \
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))        \
__attribute__((unused)) static void bm_logistic_##SFX(T *x, Py_ssize_t n) {                                 \
    const T one = 1, zero = 0;                                                        \
    Py_ssize_t i;                                                                     \
    _Pragma("omp simd")                                                               \
    for (i = 0; i < n; i++) {                                                         \
        T xi = x[i];                                                                  \
        T e = bm_expn_##SFX(xi >= zero ? -xi : xi);                                   \
        x[i] = (xi >= zero ? one : e) / (one + e);                                    \
    }                                                                                 \
}
BM_DEFINE_LOGISTIC(double, d)
BM_DEFINE_LOGISTIC(float, f)

#pragma GCC pop_options
#endif
