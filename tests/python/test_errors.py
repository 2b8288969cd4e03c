"""Bad input: the right exception class, Armada's message, on every rank that called; no hang."""

import numpy as np
import pytest

import armada
from conftest import DTYPES


@pytest.fixture
def a():
    with armada.GlobalArray.create((6, 4), np.float64, name="E") as x:
        yield x


def test_exception_classes():
    assert issubclass(armada.BoundsError, IndexError) and issubclass(armada.BoundsError, armada.Error)
    assert issubclass(armada.DTypeError, TypeError) and issubclass(armada.DTypeError, armada.Error)
    assert issubclass(armada.ArgumentError, ValueError) and issubclass(armada.ArgumentError, armada.Error)
    assert issubclass(armada.StateError, armada.Error) and issubclass(armada.LinAlgError, armada.Error)
    assert issubclass(armada.IntegerOverflowError, OverflowError)
    assert issubclass(armada.IntegerOverflowError, armada.ArgumentError)


@pytest.mark.parametrize("kind, cls", [
    ("argument", armada.ArgumentError), ("handle", armada.ArgumentError), ("type", armada.DTypeError),
    ("state", armada.StateError), ("unsupported", armada.Error), ("system", armada.Error),
    ("internal", armada.Error), ("singular", armada.LinAlgError), ("not_positive_definite", armada.LinAlgError),
    ("no_convergence", armada.LinAlgError)])
def test_each_error_kind_becomes_its_class(kind, cls):
    # Armada's errors become Python classes by their kind (one table in the binding).
    with pytest.raises(cls, match=r"^\[rank \d+\] armada._raise_error: went wrong$") as info:
        armada._core._raise_error(kind, "went wrong")
    assert type(info.value) is cls, f"{kind}: {type(info.value).__name__}"
    assert armada._core.message_prefix() == f"[rank {armada.rank()}] "
    with pytest.raises(armada.ArgumentError, match="'kind' = 'oops'|'kind' = oops"):
        armada._core._raise_error("oops", "x")


@pytest.mark.parametrize("key", [(6, 0), (0, -5), np.s_[0:7], np.s_[:, 2:5], np.s_[-7:], (0, 0, 0)], ids=repr)
def test_indices_outside_the_array(a, key):
    with pytest.raises(IndexError, match=r"\[rank \d+\] GlobalArray.__getitem__: argument 'index'"):
        a[key]
    with pytest.raises(armada.BoundsError):
        a[key] = 1.0
    with pytest.raises(armada.BoundsError):
        a.acc(key, 1.0)
    with pytest.raises(armada.BoundsError):
        a.get_nb(key)


def test_bad_index_kinds_and_values(a):
    with pytest.raises(TypeError, match="gather/scatter"):
        a[[0, 1], 0]
    with pytest.raises(TypeError):
        a[None]
    with pytest.raises(ValueError, match="step"):
        a[::0]
    with pytest.raises(IndexError, match="ellipsis"):
        a[..., ...]


def test_values_that_do_not_fit(a):
    with pytest.raises(ValueError, match="broadcast"):
        a[0:2, :] = np.ones((3, 4))
    with pytest.raises(TypeError, match="same_kind"):
        a[0, 0] = 1 + 2j
    with pytest.raises(TypeError):
        a[0, :] = ["x", "y", "z", "w"]
    with pytest.raises(TypeError, match="alpha"):
        a.acc((0, 0), 1.0, alpha=1j)
    assert (a[...] == 0).all()            # nothing moved


@pytest.mark.parametrize("dtype, big", [(np.int32, 2**40 + 7), (np.int32, -2**31 - 1), (np.int64, 2**63 + 5),
                                        (np.int64, -2**70)], ids=repr)
def test_integers_that_do_not_fit_raise_overflow(dtype, big):
    # NumPy 2's rule: an integer outside the dtype's range raises OverflowError, never wraps
    # around (2**40 + 7 stored as 7 in int32). Put, acc, scatter and every alpha and value.
    big_re = rf"= (an array holding )?{big}: does not fit the array's dtype {np.dtype(dtype).name}"
    with armada.GlobalArray.create((4,), dtype) as b:
        calls = {
            "__setitem__": lambda: b.__setitem__(0, big),
            "__setitem__ list": lambda: b.__setitem__(np.s_[0:2], [1, big]),
            "__setitem__ uint64/int64 array": lambda: b.__setitem__(np.s_[0:2], np.array([1, big], dtype=object)
                                                                  if abs(big) >= 2**63 else np.array([1, big])),
            "acc": lambda: b.acc(0, big),
            "acc alpha": lambda: b.acc(0, 1, alpha=big),
            "scatter": lambda: b.scatter(([0, 1],), [1, big]),
            "scatter_acc alpha": lambda: b.scatter_acc(([0, 1],), [1, 1], alpha=big),
            "fill": lambda: b.fill(big),
            "scale": lambda: b.scale(big),
            "add alpha": lambda: armada.add(b, b, b, alpha=big),
            "read_inc": lambda: b.read_inc(0, big),
        }
        for name, call in calls.items():
            with pytest.raises(OverflowError, match=big_re) as info:
                call()
            assert isinstance(info.value, armada.IntegerOverflowError), name
            assert isinstance(info.value, armada.ArgumentError), name
        armada.sync()
        assert (b[...] == 0).all()            # nothing moved
        armada.sync()
        info = np.iinfo(dtype)
        b[0], b[1] = info.max, info.min       # the dtype's own limits fit
        b[2:4] = np.array([info.max, info.min], dtype=np.int64)
        armada.sync()
        assert b[...].tolist() == [info.max, info.min] * 2


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_float_into_integer_array_is_a_type_error(dtype):
    with armada.GlobalArray.create((3,), dtype) as b:
        with pytest.raises(armada.DTypeError, match="int"):
            b[0] = 1.5
        b[1] = np.int16(7)               # a safe cast is fine
        assert b[1] == 7


def test_gather_scatter_read_inc_errors(a):
    with pytest.raises(IndexError, match="out of bounds"):
        a.gather(([0, 6], [0, 0]))
    with pytest.raises(TypeError, match="integers"):
        a.gather(np.array([[0.5, 1.0]]))
    with pytest.raises(ValueError, match="shape"):
        a.gather(np.zeros((2, 3), int))
    with pytest.raises(ValueError, match="one per dimension"):
        a.scatter(([0],), [1.0])
    with pytest.raises(ValueError, match="one value per index"):
        a.scatter(([0, 1], [0, 0]), [1.0, 2.0, 3.0])
    with pytest.raises(armada.ArgumentError, match=r"arrays::scatter"):
        a.scatter(([1, 1], [2, 2]), [1.0, 2.0])       # Armada's own check: the same element twice
    with pytest.raises(TypeError, match="int32 or int64"):
        a.read_inc((0, 0))
    with armada.GlobalArray.create((2,), np.int64) as c:
        with pytest.raises(IndexError):
            c.read_inc(2)
    with pytest.raises(armada.BoundsError, match="out of bounds"):
        a.owner((6, 0))
    with pytest.raises(armada.BoundsError, match="needs 2 entries"):
        a.owner((1,))


@pytest.mark.parametrize("shape", [(0, 3), (-1,), (), (1,) * 8], ids=repr)
def test_create_with_a_bad_shape_fails_on_every_rank(shape):
    with pytest.raises(armada.ArgumentError, match="arrays::create"):
        armada.GlobalArray.create(shape, np.float64)
    armada.sync()


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float16, bool, "U3", object])
def test_unsupported_dtypes(dtype):
    with pytest.raises(armada.DTypeError, match="Armada holds int32, int64"):
        armada.GlobalArray.create((4,), dtype)


def test_arguments_bad_on_one_rank_fail_on_every_rank(me, nproc):
    # Rank 0 passes a dtype Armada does not hold: every rank raises (no rank waits in the
    # collective allocation), the others naming rank 0.
    dtype = np.int8 if me == 0 else np.float64
    with pytest.raises(armada.DTypeError) as info:
        armada.GlobalArray.create((4,), dtype)
    if me != 0:
        assert "group rank 0 failed" in str(info.value)
    with armada.GlobalArray.create((4,), np.float64) as b:
        with pytest.raises(armada.DTypeError):
            b.fill(1j if me == nproc - 1 else 1.0)
        with pytest.raises(armada.ArgumentError, match="ord"):
            b.norm(3 if me == 0 else 1)
        assert (b[...] == 0).all()


def test_bad_groups_fail_on_every_rank(nproc):
    with pytest.raises(armada.ArgumentError, match="not a rank"):
        armada.Group([0, nproc])
    with pytest.raises(armada.ArgumentError, match="listed twice"):
        armada.Group([0, 0])
    with pytest.raises(armada.DTypeError, match="group"):
        armada.GlobalArray.create((4,), group=[0])


def test_collectives_on_mismatched_arrays():
    with armada.GlobalArray.create((4,), np.float64) as x, armada.GlobalArray.create((4,), np.float32) as y, \
         armada.GlobalArray.create((5,), np.float64) as z:
        with pytest.raises(armada.DTypeError, match="dtype"):
            armada.dot(x, y)
        with pytest.raises(armada.DTypeError):
            armada.copy(x, y)
        with pytest.raises(armada.ArgumentError):
            armada.copy(x, z)                      # Armada: different dims
        with pytest.raises(armada.ArgumentError):
            armada.GlobalArray.create((4, 4), ghosts=(1, 9))


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_refuses_a_wrong_value_kind(dtype):
    with armada.GlobalArray.create((2,), dtype) as b:
        with pytest.raises(TypeError):
            b[0] = np.array(["text"])
