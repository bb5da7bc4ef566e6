"""Seeded self-play by the advisor policy (trainruns.players.policies) beside the random
policy, 4 players, each title: every advisor game ends by a rule of the game (the bank
broken or the title's own end), none stalled or capped, and the mean revenue of an
operating round of each policy goes to the benchmark's extra info. Slow: each advisor
turn searches its plans at horizon 2.

    ADVISOR_GAMES=100 pytest benchmarks/test_bench_selfplay_advisor.py --benchmark-only

With ADVISOR_PROGRESS=FILE each game's summary is appended to FILE (one JSON line, the
policy added) as it ends, so a long sweep shows how far it got. ADVISOR_FIRST=S starts at
seed S instead of 100, so a sweep stopped part-way goes on from the seed after the last
one in its file.
"""

import json
import os

import pytest

from trainruns.players.policies import play_one

GAMES = int(os.environ.get("ADVISOR_GAMES", "2"))
MAX_ACTIONS = int(os.environ.get("ADVISOR_MAX_ACTIONS", "4000"))
PROGRESS = os.environ.get("ADVISOR_PROGRESS")
FIRST = int(os.environ.get("ADVISOR_FIRST", "100"))


def _played(summary: dict, policy: str) -> dict:
    if PROGRESS:
        with open(PROGRESS, "a") as f:
            f.write(json.dumps(dict(summary, policy=policy), default=str) + "\n")
    return summary


@pytest.mark.parametrize("title", ["1832", "1833NE", "1831"])
def test_advisor_games_end_by_a_rule(benchmark, title):
    def games(policy):
        return [_played(play_one({"title": title, "players": ["A", "B", "C", "D"], "seed": FIRST + i,
                                  "max_actions": MAX_ACTIONS, "policy": policy}), policy) for i in range(GAMES)]

    advisor = benchmark.pedantic(lambda: games("advisor"), rounds=1)
    random_ = games("random")
    benchmark.extra_info.update(
        games=GAMES, ended={g["seed"]: g["end_reason"] for g in advisor},
        advisor_revenue_per_or=round(sum(g["revenue_per_or"] for g in advisor) / GAMES, 1),
        random_revenue_per_or=round(sum(g["revenue_per_or"] for g in random_) / GAMES, 1))
    for g in advisor:
        assert not g["problems"], g
        assert g["finished"] and not g["capped"] and g["end_reason"] != "stalled", g
