"""Least Score bots. A bot sees only a player's view (never the deal): a :class:`View`
in ``score play``, the live :class:`SeatView` in ``score simulate`` (both a
:class:`PlayerView`, with the same values, so both give the same games), and gets a
``random.Random`` for its own choices; it returns one legal action.

- ``random``: uniform over the legal actions.
- ``greedy``: discards its highest-value set, takes a floor card lower than an
  average deck card, declares at a fixed total.
- ``strong``: tracks the cards seen, samples the opponents' hidden cards from the
  unseen ones (biased low: players keep their low cards), declares when the
  sampled expected result of declaring is good enough, and picks its move by a
  one-ply look-ahead that averages over the possible deck cards and values the
  sets its hand keeps for later.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scorekeeper.cards import JOKER, STANDARD_DECK, SUITS, Card, Rank
from scorekeeper.games.least_score.engine import (
    Action,
    Declare,
    Discard,
    PlayerView,
    SeatView,
    State,
    View,
    legal_discard_sets,
)
from scorekeeper.games.least_score.expert import (
    HandReader,
    History,
    Move,
    MoveRegret,
    Reading,
)
from scorekeeper.games.least_score.rules import HAND_SIZE, JOKER_VALUE, Scoring, Tie, TwoPairs

__all__ = ["BOTS", "Advice", "Bot", "ExpertBot", "GreedyBot", "RandomBot", "StrongBot",
           "get_bot", "stalling"]

STALL_TURNS_PER_PLAYER = 60
"""After this many turns per player a deal is stalling: greedy and strong declare."""

_VALUES: dict[Card, int] = {card: min(int(card.rank), 10) for card in (*STANDARD_DECK, JOKER)}
"""Each card's value (a joker's, under Yaniv's house rule ``jokers``, 0)."""
MEAN_CARD = sum(_VALUES[card] for card in STANDARD_DECK) / len(STANDARD_DECK)  # 85/13 ~ 6.54


def _first(item: tuple[float, Any, Any]) -> float:
    return item[0]


def _disjoint_pick(particles: Sequence[Sequence[Card]], used: set[Card],
                   rng: random.Random) -> int:
    """The index of a particle drawn at random, redrawn (up to 4 draws in all) while it
    shares a card with ``used``: the last draw stands."""
    for _attempt in range(4):
        pick = rng.randrange(len(particles))
        if used.isdisjoint(particles[pick]):
            break
    return pick


def _value(cards: Sequence[Card]) -> int:
    values = _VALUES
    return sum(values[c] for c in cards)


class Sampler:
    """Draws ``k`` of ``population`` again and again: each draw the same items as
    ``random.Random.sample(population, k)`` (CPython 3.11+) with that generator's
    ``getrandbits``, without its per-item calls (the strong bot samples hidden hands
    hundreds of times per decision)."""

    __slots__ = ("_bits", "_getrandbits", "_k", "_population", "_small")

    def __init__(self, population: Sequence[int], k: int,
                 getrandbits: Callable[[int], int]) -> None:
        n = len(population)
        setsize = 21
        if k > 5:
            setsize += 4 ** math.ceil(math.log(k * 3, 4))
        self._population = list(population)
        self._k = k
        self._getrandbits = getrandbits
        self._small = n <= setsize
        """random.sample's choice: pick from a shrinking copy, else reject repeats."""
        self._bits = [m.bit_length() for m in range(n + 1)]

    def draw(self) -> list[int]:
        getrandbits = self._getrandbits
        bits = self._bits
        population = self._population
        n = len(population)
        result = []
        if self._small:
            pool = population[:]
            for m in range(n, n - self._k, -1):
                width = bits[m]
                j = getrandbits(width)
                while j >= m:
                    j = getrandbits(width)
                result.append(pool[j])
                pool[j] = pool[m - 1]
        else:
            selected: set[int] = set()
            width = bits[n]
            for _ in range(self._k):
                j = getrandbits(width)
                while j >= n or j in selected:
                    j = getrandbits(width)
                selected.add(j)
                result.append(population[j])
        return result


def stalling(view: PlayerView) -> bool:
    """The deal has gone on for :data:`STALL_TURNS_PER_PLAYER` turns per player: the bots
    that may declare do."""
    return view.turn >= STALL_TURNS_PER_PLAYER * len(view.players)


def passed_joker(view: PlayerView) -> Discard | None:
    """In a stalling deal only a hand of jokers may end (a threshold of 0: Yaniv's
    ``--declare-at 0`` with jokers), the bots that cannot call pass the jokers round: one
    holding a joker discards it (the bots keep their jokers, and none would ever hold
    nothing else; the next player takes it, a joker is worth 0, on the way to a hand of
    jokers), one without draws from the deck, where the jokers are (the bots take
    the floor's low cards, and the deck would never be drawn). ``None``: no such move."""
    options = view.options
    if not options.jokers or options.declare_at > JOKER_VALUE or view.can_declare \
            or not stalling(view):
        return None
    if JOKER in view.hand:
        take = None if view.deck_available else min(view.floor, key=_VALUES.__getitem__)
        return Discard((JOKER,), take)
    if not view.deck_available:
        return None
    return Discard(max(view.legal_discards(), key=lambda s: (_value(s), len(s))), None)


class Bot(Protocol):
    """A Least Score player: one legal action from what it may see."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the legal actions (without building them all)."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        sets = view.legal_discards()
        takes = view.take_options()
        count = len(sets) * len(takes)
        pick = rng.randrange(count + (1 if view.can_declare else 0))
        if pick == count:
            return Declare()
        return Discard(sets[pick // len(takes)], takes[pick % len(takes)])


class GreedyBot:
    """Highest-value discard; a floor card when it beats an average deck card;
    declares at ``declare_at`` or lower."""

    name = "greedy"

    def __init__(self, declare_at: int = 5, take_below: float = MEAN_CARD) -> None:
        self.declare_at = declare_at
        self.take_below = take_below

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.can_declare and (_value(view.hand) <= self.declare_at or stalling(view)):
            return Declare()
        passed = passed_joker(view)
        if passed is not None:
            return passed
        sets = view.legal_discards()
        discard = max(sets, key=lambda s: (_value(s), len(s)))
        lowest = min(view.floor, key=_VALUES.__getitem__)
        take: Card | None = None
        if _VALUES[lowest] < self.take_below or not view.deck_available:
            take = lowest
        return Discard(discard, take)


@dataclass(frozen=True, slots=True)
class Advice:
    """What the strong bot would do in a player's place, and its estimate (a hint)."""

    action: Action
    declare_chance: float | None = None
    """The sampled chance that declaring now is a good declaration (``None``: not
    weighed, because declaring is not allowed now or the deal is stalling)."""
    declare_edge: float | None = None
    """The expected points of declaring now: the others' average score minus one's own."""


class StrongBot:
    """Card counting, sampled declarations and a one-ply look-ahead.

    Parameters (defaults set by hand, checked by simulation against ``greedy``):

    ``samples``: hidden-hand samples per declaration decision.
    ``keep_bias``: each opponent's hidden cards are drawn as the lowest of
    ``hidden + min(turns, keep_bias)`` unseen cards (players keep low cards).
    ``min_edge``: declare when the expected result of declaring (opponents'
    average points minus own) is at least this.
    ``min_good``: and the sampled chance of a good declaration is at least this.
    ``now_weight``: how much the look-ahead weighs the hand total right after the
    move against the total after the best discard next turn.
    ``card_cost``: the long-run cost of each card kept in hand.
    """

    name = "strong"

    def __init__(
        self,
        samples: int = 200,
        keep_bias: int = 2,
        min_edge: float = 2.0,
        min_good: float = 0.8,
        now_weight: float = 0.5,
        card_cost: float = 2.5,
        give_up: bool = False,
    ) -> None:
        self.samples = samples
        self.give_up = give_up
        """Stop sampling a declaration once it can no longer be good often enough: the
        same decisions on fewer draws (the play-outs' bots; :meth:`advise`'s estimate is
        then partial)."""
        self.keep_bias = keep_bias
        self.min_edge = min_edge
        self.min_good = min_good
        self.now_weight = now_weight
        self.card_cost = card_cost
        self._scores: dict[tuple[tuple[int, ...], bool, TwoPairs], float] = {}
        """:meth:`_shape_score` by shape: a few thousand hand shapes in all."""
        self._regret_models: dict[TwoPairs, MoveRegret] = {}
        self._by_rank: dict[tuple[tuple[int, ...], TwoPairs], dict[int, float]] = {}
        """:meth:`_with_each_rank` by kept ranks."""

    # -- what is still unseen -------------------------------------------------

    @staticmethod
    def unseen(view: PlayerView) -> list[Card]:
        """Cards whose place the bot does not know: in the deck or hidden in a hand."""
        known: set[Card] = set(view.hand)
        known.update(view.floor)
        known.update(view.dead_pile)
        for seat, cards in enumerate(view.taken_seen):
            if seat != view.seat:
                known.update(cards)
        unseen = [card for card in STANDARD_DECK if card not in known]
        jokers = view.options.jokers
        if jokers:  # the jokers are alike: counted, not looked up
            jokers -= view.hand.count(JOKER) + view.floor.count(JOKER) \
                + view.dead_pile.count(JOKER) + sum(
                    cards.count(JOKER) for seat, cards in enumerate(view.taken_seen)
                    if seat != view.seat)
            unseen.extend([JOKER] * max(jokers, 0))
        return unseen

    # -- declaring -------------------------------------------------------------

    def declaration_outlook(
        self, view: PlayerView, rng: random.Random, total: int | None = None,
        stop_below: float | None = None,
    ) -> tuple[float, float]:
        """(chance of a good declaration, expected result) for declaring with ``total``.

        The result is the opponents' average score minus the bot's own, averaged over
        sampled hidden hands. With ``stop_below``, sampling stops as soon as the chance
        can no longer reach it; the chance returned is then below it, and both figures
        are partial (sums over the samples drawn, divided by :attr:`samples`).
        """
        declared = _value(view.hand) if total is None else total
        pool_values = [_VALUES[c] for c in self.unseen(view)]
        opponents: list[tuple[int, int, int]] = []  # (known total, hidden count, extra drawn)
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                continue
            known = view.taken_seen[seat]
            hidden = max(0, size - len(known))
            extra = min(view.turns_taken[seat], self.keep_bias) if hidden else 0
            opponents.append((_value(known), hidden, extra))
        need = sum(h + e for _, h, e in opponents)
        while need > len(pool_values) and any(e for _, _, e in opponents):
            opponents = [(k, h, max(0, e - 1)) for k, h, e in opponents]  # late in a deal
            need = sum(h + e for _, h, e in opponents)
        if need > len(pool_values):  # only with an inconsistent view: assume average cards
            pool_values += [round(MEAN_CARD)] * (need - len(pool_values))
        options = view.options
        strict = options.tie is Tie.DECLARER_LOSES
        penalty = options.penalty
        by_hand = options.scoring is Scoring.HAND
        good = 0
        result = 0.0
        others = len(opponents)
        draw = Sampler(pool_values, need, rng.getrandbits).draw
        samples = self.samples
        # the fewest good samples whose chance (good / samples) reaches stop_below
        needed = 0 if stop_below is None else next(
            (k for k in range(samples + 1) if k / samples >= stop_below), samples + 1)
        for done in range(samples):
            if good + samples - done < needed:
                break
            drawn = draw()
            totals = []
            at = 0
            for known_total, hidden, extra in opponents:
                if extra:
                    part = sorted(drawn[at : at + hidden + extra])[:hidden]
                else:
                    part = drawn[at : at + hidden]
                at += hidden + extra
                totals.append(known_total + sum(part))
            lowest = min(totals)
            if declared < lowest or (declared == lowest and not strict):
                good += 1
                result += (sum(totals) - (0 if by_hand else others * declared)) / others
            elif by_hand:
                result += _assaf_edge(totals, lowest, others) - penalty - declared
            else:
                result -= penalty + declared - lowest
        return good / self.samples, result / self.samples

    # -- moving ----------------------------------------------------------------

    def _hand_score(self, hand: Sequence[Card], two_pairs: TwoPairs) -> float:
        """Lower is better: the total now and after the best discard next turn."""
        total = _value(hand)
        best_next = min(
            total - _value(s) + self.card_cost * (len(hand) - len(s))
            for s in legal_discard_sets(hand, two_pairs)
        )
        return self.now_weight * total + (1 - self.now_weight) * best_next

    def _shape_score(self, ranks: tuple[int, ...], flush: bool, two_pairs: TwoPairs) -> float:
        """:meth:`_hand_score` of any hand with these sorted ranks (all of one suit when
        ``flush``): the legal sets and their values depend on nothing else."""
        key = (ranks, flush, two_pairs)
        score = self._scores.get(key)
        if score is None:
            suits = [SUITS[0]] * len(ranks) if flush else [SUITS[i % 4] for i in range(len(ranks))]
            hand = [JOKER if rank == Rank.JOKER else Card(Rank(rank), suit)
                    for rank, suit in zip(ranks, suits, strict=True)]
            score = self._scores[key] = self._hand_score(hand, two_pairs)
        return score

    def _with_each_rank(self, kept: tuple[int, ...], two_pairs: TwoPairs) -> dict[int, float]:
        """:meth:`_shape_score` of the sorted ranks ``kept`` with each rank added (not of
        one suit), by the rank added; remembered."""
        scores = self._by_rank.get((kept, two_pairs))
        if scores is None:
            scores = self._by_rank[kept, two_pairs] = {
                rank: self._shape_score(tuple(sorted([*kept, rank])), False, two_pairs)
                for rank in Rank}  # (a joker: Yaniv's house rule jokers)
        return scores

    def _kept_score(self, rest: Sequence[Card], card: Card, two_pairs: TwoPairs) -> float:
        """:meth:`_hand_score` of ``rest`` with ``card`` added."""
        ranks = tuple(sorted([*(c.rank for c in rest), card.rank]))
        flush = len(ranks) == 5 and all(c.suit is card.suit for c in rest)
        return self._shape_score(ranks, flush, two_pairs)

    def scored_moves(self, view: PlayerView) -> list[tuple[float, tuple[Card, ...], Card | None]]:
        """Every move (discard, take: ``None`` for the deck) with its look-ahead score,
        lower is better, in the order of the legal discards and then of the takes."""
        hand = list(view.hand)
        two_pairs = view.options.two_pairs
        # The top of the deck is one of the unseen cards (or, when the deck is empty,
        # one of the dead pile, about to be reshuffled): weigh them evenly.
        pool = self.unseen(view) if view.deck_size else list(view.dead_pile)
        takes = view.take_options()
        if not pool and None in takes:
            takes.remove(None)
        scored: list[tuple[float, tuple[Card, ...], Card | None]] = []
        for cards in view.legal_discards():
            rest = [c for c in hand if c not in cards]
            for take in takes:
                if take is None:
                    score = self._deck_score(rest, pool, two_pairs)
                else:
                    score = self._kept_score(rest, take, two_pairs)
                scored.append((score, cards, take))
        return scored

    def best_move(self, view: PlayerView) -> Discard:
        """The discard and take with the best (lowest) look-ahead score (the first of
        :meth:`scored_moves` on a tie)."""
        _, cards, take = min(self.scored_moves(view), key=_first)
        return Discard(cards, take)

    def move_regret(self, hand: Sequence[Card], floor: Sequence[Card], pool: Sequence[Card],
                    two_pairs: TwoPairs, discard: Sequence[Card], take: Card | None) -> float:
        """How much worse (by :meth:`best_move`'s score, with ``pool`` the possible deck
        cards) the move ``discard``/``take`` is than the best move with ``hand``."""
        best = math.inf
        chosen = math.inf
        discarded = set(discard)
        for cards in legal_discard_sets(hand, two_pairs):
            rest = [c for c in hand if c not in cards]
            mine = len(cards) == len(discarded) and discarded.issuperset(cards)
            if pool:
                score = self._deck_score(rest, pool, two_pairs)
                best = min(best, score)
                if mine and take is None:
                    chosen = score
            for card in floor:
                score = self._kept_score(rest, card, two_pairs)
                best = min(best, score)
                if mine and card == take:
                    chosen = score
        return chosen - best

    def regret_model(self, pool: Sequence[Card], two_pairs: TwoPairs) -> MoveRegret:
        """:meth:`move_regret` with ``two_pairs`` fixed, worked out on ranks and
        remembered across calls (suits matter only to a hand with four cards of a suit).
        Such a hand is weighed against ``pool``; any other against a full deck's ranks,
        which a player's possible deck cards differ little from."""
        model = self._regret_models.get(two_pairs)
        if model is None:
            model = self._regret_models[two_pairs] = self._rank_regret(two_pairs)

        def regret(hand: Sequence[Card], floor: Sequence[Card], discard: Sequence[Card],
                   take: Card | None) -> float:
            suits: set[object] = set()
            for card in hand:
                suits.add(card.suit)
            if len(hand) >= 4 and len(suits) <= len(hand) - 3:
                # maybe four of a suit
                counts = [sum(1 for c in hand if c.suit is suit) for suit in suits]
                if max(counts) >= 4:
                    return self.move_regret(hand, floor, pool, two_pairs, discard, take)
            return model(hand, floor, discard, take)

        return regret

    def _rank_regret(self, two_pairs: TwoPairs) -> MoveRegret:
        """:meth:`move_regret` of hands without four cards of a suit, by ranks, against a
        full deck's ranks: each part remembered."""
        count = len(STANDARD_DECK)
        by_rank: dict[int, int] = {}
        for card in STANDARD_DECK:
            by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
        deck_scores: dict[tuple[int, ...], float] = {}
        rests_of: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        best_deck: dict[tuple[int, ...], float] = {}
        best_kept: dict[tuple[tuple[int, ...], int], float] = {}
        suits = [SUITS[i % 4] for i in range(HAND_SIZE)]

        def deck_score(rest: tuple[int, ...]) -> float:
            score = deck_scores.get(rest)
            if score is None:
                added = self._with_each_rank(rest, two_pairs)
                score = sum(n * added[rank] for rank, n in by_rank.items()) / count
                deck_scores[rest] = score
            return score

        def rests(ranks: tuple[int, ...]) -> list[tuple[int, ...]]:
            found = rests_of.get(ranks)
            if found is None:
                cards = [Card(Rank(r), suit) for r, suit in zip(ranks, suits, strict=False)]
                unique = set()
                for cards_out in legal_discard_sets(cards, two_pairs):
                    rest = list(ranks)
                    for card in cards_out:
                        rest.remove(card.rank)
                    unique.add(tuple(rest))
                found = rests_of[ranks] = sorted(unique)
                best_deck[ranks] = min(deck_score(rest) for rest in found)
            return found

        def regret(hand: Sequence[Card], floor: Sequence[Card], discard: Sequence[Card],
                   take: Card | None) -> float:
            ranks = tuple(sorted(c.rank for c in hand))
            options = rests(ranks)
            best = best_deck[ranks]
            for rank in {c.rank for c in floor}:
                kept = best_kept.get((ranks, rank))
                if kept is None:
                    kept = best_kept[ranks, rank] = min(
                        self._with_each_rank(rest, two_pairs)[rank] for rest in options)
                best = min(best, kept)
            rest_list = list(ranks)
            for card in discard:
                rest_list.remove(card.rank)
            rest = tuple(rest_list)
            if take is None:
                return deck_score(rest) - best
            return self._with_each_rank(rest, two_pairs)[take.rank] - best

        return regret

    def _deck_score(self, rest: Sequence[Card], pool: Sequence[Card],
                    two_pairs: TwoPairs) -> float:
        """The mean :meth:`_hand_score` of ``rest`` with each card of ``pool`` added,
        summed in ``pool`` order (so the same float as adding the scores one by one)."""
        by_rank = self._with_each_rank(tuple(sorted(c.rank for c in rest)), two_pairs)
        suits = {c.suit for c in rest}
        if len(rest) == 4 and len(suits) == 1:  # a card of that suit makes a flush
            suit = suits.pop()
            scores = [self._kept_score(rest, c, two_pairs) if c.suit is suit else by_rank[c.rank]
                      for c in pool]
        else:
            scores = [by_rank[c.rank] for c in pool]
        return sum(scores) / len(pool)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return self.advise(view, rng).action

    def advise(self, view: PlayerView, rng: random.Random) -> Advice:
        """The action :meth:`choose` takes (same draws from ``rng``), with its estimate."""
        if view.can_declare:
            if stalling(view):
                return Advice(Declare())
            chance, edge = self.declaration_outlook(
                view, rng, stop_below=self.min_good if self.give_up else None)
            if self.declares(view, chance, edge):
                return Advice(Declare(), chance, edge)
            return Advice(self.best_move(view), chance, edge)
        return Advice(passed_joker(view) or self.best_move(view))

    def declares(self, view: PlayerView, chance: float, edge: float) -> bool:
        """The declaring rule: declare on this outlook (the sampled chance of a good
        declaration and the expected result)?"""
        return chance >= self.min_good and edge >= self.min_edge


class ExpertBot(StrongBot):
    """Declaring on a reading of the other players' hands, and moves chosen by playing
    the deal out.

    It remembers the deal's moves (:class:`~expert.History`) and samples each other
    player's hidden cards by how well they explain that player's discards, takes and
    declining to declare (:class:`~expert.HandReader`, modelling the player as the
    strong bot), then declares when the sampled chance of a good declaration and the
    expected edge are high enough. Without the deal's story (a view from the middle of
    a deal it did not follow) it falls back on the strong bot's estimate and moves.

    The thresholds were set against three strong bots (the same deals or games
    played by each candidate, ``benchmarks/expert_paired.py`` for whole games): with
    the reading, a 60% chance and an expected edge of 3 points in a duel, and of
    ``group_edge`` (0 points) while three or more are in (:meth:`declares`). On paired
    deals the edge asked for changed nothing measurable in points; over 3,000 paired
    games, 0 instead of 3 with three or more in won 1.1% more of them (in a duel, 3
    stayed best).

    Moves (:meth:`search_move`): the strong bot's look-ahead ranks them; when its best
    few are close, each is played out ``rollouts`` times to the end of the deal, over
    hidden hands drawn from the reading and the same shuffled deck for every candidate,
    everyone (the expert too) played by a quicker strong bot (``rollout_samples`` hands
    per declaration); the move with the best average result is played.
    ``rollouts=0``: strong's moves.
    """

    name = "expert"

    def __init__(self, min_good: float = 0.6, min_edge: float = 3.0,
                 group_edge: float = 0.0, particles: int = 96, read_from: float = 0.05,
                 reading: Reading | None = None, rollouts: int = 32,
                 candidates: int = 3, search_within: float = 1.5,
                 rollout_samples: int = 24, rollout_turns: int = 40,
                 rollout_give_up: bool = False, **kwargs: Any) -> None:
        super().__init__(min_good=min_good, min_edge=min_edge, **kwargs)
        self.group_edge = group_edge
        """The expected edge asked for while three or more players are in the deal
        (``min_edge`` is the duel's)."""
        self.read_from = read_from
        """Read the others' moves only when the strong bot's own estimate of a good
        declaration is at least this (below it, the reading never finds one either)."""
        self.history = History()
        self.reader = HandReader(StrongBot().regret_model, particles=particles, **(reading or {}))
        self.rollouts = rollouts
        """Play-outs per candidate move (0: no search)."""
        self.candidates = candidates
        """At most this many of the look-ahead's best moves are played out..."""
        self.search_within = search_within
        """...those within this many points of its best score."""
        self.rollout_turns = rollout_turns
        """A play-out still going after this many turns ends with the player to act
        declaring (it would stall: a stalling deal is declared the same way)."""
        # rollout_give_up=True: the play-outs' bots stop sampling hopeless declarations,
        # about a quarter faster on other draws (so other games); no stronger (README)
        self.rollout_others = StrongBot(samples=rollout_samples, give_up=rollout_give_up)
        self.rollout_self = StrongBot(samples=rollout_samples, min_good=min_good,
                                      min_edge=group_edge, give_up=rollout_give_up)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        moves = self.history.update(view) if isinstance(view, View | SeatView) else None
        if view.can_declare:
            if stalling(view):
                return Declare()
            chance, edge = self.outlook(view, moves, rng)
            if self.declares(view, chance, edge):
                return Declare()
        return passed_joker(view) or self.search_move(view, moves, rng)

    def search_move(self, view: PlayerView, moves: Sequence[Move] | None,
                    rng: random.Random) -> Discard:
        """The move to play: strong's best, unless one of its close runners-up does
        better played out over hidden hands read from ``moves`` (see the class)."""
        scored = self.scored_moves(view)
        _, cards, take = min(scored, key=_first)
        if moves is None or self.rollouts <= 0:
            return Discard(cards, take)
        contenders = self.contenders(scored)
        if len(contenders) < 2:
            return Discard(cards, take)
        hands = self.reader.read(view, moves, self.unseen(view), rng)
        values = self.play_out(view, hands, contenders, rng)
        return contenders[values.index(max(values))]

    def contenders(self, scored: Sequence[tuple[float, tuple[Card, ...], Card | None]]
                   ) -> list[Discard]:
        """The moves :meth:`search_move` plays out: the look-ahead's best few
        (:attr:`candidates`), those within :attr:`search_within` of its best score, best
        first (``scored``: :meth:`scored_moves`)."""
        ranked = sorted(scored, key=_first)[: self.candidates]
        best_score = ranked[0][0]
        return [Discard(c, t) for score, c, t in ranked
                if score <= best_score + self.search_within]

    def play_out(self, view: PlayerView, hands: Mapping[int, Sequence[Sequence[Card]]],
                 contenders: Sequence[Discard], rng: random.Random) -> list[float]:
        """Each contender's average result (the others' average score minus one's own)
        over :attr:`rollouts` deals played out from ``view``: each deal draws the other
        players' hidden cards from ``hands`` (per seat, equally likely hidden hands:
        :meth:`HandReader.read`) and the deck from the rest, and every contender is
        played on the same deal with the same draws."""
        totals = [0.0] * len(contenders)
        me = view.seat
        others = len(view.players) - 1
        unseen = self.unseen(view)
        for _ in range(self.rollouts):
            start = State.from_view(view, *self._deal_hidden(view, hands, unseen, rng))
            seed = rng.getrandbits(32)
            for index, move in enumerate(contenders):
                draws = random.Random(seed)
                state = start.clone()
                if state.move(move.cards, move.take):
                    state.apply_chance(state.chance_outcome(draws))
                self._play_to_the_end(state, me, draws)
                scores = state.score().scores
                points = [scores[name] for name in state.info.players]
                totals[index] += (sum(points) - points[me]) / others - points[me]
        return [total / self.rollouts for total in totals]

    def _play_to_the_end(self, state: State, me: int, rng: random.Random) -> None:
        for _ in range(self.rollout_turns):
            seat = state.info.cur
            bot = self.rollout_self if seat == me else self.rollout_others
            action = bot.choose(state.views[seat], rng)
            if isinstance(action, Declare):
                state.declare()
                return
            if state.move(action.cards, action.take):
                state.apply_chance(state.chance_outcome(rng))
        state.declare()

    @staticmethod
    def _deal_hidden(view: PlayerView, hands: Mapping[int, Sequence[Sequence[Card]]],
                     unseen: Sequence[Card],
                     rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Every seat's hand (the others' hidden cards drawn from ``hands``, a card
        another seat already holds dealt again from ``unseen``, the cards whose place
        the viewer does not know) and the deck, top first."""
        used: set[Card] = set()
        full: list[list[Card]] = []
        for seat in range(len(view.hand_sizes)):
            if seat == view.seat:
                full.append(list(view.hand))
                continue
            hand = list(view.taken_seen[seat])
            particles = hands.get(seat)
            if particles:
                pick = particles[_disjoint_pick(particles, used, rng)]
                hand += [c for c in pick if c not in used]
            used.update(hand)
            full.append(hand)
        rest = [c for c in unseen if c not in used]
        rng.shuffle(rest)
        for seat, size in enumerate(view.hand_sizes):
            while len(full[seat]) < size and rest:
                full[seat].append(rest.pop())
        return full, rest[: view.deck_size]

    def declares(self, view: PlayerView, chance: float, edge: float) -> bool:
        """The expert's rule, on the outlook from :meth:`outlook`: strong's, with
        :attr:`group_edge` for the edge while three or more are in."""
        wanted = self.min_edge if len(view.players) == 2 else self.group_edge
        return chance >= self.min_good and edge >= wanted

    def outlook(self, view: PlayerView, moves: Sequence[Move] | None,
                rng: random.Random) -> tuple[float, float]:
        """(chance of a good declaration, expected result) of declaring now, as
        :meth:`choose` weighs it: the reading of ``moves`` (the deal's story so far,
        ``None`` if unknown) when strong's own estimate leaves a chance of at least
        :attr:`read_from`, else that estimate."""
        chance, edge = self.declaration_outlook(view, rng)
        if moves is not None and chance >= self.read_from:
            chance, edge = self.read_outlook(view, moves, rng)
        return chance, edge

    def read_outlook(self, view: PlayerView, moves: Sequence[Move],
                     rng: random.Random) -> tuple[float, float]:
        """(chance of a good declaration, expected result) of declaring now, over hidden
        hands sampled by :class:`~expert.HandReader`."""
        declared = _value(view.hand)
        hands = self.reader.read(view, moves, self.unseen(view), rng)
        others = [seat for seat in range(len(view.hand_sizes)) if seat != view.seat]
        known = {seat: _value(view.taken_seen[seat]) for seat in others}
        values = {seat: [_value(h) for h in hands[seat]] for seat in hands}
        options = view.options
        strict = options.tie is Tie.DECLARER_LOSES
        penalty = options.penalty
        by_hand = options.scoring is Scoring.HAND
        good = 0
        result = 0.0
        count = len(others)
        for _ in range(self.samples):
            used: set[Card] = set()
            totals = []
            for seat in others:
                total = known[seat]
                particles = hands.get(seat)
                if particles:
                    pick = _disjoint_pick(particles, used, rng)
                    used.update(particles[pick])
                    total += values[seat][pick]
                totals.append(total)
            lowest = min(totals)
            if declared < lowest or (declared == lowest and not strict):
                good += 1
                result += (sum(totals) - (0 if by_hand else count * declared)) / count
            elif by_hand:
                result += _assaf_edge(totals, lowest, count) - penalty - declared
            else:
                result -= penalty + declared - lowest
        return good / self.samples, result / self.samples


def _assaf_edge(totals: Sequence[int], lowest: int, count: int) -> float:
    """The others' average score when a call fails with each hand scored (Yaniv's
    ``scoring=hand``): the lowest hands score 0, the rest their own totals."""
    return (sum(totals) - totals.count(lowest) * lowest) / count


BOTS: dict[str, Bot] = {"random": RandomBot(), "greedy": GreedyBot(), "strong": StrongBot(),
                        "expert": ExpertBot()}
"""The bot levels of ``score play --bot`` and ``score simulate``."""


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(
            f"unknown bot level {name!r}: use one of {', '.join(BOTS)}"
        ) from None
