/* The branch-free exp and log shared by the compiled modules: exp of a
   non-positive argument (bmrep.sampling._kernels' layer updates,
   bmrep.special's logistic and softplus functions), exp and log of any
   argument (bmrep.meanfield._sbn's mean-field solver), and the vectorised
   loops built on them. */
#ifndef BMREP_EXPN_H
#define BMREP_EXPN_H
#include <stdint.h>
#include <string.h>
#include <math.h>

#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

/* Cephes exp's core: exp(xc) = e * 2^n with n = round(xc / ln 2) (read off
   the low bits of xc / ln 2 + 1.5 * 2^52), r = xc - n ln 2 in two parts and
   the rational approximation e = exp(r). For |xc| <= 745.2. */
static inline double bm_exp_core_d(double xc, int64_t *n) {
    const double magic = 6755399441055744.0;             /* 1.5 * 2^52 */
    double t = xc * 1.4426950408889634 + magic;
    double nd = t - magic;
    double r = xc - nd * 6.93145751953125e-1;
    r = r - nd * 1.42860682030941723212e-6;
    double rr = r * r;
    double px = r * ((1.26177193074810590878e-4 * rr + 3.02994407707441961300e-2) * rr
                     + 9.99999999999999999910e-1);
    double qx = ((3.00198505138664455042e-6 * rr + 2.52448340349684104192e-3) * rr
                 + 2.27265548208155028766e-1) * rr + 2.00000000000000000009e0;
    int64_t ti; memcpy(&ti, &t, 8);
    *n = ti - (int64_t)0x4338000000000000LL;
    return 1.0 + 2.0 * px / (qx - px);
}

/* exp(x) for x <= 0 (Cephes exp / expf: n = round(x / ln 2), r = x - n ln 2,
   rational (double) or polynomial (float) approximation of exp(r), times 2^n
   built in the exponent bits). Branch-free so loops over it vectorise. */
static inline double bm_expn_d(double x) {
    int64_t n;
    double e = bm_exp_core_d(x < -708.0 ? -708.0 : x, &n);
    uint64_t sb = (uint64_t)(n + 1023) << 52;
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

/* exp(x) for any x (bmrep.meanfield._sbn's factors exp(t J_ij), either sign):
   bm_expn_d's reduction and rational approximation on x clamped to
   [-745.2, 709.8], times 2^n applied as 2^(n >> 1) * 2^(n - (n >> 1)) so that
   every n of that range (-1075 .. 1024) is two representable powers of two
   (the products are exact but for the final rounding into the subnormals or
   to inf). 0 below -745.2, inf above 709.8 (exp(709.79) overflows), NaN for
   NaN. Branch-free, so loops over it vectorise. */
static inline double bm_exp_d(double x) {
    int64_t n;
    double e = bm_exp_core_d(x < -745.2 ? -745.2 : (x > 709.8 ? 709.8 : x), &n);
    int64_t n1 = n >> 1, n2 = n - n1;
    uint64_t b1 = (uint64_t)(n1 + 1023) << 52, b2 = (uint64_t)(n2 + 1023) << 52;
    double s1, s2; memcpy(&s1, &b1, 8); memcpy(&s2, &b2, 8);
    e = (e * s1) * s2;
    return x < -745.2 ? 0.0 : (x > 709.8 ? HUGE_VAL : e);
}

/* out[i] <- exp(s * w[i]) (bm_exp_d), vectorised in the widest clone the CPU runs. */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
__attribute__((unused)) static void bm_exp_scaled_d(const double *w, double s, double *out, Py_ssize_t n) {
    Py_ssize_t i;
    _Pragma("omp simd")
    for (i = 0; i < n; i++)
        out[i] = bm_exp_d(s * w[i]);
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

/* log(1 + f) + k ln 2 for sqrt(2)/2 <= 1 + f < sqrt(2): the kernel of
   fdlibm's e_log.c (Sun, 1993). s = f / (2 + f), log(1 + f) = 2 atanh(s)
   = f - (f^2/2 - s (f^2/2 + R(s^2))), R fdlibm's minimax polynomial
   (|error| < 2^-58.45 on this range). */
static inline double bm_log_kernel_d(double f, double k) {
    const double Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
                 Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
                 Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
                 Lg7 = 1.479819860511658591e-01;
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    double s = f / (2.0 + f);
    double z = s * s, w = z * z;
    double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    double hfsq = 0.5 * f * f;
    return k * ln2_hi - ((hfsq - (s * (hfsq + t2 + t1) + k * ln2_lo)) - f);
}

/* log(1 + y) for 0 <= y <= 1: 1 + y = 2^k (1 + f) with k = 1, f = (y - 1) / 2
   above sqrt(2) - 1 (exact for y >= 1/2, Sterbenz; within 2^-55 below), else
   k = 0, f = y; then the kernel: within about 1 ulp (the tests check it). */
static inline double bm_log1p01_d(double y) {
    int big = y > 0.41421356237309503;
    return bm_log_kernel_d(big ? 0.5 * (y - 1.0) : y, big ? 1.0 : 0.0);
}

/* log(x) for any x, fdlibm's e_log.c without its branches: x = 2^k m with m
   in [sqrt(2)/2, sqrt(2)) read off the bits (subnormals scaled by 2^54 first),
   then the kernel with f = m - 1 (exact). -inf at 0, NaN below 0 and for NaN,
   inf at inf. Within about 1 ulp (the tests check it). */
static inline double bm_log_d(double x) {
    int sub = x < 2.2250738585072014e-308;
    double xs = sub ? x * 18014398509481984.0 : x;        /* 2^54 */
    uint64_t ix; memcpy(&ix, &xs, 8);
    int64_t hx = (int64_t)(ix >> 32) & 0x7fffffff;
    int64_t k = (hx >> 20) - 1023 - (sub ? 54 : 0);
    hx &= 0x000fffff;
    int64_t i = (hx + 0x95f64) & 0x100000;               /* 1 if the mantissa is above sqrt(2) */
    uint64_t mb = ((uint64_t)(hx | (i ^ 0x3ff00000)) << 32) | (ix & 0xffffffffULL);
    double m; memcpy(&m, &mb, 8);                        /* m or m / 2, in [sqrt(2)/2, sqrt(2)) */
    k += i >> 20;
    double r = bm_log_kernel_d(m - 1.0, (double)k);
    return x > 0.0 ? (x < HUGE_VAL ? r : x) : (x == 0.0 ? -HUGE_VAL : NAN);
}

/* x[i] <- log(x[i]) in place (bm_log_d), vectorised in the widest clone the CPU runs. */
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))
__attribute__((unused)) static void bm_log_inplace_d(double *x, Py_ssize_t n) {
    Py_ssize_t i;
    _Pragma("omp simd")
    for (i = 0; i < n; i++)
        x[i] = bm_log_d(x[i]);
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
