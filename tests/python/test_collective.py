"""Whole-array operations (collective), every dtype, against plain NumPy."""

import numpy as np
import pytest

import armada
from conftest import DTYPES, assert_close, make, values


@pytest.mark.parametrize("dtype", DTYPES)
def test_fill_zero_scale_add_constant(dtype):
    shape = (7, 5)
    ref = values(shape, dtype)
    with make(shape, dtype, ref) as a:
        a.scale(3)
        scaled = a[...]
        a.add_constant(2)
        shifted = a[...]
        a.fill(4)
        filled = a[...]
        a.zero()
        zeroed = a[...]
        armada.sync()
    assert_close(scaled, ref * 3, dtype)
    assert_close(shifted, ref * 3 + 2, dtype)
    assert_close(filled, np.full(shape, 4, dtype), dtype)
    assert_close(zeroed, np.zeros(shape, dtype), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_copy_between_distributions(dtype):
    shape = (9, 8)
    ref = values(shape, dtype)
    with make(shape, dtype, ref, chunks=(9, 1)) as a, \
         armada.GlobalArray.create(shape, dtype, grid=(1, armada.size()), name="B") as b:
        armada.copy(a, b)
        got = b[...]
        c = b.duplicate("C")
        b.copy_to(c)
        got_c = c[...]
        armada.sync()
        c.destroy()
    assert_close(got, ref, dtype)
    assert_close(got_c, ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dot_norm_add_multiply(dtype):
    shape = (6, 7)
    x, y = values(shape, dtype, seed=1), values(shape, dtype, seed=2)
    with make(shape, dtype, x) as a, make(shape, dtype, y) as b, \
         armada.GlobalArray.create(shape, dtype) as c:
        d = armada.dot(a, b)
        d_method = a.dot(b)
        norms = [a.norm(), a.norm("fro"), a.norm(1), a.norm(np.inf)]
        armada.add(a, b, c, alpha=2, beta=-1)
        added = c[...]
        armada.multiply(a, b, c)
        product = c[...]
        armada.sync()
    want_dot = np.sum(x.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64) * y)
    assert np.asarray(d).dtype == np.dtype(dtype)
    assert np.isclose(d, want_dot, rtol=1e-4) and d == d_method
    want_norms = [np.linalg.norm(x), np.linalg.norm(x, "fro"), np.linalg.norm(x, 1), np.linalg.norm(x, np.inf)]
    np.testing.assert_allclose(norms, want_norms, rtol=1e-5)
    assert_close(added, 2 * x - y, dtype)
    assert_close(product, x * y, dtype)


def test_norm_of_higher_dimensions_and_vectors():
    v, t = values((11,), np.float64), values((3, 4, 5), np.float64)
    with make((11,), np.float64, v) as a, make((3, 4, 5), np.float64, t) as b, \
         make((3, 4, 5), np.complex64, t + 2j * t, ghosts=1) as c:
        got = [a.norm(), a.norm(1), a.norm(np.inf), b.norm(), c.norm()]
        armada.sync()
    want = [np.linalg.norm(v), np.abs(v).sum(), np.abs(v).max(), np.linalg.norm(t), np.linalg.norm(t + 2j * t)]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_arrays_on_a_group(me, nproc):
    members = list(range(0, nproc, 2))              # the even ranks
    group = armada.Group(members)
    assert group.size == len(members) and group.ranks == members
    assert group.is_member == (me % 2 == 0) and group.rank == (members.index(me) if me % 2 == 0 else -1)
    got = None
    if group.is_member:
        ref = values((5, 4), np.float64)
        with armada.GlobalArray.create((5, 4), np.float64, group=group) as a:
            if group.rank == 0:
                a[...] = ref
            a.sync_group()
            got = a[...]
            a.sync_group()
        assert_close(got, ref, np.float64)
    armada.sync()


def test_destroyed_array_and_context_manager():
    with armada.GlobalArray.create((4,), np.int64, name="short-lived") as a:
        assert a.valid and a.name == "short-lived" and len(a) == 4 and a.size == 4
    assert not a.valid
    with pytest.raises(armada.StateError, match="destroyed"):
        a[0]
    with pytest.raises(armada.StateError):
        a.fill(1)
