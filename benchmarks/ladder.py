"""The bot ladder: every level against every other, in both games, rated with openskill.

    python benchmarks/ladder.py [--games N] [--seed S] [--jobs J] [--game GAME ...]
                                [--levels random,greedy,strong,expert] [--json FILE]

For each game and each pair of levels (a, b) it runs the command users run,
``score simulate GAME --bot a --bot b --games N --seed S --json`` (a two-player table;
the first dealer is drawn per game, so neither seat is favoured), and reads the wins
of each seat (a shared win counts half to each). It then rates the levels with
openskill's Plackett-Luce model, as ``score stats`` rates people: every game of every
pairing is one match (the winner ranked first; a shared win is a draw), the matches of
all pairings interleaved in a fixed order so that no pairing comes last. Each level's
rating is printed as mu with its interval mu +- 2 sigma (about 95 %), the ladder sorted
by mu, with the pairings' win rates and their 95 % intervals from ``score simulate``.

The figures in docs/bots.md ("The ladder") come from this script; the command it ran is
printed at the top of its output.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import run_score

GAMES = ("least-score", "one-card")
LEVELS = ("random", "greedy", "strong", "expert")


def pairing(game: str, first: str, second: str, games: int, seed: int,
            jobs: int) -> dict[str, Any]:
    """``score simulate`` of one pairing, its JSON."""
    return run_score(["simulate", game, "--bot", first, "--bot", second, "--games", str(games),
                      "--seed", str(seed), "--jobs", str(jobs), "--json"])


def matches_of(first: str, second: str, result: dict[str, Any]) -> list[tuple[str, str, float]]:
    """The pairing's games as ``(a, b, a's share of the win)``: 1.0, 0.0, or 0.5 for a
    shared win. Two-player games are never shared in either game (Least Score plays to
    the last one standing, One Card plays on from a tie), so a fractional count is at
    most one half, counted as one draw."""
    games = int(result["games"])
    wins_a = float(result["seats"][0]["wins"])
    draws = 1 if wins_a != int(wins_a) else 0
    whole_a = int(wins_a)
    whole_b = games - whole_a - draws
    return ([(first, second, 1.0)] * whole_a + [(first, second, 0.0)] * whole_b
            + [(first, second, 0.5)] * draws)


def rate(levels: list[str], matches: list[tuple[str, str, float]],
         seed: int) -> dict[str, tuple[float, float]]:
    """Each level's (mu, sigma) after every match, in an order shuffled from ``seed``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {level: model.rating(name=level) for level in levels}
    order = list(matches)
    random.Random(f"ladder/{seed}").shuffle(order)
    for a, b, share in order:
        ranks: list[float] = [1, 1] if share == 0.5 else ([1, 2] if share == 1.0 else [2, 1])
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    return {level: (r.mu, r.sigma) for level, r in ratings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    print(f"python benchmarks/ladder.py --games {args.games} --seed {args.seed} "
          f"--jobs {args.jobs} --levels {','.join(levels)}"
          + "".join(f" --game {g}" for g in args.game or ()))
    report: dict[str, Any] = {"games_per_pairing": args.games, "seed": args.seed,
                              "levels": levels, "by_game": {}}
    for game in args.game or GAMES:
        matches: list[tuple[str, str, float]] = []
        pairings = []
        print(f"\n## {game}: each pairing {args.games} two-player games "
              f"(score simulate {game} --bot A --bot B --games {args.games} "
              f"--seed {args.seed} --json)")
        for first, second in itertools.combinations(levels, 2):
            began = time.perf_counter()
            result = pairing(game, first, second, args.games, args.seed, args.jobs)
            seat = result["seats"][0]
            low, high = seat["ci95"]
            print(f"  {first:>7} v {second:<7} {first} wins {seat['win_rate']:6.1%} "
                  f"[{low:.1%} - {high:.1%}]  ({time.perf_counter() - began:.0f} s)",
                  flush=True)
            pairings.append({"a": first, "b": second, "a_win_rate": seat["win_rate"],
                             "ci95": seat["ci95"], "games": result["games"],
                             "deals": result["deals"]})
            matches += matches_of(first, second, result)
        ratings = rate(levels, matches, args.seed)
        ladder = sorted(levels, key=lambda level: -ratings[level][0])
        print(f"\n  ladder ({game}, openskill Plackett-Luce, mu +- 2 sigma):")
        for place, level in enumerate(ladder, 1):
            mu, sigma = ratings[level]
            print(f"  {place}. {level:<7} {mu:6.2f}  [{mu - 2 * sigma:6.2f} - "
                  f"{mu + 2 * sigma:6.2f}]")
        report["by_game"][game] = {
            "pairings": pairings,
            "ladder": [{"level": level, "mu": round(ratings[level][0], 3),
                        "sigma": round(ratings[level][1], 3)} for level in ladder]}
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
