"""HDF5 I/O from Python (armada.save, load, load_patch, list_datasets, checkpoint, restart,
latest_checkpoint): round trips of every dtype, other distributions, groups and patches, against
plain NumPy; files read and written by h5py in another process (an independent reader); bad
input raising on every rank. In a build without parallel HDF5 (ARMADA_TEST_IO_BUILT=OFF) every
call must raise instead."""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import armada
from conftest import DTYPES, make, values

IO_BUILT = os.environ.get("ARMADA_TEST_IO_BUILT", "ON") == "ON"
H5PY_PYTHON = os.environ.get("ARMADA_TEST_H5PY_PYTHON", "")

needs_io = pytest.mark.skipif(not IO_BUILT, reason="built without parallel HDF5 (test_calls_raise_without_hdf5 runs)")


@pytest.fixture(scope="module")
def shared_dir():
    """A fresh directory made by rank 0, known to every rank; removed at the end."""
    path = tempfile.mkdtemp(prefix="armada-pyio-") if armada.rank() == 0 else None
    path = armada.comm().bcast(path, root=0)
    yield pathlib.Path(path)
    armada.sync()
    if armada.rank() == 0:
        shutil.rmtree(path, ignore_errors=True)


def test_io_available_matches_the_build():
    assert armada.io_available() == IO_BUILT


@needs_io
@pytest.mark.parametrize("dtype", DTYPES)
def test_save_then_load_every_dtype(shared_dir, dtype):
    shape = (7, 5, 3)
    ref = values(shape, dtype)
    file = shared_dir / f"round_{np.dtype(dtype).name}.h5"
    with make(shape, dtype, ref, name="u") as a, make((4,), dtype, ref[0, :4, 0], name="v") as b:
        armada.save(file, [a, b])
    with armada.load(file, "u") as u, armada.load(str(file), "v") as v:
        assert u.dtype == np.dtype(dtype) and u.shape == shape and u.name == "u"
        np.testing.assert_array_equal(u[...], ref)
        np.testing.assert_array_equal(v[...], ref[0, :4, 0])
        armada.sync()


@needs_io
def test_list_datasets_describes_what_was_written(shared_dir):
    file = shared_dir / "listed.h5"
    starts = [[0, 3], [0]] if armada.size() >= 2 else None
    with armada.GlobalArray.create((6, 4), np.complex64, name="c", ghosts=(1, 0), block_starts=starts) as c, \
            armada.GlobalArray.create((9,), np.int32, name="i") as i:
        armada.save(file, {"first": c, "second": i})
    infos = {info.name: info for info in armada.list_datasets(file)}
    assert sorted(infos) == ["c", "i"]
    c, i = infos["c"], infos["i"]
    assert (c.dtype, c.shape, c.ghosts, c.group_size) == (np.dtype(np.complex64), (6, 4), (1, 0), armada.size())
    assert (i.dtype, i.shape, i.ghosts) == (np.dtype(np.int32), (9,), (0,))
    if starts:
        assert c.block_starts == [(0, 3), (0,)]
    assert c.armada_version and "c" in repr(c)


@needs_io
def test_load_into_another_distribution_and_ghosts(shared_dir):
    shape = (10, 8)
    ref = values(shape, np.float64, seed=3)
    file = shared_dir / "redistributed.h5"
    with make(shape, np.float64, ref, name="u", chunks=(10, 1)) as a:
        armada.save(file, a)
    n = armada.size()
    starts = [[0] + [1 + k * 9 // n for k in range(1, n)], [0]]
    with armada.load(file, "u", block_starts=starts, ghosts=1, name="w") as w:
        assert w.name == "w" and w.ghosts == (1, 1)
        np.testing.assert_array_equal(w[...], ref)
        w.update_ghosts()
        lo, hi = w.local_bounds()
        np.testing.assert_array_equal(w.local(), ref[lo[0]:hi[0], lo[1]:hi[1]])
        armada.sync()
    with armada.GlobalArray.create(shape, np.float64, chunks=(1, 8)) as into:
        assert armada.load(file, "u", into=into) is into
        np.testing.assert_array_equal(into[...], ref)
        armada.sync()


@needs_io
def test_ghost_widths_default_to_those_saved(shared_dir):
    file = shared_dir / "ghosts.h5"
    ref = values((6, 6), np.int64)
    with make((6, 6), np.int64, ref, name="g", ghosts=(2, 1)) as g:
        armada.save(file, g)
    with armada.load(file, "g") as back:
        assert back.ghosts == (2, 1)
        np.testing.assert_array_equal(back[...], ref)
        armada.sync()


@needs_io
@pytest.mark.parametrize("dtype", [np.int32, np.complex128])
def test_load_patch_by_bounds_and_by_index(shared_dir, dtype):
    shape = (9, 7)
    ref = values(shape, dtype, seed=5)
    file = shared_dir / f"patch_{np.dtype(dtype).name}.h5"
    with make(shape, dtype, ref, name="p") as a:
        armada.save(file, a)
    with armada.load_patch(file, "p", (2, 1), (8, 4)) as p:
        assert p.shape == (6, 3)
        np.testing.assert_array_equal(p[...], ref[2:8, 1:4])
        armada.sync()
    with armada.load_patch(file, "p", np.s_[3:, -1]) as q:  # an integer keeps its dimension
        assert q.shape == (6, 1)
        np.testing.assert_array_equal(q[...], ref[3:, 6:7])
        armada.sync()
    with armada.GlobalArray.create((2, 7), dtype) as into:
        assert armada.load_patch(file, "p", np.s_[4:6], into=into) is into
        np.testing.assert_array_equal(into[...], ref[4:6, :])
        armada.sync()


@needs_io
def test_save_and_load_on_a_group(shared_dir):
    if armada.size() < 2:
        pytest.skip("a proper subgroup needs 2 ranks (the other tests run here)")
    members = list(range(armada.size() // 2, armada.size()))
    group = armada.Group(members)
    file = shared_dir / "group.h5"
    ref = values((5, 4), np.float32, seed=7)
    if group.is_member:
        a = armada.GlobalArray.create((5, 4), np.float32, group=group, name="gr")
        if group.rank == 0:
            a[...] = ref
        a.sync_group()
        armada.save(file, a)
        a.destroy()
    armada.sync()
    # written by the second half, read back by everyone (another group size)
    with armada.load(file, "gr") as b:
        np.testing.assert_array_equal(b[...], ref)
        armada.sync()
    assert armada.list_datasets(file)[0].group_size == len(members)


@needs_io
def test_save_in_place_rewrites_a_file_of_the_same_datasets(shared_dir):
    file = shared_dir / "in_place.h5"
    with armada.GlobalArray.create((6, 5), np.float64, name="u") as u:
        u.fill(1.0)
        armada.save(file, u)
        before = os.stat(file).st_ino if armada.rank() == 0 else None
        u.fill(2.0)
        armada.save(file, [u], in_place=True)
        if armada.rank() == 0:
            assert os.stat(file).st_ino == before, "replaced, not rewritten in place"
        np.testing.assert_array_equal(armada.load(file, "u")[...], np.full((6, 5), 2.0))
        armada.sync()
        with armada.GlobalArray.create((6, 5), np.float32, name="u") as other:   # another dtype: replaced
            armada.save(file, other, in_place=True)
            if armada.rank() == 0:
                assert os.stat(file).st_ino != before
            assert armada.list_datasets(file)[0].dtype == np.float32
            armada.sync()


@needs_io
def test_checkpoint_restart_and_latest(shared_dir):
    prefix = shared_dir / "ckpt" / "state"
    if armada.rank() == 0:
        prefix.parent.mkdir()
    armada.sync()
    with armada.GlobalArray.create((8, 3), np.float64, name="x") as x, \
            armada.GlobalArray.create((5,), np.int64, name="n") as n:
        assert armada.latest_checkpoint(prefix) is None
        assert armada.restart(prefix, [x, n]) is None   # nothing yet: arrays untouched
        for step in (1, 2, 3):
            x.fill(step * 1.5)
            n.fill(step)
            armada.checkpoint(prefix, step, [x, n], keep=2)
        armada.sync()
        assert sorted(p.name for p in prefix.parent.iterdir()) == ["state.2.h5", "state.3.h5"]
        assert armada.latest_checkpoint(str(prefix)) == 3
        x.zero()
        n.zero()
        assert armada.restart(prefix, (x, n)) == 3
        np.testing.assert_array_equal(x[...], np.full((8, 3), 4.5))
        np.testing.assert_array_equal(n[...], np.full(5, 3))
        armada.sync()


def expect_error(kind, text, call, *args, **kwargs):
    with pytest.raises(kind) as caught:
        call(*args, **kwargs)
    assert text in str(caught.value), str(caught.value)
    return caught.value


@needs_io
def test_bad_input_raises_on_every_rank(shared_dir):
    missing = shared_dir / "no_such_file.h5"
    error = expect_error(FileNotFoundError, "no_such_file.h5", armada.load, missing, "u")  # Python's convention
    assert isinstance(error, armada.Error), repr(error)
    not_hdf5 = shared_dir / "not_hdf5.h5"
    if armada.rank() == 0:
        not_hdf5.write_text("plain text, not HDF5\n")
    armada.sync()
    expect_error(armada.Error, "not_hdf5.h5", armada.list_datasets, not_hdf5)
    file = shared_dir / "bad_input.h5"
    with armada.GlobalArray.create((4, 4), np.float64, name="u") as u:
        armada.save(file, u)
        expect_error(TypeError, "argument 'file'", armada.save, b"bytes.h5", u)
        expect_error(TypeError, "argument 'arrays'", armada.save, file, [u, np.zeros(3)])
        expect_error(ValueError, "names no array", armada.save, file, [])
        expect_error(ValueError, "its own distribution", armada.load, file, "u", into=u, chunks=(2, 2))
        expect_error(ValueError, "slices take no step", armada.load_patch, file, "u", np.s_[::2])
        expect_error(IndexError, "out of bounds", armada.load_patch, file, "u", np.s_[4])
        expect_error(armada.Error, "missing", armada.load, file, "missing")
        with armada.GlobalArray.create((4, 5), np.float64) as other:
            expect_error(armada.Error, "u", armada.load, file, "u", into=other)   # another shape
            armada.sync()
        with armada.GlobalArray.create((4, 4), np.int32) as other:
            expect_error(armada.Error, "u", armada.load, file, "u", into=other)   # another dtype
            armada.sync()
        expect_error(TypeError, "argument 'dataset'", armada.load, file, 3)
        armada.sync()
    # nothing was written by the failed calls: the file still holds exactly u
    assert [i.name for i in armada.list_datasets(file)] == ["u"]


def run_h5py(script, *args):
    """Runs `script` with h5py in a separate interpreter (h5py's serial HDF5 must not share a
    process with Armada's parallel one) on rank 0; every rank gets its output."""
    out = None
    if armada.rank() == 0:
        done = subprocess.run([H5PY_PYTHON, "-c", script, *map(str, args)], capture_output=True, text=True,
                              timeout=120)
        out = (done.returncode, done.stdout + done.stderr)
    code, text = armada.comm().bcast(out, root=0)
    assert code == 0, text
    return text


@needs_io
@pytest.mark.skipif(not H5PY_PYTHON, reason="no interpreter with h5py (python3-h5py) was found at configure time")
def test_h5py_reads_what_armada_wrote_and_armada_reads_h5py(shared_dir):
    ref = values((6, 4), np.complex128, seed=11)
    mine, theirs = shared_dir / "for_h5py.h5", shared_dir / "from_h5py.h5"
    with make((6, 4), np.complex128, ref, name="z") as z:
        armada.save(mine, z)
    if armada.rank() == 0:
        np.save(shared_dir / "ref.npy", ref)
    run_h5py("import sys, h5py, numpy as np\n"
             "f = h5py.File(sys.argv[1], 'r'); ref = np.load(sys.argv[2])\n"
             "assert f['z'].dtype == np.complex128, f['z'].dtype\n"
             "assert (f['z'][...] == ref).all()\n"
             "h5py.File(sys.argv[3], 'w').create_dataset('w', data=(ref * 2).astype(np.complex64))\n",
             mine, shared_dir / "ref.npy", theirs)
    with armada.load(theirs, "w") as w:
        assert w.dtype == np.complex64 and w.name == "w"
        np.testing.assert_array_equal(w[...], (ref * 2).astype(np.complex64))
        armada.sync()


@pytest.mark.skipif(IO_BUILT, reason="built with parallel HDF5: the other tests of this file run")
def test_calls_raise_without_hdf5(tmp_path):
    with armada.GlobalArray.create((4,), np.float64, name="u") as u:
        for call, args in [(armada.save, ("x.h5", u)), (armada.load, ("x.h5", "u")),
                           (armada.list_datasets, ("x.h5",)), (armada.checkpoint, ("x", 1, u)),
                           (armada.restart, ("x", u)), (armada.latest_checkpoint, ("x",))]:
            expect_error(armada.Error, "HDF5", call, *args)
        armada.sync()
