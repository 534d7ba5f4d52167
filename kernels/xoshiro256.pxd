# cython: language_level=3
"""The kernels' random numbers: xoshiro256** (Blackman & Vigna 2018), its state seeded by
splitmix64 from the caller's 64-bit seed, integers below m by Lemire's multiply-shift with
rejection (Lemire 2019; exactly uniform) and doubles in [0, 1) from the top 53 bits.
A kernel holds an ``Rng`` on its stack, seeds it with :func:`rng_seed` and draws with
:func:`rng_below` / :func:`rng_unit`; the same seed gives the same stream in every kernel."""
from libc.stdint cimport uint64_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """The next output of splitmix64 with state ``x[0]`` (advanced)."""
    x[0] = x[0] + 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    """The state of ``r``: four successive splitmix64 outputs from ``seed``."""
    cdef uint64_t x = seed
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """The next 64-bit output of xoshiro256**."""
    cdef uint64_t result = _rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 = r.s2 ^ r.s0
    r.s3 = r.s3 ^ r.s1
    r.s1 = r.s1 ^ r.s2
    r.s0 = r.s0 ^ r.s3
    r.s2 = r.s2 ^ t
    r.s3 = _rotl(r.s3, 45)
    return result


cdef extern from *:
    """
    static inline uint64_t repro_mul128(uint64_t a, uint64_t b, uint64_t* lo) {
        unsigned __int128 m = (unsigned __int128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    """
    uint64_t repro_mul128(uint64_t a, uint64_t b, uint64_t* lo) noexcept nogil


cdef inline uint64_t rng_below(Rng* r, uint64_t m) noexcept nogil:
    """Uniform integer in [0, m), m ≥ 1: the high word of the 128-bit product of a draw and m,
    rejecting the 2^64 mod m low products that would bias it (the modulo is computed only when
    a product is low)."""
    cdef uint64_t lo, t
    cdef uint64_t hi = repro_mul128(rng_next(r), m, &lo)
    if lo < m:
        t = (<uint64_t>0 - m) % m
        while lo < t:
            hi = repro_mul128(rng_next(r), m, &lo)
    return hi


cdef inline double rng_unit(Rng* r) noexcept nogil:
    """Uniform double in [0, 1): the top 53 bits of a draw."""
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)
