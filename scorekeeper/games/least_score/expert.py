"""What the Least Score expert reads into the other players' moves.

A player at the table remembers what happened: who discarded which cards, who took
the floor card and who drew blind, who could have declared and did not. The expert
bot does the same with the views it is shown at its own turns (:class:`History`
rebuilds every move of the deal from two successive views: the cards that joined
the floors, split by how much each hand shrank, and the floor cards each player
was seen to keep), and then weighs possible hidden hands by how well they explain
those moves (:class:`HandReader`): a hand that would have discarded something
else, or would have declared, is unlikely. The model of a player is the strong
bot's own way of choosing (its look-ahead score of each move, its declaring rule),
softened so that other players' moves still count as evidence.

Only a player's view goes in; the generator the bot is given draws every sample.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

from scorekeeper.cards import JOKER, STANDARD_DECK, Card
from scorekeeper.games.least_score.engine import PlayerView
from scorekeeper.games.least_score.rules import (
    HAND_SIZE,
    Scoring,
    Tie,
    TwoPairs,
)

__all__ = ["HandReader", "History", "Move", "MoveRegret", "RegretModel", "TableView"]

VALUES: dict[Card, int] = {card: min(int(card.rank), 10) for card in (*STANDARD_DECK, JOKER)}


class TableView(PlayerView, Protocol):
    """A player's view with what everyone saw happen: :class:`~engine.View` and
    :class:`~engine.SeatView` both have these."""

    @property
    def dealer(self) -> str: ...
    @property
    def seen(self) -> Sequence[Card]: ...


@dataclass(frozen=True, slots=True)
class Move:
    """One turn of another player, as the table saw it."""

    seat: int
    known: tuple[Card, ...]
    """The floor cards the player was seen to take and still held before the move."""
    size: int
    """The player's hand size before the move."""
    floor: tuple[Card, ...]
    discard: tuple[Card, ...]
    take: Card | None
    """The floor card taken, or ``None`` for the deck."""
    could_declare: bool
    sizes: tuple[int, ...]
    """Every hand size as the player saw them before moving."""
    knowns: tuple[tuple[Card, ...], ...]
    """Every player's seen-taken cards as the player saw them before moving."""
    turns_taken: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Snapshot:
    players: tuple[str, ...]
    dealer: str
    seen: tuple[Card, ...]
    floor: tuple[Card, ...]
    sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    turns_taken: tuple[int, ...]
    turn: int

    @classmethod
    def of(cls, view: TableView) -> _Snapshot:
        return cls(tuple(view.players), view.dealer, tuple(view.seen), tuple(view.floor),
                   tuple(view.hand_sizes), tuple(tuple(k) for k in view.taken_seen),
                   tuple(view.turns_taken), view.turn)

    @classmethod
    def start(cls, view: TableView) -> _Snapshot:
        """The deal as it was dealt (known to everyone from any later view)."""
        n = len(view.players)
        first = view.seen[0]
        return cls(tuple(view.players), view.dealer, (first,), (first,), (HAND_SIZE,) * n,
                   ((),) * n, (0,) * n, 0)


def _moves_between(before: _Snapshot, after: _Snapshot) -> list[Move] | None:
    """The moves from ``before`` to ``after`` (each seat moving at most once), or
    ``None`` if the two views do not fit together."""
    n = len(before.players)
    if (after.players != before.players or after.dealer != before.dealer
            or not 0 <= after.turn - before.turn <= n
            or after.seen[: len(before.seen)] != before.seen):
        return None
    first = (before.players.index(before.dealer) + 1) % n
    new_cards = after.seen[len(before.seen):]
    at = 0
    floor = before.floor
    sizes = list(before.sizes)
    knowns = [list(k) for k in before.known]
    turns = list(before.turns_taken)
    moves: list[Move] = []
    for turn in range(before.turn, after.turn):
        seat = (first + turn) % n
        count = before.sizes[seat] - after.sizes[seat] + 1
        discard = new_cards[at: at + count]
        if count < 1 or len(discard) != count:
            return None
        at += count
        kept = [c for c in before.known[seat] if c not in discard]
        now = after.known[seat]
        if tuple(now[: len(kept)]) != tuple(kept) or len(now) > len(kept) + 1:
            return None
        take = now[-1] if len(now) == len(kept) + 1 else None
        if take is not None and take not in floor:
            return None
        moves.append(Move(seat, before.known[seat], before.sizes[seat], floor, discard, take,
                          turn >= n, tuple(sizes), tuple(tuple(k) for k in knowns),
                          tuple(turns)))
        sizes[seat] = after.sizes[seat]
        knowns[seat] = list(now)
        turns[seat] += 1
        floor = discard
    if at != len(new_cards) or floor != after.floor:
        return None
    return moves


@dataclass
class History:
    """The moves of the deal so far, remembered from one's own views (one per player
    the bot plays for). :meth:`update` returns ``None`` when the deal's story cannot be
    told from the views seen (a view from the middle of a deal the bot did not follow)."""

    _last: dict[str, tuple[_Snapshot, list[Move]]] = field(default_factory=dict)

    def update(self, view: TableView) -> list[Move] | None:
        now = _Snapshot.of(view)
        moves: list[Move] | None = None
        remembered = self._last.get(view.player)
        if remembered is not None:
            more = _moves_between(remembered[0], now)
            if more is not None:
                moves = [*remembered[1], *more]
        if moves is None:
            moves = _moves_between(_Snapshot.start(view), now)
        if moves is None:
            self._last.pop(view.player, None)
            return None
        self._last[view.player] = (now, moves)
        return moves


MoveRegret = Callable[[Sequence[Card], Sequence[Card], Sequence[Card], "Card | None"], float]
"""``(hand, floor, discard, take) -> how much worse that move is than the best one`` by
the model's look-ahead score (0 for the model's own choice)."""

RegretModel = Callable[[Sequence[Card], TwoPairs], MoveRegret]
"""``(the possible deck cards, two_pairs) -> MoveRegret``."""


class Reading(TypedDict, total=False):
    """A :class:`HandReader`'s settings other than its model and particles (the expert
    bot's ``reading``)."""

    temperature: float
    declare_miss: float
    floor_weight: float
    min_good: float
    min_edge: float
    keep_bias: int
    outlook_samples: int


class HandReader:
    """Samples the other players' hidden cards, weighted by how well each explains the
    moves the player made (a particle filter: sequential importance resampling).

    ``particles``: hidden hands kept per player. ``temperature``: how sharply a move
    worse than the model's best (by the strong bot's look-ahead score) counts against
    a hand. ``declare_miss``: the weight of a hand with which the player would have
    declared but did not.
    """

    def __init__(self, regret_model: RegretModel, particles: int = 96, temperature: float = 0.1,
                 declare_miss: float = 0.02, floor_weight: float = 1e-3,
                 min_good: float = 0.8, min_edge: float = 2.0, keep_bias: int = 2,
                 outlook_samples: int = 64) -> None:
        self.regret_model = regret_model
        self.particles = particles
        self.temperature = temperature
        self.declare_miss = declare_miss
        self.floor_weight = floor_weight
        self.min_good = min_good
        self.min_edge = min_edge
        self.keep_bias = keep_bias
        self.outlook_samples = outlook_samples

    def read(self, view: PlayerView, moves: Sequence[Move], unseen: Sequence[Card],
             rng: random.Random) -> dict[int, list[list[Card]]]:
        """For each other player with hidden cards, ``particles`` equally likely hidden
        hands (cards from ``unseen``)."""
        pool = list(unseen)
        hidden_of_mine = [c for c in view.hand if c not in view.taken_seen[view.seat]]
        # What the others may think is in the deck: everything they have not seen.
        their_pool = pool + hidden_of_mine
        by_seat: dict[int, list[Move]] = {}
        for move in moves:
            by_seat.setdefault(move.seat, []).append(move)
        move_regret = self.regret_model(their_pool, view.options.two_pairs)
        result: dict[int, list[list[Card]]] = {}
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                continue
            hidden = size - len(view.taken_seen[seat])
            if hidden <= 0:
                continue
            result[seat] = self._filter(view, seat, hidden, by_seat.get(seat, []), pool,
                                        their_pool, move_regret, rng)
        return result

    def _filter(self, view: PlayerView, seat: int, hidden_now: int, moves: Sequence[Move],
                pool: Sequence[Card], their_pool: Sequence[Card], move_regret: MoveRegret,
                rng: random.Random) -> list[list[Card]]:
        count = self.particles
        start = moves[0].size - len(moves[0].known) if moves else hidden_now
        particles = [rng.sample(pool, min(start, len(pool))) for _ in range(count)]
        pool_set = set(pool)
        revealed_at = [[c for c in move.discard if c not in move.known] for move in moves]
        for index, move in enumerate(moves):
            revealed = revealed_at[index]
            # Hidden cards change only by blind draws: what the player shows later, with
            # no draw from the deck in between, was in the hand already.
            held = list(revealed)
            later = index
            while later + 1 < len(moves) and moves[later].take is not None:
                later += 1
                held += revealed_at[later]
            if held:
                _place_held(particles, held, rng)
            limit = self._declare_limit(view, move, their_pool, rng) \
                if move.could_declare else -1
            weights = self._weights(particles, move, limit, move_regret)
            particles = _resample(particles, weights, rng)
            particles = [[c for c in hand if c not in revealed] for hand in particles]
            if move.take is None:
                _draw_blind(particles, pool, rng)
        # Cards seen elsewhere since (or a count that went astray): fill from the unseen.
        for hand in particles:
            kept = [c for c in hand if c in pool_set]
            del kept[hidden_now:]
            while len(kept) < hidden_now and len(kept) < len(pool):
                card = pool[rng.randrange(len(pool))]
                if card not in kept:
                    kept.append(card)
            hand[:] = kept
        return particles

    def _weights(self, particles: Sequence[list[Card]], move: Move, limit: int,
                 move_regret: MoveRegret) -> list[float]:
        """How likely each particle's hidden hand made ``move`` (the same hand once)."""
        cache: dict[tuple[Card, ...], float] = {}
        weights = []
        for hand in particles:
            key = tuple(sorted(hand))
            weight = cache.get(key)
            if weight is None:
                full = [*move.known, *hand]
                regret = move_regret(full, move.floor, move.discard, move.take)
                weight = max(self.floor_weight, math.exp(-regret / self.temperature))
                if limit >= 0 and sum(VALUES[c] for c in full) <= limit:
                    weight *= self.declare_miss
                cache[key] = weight
            weights.append(weight)
        return weights

    def _declare_limit(self, view: PlayerView, move: Move, their_pool: Sequence[Card],
                       rng: random.Random) -> int:
        """The highest total with which the player, as the strong bot reasons, would have
        declared instead of this move (-1: none)."""
        values = [VALUES[c] for c in their_pool]
        others: list[tuple[int, int, int]] = []
        for seat, size in enumerate(move.sizes):
            if seat == move.seat:
                continue
            known = move.knowns[seat]
            hidden = max(0, size - len(known))
            extra = min(move.turns_taken[seat], self.keep_bias) if hidden else 0
            others.append((sum(VALUES[c] for c in known), hidden, extra))
        need = sum(h + e for _, h, e in others)
        while need > len(values) and any(e for _, _, e in others):
            others = [(k, h, max(0, e - 1)) for k, h, e in others]
            need = sum(h + e for _, h, e in others)
        if need > len(values) or not others:
            return -1
        lows: list[int] = []
        sums: list[int] = []
        for _ in range(self.outlook_samples):
            drawn = rng.sample(values, need)
            at = 0
            totals = []
            for known_total, hidden, extra in others:
                part = sorted(drawn[at: at + hidden + extra])[:hidden]
                at += hidden + extra
                totals.append(known_total + sum(part))
            lows.append(min(totals))
            sums.append(sum(totals))
        options = view.options
        strict = options.tie is Tie.DECLARER_LOSES
        penalty = options.penalty
        by_hand = options.scoring is Scoring.HAND  # (a failed call: as if one hand is lowest)
        m = len(others)
        limit = -1
        for total in range(0, min(options.declare_at, HAND_SIZE * 10) + 1):
            good = 0
            result = 0.0
            for low, all_ in zip(lows, sums, strict=True):
                if total < low or (total == low and not strict):
                    good += 1
                    result += (all_ - (0 if by_hand else m * total)) / m
                elif by_hand:
                    result += (all_ - low) / m - penalty - total
                else:
                    result -= penalty + total - low
            n = len(lows)
            if good / n >= self.min_good and result / n >= self.min_edge:
                limit = total
            else:
                break
        return limit


def _place_held(particles: Sequence[list[Card]], held: Sequence[Card],
                rng: random.Random) -> None:
    """Put the ``held`` cards (shown later, so in the hand already) into each particle,
    each over a random card that is not one of them."""
    for hand in particles:
        slots = [i for i, c in enumerate(hand) if c not in held]
        for card in held:
            if card in hand:
                continue
            i = slots.pop(rng.randrange(len(slots))) if slots else None
            if i is None:
                hand.append(card)
            else:
                hand[i] = card


def _draw_blind(particles: Sequence[list[Card]], pool: Sequence[Card],
                rng: random.Random) -> None:
    """A draw from the deck: a random unseen card into each particle."""
    for hand in particles:
        card = pool[rng.randrange(len(pool))]
        while card in hand and len(hand) < len(pool):
            card = pool[rng.randrange(len(pool))]
        hand.append(card)


def _resample(particles: list[list[Card]], weights: Sequence[float],
              rng: random.Random) -> list[list[Card]]:
    """Systematic resampling: ``len(particles)`` copies drawn in proportion to ``weights``."""
    count = len(particles)
    total = sum(weights)
    if total <= 0:
        return [list(h) for h in particles]
    step = total / count
    point = rng.random() * step
    out: list[list[Card]] = []
    acc = 0.0
    i = -1
    for _ in range(count):
        while acc <= point and i < count - 1:
            i += 1
            acc += weights[i]
        out.append(list(particles[i]))
        point += step
    return out
