"""One-sided patch operations through NumPy indexing, every dtype, against plain NumPy."""

import numpy as np
import pytest

import armada
from conftest import DTYPES, assert_close, values

SHAPES = [(17,), (9, 7), (5, 4, 6)]


def filled(shape, dtype, me, nproc, name="A"):
    """An array and its NumPy reference, every rank putting a disjoint share of the rows."""
    ref = values(shape, dtype)
    a = armada.GlobalArray.create(shape, dtype, name=name)
    a[me::nproc] = ref[me::nproc]            # a strided put of every nproc-th row
    armada.sync()
    return a, ref


def written_by(writer, shape, dtype, write):
    """The whole of a new zeroed array after rank `writer` ran write(a) and every rank synced."""
    with armada.GlobalArray.create(shape, dtype) as a:
        if armada.rank() == writer:
            write(a)
        armada.sync()
        got = a[...]
        armada.sync()
    return got


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_put_then_get_everything(dtype, shape, me, nproc):
    with filled(shape, dtype, me, nproc)[0] as a:
        ref = values(shape, dtype)
        whole = a[...]
        as_numpy = np.asarray(a)
        assert a.shape == shape and a.dtype == np.dtype(dtype) and a.ndim == len(shape)
        armada.sync()
    assert_close(whole, ref, dtype)
    assert_close(as_numpy, ref, dtype)


KEYS_2D = [
    (slice(2, 7), slice(1, 4)),
    (3, slice(None)),
    (slice(None), 4),
    (-1, -2),
    (slice(None, None, 2), slice(1, None, 3)),
    (slice(None, None, -1), slice(None)),
    (slice(7, 1, -2), slice(6, None, -3)),
    (Ellipsis, 0),
    (slice(4, 4), slice(None)),
    (slice(-3, None), Ellipsis),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("key", KEYS_2D, ids=repr)
def test_get_matches_numpy_indexing(dtype, key, me, nproc):
    a, ref = filled((9, 7), dtype, me, nproc)
    got = a[key]
    want = ref[key]
    nb = a.get_nb(key).wait()
    armada.sync()
    a.destroy()
    if np.ndim(want) == 0:
        assert np.isscalar(got) and got == want and type(got) == type(want)
    else:
        assert_close(got, want, dtype)
    assert_close(nb, want, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("key", KEYS_2D, ids=repr)
def test_put_matches_numpy_assignment(dtype, key, me):
    shape = (9, 7)
    ref = np.zeros(shape, dtype)
    src = values(np.shape(ref[key]), dtype, seed=7)
    ref[key] = src

    def write(a):
        a[key] = src
    assert_close(written_by(0, shape, dtype, write), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_put_broadcasts_like_numpy(dtype, me):
    ref = np.zeros((6, 5), dtype)
    row = values((5,), dtype, seed=3)
    ref[1:4, :] = row
    ref[5, ::2] = 7
    ref[0, :] = row

    def write(a):
        a[1:4, :] = row          # a row broadcast over three rows
        a[5, ::2] = 7            # a Python scalar over a strided selection
        a[0, :] = row.reshape(1, 1, 5)   # extra leading dimensions of extent 1 go
    assert_close(written_by(armada.size() - 1, (6, 5), dtype, write), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_put_from_non_contiguous_sources(dtype, me):
    big = values((12, 10, 8), dtype, seed=5)
    sources = {
        "padded rows": (np.s_[0:4, 0:3], big[2, 3:7, 1:4]),
        "dropped middle dimension": (np.s_[4:7, 2:6], big[2:5, 0, 3:7]),
        "transposed": (np.s_[0:5, 3:10], big[0, 0:7, 0:5].T),
        "reversed": (np.s_[7, :], big[::-1, 0, 0][:10]),
        "fortran order": (np.s_[8:10, 0:3], np.asfortranarray(big[0, 0:2, 0:3])),
        "byte-swapped": (np.s_[9, 5:9], big[1, 1, 0:4].astype(np.dtype(dtype).newbyteorder())),
    }
    ref = np.zeros((10, 10), dtype)
    for key, src in sources.values():
        ref[key] = src

    def write(a):
        for key, src in sources.values():
            a[key] = src
    assert_close(written_by(0, (10, 10), dtype, write), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("key", [np.s_[:, :], np.s_[1:5, ::2], np.s_[::-1, 3]], ids=repr)
def test_acc_from_every_rank(dtype, key, nproc):
    shape = (6, 7)
    start = values(shape, dtype, seed=11)
    src = values(np.shape(start[key]), dtype, seed=12)
    ref = start.copy()
    ref[key] += (3 * src) * nproc
    with armada.GlobalArray.create(shape, dtype) as a:
        if armada.rank() == 0:
            a[...] = start
        armada.sync()
        a.acc(key, src, alpha=3)
        armada.sync()
        got = a[...]
        armada.sync()
    assert_close(got, ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonblocking_put_and_acc(dtype, me, nproc):
    shape = (8, 6)
    ref = values(shape, dtype)
    want = ref.copy()
    want[:, 0] += 2 * nproc
    with armada.GlobalArray.create(shape, dtype) as a:
        requests = [a.put_nb(np.s_[i, :], ref[i]) for i in range(me, shape[0], nproc)]
        waited = [(r.wait(), r.done()) for r in requests]
        armada.sync()
        r = a.acc_nb(np.s_[:, 0], np.full(shape[0], 2, dtype))
        r.wait()
        armada.sync()
        pending = a.get_nb(np.s_[...])
        while not pending.done():
            pass
        got = pending.wait()
        armada.sync()
    assert all(result is None and done for result, done in waited)
    assert_close(got, want, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_local_view_is_the_block_without_copy(dtype, me, nproc):
    shape = (10, 6)
    ref = values(shape, dtype)
    with armada.GlobalArray.create(shape, dtype, name="L") as a:
        lo, hi = a.local_bounds()
        view = a.local()
        box = tuple(slice(l, h) for l, h in zip(lo, hi))
        view[...] = ref[box]               # writes in place, seen by every rank after sync
        armada.sync()
        got = a[...]
        assert_close(a.local(), ref[box], dtype)
        armada.sync()
        owned = [a.block(r) for r in range(nproc)]
        owners = {(i, j): a.owner((i, j)) for i in range(shape[0]) for j in range(shape[1])}
    assert_close(got, ref, dtype)
    for (i, j), r in owners.items():
        (blo, bhi) = owned[r]
        assert blo[0] <= i < bhi[0] and blo[1] <= j < bhi[1], f"owner({i}, {j}) = {r}, block {owned[r]}"
    assert view.flags.writeable and view.shape == tuple(h - l for l, h in zip(lo, hi))
    assert owned[me] == (lo, hi)
    # The blocks tile the array: every element counted once.
    cover = np.zeros(shape, int)
    for blo, bhi in owned:
        cover[tuple(slice(l, h) for l, h in zip(blo, bhi))] += 1
    assert (cover == 1).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_gather_scatter_with_index_arrays(dtype, me, nproc):
    shape = (7, 5)
    rng = np.random.default_rng(21)
    flat = rng.permutation(np.prod(shape))[:12]
    rows, cols = np.unravel_index(flat, shape)
    vals = values(12, dtype, seed=22)
    ref = np.zeros(shape, dtype)
    ref[rows, cols] = vals
    acc_ref = ref.copy()
    np.add.at(acc_ref, (rows[:4], cols[:4]), 2 * vals[:4] * nproc)
    with armada.GlobalArray.create(shape, dtype) as a:
        if me == 0:
            a.scatter((rows, cols), vals)              # a tuple of one index array per dimension
        armada.sync()
        by_tuple = a.gather((rows, cols))
        by_rows = a.gather(np.stack([rows - shape[0], cols], axis=1))  # (n, ndim), negative indices
        armada.sync()
        a.scatter_acc(np.stack([rows[:4], cols[:4]], axis=1), vals[:4], alpha=2)
        armada.sync()
        got = a[...]
        empty = a.gather(np.zeros((0, 2), np.int64))
        armada.sync()
    assert_close(by_tuple, vals, dtype)
    assert_close(by_rows, vals, dtype)
    assert_close(got, acc_ref, dtype)
    assert empty.shape == (0,)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_read_inc_hands_out_each_task_once(dtype, me):
    tasks = 37
    with armada.GlobalArray.create((2,), dtype) as counter:
        mine = []
        while (t := counter.read_inc(1)) < tasks:
            mine.append(t)
        armada.sync()
        final = counter[1]
        jump = counter.read_inc((0,), 5) if me == 0 else None
        armada.sync()
        after = counter[0]
        armada.sync()
    everyone = np.sort(np.concatenate(armada.comm().allgather(np.array(mine, np.int64))))
    np.testing.assert_array_equal(everyone, np.arange(tasks))
    assert final == tasks + armada.size()          # every rank's last draw went past the end
    assert after == 5 and (jump is None or jump == 0)


@pytest.mark.parametrize("periodic", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
def test_update_ghosts(dtype, periodic, me):
    shape, width = (8, 6), (1, 2)
    ref = values(shape, dtype, seed=31)
    with armada.GlobalArray.create(shape, dtype, ghosts=width, name="G") as a:
        lo, hi = a.local_bounds()
        a.local()[...] = ref[lo[0]:hi[0], lo[1]:hi[1]]
        a.update_ghosts(periodic=periodic)
        with_ghosts = a.local(ghosts=True).copy()
        glo, ghi = a.local_bounds(ghosts=True)
        assert a.ghosts == width
        armada.sync()
    assert tuple(ghi[d] - glo[d] for d in range(2)) == with_ghosts.shape
    if with_ghosts.size == 0:
        return
    padded = np.pad(ref, [(w, w) for w in width], mode="wrap")
    want = padded[glo[0] + width[0]:ghi[0] + width[0], glo[1] + width[1]:ghi[1] + width[1]]
    inside = np.zeros(with_ghosts.shape, bool)  # ghost cells past an edge: unchanged (zero) unless periodic
    for i in range(with_ghosts.shape[0]):
        for j in range(with_ghosts.shape[1]):
            inside[i, j] = 0 <= glo[0] + i < shape[0] and 0 <= glo[1] + j < shape[1]
    if not periodic:
        want = np.where(inside, want, 0).astype(dtype)
    assert_close(with_ghosts, want, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_get_into_out(dtype, me, nproc):
    a, ref = filled((9, 7), dtype, me, nproc)
    dense = np.empty((3, 4), dtype)
    frame = np.zeros((6, 9), dtype)            # a box inside a larger array: written in place
    fortran = np.asfortranarray(np.zeros((4, 3), dtype))
    reversed_out = np.empty((9, 2), dtype)
    got_dense = a.get(np.s_[2:5, 1:5], out=dense)
    a.get(np.s_[1:4, 2:7:2], out=frame[1:4, 3:6])
    a.get(np.s_[0:8:2, 4:], out=fortran)
    a.get(np.s_[::-1, 5:], out=reversed_out)
    pending = a.get_nb(np.s_[2:5, 1:5], out=np.empty((3, 4), dtype))
    later = pending.wait()
    armada.sync()
    a.destroy()
    assert got_dense is dense
    assert_close(dense, ref[2:5, 1:5], dtype)
    want_frame = np.zeros((6, 9), dtype)
    want_frame[1:4, 3:6] = ref[1:4, 2:7:2]
    assert_close(frame, want_frame, dtype)
    assert_close(fortran, ref[0:8:2, 4:], dtype)
    assert_close(reversed_out, ref[::-1, 5:], dtype)
    assert_close(later, ref[2:5, 1:5], dtype)


def test_bad_out():
    with armada.GlobalArray.create((4, 4), np.float64) as a:
        with pytest.raises(armada.DTypeError, match="out"):
            a.get(np.s_[0:2, 0:2], out=np.empty((2, 2), np.float32))
        with pytest.raises(armada.ArgumentError, match="shape"):
            a.get(np.s_[0:2, 0:2], out=np.empty((2, 3)))
        readonly = np.empty((2, 2))
        readonly.flags.writeable = False
        with pytest.raises(armada.ArgumentError, match="writable"):
            a.get(np.s_[0:2, 0:2], out=readonly)
        with pytest.raises(armada.DTypeError):
            a.get(np.s_[0:2, 0:2], out=[[0, 0], [0, 0]])
