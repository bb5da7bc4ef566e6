"""OR-Tools' ``cp_model`` imported ahead on a thread (route.cpsat.preload_cp_model, which
the 1831 flow model starts beside its first run's kernels): a caller that loads it
meanwhile gets the whole module, never the half-imported one that ``sys.modules``
holds while the thread runs."""

import subprocess
import sys

CODE = """
import sys, time
from trainruns.route.cpsat import load_cp_model, preload_cp_model
preload_cp_model()
while "ortools.sat.python.cp_model" not in sys.modules:  # the import under way
    time.sleep(0.0005)
m = load_cp_model()
print(m.CpModel.__name__, m.CpSolver.__name__)
"""


def test_a_module_loaded_while_its_preload_runs_is_whole():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["CpModel", "CpSolver"]
