"""Native helpers the generated kernels import: arrays without reference counts.

Owns `unowned(a)`: the same int64 array seen through a raw pointer, with no memory-info block. Numba
counts references to every array a function receives or makes (an atomic add and subtract per array
argument of every call); measured on 4-player STUN, that counting was more than half of a kernel
game's time. A game's arrays (state, parameters, records, work space) live for the whole batch, owned
by `batch`, so the functions below it may see them unowned and skip the counting. The owner must stay
alive while the view is used: numba frees an array after its last use, so `batch` reads it again at its end.
"""
from __future__ import annotations

from numba import carray, njit, types
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
