"""`score play` with humans at one keyboard: the totals on every hand-over screen and at a
resume, the config's house rules, and the players' own words (issue 28, points 3 and 6)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import CLI, Result
from test_cli_play import exported, first_seed, play_args, same_game, script_game

from scorekeeper.session import Session

Run = Callable[..., Result]


def expected_totals_line(totals: dict[str, int], limit: int) -> str:
    parts = [f"{name} {total} (out)" if total > limit else
             f"{name} {total} ({limit - total} left)" for name, total in totals.items()]
    return f"Totals, limit {limit}: " + " · ".join(parts)


def test_every_hand_over_screen_shows_the_totals_the_limit_and_who_is_out(
        score_run: Run) -> None:
    humans, limit = ["Ann", "Bob", "Cy"], 25
    seed, script = first_seed("least-score", humans, [], 3, {"limit": limit}, deals=3)
    result = score_run(*play_args("least-score", humans, [], seed, {"limit": limit}),
                       stdin=script.stdin())
    assert result.exit_code == 0, result.output[-3000:]
    handovers = result.stdout.count("Pass the keyboard to ")
    shown = re.findall(r"^(Totals, limit .*)\nPass the keyboard to ", result.stdout, re.M)
    assert len(shown) == handovers > 0  # every hand-over, right above its prompt
    running = [dict.fromkeys(humans, 0), *script.session.standings.running_totals()]
    # The totals before each deal, as the table knew them (the last: the game is over).
    expected = {expected_totals_line(totals, limit) for totals in running[:-1]}
    assert set(shown) == expected
    assert any("(out)" in line for line in shown), "nobody was out at a hand-over"


def test_resume_starts_with_the_totals(score_run: Run) -> None:
    game, bots, options = "least-score", ["greedy", "random"], {"limit": 25}
    seed, script = first_seed(game, ["Ann"], bots, 11, options, deals=3)
    while not script.lines_by_deal[1]:  # Ann must still be in the game in deal 2
        seed, script = first_seed(game, ["Ann"], bots, seed + 1, options, deals=3)
    stopped = score_run(*play_args(game, ["Ann"], bots, seed, options),
                        stdin=script.stdin(slice(0, 1)))
    assert stopped.exit_code == 130, stopped.output[-2000:]
    saved = exported(score_run, 1)
    restarted = script_game(game, ["Ann"], bots, seed, options, mistakes=False,
                            start=Session.from_summary(saved))
    resumed = score_run("play", "--resume", 1, stdin=restarted.stdin())
    assert resumed.exit_code == 0, resumed.output[-3000:]
    recap = expected_totals_line(saved["totals"], 25)
    before_first_deal = resumed.stdout.split("Deal 2 — ")[0]
    assert "Resuming " in before_first_deal and "after 1 deal." in before_first_deal
    assert recap in before_first_deal
    same_game(exported(score_run, 1), restarted)


def test_play_follows_the_configs_house_rules_and_the_command_line_wins(
        ok: CLI, summary: Any) -> None:
    config = Path(os.environ["SCOREKEEPER_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[least-score]\nlimit = 50\ntie = "declarer-loses"\n', encoding="utf-8")
    bots = ["--bot", "greedy", "--bot", "random", "--seed", "4"]
    ok("play", "least-score", *bots)
    assert summary()["options"] == {"limit": 50, "tie": "declarer-loses",
                                    "end": "last-standing", "two_pairs": "same-rank"}
    ok("play", "least-score", *bots, "--limit", "30")
    assert summary()["options"] == {"limit": 30, "tie": "declarer-loses",
                                    "end": "last-standing", "two_pairs": "same-rank"}
