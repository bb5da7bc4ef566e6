"""Many independent jobs (benchmark positions, self-played games) on one core, on
local processes, or on a Dask distributed cluster: the same results in the same order.

``run_all(fn, items)`` returns ``[fn(x) for x in items]``. ``workers=N`` (N > 1) runs
them on N local worker processes; ``scheduler=ADDRESS`` (``tcp://host:8786``) on the
Dask cluster whose scheduler listens there (docs/cluster.md: starting a scheduler and
workers on several machines; :func:`local_cluster` starts one on this machine). ``fn``
must be a module-level function of trainruns (workers import it by name), and every
item and result picklable. ``tick(done, total, result)`` is called for each job's
result as it arrives (jobs go to the workers in chunks; see ``CHUNKS_PER_SLOT``), for a
progress bar.

Local workers are forked from this process after ``warm()`` (the caller's: loading
the numba kernels, a title's data) has run here once, so they start with everything
loaded: spawned afresh, each worker paid about 1.8 s of CPU (importing numpy, numba,
Dask and trainruns, loading the kernels) before its first job, where 1,000 positions
of a few milliseconds each take about 3.5 s of CPU in all. They are plain processes
(``concurrent.futures``), not a local Dask cluster: measured on those 1,000 positions,
Dask's scheduler, nannies and worker event loops cost 0.4 s of CPU to import and
15-30% more CPU than the jobs themselves, a standard process pool 1-19% (docs/cluster.md). Workers on
a Dask cluster load what they need at their first job, once per worker process.

Dask (``dask.distributed``) is the engine for more than one machine: one API from a
laptop's cores to a cluster, with its own scheduling, retries of lost workers and
dashboard; it is loaded only when asked for (a serial or local run never imports it).
"""

from __future__ import annotations

import sys


class SweepError(Exception):
    """The cluster could not be reached or started, or a local worker died (the caller
    says so in one line)."""


def run_all(fn, items, workers: int | None = None, scheduler: str | None = None, tick=None, warm=None) -> list:
    items = list(items)
    if scheduler is not None:
        return _on_dask(fn, items, scheduler, tick)
    if workers is None or workers <= 1 or len(items) <= 1:
        out = []
        for x in items:
            out.append(fn(x))
            if tick:
                tick(len(out), len(items), out[-1])
        return out
    return _on_processes(fn, items, workers, tick, warm)


# Linux forks safely (the daemon's children are forked too); elsewhere (macOS
# frameworks, Windows) workers are spawned and load what they need at their first job
FORK = sys.platform.startswith("linux")


def _on_processes(fn, items, workers, tick, warm):
    """N local worker processes, forked from this process after ``warm()``."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    if FORK and warm is not None:
        warm()
    chunks = _chunks(len(items), workers)
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork" if FORK else "spawn"),
                               initializer=_worker_start)
    try:
        futures = {pool.submit(_run_chunk, fn, items[a:b]): i for i, (a, b) in enumerate(chunks)}
        return _gather(((futures[f], f.result()) for f in as_completed(futures)), chunks, len(items), tick)
    except BrokenProcessPool as e:
        raise SweepError(f"a worker process died ({e})") from None
    except BaseException:
        # Ctrl-C, or a job's error: stop the workers now, not after the jobs queued to them
        for process in multiprocessing.active_children():
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_start():
    """A local worker leaves Ctrl-C (sent to the terminal's whole process group) to
    the command, which stops the workers and says so once."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_dask(fn, items, scheduler, tick):
    import logging

    try:
        from distributed import Client, as_completed
    except ImportError as e:  # pragma: no cover - a dependency of trainruns
        raise SweepError(f"--scheduler needs dask[distributed] ({e})") from None
    # Dask's own log lines (a worker lost, a connection closing) are not the command's output
    logging.getLogger("distributed").setLevel(logging.ERROR)
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:
        raise SweepError(f"no Dask scheduler answers at {scheduler} ({e})") from None
    try:
        chunks = _chunks(len(items), _slots(client))
        # pure=False: equal items are still separate jobs (a benchmark times each)
        futures = client.map(_run_chunk, [fn] * len(chunks), [items[a:b] for a, b in chunks], pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        return _gather(((index[f.key], f.result()) for f in as_completed(futures)), chunks, len(items), tick)
    finally:
        client.close()


def local_cluster(workers: int, warm=None):
    """A Dask cluster of ``workers`` single-threaded worker processes on this machine,
    set up for a sweep of many short jobs (reached by its ``scheduler_address``, as a
    cluster of several machines is; the benchmark's and the tests' local cluster):

    - no dashboard (nobody watches it; it would also take a port);
    - on Linux, the workers forked from this process after ``warm()`` (Dask's
      ``distributed.worker.multiprocessing-method``): they start with the kernels
      loaded in about 0.1 s of CPU, against 1.8 s each when spawned, and close in
      0.1 s instead of 3-4 s;
    - no statistical profiler (Dask samples each worker's stack every 10 ms for the
      dashboard's profile page), and the event loop's health check (20 ms), the
      memory check (100 ms) and the system monitor (500 ms) once a second: each woke
      the worker's event loop, which took the GIL from the job. Measured on 1,000
      positions, a worker's threads other than the job's used about 1 s of CPU per 4 s
      of jobs with Dask's defaults, 0.1-0.3 s with these.
    """
    import logging

    import dask
    from distributed import LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    if FORK and warm is not None:
        warm()
    config = {"distributed.worker.multiprocessing-method": "fork" if FORK else "spawn",
              "distributed.worker.profile.enabled": False,
              "distributed.admin.tick.interval": "1s",
              "distributed.worker.memory.monitor-interval": "1s",
              "distributed.admin.system-monitor.interval": "1s"}
    with dask.config.set(config):
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)


def _gather(arrived, chunks, total, tick):
    """The jobs' results in job order, from ``(chunk index, results)`` pairs in the
    order the chunks finish; ``tick`` for each result as it arrives."""
    out = [None] * total
    done = 0
    for i, results in arrived:
        a, b = chunks[i]
        out[a:b] = results
        for result in results:
            done += 1
            if tick:
                tick(done, total, result)
    return out


# jobs per worker slot, in chunks: each Dask task costs the scheduler about a
# millisecond (far more on a busy machine), against a few milliseconds per position, so
# jobs go in chunks, CHUNKS_PER_SLOT per worker thread (enough to balance the load)
CHUNKS_PER_SLOT = 8


def _slots(client) -> int:
    try:
        return max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))
    except (KeyError, TypeError, OSError):
        return 1


def _chunks(n: int, slots: int) -> list:
    """``[(start, end)]`` covering ``range(n)`` in order."""
    size = max(1, -(-n // (slots * CHUNKS_PER_SLOT)))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def _run_chunk(fn, chunk):
    """One task: ``fn`` on each job of ``chunk``, in order."""
    return [fn(x) for x in chunk]
