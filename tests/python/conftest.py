"""pytest under mpiexec: every rank runs every test in the same order, on one Armada session.

The launch's exit code is nonzero when any rank fails (mpiexec returns the worst). A run in
which no test passed (nothing collected, a filter matching nothing, everything skipped) fails
too, so that a row of ctest can never pass without testing anything.
"""

import numpy as np
import pytest

import armada

DTYPES = [np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]


_passed = 0


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    armada.init()
    if armada.rank() != 0:
        # Rank 0 reports in full; the others print only their failures, each marked with the rank.
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            config.pluginmanager.unregister(reporter)


def pytest_runtest_logreport(report):
    global _passed
    if report.when == "call" and report.passed:
        _passed += 1
    if report.failed and armada.initialized() and armada.rank() != 0:
        crash = getattr(report.longrepr, "reprcrash", None)
        summary = crash.message.splitlines()[0] if crash and crash.message else report.when
        print(f"[rank {armada.rank()}] FAILED {report.nodeid}: {summary}\n{report.longreprtext}", flush=True)


def pytest_sessionfinish(session, exitstatus):
    if exitstatus == 0 and _passed == 0:
        print(f"\n[rank {armada.rank()}] no test passed (none collected, or every test skipped): failing the run")
        session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED
    if armada.initialized():
        armada.finalize()


def values(shape, dtype, seed=1):
    """Random test data of `dtype`, the same on every rank (a fixed seed)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    data = rng.standard_normal(shape)
    if dtype.kind == "c":
        data = data + 1j * rng.standard_normal(shape)
    return data.astype(dtype)


def make(shape, dtype, data, **options):
    """A new array (GlobalArray.create's options) holding `data`, written by rank 0; collective."""
    a = armada.GlobalArray.create(shape, dtype, **options)
    if armada.rank() == 0:
        a[...] = data
    armada.sync()
    return a


def tolerance(dtype):
    return {"rtol": 1e-4, "atol": 1e-4} if np.dtype(dtype) in (np.float32, np.complex64) else {"rtol": 1e-10, "atol": 1e-10}


def assert_close(got, want, dtype):
    got = np.asarray(got)
    assert got.shape == np.shape(want), f"shape {got.shape} != {np.shape(want)}"
    assert got.dtype == np.dtype(dtype), f"dtype {got.dtype} != {np.dtype(dtype)}"
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, **tolerance(dtype))


@pytest.fixture
def me():
    return armada.rank()


@pytest.fixture
def nproc():
    return armada.size()
