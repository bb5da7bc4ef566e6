"""How a long search reports its progress: the stages call ``progress.update``; the
command prints it (:mod:`trainruns.cli.progress`), the web page keeps the latest
(:mod:`trainruns.serve.jobs`), the API passes nothing."""


class Progress:
    """Receives progress of a long search; the command prints it, the API ignores it.

    Stages: ``compile`` (chains, steps), ``quick`` (best, bound: the quick run),
    ``kernels`` (seconds the kernels took to load), ``routes`` (routes, roots_done,
    roots; seconds while a root is being listed), ``assign`` (nodes, best, bound: an
    upper bound valid for the whole board), ``cpsat`` (model, seconds), ``proof`` (best,
    bound: :mod:`trainruns.route.proof` past a cut route set)."""

    def update(self, stage: str, **info):  # pragma: no cover - interface
        pass
