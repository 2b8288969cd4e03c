"""Writes a file with h5py (not Armada) for Cross.ReadForeign (test_io_cross.cpp): HDF5 types
Armada has no exact match for must map to its six element types on load.

Every dataset holds x = (linear index % 100) - 50 in its type (unsigned: + 50; complex: imaginary
part x % 5 - 2 with C's remainder), shape (11, 6) unless said otherwise.
Usage: io_write_h5py.py FILE
"""
import sys

import h5py
import numpy as np


def values(shape, dtype):
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) % 100 - 50
    if np.issubdtype(dtype, np.unsignedinteger):
        x = x + 50
    if np.issubdtype(dtype, np.complexfloating):
        return (x + 1j * (np.fmod(x, 5) - 2)).astype(dtype)
    return x.astype(dtype)


with h5py.File(sys.argv[1], "w") as f:
    for name, dtype in [("int8", np.int8), ("int16", np.int16), ("uint16", np.uint16), ("uint32", np.uint32),
                        ("int64", np.int64), ("float16", np.float16), ("float32", np.float32),
                        ("float64", np.float64), ("complex64", np.complex64), ("complex128", np.complex128)]:
        f[name] = values((11, 6), dtype)
    f["cube"] = values((3, 4, 5), np.float64)
    f["text"] = np.array([b"not", b"numbers"])
print("written", sys.argv[1])
