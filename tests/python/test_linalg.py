"""armada.linalg against NumPy, for the four floating dtypes."""

import numpy as np
import pytest

import armada
from conftest import assert_close, values

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def make(data, dtype, name):
    a = armada.GlobalArray.create(data.shape, dtype, name=name)
    if armada.rank() == 0:
        a[...] = data
    armada.sync()
    return a


def tol(dtype):
    return dict(rtol=2e-3, atol=2e-3) if np.dtype(dtype) in (np.float32, np.complex64) else dict(rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("trans", [("N", "N"), ("T", "N"), ("N", "C")])
def test_gemm(dtype, trans):
    x, y, z = values((7, 7), dtype, 1), values((7, 5), dtype, 2), values((7, 5), dtype, 3)
    op = {"N": lambda m: m, "T": lambda m: m.T, "C": lambda m: m.conj().T}
    ya = y if trans[1] != "C" else values((5, 7), dtype, 2)
    want = 2 * op[trans[0]](x) @ op[trans[1]](ya) + 0.5 * z
    with make(x, dtype, "A") as a, make(ya, dtype, "B") as b, make(z, dtype, "C") as c:
        armada.linalg.gemm(a, b, c, alpha=2, beta=0.5, transa=trans[0], transb=trans[1])
        got = c[...]
        armada.sync()
    np.testing.assert_allclose(got, want, **tol(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_solves_eigen_inverse(dtype):
    n = 8
    m = values((n, n), dtype, 4)
    spd = (m @ m.conj().T + n * np.eye(n)).astype(dtype)
    rhs = values((n, 3), dtype, 5)
    with make(m, dtype, "M") as a, make(spd, dtype, "S") as s, make(rhs, dtype, "B1") as b1, \
         make(rhs, dtype, "B2") as b2:
        armada.linalg.lu_solve(a, b1)
        armada.linalg.cholesky_solve(s, b2)
        x_lu, x_chol = b1[...], b2[...]
        w, v = armada.linalg.eigen_symmetric(s)
        vecs = v[...]
        inv = armada.linalg.inverse(a)
        got_inv = inv[...]
        unchanged = a[...]
        armada.sync()
        v.destroy()
        inv.destroy()
    np.testing.assert_allclose(m @ x_lu, rhs, **tol(dtype))
    np.testing.assert_allclose(spd @ x_chol, rhs, **tol(dtype))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(spd), **tol(dtype))
    assert w.dtype == np.dtype(dtype).type(0).real.dtype
    np.testing.assert_allclose(spd @ vecs, vecs * w, **tol(dtype))
    np.testing.assert_allclose(got_inv @ m, np.eye(n), **tol(dtype))
    assert_close(unchanged, m, dtype)


def test_linalg_errors():
    singular = np.ones((4, 4))
    with make(singular, np.float64, "Z") as z, make(np.ones((4, 1)), np.float64, "b") as b, \
         armada.GlobalArray.create((4, 4), np.int64) as i, armada.GlobalArray.create((4, 4), np.float32) as f:
        with pytest.raises(armada.LinAlgError, match="singular|pivot"):
            armada.linalg.lu_solve(z, b)
        assert (b[...] == 1).all()                         # unchanged
        with pytest.raises(armada.LinAlgError):
            armada.linalg.cholesky_solve(z, b)
        with pytest.raises(armada.DTypeError, match="linalg needs"):
            armada.linalg.gemm(i, i, i)
        with pytest.raises(armada.DTypeError, match="dtype"):
            armada.linalg.gemm(z, f, z)
        with pytest.raises(armada.ArgumentError, match="transa"):
            armada.linalg.gemm(z, z, z, transa="X")
        with pytest.raises(armada.ArgumentError):
            armada.linalg.gemm(z, b, b)                      # Armada: shapes do not conform
        armada.sync()
