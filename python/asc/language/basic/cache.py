"""Cache control: data_cache_clean_and_invalid, get_icache_preload_status, icache_preload.

The simulator keeps memory coherent (every access reaches the memory it names at once), so these change no data
there; they are checked and emitted as the devkit's calls. The sanitizer models the scalar unit's data cache
(docs/sanitizer.md, "The data cache"): data_cache_clean_and_invalid writes its lines back there, and a kernel that
needs it and lacks it is reported."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import enum_arg, error, got, usage
from ..core.enums import CacheLine, DcciDst  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, Scalar, int_operand


@usage("asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, dst)",
       "asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, dst, asc.DcciDst.CACHELINE_OUT)")
def data_cache_clean_and_invalid(entire_type: Any, dst: Any, dcci_dst: Any = None) -> None:
    """`AscendC::DataCacheCleanAndInvalid<T, entireType[, dcciDst]>(dst)`: writes back and invalidates the 64-byte
    data cache line holding dst's address (SINGLE_CACHE_LINE) or the whole cache (ENTIRE_DATA_CACHE), for dcci_dst
    CACHELINE_OUT, CACHELINE_ALL or none (CACHELINE_UB and CACHELINE_ATOMIC write no GM line back). No data changes
    in the model; the sanitizer's data cache model sees it."""
    api = "asc.data_cache_clean_and_invalid"
    line = enum_arg(entire_type, CacheLine, api, "entire_type")
    if not isinstance(dst, GlobalTensor):
        raise error(f"{api}: 'dst' must be a GlobalTensor, got {got(dst)}")
    attrs: dict = {"entire_type": ("CacheLine", line)}
    if dcci_dst is not None:
        attrs["dcci_dst"] = ("DcciDst", enum_arg(dcci_dst, DcciDst, api, "dcci_dst"))
    _b.current().create("asc.data_cache_clean_and_invalid", [dst], attrs=attrs)


@usage("asc.get_icache_preload_status()")
def get_icache_preload_status() -> Scalar:
    """`AscendC::GetICachePreloadStatus()`: the instruction-cache preload state (int64); 0 in the model, which
    has no instruction cache (no preload is ever in flight)."""
    b = _b.current()
    return Scalar(b.create1("asc.get_icache_preload_status", [], b.scalar_type(dt.int64)), dt.int64)


@usage("asc.icache_preload(pre_fetch_len)")
def icache_preload(pre_fetch_len: Any) -> None:
    """`AscendC::ICachePreLoad(preFetchLen)`: preloads instructions into the instruction cache (no effect in the
    model)."""
    n = int_operand(pre_fetch_len, "asc.icache_preload: pre_fetch_len")
    _b.current().create("asc.icache_preload", [n.cast(dt.int64) if n.dtype != dt.int64 else n])
