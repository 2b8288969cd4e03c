"""The runtime: Armada's world is the mpi4py communicator it was started on."""

import sys

from mpi4py import MPI
import numpy as np
import pytest

import armada


def test_rank_size_and_comm_follow_mpi4py():
    world = armada.comm()
    assert world is MPI.COMM_WORLD
    assert armada.rank() == world.Get_rank() and armada.size() == world.Get_size()
    assert armada.initialized() and 1 <= armada.nodes() <= armada.size()
    armada.sync()


def test_init_twice_is_an_error():
    with pytest.raises(armada.StateError, match="already initialized"):
        armada.init()
    with pytest.raises(armada.ArgumentError, match="comm"):
        armada.init("not a communicator")


def test_a_sub_communicator_is_armadas_world():
    world = MPI.COMM_WORLD
    sub = world.Split(world.Get_rank() % 2, world.Get_rank())   # even and odd ranks: two worlds
    survivor = armada.GlobalArray.create((3,), np.float64, name="before")
    armada.finalize()                                  # destroys every array still alive
    assert not armada.initialized() and armada.comm() is None and not survivor.valid
    with pytest.raises(armada.StateError, match="not initialized"):
        armada.rank()
    with armada.init(sub):
        rank, size, comm = armada.rank(), armada.size(), armada.comm()
        a = armada.GlobalArray.create((sub.Get_size(), 2), np.int64)
        a[rank, :] = world.Get_rank()
        armada.sync()
        got = a[:, 0]
        armada.sync()
    assert not armada.initialized()
    armada.init()                                      # back on the world for the other tests
    assert (rank, size, comm) == (sub.Get_rank(), sub.Get_size(), sub)
    want = np.array(sub.allgather(world.Get_rank()))
    np.testing.assert_array_equal(got, want)
    sub.Free()


@pytest.mark.skipif(armada.size() != 1, reason="with more ranks an error in the block aborts the job")
def test_a_failing_with_block_still_finalizes():
    armada.finalize()
    with pytest.raises(armada.DTypeError):
        with armada.init():
            armada.GlobalArray.create((2,), np.int8)
    assert not armada.initialized()
    armada.init()


def test_an_mpi_error_in_armadas_world_raises():
    # mpi4py leaves MPI_ERRORS_RETURN on its communicators, which Armada's world inherited: an
    # MPI error inside a collective (ranks in different calls) went unnoticed. Now it raises.
    with pytest.raises(armada.Error, match=r"^\[rank \d+\] armada: MPI error inside a collective: MPI_ERR_TRUNCATE"):
        armada._core._mpi_error_on_world()
    armada.sync()                                      # nothing was sent: the runtime goes on


def test_sys_exit_0_in_a_with_block_finalizes():
    # A zero exit status on every rank is a normal end: finalize, not abort.
    armada.finalize()
    with pytest.raises(SystemExit):
        with armada.init():
            a = armada.GlobalArray.create((4,), np.float64)
            sys.exit(0)
    assert not armada.initialized() and not a.valid
    armada.init()


def test_a_sys_exit_caught_in_a_function_does_not_abort_at_exit():
    def parse_arguments():
        sys.exit(2)                                    # argparse's way of refusing
    with pytest.raises(SystemExit):
        parse_arguments()
    assert armada._leaving is not None and armada._leaving.code == 2    # sys.exit was seen ...
    assert armada._exit_status() == 0                  # ... but caught: the exit handler finalizes
