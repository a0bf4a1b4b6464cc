"""Whole Least Score games between bots, for simulations and benchmarks.

Determinism: everything comes from ``random.Random(seed)``. From it, in this order,
one generator per seat for the bots' own choices, then one generator per deal
(for its shuffle and any reshuffle), each seeded with 64 bits drawn from it.
The first dealer is seat 0; the deal then passes to the left among the players
still in (``rules.next_dealer``). Players are named ``P1``, ``P2``, ... by seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.bots import Bot, get_bot
from scorekeeper.games.least_score.engine import Deal
from scorekeeper.games.least_score.rules import Options

__all__ = ["MAX_TURNS_PER_DEAL", "DealRecord", "MatchResult", "play_deal", "play_match"]

MAX_TURNS_PER_DEAL = 5000
"""A safety net: a deal this long means a bot never declares (a bug)."""


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal as FORMAT.md saves it, with what it added to the running totals."""

    deal: dict[str, Any]
    actions: list[dict[str, Any]]
    declarer: str
    scores: dict[str, int]
    false_declaration: bool


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished game: winners are seat indices (a shared first-out win lists several)."""

    players: tuple[str, ...]
    winners: tuple[int, ...]
    totals: dict[str, int]
    knocked_out: tuple[str, ...]
    deals: int
    declarations: int
    false_declarations: int
    turns: int
    records: list[DealRecord] = field(repr=False)


def play_deal(
    deal: Deal, bots: Sequence[Bot], rngs: Sequence[random.Random]
) -> int:
    """Play ``deal`` to its declaration; ``bots`` and ``rngs`` by seat of ``deal.players``.

    Returns the number of turns played.
    """
    seats = {name: i for i, name in enumerate(deal.players)}
    turns = 0
    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        seat = seats[player]
        deal.apply(bots[seat].choose(deal.view(player), rngs[seat]))
        turns += 1
        if turns > MAX_TURNS_PER_DEAL:
            raise RuntimeError(f"a deal went past {MAX_TURNS_PER_DEAL} turns without a declaration")
    return turns


def play_match(
    bot_names: Sequence[str], seed: int, options: Options | None = None,
    *, keep_records: bool = True,
) -> MatchResult:
    """Play one whole game between ``bot_names`` (one per seat), deterministically from
    ``seed``: knock-outs over the limit, the deal passing left among those still in,
    until ``rules.winners`` says it is over."""
    options = options or Options()
    if not rules.MIN_PLAYERS <= len(bot_names) <= rules.MAX_PLAYERS:
        raise ValueError(
            f"Least Score is for {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players"
        )
    bots = [get_bot(name) for name in bot_names]
    players = tuple(f"P{i + 1}" for i in range(len(bot_names)))
    master = random.Random(seed)
    bot_rngs = [random.Random(master.getrandbits(64)) for _ in players]
    running = dict.fromkeys(players, 0)
    out: list[str] = []
    dealer = players[0]
    records: list[DealRecord] = []
    deals = declarations = false_declarations = turns = 0
    while True:
        still_in = [p for p in players if p not in out]
        seat_of = [players.index(p) for p in still_in]
        deal = Deal.new(still_in, dealer, random.Random(master.getrandbits(64)), options)
        turns += play_deal(deal, [bots[s] for s in seat_of], [bot_rngs[s] for s in seat_of])
        result = deal.result()
        deals += 1
        declarations += 1
        false_declarations += result.false_declaration
        for name, score in result.scores.items():
            running[name] += score
        if keep_records:
            deal_dict, actions = deal.to_record()
            records.append(
                DealRecord(deal_dict, actions, result.declarer, dict(result.scores),
                           result.false_declaration)
            )
        newly = [p for p in rules.knocked_out(running, options.limit)
                 if p not in out and p in still_in]
        out.extend(newly)
        still_in = [p for p in players if p not in out]
        won = rules.winners(running, still_in, bool(out), options.end)
        if won is not None:
            return MatchResult(
                players=players,
                winners=tuple(players.index(p) for p in won),
                totals=dict(running),
                knocked_out=tuple(out),
                deals=deals,
                declarations=declarations,
                false_declarations=false_declarations,
                turns=turns,
                records=records,
            )
        dealer = rules.next_dealer(players, dealer, still_in)
