"""Progress of a long search on the terminal (stderr), only once it takes a while."""

import sys
import time

from trainruns.route.progress import Progress


class TerminalProgress(Progress):
    """Shows nothing for the first second; then one updating line on a terminal, or a
    line every few seconds when stderr is a file."""

    def __init__(self, stream=None, delay=1.0, every=5.0, start=None):
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter() if start is None else start
        self.delay = delay
        self.every = every
        self.last = 0.0
        self.shown = False
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, stage, **info):
        now = time.perf_counter() - self.t0
        if stage == "kernels":
            kernels_notice(self.stream, info["seconds"], info.get("ready", True))
            return
        if now < self.delay or (not self.tty and self.shown and now - self.last < self.every):
            return
        self.last = now
        if stage == "routes":
            text = f"routes: {info['routes']:,} from {info['roots_done']}/{info['roots']} tokens"
            if "seconds" in info:
                text += f", listing token {info['roots_done'] + 1}"
        elif stage == "compile":
            text = f"compiling the track: {info['chains']:,} chains so far"
        elif stage == "cpsat":
            text = f"CP-SAT {info['model']}: {info['seconds']:.0f} s"
        elif stage == "quick":
            text = f"quick run: {info['best']}, bound {info['bound']}"
        elif stage == "proof":
            text = f"proof: best {info['best']}, bound {info['bound']}"
        else:
            text = f"search: {info['nodes']:,} nodes, best {info['best']}, bound {info['bound']}"
        text = f"[{now:6.1f}s] {text}"
        if self.tty:
            self.stream.write("\r\x1b[K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True

    def close(self):
        if self.shown and self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def kernels_notice(stream, took, ready=True):
    """Say so when the first run on a machine compiled the kernels (it takes a while),
    or is still compiling them when the time limit ran out (``ready`` False)."""
    if not ready:
        stream.write("trainruns: the search kernels are being compiled for this machine (once; a minute or "
                     "so) and were not ready within the time limit: no run found, not proven\n")
        return
    if took > 2:
        stream.write(f"trainruns: compiled the search kernels in {took:.0f} s "
                     "(once per machine; later runs load them)\n")
