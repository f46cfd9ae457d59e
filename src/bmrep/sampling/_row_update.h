/* Row updates of the compiled kernels (bmrep.sampling._kernels): the row's
   uniforms and one row of Gibbs / flip-the-state / blend updates (the exp of a
   non-positive argument is ../_expn.h's).
   Included by _kernels.pyx; the module docstring there explains the scheme. */
#ifndef BMREP_ROW_UPDATE_H
#define BMREP_ROW_UPDATE_H
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "numpy/random/bitgen.h"

/* Comparisons are if-converted (and the loops vectorised) only without
   trapping math; no result changes. The widest clone the CPU runs is picked
   at load time (x86-64-v4 has AVX-512DQ's 64-bit multiply for the uniforms'
   mixing): integer mixing is exact and, without FMA (-ffp-contract=off),
   every clone computes the same bits as the SSE2 default. */
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

#include "../_expn.h"      /* bm_expn_d, bm_expn_f: exp of x <= 0 */

/* The uniforms of one row. One 64-bit draw from the chain's own stream (its
   PCG64 through numpy's bitgen_t) seeds a SplitMix64 sequence (Steele, Lea &
   Flood 2014, "Fast splittable pseudorandom number generators", the
   generator of Java's SplittableRandom): unit i gets the mix of
   key + (i + 1) * golden gamma. The mix is integer arithmetic without a
   carried state, so the loop vectorises (vpmullq), and it gives the same
   bits on every x86-64 clone. A per-unit call through the bitgen_t function
   pointer cost 2.3 ns (float64); this is a fraction of a nanosecond.
   Mantissa bits are set under the exponent of 1.0 and 1 subtracted (exact):
   52 random bits for double, 23 for float, uniform on [0, 1). */
#define BM_GOLDEN 0x9E3779B97F4A7C15ULL
static inline uint64_t bm_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline double bm_unit_d(uint64_t x) {
    uint64_t bits = 0x3FF0000000000000ULL | (x >> 12);
    double d; memcpy(&d, &bits, 8);
    return d - 1.0;
}
static inline float bm_unit_f(uint32_t x) {             /* from the top 23 of 32 bits */
    uint32_t bits = 0x3F800000U | (x >> 9);
    float f; memcpy(&f, &bits, 4);
    return f - 1.0f;
}
static inline void bm_uniforms_d(double *u, uint64_t key, Py_ssize_t n) {
    Py_ssize_t i;
    _Pragma("omp simd")
    for (i = 0; i < n; i++) u[i] = bm_unit_d(bm_mix64(key + (uint64_t)(i + 1) * BM_GOLDEN));
}
/* float: the two 32-bit halves of mix j serve units j and m + j (m = ceil(n/2)),
   so a row costs half as many mixes and both stores stay contiguous. */
static inline void bm_uniforms_f(float *u, uint64_t key, Py_ssize_t n) {
    Py_ssize_t j, m = (n + 1) / 2, pairs = n / 2;
    _Pragma("omp simd")
    for (j = 0; j < pairs; j++) {
        uint64_t z = bm_mix64(key + (uint64_t)(j + 1) * BM_GOLDEN);
        u[j] = bm_unit_f((uint32_t)(z >> 32));
        u[m + j] = bm_unit_f((uint32_t)z);
    }
    if (m > pairs) u[m - 1] = bm_unit_f((uint32_t)(bm_mix64(key + (uint64_t)m * BM_GOLDEN) >> 32));
}

/* The decisions of one row given its log-odds expression X (of i): Gibbs
   (mode 0), flip-the-state (1), blend (2); branch-free and vectorised. */
#define BM_ROW_DECISIONS(T, SFX, X)                                                   \
    if (mode == 0) {                                                                  \
        _Pragma("omp simd")                                                           \
        for (i = 0; i < n; i++) {                                                     \
            T xi = X;                                                                 \
            T e = bm_expn_##SFX(xi >= zero ? -xi : xi);                               \
            T num = xi >= zero ? one : e;       /* sigmoid(x) = num / (1 + e) */      \
            s[i] = u[i] * (one + e) < num ? one : zero;                               \
        }                                                                             \
    } else if (mode == 1) {                                                           \
        _Pragma("omp simd")                                                           \
        for (i = 0; i < n; i++) {                                                     \
            T xi = X;                                                                 \
            T si = s[i];                                                              \
            T d = si == zero ? xi : -xi;                                              \
            T q = bm_expn_##SFX(d < zero ? d : zero);                                 \
            q = d == zero ? half : q;                                                 \
            s[i] = u[i] < q ? one - si : si;                                          \
        }                                                                             \
    } else {                                                                          \
        _Pragma("omp simd")                                                           \
        for (i = 0; i < n; i++) {                                                     \
            T xi = X;                                                                 \
            T si = s[i];                                                              \
            T d = si == zero ? xi : -xi;                                              \
            T e = bm_expn_##SFX(d > zero ? -d : d);                                   \
            T qt = d > zero ? one : (d == zero ? half : e);                           \
            T qg = (d > zero ? one : e) / (one + e);                                  \
            T q = alpha * qt + (one - alpha) * qg;                                    \
            s[i] = u[i] < q ? one - si : si;                                          \
        }                                                                             \
    }

/* One row: u ~ U[0,1) per unit (above), then, fused and vectorised,
   x = beta (field + bias) + (1 - beta) base and the decision.
   ``zeros`` (n zeros) stands in for a missing bias or base. Untempered
   (beta = 1, no base) x is field + bias: the same bits as the general
   expression (1 (f + b) + 0 * 0; a -0 becomes +0, which every decision
   treats alike), without its two products per unit (~7% of the updates). */
#define BM_DEFINE_ROW(T, SFX)                                                         \
__attribute__((target_clones("arch=x86-64-v4", "avx512f", "avx2", "default")))                          \
static void bm_update_row_##SFX(T *s, const T *field, const T *bias, const T *base,   \
                                T beta, Py_ssize_t n, int mode, T alpha, bitgen_t *g, \
                                const T *zeros, T *u) {                               \
    const T one = 1, zero = 0, half = 0.5, omb = one - beta;                          \
    Py_ssize_t i;                                                                     \
    if (!bias) bias = zeros;                                                          \
    if (!base) base = zeros;                                                          \
    const uint64_t key = g->next_uint64(g->state);                                   \
    bm_uniforms_##SFX(u, key, n);                                                     \
    if (beta == one && base == zeros) {                                               \
        BM_ROW_DECISIONS(T, SFX, field[i] + bias[i])                                  \
    } else {                                                                          \
        BM_ROW_DECISIONS(T, SFX, beta * (field[i] + bias[i]) + omb * base[i])        \
    }                                                                                 \
}
BM_DEFINE_ROW(double, d)
BM_DEFINE_ROW(float, f)
#pragma GCC pop_options

#endif
