"""Run only by the harness rows of tests/python/CMakeLists.txt (not collected otherwise): a test
that fails on the last rank only must fail the whole launch and be reported with that rank."""

import armada


def test_fails_on_the_last_rank_only():
    armada.sync()
    assert armada.rank() != armada.size() - 1, "deliberate failure on the last rank only"
