"""Two CP-SAT searches side by side on one model (route.cpsat.run_with_rival, which the
1831 flow model's parts use: its core-based search beside CP-SAT's search on the linear
relaxation): the first to prove stops the other, and the answer taken is the proof,
else the better solution."""

import pytest

from trainruns.route.cpsat import load_cp_model, run_with_rival


def _pigeons(holes):
    """``holes + 1`` pigeons, each in one of ``holes`` holes, no two in one: infeasible.
    A clause search without presolve or linear relaxation takes exponentially long on
    it; presolve or the relaxation (n + 1 pigeons <= n places) ends it at once."""
    cp_model = load_cp_model()
    model = cp_model.CpModel()
    x = [[model.new_bool_var("") for _ in range(holes)] for _ in range(holes + 1)]
    for row in x:
        model.add_exactly_one(row)
    for j in range(holes):
        model.add_at_most_one(row[j] for row in x)
    return model


def _blind(seconds):
    """A solver that can only search clauses (no presolve, no linear relaxation)."""
    solver = load_cp_model().CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0
    solver.parameters.symmetry_level = 0
    solver.parameters.max_time_in_seconds = seconds
    return solver


@pytest.mark.parametrize("rival_proves", [True, False])
def test_the_side_that_proves_first_stops_the_other_and_gives_the_answer(rival_proves):
    # one side can only search clauses (600 s of it would not do); the other's presolve
    # proves at once, often before the blind side has begun, whose stop is then asked
    # again until it ends
    cp_model = load_cp_model()
    prover = cp_model.CpSolver()
    prover.parameters.num_workers = 1
    solver, rival = (_blind(600.0), prover) if rival_proves else (prover, _blind(600.0))
    status, winner = run_with_rival(solver, _pigeons(14), rival)
    assert status == cp_model.INFEASIBLE and winner is prover
    blind = solver if rival_proves else rival
    assert blind.wall_time < 300.0   # stopped by the proof, not by its own limit


def _placed():
    """Pigeons placed, at most one a hole, maximised: 14 of 15."""
    cp_model = load_cp_model()
    model = cp_model.CpModel()
    x = [[model.new_bool_var("") for _ in range(14)] for _ in range(15)]
    for row in x:
        model.add_at_most_one(row)
    for j in range(14):
        model.add_at_most_one(row[j] for row in x)
    model.maximize(sum(v for row in x for v in row))
    return model


def _first(seed=0):
    """A blind solver that stops at its first solution, which it cannot prove best."""
    solver = _blind(60.0)
    solver.parameters.stop_after_first_solution = True
    solver.parameters.random_seed = seed
    return solver


def test_without_a_proof_the_solution_worth_more_is_taken():
    # both stop at a first solution (the one that ends first stops the other, as both
    # would at a shared limit): the answer is the one of them worth more
    cp_model = load_cp_model()
    found = (cp_model.FEASIBLE, cp_model.OPTIMAL)
    for seed in range(6):
        solver, rival = _first(seed), _first(seed + 10)
        status, winner = run_with_rival(solver, _placed(), rival)
        ended = [s for s in (solver, rival) if s.response_proto.status in found]
        assert status == cp_model.FEASIBLE and winner in ended
        assert winner.objective_value == max(s.objective_value for s in ended)
