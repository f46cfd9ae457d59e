/* numpy's summation order for the compiled modules that must reproduce a numpy row sum bit for bit
   (bmrep.sampling._tempering, bmrep.special's row sums). */
#ifndef BMREP_PAIRWISE_H
#define BMREP_PAIRWISE_H
#include <stddef.h>

/* numpy's pairwise summation (@TYPE@_pairwise_sum of numpy's loops_utils.h.src, which ndarray.sum
   uses along a contiguous axis, starting from 0): below 8 terms a plain loop, up to 128 terms eight
   accumulators, beyond that two halves cut at a multiple of 8. */
__attribute__((unused)) static double bm_pairwise_sum(const double *a, ptrdiff_t n) {
    if (n < 8) {
        double res = 0.0;
        for (ptrdiff_t i = 0; i < n; i++) res = res + a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        ptrdiff_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] = r[j] + a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res = res + a[i];
        return res;
    }
    ptrdiff_t n2 = n / 2;
    n2 -= n2 % 8;
    return bm_pairwise_sum(a, n2) + bm_pairwise_sum(a + n2, n - n2);
}

#endif
