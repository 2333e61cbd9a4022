"""Native helpers the generated kernels import: arrays without reference counts, and a clock.

Owns `unowned(a)`: the same int64 array seen through a raw pointer, with no memory-info block. Numba
counts references to every array a function receives or makes (an atomic add and subtract per array
argument of every call); measured on 4-player STUN, that counting was more than half of a kernel
game's time. A game's arrays (state, parameters, records, work space) live for the whole batch, owned
by `batch`, so the functions below it may see them unowned and skip the counting. The owner must stay
alive while the view is used: numba frees an array after its last use, so `batch` reads it again at its end.

Owns `clock()`: the monotonic clock in seconds, as `time.perf_counter` reads it, for mcts's time budget
(search_prelude.py). On 64-bit Linux it calls libc's `clock_gettime(CLOCK_MONOTONIC)` natively (about 0.03
us a reading); elsewhere it reads `time.perf_counter` in object mode (about 0.4 us, and 4% of kernel mcts's
iterations/s on two-player STUN when read every 8 iterations).
"""
from __future__ import annotations

import sys
import time

from numba import carray, njit, objmode, types
from numba.extending import intrinsic


@intrinsic
def _as_pointer(typingctx, address):
    """An integer address as a pointer to int64 (no ownership)."""
    sig = types.CPointer(types.int64)(types.uintp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))
    return sig, codegen


@njit(cache=True, inline="always")
def unowned(a):
    """`a` (1-D int64, C order) as a view without a reference count; valid while `a` lives."""
    return carray(_as_pointer(a.ctypes.data), a.shape[0])


@njit(cache=True, inline="always")
def unowned2(a):
    """`unowned` for a 2-D int64 array."""
    return carray(_as_pointer(a.ctypes.data), a.shape)


if sys.platform.startswith("linux") and sys.maxsize > 2 ** 32:  # CLOCK_MONOTONIC is 1; timespec two int64s
    from llvmlite import ir as _ir
    from numba.core import cgutils as _cg

    @intrinsic
    def _monotonic_ns(typingctx):
        """clock_gettime(CLOCK_MONOTONIC) in nanoseconds, called natively."""
        sig = types.int64()

        def codegen(context, builder, signature, args):
            i32, i64 = _ir.IntType(32), _ir.IntType(64)
            spec = _ir.ArrayType(i64, 2)
            ts = _cg.alloca_once(builder, spec)
            fn = _cg.get_or_insert_function(builder.module, _ir.FunctionType(i32, [i32, spec.as_pointer()]),
                                            "clock_gettime")
            builder.call(fn, [_ir.Constant(i32, 1), ts])
            zero = _ir.Constant(i32, 0)
            sec = builder.load(builder.gep(ts, [zero, zero]))
            nsec = builder.load(builder.gep(ts, [zero, _ir.Constant(i32, 1)]))
            return builder.add(builder.mul(sec, _ir.Constant(i64, 1_000_000_000)), nsec)
        return sig, codegen

    @njit(cache=True)
    def clock():
        """The monotonic clock, in seconds."""
        return _monotonic_ns() / 1e9
else:
    @njit(cache=True)
    def clock():
        """The monotonic clock, in seconds (`time.perf_counter`, read in object mode)."""
        with objmode(t="float64"):
            t = time.perf_counter()
        return t
