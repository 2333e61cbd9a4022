"""The random agents' streams: cheap to seed.

Owns `Stream`, the generator behind each random agent's choices (one stream
per game and seat, seeded with `seeds.agent_seed`). Python's
`random.Random` (Mersenne Twister) draws fast but costs about 7 us to seed:
with one per seat, the seedings were a third of the time of a two-decision
game. A `Stream` is seeded in well under a microsecond (its first block costs
about 1.5-2 us, when the agent first chooses): its whole state is a key, a
counter and a position in a block of words.

The stream, exactly (the hand-written baselines in `benchmarks/` replay it):
- The key is the seed modulo 2**128 as 16 little-endian bytes. Block `k`
  (k = 0, 1, ...) is SHAKE-128(key + k as 8 little-endian bytes), 64 bytes
  read as 32 little-endian 16-bit words; the words are used in order, block
  after block.
- `randrange(n)` for n up to 2**16 takes the next word `w` and returns
  `w * n >> 16` (Lemire's multiply-shift), except that a word whose low part
  `w * n mod 2**16` is below `(2**16 - n) mod n` is rejected and the next
  word taken, so every value is exactly equally likely. For n up to 2**32 the
  same with 32-bit values, each made of two words (the first the high half).
  16-bit words keep the arithmetic on Python's one-digit integers for the
  option counts games have.
SHAKE-128 is a cryptographic extendable-output function (FIPS 202, the same
bytes on every machine and Python version), so the streams of different
seeds, and a stream's successive blocks, show no statistical relation.

The game's own chance (shuffles, dice, the first player) stays a
`random.Random` per game: examples, golden logs and the position of every
card in a recorded game depend on it, and its shuffles run in C. A saved
game replays from its seed and its recorded choices, so changing how random
agents choose changes no saved game.
"""
from __future__ import annotations

from hashlib import shake_128
from struct import Struct

_BLOCK = Struct("<32H").unpack  # a block's 64 bytes as 32 words
_KEY_MASK = (1 << 128) - 1
_N_MAX = 1 << 32


class Stream:
    """One seeded random stream (see the module docstring for its exact definition)."""
    __slots__ = ("key", "k", "words", "i")

    def __init__(self, seed: int):
        self.key = (seed & _KEY_MASK).to_bytes(16, "little")
        self.k = 0  # the next block
        self.words: tuple[int, ...] = ()  # the current block
        self.i = 0  # the next word of it

    def word(self) -> int:
        """The next 16-bit word."""
        i = self.i
        words = self.words
        if i >= len(words):
            words = self.words = _BLOCK(shake_128(self.key + self.k.to_bytes(8, "little")).digest(64))
            self.k += 1
            i = 0
        self.i = i + 1
        return words[i]

    def randrange(self, n: int) -> int:
        """A whole number from 0 to n-1 (1 <= n <= 2**32), each exactly equally likely."""
        i = self.i
        words = self.words
        if i < len(words) and 0 < n <= 0x10000:  # the common case: a word of this block, not rejected
            m = words[i] * n
            if m & 0xFFFF >= n:
                self.i = i + 1
                return m >> 16
        if not 0 < n <= _N_MAX:
            raise ValueError(f"randrange({n}): n must be from 1 to 2**32")
        bits = 16 if n <= 0x10000 else 32
        draw = self.word if bits == 16 else self._word32
        mask = (1 << bits) - 1
        m = draw() * n
        low = m & mask
        if low < n:  # Lemire: reject the few words that would favour some values
            t = ((1 << bits) - n) % n
            while low < t:
                m = draw() * n
                low = m & mask
        return m >> bits

    def _word32(self) -> int:
        return self.word() << 16 | self.word()

    def getstate(self) -> tuple:
        """Everything the stream's future depends on (for equality tests)."""
        return self.key, self.k, self.i if self.words else -1

