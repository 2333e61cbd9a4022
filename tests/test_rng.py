"""The random agents' stream (interpreter/runtime/rng.py): its documented definition, determinism, uniformity."""
from __future__ import annotations

import struct
from hashlib import shake_128

import pytest
from hypothesis import given, strategies as st

from interpreter.runtime.rng import Stream


def _block(seed: int, k: int) -> bytes:
    """Block k of a stream, re-derived from the module docstring's definition."""
    return shake_128((seed % 2 ** 128).to_bytes(16, "little") + k.to_bytes(8, "little")).digest(64)


def test_the_stream_is_the_documented_one():
    s = Stream(2026)
    blocks = [struct.unpack("<16I", _block(2026, k)) for k in range(2)]
    got = [s.randrange(6) for _ in range(20)]
    words = [*blocks[0], *blocks[1]][:20]
    assert all((w * 6) & 0xFFFFFFFF >= 6 for w in words)  # none of these words is rejected, so:
    assert got == [(w * 6) >> 32 for w in words]  # block 0, then block 1
    assert Stream(-1).key == (2 ** 128 - 1).to_bytes(16, "little")  # any int seed, modulo 2**128


def test_same_seed_same_stream():
    a, b = Stream(7), Stream(7)
    assert [a.randrange(100) for _ in range(50)] == [b.randrange(100) for _ in range(50)]
    assert a.getstate() == b.getstate()
    assert Stream(8).randrange(1 << 32) != Stream(7).randrange(1 << 32)


@given(st.integers(min_value=1, max_value=2 ** 32), st.integers(min_value=0, max_value=2 ** 70))
def test_randrange_stays_in_range(n, seed):
    s = Stream(seed)
    assert all(0 <= s.randrange(n) < n for _ in range(20))


def test_randrange_rejects_out_of_range_arguments():
    for n in (0, -1, 2 ** 32 + 1):
        with pytest.raises(ValueError):
            Stream(1).randrange(n)


class _Words(Stream):
    """A stream whose words are given (to test the mapping from words to values exactly)."""
    __slots__ = ("given",)

    def word(self) -> int:
        return self.given.pop(0)


def test_rejection_makes_every_value_equally_likely():
    """Every value of randrange(n) comes from exactly floor(2**32 / n) accepted words: checked for sampled
    values v by trying each word w that multiply-shift maps to v (where w * n // 2**32 == v)."""
    import random
    for n in (3 << 30, (1 << 32) - 5, (1 << 31) + 1, (1 << 30) + 12345):  # few words per value: all tried
        want = (1 << 32) // n
        for v in random.Random(n).sample(range(n), min(n, 50)):
            lo = -(-v * (1 << 32) // n)  # the first word mapped to v
            hi = -(-(v + 1) * (1 << 32) // n)
            accepted = 0
            for w in range(lo, hi):
                s = _Words(0)
                s.given = [w, (1 << 32) - 1]  # the second word, always accepted, ends a draw that rejected w
                got = s.randrange(n)
                if len(s.given) == 1:  # w was accepted
                    assert got == v
                    accepted += 1
            assert accepted == want, (n, v)


def test_randrange_is_uniform():
    s = Stream(5)
    n = 30_000
    counts = [0] * 6
    for _ in range(n):
        counts[s.randrange(6)] += 1
    se = (n * (1 / 6) * (5 / 6)) ** 0.5
    assert all(abs(c - n / 6) < 4 * se for c in counts)
