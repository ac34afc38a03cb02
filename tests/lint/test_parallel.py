"""``--jobs``: irreshape.parallel.ordered_map, by forked workers (Linux) and by a process pool (elsewhere):
results in order, work shared by every process, errors and dead workers raised here, nothing left
running."""

from __future__ import annotations

import os
import sys
import time

import pytest

from irreshape.lint import parallel

MAIN = os.getpid()
PATHS = [pytest.param(True, id="fork"), pytest.param(False, id="pool")]


@pytest.fixture(params=PATHS)
def path(request, monkeypatch):
    if request.param and not sys.platform.startswith("linux"):
        pytest.skip("forked workers are the Linux path")
    monkeypatch.setattr(parallel, "FORK", request.param)
    return request.param


def _square_where(x: int) -> tuple[int, int]:
    time.sleep(0.001)
    return x * x, os.getpid()


def _fails_at_7(x: int) -> int:
    if x == 7:
        raise ValueError(f"item {x}")
    return x


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not this one")


def _unpicklable_in_worker(x: int) -> int:
    if os.getpid() != MAIN:
        raise _Unpicklable("from a worker")
    time.sleep(0.01)
    return x


def _dies_in_worker(x: int) -> int:
    if os.getpid() != MAIN:
        os._exit(3)
    time.sleep(0.01)
    return x


def _children() -> set[int]:
    """This process's live (not yet reaped) child processes."""
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            return {int(p) for p in f.read().split()}
    except OSError:
        return set()


def test_results_come_in_order_from_every_process(path):
    items = list(range(300))
    got = list(parallel.ordered_map(_square_where, items, 3))
    assert [v for v, _ in got] == [x * x for x in items]
    assert MAIN in {pid for _, pid in got} and len({pid for _, pid in got}) == 3
    assert not _children()


@pytest.mark.parametrize("n, jobs", [(0, 4), (1, 4), (2, 8), (5, 1)])
def test_few_items_or_one_job(path, n, jobs):
    got = list(parallel.ordered_map(_square_where, list(range(n)), jobs))
    assert [v for v, _ in got] == [x * x for x in range(n)]
    if jobs == 1 or n <= 1:
        assert {pid for _, pid in got} <= {MAIN}  # no worker for one job or one item


def test_chunks_shrink_cover_every_item_once_and_stay_few():
    items = list(range(1000))
    chunks = parallel.split_in_chunks(items, 2)
    assert [x for c in chunks for x in c] == items
    sizes = [len(c) for c in chunks]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] == 125 and sizes[-1] == 1
    many = parallel.split_in_chunks(list(range(100_000)), 64)
    assert len(many) <= parallel.MAX_CHUNKS and sum(map(len, many)) == 100_000


def test_an_error_in_any_process_is_raised_here(path):
    with pytest.raises(ValueError, match="item 7"):
        list(parallel.ordered_map(_fails_at_7, list(range(40)), 2))
    assert not _children()


def test_an_exception_that_does_not_pickle_is_still_an_error_here(path):
    # forked: its traceback in a RuntimeError; the pool: the pickling error
    with pytest.raises(RuntimeError if path else TypeError, match="_Unpicklable: from a worker" if path else "not this"):
        list(parallel.ordered_map(_unpicklable_in_worker, list(range(40)), 2))
    assert not _children()


def test_a_worker_that_dies_is_an_error_not_a_hang(path):
    # forked: our RuntimeError; the pool: BrokenProcessPool, a RuntimeError too
    with pytest.raises(RuntimeError, match="worker process ended" if path else "terminated abruptly"):
        list(parallel.ordered_map(_dies_in_worker, list(range(40)), 2))
    assert not _children()


def test_a_caller_that_stops_early_leaves_no_worker_behind(path):
    it = parallel.ordered_map(_square_where, list(range(2000)), 3)
    assert next(it)[0] == 0
    it.close()
    assert not _children()


def test_when_no_worker_can_be_forked_this_process_does_it_all(monkeypatch):
    if not sys.platform.startswith("linux"):
        pytest.skip("forked workers are the Linux path")
    monkeypatch.setattr(parallel, "FORK", True)

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(parallel.os, "fork", no_fork)
    got = list(parallel.ordered_map(_square_where, list(range(50)), 4))
    assert [v for v, _ in got] == [x * x for x in range(50)] and {pid for _, pid in got} == {MAIN}
