"""CP-SAT on the 1831 flow model, apart from the rest of a solve (issue 33).

    python benchmarks/flow_cpsat.py export BOARD.json OUT.txt [SECONDS]
    python benchmarks/flow_cpsat.py time OUT.txt SECONDS [param=value ...]

``export`` solves BOARD as ``trainruns solve --time-limit SECONDS`` does (10 by
default) and writes each CP-SAT model the 1831 flow model hands over (titles/g1831/
route/flow.py: its hint, and its cap at the track prices' bound, included) as text,
OUT.txt, OUT.1.txt, ... ``time`` solves one such model with the parameters a
solve gives its parts (``flow.PART_WORKERS`` workers, ``PART_LINEARIZATION``,
``PART_SUBSOLVERS``) but for the ``param=value`` pairs given (SatParameters' text
format, e.g. ``num_workers=3 'subsolvers="max_lp"'``: subsolvers given replace the
parts'; ``portfolio`` leaves CP-SAT its own choice of them) and prints its status,
run, bound and times. So a change of parameters is measured on the same model, the
first run and the prices left out (benchmarks/README.md, "what did not shorten CP-SAT's
proof").
"""

from __future__ import annotations

import sys
import time


def export(board: str, out: str, seconds: str = "10") -> None:
    from trainruns.cli.launch import main
    from trainruns.route import cpsat

    run_solver = cpsat.run_solver
    written = []

    def exporting(solver, model, *args, **kwargs):
        name = out if not written else f"{out.removesuffix('.txt')}.{len(written)}.txt"
        model.export_to_file(name)   # ".txt": the text format
        written.append(name)
        return run_solver(solver, model, *args, **kwargs)

    cpsat.run_solver = exporting   # flow.py imports run_solver when it solves
    sys.argv = ["trainruns", "solve", board, "--time-limit", seconds, "--quiet"]
    try:
        main()
    except SystemExit:
        pass
    print("written:", ", ".join(written) or "none (the board did not reach the flow model)")


def time_model(path: str, seconds: str, *params: str) -> None:
    from ortools.sat.python import cp_model

    from trainruns.titles.g1831.route.flow import PART_LINEARIZATION, PART_SUBSOLVERS, PART_WORKERS

    model = cp_model.CpModel()
    with open(path) as f:
        model.proto.parse_text_format(f.read())
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(seconds)
    # as the solve sets them for its parts (the whole model: num_workers=8, CP-SAT's defaults)
    solver.parameters.num_workers = PART_WORKERS
    solver.parameters.linearization_level = PART_LINEARIZATION
    if "portfolio" not in params and not any(p.startswith("subsolvers") for p in params):
        solver.parameters.subsolvers.extend(PART_SUBSOLVERS)
    params = [p for p in params if p != "portfolio"]
    if params:
        solver.parameters.merge_text_format(" ".join(p.replace("=", ": ", 1) for p in params))
    wall, cpu = time.perf_counter(), time.process_time()
    status = solver.solve(model)
    print(" ".join(params) or "as a part", solver.status_name(status), int(solver.objective_value),
          int(solver.best_objective_bound), f"{time.perf_counter() - wall:.1f} s wall",
          f"{time.process_time() - cpu:.1f} s CPU")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "export":
        export(*sys.argv[2:5])
    elif len(sys.argv) >= 4 and sys.argv[1] == "time":
        time_model(*sys.argv[2:])
    else:
        sys.exit(__doc__)
