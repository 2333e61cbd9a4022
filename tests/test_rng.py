"""The random agents' stream (interpreter/runtime/rng.py): its documented definition, determinism, uniformity."""
from __future__ import annotations

import random
import struct
from collections import Counter
from hashlib import shake_128

import pytest
from hypothesis import given, strategies as st

from interpreter.runtime.rng import Stream


def _block(seed: int, k: int) -> tuple[int, ...]:
    """Block k of a stream as its 32 words, re-derived from the module docstring's definition."""
    data = shake_128((seed % 2 ** 128).to_bytes(16, "little") + k.to_bytes(8, "little")).digest(64)
    return struct.unpack("<32H", data)


def test_the_stream_is_the_documented_one():
    s = Stream(2026)
    words = [*_block(2026, 0), *_block(2026, 1)][:40]
    got = [s.randrange(6) for _ in range(40)]
    assert all((w * 6) & 0xFFFF >= 6 for w in words)  # none of these words is rejected, so:
    assert got == [(w * 6) >> 16 for w in words]  # block 0, then block 1
    hi, lo = _block(2026, 1)[8:10]
    assert s.randrange(1 << 32) == ((hi << 16 | lo) * (1 << 32)) >> 32  # two words make a 32-bit value
    assert Stream(-1).key == (2 ** 128 - 1).to_bytes(16, "little")  # any int seed, modulo 2**128


def test_same_seed_same_stream():
    a, b = Stream(7), Stream(7)
    assert [a.randrange(100) for _ in range(50)] == [b.randrange(100) for _ in range(50)]
    assert a.getstate() == b.getstate()
    assert [Stream(8).randrange(1 << 32) for _ in range(3)] != [Stream(7).randrange(1 << 32) for _ in range(3)]


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


def _value(n: int, words: list[int], fallback: list[int]) -> tuple[int, bool]:
    """randrange(n) on the given words: (the value, whether the first draw was accepted)."""
    s = _Words(0)
    s.given = [*words, *fallback]
    got = s.randrange(n)
    return got, len(s.given) == len(fallback)


def test_every_value_comes_from_equally_many_words():
    """Exact uniformity: over all 2**16 words, each value of randrange(n) is the answer of exactly
    floor(2**16 / n) accepted words (the rejected ones draw again)."""
    for n in (2, 3, 6, 7, 30, 100, 1000, 3 << 14, (1 << 16) - 1, 1 << 16):
        counts = Counter()
        for w in range(1 << 16):
            got, accepted = _value(n, [w], [0xFFFF])  # 0xFFFF after a rejection: always accepted
            if accepted:
                counts[got] += 1
        assert len(counts) == n and set(counts.values()) == {(1 << 16) // n}, n


def test_large_ranges_are_exact_too():
    """n above 2**16 uses 32-bit values of two words: each sampled value v comes from exactly
    floor(2**32 / n) accepted values (those that multiply-shift maps to v: few when n is large)."""
    for n in (3 << 30, (1 << 32) - 5, (1 << 31) + 1, (1 << 30) + 12345):
        want = (1 << 32) // n
        for v in random.Random(n).sample(range(n), 50):
            lo = -(-v * (1 << 32) // n)  # the first 32-bit value mapped to v
            hi = -(-(v + 1) * (1 << 32) // n)
            accepted = 0
            for x in range(lo, hi):
                got, ok = _value(n, [x >> 16, x & 0xFFFF], [0xFFFF, 0xFFFF])
                if ok:
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
