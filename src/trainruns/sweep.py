"""Many independent jobs (benchmark positions, self-played games) on one core, on
local processes, or on a Dask distributed cluster: the same results in the same order.

``run_all(fn, items)`` returns ``[fn(x) for x in items]``. ``workers=N`` (N > 1) runs
them on a local cluster of N single-threaded worker processes; ``scheduler=ADDRESS``
(``tcp://host:8786``) on the Dask cluster whose scheduler listens there
(docs/cluster.md: starting a scheduler and workers on several machines). ``fn`` must be
a module-level function of trainruns (workers import it by name), and every item and
result picklable. ``tick(done, total, result)`` is called for each job's result as it
arrives (jobs go to the workers in chunks; see ``CHUNKS_PER_SLOT``), for a progress bar.

A local cluster's workers are forked from this process after ``warm()`` (the caller's:
loading the numba kernels, a title's data) has run here once, so they start with
everything loaded: spawned afresh, each worker paid about 1.8 s of CPU (importing Dask,
numpy, numba and trainruns, loading the kernels) before its first job, and 1,000
positions of a few milliseconds each only take about 4 s of CPU in all. Workers on a
remote cluster load what they need at their first job, once per worker process.

The engine is Dask (``dask.distributed``): one API from a laptop's cores to a cluster
of machines, with its own scheduling, retries of lost workers and dashboard; it is
loaded only when asked for (a serial run never imports it).
"""

from __future__ import annotations


class SweepError(Exception):
    """The cluster could not be reached or started (the caller says so in one line)."""


def run_all(fn, items, workers: int | None = None, scheduler: str | None = None, tick=None, warm=None) -> list:
    items = list(items)
    if scheduler is None and (workers is None or workers <= 1):
        out = []
        for x in items:
            out.append(fn(x))
            if tick:
                tick(len(out), len(items), out[-1])
        return out
    return _on_dask(fn, items, workers, scheduler, tick, warm)


def _on_dask(fn, items, workers, scheduler, tick, warm):
    import logging

    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:  # pragma: no cover - a dependency of trainruns
        raise SweepError(f"--workers and --scheduler need dask[distributed] ({e})") from None
    # Dask's own log lines (a worker starting, a cluster closing) are not the command's output
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    try:
        if scheduler is not None:
            try:
                client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as e:
                raise SweepError(f"no Dask scheduler answers at {scheduler} ({e})") from None
        else:
            cluster = _local_cluster(LocalCluster, workers, warm)
            client = Client(cluster)
        try:
            chunks = _chunks(len(items), _slots(client))
            # pure=False: equal items are still separate jobs (a benchmark times each)
            futures = client.map(_run_chunk, [fn] * len(chunks), [items[a:b] for a, b in chunks], pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            out = [None] * len(items)
            done = 0
            for future in as_completed(futures):
                a, b = chunks[index[future.key]]
                out[a:b] = results = future.result()
                for result in results:
                    done += 1
                    if tick:
                        tick(done, len(items), result)
            return out
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _local_cluster(LocalCluster, workers, warm):
    """N single-threaded worker processes (the kernels hold the GIL: threads would not
    help) and no dashboard (nobody watches a command's own cluster; it would also take
    a port), set up for a sweep of many short jobs rather than for Dask's interactive
    use:

    - where the platform forks safely (Linux), the workers are forked from this
      process after ``warm()`` (Dask's ``distributed.worker.multiprocessing-method``):
      they start with the kernels loaded in about 0.1 s of CPU, against 1.8 s each
      when spawned, and close in 0.1 s instead of 3-4 s;
    - no statistical profiler (Dask samples each worker's stack every 10 ms for the
      dashboard's profile page), and the event loop's health check (20 ms), the
      worker's memory check (100 ms) and its system monitor (500 ms) once a second:
      each woke the worker's event loop, which then took the GIL from the job.
      Measured on 1,000 positions, the worker threads other than the job's used about
      1 s of CPU per 4 s of jobs with Dask's defaults, 0.2-0.3 s with these.
    """
    import sys

    import dask

    fork = sys.platform.startswith("linux")
    if fork and warm is not None:
        warm()
    config = {"distributed.worker.multiprocessing-method": "fork" if fork else "spawn",
              "distributed.worker.profile.enabled": False,
              "distributed.admin.tick.interval": "1s",
              "distributed.worker.memory.monitor-interval": "1s",
              "distributed.admin.system-monitor.interval": "1s"}
    with dask.config.set(config):
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)


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
    """One Dask task: ``fn`` on each job of ``chunk``, in order."""
    return [fn(x) for x in chunk]
