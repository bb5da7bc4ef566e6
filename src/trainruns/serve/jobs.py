"""Long work (solves, audits, rankings) off the web server's event loop.

One worker thread runs the jobs in turn: the machine has few cores and a solve uses
what it gets, so two at once would only slow both. Each job has an id the page polls,
its latest progress (the search's own :class:`~trainruns.route.search.Progress` reports) and,
when done, its result or its error. A job nobody wants any more (the position changed
under it) is cancelled: the search stops at its next progress report. Every job runs
under the server's time limit, so an answer always comes, proven or with its bound.
"""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from trainruns.errors import InputError
from trainruns.route.search import Progress

KEEP = 64  # finished jobs remembered (a page polls only the latest ones)


class Cancelled(Exception):
    """Raised inside a cancelled job's search, at its next progress report."""


class Job(Progress):
    """One piece of work: ``status`` is running, done, failed or cancelled."""

    def __init__(self, job_id, kind, version):
        self.id, self.kind, self.version = job_id, kind, version
        self.status = "queued"
        self.progress = {}
        self.result = None
        self.error = None
        self.t0 = time.monotonic()
        self.cancelled = threading.Event()

    def check(self):
        """Stop here if the job was cancelled (called between a job's long steps)."""
        if self.cancelled.is_set():
            raise Cancelled()

    # Progress: the search reports here; a cancelled job stops at its next report.
    def update(self, stage, **info):
        self.check()
        self.progress = {"stage": stage, **{k: int(v) for k, v in info.items()}}

    # whatif's rankings report variants done out of a total.
    def start(self, total):
        self.progress = {"stage": "variants", "done": 0, "total": int(total)}

    def advance(self):
        self.check()
        self.progress = dict(self.progress, done=self.progress.get("done", 0) + 1)

    def to_json(self, full=True):
        """What the page polls; ``full=False`` leaves the result out (a summary)."""
        out = {"id": self.id, "kind": self.kind, "version": self.version, "status": self.status,
               "progress": self.progress, "seconds": round(time.monotonic() - self.t0, 1)}
        if self.status == "done" and full:
            out["result"] = self.result
        if self.error:
            out["error"] = self.error
        return out


class Jobs:
    """The worker and the jobs it has run."""

    def __init__(self):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trainruns-job")
        self._ids = itertools.count(1)
        self._jobs = {}
        self._lock = threading.Lock()

    def submit(self, kind, version, work):
        """Queue ``work(job)`` (it returns the JSON-able result) and return the job."""
        job = Job(str(next(self._ids)), kind, version)
        with self._lock:
            self._jobs[job.id] = job
            for old in list(self._jobs)[:-KEEP]:
                self._jobs.pop(old).cancelled.set()
        self._pool.submit(self._run, job, work)
        return job

    def _run(self, job, work):
        if job.cancelled.is_set():
            job.status = "cancelled"
            return
        job.status = "running"
        job.t0 = time.monotonic()
        try:
            job.result = work(job)
            job.status = "done"
        except Cancelled:
            job.status = "cancelled"
        except InputError as e:
            job.status, job.error = "failed", str(e)
        except Exception as e:  # a bug: said on the page, not a dead worker
            job.status, job.error = "failed", f"internal error: {type(e).__name__}: {e}"

    def get(self, job_id):
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, kind=None, keep=None):
        """Cancel every unfinished job (of ``kind``), but ``keep``."""
        with self._lock:
            for job in self._jobs.values():
                if job.status in ("queued", "running") and kind in (None, job.kind) and job is not keep:
                    job.cancelled.set()

    def close(self):
        self.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
