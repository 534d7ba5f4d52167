# cython: language_level=3
"""Two doubles per instruction, one definition for every kernel (``assignment``, ``lqo``,
``pair_counting``): SSE2 on every x86-64 CPU, elsewhere the same operations on a two-double
struct, lane by lane.

Each lane does exactly the scalar operation (IEEE add/sub/mul, no fused multiply-add;
``pd2_min(a, b)`` is ``a < b ? a : b`` and ``pd2_max(a, b)`` is ``a > b ? a : b`` lane by lane,
as _mm_min_pd/_mm_max_pd are), so packed code gives the scalar code's results bit for bit and
its sums have one fixed order whatever compiles them.  ``*_sd`` operations act on lane 0 and
keep lane 1; a mask (``msk2``) is a lane-wise comparison, ``msk2_bits`` gives bit k = lane k;
``pd2_sum`` is lane 0 + lane 1.

The C is included verbatim in each kernel that cimports from here; its macros and static
inline functions compile to the instructions each kernel wrote out before, so moving them here
changed no output (compared bit for bit on recorded kernel calls).
"""

cdef extern from *:
    """
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    typedef __m128d pd2;
    typedef __m128d msk2;
    #define pd2_loadu(p) _mm_loadu_pd(p)
    #define pd2_load_sd(p) _mm_load_sd(p)
    #define pd2_gather(p, q) _mm_loadh_pd(_mm_load_sd(p), q)
    #define pd2_storeu(p, a) _mm_storeu_pd(p, a)
    #define pd2_set1(x) _mm_set1_pd(x)
    #define pd2_zero() _mm_setzero_pd()
    #define pd2_add(a, b) _mm_add_pd(a, b)
    #define pd2_sub(a, b) _mm_sub_pd(a, b)
    #define pd2_mul(a, b) _mm_mul_pd(a, b)
    #define pd2_add_sd(a, b) _mm_add_sd(a, b)
    #define pd2_mul_sd(a, b) _mm_mul_sd(a, b)
    #define pd2_min(a, b) _mm_min_pd(a, b)
    #define pd2_max(a, b) _mm_max_pd(a, b)
    #define pd2_abs(a) _mm_andnot_pd(_mm_set1_pd(-0.0), a)
    #define pd2_lt(a, b) _mm_cmplt_pd(a, b)
    #define pd2_eq(a, b) _mm_cmpeq_pd(a, b)
    #define pd2_ngt(a, b) _mm_cmpngt_pd(a, b)
    #define pd2_select(m, a, b) _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b))
    #define pd2_lo(a) _mm_cvtsd_f64(a)
    #define pd2_hi(a) _mm_cvtsd_f64(_mm_unpackhi_pd(a, a))
    #define pd2_sum(a) (_mm_cvtsd_f64(a) + _mm_cvtsd_f64(_mm_unpackhi_pd(a, a)))
    #define msk2_bits(m) _mm_movemask_pd(m)
    #else
    #include <math.h>
    typedef struct { double v[2]; } pd2;
    typedef struct { int v[2]; } msk2;
    static inline pd2 pd2_make(double a, double b) { pd2 r; r.v[0] = a; r.v[1] = b; return r; }
    static inline msk2 msk2_make(int a, int b) { msk2 r; r.v[0] = a; r.v[1] = b; return r; }
    static inline pd2 pd2_loadu(const double* p) { return pd2_make(p[0], p[1]); }
    static inline pd2 pd2_load_sd(const double* p) { return pd2_make(p[0], 0.0); }
    static inline pd2 pd2_gather(const double* p, const double* q) { return pd2_make(*p, *q); }
    static inline void pd2_storeu(double* p, pd2 a) { p[0] = a.v[0]; p[1] = a.v[1]; }
    static inline pd2 pd2_set1(double x) { return pd2_make(x, x); }
    static inline pd2 pd2_zero(void) { return pd2_make(0.0, 0.0); }
    static inline pd2 pd2_add(pd2 a, pd2 b) { return pd2_make(a.v[0] + b.v[0], a.v[1] + b.v[1]); }
    static inline pd2 pd2_sub(pd2 a, pd2 b) { return pd2_make(a.v[0] - b.v[0], a.v[1] - b.v[1]); }
    static inline pd2 pd2_mul(pd2 a, pd2 b) { return pd2_make(a.v[0] * b.v[0], a.v[1] * b.v[1]); }
    static inline pd2 pd2_add_sd(pd2 a, pd2 b) { return pd2_make(a.v[0] + b.v[0], a.v[1]); }
    static inline pd2 pd2_mul_sd(pd2 a, pd2 b) { return pd2_make(a.v[0] * b.v[0], a.v[1]); }
    static inline pd2 pd2_min(pd2 a, pd2 b) {
        return pd2_make(a.v[0] < b.v[0] ? a.v[0] : b.v[0], a.v[1] < b.v[1] ? a.v[1] : b.v[1]); }
    static inline pd2 pd2_max(pd2 a, pd2 b) {
        return pd2_make(a.v[0] > b.v[0] ? a.v[0] : b.v[0], a.v[1] > b.v[1] ? a.v[1] : b.v[1]); }
    static inline pd2 pd2_abs(pd2 a) { return pd2_make(fabs(a.v[0]), fabs(a.v[1])); }
    static inline msk2 pd2_lt(pd2 a, pd2 b) { return msk2_make(a.v[0] < b.v[0], a.v[1] < b.v[1]); }
    static inline msk2 pd2_eq(pd2 a, pd2 b) { return msk2_make(a.v[0] == b.v[0], a.v[1] == b.v[1]); }
    static inline msk2 pd2_ngt(pd2 a, pd2 b) { return msk2_make(!(a.v[0] > b.v[0]), !(a.v[1] > b.v[1])); }
    static inline pd2 pd2_select(msk2 m, pd2 a, pd2 b) {
        return pd2_make(m.v[0] ? a.v[0] : b.v[0], m.v[1] ? a.v[1] : b.v[1]); }
    static inline double pd2_lo(pd2 a) { return a.v[0]; }
    static inline double pd2_hi(pd2 a) { return a.v[1]; }
    static inline double pd2_sum(pd2 a) { return a.v[0] + a.v[1]; }
    static inline int msk2_bits(msk2 m) { return (m.v[0] ? 1 : 0) | (m.v[1] ? 2 : 0); }
    #endif
    """
    ctypedef struct pd2:
        pass
    ctypedef struct msk2:
        pass
    pd2 pd2_loadu(const double*) nogil
    pd2 pd2_load_sd(const double*) nogil
    pd2 pd2_gather(const double*, const double*) nogil
    void pd2_storeu(double*, pd2) nogil
    pd2 pd2_set1(double) nogil
    pd2 pd2_zero() nogil
    pd2 pd2_add(pd2, pd2) nogil
    pd2 pd2_sub(pd2, pd2) nogil
    pd2 pd2_mul(pd2, pd2) nogil
    pd2 pd2_add_sd(pd2, pd2) nogil
    pd2 pd2_mul_sd(pd2, pd2) nogil
    pd2 pd2_min(pd2, pd2) nogil
    pd2 pd2_max(pd2, pd2) nogil
    pd2 pd2_abs(pd2) nogil
    msk2 pd2_lt(pd2, pd2) nogil
    msk2 pd2_eq(pd2, pd2) nogil
    msk2 pd2_ngt(pd2, pd2) nogil
    pd2 pd2_select(msk2, pd2, pd2) nogil
    double pd2_lo(pd2) nogil
    double pd2_hi(pd2) nogil
    double pd2_sum(pd2) nogil
    int msk2_bits(msk2) nogil
