/* The branch-free exp of a non-positive argument shared by the compiled modules
   (bmrep.sampling._kernels' layer updates, bmrep.special's logistic and
   softplus functions), and the vectorised logistic and softplus built on it. */
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

/* log(1 + y) for 0 <= y <= 1: the kernel of fdlibm's e_log.c (Sun, 1993).
   1 + y = 2^k (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2), s = f / (2 + f),
   log(1 + f) = 2 atanh(s) = f - (f^2/2 - s (f^2/2 + R(s^2))), R fdlibm's
   minimax polynomial (|error| < 2^-58.45 on this range). With k = 1,
   f = (y - 1) / 2, exact for y >= 1/2 (Sterbenz) and within 2^-55 below,
   so the result is within about 1 ulp (the tests check it). */
static inline double bm_log1p01_d(double y) {
    const double Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
                 Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
                 Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
                 Lg7 = 1.479819860511658591e-01;
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    int big = y > 0.41421356237309503;
    double f = big ? 0.5 * (y - 1.0) : y;
    double k = big ? 1.0 : 0.0;
    double s = f / (2.0 + f);
    double z = s * s, w = z * z;
    double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    double hfsq = 0.5 * f * f;
    return k * ln2_hi - ((hfsq - (s * (hfsq + t2 + t1) + k * ln2_lo)) - f);
}

/* x[i] <- softplus(x[i]) = log(1 + exp(x[i])) in place, as max(x, 0) +
   log1p(exp(-|x|)) (no overflow), in double for both types (float rounds
   the double result once). Two vectorised passes per block of 256 values
   (the exps into a buffer, then the logs): fused into one loop, the two
   long dependency chains ran at half the speed of the two passes. */
#define BM_SOFTPLUS_BLOCK 256
#define BM_DEFINE_SOFTPLUS(T, SFX)                                                    \
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))        \
__attribute__((unused)) static void bm_softplus_##SFX(T *x, Py_ssize_t n) {           \
    double e[BM_SOFTPLUS_BLOCK];                                                      \
    Py_ssize_t i0, i, m;                                                              \
    for (i0 = 0; i0 < n; i0 += BM_SOFTPLUS_BLOCK) {                                   \
        T *y = x + i0;                                                                \
        m = n - i0 < BM_SOFTPLUS_BLOCK ? n - i0 : BM_SOFTPLUS_BLOCK;                  \
        _Pragma("omp simd")                                                           \
        for (i = 0; i < m; i++) {                                                     \
            double yi = (double)y[i];                                                 \
            e[i] = bm_expn_d(yi >= 0.0 ? -yi : yi);                                   \
        }                                                                             \
        _Pragma("omp simd")                                                           \
        for (i = 0; i < m; i++) {                                                     \
            double yi = (double)y[i];                                                 \
            y[i] = (T)((yi >= 0.0 ? yi : 0.0) + bm_log1p01_d(e[i]));                  \
        }                                                                             \
    }                                                                                 \
}
BM_DEFINE_SOFTPLUS(double, d)
BM_DEFINE_SOFTPLUS(float, f)

#pragma GCC pop_options
#endif
