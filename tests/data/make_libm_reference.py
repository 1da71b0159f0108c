"""Reference values for exp and expm1, correctly rounded to binary64 with mpmath.

Regenerate with: python3 tests/data/make_libm_reference.py > tests/data/libm_reference.txt
The test tests/libm_accuracy.rs checks that the libm crate (used by Freshlab on every
target) is within one ulp of these, the assumption behind the certifier's widening.
"""
import random
import struct

import mpmath

mpmath.mp.prec = 200


def rounded(value):
    """Nearest binary64 to an mpmath value (mpmath rounds to nearest on conversion)."""
    return float(mpmath.mpf(value))


def hexf(x):
    return struct.pack(">d", x).hex()


random.seed(20261122)
points = []
points += [random.uniform(-40.0, 10.0) for _ in range(3000)]
points += [random.choice([-1, 1]) * 10 ** random.uniform(-12, 0) for _ in range(3000)]
points += [-x for x in (0.25, 1.0, 1.6374453978, 2.2705709553, 9.0, 1 / 3)]
print("# x  exp(x)  expm1(x): binary64 bit patterns; values correctly rounded (mpmath, 200 bits)")
for x in points:
    mx = mpmath.mpf(x)
    print(hexf(x), hexf(rounded(mpmath.exp(mx))), hexf(rounded(mpmath.expm1(mx))))
