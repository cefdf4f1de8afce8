"""System variables: block index and count."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import usage
from ..core.values import Scalar


@usage("asc.get_block_idx()")
def get_block_idx() -> Scalar:
    """Index of the running block, in [0, core_num) (int64)."""
    b = _b.current()
    return Scalar(b.create1("asc.get_block_idx", [], b.scalar_type(dt.int64)), dt.int64)


@usage("asc.get_block_num()")
def get_block_num() -> Scalar:
    """Number of blocks of the launch (int64)."""
    b = _b.current()
    return Scalar(b.create1("asc.get_block_num", [], b.scalar_type(dt.int64)), dt.int64)


# ---- system family: system variables and Trap -----------------------------------------------------------------

def _var(op: str, dtype: dt.DataType = dt.int64) -> Scalar:
    b = _b.current()
    return Scalar(b.create1(op, [], b.scalar_type(dtype)), dtype)


@usage("asc.get_arch_version(core_version)")
def get_arch_version(core_version: Any) -> Scalar:
    """`AscendC::GetArchVersion(coreVersion)`: writes the AI processor's architecture version into its uint32
    output parameter. A Python integer cannot be written to, so the version is returned (uint32): 0x220 on the
    Ascend910B (dav-c220); core_version is the variable's initial value."""
    from ..core.values import int_operand

    v = int_operand(core_version, "asc.get_arch_version: core_version")
    v = v if v.dtype == dt.uint32 else v.cast(dt.uint32)
    b = _b.current()
    return Scalar(b.create1("asc.get_arch_version", [v], b.scalar_type(dt.uint32)), dt.uint32)


@usage("asc.get_data_block_size_in_bytes()")
def get_data_block_size_in_bytes() -> Scalar:
    """`AscendC::GetDataBlockSizeInBytes()`: the bytes of a data block, 32 (int32, as upstream's int_)."""
    return _var("asc.get_data_block_size_in_bytes", dt.int32)


@usage("asc.get_program_counter()")
def get_program_counter() -> Scalar:
    """`AscendC::GetProgramCounter()`: the program counter (int64); in the model the place of the instruction in
    the kernel's bytecode, 4 bytes an instruction."""
    return _var("asc.get_program_counter")


@usage("asc.get_sub_block_idx()")
def get_sub_block_idx() -> Scalar:
    """`AscendC::GetSubBlockIdx()`: the index of this vector core within its logical AI Core (int64); 0 for the
    vector-only (KERNEL_TYPE_AIV_ONLY) kernels the model runs."""
    return _var("asc.get_sub_block_idx")


@usage("asc.get_sub_block_num()")
def get_sub_block_num() -> Scalar:
    """`AscendC::GetSubBlockNum()`: the vector cores of a logical AI Core (uint64); 1 for a vector-only
    kernel."""
    return _var("asc.get_sub_block_num", dt.uint64)


@usage("asc.get_system_cycle()")
def get_system_cycle() -> Scalar:
    """`AscendC::GetSystemCycle()`: the system counter (int64), 50 MHz on Atlas A2 (time in us = cycles / 50).
    With the timing model (`timing=`) it is the block's scalar-unit cycle converted to that counter; without
    it one core cycle per instruction executed."""
    return _var("asc.get_system_cycle")


@usage("asc.get_task_ratio()")
def get_task_ratio() -> Scalar:
    """`AscendC::GetTaskRatio()`: vector cores per logical core of the launch (int64), 1 for a vector-only
    kernel."""
    return _var("asc.get_task_ratio")


@usage("asc.trap()")
def trap() -> None:
    """`AscendC::Trap()`: stops the kernel; the launch fails with a KernelError at this line."""
    _b.current().create("asc.trap", [])
