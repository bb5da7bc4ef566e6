"""1833NE rules summary, "Train list and prices": both sides of each card, N/M and N+s
trains on the real map, phased-out trains that still run once, removed trains refused."""

import pytest
from _1833ne import fixture, run

from trainruns import InputError, load_position


def test_train_list_n_m_side_counts_best_n():
    """"An N/M train visits up to M locations and counts N of them": the 3/5 runs
    Boston 30 - Lowell 20 - St. Jean 10 - Montreal 30 and counts 30+30+20, plus the
    Boston-Montreal bonus of phase II ($150)."""
    revenue, routes = run(fixture("boston_montreal"))
    assert revenue == 80 + 150
    assert routes[0][1] == ["G22.1", "G20.0", "C4.0", "B3.0"]


def test_train_list_n_plus_s_side_counts_n_plus_towns():
    """"An N+s train counts N locations plus up to s small cities": the 2+2 (other side
    of the 3/5 card) may not reach Montreal, a third non-town; it runs Boston-Lowell-St.
    Jean, every stop counted."""
    revenue, routes = run(fixture("boston_montreal", trains=["2+2"]))
    assert revenue == 60
    assert routes[0][1] == ["G22.1", "G20.0", "C4.0"]


@pytest.mark.parametrize("train, revenue", [("2", 50), ("2+1", 60)])
def test_train_list_phase_i_card_sides(train, revenue):
    """Phase I card: "2" (Boston-Lowell) or "2+1" (Boston-Lowell-St. Jean)."""
    assert run(fixture("boston_montreal", phase="I", trains=[train]))[0] == revenue


def test_train_list_n_m_counts_the_token_city():
    """N/M "counts N of them (at least one with its own token)": the Rutland Railroad's
    only token is P6's A12; its 3/5 counts A12 ($40, the route reaches Montreal) with
    Montreal 50 and Westport 20."""
    assert run(fixture("delaware_hudson"))[0] == 40 + 50 + 20


def test_train_list_phased_out_train_still_runs_and_is_off_limit():
    """Phase III: phase I trains are phased out; they run once more and do not count
    against the limit of 3. With 2, 3/5, 4/7, 3+3 the B&L runs four trains."""
    pos = fixture("boston_montreal", phase="III", trains=["2", "3/5", "4/7", "3+3"])
    load_position(pos)  # not over the limit: the 2 is phased out
    revenue, routes = run(pos)
    assert revenue == 30 + 30 + 20 + 10 + 200  # one line of track: the 4/7 runs it all
    assert run(fixture("boston_montreal", phase="III", trains=["2"]))[0] == 50  # runs once more
    with pytest.raises(InputError, match="limit"):
        load_position(fixture("boston_montreal", phase="III", trains=["3/5", "4/7", "3+3", "4/7"]))


@pytest.mark.parametrize("phase, train", [("IV", "2"), ("IV", "2+1"), ("V", "3/5"), ("V", "2+2")])
def test_train_list_removed_trains_are_refused(phase, train):
    """Phase IV removes phase I trains; phase V removes phase II trains."""
    with pytest.raises(InputError, match=f"removed at the start of phase {phase}"):
        load_position(fixture("boston_montreal", phase=phase, trains=[train]))


@pytest.mark.parametrize("phase, train", [("I", "3/5"), ("II", "3+3"), ("III", "6/9"), ("IV", "7+3")])
def test_train_list_trains_not_yet_out_are_refused(phase, train):
    """A card is bought from its own phase on."""
    with pytest.raises(InputError, match="no .*-train exists in phase"):
        load_position(fixture("boston_montreal", phase=phase, trains=[train]))


@pytest.mark.parametrize("train", ["3", "4/6", "2+3", "D", 3])
def test_train_list_sides_that_do_not_exist(train):
    """Only the sides printed on the cards exist."""
    with pytest.raises(InputError, match="unknown train"):
        load_position(fixture("boston_montreal", trains=[train]))


def test_train_list_limit_iv_v_is_two():
    """Train limit 2 in phases IV-V (Standard game); the Takeover game's limit comes
    from its table plus one per takeover."""
    with pytest.raises(InputError, match="limit, which is 2 in phase IV"):
        load_position(fixture("boston_montreal", phase="IV", trains=["6/9", "4/7", "3+3"]))
    load_position(fixture("boston_montreal", phase="IV", trains=["6/9", "4/7", "3/5"]))  # 3/5 phased out
    with pytest.raises(InputError, match="limit, which is 1 in phase IV"):
        load_position(fixture("boston_montreal", phase="IV", trains=["6/9", "4/7"], takeover_game=True))
    load_position(fixture("boston_montreal", phase="IV", trains=["6/9", "4/7"], takeover_game=True,
                          takeovers=1))


def test_over_the_limit_only_in_a_position_before_the_discard():
    """A company over its limit holds the excess until its president discards it (the
    rules are silent; as 1832 [10.2.1]: docs/gaps.md): a game's position says so with
    ``must_discard``, and all its trains run; saying it of a company within its limit
    is bad input."""
    over = fixture("boston_montreal", phase="IV", trains=["6/9", "4/7", "3+3"])
    with pytest.raises(InputError, match="must_discard"):
        load_position(over)
    assert len(load_position(dict(over, must_discard=True)).trains) == 3
    from trainruns.services.whatif import train_candidates

    assert train_candidates(dict(over, must_discard=True)) == []   # the discard comes first
    with pytest.raises(InputError, match="within the limit of 2"):
        load_position(fixture("boston_montreal", phase="IV", trains=["6/9", "4/7"], must_discard=True))
