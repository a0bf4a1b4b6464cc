"""Whole One Card games between bots, for simulations and benchmarks.

Determinism: everything comes from ``random.Random(seed)``. From it, in this order,
one generator per seat for the bots' own choices, the first dealer (a seat drawn
at random), then one generator per deal (for its shuffle), each seeded with 64
bits drawn from it. The deal passes to the left. Players are named ``P1``, ``P2``,
... by seat. The game ends when :func:`rules.winners` names a single leader at
the target or above (tied leaders play on).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.bots import Bot, get_bot
from scorekeeper.games.one_card.engine import Deal
from scorekeeper.games.one_card.rules import Options

__all__ = ["MAX_DEALS", "MatchResult", "play_deal", "play_match"]

MAX_DEALS = 1000
"""A safety net: a game this long means nobody scores (a bug)."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished game. ``winners`` are seat indices; ``records`` each deal's FORMAT.md
    round (``number``, ``dealer``, ``bidder``, ``bid``, ``trump``, ``points``, ``scores``,
    ``bid_failed``, ``deal``, ``actions``)."""

    players: tuple[str, ...]
    winners: tuple[int, ...]
    totals: dict[str, int]
    deals: int
    bids: int
    bids_made: int
    records: list[dict[str, Any]] = field(repr=False)


def play_deal(deal: Deal, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> None:
    """Play ``deal`` to its end; ``bots`` and ``rngs`` by seat of ``deal.players``."""
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        deal.apply(bots[seat].choose(deal.view(deal.players[seat]), rngs[seat]))


def play_match(
    bot_names: Sequence[str],
    seed: int,
    options: Options | None = None,
    *,
    keep_records: bool = True,
) -> MatchResult:
    """Play one whole game between ``bot_names`` (one per seat), deterministically
    from ``seed``."""
    options = options or Options()
    rules.check_players(len(bot_names))
    bots = [get_bot(name) for name in bot_names]
    players = tuple(f"P{i + 1}" for i in range(len(bot_names)))
    n = len(players)
    master = random.Random(seed)
    bot_rngs = [random.Random(master.getrandbits(64)) for _ in players]
    dealer = master.randrange(n)
    totals = [0] * n
    records: list[dict[str, Any]] = []
    bids = bids_made = 0
    for number in range(1, MAX_DEALS + 1):
        deal = Deal.new(players, players[dealer], random.Random(master.getrandbits(64)), options)
        play_deal(deal, bots, bot_rngs)
        result = deal.result()
        for seat, name in enumerate(players):
            totals[seat] += result.scores[name]
        if result.bidder is not None:
            bids += 1
            bids_made += not result.bid_failed
        if keep_records:
            record = {"number": number, **deal.round_record()}
            record["scores"] = dict(result.scores)
            record["bid_failed"] = result.bid_failed
            records.append(record)
        won = rules.winners(totals, options.target)
        if won is not None:
            return MatchResult(
                players=players,
                winners=won,
                totals=dict(zip(players, totals, strict=True)),
                deals=number,
                bids=bids,
                bids_made=bids_made,
                records=records,
            )
        dealer = (dealer + 1) % n
    raise RuntimeError(f"a game went past {MAX_DEALS} deals without a winner")
