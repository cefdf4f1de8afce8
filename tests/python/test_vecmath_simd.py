"""exp and ln through the simulator, bit for bit against the C library.

Python's math.exp / math.log are the C library's double exp / log; rounded once
to float32 here they are the simulator's documented result (semantics.md, "How
the simulator computes them"). On a host with AVX2 / AVX-512 these launches run
the SIMD kernels of src/sim/vecmath_simd.c end to end, on inputs that include
the hardest-to-round floats (results next to a float midpoint) and every
special class; tests/c/test_vecmath_simd.c compares those kernels with the
portable loops on all input classes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from kernels_util import assert_bits_equal, run_unary

import asc

N = 4096

# Floats whose exp resp. ln, in double, lies within 8 double ulps of a float midpoint (from a scan of all floats).
HARD_EXP = [0x36FDFFC1, 0x377EFF81, 0x383A3EF1, 0x38E69CC1, 0x39C6BE5B, 0x39E5BB1D, 0x3D1A274E, 0x4001B249,
            0x40315B33, 0xB3000000, 0xBAE0E25C, 0xBBF0EDF1, 0xC16912CD]
HARD_LN = [0x022AE487, 0x064CB44B, 0x07C060FA, 0x0DC8BBA4, 0x0F61FF63, 0x111C87F8, 0x145CB6D4, 0x14907055,
           0x158772EB, 0x16C5EE7A]
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0 ** -149, -(2.0 ** -149), 2.0 ** -126, 3.4e38,
            -87.0, -87.33654, -103.97208, 88.5, 88.72283, 88.72284, 2.0 ** -24, -(2.0 ** -25)]


def ref(name: str, a: np.ndarray) -> np.ndarray:
    """math.exp / math.log of each float in double, rounded once to a's type (through float32 for halves)."""
    out = np.empty(a.shape, np.float64)
    for i, x in enumerate(a.astype(np.float64).tolist()):
        try:
            out[i] = math.exp(x) if name == "exp" else math.log(x)
        except OverflowError:  # exp: beyond double's range
            out[i] = math.inf
        except ValueError:  # log of 0 (-inf) and of negatives (NaN)
            out[i] = -math.inf if x == 0 else math.nan
    with np.errstate(over="ignore", invalid="ignore"):
        return out.astype(np.float32).astype(a.dtype)


def inputs(name: str, rng: np.random.Generator) -> np.ndarray:
    if name == "exp":
        body = rng.uniform(-105.0, 90.0, N)
        hard = HARD_EXP
    else:  # positive over the whole exponent range
        body = np.exp(rng.uniform(np.log(2.0 ** -149), np.log(3.0e38), N))
        hard = HARD_LN
    a = body.astype(np.float32)
    extra = np.concatenate([np.array(hard, np.uint32).view(np.float32), np.array(SPECIALS, np.float32)])
    a[rng.choice(N, len(extra), replace=False)] = extra
    return a


@pytest.mark.parametrize("name", ["exp", "ln"])
def test_f32_matches_c_library(name: str) -> None:
    rng = np.random.default_rng(18)
    a = inputs(name, rng)
    op = asc.exp if name == "exp" else asc.ln
    assert_bits_equal(run_unary(op, a), ref(name, a), context=f"{name} float32")
    # odd lengths: the SIMD kernels' tails
    assert_bits_equal(run_unary(op, a[:1001]), ref(name, a[:1001]), context=f"{name} float32 n=1001")


@pytest.mark.parametrize("name", ["exp", "ln"])
def test_f16_all_halves_match_c_library(name: str) -> None:
    """All 65536 halves: F16C in, the SIMD kernel in float, F16C out, as the double result rounded to float then
    to half."""
    a = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    op = asc.exp if name == "exp" else asc.ln
    for i in range(0, len(a), 8192):
        assert_bits_equal(run_unary(op, a[i:i + 8192]), ref(name, a[i:i + 8192]), context=f"{name} float16")
