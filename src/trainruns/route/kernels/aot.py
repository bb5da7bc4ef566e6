"""The kernels a plain solve runs, and those of 1831's route model
(titles/g1831/route/numba_kernels.py), compiled ahead of time into one extension module.

Importing numba (0.15-0.2 s) and loading its cached kernels (0.25 s, most of it numba
setting up its compiler at the first cache load) would come before every in-process
answer.
The same kernels, compiled once by numba's ahead-of-time compiler
(:mod:`numba.pycc`, :mod:`trainruns.route.kernels.aot_build`) into an extension module,
load in about a millisecond and need numpy only, not numba.

The module is built on first use (:func:`trainruns.route.kernels.warm_up`), in a separate
process, into this installation's ``kernels/__pycache__`` (where numba keeps its own
cache; a user cache folder when that is not writable). Its name carries :func:`key`: a
hash of every kernel source here, of the interpreter and of the numpy, numba and
llvmlite installed, so a module built from other code is never loaded (no stale
answers); a failed build is recorded under the same key and not tried again; the
numba kernels (``@njit``) answer then, as they do with ``TRAINRUNS_AOT=0``.

The extension's entry points unbox numpy arrays without checking their element type
or layout, so each call is checked here first (:func:`checked`): an argument of
another type, layout or a read-only one goes to the numba kernel, which compiles for
whatever it is given. Each entry releases the GIL while it runs, as the ``nogil``
kernels do (the listing's threads and its stop flag rely on it).
"""

import os
import sys

import numpy as np

# The kernels compiled ahead of time, each (its module, from the package trainruns; its
# name; its arguments): the plain solve's, and 1831's route model's (one module, one
# build). An argument code: "i" an int64 scalar, "b" a bool, "I"/"I2"/"I3" a
# C-contiguous int64 array of 1, 2 or 3 dimensions, "U"/"U2" uint64 of 1 or 2, "B"/"B2"
# bool of 1 or 2: what the callers pass (the numba kernels' own signatures after a
# solve; tests/route/test_aot.py checks them).
G1831 = "titles.g1831.route.numba_kernels"
EXPORTS = (
    ("route.kernels.routes", "enumerate_routes", "I I I U2 B B B i i I I I I U2 i I"),
    ("route.kernels.values", "route_values", "I I i I B B I I I B2 I2"),
    ("route.kernels.assign", "branch_and_bound", "I I B I I U2 U2 B I2 I I I I2 I2 I I I U2 I I I I i I i"),
    ("route.kernels.assign", "open_bound", "I I I"),
    ("route.kernels.estimate", "estimate_routes", "i I I U2 B B B i i i i"),
    (G1831, "token_paths", "I I U2 I I B B I I I I I U2 i i I I2 I3 I I I I I I I I I U I2 I I I I"),
    (G1831, "token_sequences", "I I I B i I I U"),
    (G1831, "same_sequence", "I I I"),
    (G1831, "best_counts", "I I I I I I I I I I I b i I3"),
    (G1831, "assign_covering", "I I B I I I U2 I i I i B I"),
    (G1831, "popcounts", "U2"),
    (G1831, "assign_by_value", "I I B I I I I I U2 U2 i I B"),
    (G1831, "best_token_line", "I2 I i i I I i i"),
    (G1831, "token_reach", "I2 I2 I i I I i I"),
    (G1831, "assign_priced", "I I B I I I U2 i i i I i I"),
    (G1831, "cheapest_walks", "I2 I2 I"),
    (G1831, "best_commuter_run", "I I2 I I I I i I"),
)
# modules outside this folder whose code is compiled in without being exported: the
# the constants numba_kernels.py takes (1831's kernel_arrays.py) and the module that
# chooses its kernels
ALSO = ("titles.g1831.route.kernels", "titles.g1831.route.kernel_arrays")
# code: (numba type at the build, numpy dtype, dimensions; 0 for a scalar)
CODES = {
    "i": ("int64", None, 0),
    "b": ("boolean", np.dtype(np.bool_), 0),
    "I": ("int64[::1]", np.dtype(np.int64), 1),
    "I2": ("int64[:, ::1]", np.dtype(np.int64), 2),
    "I3": ("int64[:, :, ::1]", np.dtype(np.int64), 3),
    "U": ("uint64[::1]", np.dtype(np.uint64), 1),
    "U2": ("uint64[:, ::1]", np.dtype(np.uint64), 2),
    "B": ("boolean[::1]", np.dtype(np.bool_), 1),
    "B2": ("boolean[:, ::1]", np.dtype(np.bool_), 2),
}
# kernel name -> its module (each name once in the compiled module)
HOME = {name: module for module, name, _ in EXPORTS}
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.dirname(HERE))  # the package trainruns, where the modules of EXPORTS outside this folder are
# the packages whose code goes into the module (numpy: its C interface)
COMPILERS = ("numba", "llvmlite")

_module = False  # not looked for yet; then the loaded module, or None


def enabled() -> bool:
    """``TRAINRUNS_AOT=0`` keeps to the numba kernels."""
    return os.environ.get("TRAINRUNS_AOT", "1") != "0"


def _stamp(package: str) -> bytes:
    """Which installation of ``package`` (its folder, and the size and time of its
    ``__init__.py`` and version file), found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.origin:
        return f"{package}: none".encode()
    parts = [package, spec.origin]
    for name in ("__init__.py", "_version.py", "version.py"):
        try:
            st = os.stat(os.path.join(os.path.dirname(spec.origin), name))
        except OSError:
            continue
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\0".join(parts).encode()


def _processor() -> bytes:
    """Which processor this is (the module is built for its instructions): its model
    and flags from ``/proc/cpuinfo`` where there is one, else what ``platform`` says."""
    try:
        with open("/proc/cpuinfo", "rb") as fh:
            text = fh.read(1 << 16)
        first = text.split(b"\n\n", 1)[0]
        return b"\n".join(line for line in first.splitlines()
                          if line.split(b":", 1)[0].strip() in (b"vendor_id", b"model name", b"flags", b"Features"))
    except OSError:
        import platform

        return f"{platform.machine()}\0{platform.processor()}".encode()


def sources() -> list[str]:
    """The files the module is compiled from: every kernel source in this folder (this
    file and the build's included), and the modules of :data:`EXPORTS` and
    :data:`ALSO` outside it."""
    out = [os.path.join(HERE, name) for name in sorted(os.listdir(HERE)) if name.endswith(".py")]
    for module in sorted({m for m, _, _ in EXPORTS if not m.startswith("route.kernels.")} | set(ALSO)):
        out.append(os.path.join(PACKAGE, *module.split(".")) + ".py")
    return out


def key() -> str:
    """What the module is built from: its :func:`sources`, the interpreter, numpy,
    numba and llvmlite, and the processor (the module uses its instructions)."""
    import hashlib
    from importlib.machinery import EXTENSION_SUFFIXES

    h = hashlib.sha256()
    for path in sources():
        with open(path, "rb") as fh:
            h.update(os.path.basename(path).encode() + b"\0" + fh.read() + b"\0")
    h.update(f"{sys.version}\0{EXTENSION_SUFFIXES[0]}\0{np.__version__}\0".encode())
    h.update(_processor() + b"\0")
    for package in COMPILERS:
        h.update(_stamp(package) + b"\0")
    return h.hexdigest()[:20]


def folder() -> str:
    """Where the module lives: ``kernels/__pycache__`` of this installation, or a user
    cache folder when that cannot be written."""
    own = os.path.join(HERE, "__pycache__")
    try:
        os.makedirs(own, exist_ok=True)
        if os.access(own, os.W_OK):
            return own
    except OSError:
        pass
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "trainruns", "kernels")


def module_name(k: str) -> str:
    return f"_aot_{k}"


def paths(k: str | None = None) -> tuple[str, str, str]:
    """(the module's file, the file recording a failed build, the folder)."""
    from importlib.machinery import EXTENSION_SUFFIXES

    k = k or key()
    where = folder()
    name = module_name(k)
    return os.path.join(where, name + EXTENSION_SUFFIXES[0]), os.path.join(where, name + ".failed"), where


def _import(path: str, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"trainruns.route.kernels.{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load():
    """The compiled module of the current code, if built (else None); looked for once
    per process."""
    global _module
    if _module is not False:
        return _module
    _module = None
    if not enabled():
        return None
    k = key()
    path, _, _ = paths(k)
    if os.path.exists(path):
        try:
            _module = _import(path, module_name(k))
        except ImportError:
            _module = None  # (unreadable: rebuilt by the next build)
    return _module


def failed() -> str | None:
    """Why the build of the current code failed, if it did."""
    _, marker, _ = paths()
    try:
        with open(marker, encoding="utf-8", errors="replace") as fh:
            return fh.read() or "failed"
    except OSError:
        return None


def build():
    """Build the module of the current code (a few seconds; in a process of its own, so
    the compiler's output never mixes with a command's), then load it. None when it
    cannot be built here (no C compiler, no numba.pycc): recorded, not tried again for
    this code, and the numba kernels answer. An interrupted build records nothing."""
    global _module
    import subprocess

    if not enabled() or failed() is not None:
        return None
    k = key()
    path, marker, where = paths(k)
    os.makedirs(where, exist_ok=True)
    # the build imports this very package: a process started with another trainruns
    # first on its path (a second checkout beside an installed one) must not compile
    # that one's kernels under this code's key
    top = os.path.dirname(PACKAGE)
    env = dict(os.environ, PYTHONWARNINGS="ignore",
               PYTHONPATH=os.pathsep.join([top] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    # the compiler's output goes to a file, not a pipe: a build outlives a command that
    # stops at its deadline (kernels.ready_by), and finishes for the next one
    log = os.path.join(where, f"build-{os.getpid()}.log")
    with open(log, "wb") as out:
        p = subprocess.run([sys.executable, "-m", "trainruns.route.kernels.aot_build", where, module_name(k), path],
                           stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env, check=False)
    with open(log, "rb") as fh:
        text = fh.read()[-4000:].decode(errors="replace")
    os.remove(log)
    if p.returncode < 0:
        return None  # a signal (Ctrl-C): try again next time
    if p.returncode != 0 or not os.path.exists(path):
        with open(marker, "w", encoding="utf-8") as fh:
            fh.write(f"exit {p.returncode}\n{text}")
        return None
    _module = False
    module = load()
    if module is None:
        with open(marker, "w", encoding="utf-8") as fh:
            fh.write(f"built {path} but it does not load\n")
    return module


def checked(name: str, compiled, fallback):
    """``compiled`` (the entry of kernel ``name`` in the module) behind the check of
    its arguments (module docstring); ``fallback()`` gives the numba kernel."""
    codes = next(c for _, n, c in EXPORTS if n == name).split()
    wanted = tuple(CODES[c][1:] for c in codes)
    n_args = len(wanted)
    ndarray = np.ndarray
    integer = (int, np.integer)

    def call(*args):
        if len(args) == n_args:
            for a, (dtype, ndim) in zip(args, wanted):
                if ndim == 0:
                    if dtype is None:
                        if not isinstance(a, integer) or isinstance(a, (bool, np.bool_)):
                            break
                    elif not isinstance(a, (bool, np.bool_)):
                        break
                elif (type(a) is not ndarray or a.dtype != dtype or a.ndim != ndim
                      or not a.flags.c_contiguous or not a.flags.writeable or not a.flags.aligned):
                    break
            else:
                return compiled(*args)
        return fallback()(*args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{name}, compiled ahead of time (trainruns.route.kernels.aot)"
    return call


def jit(name: str):
    """The numba kernel ``name`` of :data:`EXPORTS` (its module imported: numba too)."""
    import importlib

    return getattr(importlib.import_module(f"trainruns.{HOME[name]}"), name)


def kernel(name: str):
    """The kernel ``name`` of :data:`EXPORTS` a caller runs: the compiled one behind the
    check of its arguments when the module of the current code is built (:func:`load`),
    else the numba kernel."""
    module = load()
    if module is None:
        return jit(name)
    return checked(name, getattr(module, name), lambda: jit(name))


def attributes(namespace: dict, names):
    """A module's ``__getattr__`` (PEP 562) giving the kernels ``names`` of
    :data:`EXPORTS`: each chosen at its first use in the process (:func:`kernel`), then
    kept in the module's ``namespace``."""
    module = namespace["__name__"]

    def __getattr__(name):
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        namespace[name] = kernel(name)
        return namespace[name]

    return __getattr__
