/* fixed_exp.h: e^x with a fixed range reduction and a fixed polynomial, the same bits on
 * every x86-64 machine (and every IEEE-754 double machine): independent of libm (whose exp
 * glibc dispatches per CPU to an FMA or an SSE2 variant) and of numpy's SIMD dispatch.
 *
 * Used by kernels/domination.pyx and kernels/conditional.pyx through fixed_exp.pxd.
 *
 * Method (Cody & Waite 1980 reduction, Taylor polynomial):
 *   k = round(x / ln 2)          by the 1.5·2^52 shift (round to nearest even; no int cast)
 *   r = (x − k·LN2_HI) − k·LN2_LO   LN2_HI has 32 significant bits, so k·LN2_HI and the first
 *                                   subtraction are exact for |k| < 2^21; |r| ≤ ln2/2 (+1 ulp)
 *   e^r = 1 + (r + r²·u(r)),  u(r) = Σ_{j=0..11} r^j / (j+2)!   (Taylor to degree 13: the
 *                                   truncation error r^14/14! < 5e-18 relative at |r| = ln2/2)
 *   e^x = (e^r · 2^k1) · 2^k2,   k1 = ⌊k/2⌋, k2 = k − k1: both factors normal, so a result
 *                                   in the subnormal range is rounded once, by the last product.
 * Special values without a branch: x is clamped to [−746, 710] (NaN passes), where the
 * formula itself gives +0 (e^−746 < 2^−1075, half the smallest subnormal) and +inf (k = 1024,
 * e^r > 1: the last product overflows, as it does for every x > 709.782712893384); NaN → NaN,
 * −inf → +0, +inf → +inf.
 * Measured error (tests/test_fixed_exp.py, against long-double expl): ≤ 1 ulp over the
 * normal range.
 *
 * Every operation is written out (no fma(), no reassociation): compiled with
 * -ffp-contract=off (setup.py) a vectorised loop computes in each SIMD lane exactly the
 * scalar expression, so fixed_exp_array() returns the same bits as fixed_exp() element by
 * element, whatever the vector width the compiler chose.
 */
#ifndef REPRO_FIXED_EXP_H
#define REPRO_FIXED_EXP_H

#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stddef.h>

#define FIXED_EXP_OVERFLOW 709.782712893384      /* above: e^x > DBL_MAX → +inf */
#define FIXED_EXP_UNDERFLOW (-746.0)             /* x is clamped to [−746, 710]: e^−746 < */
#define FIXED_EXP_CLAMP 710.0                    /* 2^−1075 gives +0, e^710 > DBL_MAX +inf */

static inline double fixed_exp_bits_to_double(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline uint64_t fixed_exp_double_to_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* c ? a : b by bit masks, without a branch: a loop over it has no control flow and
 * vectorises (GCC does not if-convert the plain select of doubles under -ftrapping-math). */
static inline double fixed_exp_select(int c, double a, double b) {
    uint64_t m = (uint64_t)0 - (uint64_t)(c != 0);
    return fixed_exp_bits_to_double((fixed_exp_double_to_bits(a) & m)
                                    | (fixed_exp_double_to_bits(b) & ~m));
}

#define FIXED_EXP_BRANCH(c, a, b) ((c) ? (a) : (b))

/* The computation, y = e^x, as a statement (used by the scalar function and, textually, by
 * the array loops, so that their compile options apply to it). */
#define FIXED_EXP_BODY(x, y, SEL)                                                        \
    do {                                                                              \
        const double inv_ln2 = 1.4426950408889634074;      /* 0x3ff71547652b82fe */   \
        const double ln2_hi = 6.93147180369123816490e-01;  /* 0x3fe62e42fee00000 */   \
        const double ln2_lo = 1.90821492927058770002e-10;  /* 0x3dea39ef35793c76 */   \
        const double shift = 6755399441055744.0;           /* 1.5 · 2^52 */           \
        double xc, t, kd, r, u, p, s1, s2;                                            \
        int64_t k, k1, k2;                                                            \
        xc = SEL((x) < FIXED_EXP_UNDERFLOW, FIXED_EXP_UNDERFLOW, (x)); /* NaN passes */\
        xc = SEL(xc > FIXED_EXP_CLAMP, FIXED_EXP_CLAMP, xc);                         \
        t = xc * inv_ln2 + shift;                                                     \
        kd = t - shift;                                                               \
        k = (int64_t)(fixed_exp_double_to_bits(t) - fixed_exp_double_to_bits(shift)); \
        r = (xc - kd * ln2_hi) - kd * ln2_lo;                                         \
        u = 1.6059043836821614599e-10;                     /* 1/13! */                \
        u = u * r + 2.0876756987868098979e-09;             /* 1/12! */                \
        u = u * r + 2.5052108385441718775e-08;             /* 1/11! */                \
        u = u * r + 2.7557319223985890653e-07;             /* 1/10! */                \
        u = u * r + 2.7557319223985890653e-06;             /* 1/9! */                 \
        u = u * r + 2.4801587301587301587e-05;             /* 1/8! */                 \
        u = u * r + 1.9841269841269841270e-04;             /* 1/7! */                 \
        u = u * r + 1.3888888888888888889e-03;             /* 1/6! */                 \
        u = u * r + 8.3333333333333333333e-03;             /* 1/5! */                 \
        u = u * r + 4.1666666666666666667e-02;             /* 1/4! */                 \
        u = u * r + 1.6666666666666666667e-01;             /* 1/3! */                 \
        u = u * r + 0.5;                                   /* 1/2! */                 \
        p = 1.0 + (r + (r * r) * u);                                                  \
        k1 = (int64_t)((uint64_t)(k + 2048) >> 1) - 1024;      /* ⌊k/2⌋ */           \
        k2 = k - k1;                                                                  \
        s1 = fixed_exp_bits_to_double((uint64_t)(k1 + 1023) << 52);                   \
        s2 = fixed_exp_bits_to_double((uint64_t)(k2 + 1023) << 52);                   \
        (y) = (p * s1) * s2;                                                          \
    } while (0)

static inline double fixed_exp(double x) {
    double y;
    FIXED_EXP_BODY(x, y, FIXED_EXP_BRANCH);   /* the same values */
    return y;
}

/* y[i] = fixed_exp(x[i]) for i < n (y may equal x, no other overlap): a loop the compiler
 * vectorises, built three times — for the x86-64 baseline (GCC 12 leaves this one scalar:
 * SSE2 lacks the mask conversion of the selects), for AVX2 (4 lanes) and for AVX-512F (8
 * lanes; no FMA in either: -ffp-contract=off forbids contraction) — and chosen at run time.
 * Each computes every element exactly as fixed_exp() does.  The loop is latency-bound (the
 * polynomial is one chain): the 8-lane loop keeps twice the elements in flight. */
#define FIXED_EXP_LOOP(name)                                                         \
    static void name(const double* x, double* y, ptrdiff_t n) {    \
        ptrdiff_t i;                                                                  \
        double xi, yi;                                                                \
        for (i = 0; i < n; i++) {                                                     \
            xi = x[i];                                                                \
            FIXED_EXP_BODY(xi, yi, fixed_exp_select);                                                   \
            y[i] = yi;                                                                \
        }                                                                             \
    }

FIXED_EXP_LOOP(fixed_exp_array_base)

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define FIXED_EXP_HAVE_AVX2 1
__attribute__((target("avx2"))) FIXED_EXP_LOOP(fixed_exp_array_avx2)
__attribute__((target("avx512f"))) FIXED_EXP_LOOP(fixed_exp_array_avx512)
#else
#define FIXED_EXP_HAVE_AVX2 0
static void fixed_exp_array_avx2(const double* x, double* y, ptrdiff_t n) {
    fixed_exp_array_base(x, y, n);
}
static void fixed_exp_array_avx512(const double* x, double* y, ptrdiff_t n) {
    fixed_exp_array_base(x, y, n);
}
#endif

/* the widest of this file's loops this CPU runs (and its OS saves the registers of):
 * 2 AVX-512F (with AVX2), 1 AVX2, 0 the baseline */
static int fixed_exp_simd_level(void) {
#if FIXED_EXP_HAVE_AVX2
    static int level = -1;
    if (level < 0) {
        __builtin_cpu_init();
        level = !__builtin_cpu_supports("avx2") ? 0 : __builtin_cpu_supports("avx512f") ? 2 : 1;
    }
    return level;
#else
    return 0;
#endif
}

/* 1 if the AVX2 loop can run on this CPU */
static int fixed_exp_avx2_usable(void) {
    return fixed_exp_simd_level() >= 1;
}

/* 1 if the AVX-512F loop can run on this CPU */
static int fixed_exp_avx512_usable(void) {
    return fixed_exp_simd_level() >= 2;
}

/* The build a ``variant`` runs, for every run-time dispatch of these loops (this file's and
 * div_array.h's): variant 0 the widest this CPU runs; 1 the baseline; 2 AVX2 (only where
 * fixed_exp_avx2_usable()); 3 AVX-512F (only where fixed_exp_avx512_usable()).  Returns the
 * SIMD level of fixed_exp_simd_level(): 2 AVX-512F, 1 AVX2, 0 the baseline. */
static int fixed_exp_build(int variant) {
    if (variant == 3 || (variant == 0 && fixed_exp_avx512_usable()))
        return 2;
    if (variant == 2 || (variant == 0 && fixed_exp_avx2_usable()))
        return 1;
    return 0;
}

/* ``variant`` as in fixed_exp_build (tests compare every variant with the scalar function) */
static void fixed_exp_array_variant(const double* x, double* y, ptrdiff_t n, int variant) {
    switch (fixed_exp_build(variant)) {
    case 2: fixed_exp_array_avx512(x, y, n); break;
    case 1: fixed_exp_array_avx2(x, y, n); break;
    default: fixed_exp_array_base(x, y, n);
    }
}

static inline void fixed_exp_array(const double* x, double* y, ptrdiff_t n) {
    fixed_exp_array_variant(x, y, n, 0);
}

#endif
