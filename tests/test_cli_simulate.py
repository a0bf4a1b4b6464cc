"""`score simulate`: bots against bots through the match layer, nothing saved (CLI.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result

from scorekeeper import match

Run = Callable[..., Result]

COMMON_KEYS = {"game", "games", "deals", "seconds", "seed", "seats", "mean_deals"}
RATE_KEY = {"least-score": "false_declaration_rate", "one-card": "bid_success_rate"}
SEAT_KEYS = {"bot", "wins", "win_rate", "ci95"}


def simulate_args(game: str, bots: list[str], games: int, seed: int, *extra: Any) -> list[str]:
    args = ["simulate", game]
    for level in bots:
        args += ["--bot", level]
    return [*args, "--games", str(games), "--seed", str(seed), *map(str, extra)]


def parse_json_line(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout  # one JSON object, on one line
    data: dict[str, Any] = json.loads(lines[0])
    return data


@pytest.mark.parametrize(("game", "bots", "options"), [
    pytest.param("least-score", ["greedy", "random", "random"], {"limit": 25},
                 id="least-score"),
    pytest.param("one-card", ["random", "greedy", "random"], {}, id="one-card"),
])
def test_simulate_json_is_the_match_layers_games_counted_as_cli_md_says(
        cli: CLI, db_path: Path, game: str, bots: list[str], options: dict[str, Any]) -> None:
    games, seed = 14, 4
    extra = ["--limit", options["limit"]] if options else []
    data = parse_json_line(cli(*simulate_args(game, bots, games, seed, *extra, "--json")))

    assert set(data) == COMMON_KEYS | {RATE_KEY[game]}
    assert data["game"] == game and data["games"] == games and data["seed"] == seed
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    seats = data["seats"]
    assert [seat["bot"] for seat in seats] == bots  # the order of the --bot options
    for seat in seats:
        assert set(seat) == SEAT_KEYS

    # Game by game, the same games as the match layer plays them.
    outcomes = [match.simulate_game(game, bots, seed, index, options) for index in range(games)]
    wins = [0.0] * len(bots)
    for outcome in outcomes:
        assert outcome.winners
        for index in outcome.winners:
            wins[index] += 1 / len(outcome.winners)
    deals = sum(outcome.deals for outcome in outcomes)
    assert data["deals"] == deals
    assert data["mean_deals"] == round(deals / games, 4)
    for seat, expected in zip(seats, wins, strict=True):
        assert seat["wins"] == pytest.approx(expected, abs=1e-4)
        assert seat["win_rate"] == round(expected / games, 4)
        low, high = match.wilson_interval(expected, games)
        assert seat["ci95"] == [round(low, 4), round(high, 4)]
        assert low <= expected / games <= high
    assert sum(seat["wins"] for seat in seats) == pytest.approx(games, abs=1e-3)
    hits = sum(outcome.stats[RATE_KEY[game]][0] for outcome in outcomes)
    total = sum(outcome.stats[RATE_KEY[game]][1] for outcome in outcomes)
    assert total > 0
    assert data[RATE_KEY[game]] == round(hits / total, 4)
    assert not db_path.exists(), "simulate saved something"


def test_a_shared_win_counts_one_kth_to_each_winner() -> None:
    """Least Score with ``end: first-out`` ends at the first knock-out and the lowest
    totals share the win; the summary that ``simulate`` prints counts 1/k each."""
    bots = ["random", "random", "random"]
    options = {"end": "first-out", "limit": 25}
    outcomes = [match.simulate_game("least-score", bots, 1, i, options) for i in range(12)]
    shared = [o for o in outcomes if len(o.winners) > 1]
    assert shared, "no shared win in these games"
    summary = match.SimulationSummary("least-score", bots)
    for outcome in outcomes:
        summary.add(outcome)
    expected = [sum(1 / len(o.winners) for o in outcomes if seat in o.winners)
                for seat in range(3)]
    data = summary.as_json(1, 0.5)
    assert [seat["wins"] for seat in data["seats"]] == [round(w, 4) for w in expected]
    assert any(seat["wins"] != int(seat["wins"]) for seat in data["seats"])
    assert sum(seat["wins"] for seat in data["seats"]) == pytest.approx(12)
    assert data["games"] == 12 and data["seconds"] == 0.5


@pytest.mark.parametrize(("game", "bots"), [
    pytest.param("least-score", ["random", "greedy", "random"], id="least-score"),
    pytest.param("one-card", ["greedy", "random"], id="one-card"),
])
@pytest.mark.e2e
def test_jobs_do_not_change_the_result(score_run: Run, game: str, bots: list[str]) -> None:
    one = parse_json_line(score_run(*simulate_args(game, bots, 24, 9, "--jobs", 1, "--json")))
    two = parse_json_line(score_run(*simulate_args(game, bots, 24, 9, "--jobs", 2, "--json")))
    one.pop("seconds")
    two.pop("seconds")
    assert one == two
    other = parse_json_line(score_run(*simulate_args(game, bots, 24, 10, "--jobs", 2,
                                                     "--json")))
    other.pop("seconds")
    assert other != one  # the seed matters


def test_simulate_prints_a_table_without_json(cli: CLI) -> None:
    result = cli(*simulate_args("least-score", ["greedy", "random"], 6, 2, "--limit", 25))
    assert result.exit_code == 0, result
    out = result.stdout
    assert "Least Score: 6 games, seed 2" in out
    for text in ("Win rate", "95% interval", "greedy", "random", "Mean deals per game",
                 "False declaration rate"):
        assert text in out, text
    result = cli(*simulate_args("one-card", ["greedy", "random"], 3, 2))
    assert result.exit_code == 0, result
    assert "Bid success rate" in result.stdout


def test_simulate_refuses_bad_bots_and_player_counts(refuse: Refuse) -> None:
    refuse(*simulate_args("least-score", ["genius", "greedy"], 3, 1, "--json"),
           says=("there is no bot 'genius'", "random, greedy, strong"))
    refuse(*simulate_args("one-card", ["random"] * 5, 3, 1, "--json"),
           says="One Card takes 2 to 4 players")
    refuse(*simulate_args("least-score", ["random"], 3, 1, "--json"),
           says="Least Score takes 2 to 8 players")
    refuse(*simulate_args("least-score", ["random"] * 9, 3, 1), says="not 9")
    refuse(*simulate_args("bridge", ["random", "random"], 3, 1), says="no game called 'bridge'")
    refuse(*simulate_args("one-card", ["random", "random"], 3, 1, "--limit", 25), code=2,
           says="--limit is a house rule of Least Score and Yaniv, not of One Card")
    refuse(*simulate_args("one-card", ["random", "random"], 0, 1), code=2)


def test_wilson_interval() -> None:
    low, high = match.wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert match.wilson_interval(10, 10)[1] == 1.0  # exactly, not 0.9999999999999999
    assert match.wilson_interval(0, 10)[0] == 0.0
    assert match.wilson_interval(2.5, 10)[0] < 0.25 < match.wilson_interval(2.5, 10)[1]
    assert match.wilson_interval(0, 0) == (0.0, 1.0)
