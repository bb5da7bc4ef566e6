"""A game log nothing can corrupt: the ``play`` commands as strict as
``solve``. Every action field mutated (misspelled, missing, wrong type, NaN, huge,
negative, nested), every log entry mutated, through the Python API, the command line,
``play serve`` and the web page's HTTP interface: each is refused (exit 2 and one line,
or an illegal action's rule id), and the log stays byte for byte what it was. Deals,
rotations and revenues are taken as they are said or not at all; seeds and names that
could not be read back are refused; the log file is written safely (see also
tests/game/test_play_concurrent.py).

The CLI runs in-process (``trainruns.cli.main.main``) for speed.
"""

from __future__ import annotations

import copy
import io
import json
import math
import os

import pytest
from conftest import ROOT

from trainruns.cli.main import main
from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.protocol import Session, serve

GAMES = ROOT / "fixtures" / "games"
WANTED = ("buy_private", "bid", "par", "buy_shares", "sell_shares", "lay_tile", "place_token", "run_routes",
          "dividend", "buy_train", "accept", "trade_private")


def fixture_log(name):
    data = json.loads((GAMES / name).read_text(encoding="utf-8"))
    return data.get("log", data)


def snapshots(log, upto=None):
    """(log so far, a listed action filled in) at the first state that lists each
    wanted action type, walking ``log``'s decisions once."""
    game = Game.new(log)
    found = {}
    for entry in log["actions"][:upto]:
        for a in game.actions():
            if a["type"] in WANTED and a["type"] not in found:
                filled = {k: (v["min"] if isinstance(v, dict) and "min" in v else v) for k, v in a.items()}
                found[a["type"]] = (game.log(), filled)
        game.act(entry)
    return found


@pytest.fixture(scope="module")
def states():
    """title -> action type -> (log, listed action): the first 86 decisions of a random
    1833NE game (to its first run and dividend), the first 160 of an 1832 game (the
    auction and stock rounds), the 1831 opening."""
    return {"1833NE": snapshots(fixture_log("1833NE_random_3p.json"), upto=86),
            "1832": snapshots(fixture_log("1832-2p-seed42.game"), upto=160),
            "1831": snapshots(fixture_log("1831-opening.log"))}


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(result, label, allow_ok=False):
    """Exit 2 and exactly one line on stderr, or exit 1 with the rule id on stdout."""
    code, out, err = result
    assert "Traceback" not in err, label
    if code == 0 and allow_ok:
        return
    if code == 1:
        answer = json.loads(out)
        assert isinstance(answer["rule"], str) and answer["rule"] and err == "", (label, out, err)
    else:
        assert code == 2, (label, code, out, err)
        assert out == "" and err.count("\n") == 1 and err.startswith("trainruns: error: "), (label, err)


# --- mutations of one action -----------------------------------------------------------

HUGE = [2 ** 63, -(2 ** 63), 10 ** 30, 10 ** 5000]
WRONG = [[], {}, {"a": 1}, "x", 1.5, None, True, [1, [2]]]


def nested(depth, leaf=1):
    value = leaf
    for _ in range(depth - 1):
        value = [value]
    return value


def typo(key, taken):
    t = key[:-2] + key[-1] if len(key) > 2 else key + "x"
    return t if t not in taken else key + "_"


def label_of(value):
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 4000:
        return "a 5,000-digit number"
    if isinstance(value, list) and value and isinstance(value[0], list):
        depth = 0
        while isinstance(value, list) and value:
            value, depth = value[0], depth + 1
        return f"nested {depth} deep"
    return repr(value)[:20]


def mutations(action):
    """(label, mutated action, may it still be legal) for every field of ``action``:
    values as Python objects, as a caller of the API may pass them."""
    for key in [k for k in action if k != "type"]:
        d = dict(action)
        d[typo(key, d)] = d.pop(key)
        yield f"{key} misspelled", d, False
        d = dict(action)
        d.pop(key)
        yield f"{key} missing", d, True          # an optional field may go
        for wrong in WRONG + HUGE + [math.nan, math.inf, -1, nested(62), nested(5000)]:
            if wrong == action[key] and type(wrong) is type(action[key]):
                continue
            d = dict(action)
            d[key] = wrong
            # a run of no train may be declared (1833NE: any legal run is accepted)
            yield f"{key} = {label_of(wrong)}", d, key == "routes" and wrong == []
    for extra in (math.nan, 2 ** 63, math.inf, nested(62), "note", 1):
        yield f"unknown field = {label_of(extra)}", dict(action, note=extra), False
    yield "no type", {k: v for k, v in action.items() if k != "type"}, False
    yield "type misspelled", dict(action, type=action["type"] + "s"), False


def test_every_field_mutated_through_the_api_changes_nothing(states):
    """Game.act refuses every mutation (InputError: bad input; Refusal: illegal) and
    the game's state and log are what they were; a mutation that is still legal (an
    optional field left out) gives a log that replays."""
    for title, found in states.items():
        for kind, (log, action) in found.items():
            game = Game.replay(log)
            before_state, before_log = json.dumps(game.to_json()), json.dumps(game.log())
            for label, mutated, maybe_legal in mutations(action):
                where = f"{title} {kind}: {label}"
                try:
                    game.act(mutated)
                except (InputError, Refusal) as e:
                    assert "\n" not in str(e), where
                    assert json.dumps(game.to_json()) == before_state, where
                    assert json.dumps(game.log()) == before_log, where
                    continue
                assert maybe_legal, f"{where} was accepted: {mutated}"
                Game.replay(json.loads(json.dumps(game.log(), allow_nan=False)))
                game = Game.replay(log)


def json_text_mutations(action):
    """What a command line or a JSON line may carry that Python values cannot say:
    NaN, Infinity, numbers past 2^63 or of 5,000 digits, 5,000 levels of nesting."""
    text = json.dumps(action)
    body = text[:-1]
    for key in [k for k in action if k != "type"]:
        others = {k: v for k, v in action.items() if k != key}
        head = json.dumps(others)[:-1] + (", " if len(others) else "")
        for raw in ("NaN", "-Infinity", "1e999", "9223372036854775808", "9" * 5000, "-" + "9" * 30,
                    "[" * 5000 + "]" * 5000, "[" * 70 + "]" * 70):
            yield f"{key} = {raw[:12]}", head + json.dumps(key) + ": " + raw + "}"
    for raw in ("NaN", "1e999", "9223372036854775808", "[" * 61 + "1" + "]" * 61, '"x"'):
        yield f"unknown field = {raw[:12]}", body + ', "note": ' + raw + "}"
    yield "misspelled", body + ', "pirce": 1}'
    yield "not an object", "[1]"
    yield "a string", '"pass"'
    yield "a number", "42"
    yield "null", "null"
    yield "not UTF-8", body.replace('"type"', '"\udcfftype"', 1) + "}"
    yield "truncated", text[:-1]


def test_every_field_mutated_on_the_command_line_leaves_the_log_alone(states, tmp_path, capsys):
    """`play act LOG TEXT` refuses each mutation with exit 2 and one line (or exit 1
    and a rule id), the log byte for byte unchanged; `play actions` still reads it."""
    for title, kind in (("1833NE", "accept"), ("1833NE", "lay_tile"), ("1832", "bid"), ("1831", "buy_shares")):
        log, action = states[title][kind]
        path = tmp_path / f"{title}-{kind}.json"
        path.write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")
        before = path.read_bytes()
        for label, text in json_text_mutations(action):
            assert_refused(cli(capsys, "play", "act", path, text), f"{title} {kind}: {label}")
            assert path.read_bytes() == before, f"{title} {kind}: {label}"
        code, out, _ = cli(capsys, "play", "actions", path)
        assert code == 0 and json.loads(out)["actions"]
        # the listed action itself is taken
        code, _, _ = cli(capsys, "play", "act", path, json.dumps(action))
        assert code == 0 and json.loads(path.read_text())["actions"][-1]["type"] == kind


def test_the_issue_examples_are_refused_and_the_log_stays_readable(tmp_path, capsys):
    """Issue 29, case 1: an unknown field holding NaN was written and then every command
    refused the log; nesting 5,000 deep and a 5,000-digit price were internal errors."""
    path = tmp_path / "g.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B,C,D", "--out", path)[0] == 0
    before = path.read_bytes()
    for text in ('{"type":"pass","player":"A","note":NaN}', '{"type":"pass","player":"A","note":9223372036854775808}',
                 '{"type":"pass","player":"A","note":1e999}', '{"type":"pass","player":"A","note":' + "[" * 61 + "]" * 61 + "}",
                 "[" * 5000 + "]" * 5000, '{"type":"bid","player":"A","private":"P2","price":' + "9" * 5000 + "}",
                 '{"type":"pass","player":"\udcff"}', '{"type":"pass","player":"A","note":"x"}'):
        code, out, err = cli(capsys, "play", "act", path, text)
        assert code == 2 and out == "" and err.count("\n") == 1, (text[:40], err)
        assert path.read_bytes() == before
    assert cli(capsys, "play", "actions", path)[0] == 0
    code, _, err = cli(capsys, "play", "act", path, '{"type":"pass","player":"A","note":1}')
    assert "unknown field 'note' in a pass action" in err


# --- every log entry mutated -------------------------------------------------------------

def test_every_log_entry_mutated_is_refused_by_every_command(tmp_path, capsys):
    """A tampered entry (a field added, misspelled, NaN, a rotation outside 0-5, a revenue
    or an accepted price that is not the game's) makes the log bad input for `play
    actions`, `play act` and `replay`, and no command changes the file."""
    log = fixture_log("1833NE_random_3p.json")
    run = next(i for i, a in enumerate(log["actions"]) if a["type"] == "run_routes")
    texts = []
    bad = copy.deepcopy(log)
    bad["actions"][run]["revenue"] += 10
    texts.append((f"{run} run_routes revenue", json.dumps(dict(bad, actions=bad["actions"][:run + 1]))))
    log = dict(log, actions=log["actions"][:34])   # through the first lays and a deal
    for i, entry in enumerate(log["actions"]):
        for label, mutated in (("note", dict(entry, note=1)),
                               ("typo", {typo(k, entry) if k == list(entry)[-1] else k: v for k, v in entry.items()}),
                               ("rotation", dict(entry, rotation=entry.get("rotation", 0) - 6)),
                               ("price", dict(entry, price=entry.get("price", 0) + 1000))):
            if label == "rotation" and label not in entry:
                continue
            if label == "price" and entry["type"] != "accept":
                continue
            bad = copy.deepcopy(log)
            bad["actions"][i] = mutated
            texts.append((f"{i} {entry['type']} {label}", json.dumps(bad, indent=1)))
        bad = json.dumps(log, indent=1)
        texts.append((f"{i} NaN", bad.replace('"type"', '"note": NaN, "type"', i + 1)))
    assert any("accept price" in label for label, _ in texts) and any("rotation" in label for label, _ in texts)
    path = tmp_path / "g.json"
    for label, text in texts:
        path.write_text(text, encoding="utf-8")
        before = path.read_bytes()
        for argv in (("play", "actions", path), ("play", "act", path, '{"type": "undo"}'), ("replay", path)):
            code, out, err = cli(capsys, *argv)
            assert code == 2 and out == "" and err.count("\n") == 1, (label, argv[:2], code, err)
        assert path.read_bytes() == before, label


def test_an_undo_with_nothing_to_take_back_makes_a_log_bad_input(tmp_path, capsys):
    """`play act` refuses an undo at the start (undo.nothing), so a log holding one (at
    its start, or one undo more than its decisions) is refused by every command, as any
    decision the game refuses, and left as it was; the same undos that do take back a
    decision stand."""
    log = fixture_log("1833NE_random_3p.json")
    first = log["actions"][:3]
    path = tmp_path / "g.json"
    for actions in ([{"type": "undo"}], first + [{"type": "undo"}] * 4):
        path.write_text(json.dumps(dict(log, actions=actions)), encoding="utf-8")
        before = path.read_bytes()
        for argv in (("play", "actions", path), ("play", "act", path, '{"type": "undo"}'), ("replay", path),
                     ("play", "repair", path)):
            code, out, err = cli(capsys, *argv)
            assert code == 2 and out == "" and err.count("\n") == 1 and "undo.nothing" in err, (argv[:2], err)
        assert path.read_bytes() == before
    path.write_text(json.dumps(dict(log, actions=first + [{"type": "undo"}] * 3)), encoding="utf-8")
    code, out, err = cli(capsys, "play", "actions", path)
    assert code == 0, err


# --- deals, rotations, revenues: what an action says is what happens ---------------------

def test_an_accept_must_match_the_offer_1833ne_and_1831():
    """Issue 29, case 4: an accept of a $1 offer saying 1001 took $1 and logged 1001."""
    from test_game_1831_deals import DEAL, current_train_step, holdings, setup

    g, a, b = setup()
    current_train_step(g, a).process(dict(DEAL))
    before = holdings(a, b)
    for wrong in ({"price": 1001}, {"price": 0}, {"corporation": "B&O"}, {"train": "2MX"}, {"from": "PRR"},
                  {"offer": "private"}):
        with pytest.raises(Refusal) as e:
            g.act(dict({"type": "accept", "player": "P1"}, **wrong))
        assert e.value.rule == "deal.terms" and holdings(a, b) == before, wrong
    g.act({"type": "accept", "player": "P1", "price": 1, "train": "3S", "from": "NYC"})
    assert holdings(a, b)[:2] == (before[0] - 1, before[1] + 1)
    assert g.log()["actions"][-1]["price"] == 1


def test_an_accept_must_match_the_offer_on_the_command_line(states, tmp_path, capsys):
    log, action = states["1833NE"]["accept"]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    before = path.read_bytes()
    code, out, _ = cli(capsys, "play", "act", path, json.dumps(dict(action, price=action["price"] + 1000)))
    assert code == 1 and json.loads(out)["rule"] == "deal.terms" and path.read_bytes() == before
    assert cli(capsys, "play", "act", path, json.dumps(action))[0] == 0
    assert json.loads(path.read_text())["actions"][-1]["price"] == action["price"]


def test_a_rotation_is_0_to_5_1833ne_and_1831(states):
    """Issue 29, case 5: "rotation": -6 was taken modulo 6 and logged."""
    log, lay = states["1833NE"]["lay_tile"]
    game = Game.replay(log)
    before = json.dumps(game.log())
    for rotation in (lay["rotation"] - 6, lay["rotation"] + 6, lay["rotation"] + 60, -1):
        with pytest.raises(Refusal) as e:
            game.act(dict(lay, rotation=rotation))
        assert e.value.rule == "track.rotation" and json.dumps(game.log()) == before
    game.act(lay)
    from test_game_1831_receivership import yellow_track
    from test_game_1831_track_duties import home_at, track_step

    g, _r, s, c = home_at(cash=300)
    i9, i7, _i5 = yellow_track(g, "I9", "I7", "I5")
    s.tiles = [i9, i7]
    st, _turn = track_step(g, c)
    lay = next(a for a in st.actions() if a["type"] == "lay_tile")
    for rotation in (lay["rotation"] - 6, lay["rotation"] + 6):
        with pytest.raises(Refusal) as e:
            st.process(dict(lay, rotation=rotation))
        assert e.value.rule == "track.rotation"


def test_a_run_that_states_a_revenue_earns_it(states):
    log, run = states["1833NE"]["run_routes"]
    game = Game.replay(log)
    game.act(run)
    earned = game.log()["actions"][-1]["revenue"]
    game.act({"type": "undo"})
    with pytest.raises(Refusal) as e:
        game.act(dict(run, revenue=earned + 1))
    assert e.value.rule == "run.revenue"
    game.act(dict(run, revenue=earned))


# --- logs the tool writes are logs it reads ----------------------------------------------

@pytest.mark.parametrize("seed", ["9223372036854775808", str(10 ** 30), "-9223372036854775808"])
def test_a_seed_that_cannot_be_read_back_is_refused(tmp_path, capsys, seed):
    path = tmp_path / "g.json"
    code, out, err = cli(capsys, "play", "new", "1831", "--players", "A,B,C", "--seed", seed, "--out", path)
    assert code == 2 and "seed" in err and err.count("\n") == 1 and not path.exists()


def test_a_seed_near_the_limit_is_read_back(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--seed", 2 ** 63 - 1, "--out", path)[0] == 0
    assert cli(capsys, "play", "actions", path)[0] == 0


def test_no_action_or_log_past_the_readers_limits():
    """Issue 29, case 3: two legal actions carrying 5 MB each made a log over the 8 MB
    read limit. A field is declared now; still, an action over 64 kB and a log over
    4 MB of actions are refused, and the writer refuses a text over 8 MB."""
    from trainruns.game import logfile

    game = Game("1832", ["A", "B"], 1)
    with pytest.raises(InputError, match="at most 64 kB"):
        game.act({"type": "run_routes", "corporation": "SALR", "routes": [{"train": "2", "stops": ["x" * 70000]}]})
    with pytest.raises(InputError, match="larger than 8 MB"):
        logfile.dump(dict(game.log(), config={"x": "y" * (9 * 1024 * 1024)}))
    with pytest.raises(InputError, match="NaN"):
        logfile.dump(dict(game.log(), config={"x": math.nan}))


def test_play_serve_is_as_strict(states):
    """Issue 29, case 2, through `play serve` (JSON lines): each mutation answers
    {"ok": false} with an error or a rule id; the `log` answer is JSON the reader
    takes and is what it was; a seed that cannot be read back is refused."""
    for seed in ('"abc"', "1.5", "NaN", "9223372036854775808", "true", "-1e999"):
        s = Session()
        answer = s.handle('{"cmd": "new", "title": "1832", "players": ["A", "B"], "seed": ' + seed + "}")
        assert answer["ok"] is False and answer["error"] and s.game is None, seed
    for title, kind in (("1833NE", "accept"), ("1832", "bid"), ("1833NE", "buy_train")):
        log, action = states[title][kind]
        s = Session()
        assert s.handle(json.dumps({"cmd": "load", "log": log}))["ok"]
        before = json.dumps(s.handle('{"cmd": "log"}'))
        lines = [label_text for label_text in json_text_mutations(action)]
        lines += [(label, json.dumps(m)) for label, m, legal in mutations(action)
                  if not legal and "5,000" not in label and "nested 4999" not in label]
        for label, text in lines:
            answer = s.handle('{"cmd": "act", "action": ' + text + "}")
            assert answer["ok"] is False and (answer.get("rule") or answer.get("error")), (title, kind, label, answer)
            assert "internal error" not in answer.get("error", ""), (label, answer)
            log_answer = s.handle('{"cmd": "log"}')
            assert json.dumps(log_answer) == before, (title, kind, label)
        from trainruns.position.reader import parse_json

        parse_json(before, "log")
        out = io.StringIO()
        serve(io.StringIO(json.dumps({"cmd": "load", "log": log}) + "\n" +
                          '{"cmd": "act", "action": {"type": "pass", "x": NaN}}\n{"cmd": "log"}\n'), out)
        replies = out.getvalue().splitlines()
        assert len(replies) == 3 and json.loads(replies[1])["ok"] is False
        parse_json(replies[2], "log")


# --- the log file ---------------------------------------------------------------------

def test_writing_the_log_fails_in_one_line(tmp_path, capsys):
    """Issue 29, case 6: exit 3 for --out in a missing folder, --out a folder (leaving
    X.tmp), a folder named LOG.tmp in the way; each is exit 2 now, or simply works."""
    new = ("play", "new", "1832", "--players", "A,B")
    for out in (tmp_path / "missing" / "g.json", tmp_path, tmp_path / "file.txt" / "g.json"):
        if out.name == "g.json" and out.parent.name == "file.txt":
            (tmp_path / "file.txt").write_text("x")
        code, stdout, err = cli(capsys, *new, "--out", out)
        assert code == 2 and stdout == "" and err.count("\n") == 1, (out, err)
    (tmp_path / "game.json.tmp").mkdir()
    assert cli(capsys, *new, "--out", tmp_path / "game.json")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "game.json", "game.json.tmp"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes into any folder")
def test_an_unwritable_folder_is_exit_2(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        code, _, err = cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", folder / "g.json")
        assert code == 2 and "Permission denied" in err
    finally:
        folder.chmod(0o700)


def test_an_os_error_while_writing_is_exit_2_and_leaves_the_log(tmp_path, capsys, monkeypatch):
    """A full disk, an unwritable folder (as root too: the OS refusal is simulated):
    exit 2, one line, the log as it was, no temporary file left."""
    path = tmp_path / "g.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", path)[0] == 0
    before = path.read_bytes()
    real_fsync = os.fsync

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, out, err = cli(capsys, "play", "act", path, '{"type": "buy_private", "player": "A", "private": "P1"}')
    assert code == 2 and "No space left" in err and err.count("\n") == 1
    monkeypatch.setattr(os, "fsync", real_fsync)
    real_open = os.open

    def refused(p, flags, *a, **k):
        if str(p).endswith(".tmp"):
            raise PermissionError(13, "Permission denied")
        return real_open(p, flags, *a, **k)

    monkeypatch.setattr(os, "open", refused)
    code, out, err = cli(capsys, "play", "act", path, '{"type": "buy_private", "player": "A", "private": "P1"}')
    assert code == 2 and "Permission denied" in err
    monkeypatch.setattr(os, "open", real_open)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_new_does_not_write_over_a_file_without_force(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", path)[0] == 0
    assert cli(capsys, "play", "act", path, '{"type": "buy_private", "player": "A", "private": "P1"}')[0] == 0
    before = path.read_bytes()
    code, out, err = cli(capsys, "play", "new", "1832", "--players", "C,D", "--out", path)
    assert code == 2 and "--force" in err and path.read_bytes() == before
    other = tmp_path / "other.json"
    other.write_text("notes")
    code, _, err = cli(capsys, "play", "act", path, '{"type": "pass", "player": "B"}', "--out", other)
    assert code == 2 and other.read_text() == "notes" and path.read_bytes() == before
    assert cli(capsys, "play", "new", "1832", "--players", "C,D", "--out", path, "--force")[0] == 0
    assert json.loads(path.read_text())["players"] == ["C", "D"]


def test_a_link_keeps_its_target(tmp_path, capsys):
    """Issue 29, case 6: a log that is a symbolic link was replaced by a plain file."""
    games = tmp_path / "games"
    games.mkdir()
    target = games / "real.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", target)[0] == 0
    link = tmp_path / "g.json"
    link.symlink_to(target)
    assert cli(capsys, "play", "act", link, '{"type": "buy_private", "player": "A", "private": "P1"}')[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(json.loads(target.read_text())["actions"]) == 1
    dangling = tmp_path / "new.json"
    dangling.symlink_to(games / "fresh.json")
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", dangling)[0] == 0
    assert dangling.is_symlink() and (games / "fresh.json").is_file()
    assert sorted(p.name for p in games.iterdir()) == ["fresh.json", "real.json"]


def test_a_log_changed_since_it_was_read_is_not_written_over(tmp_path):
    from trainruns.game import logfile

    path = tmp_path / "g.json"
    game = Game("1832", ["A", "B"], 1)
    logfile.save(path, game.log())
    with logfile.locked(path) as change:
        game = Game.replay(change.data)
        game.act({"type": "buy_private", "player": "A", "private": "P1"})
        with open(path, "a") as fh:   # another program, taking no lock, appends
            fh.write(" ")
        with pytest.raises(InputError, match="changed by another program"):
            change.write(game.log())
    assert path.read_text().endswith("\n ")


def test_a_second_writer_waits_then_gives_up_in_one_line(tmp_path, capsys, monkeypatch):
    from trainruns.game import logfile

    path = tmp_path / "g.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", path)[0] == 0
    before = path.read_bytes()
    monkeypatch.setattr(logfile, "LOCK_WAIT", 0.2)
    with logfile.locked(path):
        code, out, err = cli(capsys, "play", "act", path, '{"type": "buy_private", "player": "A", "private": "P1"}')
    assert code == 2 and "the game is being changed" in err and err.count("\n") == 1
    assert path.read_bytes() == before


# --- messages ---------------------------------------------------------------------------

def test_messages_say_what_was_given(tmp_path, capsys):
    """Issue 29, case 7: JSON text that is not an object is not "no such action file";
    a missing config is a config; names with control characters are refused, and no
    message runs over two lines or carries a raw escape."""
    path = tmp_path / "g.json"
    assert cli(capsys, "play", "new", "1832", "--players", "A,B", "--out", path)[0] == 0
    for text in ("[1]", '"pass"', "42", "null", " [1]"):
        code, _, err = cli(capsys, "play", "act", path, text)
        assert code == 2 and "an action must be a JSON object" in err, (text, err)
    code, _, err = cli(capsys, "play", "act", path, "pass")
    assert code == 2 and "neither JSON text nor an action file" in err
    code, _, err = cli(capsys, "play", "new", "1832", "--players", "A,B", "--config", tmp_path / "nope.json")
    assert code == 2 and "no such config file" in err
    for names in ("A\nB,C", "A\x1b[31m,B", "A\u202e,B", "A\x00,B"):
        code, _, err = cli(capsys, "play", "new", "1832", "--players", names, "--out", tmp_path / "n.json")
        assert code == 2 and err.count("\n") == 1 and "\x1b" not in err and "\u202e" not in err, (names, err)
    code, _, err = cli(capsys, "play", "act", path, '{"type": "bid", "player": "Z\\u001b[2J\\n", "private": "P2", '
                                                    '"price": 45}')
    assert code == 2 and err.count("\n") == 1 and "\x1b" not in err
    log = json.loads(path.read_text())
    log["players"] = ["A\nB", "C"]
    path.write_text(json.dumps(log))
    code, _, err = cli(capsys, "play", "actions", path)
    assert code == 2 and err.count("\n") == 1


def test_an_empty_file_name_is_bad_input_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """`--out ''` is a file name left empty, not "none given": before, `play act` wrote
    the log in place and `play new` wrote nothing, both with exit 0."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "play", "new", "1832", "--players", "A,B,C", "--out", "g.json")
    assert code == 0
    before = (tmp_path / "g.json").read_bytes()
    for argv in (("play", "act", "g.json", '{"type": "undo"}', "--out", ""), ("play", "new", "1832", "--players", "A,B,C", "--out", ""),
                 ("play", "actions", ""), ("play", "new", "1832", "--players", "A,B,C", "--config", "")):
        code, out, err = cli(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and "empty" in err, (argv, err)
    assert (tmp_path / "g.json").read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_run_says_its_proof_as_the_game_makes_it_or_not_at_all(states):
    """What an action says is what happens: a run's `proven` and `bound` are the game's
    to record. A run that repeats them is the run; one that says other values (proven
    false on a proven run, a bound below the run) is refused (`run.proof`) and the game
    and its log stay as they were. Before, the values were dropped and the run logged."""
    log, listed = states["1833NE"]["run_routes"]
    made = Game.new(log)
    made._replay(log["actions"], "log")
    made.act(listed)
    record = made.applied[-1]
    assert {"proven", "bound"} <= set(record) or record["routes"] != "best"
    for said in ({"proven": not record.get("proven", False)}, {"bound": -5},
                 {"proven": record.get("proven", True), "bound": record.get("bound", 0) + 10}):
        game = Game.new(log)
        game._replay(log["actions"], "log")
        before, entries = json.dumps(game.to_json(), sort_keys=True), list(game.log()["actions"])
        with pytest.raises(Refusal) as refused:
            game.act(dict(listed, **said))
        assert refused.value.rule == "run.proof"
        assert json.dumps(game.to_json(), sort_keys=True) == before and game.log()["actions"] == entries
    game = Game.new(log)
    game._replay(log["actions"], "log")
    game.act(dict(listed, **{k: record[k] for k in ("proven", "bound") if k in record}))
    assert game.applied[-1] == record


@pytest.mark.parametrize("text", ["٣", "1_000", "+5", " 5", "5 "])
def test_a_number_on_the_command_line_is_ascii_digits(capsys, text, tmp_path):
    """docs/custom-map.md "Limits": numbers are ASCII digits; Python's int() also reads
    other scripts' digits ("٣" is 3), underscores, a plus sign and spaces."""
    for argv in (("play", "new", "1832", "--players", "A,B,C", "--seed", text),
                 ("play", "selfplay", "1832", "--players", text, "--quiet")):
        code, out, err = cli(capsys, *argv)
        assert code == 2 and out == "" and "ASCII digits" in err, (argv, err)
