"""Build the extension module of :mod:`trainruns.route.kernels.aot` with numba's
ahead-of-time compiler (:class:`numba.pycc.CC`: the numba kernels' own code, through
the same compiler, linked with numba's runtime and a C compiler into a module that
needs numpy only).

    python -m trainruns.route.kernels.aot_build FOLDER NAME PATH

Run by :func:`trainruns.route.kernels.aot.build` in a process of its own. One build at a
time per folder (a lock file); the module is written elsewhere and renamed into
``PATH``, so no process ever loads half a file.

Each entry point is a small wrapper (:func:`_nogil`) that releases the GIL around the
kernel, as ``@njit(nogil=True)`` does: the numba compiler's own flag for it is not
reachable through :mod:`numba.pycc`, so the wrapper calls CPython's
``PyEval_SaveThread`` / ``PyEval_RestoreThread`` (its public C API) through two numba
intrinsics. An exception inside the kernel is caught, the GIL taken back, and then
raised as a MemoryError: allocating their arrays is the only way these kernels fail
(they raise nothing themselves, and no integer division in them can divide by 0).
"""

import fcntl
import importlib
import inspect
import os
import shutil
import sys
import tempfile

from trainruns.route.kernels import aot


def _gil_intrinsics():
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    ptr = ir.IntType(8).as_pointer()

    @intrinsic
    def save_thread(typingctx):
        def codegen(context, builder, signature, args):
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ptr, []), "PyEval_SaveThread")
            return builder.call(fn, [])

        return types.voidptr(), codegen

    @intrinsic
    def restore_thread(typingctx, state):
        def codegen(context, builder, signature, args):
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [ptr]),
                                                "PyEval_RestoreThread")
            builder.call(fn, [args[0]])
            return context.get_dummy_value()

        return types.void(types.voidptr), codegen

    return save_thread, restore_thread


ENTRY = '''
def entry({args}):
    state = save_thread()
    try:
        out = kernel({call})
        ok = True
    except Exception:
        ok = False
    restore_thread(state)
    if not ok:
        raise MemoryError("{name}: out of memory")
    return out
'''


# the most arguments CPython passes to a call one by one (its STACK_USE_GUIDELINE)
CALL_ARGS = 30


def _nogil(kernel, name, intrinsics):
    """``kernel`` (a numba dispatcher) run with the GIL released (module docstring);
    written out with the kernel's own parameters, as the compiler wants them named."""
    names = list(inspect.signature(kernel.py_func).parameters)
    call = ", ".join(names)
    if len(names) > CALL_ARGS:
        # CPython builds a longer call through a list (LIST_TO_TUPLE), which numba does
        # not compile: the arguments go as a sum of short tuples, unpacked
        parts = [names[i:i + CALL_ARGS // 2] for i in range(0, len(names), CALL_ARGS // 2)]
        call = "*(" + " + ".join(f"({', '.join(p)},)" for p in parts) + ")"
    space = {"kernel": kernel, "save_thread": intrinsics[0], "restore_thread": intrinsics[1]}
    exec(ENTRY.format(args=", ".join(names), call=call, name=name), space)  # noqa: S102 (our own template)
    return space["entry"]


def build(folder: str, name: str, path: str):
    import warnings

    warnings.simplefilter("ignore")  # (numba.pycc is marked for a future deprecation)
    from numba.core import sigutils
    from numba.pycc import CC

    intrinsics = _gil_intrinsics()
    cc = CC(name)
    # this machine's instructions (popcount among them), as numba's own kernels use: the
    # generic target made the hard family's heaviest solve 20% slower; the key
    # (aot.key) names the processor, so another machine builds its own
    cc.target_cpu = "host"
    work = tempfile.mkdtemp(prefix="trainruns-aot-", dir=folder)
    try:
        cc.output_dir = work
        cc.output_file = os.path.basename(path)
        for module, kernel_name, codes in aot.EXPORTS:
            kernel = getattr(importlib.import_module(f"trainruns.{module}"), kernel_name)
            args, _ = sigutils.normalize_signature(
                "void(" + ", ".join(aot.CODES[c][0] for c in codes.split()) + ")")
            # (the arguments only: the compiler infers what the kernel returns)
            cc.export(kernel_name, tuple(args))(_nogil(kernel, kernel_name, intrinsics))
        cc.compile()
        os.replace(os.path.join(work, cc.output_file), path)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _clean(folder: str, keep: str):
    """Remove modules built from older code (each rebuild of changed kernels would leave one)."""
    from importlib.machinery import EXTENSION_SUFFIXES

    prefix = aot.module_name("")
    for entry in os.listdir(folder):
        full = os.path.join(folder, entry)
        if entry.startswith(prefix) and full != keep and entry.endswith((EXTENSION_SUFFIXES[0], ".failed")):
            try:
                os.remove(full)
            except OSError:
                pass


def main(argv):
    folder, name, path = argv
    with open(os.path.join(folder, f"{aot.module_name('')}build.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building waits, then finds it built
        if not os.path.exists(path):
            build(folder, name, path)
            _clean(folder, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
