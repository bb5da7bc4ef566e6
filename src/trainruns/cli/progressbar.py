"""A small progress bar on stderr for commands that run many solves (bench, whatif).

tqdm is not a dependency; this draws one updating line on a terminal and nothing
when stderr is not a terminal (so logs and pipes stay clean), unless forced.
"""

import sys
import time


class ProgressBar:
    """``[#####.....] 12/40  3.1s  label`` on one line, redrawn at most 20 times a second."""

    def __init__(self, total, label="", stream=None, enabled=None, width=30):
        self.total = max(int(total), 0)
        self.done = 0
        self.label = label
        self.stream = stream or sys.stderr
        tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.enabled = tty if enabled is None else enabled
        self.width = width
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def advance(self, n=1, label=None):
        self.done += n
        if label is not None:
            self.label = label
        now = time.perf_counter()
        # redraw rarely: a bar that costs more than the work it reports is no help
        if self.enabled and (now - self.last > 0.05 or self.done >= self.total):
            self.last = now
            self._draw(now - self.t0)

    def _draw(self, elapsed):
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(frac * self.width))
        bar = "#" * filled + "." * (self.width - filled)
        text = f"[{bar}] {self.done}/{self.total} {elapsed:5.1f}s {self.label}"[:120]
        self.stream.write("\r\x1b[K" + text)
        self.stream.flush()
        self.shown = True

    def close(self):
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
