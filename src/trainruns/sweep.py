"""Many independent jobs (benchmark positions, self-played games) on one core, on
local processes, or on a Dask distributed cluster: the same results in the same order.

``run_all(fn, items)`` returns ``[fn(x) for x in items]``. ``workers=N`` (N > 1) runs
them on a local cluster of N single-threaded worker processes; ``scheduler=ADDRESS``
(``tcp://host:8786``) on the Dask cluster whose scheduler listens there
(docs/cluster.md: starting a scheduler and workers on several machines). ``fn`` must be
a module-level function of trainruns (workers import it by name; each worker loads the
numba kernels once), and every item and result picklable. ``tick(done, total, result)``
is called as each job finishes (in finishing order), for a progress bar.

The engine is Dask (``dask.distributed``): one API from a laptop's cores to a cluster
of machines, with its own scheduling, retries of lost workers and dashboard; it is
loaded only when asked for (a serial run never imports it).
"""

from __future__ import annotations


class SweepError(Exception):
    """The cluster could not be reached or started (the caller says so in one line)."""


def run_all(fn, items, workers: int | None = None, scheduler: str | None = None, tick=None) -> list:
    items = list(items)
    if scheduler is None and (workers is None or workers <= 1):
        out = []
        for x in items:
            out.append(fn(x))
            if tick:
                tick(len(out), len(items), out[-1])
        return out
    return _on_dask(fn, items, workers, scheduler, tick)


def _on_dask(fn, items, workers, scheduler, tick):
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
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        try:
            # pure=False: equal items are still separate jobs (a benchmark times each)
            futures = client.map(fn, items, pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            out = [None] * len(items)
            done = 0
            for future in as_completed(futures):
                out[index[future.key]] = result = future.result()
                done += 1
                if tick:
                    tick(done, len(items), result)
            return out
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
