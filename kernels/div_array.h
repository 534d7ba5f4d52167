/* div_array.h: x[i] /= z for i < n by a vector loop built for the x86-64 baseline (2 lanes),
 * AVX2 (4) and AVX-512F (8) and chosen at run time like the loops of fixed_exp.h (whose CPU
 * checks it uses).  IEEE division is correctly rounded, so every width gives the bits of the
 * scalar x[i] / z.  Used by kernels/conditional.pyx (the softmax's normalisation, where the
 * baseline's 2-lane divisions were a visible cost); exposed for its tests by exp_values.pyx. */
#ifndef REPRO_DIV_ARRAY_H
#define REPRO_DIV_ARRAY_H

#include <stddef.h>

#include "fixed_exp.h"

#define DIV_ARRAY_LOOP(name)                                                  \
    static void name(double* x, double z, ptrdiff_t n) {                      \
        ptrdiff_t i;                                                          \
        for (i = 0; i < n; i++)                                               \
            x[i] /= z;                                                        \
    }

DIV_ARRAY_LOOP(div_array_base)

#if FIXED_EXP_HAVE_AVX2
__attribute__((target("avx2"))) DIV_ARRAY_LOOP(div_array_avx2)
__attribute__((target("avx512f"))) DIV_ARRAY_LOOP(div_array_avx512)
#else
#define div_array_avx2 div_array_base
#define div_array_avx512 div_array_base
#endif

/* ``variant`` as in fixed_exp.h's fixed_exp_build (0: the widest loop this CPU runs) */
static void div_array_variant(double* x, double z, ptrdiff_t n, int variant) {
    switch (fixed_exp_build(variant)) {
    case 2: div_array_avx512(x, z, n); break;
    case 1: div_array_avx2(x, z, n); break;
    default: div_array_base(x, z, n);
    }
}

static inline void div_array(double* x, double z, ptrdiff_t n) {
    div_array_variant(x, z, n, 0);
}

#endif
