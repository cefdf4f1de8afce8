"""The Ascend C enums (`asc.TPosition`, `asc.HardEvent`, `asc.CubeFormat`,
...), one IntEnum class each, as upstream pyasc has them.

They are made from the C core's enum table (include/asc/enums.def, through
`asc._C.enum_infos()`): the class name, its members in their order and
their values come from there, so an enum is declared once for the IR, the
emitter and the front end. The table also says which classes `asc` exports
(those upstream exports) and the Ascend C spelling of every member
(`cpp_spelling`).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Dict, List, Tuple

from ... import _C

# where the table says a class is visible: "asc" (asc.<Name>, as upstream exports it) or "enums"
# (only here, asc.language.core.enums.<Name>: upstream does not export it); "" is an enum of the IR alone
_EXPORTED = "asc"

_CPP: Dict[Tuple[str, int], str] = {}  # (class name, value) -> Ascend C spelling
_NOT_IN_IR: Dict[str, Tuple[int, ...]] = {}  # class name -> values the IR does not carry


def _make_class(info: Dict[str, Any]) -> type:
    name: str = info["name"]
    members: List[Tuple[str, int, str, bool]] = info["members"]
    cls = IntEnum(name, [(m[0], m[1]) for m in members], module=__name__)  # type: ignore[misc]
    cls.__qualname__ = name
    cls.__doc__ = (f"`{info['prefix'] or name}`: the Ascend C enum (include/asc/enums.def), with upstream "
                   f"pyasc's members and values.")
    for _, value, cpp, _ in members:
        _CPP[(name, value)] = cpp
    _NOT_IN_IR[name] = tuple(m[1] for m in members if not m[3])
    return cls


_INFOS = [info for info in _C.enum_infos() if info["python"]]
ENUMS: Dict[str, type] = {info["name"]: _make_class(info) for info in _INFOS}
globals().update(ENUMS)


def cpp_spelling(member: IntEnum) -> str:
    """The Ascend C spelling of an enum member (`AscendC::TPosition::VECIN`)."""
    return _CPP[(type(member).__name__, int(member))]


def in_ir(member: IntEnum) -> bool:
    """False for a member the IR does not carry (PipeID.PIPE_MTE4, TPosition.MAX, ...)."""
    return int(member) not in _NOT_IN_IR[type(member).__name__]


# the classes asc exports, as upstream's asc.language.core does
__all__ = [info["name"] for info in _INFOS if info["python"] == _EXPORTED]
