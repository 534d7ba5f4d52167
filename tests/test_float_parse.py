"""The tokenizer's number parser (Clinger's exact fast path, ``strtod`` otherwise) against
Python's ``float()``, bit for bit: random decimals of every shape, the fast path's boundaries
(2**53, 10**±22), subnormals, the largest double, long digit strings, signs and zeros; and the
spellings ``float()`` takes but the LETOR grammar refuses."""
import struct

import numpy as np
import pytest

from repro.data.letor import tokenize
from repro.errors import DataError


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def parse_values(values: list[str], per_line: int = 97) -> list[float]:
    """Every value parsed by the kernel, as feature values and as labels."""
    lines = []
    for a in range(0, len(values), per_line):
        chunk = values[a:a + per_line]
        lines.append(f"{chunk[0]} qid:1 " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(chunk)))
    raw = tokenize(("\n".join(lines) + "\n").encode(), "values", n_features=per_line)
    got, labels = [], raw["labels"].tolist()
    for i, a in enumerate(range(0, len(values), per_line)):
        n = len(values[a:a + per_line])
        got.extend(raw["X"][i, :n].tolist())
        assert bits(labels[i]) == bits(float(values[a])), values[a]     # the label too
    return got


def assert_like_float(values):
    got = parse_values(values)
    bad = [(v, g, float(v)) for v, g in zip(values, got) if bits(g) != bits(float(v))]
    assert not bad, bad[:5]


def random_decimal(rng) -> str:
    sign = ("", "-", "+")[int(rng.integers(3))]
    n_int, n_frac = int(rng.integers(0, 22)), int(rng.integers(0, 22))
    if n_int + n_frac == 0:
        n_int = 1
    digits = "".join(rng.choice(list("0123456789"), n_int + n_frac))
    s = sign + digits[:n_int]
    if n_frac or rng.random() < 0.2:
        s += "." + digits[n_int:]
    if rng.random() < 0.5:
        s += ("e", "E")[int(rng.integers(2))] + ("", "-", "+")[int(rng.integers(3))] + \
            str(int(rng.integers(0, 330)))
    return s


def test_random_decimals_equal_float_bit_for_bit():
    rng = np.random.default_rng(1990)
    values = []
    while len(values) < 20000:
        s = random_decimal(rng)
        if np.isfinite(float(s)):
            values.append(s)
    assert_like_float(values)


def test_fast_path_boundaries():
    rng = np.random.default_rng(53)
    values = []
    for m in (2**53 - 1, 2**53, 2**53 + 1, 2**53 + 2, 2**53 + 3, 2**54 + 1, 10**15, 10**16 + 1,
              10**17 + 1, 10**19 - 1, 123456789012345678):
        for e in (-24, -23, -22, -21, -1, 0, 1, 15, 21, 22, 23, 24, 37, 38):
            values.append(f"{m}e{e}")
            values.append(f"-{m}E{e:+d}")
    for _ in range(3000):                     # 15 to 19 significant digits, exponents near ±22
        m = int(rng.integers(10**14, 10**18)) * int(rng.integers(1, 10))
        values.append(f"{m}e{int(rng.integers(-30, 31))}")
        s = str(m)
        k = int(rng.integers(0, len(s)))
        values.append(f"{s[:k]}.{s[k:]}")
    assert_like_float(values)


def test_edge_cases():
    values = [
        "0", "-0", "+0", "0.0", "-0.0", "-0e5", "0e999999", "-0.000", "00000", ".5", "5.", "+.5",
        "-.5e1", "+3.", "1", "-1", "+1", "1e0", "1E0", "1e+0", "1e-0", "1e22", "1e23", "1e-22",
        "1e-23", "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "0.1", "0.2", "0.3", "0.7", "1.1", "2.675", "123.456", "-722.709577", "0.000575",
        "4.9e-324", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "2.225073858507201e-308",
        "1e-320", "-1e-320", "1e-400", "-1e-400", "1.7976931348623157e308",
        "1.7976931348623158e308", "-1.7976931348623157e308", "8.98846567431158e307",
        "17976931348623157" + "0" * 292, "17976931348623158" + "0" * 292,
        "0." + "1" * 300, "0." + "9" * 40, "9" * 25, "1" + "0" * 30 + "1",
        "0" * 600 + "1.5", "0." + "0" * 600 + "1e600", "1" * 700 + "e-700",
        "3.14159265358979323846264338327950288419716939937510582097494459",
        "0.30000000000000004", "0.1000000000000000055511151231257827",
        "1.00000000000000011102230246251565404236316680908203125",      # exactly halfway
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "7.2057594037927933e16", "1448997445238699", "123456789012345678901234567890e-30",
    ]
    assert_like_float(values)


@pytest.mark.parametrize("text", [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "1.7976931348623159e308",
    "1_0", "0x1p3", "1e", "1e+", "e5", ".", "+", "-", "1.2.3", "--1", "+-1", "1d5", "1,5",
    "٣", "1e5.0", "0b1",
])
def test_spellings_that_are_not_finite_plain_decimals_are_refused(text):
    with pytest.raises(DataError, match=r"line 1: feature value is not a finite decimal number"):
        tokenize(f"0 qid:1 1:{text}\n".encode(), "f")
    with pytest.raises(DataError, match=r"line 1: label is not a number"):
        tokenize(f"{text} qid:1 1:1\n".encode(), "f")
