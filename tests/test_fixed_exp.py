"""The fixed exp of ``kernels/fixed_exp.h`` (used by the domination and conditional kernels):
its error against long-double ``expl`` and against libm over the ranges the kernels use, its
special values, and every SIMD variant of its array loop = the scalar function, bit for bit."""
import math

import numpy as np
import pytest

from repro._kernels import exp_values

LONG = np.finfo(np.longdouble).nmant >= 63       # x87 extended: a reference to ~1/2000 ulp
TINY = np.finfo(np.float64).tiny
VARIANTS = ([0, 1] + ([2] if exp_values.avx2_usable() else [])
            + ([3] if exp_values.avx512_usable() else []))


def fixed_exp(x) -> np.ndarray:
    x = np.ascontiguousarray(x, dtype=np.float64)
    out = np.empty_like(x)
    assert exp_values.scalar(x, out) == 0
    return out


def ulps(y: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """|y − ref| in units of the last place of ref rounded to double (subnormals: in units
    of the smallest subnormal)."""
    unit = np.spacing(np.abs(ref.astype(np.float64))).astype(np.longdouble)
    return np.abs(y.astype(np.longdouble) - ref) / unit


def points(lo: float, hi: float, n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, n)


# the arguments the kernels pass: the domination margins' M − c ≤ 300 (recentring bound) and
# log-sum-exp shifts (≤ 0), the softmax shifts t − max ≤ 0, and the whole double range
RANGES = [(-746.0, 709.78), (-40.0, 300.0), (-1.0, 1.0), (-1e-6, 1e-6), (-745.2, -708.3)]


@pytest.mark.skipif(not LONG, reason="long double is not x87 extended precision here")
@pytest.mark.parametrize("lo,hi", RANGES)
def test_within_one_ulp_of_expl(lo, hi):
    x = points(lo, hi, 200_000, seed=int(abs(lo)))
    ref = np.exp(x.astype(np.longdouble))
    err = ulps(fixed_exp(x), ref)
    normal = ref >= TINY
    assert err[normal].max(initial=0) <= 1.0
    assert err[~normal].max(initial=0) <= 1.0        # subnormal results: one rounding


@pytest.mark.parametrize("lo,hi", RANGES)
def test_within_two_ulps_of_libm(lo, hi):
    x = points(lo, hi, 50_000, seed=7)
    ours = fixed_exp(x)
    libm = np.array([math.exp(v) for v in x])
    assert ulps(ours, libm.astype(np.longdouble)).max() <= 2.0


def test_special_values():
    x = np.array([0.0, -0.0, 1e-300, -1e-300, 5e-324, 1.0, -745.2, -746.0, -1000.0, -np.inf,
                  709.782712893384, 709.7827128933841, 710.0, 800.0, np.inf, np.nan])
    y = fixed_exp(x)
    assert np.all(y[:5] == 1.0)                            # 0, ±tiny → 1
    assert abs(y[5] - math.e) <= math.ulp(math.e)
    assert np.all(y[6:10] == 0.0) and not np.signbit(y[6:10]).any()   # large negative → +0
    assert np.isfinite(y[10]) and y[10] == pytest.approx(math.exp(709.782712893384), rel=3e-16)
    assert np.all(np.isposinf(y[11:15]))                   # overflow → +inf
    assert np.isnan(y[15])
    # the subnormal range: exp(-745.13) is the smallest subnormal, exp(-740) = 4.2e-322
    assert fixed_exp(np.array([-745.13]))[0] == 5e-324
    assert ulps(fixed_exp(np.array([-740.0])), np.exp(np.array([-740.0], np.longdouble)))[0] <= 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_simd_variant_is_the_scalar_function(variant):
    rng = np.random.default_rng(variant)
    x = np.concatenate([rng.uniform(-746, 709.78, 100_000), rng.uniform(-2, 2, 10_000),
                        [0.0, -0.0, np.nan, np.inf, -np.inf, 709.79, -745.5, 1e-310]])
    want = fixed_exp(x)
    for n in list(range(18)) + [x.size]:       # every tail length of a 2-, 4- or 8-lane loop
        out = np.full(n, -1.0)
        assert exp_values.vector(x[:n], out, variant) == 0
        assert np.array_equal(out.view(np.uint64), want[:n].view(np.uint64))
    inplace = x.copy()
    assert exp_values.vector(inplace, inplace, variant) == 0
    assert np.array_equal(inplace.view(np.uint64), want.view(np.uint64))


def test_bad_calls_are_refused():
    x = np.zeros(3)
    assert exp_values.scalar(x, np.zeros(2)) == -1
    assert exp_values.vector(x, np.zeros(2), 0) == -1
    assert exp_values.vector(x, np.zeros(3), 4) == -1


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_simd_variant_of_the_division_loop_is_the_scalar_division(variant):
    rng = np.random.default_rng(10 + variant)
    x = np.concatenate([rng.standard_normal(1000) * 10.0 ** rng.integers(-300, 300, 1000),
                        [0.0, -0.0, 5e-324, np.inf, -np.inf, np.nan, 1.0]])
    for z in (3.0, 7.1e-310, 1.7e308, 0.1):
        with np.errstate(all="ignore"):        # overflow to ±inf and 0/0 are values here
            want = x / z                        # NumPy's division: correctly rounded, per element
        for n in list(range(18)) + [x.size]:    # every tail length of a 2-, 4- or 8-lane loop
            out = x[:n].copy()
            assert exp_values.divide(out, z, variant) == 0
            assert np.array_equal(out.view(np.uint64), want[:n].view(np.uint64))
    assert exp_values.divide(x.copy(), 2.0, 4) == -1
