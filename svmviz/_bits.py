"""Bitcasts between float64 and int64 for compiled code: the bits reinterpreted, no conversion, no code.

numba has no bitcast of its own; these two intrinsics are ``llvmlite``'s ``bitcast`` instruction
(``numba.extending.intrinsic``, numba's public extension API). Inside a loop LLVM keeps them in vector
registers, so loops that use them still compile to vector code.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic


@intrinsic
def float_bits(typingctx, x):
    """The 64 bits of a float64 as an int64 (a bitcast: no conversion, no code)."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def bits_float(typingctx, b):
    """The float64 whose 64 bits an int64 holds (the inverse of :func:`float_bits`)."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen
