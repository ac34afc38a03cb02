"""``--jobs``: a function over many items in several processes, the results in the items' order.

This process works too (``jobs - 1`` workers beside it): its results need no trip between processes,
and no core idles while the main process waits. The items go out in chunks that shrink as the work
goes (a quarter of each process's share of what is left): few round trips at first, and at the end no
process is left alone with a large chunk while the others wait. Every process takes the next chunk
when it is ready for one, from a shared claim, so none waits to be handed work.

On Linux the workers are forked directly: the claims are chunk indexes written into a pipe beforehand
(a read of one index is atomic), and each worker sends back its pickled results through a pipe of its
own, read here by a thread. That costs a fork and a thread per worker, where a process pool costs
~40 ms of imports and start-up before the first file. Elsewhere a ``ProcessPoolExecutor`` runs the
workers, with a shared counter for the claims.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

_INDEX = 4  # bytes of a chunk index in the claims pipe
MAX_CHUNKS = 1024  # their indexes fit in a pipe's smallest buffer (4 KiB), so writing them never blocks
FORK = sys.platform.startswith("linux")


def ordered_map(fn: Callable[[Any], Any], items: list, jobs: int) -> Iterator[Any]:
    """``fn(item)`` for each item, in order, from this process and ``jobs - 1`` workers.

    An exception raised by ``fn`` in a worker is raised here; so is a worker's death (RuntimeError).
    For the pool used off Linux, ``fn`` and the items must pickle.
    """
    jobs = min(jobs, len(items))
    if jobs <= 1:
        yield from map(fn, items)
        return
    chunks = split_in_chunks(items, jobs)
    run = _forked if FORK else _pooled
    for results in run(fn, chunks, jobs):
        yield from results


def split_in_chunks(items: list, jobs: int) -> list[list]:
    out: list[list] = []
    i = 0
    while i < len(items):
        size = max(1, (len(items) - i) // (jobs * 4), -(-len(items) // MAX_CHUNKS))
        out.append(items[i:i + size])
        i += size
    return out


def _in_order(chunks: list[list], fn: Callable, take: Callable[[], "int | None"],
              collect: Callable[[bool], list[tuple[int, list]]]) -> Iterator[list]:
    """Each chunk's results in order: this process computes the chunks it takes and, after each (or,
    with none left to take, waiting), gathers what the workers sent."""
    done: dict[int, list] = {}
    n = 0
    while n < len(chunks):
        i = take()
        if i is not None:
            done[i] = [fn(x) for x in chunks[i]]
        for j, results in collect(i is None):
            done[j] = results
        while n in done:
            yield done.pop(n)
            n += 1


# -- Linux: forked workers, pipes --------------------------------------------------------------------
def _forked(fn: Callable, chunks: list[list], jobs: int) -> Iterator[list]:
    import pickle  # noqa: F401  imported before the fork: the workers need it
    import queue
    import threading

    claims, w = os.pipe()
    try:
        os.write(w, b"".join(i.to_bytes(_INDEX, "little") for i in range(len(chunks))))
    finally:
        os.close(w)  # no writer left: a claim past the last index reads the end of the pipe
    workers: list[tuple[int, int]] = []  # (pid, the read end of its results pipe)
    threads: list[threading.Thread] = []
    finished = False
    try:
        for _ in range(jobs - 1):
            r, w = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no more processes to be had: this one takes what the others would have
                os.close(r)
                os.close(w)
                break
            if pid == 0:  # the worker: never returns
                os.close(r)
                for _, other in workers:
                    os.close(other)
                _work(fn, chunks, claims, w)
            os.close(w)
            workers.append((pid, r))
        # threads start once every worker is forked: a fork copies no thread, only its locks, perhaps held
        inbox: queue.SimpleQueue = queue.SimpleQueue()
        for _, r in workers:
            threads.append(threading.Thread(target=_receive, args=(r, inbox), daemon=True))
            threads[-1].start()
        running = len(workers)

        def collect(wait: bool) -> list[tuple[int, list]]:
            nonlocal running
            got = []
            while running:
                try:
                    msg = inbox.get(block=wait and not got)
                except queue.Empty:
                    break
                if msg is None:  # a worker is done, or died
                    running -= 1
                    continue
                i, results, error = msg
                if error is not None:
                    raise error
                got.append((i, results))
            if wait and not got and not running:
                raise RuntimeError("a --jobs worker process ended before checking its files")
            return got

        yield from _in_order(chunks, fn, lambda: _claim(claims), collect)
        finished = True
    finally:
        os.close(claims)
        if not finished:  # an error here or in a worker, or the caller stopped early: stop the others
            import signal

            for pid, _ in workers:
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
        for _, r in workers[len(threads):]:  # read by no thread (the start failed part way)
            os.close(r)
        for t in threads:
            t.join()
        for pid, _ in workers:
            os.waitpid(pid, 0)


def _claim(claims: int) -> int | None:
    raw = os.read(claims, _INDEX)
    return int.from_bytes(raw, "little") if len(raw) == _INDEX else None


def _work(fn: Callable, chunks: list[list], claims: int, fd: int) -> None:
    """A forked worker: check the chunks it claims, send (index, results, None) for each, or (index,
    None, exception) and stop; then end without running this process's exit handlers."""
    import pickle

    status = 0
    try:
        with os.fdopen(fd, "wb") as out:
            while (i := _claim(claims)) is not None:
                try:
                    msg = (i, [fn(x) for x in chunks[i]], None)
                except BaseException as e:  # noqa: BLE001  raised in the main process instead
                    msg = (i, None, _portable(e))
                pickle.dump(msg, out, protocol=pickle.HIGHEST_PROTOCOL)
                out.flush()
                if msg[2] is not None:
                    break
    except BaseException:  # noqa: BLE001  the main process reports a worker that ends early
        status = 1
    finally:
        os._exit(status)


def _portable(e: BaseException) -> BaseException:
    """``e`` if it survives pickling, else a RuntimeError carrying its traceback."""
    import pickle

    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        import traceback

        return RuntimeError("".join(traceback.format_exception(e)))


def _receive(fd: int, inbox) -> None:
    """A thread of the main process: the messages of one worker, then None."""
    import pickle

    try:
        with os.fdopen(fd, "rb") as f:
            while True:
                try:
                    inbox.put(pickle.load(f))
                except EOFError:
                    break
    except Exception:  # a truncated message: the worker died while writing it
        pass
    finally:
        inbox.put(None)


# -- elsewhere: a process pool ------------------------------------------------------------------------
_fn: Callable | None = None
_pool_chunks: list[list] = []
_counter: Any = None  # a multiprocessing.Value: the index of the next chunk no process has taken


def _init(fn: Callable, chunks: list[list], counter) -> None:
    global _fn, _pool_chunks, _counter
    _fn, _pool_chunks, _counter = fn, chunks, counter


def _take() -> int | None:
    with _counter.get_lock():
        i = _counter.value
        _counter.value = i + 1
    return i if i < len(_pool_chunks) else None


def _pool_task() -> tuple[int, list] | None:
    i = _take()
    return None if i is None else (i, [_fn(x) for x in _pool_chunks[i]])  # type: ignore[misc]


def _pooled(fn: Callable, chunks: list[list], jobs: int) -> Iterator[list]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    counter = multiprocessing.Value("q", 0)
    _init(fn, chunks, counter)
    with ProcessPoolExecutor(jobs - 1, initializer=_init, initargs=(fn, chunks, counter)) as pool:
        pending = [pool.submit(_pool_task) for _ in chunks]  # at most one chunk each

        def collect(wait: bool) -> list[tuple[int, list]]:
            nonlocal pending
            ready = pending if wait else [f for f in pending if f.done()]
            pending = [f for f in pending if f not in ready]
            return [got for got in (f.result() for f in ready) if got is not None]

        yield from _in_order(chunks, fn, _take, collect)
