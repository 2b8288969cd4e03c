"""armada.SparseMatrix and its products, against a dense NumPy matrix."""

import numpy as np
import pytest

import armada
from conftest import assert_close, values


def triplets(shape, dtype, seed=41):
    rng = np.random.default_rng(seed)
    n = 3 * shape[0]
    rows, cols = rng.integers(0, shape[0], n), rng.integers(0, shape[1], n)   # duplicates sum
    return rows, cols, values(n, dtype, seed=seed + 1)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_spmv_matches_dense(dtype, me, nproc):
    shape = (13, 9)
    rows, cols, vals = triplets(shape, dtype)
    dense = np.zeros(shape, dtype)
    np.add.at(dense, (rows, cols), vals)
    mine = slice(me, None, nproc)                # every rank passes a share, for any rows
    A = armada.SparseMatrix.create(shape, rows[mine], cols[mine], vals[mine], dtype, name="S")
    xv, yv = values(shape[1], dtype, seed=3), values(shape[0], dtype, seed=4)
    with armada.GlobalArray.create(shape[1], dtype) as x, armada.GlobalArray.create(shape[0], dtype) as y, \
         armada.GlobalArray.create(shape[1], dtype) as z:
        if me == 0:
            x[...] = xv
            y[...] = yv
        armada.sync()
        A.spmv(x, y, alpha=2, beta=-1)
        got = y[...]
        A.spmv(y, z, transpose=True)
        got_t = z[...]
        nnz = A.nonzeros()
        armada.sync()
    assert A.shape == shape and A.dtype == np.dtype(dtype)
    first, last = A.local_rows()
    assert 0 <= first <= last <= shape[0]
    assert nnz == len(set(zip(rows.tolist(), cols.tolist())))      # duplicates merged
    assert_close(got, 2 * dense @ xv - yv, dtype)
    assert_close(got_t, dense.T @ got, dtype)


def test_sparse_errors(me):
    with pytest.raises(armada.DTypeError, match="float64 or complex128"):
        armada.SparseMatrix.create((4, 4), [0], [0], [1], np.float32)
    with pytest.raises(armada.ArgumentError, match="one length"):
        armada.SparseMatrix.create((4, 4), [0, 1], [0], [1.0])
    with pytest.raises(armada.ArgumentError, match="SparseMatrix"):   # Armada: a row outside the matrix
        armada.SparseMatrix.create((4, 4), [9] if me == 0 else [], [0] if me == 0 else [], [1.0] if me == 0 else [])
    A = armada.SparseMatrix.create((4, 3), [0], [0], [1.0])
    with armada.GlobalArray.create(3, np.complex128) as x, armada.GlobalArray.create(4) as y:
        with pytest.raises(armada.DTypeError, match="matrix's dtype"):
            A.spmv(x, y)
        armada.sync()
