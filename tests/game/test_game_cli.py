"""`trainruns play` and `trainruns replay` as docs/game-log.md fixes them: exit 0 with
the state, 1 with {"index", "rule", "message"} for an illegal action (log unchanged),
2 with one line on stderr for bad input; `play serve` answers one line per request."""

import io
import json

import pytest

from trainruns.cli.main import main
from trainruns.game.protocol import serve


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_act_refuse_undo_replay(tmp_path, capsys):
    log = str(tmp_path / "g.json")
    code, out, _ = run(capsys, "play", "new", "1832", "--players", "A,B,C", "--out", log)
    assert code == 0 and json.loads(out)["active"] == {"player": "A"}
    code, out, _ = run(capsys, "play", "act", log, '{"type": "buy_private", "player": "A", "private": "P1"}')
    assert code == 0 and json.loads(out)["players"][0]["cash"] == 680
    before = open(log).read()
    code, out, _ = run(capsys, "play", "act", log, '{"type": "buy_private", "player": "B", "private": "P3"}')
    assert code == 1 and json.loads(out) == {"index": 1, "rule": "auction.not-cheapest", "message": json.loads(out)[
        "message"]}
    assert open(log).read() == before
    code, out, err = run(capsys, "play", "act", log, '{"type": "fly", "player": "B"}')
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "play", "act", log, '{"type": "undo"}')
    assert code == 0 and json.loads(out)["players"][0]["cash"] == 700
    code, out, _ = run(capsys, "replay", log, "--upto", "1")
    assert code == 0 and json.loads(out)["actions_applied"] == 1
    code, out, _ = run(capsys, "play", "actions", log)
    assert code == 0 and json.loads(out)["active"] == {"player": "A"}


def test_bad_setup_and_unknown_ids_are_exit_2(tmp_path, capsys):
    assert run(capsys, "play", "new", "1832", "--players", "A")[0] == 2
    assert run(capsys, "play", "new", "1899", "--players", "A,B")[0] == 2
    log = str(tmp_path / "g.json")
    run(capsys, "play", "new", "1832", "--players", "A,B", "--out", log)
    assert run(capsys, "play", "act", log, '{"type": "bid", "player": "Z", "private": "P2", "price": 45}')[0] == 2
    assert run(capsys, "play", "position", log)[0] == 2       # nobody operates yet
    code, out, _ = run(capsys, "play", "position", log, "--corporation", "SAL")
    assert code == 0 and json.loads(out)["corporation"] == "SALR"


@pytest.mark.parametrize("title", ["1831", "1832", "1833NE"])
def test_a_position_names_a_corporation_while_none_operates_in_every_title(tmp_path, capsys, title):
    # the same command gets the same answer whatever the title: before any operating
    # round no company operates, so a position with none named, or named '', is bad
    # input (1831 used to answer with its first company's)
    log = str(tmp_path / "g.json")
    assert run(capsys, "play", "new", title, "--players", "A,B,C", "--out", log)[0] == 0
    for argv in ([], ["--corporation", ""], ["--corporation", "NOPE"]):
        code, out, err = run(capsys, "play", "position", log, *argv)
        assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1, (argv, err)
    first = json.loads(run(capsys, "play", "new", title, "--players", "A,B,C")[1])["corporations"][0]["id"]
    code, out, _ = run(capsys, "play", "position", log, "--corporation", first)
    assert code == 0 and json.loads(out)["corporation"] == first


def test_serve_answers_every_line_and_keeps_the_game_on_errors():
    lines = ['{"cmd": "new", "title": "1832", "players": ["A", "B"], "seed": 3}', "not json",
             '{"cmd": "act", "action": {"type": "bid", "player": "A", "private": "P2", "price": 1}}',
             '{"cmd": "actions"}', '{"cmd": "log"}']
    out = io.StringIO()
    assert serve(io.StringIO("\n".join(lines) + "\n"), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [True, False, False, True, True]
    assert replies[2]["rule"] == "auction.bid-low"
    assert replies[3]["active"] == {"player": "A"} and replies[4]["log"]["actions"] == []


def test_a_variant_named_twice_is_kept_once_and_a_logs_bad_variant_names_the_log(tmp_path, capsys):
    log = tmp_path / "g.json"
    assert run(capsys, "play", "new", "1832", "--players", "A,B", "--variant", "diesels", "--variant", "diesels",
               "--out", str(log))[0] == 0
    assert json.loads(log.read_text())["variants"] == ["diesels"]
    # a variant the title does not know, in a log: the line names the log it came from
    data = json.loads(log.read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(data, variants=["warp_speed"])))
    code, out, err = run(capsys, "play", "actions", str(bad))
    assert (code, out) == (2, "") and str(bad) in err and "warp_speed" in err and len(err.strip().splitlines()) == 1
