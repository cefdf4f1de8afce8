"""Region-proposal pre- and post-processing for Sort (upstream pyasc's `asc.language.adv.sort`; the devkit's
Concat / Extract, basic_api/kernel_operator_proposal_intf.h). src/sim/adv_sort.c has the semantics.

On the Ascend910B a sorted element is 8 bytes: its score (half or float) in the low bytes and its uint32 index
in the high 4 (asc.sort32 / asc.sort)."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..basic.proposal import _index, _int, _same, _score_tensor
from ..core.checks import usage
from ..core.values import LocalTensor


@usage("asc.adv.concat(dst, src, tmp, repeat_time)")
def concat(dst: LocalTensor, src: LocalTensor, tmp: LocalTensor, repeat_time: Any) -> None:
    """`AscendC::Concat(concat, src, tmp, repeatTime)`: prepares the scores `src` (half or float) for
    asc.sort. On the Ascend910B the devkit assigns src to dst (`concat = src`): from this call on dst is the
    LocalTensor src (its address and length), no instruction runs and `tmp` is not touched. `repeat_time` (in
    [0, 255]; 16 scores each on the arches that copy) is checked as the devkit checks it. dst, src and tmp
    hold one element type."""
    api = "asc.adv.concat"
    d = _score_tensor(api, dst, "dst")
    s = _same(api, d, src, "src")
    t = _same(api, d, tmp, "tmp")
    _b.current().create("asc.adv.sort.concat", [d, s, t, _int(api, repeat_time, "repeat_time", 0, 255)])


@usage("asc.adv.extract(dst_value, dst_index, src, repeat_time)")
def extract(dst_value: LocalTensor, dst_index: LocalTensor, src: LocalTensor, repeat_time: Any) -> None:
    """`AscendC::Extract(dstValue, dstIndex, sorted, repeatTime)`: splits the sorted (score, index) elements
    of `src` (asc.sort's result) into their scores (dst_value, half or float as src) and their uint32 indices
    (dst_index). Each of `repeat_time` repeats (in [0, 255]) reads 256 bytes of src (32 elements): dst_value
    gets 32 * repeat_time scores; dst_index 32 * repeat_time indices for float and, as the devkit's Ascend910B
    code runs its index step over twice the repeats for half, 64 * repeat_time for half (reading
    512 * repeat_time bytes of src)."""
    api = "asc.adv.extract"
    v = _score_tensor(api, dst_value, "dst_value")
    i = _index(api, dst_index, "dst_index")
    s = _same(api, v, src, "src")
    _b.current().create("asc.adv.sort.extract", [v, i, s, _int(api, repeat_time, "repeat_time", 0, 255)])
