"""`asc.ConstExpr[T]`: a kernel parameter known at compile time.

Its value is baked into the compiled kernel and is part of the cache key;
inside the kernel it behaves as a plain Python value.
"""

from __future__ import annotations

from typing import Any


class ConstExpr:
    def __init__(self, value: Any):
        self.value = value

    def __class_getitem__(cls, item: Any) -> Any:
        return _ConstExprAnnotation(item)

    @staticmethod
    def unwrap(value: Any) -> Any:
        return value.value if isinstance(value, ConstExpr) else value

    def __repr__(self) -> str:
        return f"ConstExpr({self.value!r})"


class _ConstExprAnnotation:
    def __init__(self, inner: Any):
        self.inner = inner

    def __repr__(self) -> str:
        return f"asc.ConstExpr[{getattr(self.inner, '__name__', self.inner)}]"


def is_constexpr_annotation(annotation: Any) -> bool:
    return annotation is ConstExpr or isinstance(annotation, _ConstExprAnnotation)
