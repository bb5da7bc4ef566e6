"""`trainruns play` without a verb names every verb it has, as its help does: both come
from the parser's own list, so a verb added later is named too."""

from trainruns.cli.main import build_parser, main


def _verbs():
    play = build_parser().parse_args(["play"])
    return play.verbs


def test_play_without_a_verb_names_every_verb(capsys):
    verbs = _verbs()
    assert {"new", "actions", "act", "position", "advise", "serve", "selfplay"} <= set(verbs)
    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.strip().endswith(f"play needs a verb: {', '.join(verbs[:-1])} or {verbs[-1]}")


def test_the_command_list_names_every_verb_of_play():
    usage = " ".join(build_parser().format_help().split())
    line = usage[usage.index("play keep a game:"):usage.index("replay")]
    assert all(v in line for v in _verbs())
