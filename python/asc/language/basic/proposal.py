"""Sorting and merging (Ascend C basic_api/kernel_operator_proposal_intf.h;
upstream pyasc's `proposal.py`): sort32, sort, mrg_sort, get_mrg_sort_result,
get_sort_len, get_sort_offset, and the region-proposal instructions the
Ascend910B does not have (rp_sort16, mrg_sort4, proposal_concat,
proposal_extract), which are a CompileError.

On the Ascend910B a sorted element is 8 bytes: the score (half or float) in
its low bytes and its uint32 index in the high 4 (a half's middle 2 bytes
are reserved). In a float tensor an element is 2 floats, in a half tensor 4
halves (get_sort_len). Order: descending score, equal scores in input
order; src/sim/sort.c has the semantics."""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, error, usage
from ..core.types import MrgSort4Info  # type: ignore[attr-defined]
from ..core.values import LocalTensor, MrgSortSrcList, Scalar, int_operand
from .utils import local

_SCORES = (dt.float16, dt.float32)


def _score_tensor(api: str, t: Any, name: str) -> LocalTensor:
    t = local(t, api, name)
    if t.dtype not in _SCORES:
        raise error(f"{api} does not support element type {t.dtype.name} on the Ascend910B ('{name}': half or "
                    "float)", f"hint: pass a float16 or float32 LocalTensor as `{name}`")
    return t


def _same(api: str, ref: LocalTensor, t: Any, name: str) -> LocalTensor:
    t = local(t, api, name)
    if t.dtype != ref.dtype:
        raise error(f"{api}: '{name}' holds {t.dtype.name} but dst holds {ref.dtype.name}",
                    f"hint: `{name}` and dst must have one element type")
    return t


def _index(api: str, t: Any, name: str) -> LocalTensor:
    t = local(t, api, name)
    if t.dtype != dt.uint32:
        raise error(f"{api}: '{name}' (the indices) must be a uint32 LocalTensor, got {t.dtype.name}",
                    f"hint: allocate `{name}` as asc.uint32")
    return t


def _int(api: str, x: Any, name: str, lo: int, hi: int) -> Scalar:
    if isinstance(x, bool) or not (isinstance(x, int) or (isinstance(x, Scalar) and x.dtype.is_int())):
        raise error(f"{api}: '{name}' must be an integer, got {describe(x)}")
    if isinstance(x, int) and not lo <= x <= hi:
        raise error(f"{api}: {name} = {x} is out of range [{lo}, {hi}]")
    return int_operand(x, f"{api}: {name}")


def _flag(api: str, x: Any, name: str) -> bool:
    if type(x) is not bool:
        raise error(f"{api}: '{name}' must be a Python bool (True or False), got {describe(x)}",
                    "hint: it is a template argument of the devkit: a compile-time constant")
    return x


def _unsupported(api: str) -> Exception:
    return error(f"asc.{api} is not supported on the Ascend910B (the devkit's dav_c220 implementation reports "
                 f"it unsupported there)",
                 "hint: on the Ascend910B sort with asc.sort32 / asc.sort and merge with asc.mrg_sort")


@usage("asc.sort32(dst, src0, src1, repeat_time)")
def sort32(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, repeat_time: Any) -> None:
    """`AscendC::Sort32`: each of `repeat_time` runs of 32 scores of src0 (half or float) with their uint32
    indices of src1 sorted descending into dst as (score, index) elements of 8 bytes (equal scores keep their
    order). Run r reads src0[32r:32r+32] and src1[32r:32r+32] and writes 256 bytes of dst; repeat_time in
    [0, 255] (0: nothing). dst must be 256-byte aligned, src0 128 (float) / 64 (half), src1 128."""
    api = "asc.sort32"
    d = _score_tensor(api, dst, "dst")
    s0 = _same(api, d, src0, "src0")
    s1 = _index(api, src1, "src1")
    _b.current().create("asc.sort32", [d, s0, s1, _int(api, repeat_time, "repeat_time", 0, 255)])


@usage("asc.sort(dst, concat, index, tmp, repeat_time, is_full_sort=False)")
def sort(dst: LocalTensor, concat: LocalTensor, index: LocalTensor, tmp: LocalTensor, repeat_time: Any,
         is_full_sort: bool = False) -> None:
    """`AscendC::Sort<T, isFullSort>`: on the Ascend910B a Sort32 of the scores `concat` with their uint32
    `index` into dst (repeat_time runs of 32). With `is_full_sort=True` the runs are then merged, as the devkit
    does (4-way MrgSorts between dst and `tmp`, which needs as many elements as dst), into one descending
    list of repeat_time * 32 elements; tmp is left holding a copy of dst."""
    api = "asc.sort"
    d = _score_tensor(api, dst, "dst")
    c = _same(api, d, concat, "concat")
    i = _index(api, index, "index")
    t = _same(api, d, tmp, "tmp")
    full = _flag(api, is_full_sort, "is_full_sort")
    _b.current().create("asc.sort", [d, c, i, t, _int(api, repeat_time, "repeat_time", 0, 255)],
                        attrs={"is_full_sort": int(full)})


def _src_list(api: str, d: LocalTensor, sort_list: Any) -> Tuple[List[LocalTensor], int]:
    if not isinstance(sort_list, MrgSortSrcList):
        raise error(f"{api}: 'sort_list' must be an asc.MrgSortSrcList, got {describe(sort_list)}",
                    "hint: write asc.MrgSortSrcList(dtype, src1, src2[, src3, src4])")
    if sort_list.dtype != d.dtype:
        raise error(f"{api}: the MrgSortSrcList holds {sort_list.dtype.name} but dst holds {d.dtype.name}")
    srcs = list(sort_list.srcs)
    n = len(srcs)
    # the devkit's MrgSortSrcList always has 4 members; lists not given stand in as src1 (valid_bit may not
    # enable them: the simulator checks)
    return srcs + [srcs[0]] * (4 - n), n


def _four(api: str, xs: Any, name: str, hi: int) -> List[Scalar]:
    if not isinstance(xs, (list, tuple)) or len(xs) != 4:
        raise error(f"{api}: '{name}' must be a list of 4 integers (one per list), got {describe(xs)}")
    return [_int(api, x, f"{name}[{i}]", 0, hi) for i, x in enumerate(xs)]


@usage("asc.mrg_sort(dst, sort_list, element_count_list, sorted_num, valid_bit, repeat_time, "
       "is_exhausted_suspension=False)",
       "asc.mrg_sort(dst, sort_list, params)")
def mrg_sort(dst: LocalTensor, sort_list: MrgSortSrcList, *args: Any, **kwargs: Any) -> None:
    """`AscendC::MrgSort`: merges up to 4 sorted lists of (score, index) elements (`sort_list`, an
    asc.MrgSortSrcList) into dst, descending; of equal scores the element of the lower list first.

    `mrg_sort(dst, sort_list, element_count_list, sorted_num, valid_bit, repeat_time,
    is_exhausted_suspension=False)` (`MrgSort<T, isExhaustedSuspension>`): element_count_list the 4 lists'
    lengths in elements (0 to 4095), valid_bit 3, 7 or 15 (the first 2, 3 or 4 lists), repeat_time the
    number of merges of 4 lists stored one after another (more than 1 needs 4 lists of one length, valid_bit
    15 and no suspension). With `is_exhausted_suspension=True` the merge stops when a list runs out;
    `get_mrg_sort_result()` then tells how many elements of each list it took. `sorted_num` is the devkit's
    output array: pass 4 integers; read the counts with get_mrg_sort_result.

    `mrg_sort(dst, sort_list, params)` takes the same as an asc.MrgSort4Info."""
    api = "asc.mrg_sort"
    d = _score_tensor(api, dst, "dst")
    srcs, n = _src_list(api, d, sort_list)
    b = _b.current()
    if (len(args) == 1 and not kwargs) or (not args and set(kwargs) == {"params"}):
        params = args[0] if args else kwargs["params"]
        if not isinstance(params, MrgSort4Info):
            raise error(f"{api}: 'params' must be an asc.MrgSort4Info, got {describe(params)}",
                        "hint: asc.MrgSort4Info(element_lengths=[...], if_exhausted_suspension=False, "
                        "valid_bit=15, repeat_times=1)")
        b.create("asc.mrg_sort.info", [d, *srcs, params.to_ir()], attrs={"lists": n})
        return
    names = ("element_count_list", "sorted_num", "valid_bit", "repeat_time", "is_exhausted_suspension")
    if len(args) > len(names):
        raise error(f"{api} takes at most {2 + len(names)} arguments, got {2 + len(args)}")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise error(f"{api}: unexpected keyword argument `{k}`")
        if k in bound:
            raise error(f"{api}: `{k}` is given both by position and by keyword")
        bound[k] = v
    missing = [k for k in names[:4] if k not in bound]
    if missing:
        raise error(f"{api}: missing argument `{missing[0]}`")
    counts = _four(api, bound["element_count_list"], "element_count_list", 4095)
    sorted_num = _four(api, bound["sorted_num"], "sorted_num", 2**32 - 1)
    valid_bit = bound["valid_bit"]
    if isinstance(valid_bit, int) and not isinstance(valid_bit, bool) and valid_bit not in (3, 7, 15):
        raise error(f"{api}: valid_bit = {valid_bit} is not 3, 7 or 15 (the first 2, 3 or 4 lists)")
    vb = _int(api, valid_bit, "valid_bit", 0, 65535)
    rt = _int(api, bound["repeat_time"], "repeat_time", 0, 255)
    susp = _flag(api, bound.get("is_exhausted_suspension", False), "is_exhausted_suspension")
    b.create("asc.mrg_sort", [d, *srcs, *counts, *sorted_num, vb, rt],
             attrs={"lists": n, "is_exhausted_suspension": int(susp)})


@usage("asc.get_mrg_sort_result()")
def get_mrg_sort_result() -> Tuple[Scalar, Scalar, Scalar, Scalar]:
    """`AscendC::GetMrgSortResult`: how many elements of each of the 4 lists the last mrg_sort took (4 uint16;
    useful after a merge with is_exhausted_suspension=True). 0s before any merge."""
    b = _b.current()
    u16 = b.scalar_type(dt.uint16)
    op = b.create("asc.get_mrg_sort_result", [], [u16, u16, u16, u16])
    r = [Scalar(h, dt.uint16) for h in op.results]
    return r[0], r[1], r[2], r[3]


def _len_op(api: str, op: str, x: Any, name: str) -> Scalar:
    v = _int(api, x, name, 0, 2**32 - 1)
    b = _b.current()
    return Scalar(b.create1(op, [v], b.scalar_type(dt.uint32)), dt.uint32)


@usage("asc.get_sort_len(elem_count)")
def get_sort_len(elem_count: Any) -> Scalar:
    """`AscendC::GetSortLen<float>`: the float elements that `elem_count` sorted (score, index) elements take
    on the Ascend910B, 2 * elem_count (a runtime uint32)."""
    return _len_op("asc.get_sort_len", "asc.get_sort_len", elem_count, "elem_count")


@usage("asc.get_sort_offset(elem_offset)")
def get_sort_offset(elem_offset: Any) -> Scalar:
    """`AscendC::GetSortOffset<float>`: the float offset of sorted element `elem_offset` on the Ascend910B,
    2 * elem_offset (a runtime uint32)."""
    return _len_op("asc.get_sort_offset", "asc.get_sort_offset", elem_offset, "elem_offset")


@usage("asc.mrg_sort4(dst, src, params)")
def mrg_sort4(dst: LocalTensor, src: MrgSortSrcList, params: MrgSort4Info) -> None:
    """`AscendC::MrgSort4` (region proposals): not on the Ascend910B, a CompileError; use asc.mrg_sort."""
    raise _unsupported("mrg_sort4")


@usage("asc.rp_sort16(dst, src, repeat_time)")
def rp_sort16(dst: LocalTensor, src: LocalTensor, repeat_time: Any) -> None:
    """`AscendC::RpSort16` (region proposals): not on the Ascend910B, a CompileError; use asc.sort32."""
    raise _unsupported("rp_sort16")


@usage("asc.proposal_concat(dst, src, repeat_time, mode_number)")
def proposal_concat(dst: LocalTensor, src: LocalTensor, repeat_time: Any, mode_number: Any) -> None:
    """`AscendC::ProposalConcat` (region proposals): not on the Ascend910B, a CompileError."""
    raise _unsupported("proposal_concat")


@usage("asc.proposal_extract(dst, src, repeat_time, mode_number)")
def proposal_extract(dst: LocalTensor, src: LocalTensor, repeat_time: Any, mode_number: Any) -> None:
    """`AscendC::ProposalExtract` (region proposals): not on the Ascend910B, a CompileError."""
    raise _unsupported("proposal_extract")


__all__: Sequence[str] = (
    "sort32", "sort", "mrg_sort", "get_mrg_sort_result", "get_sort_len", "get_sort_offset", "mrg_sort4",
    "rp_sort16", "proposal_concat", "proposal_extract",
)
