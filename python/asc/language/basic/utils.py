"""Argument checks shared by the basic API families."""

from __future__ import annotations

from typing import Any, Tuple

from ..core.checks import error, got
from ..core.values import LocalTensor


def local(x: Any, api: str, name: str) -> LocalTensor:
    if not isinstance(x, LocalTensor):
        raise error(f"{api}: '{name}' must be a LocalTensor, got {got(x)}",
                    f"hint: pass a LocalTensor (from TQue.alloc_tensor, TBuf.get or asc.LocalTensor) as `{name}`; "
                    "copy global memory in with asc.data_copy first")
    return x


def count_form(api: str, args: Tuple[Any, ...], kwargs: dict, extra_kw: Tuple[str, ...] = ()) -> Any:
    """The `count` of the level-2 form (for APIs whose level-0 form is not implemented)."""
    kwargs = dict(kwargs)
    for k in ("is_set_mask",) + extra_kw:
        kwargs.pop(k, None)
    if "count" in kwargs and not args:
        args = (kwargs.pop("count"),)
    if len(args) == 2 and type(args[1]) is bool:
        # upstream's count form is (count, is_set_mask=True); the flag only matters to level-0 forms
        args = args[:1]
    if len(args) == 1 and not kwargs:
        return args[0]
    if len(args) >= 2 or "repeat_times" in kwargs or "mask" in kwargs:
        raise NotImplementedError(f"{api} with mask/repeat_times (the level-0 form) is not supported yet; "
                                  "use the count form: " + api + "(..., count)")
    hint = f"hint: write {api}(..., count) with count the number of elements"
    unknown = sorted(k for k in kwargs if k != "count")
    if unknown:
        raise error(f"{api}: unexpected keyword argument `{unknown[0]}`", hint)
    if "count" in kwargs:
        raise error(f"{api}: `count` is given both by position and by keyword", hint)
    raise error(f"{api}: missing the element count", hint)
