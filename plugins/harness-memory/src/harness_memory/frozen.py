"""A small immutable value type that costs nothing to define (H-5).

A hook process defines its few record types on every run: a ``dataclass`` imports ``inspect``
(and with it ``ast``, ``dis``, ``tokenize``) and a named tuple compiles code for each class,
each costing the PreToolUse guard more than the guard's own work. A :class:`Frozen` subclass
lists its fields in ``__slots__`` and sets them in ``__init__`` through :meth:`_set`.
"""

from __future__ import annotations

__all__ = ["Frozen"]


class Frozen:
    """Base of immutable records: equality, hash and repr over the fields in ``__slots__``."""

    __slots__: tuple[str, ...] = ()

    def _set(self, **fields: object) -> None:
        """Set the fields once, from ``__init__``."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Frozen)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"
