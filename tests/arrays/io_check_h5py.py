"""Checks the file Cross.Write (test_io_cross.cpp) saved, with h5py: an independent reader.

Every element must equal io_value of its index (tests/arrays/io_util.hpp): x = linear % 9973 - 300
+ salt, complex numbers x + (x % 5 - 2)i with C's remainder; dtypes, shapes and the attributes
docs/io.md lists must be what Armada promises.  Usage: io_check_h5py.py FILE
"""
import sys

import h5py
import numpy as np

DTYPES = {"int": np.int32, "long": np.int64, "float": np.float32, "double": np.float64,
          "cfloat": np.complex64, "cdouble": np.complex128}
ELEMENT_TYPES = {"int": "int", "long": "long", "float": "float", "double": "double",
                 "cfloat": "complex<float>", "cdouble": "complex<double>"}


def expected(shape, dtype, salt=0):
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) % 9973 - 300 + salt
    if np.issubdtype(dtype, np.complexfloating):
        return (x + 1j * (np.fmod(x, 5) - 2)).astype(dtype)
    return x.astype(dtype)


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def main(path):
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    with h5py.File(path, "r") as f:
        check(int(np.asarray(f.attrs["armada_format"]).ravel()[0]) == 1, "file attribute armada_format")
        check(text(f.attrs["armada_version"]) != "", "file attribute armada_version")
        check(sorted(f.keys()) == sorted(list(DTYPES) + ["cube"]), f"datasets {sorted(f.keys())}")
        for name, dtype in DTYPES.items():
            d = f[name]
            check(d.dtype == np.dtype(dtype), f"{name}: dtype {d.dtype}, expected {np.dtype(dtype)}")
            check(d.shape == (23, 7), f"{name}: shape {d.shape}")
            check(np.array_equal(d[...], expected((23, 7), dtype)), f"{name}: values differ")
            check(text(d.attrs["armada_element_type"]) == ELEMENT_TYPES[name], f"{name}: armada_element_type")
            check(list(d.attrs["armada_dims"]) == [23, 7], f"{name}: armada_dims")
            check(list(d.attrs["armada_ghosts"]) == [2, 1], f"{name}: armada_ghosts")
            check(int(d.attrs["armada_group_size"][0]) == 4, f"{name}: armada_group_size")
        cube = f["cube"]
        check(np.array_equal(cube[...], expected((5, 6, 9), np.float64, 1000)), "cube: values differ")
        check(list(cube.attrs["armada_grid"]) == [2, 1, 2], f"cube: armada_grid {list(cube.attrs['armada_grid'])}")
        check(list(cube.attrs["armada_block_starts"]) == [0, 2, 0, 0, 4], "cube: armada_block_starts")
    for message in failures:
        print("FAIL:", message)
    print("h5py check:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
