"""The commands' side of :mod:`trainruns.services.sweep`: ``--workers`` / ``--scheduler`` to a
run of many jobs with a progress bar; a cluster that cannot be reached is bad input
(one line, exit 2)."""

from trainruns.errors import InputError


def run_jobs(fn, jobs, args, bar=None, warm=None):
    """``[fn(job) for job in jobs]``, where the command's options say, in job order;
    ``warm()`` loads here what local workers should start with (trainruns.services.sweep)."""
    from trainruns.services.sweep import SweepError, run_all

    def tick(done, total, result):
        if bar:
            bar.advance(1)

    try:
        return run_all(fn, jobs, workers=getattr(args, "workers", 1), scheduler=getattr(args, "scheduler", None),
                       tick=tick, warm=warm)
    except SweepError as e:
        raise InputError(str(e), "--scheduler" if getattr(args, "scheduler", None) else "--workers") from None
    finally:
        if bar:
            bar.close()
