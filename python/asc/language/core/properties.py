"""Hardware properties a kernel can read (`asc.property(asc.TOTAL_L1_SIZE)`),
as upstream pyasc has them: the constants of the same names in Ascend C.

`asc.DEFAULT_C0_SIZE`, `asc.ONE_BLK_SIZE`, `asc.TOTAL_L0C_SIZE` and
`asc.TOTAL_L1_SIZE` name a property; `asc.property(p)` inside a kernel is
its value, a runtime scalar of the property's type (int32; int16 for
ONE_BLK_SIZE), as the C++ constant is a value of the compiled kernel. The
memory sizes come from the platform the kernel is compiled for
(`asc.runtime.config.set_platform`; the platform is part of the compile
cache's key), from the C core's platform table (src/sim/platform.c).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict

from ... import _C
from ...codegen.errors import UnsupportedError
from ...lib import runtime as _rt
from . import dtype as dt
from .checks import describe, error, usage
from .dtype import DataType
from .values import Scalar, const

PlatformRow = Dict[str, Any]


@dataclass(frozen=True)
class Property:
    """A hardware property: its Ascend C constant, its type, and how its
    value follows from the platform's row of the platform table."""

    name: str
    cpp: str
    dtype: DataType
    value_of: Callable[[PlatformRow], int]

    def __repr__(self) -> str:
        return f"asc.{self.name}"

    def value(self, platform: str) -> int:
        """The property's value on a platform (a name of asc.Platform)."""
        row = _C.platform(platform)
        try:
            return self.value_of(row)
        except KeyError as e:
            raise UnsupportedError(f"asc.{self.name}: the platform table of this build has no `{e.args[0]}` for "
                                   f"{platform}", hint="hint: asc._C.platform() must give it, from the platform "
                                                       "table (src/sim/platform.c)") from None


def _not_a_number(name: str) -> Callable[..., Any]:
    def refuse(self: Property, *other: Any) -> Any:
        raise error(f"asc.{self.name} is a hardware property, not a number",
                    f"hint: write asc.property(asc.{self.name}) for its value in a kernel")

    refuse.__name__ = name
    return refuse


# used as a number (asc.ONE_BLK_SIZE * 2, int(asc.TOTAL_L1_SIZE)): say how to read it
for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "lshift", "rshift", "and", "or", "xor"):
    setattr(Property, f"__{_op}__", _not_a_number(f"__{_op}__"))
    setattr(Property, f"__r{_op}__", _not_a_number(f"__r{_op}__"))
for _op in ("lt", "le", "gt", "ge", "neg", "pos", "abs", "int", "float", "index"):
    setattr(Property, f"__{_op}__", _not_a_number(f"__{_op}__"))


def _fixed(value: int) -> Callable[[PlatformRow], int]:
    return lambda row: value


# The devkit's constants (impl/basic_api/utils/kernel_utils_constants.h); the first two are the same on
# every NPU arch: C0, a cube fractal's row of bytes, is 32 bytes; a block of the Unified Buffer is 32 bytes.
DEFAULT_C0_SIZE = Property("DEFAULT_C0_SIZE", "AscendC::DEFAULT_C0_SIZE", dt.int32, _fixed(32))
ONE_BLK_SIZE = Property("ONE_BLK_SIZE", "AscendC::ONE_BLK_SIZE", dt.int16, _fixed(32))
# the L0C of a cube core, and its L1 less the bytes the devkit keeps for the Matmul client/server messages
TOTAL_L0C_SIZE = Property("TOTAL_L0C_SIZE", "AscendC::TOTAL_L0C_SIZE", dt.int32, lambda row: row["l0c_size"])
TOTAL_L1_SIZE = Property("TOTAL_L1_SIZE", "AscendC::TOTAL_L1_SIZE", dt.int32,
                         lambda row: row["l1_size"] - row["l1_reserved"])

PROPERTIES = (DEFAULT_C0_SIZE, ONE_BLK_SIZE, TOTAL_L0C_SIZE, TOTAL_L1_SIZE)


@usage("asc.property(asc.TOTAL_L1_SIZE)", "asc.property(asc.DEFAULT_C0_SIZE)")
def property(prop: Property) -> Scalar:  # noqa: A001  (upstream's name)
    """The value of a hardware property in a kernel, on the platform it is
    compiled for: a runtime scalar of the property's type."""
    if not isinstance(prop, Property):
        raise error(f"asc.property takes a hardware property, got {describe(prop)}",
                    "hint: write asc.property(p) with p one of asc.DEFAULT_C0_SIZE, asc.ONE_BLK_SIZE, "
                    "asc.TOTAL_L0C_SIZE, asc.TOTAL_L1_SIZE")
    return const(prop.value(_rt.current_platform()), prop.dtype)


__all__ = ["Property", "property", "DEFAULT_C0_SIZE", "ONE_BLK_SIZE", "TOTAL_L0C_SIZE", "TOTAL_L1_SIZE"]
