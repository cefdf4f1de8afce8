"""The kernel language: everything a kernel may call as `asc.<name>`."""

from . import adv  # noqa: F401  (family: host, asc.adv.TCubeTiling)
from . import core as _core
from .basic import *  # noqa: F403
from .basic import __all__ as _basic_all
from .core import *  # noqa: F403
from .core import __all__ as _core_all
from .fwk import *  # noqa: F403
from .fwk import __all__ as _fwk_all

bool = _core.bool_  # upstream spells the type asc.bool_; asc.bool is an alias

__all__ = list(_core_all) + list(_basic_all) + list(_fwk_all) + ["bool"]
