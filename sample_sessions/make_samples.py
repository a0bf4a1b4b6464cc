"""Rebuild the sample sessions in this folder through the real ``score`` commands.

    python sample_sessions/make_samples.py

Each night is typed in with ``score add-round`` exactly as at a table (a seeded
generator plays the part of the players), then exported as JSON, Markdown and
HTML. The test suite imports the JSON files and checks their totals.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import scorekeeper.session
from scorekeeper.cards import STANDARD_DECK, Card
from scorekeeper.cli.app import run
from scorekeeper.games.least_score.rules import hand_value

HERE = Path(__file__).resolve().parent


def table_clock(start: datetime, step: timedelta) -> Iterator[str]:
    """The times a night at the table is typed in at: the samples must not depend on when
    they are rebuilt (rebuilding them leaves the git tree clean)."""
    moment = start
    while True:
        yield moment.isoformat(timespec="seconds")
        moment += step


def score(db: Path, *argv: str) -> None:
    code = run(["--db", str(db), *argv])
    if code != 0:
        raise SystemExit(f"score {' '.join(argv)} failed with exit code {code}")


def hand_with_total(total: int, used: set[Card], rng: random.Random) -> list[Card] | None:
    for _ in range(20_000):
        size = rng.randint(1, 5)
        cards = rng.sample([c for c in STANDARD_DECK if c not in used], size)
        if hand_value(cards) == total:
            return cards
    return None


def least_score_night(db: Path) -> None:
    """Four friends, limit 100, last one standing (seed 3 gives 14 deals, 1 false call)."""
    rng = random.Random(3)
    players = ["Ann", "Bob", "Cy", "Dan"]
    score(db, "new", "least-score", *(f"--player={p}" for p in players), "--limit", "100",
          "--dealer", "Ann", "--name", "Friday night at Ann's")
    running = dict.fromkeys(players, 0)
    still = list(players)
    cards_rng = random.Random(11)
    deal = 0
    while len(still) > 1:
        deal += 1
        totals = {p: rng.randint(4, 26) for p in still}
        lowest = min(still, key=lambda p: totals[p])
        if rng.random() < 0.15:
            declarer = rng.choice(still)
        else:
            declarer = lowest
            totals[declarer] = max(1, totals[declarer] - rng.randint(0, 5))
        values = [f"{p}={totals[p]}" for p in still]
        if deal in (1, 5):  # some deals are typed in as the cards shown
            used: set[Card] = set()
            values = []
            for p in still:
                hand = hand_with_total(totals[p], used, cards_rng)
                if hand is None:
                    values.append(f"{p}={totals[p]}")
                    continue
                used.update(hand)
                values.append(f"{p}=" + ",".join(str(c) for c in hand))
        score(db, "add-round", "--declarer", declarer, *values)
        low_other = min(totals[p] for p in still if p != declarer)
        for p in still:
            if totals[declarer] <= low_other:
                running[p] += 0 if p == declarer else totals[p] - totals[declarer]
            elif p == declarer:
                running[p] += 20 + totals[declarer] - low_other
        still = [p for p in still if running[p] <= 100]


def one_card_game(db: Path) -> None:
    """Three players to 30: bids made and failed, and a deal nobody bid on."""
    rng = random.Random(5)
    players = ["Ann", "Bob", "Cy"]
    score(db, "new", "one-card", *(f"--player={p}" for p in players), "--dealer", "Cy",
          "--name", "One Card, Sunday")
    running = dict.fromkeys(players, 0)
    deal = 0
    while True:
        deal += 1
        cuts = sorted(rng.sample(range(1, 15), 2))
        points = dict(zip(players, (cuts[0], cuts[1] - cuts[0], 15 - cuts[1]), strict=True))
        values = [f"{p}={points[p]}" for p in players]
        if deal == 3:
            score(db, "add-round", "--no-bid", *values)
        else:
            bidder = max(players, key=lambda p: points[p] + rng.randint(-3, 3))
            bid = max(7, min(15, points[bidder] + rng.choice((-2, -1, 0, 1, 2))))
            trump = rng.choice("SHDC")
            score(db, "add-round", "--bidder", bidder, "--bid", str(bid), "--trump", trump,
                  *values)
            if points[bidder] < bid:
                points[bidder] = 0
        for p in players:
            running[p] += points[p]
        top = max(running.values())
        if top >= 30 and list(running.values()).count(top) == 1:
            break


def build(folder: Path) -> None:
    """Type both nights into a fresh store and export them into ``folder``."""
    clock = table_clock(datetime(2026, 11, 27, 20, 15, tzinfo=timezone(timedelta(hours=1))),
                        timedelta(minutes=4))
    real_clock = scorekeeper.session.now_iso
    scorekeeper.session.now_iso = lambda: next(clock)
    try:
        _type_in_and_export(folder)
    finally:
        scorekeeper.session.now_iso = real_clock


def _type_in_and_export(folder: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        # The samples are in English with the default house rules, whatever the language
        # and the config file of the machine that rebuilds them.
        os.environ["SCOREKEEPER_LANG"] = "en"
        os.environ["SCOREKEEPER_CONFIG"] = str(Path(scratch) / "no-config.toml")
        db = Path(scratch) / "samples.json"
        least_score_night(db)
        one_card_game(db)
        for session_id, stem in ((1, "least-score-night"), (2, "one-card-game")):
            for fmt in ("json", "md", "html"):
                target = folder / f"{stem}.{fmt}"
                # --force: a rebuild replaces the samples already there
                score(db, "export", str(session_id), "--format", fmt, "--output", str(target),
                      "--force")


def main() -> None:
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
    print("samples written", file=sys.stderr)


if __name__ == "__main__":
    main()
