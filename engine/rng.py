"""A small counter-based RNG (SplitMix64) whose whole state is two integers kept in the game state."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """Output i is a pure function of (seed, i): replaying a log replays every shuffle."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & _MASK
        self.counter = counter

    def next64(self) -> int:
        """The next 64-bit output."""
        self.counter += 1
        return _mix((self.seed + self.counter * _GOLDEN) & _MASK)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def to_json(self) -> list[int]:
        """[seed, counter]."""
        return [self.seed, self.counter]

    @classmethod
    def from_json(cls, data: list[int]) -> Rng:
        """The inverse of to_json."""
        return cls(data[0], data[1])
