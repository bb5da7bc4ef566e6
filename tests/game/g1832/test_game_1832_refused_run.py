"""A refused run changes nothing (docs/game-log.md: a Refusal leaves the game as it
was): 1832's Miami section, "the first time in the game it is used on a run", sets
``miami_run`` only once a run to Miami is accepted, not when a run declaring the wrong
revenue is refused."""

from __future__ import annotations

from _1832 import new, operated, refused
from _trains import owned
from trainruns.game.steps.routes import RoutesStep
from trainruns.game.turn import Turn
from trainruns.game.state import LaidTile


def at_the_run():
    """FECR in phase 3 with a 3-train from Jacksonville (J14) down to Miami, nobody
    having run there yet (fixtures/1832/07: Jacksonville 20 + Miami 0 = 20)."""
    g = new()
    s = g.state
    s.phase = "3"
    c = operated(g, "FECR", "A", 100, {})
    assert c.tokens == [("J14", 0)]
    s.tiles = [LaidTile("J14", "57", 2), LaidTile("K15", "9", 2),
               LaidTile("L16", "9", 2)]
    c.trains = owned(g, "3")
    turn = Turn(c.id)
    step = RoutesStep(g, c, turn)
    g.round.queue.insert(0, step)
    step.enter()
    return g, s


def test_a_run_refused_for_its_revenue_leaves_miami_unused_miami_section():
    g, s = at_the_run()
    best = g.actions()[0]
    assert best["routes"] == "best" and not s.title_state.miami_run
    refused(g, dict(best, revenue=999), "run.revenue")
    assert s.title_state.miami_run is False
    assert not any(e["event"] == "miami_run" for e in g.to_json()["events"])
    g.act(dict(best, revenue=20))                  # the run as it earns: Miami now used
    assert s.title_state.miami_run is True
