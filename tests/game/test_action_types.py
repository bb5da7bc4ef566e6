"""Each title declares the action types it accepts (GameRules.action_types); nothing is
added to a shared table when a title is imported, so an action gets the same answer from
`play act` (a fresh process), `play serve` and the web page's game (a process that has
loaded other titles' games first), whatever was loaded before."""

import json
import subprocess
import sys

import pytest

from trainruns.errors import InputError
from trainruns.game.action import ACTIONS, validate
from trainruns.game.game import Game
from trainruns.game.protocol import Session

TITLES = {"1832": ["A", "B", "C"], "1833NE": ["A", "B", "C"], "1831": ["A", "B", "C"]}
# one type of each title's own (docs/game-*.md), unknown to the other two titles
OWN = {"1833NE": {"type": "issue_shares", "corporation": "B&M", "count": 1},
       "1832": {"type": "mortgage", "corporation": "SAL", "asset": "train:2", "amount": 10},
       "1831": {"type": "swap_seats", "player": "A", "with": "B"}}


def _answer(title, action):
    """What the in-process engine says: 'unknown' (bad input, exit 2) or 'known'."""
    try:
        Game(title, TITLES[title], 1).act(action)
    except InputError as e:
        return "unknown" if "unknown action type" in str(e) else "known"
    except Exception:   # a refusal or another complaint about a known type
        return "known"
    return "known"


@pytest.mark.parametrize("title", TITLES)
def test_a_title_knows_only_its_own_types_whatever_was_loaded_before(title):
    for other in TITLES:   # load every title's game first
        Game(other, TITLES[other], 1)
    for owner, action in OWN.items():
        assert _answer(title, action) == ("known" if owner == title else "unknown"), (title, owner)


def test_every_title_declares_undo_and_nothing_is_added_to_the_shared_types():
    before = dict(ACTIONS)
    for title in TITLES:
        assert "undo" in Game(title, TITLES[title], 1).rules.action_types
    assert ACTIONS == before


def test_play_serve_and_play_act_agree_after_another_title_was_loaded(tmp_path):
    """`play serve` that has played an 1833NE game refuses 1833NE's issue_shares in an
    1832 game as an unknown type, as `play act` in a fresh process does (exit 2)."""
    session = Session()
    assert session.handle(json.dumps({"cmd": "new", "title": "1833NE", "players": ["A", "B", "C"]}))["ok"]
    assert session.handle(json.dumps({"cmd": "new", "title": "1832", "players": ["A", "B", "C", "D"]}))["ok"]
    served = session.handle(json.dumps({"cmd": "act", "action": OWN["1833NE"]}))
    assert served["ok"] is False and "unknown action type 'issue_shares'" in served["error"]

    log = tmp_path / "g.json"
    cli = [sys.executable, "-m", "trainruns"]
    env = {"TRAINRUNS_DAEMON": "0", "PATH": ""}
    made = subprocess.run(cli + ["play", "new", "1832", "--players", "A,B,C,D", "--out", str(log)],
                          capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    acted = subprocess.run(cli + ["play", "act", str(log), json.dumps(OWN["1833NE"])],
                           capture_output=True, text=True, env=env)
    assert acted.returncode == 2 and "unknown action type 'issue_shares'" in acted.stderr


def _fields(title):
    return Game(title, TITLES[title], 1).rules.action_types


@pytest.mark.parametrize("title, action, message", [
    # a field without which 1832's rule cannot act is required (docs/game-1832.md "Actions")
    ("1832", {"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL"}, "needs the field 'kind'"),
    ("1832", {"type": "merge", "corporation": "SALR", "with": "ACL", "kind": "system"}, "needs the field 'player'"),
    ("1832", {"type": "redeem", "corporation": "SALR"}, "needs the field 'player'"),
    ("1832", {"type": "reissue", "corporation": "SALR"}, "needs the field 'player'"),
])
def test_declared_fields_are_the_fields_the_title_reads(title, action, message):
    with pytest.raises(InputError, match=message):
        validate(action, _fields(title))


@pytest.mark.parametrize("title, action", [
    ("1831", {"type": "merge", "corporation": "PRR", "with": "NYC", "player": "P0", "kind": "system"}),
    ("1831", {"type": "buy_train", "corporation": "PRR", "from": "bank", "train": "2S", "trade_in": "2S"}),
    ("1833NE", {"type": "buy_private", "corporation": "B&M", "private": "P1", "price": 1, "from": "A"}),
])
def test_a_field_earlier_logs_wrote_is_still_accepted_where_it_is_not_read(title, action):
    """A log of the format ``trainruns-game/1`` that holds such a field still replays
    (docs/game-log.md: a log is never refused by a later command)."""
    validate(action, _fields(title))


def test_1832_keeps_the_fields_only_it_reads():
    fields = _fields("1832")
    validate({"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "D", "trade_in": "4"}, fields)
    validate({"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL", "kind": "system",
              "system": "S1"}, fields)
    validate({"type": "mortgage", "corporation": "SALR", "asset": "train:2", "amount": 10}, fields)
