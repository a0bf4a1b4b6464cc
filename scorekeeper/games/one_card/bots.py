"""One Card bots. A bot sees only a :class:`View` (never the deal) and gets a
``random.Random`` for its own choices; it returns one legal action.

- ``random``: uniform over the legal actions.
- ``greedy``: bids from its counted high cards and trump length; leads its
  highest card, wins a trick as cheaply as it can, otherwise throws its lowest.
- ``strong``: information-set Monte Carlo tree search (single-observer ISMCTS):
  every iteration deals the hidden cards anew, consistently with what play has
  revealed (the cards played, each player's voids, the One Card unseen), walks one
  tree of the bot's information sets with UCB over the actions available in that
  deal, and finishes the deal with greedy play. It bids by expected value: for
  sampled deals it plays the deal out as bidder with each trump it could choose,
  and bids while the expected score of the lowest bid it may make beats the
  expected score of letting the others have the deal.
- ``expert``: the strong bot's search and bidding (the hidden cards dealt to agree
  with the bidding too), playing for the game: the end of a deal is worth each
  player's chance to win the game from the totals it leads to.

Every bot decides on card indices (:meth:`Bot.decide` on a :class:`engine.SeatView`,
which ``score simulate`` keeps current for each seat); :meth:`Bot.choose` makes the
same decision on a :class:`engine.View` for ``score play``, so both give the same
games. The search plays positions of :class:`engine.State` (built by its constructors,
played through its ``apply``); the tables below come from the engine's, which come from
the rules module.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.engine import (
    BID0,
    BIDDING,
    DOWNTOWN,
    FOLLOW,
    JOKER_INDEX,
    NAME0,
    NO_TRUMP,
    ORDER,
    OVER,
    PASS,
    POINTS,
    POWER,
    SUIT_OF,
    UPTOWN,
    Action,
    DealInfo,
    SeatView,
    State,
    View,
    action_from_int,
    card_index,
    legal_actions_of,
    scores_of,
    shuffle,
)
from scorekeeper.games.one_card.expert import win_chances

__all__ = [
    "BOTS",
    "Advice",
    "BiddingSampler",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "HandSampler",
    "RandomBot",
    "StrongBot",
    "deal_scores",
    "estimate_bid_points",
    "forbidden_cards",
    "get_bot",
    "greedy_action",
    "greedy_rollout",
    "hand_indices",
    "rollout",
    "sample_hands",
    "shuffle",
    "unseen_cards",
]

def _strength(card: int, order: int) -> int:
    """Rank strength 1..6 within a suit (9 .. A uptown); the joker 0."""
    if card == JOKER_INDEX:
        return 0
    r = card % 6
    return r + 1 if order == 0 else 6 - r


#: KEEP[trump][order][card]: how much a card is worth keeping (throw the lowest first;
#: lead the highest). Trumps above the rest; the joker is the lowest trump in a trump
#: deal and above everything in a no-trump deal.
KEEP: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            (100 if trump == NO_TRUMP else 10)
            if card == JOKER_INDEX
            else (10 if SUIT_OF[card] == trump else 0) + _strength(card, order)
            for card in range(25)
        )
        for order in (0, 1)
    )
    for trump in range(5)
)


# ---------------------------------------------------------------------------
# Greedy play on card indices


def suit_strength(hand: Sequence[int], suit: int) -> float:
    """How well ``hand`` would play with ``suit`` as trump: length and high trumps."""
    value = 0.0
    for card in hand:
        if card == JOKER_INDEX:
            value += 1.0
        elif SUIT_OF[card] == suit:
            value += 1.0 + 0.5 * (card % 6)
    return value


def best_trump(hand: Sequence[int]) -> int:
    """The suit ``hand`` would make trump (one it holds, or any with the joker)."""
    has_joker = JOKER_INDEX in hand
    best, best_value = -1, -1.0
    for suit in range(4):
        if not has_joker and not any(SUIT_OF[c] == suit for c in hand):
            continue
        value = suit_strength(hand, suit)
        if value > best_value:
            best, best_value = suit, value
    return best


def opening_lead(hand: Sequence[int], suit: int) -> int:
    """The bidder's opening lead making ``suit`` trump: its highest card of the suit,
    else the joker naming the suit."""
    cards = [c for c in hand if SUIT_OF[c] == suit]
    if cards:
        return max(cards)
    return NAME0 + suit


def estimate_bid_points(hand: Sequence[int], n: int) -> tuple[float, int]:
    """Greedy's count: expected points as bidder with its best trump, and that trump.

    Tricks expected from high trumps, trump length and side aces, at the average
    points per trick.
    """
    suit = best_trump(hand)
    tricks = 0.0
    trumps = [c % 6 for c in hand if c != JOKER_INDEX and SUIT_OF[c] == suit]
    length = len(trumps) + (JOKER_INDEX in hand)
    for r in trumps:
        tricks += (1.0, 0.8, 0.55, 0.35, 0.25, 0.2)[5 - r]
    tricks += max(0, length - 3) * 0.4
    tricks += 0.6 * sum(1 for c in hand if c % 6 == 5 and SUIT_OF[c] != suit and c != JOKER_INDEX)
    size = rules.hand_size(n)
    return tricks * rules.TOTAL_POINTS / size, suit


def greedy_lead(hand: Sequence[int], trump: int, order: int) -> int:
    """The highest card; the joker leading a no-trump trick names the suit the leader
    holds fewest of (the others have the most of it)."""
    keep = KEEP[trump][order]
    card = max(hand, key=keep.__getitem__)
    if card == JOKER_INDEX and trump == NO_TRUMP:
        counts = [0, 0, 0, 0]
        for c in hand:
            if c != JOKER_INDEX:
                counts[SUIT_OF[c]] += 1
        return NAME0 + counts.index(min(counts))
    return card


def greedy_follow(hand: Sequence[int], trick: Sequence[int], trump: int, order: int,
                  led: int) -> int:
    """The cheapest card that beats the trick so far, else the lowest card."""
    follow = FOLLOW[trump][led]
    legal = [c for c in hand if follow[c]] or list(hand)
    if len(legal) == 1:
        return legal[0]
    power = POWER[trump][order][led]
    top = max(power[c] for c in trick)
    winners = [c for c in legal if power[c] > top]
    if winners:
        return min(winners, key=power.__getitem__)
    keep = KEEP[trump][order]
    return min(legal, key=lambda c: (keep[c], POINTS[c]))


def greedy_order(hand: Sequence[int]) -> int:
    """Downtown when the hand's ranks are stronger downtown."""
    up = sum(_strength(c, 0) for c in hand)
    down = sum(_strength(c, 1) for c in hand)
    return DOWNTOWN if down > up else UPTOWN


def greedy_action(sim: State) -> int:
    """Greedy's action in a :class:`State` position (passes in the bidding)."""
    info = sim.info
    if info.phase == BIDDING:
        return PASS
    hand = sim.hands[info.cur]
    if info.phase == ORDER:
        return greedy_order(hand)
    trick = info.trick
    trump = info.trump
    if trick:
        return greedy_follow(hand, trick, trump, info.order, info.led)
    if trump < 0:
        return opening_lead(hand, best_trump(hand))
    return greedy_lead(hand, trump, info.order)


def rollout(sim: State, rng: random.Random, epsilon: float = 0.0) -> list[int]:
    """The points each seat takes when ``sim`` is played to its end with greedy play (a
    random legal action with chance ``epsilon``); ``sim`` is spent."""
    if not epsilon and sim.info.phase != BIDDING:
        return greedy_rollout(sim)
    while not sim.is_over:
        if epsilon and rng.random() < epsilon:
            legal = sim.legal_actions(naming_last=True)
            sim.apply(legal[int(rng.random() * len(legal))])
        else:
            sim.apply(greedy_action(sim))
    return sim.info.taken[:]


#: THROW[trump][order][card]: greedy's order for throwing a card it can't win with,
#: lowest first: KEEP, then the card's points (KEEP * 16 + points).
THROW: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(keep[c] * 16 + POINTS[c] for c in range(25)) for keep in by_order)
    for by_order in KEEP
)


def greedy_rollout(sim: State) -> list[int]:  # noqa: C901  # hot loop: docs/performance.md
    """The points each seat takes when ``sim`` (after the bidding) is played to its end
    with :func:`greedy_action` for every player: the same moves and the same end as
    applying them one by one, in one loop (the strong bot plays thousands of these per
    decision) on the hands ``sim`` hands over (:meth:`State.take_hands`): ``sim`` is
    spent."""
    info = sim.info
    if info.phase == OVER:
        return info.taken[:]
    hands = sim.take_hands()
    n = info.n
    size = info.size
    taken = info.taken[:]
    trump = info.trump
    order = info.order
    done = info.done
    joker = JOKER_INDEX
    seat = info.cur
    if info.phase == ORDER:
        order = 1 if greedy_order(hands[seat]) == DOWNTOWN else 0
    trick = info.trick
    if trick:  # finish the trick in progress
        leader = info.leader
        led = info.led
        power = POWER[trump][order][led]
        top = -1
        winner = leader
        points = 0
        joker_in = False
        for i, card in enumerate(trick):
            if power[card] > top:
                top, winner = power[card], (leader + i) % n
            points += POINTS[card]
            joker_in = joker_in or card == joker
        first_follower = len(trick)
    else:
        first_follower = 0
    while True:
        if first_follower == 0:
            # The lead.
            hand = hands[seat]
            leader = seat
            if trump < 0:
                action = opening_lead(hand, best_trump(hand))
            else:
                keep = KEEP[trump][order]
                action = hand[0]
                best = keep[action]
                for c in hand:
                    if keep[c] > best:
                        action, best = c, keep[c]
                if action == joker and trump == NO_TRUMP:
                    counts = [0, 0, 0, 0]
                    for c in hand:
                        if c != joker:
                            counts[SUIT_OF[c]] += 1
                    action = NAME0 + counts.index(min(counts))
            if action >= NAME0:
                card, named = joker, action - NAME0
            else:
                card, named = action, -1
            if trump < 0:
                trump = led = named if card == joker else SUIT_OF[card]
            elif card == joker:
                led = named if trump == NO_TRUMP else trump
            else:
                led = SUIT_OF[card]
            hand.remove(card)
            power = POWER[trump][order][led]
            top = power[card]
            winner = seat
            points = POINTS[card]
            joker_in = card == joker
            first_follower = 1
        # The others follow: the cheapest card that beats the trick, else the lowest.
        follow = FOLLOW[trump][led]
        throw = THROW[trump][order]
        for step in range(first_follower, n):
            seat = (leader + step) % n
            hand = hands[seat]
            legal = [c for c in hand if follow[c]] or hand
            if len(legal) == 1:
                card = legal[0]
            else:
                card = -1
                cheapest = 0
                for c in legal:
                    value = power[c]
                    if value > top and (card < 0 or value < cheapest):
                        card, cheapest = c, value
                if card < 0:
                    card = legal[0]
                    lowest = throw[card]
                    for c in legal:
                        if throw[c] < lowest:
                            card, lowest = c, throw[c]
            hand.remove(card)
            value = power[card]
            if value > top:
                top, winner = value, seat
            points += POINTS[card]
            if card == joker:
                joker_in = True
        taken[winner] += points
        done += 1
        seat = winner
        first_follower = 0
        if done == size:
            break
        if joker_in and trump == NO_TRUMP and order == 0:
            order = 1 if greedy_order(hands[seat]) == DOWNTOWN else 0
    taken[seat] += POINTS[sim.one]
    return taken


def deal_scores(sim: State, taken: list[int]) -> list[int]:
    """Each seat's score when ``sim``'s deal ends with the points ``taken``: the points
    taken, or 0 for a bidder who took fewer than the bid (as :func:`rules.score_deal`
    scores it)."""
    info = sim.info
    return scores_of(taken, info.bidder, info.high)


class Call(NamedTuple):
    """Another player's call in the bidding, as the bidding's sampling reads it."""

    seat: int
    amount: int
    """The bid made, or for a pass the lowest bid the player could have made."""
    is_bid: bool
    bid_before: bool
    """Someone had bid before this call."""


def others_calls(info: DealInfo, me: int) -> list[Call]:
    """The calls of the bidding so far made by the players other than ``me``."""
    lowest = rules.lowest_bid(info.n)
    calls: list[Call] = []
    high = 0
    for seat, amount in info.bids:
        if seat != me:
            calls.append(Call(seat, max(lowest, high + 1) if amount is None else amount,
                              amount is not None, high > 0))
        if amount is not None:
            high = amount
    return calls


def count_explains(call: Call, hand: Sequence[int], n: int) -> bool:
    """Greedy's count of ``hand`` (as dealt) explains ``call``: a bid, the count reaches
    it; a pass, the count does not reach the lowest bid then."""
    return (estimate_bid_points(hand, n)[0] >= call.amount) == call.is_bid


def _deal_unseen(hand: list[int], unseen: Sequence[int], me: int,
                 n: int, rng: random.Random) -> tuple[list[list[int]], int]:
    """The cards ``me`` has not seen shuffled and dealt to the others as at the start of
    the deal (``me`` keeps ``hand``): hands by seat and the One Card."""
    size = rules.hand_size(n)
    pool = list(unseen)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    at = 0
    for seat in range(n):
        if seat == me:
            hands.append(hand[:])
        else:
            hands.append(pool[at : at + size])
            at += size
    return hands, pool[at]


CALL_WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (2.259, 0.743, -0.459, -0.013, 0.128, -1.177, -0.282, -0.058),
    3: (1.07, 1.208, -0.851, 0.305, -0.102, 0.019, 0.375, -0.427),
    4: (-1.8, 1.216, -1.167, 0.7, -0.106, 0.749, 1.941, -0.314),
}
"""How the strong bot calls, by number of players: the weights of a logistic regression
of its choice to bid the lowest bid it may make (rather than pass) on
:func:`call_features`, fitted to its calls in 1,500 deals of four (three, two) strong
bots by ``python scripts/call_model.py``. Greedy's count alone explains 54 % of these
calls at four players (the strong bot bids on far weaker counts); the model 83 %."""


def call_features(hand: Sequence[int], n: int, amount: int,
                  bid_before: bool) -> tuple[float, ...]:
    """What :data:`CALL_WEIGHTS` weigh: 1, greedy's count, the bid, whether someone has
    bid already, the points in the hand, the joker, the length of the best trump suit
    (the joker included) and the aces."""
    count, suit = estimate_bid_points(hand, n)
    joker = JOKER_INDEX in hand
    length = sum(1 for c in hand if c != JOKER_INDEX and SUIT_OF[c] == suit) + joker
    aces = sum(1 for c in hand if c != JOKER_INDEX and c % 6 == 5)
    return (1.0, count, float(amount), float(bid_before), float(sum(POINTS[c] for c in hand)),
            float(joker), float(length), float(aces))


def bid_chance(hand: Sequence[int], n: int, amount: int, bid_before: bool) -> float:
    """The chance that a strong player holding ``hand`` (as dealt) bids ``amount``."""
    z = sum(w * x for w, x in zip(CALL_WEIGHTS[n], call_features(hand, n, amount, bid_before),
                                  strict=True))
    return 1.0 / (1.0 + math.exp(-z))


# ---------------------------------------------------------------------------
# The bots


class Bot(Protocol):
    """A One Card player: one legal action from what it may see.

    :meth:`decide` is the bot: card indices in, an int action out (the bots-only
    games of ``score simulate`` call it with each seat's live :class:`SeatView`).
    :meth:`choose` is the same decision on a :class:`View` (``score play``).
    ``reads_history``: whether it reads the deal's public record beyond the current
    position (:attr:`engine.DealInfo.bids`, ``played``, ``played_by``, ``voids``,
    ``sizes``); a bots-only game where no bot does skips keeping it.
    """

    reads_history: bool

    def decide(self, view: SeatView, rng: random.Random) -> int: ...

    def choose(self, view: View, rng: random.Random) -> Action: ...


class _ViewBot:
    """``choose`` as ``decide`` on the view's card indices: one decision for both paths."""

    reads_history = True

    def decide(self, view: SeatView, rng: random.Random) -> int:
        raise NotImplementedError

    def choose(self, view: View, rng: random.Random) -> Action:
        if not view.my_turn or not view.legal:
            raise ValueError(f"it is not {view.player}'s turn")
        return action_from_int(self.decide(SeatView.from_view(view), rng), view.options.joker)


_WIDTHS = tuple(m.bit_length() for m in range(32))
"""The bits ``random.Random`` draws for a number below ``m`` (``m.bit_length()``)."""


class RandomBot(_ViewBot):
    """Uniform over the legal actions."""

    name = "random"
    reads_history = False

    def decide(self, view: SeatView, rng: random.Random) -> int:
        legal = legal_actions_of(view.info, view.hand)  # view.legal() on its turn
        n = len(legal)  # randbelow(n, rng.getrandbits), inline: it is all this bot does
        width = _WIDTHS[n] if n < 32 else n.bit_length()
        getrandbits = rng.getrandbits
        r = getrandbits(width)
        while r >= n:
            r = getrandbits(width)
        return legal[r]


def hand_indices(view: View) -> list[int]:
    """The viewer's hand as card indices."""
    rule = view.options.joker
    return [card_index(c, rule) for c in view.hand]


def _lowest_bid(info: DealInfo) -> int | None:
    """The lowest bid the player to act may make now (``None``: only a pass)."""
    lowest = max(rules.lowest_bid(info.n), info.high + 1)
    return lowest if lowest <= rules.MAX_BID else None


class GreedyBot(_ViewBot):
    """Counts its points as bidder and bids while that count reaches the lowest bid it
    may make; plays the greedy heuristics above."""

    name = "greedy"
    reads_history = False

    def decide(self, view: SeatView, rng: random.Random) -> int:
        info = view.info
        hand = view.hand
        phase = info.phase
        if phase == BIDDING:
            lowest = _lowest_bid(info)
            if lowest is None:
                return PASS
            estimate, _ = estimate_bid_points(hand, info.n)
            return BID0 + lowest if estimate >= lowest else PASS
        if phase == ORDER:
            return greedy_order(hand)
        if info.trick:
            return greedy_follow(hand, info.trick, info.trump, info.order, info.led)
        if info.trump < 0:
            return opening_lead(hand, best_trump(hand))
        return greedy_lead(hand, info.trump, info.order)


# ---------------------------------------------------------------------------
# Hidden hands


def unseen_cards(view: SeatView) -> list[int]:
    """Card indices the viewer has not seen: in the others' hands or the One Card."""
    known = set(view.hand)
    known.update(view.info.played)
    return [c for c in range(25) if c not in known]


def forbidden_cards(view: SeatView) -> list[frozenset[int]]:
    """By seat: the cards that player cannot hold, from the suits they did not follow."""
    trump = view.info.trump
    follows = FOLLOW[trump if trump >= 0 else NO_TRUMP]
    out: list[frozenset[int]] = []
    for voids in view.info.voids:
        banned: set[int] = set()
        for suit in range(4):
            if voids >> suit & 1:
                follow = follows[suit]
                banned.update(c for c in range(25) if follow[c])
        out.append(frozenset(banned))
    return out


class HandSampler:
    """Deals the cards a player has not seen to the other players (their current hand
    sizes) and the One Card, respecting each player's voids, again and again."""

    __slots__ = (
        "_constrained",
        "_forbidden",
        "_getrandbits",
        "_hand",
        "_n",
        "_others",
        "_rng",
        "_seat",
        "_sizes",
        "_unseen",
    )

    def __init__(self, view: SeatView, unseen: Sequence[int],
                 forbidden: Sequence[frozenset[int]], rng: random.Random) -> None:
        info = view.info
        n = info.n
        sizes = list(info.sizes)
        self._n = n
        self._seat = view.seat
        self._hand = list(view.hand)
        self._sizes = sizes
        self._unseen = list(unseen)
        self._forbidden = forbidden
        self._others = [s for s in range(n) if s != view.seat and sizes[s]]
        self._constrained = sorted(self._others, key=lambda s: -len(forbidden[s]))
        self._rng = rng
        self._getrandbits = rng.getrandbits

    def draw(self) -> tuple[list[list[int]], int]:
        """Hands by seat (the viewer's own included) and the One Card."""
        n = self._n
        sizes = self._sizes
        forbidden = self._forbidden
        for _ in range(30):
            pool = self._unseen[:]
            shuffle(pool, self._getrandbits)
            hands: list[list[int]] = [[] for _ in range(n)]
            hands[self._seat] = self._hand[:]
            ok = True
            for seat in self._constrained:
                banned = forbidden[seat]
                need = sizes[seat]
                take = [c for c in pool if c not in banned][:need] if banned else pool[:need]
                if len(take) < need:
                    ok = False
                    break
                if banned:
                    chosen = set(take)
                    pool = [c for c in pool if c not in chosen]
                else:
                    pool = pool[need:]
                hands[seat] = take
            if ok and len(pool) == 1:
                return hands, pool[0]
        pool = self._unseen[:]  # inconsistent constraints (should not happen): ignore them
        self._rng.shuffle(pool)
        hands = [[] for _ in range(n)]
        hands[self._seat] = self._hand[:]
        at = 0
        for seat in self._others:
            hands[seat] = pool[at : at + sizes[seat]]
            at += sizes[seat]
        return hands, pool[at]


def sample_hands(
    view: SeatView,
    unseen: Sequence[int],
    forbidden: Sequence[frozenset[int]],
    rng: random.Random,
) -> tuple[list[list[int]], int]:
    """One draw of :class:`HandSampler`: ``unseen`` dealt to the other players (their
    current hand sizes) and the One Card, respecting each player's voids; hand
    ``view.seat`` is the viewer's."""
    return HandSampler(view, unseen, forbidden, rng).draw()


# ---------------------------------------------------------------------------
# ISMCTS


class _Node:
    __slots__ = ("avail", "children", "player", "value", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[int, _Node] = {}


@dataclass(frozen=True, slots=True)
class Advice:
    """What the strong bot would do in a player's place, and its estimates (a hint).

    Bidding: the expected points of the deal for the player if they bid the lowest
    bid they may make (with the best trump), and if they pass. Playing: the expected
    points of the deal for the player after the chosen action. ``None`` where the
    bot did not weigh it (a single legal action, or nothing left to bid)."""

    action: Action
    bid_points: float | None = None
    pass_points: float | None = None
    expected_points: float | None = None


Estimates = tuple[int, float | None, float | None, float | None]
"""An int action with :class:`Advice`'s three estimates."""

DealValue = Callable[[Sequence[int]], Sequence[float]]
"""Deal scores by seat -> what that end of the deal is worth to each seat."""


def _points(scores: Sequence[int]) -> Sequence[int]:
    return scores


class StrongBot(_ViewBot):
    """ISMCTS in play, expected-value bidding.

    ``iterations``: determinized tree walks per decision. ``exploration``: the UCB
    constant (rewards are the deal's score / 15). ``bid_samples``: sampled deals per
    bidding decision. ``bid_margin``: how much more the bid must be expected to
    score than passing. ``bid_edge``: how many points short of its bid a greedy
    playout may leave the bot as bidder and still count as the bid made (0: none).
    """

    name = "strong"

    def __init__(
        self,
        iterations: int = 700,
        exploration: float = 0.7,
        bid_samples: int = 40,
        bid_margin: float = 0.0,
        epsilon: float = 0.0,
        bid_edge: int = 0,
    ) -> None:
        self.iterations = iterations
        self.exploration = exploration
        self.bid_samples = bid_samples
        self.bid_margin = bid_margin
        self.bid_edge = bid_edge
        self.epsilon = epsilon
        self.simulations = 0
        """Simulated deals (playouts) so far: a statistic for benchmarks only."""

    def decide(self, view: SeatView, rng: random.Random) -> int:
        return self._estimate(view, rng)[0]

    def advise(self, view: View, rng: random.Random) -> Advice:
        """The action :meth:`choose` takes (same draws from ``rng``), with its estimates."""
        if not view.my_turn or not view.legal:
            raise ValueError(f"it is not {view.player}'s turn")
        action, bid_points, pass_points, expected = self._estimate(SeatView.from_view(view),
                                                                   rng)
        return Advice(action_from_int(action, view.options.joker), bid_points, pass_points,
                      expected)

    def _estimate(self, view: SeatView, rng: random.Random) -> Estimates:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0], None, None, None
        if view.info.phase == BIDDING:
            return self._bid(view, rng)
        return self._search(view, legal, rng)

    def sampler(self, view: SeatView, unseen: Sequence[int],
                forbidden: Sequence[frozenset[int]], rng: random.Random) -> HandSampler:
        """What deals the hidden cards for the search."""
        return HandSampler(view, unseen, forbidden, rng)

    # -- bidding ---------------------------------------------------------------

    def bid_values(self, view: SeatView, rng: random.Random, amount: int | None = None
                   ) -> tuple[list[list[list[int]]], list[list[int]]]:
        """Sampled deal scores (every seat's) with the bot as bidder at the lowest bid it
        may make (or at ``amount``), per suit it could make trump (empty for the others),
        and sampled deal scores if it passes.

        The others' hands are sampled consistently with their calls so far
        (:meth:`_bidding_deal`). After a pass, the high bidder (else the next player who
        would bid the lowest bid, :meth:`_would_bid`) plays the deal as bidder, else
        nobody bids.
        """
        info = view.info
        n = info.n
        me = view.seat
        hand = list(view.hand)
        unseen = [c for c in range(25) if c not in set(hand)]
        suits = [s for s in range(4) if JOKER_INDEX in hand or any(SUIT_OF[c] == s for c in hand)]
        as_bidder: list[list[list[int]]] = [[] for _ in range(4)]
        if_pass: list[list[int]] = []
        calls = others_calls(info, me)
        high = info.high
        passed = {seat for seat, amount in info.bids if amount is None}
        my_bid = max(rules.lowest_bid(n), high + 1) if amount is None else amount
        for _ in range(self.bid_samples):
            hands, one = self._bidding_deal(hand, unseen, me, n, calls, rng)
            for suit in suits:
                sim = State.after_bidding(n, info.dealer, hands, one, me, my_bid)
                sim.apply(opening_lead(hands[me], suit))
                taken = rollout(sim, rng)
                if my_bid - self.bid_edge <= taken[me] < my_bid:
                    taken[me] = my_bid  # counted as made: see ExpertBot
                as_bidder[suit].append(scores_of(taken, me, my_bid))
            other = info.bidder
            if other < 0:
                for step in range(1, n):
                    seat = (me + step) % n
                    if seat not in passed and self._would_bid(hands[seat], n, my_bid,
                                                              high > 0, rng):
                        other = seat
                        break
            if other < 0:
                sim = State.after_bidding(n, info.dealer, hands, one, -1, 0)
            else:
                sim = State.after_bidding(n, info.dealer, hands, one, other, high or my_bid)
                sim.apply(opening_lead(hands[other], best_trump(hands[other])))
            if_pass.append(deal_scores(sim, rollout(sim, rng)))
            self.simulations += len(suits) + 1
        return as_bidder, if_pass

    def _bidding_deal(self, hand: list[int], unseen: Sequence[int], me: int, n: int,
                      calls: Sequence[Call], rng: random.Random) -> tuple[list[list[int]], int]:
        """The hidden cards of one sampled deal for the bidding: the first of 20 deals in
        which greedy's count explains every other player's call (a bid: the count
        reaches it; a pass: it does not reach the lowest bid then), else the last."""
        for _ in range(20):
            hands, one = _deal_unseen(hand, unseen, me, n, rng)
            if all(count_explains(call, hands[call.seat], n) for call in calls):
                break
        return hands, one

    def _would_bid(self, hand: Sequence[int], n: int, amount: int, bid_before: bool,
                   rng: random.Random) -> bool:
        """Whether another player with ``hand`` would bid ``amount``: greedy's count
        reaches it."""
        return estimate_bid_points(hand, n)[0] >= amount

    def _bid(self, view: SeatView, rng: random.Random) -> Estimates:
        """Bid the lowest bid it may make when that is expected to score more than a
        pass (a higher bid than needed only adds risk)."""
        lowest = _lowest_bid(view.info)
        if lowest is None:
            return PASS, None, None, None
        bid_value, pass_value = self.bid_estimates(view, rng)
        action = BID0 + lowest if bid_value > pass_value + self.bid_margin else PASS
        return action, bid_value, pass_value, None

    def bid_estimates(self, view: SeatView, rng: random.Random,
                      amount: int | None = None) -> tuple[float, float]:
        """(the expected value of bidding the lowest bid it may make, or ``amount``, with
        the best trump; of passing), by :meth:`deal_value`: what :meth:`advise` tells."""
        as_bidder, if_pass = self.bid_values(view, rng, amount)
        value = self.deal_value(view)
        me = view.seat
        samples = len(if_pass)
        pass_value = sum(value(scores)[me] for scores in if_pass) / samples
        bid_value = max(
            (sum(value(scores)[me] for scores in outcomes) / samples
             for outcomes in as_bidder if outcomes),
            default=0.0,
        )
        return bid_value, pass_value

    def deal_value(self, view: SeatView) -> DealValue:
        """What a deal ending with these scores (by seat) is worth to each seat: the
        strong bot plays for the deal, so its own points (the search's rewards are these
        divided by the 15 points of a deal; the bidding compares them)."""
        return _points

    # -- play --------------------------------------------------------------------

    def _search(self, view: SeatView, legal: Sequence[int],
                rng: random.Random) -> Estimates:
        root = self._tree(view, legal, rng)
        best_action = self._most_visited(root, legal)
        chosen = root.children.get(best_action)
        expected = (chosen.value / chosen.visits * rules.TOTAL_POINTS
                    if chosen is not None and chosen.visits
                    and self.deal_value(view) is _points else None)
        return best_action, None, None, expected

    def play_values(self, view: SeatView, rng: random.Random
                    ) -> tuple[int, dict[int, float]]:
        """The action :meth:`decide` plays in a trick (the same search, the same draws)
        and every legal action's expected points of the deal for the player, the mean
        reward of its node in the search (in points while the bot plays for the deal's
        points, as the strong bot does; else in :meth:`deal_value`'s terms)."""
        legal = list(view.legal())
        root = self._tree(view, legal, rng)
        scale = rules.TOTAL_POINTS if self.deal_value(view) is _points else 1
        values = {action: node.value / node.visits * scale
                  for action, node in root.children.items() if node.visits}
        return self._most_visited(root, legal), values

    @staticmethod
    def _most_visited(root: _Node, legal: Sequence[int]) -> int:
        return max(
            legal,
            key=lambda a: (root.children[a].visits, root.children[a].value)
            if a in root.children else (0, 0.0),
        )

    def _tree(self, view: SeatView, legal: Sequence[int], rng: random.Random) -> _Node:
        """The search tree of one decision (its root), ``iterations`` walks."""
        me = view.seat
        value = self.deal_value(view)
        scale = rules.TOTAL_POINTS if value is _points else 1
        draw = self.sampler(view, unseen_cards(view), forbidden_cards(view), rng).draw
        position = State.from_observation
        legal_of = legal_actions_of
        root_actions = list(legal)
        root = _Node(me)
        c = self.exploration
        epsilon = self.epsilon
        log = math.log
        sqrt = math.sqrt
        random_ = rng.random
        for _ in range(self.iterations):
            hands, one = draw()
            sim = position(view, hands, one)
            sim_info = sim.info
            node = root
            path: list[_Node] = []
            while sim_info.phase != OVER:
                legal_now = (root_actions if node is root  # sim.legal_actions(True):
                             else legal_of(sim_info, sim.hands[sim_info.cur], True))
                children = node.children
                untried = []
                for a in legal_now:
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    action = untried[int(random_() * len(untried))]
                    child = _Node(sim_info.cur)
                    child.avail = 1
                    children[action] = child
                    sim.apply(action)
                    path.append(child)
                    break
                best = -1
                best_score = -1.0
                for a in legal_now:
                    child = children[a]
                    visits = child.visits
                    score = child.value / visits + c * sqrt(log(child.avail) / visits)
                    if score > best_score:
                        best, best_score = a, score
                node = children[best]
                sim.apply(best)
                path.append(node)
            taken = rollout(sim, rng, epsilon) if epsilon else greedy_rollout(sim)
            values = value(scores_of(taken, sim_info.bidder, sim_info.high))  # deal_scores
            for visited in path:
                visited.visits += 1
                visited.value += values[visited.player] / scale
        self.simulations += self.iterations
        return root


class BiddingSampler(HandSampler):
    """Hidden hands that also agree with the bidding: each other player's hand as dealt
    (the cards still hidden plus those it has played) counts, as greedy counts, at least
    the bid it made, or less than the lowest bid it passed on.

    Rejection is costly, so the first draw of a decision collects up to ``worlds`` such
    deals from at most ``budget`` tries (padded with unchecked deals to a quarter of
    ``worlds`` when the bidding is hard to match: the count is a guess at how others
    bid, not a rule); every draw is then a copy of one of them, at random."""

    __slots__ = ("_budget", "_calls", "_played", "_pool", "_worlds")

    def __init__(self, view: SeatView, unseen: Sequence[int],
                 forbidden: Sequence[frozenset[int]], rng: random.Random,
                 worlds: int = 100, budget: int = 600) -> None:
        super().__init__(view, unseen, forbidden, rng)
        info = view.info
        self._calls = others_calls(info, view.seat)
        self._played: list[list[int]] = [[] for _ in range(info.n)]
        for card, seat in zip(info.played, info.played_by, strict=True):
            self._played[seat].append(card)
        self._worlds = worlds
        self._budget = budget
        self._pool: list[tuple[list[list[int]], int]] = []

    def agrees(self, hands: Sequence[Sequence[int]]) -> bool:
        """Does every other player's hand as dealt fit its calls?"""
        n = self._n
        return all(count_explains(call, [*hands[call.seat], *self._played[call.seat]], n)
                   for call in self._calls)

    def _fill(self) -> None:
        unchecked: list[tuple[list[list[int]], int]] = []
        for _ in range(self._budget):
            world = HandSampler.draw(self)
            if self.agrees(world[0]):
                self._pool.append(world)
                if len(self._pool) == self._worlds:
                    return
            elif len(unchecked) < self._worlds:
                unchecked.append(world)
        missing = max(0, self._worlds // 4 - len(self._pool))
        self._pool.extend(unchecked[:missing])

    def draw(self) -> tuple[list[list[int]], int]:
        if not self._pool:
            self._fill()
        hands, one = self._pool[int(self._rng.random() * len(self._pool))]
        return [hand[:] for hand in hands], one


class ExpertBot(StrongBot):
    """The strong bot's search and bidding, playing for the game instead of the deal.

    Every end of a deal it weighs (the search's sampled deals, the bidding's) is worth
    each player's chance to win the game from the totals it leads to
    (:class:`~expert.WinChances`), where the strong bot counts its own points: the
    others' points count against it, a bid that would leave it short of the target
    with nothing is worth less to a player a few points from winning, and a trick that
    keeps a leader from the target is worth fighting for. It deals the hidden cards so
    that they also agree with the bidding (:class:`BiddingSampler`). A deal on its own
    (a view with no game around it) is played for its points, as the strong bot does.

    In the bidding it models the others' calls as the strong bot makes them
    (:data:`CALL_WEIGHTS`), both to deal hands that explain the calls so far and to
    tell who would take the bid if it passed, and it bids more boldly: a bid its greedy
    playouts miss by up to ``bid_edge`` points counts as made. That is a measured
    choice, not a better estimate of its take (as bidder it takes about what greedy
    play takes on the same hands): 3 points gained the most win chance per deal of 1 to
    4 (``benchmarks/expert_positions.py``), and a handicap the other way lost. A bid it
    wins is a deal no strong player leads and names trump in.

    More search did not play better: 1,500 iterations and 120 bidding samples gained
    as much win chance per deal as 700 and 40 (``benchmarks/expert_positions.py``).
    """

    name = "expert"

    def __init__(self, iterations: int = 700, bid_samples: int = 40, worlds: int = 100,
                 budget: int = 600, bid_edge: int = 3, **kwargs: Any) -> None:
        super().__init__(iterations=iterations, bid_samples=bid_samples, bid_edge=bid_edge,
                         **kwargs)
        self.worlds = worlds
        self.budget = budget

    def sampler(self, view: SeatView, unseen: Sequence[int],
                forbidden: Sequence[frozenset[int]], rng: random.Random) -> HandSampler:
        return BiddingSampler(view, unseen, forbidden, rng, self.worlds, self.budget)

    def _bidding_deal(self, hand: list[int], unseen: Sequence[int], me: int, n: int,
                      calls: Sequence[Call], rng: random.Random) -> tuple[list[list[int]], int]:
        """One of 20 sampled deals, drawn in proportion to how likely the others' calls
        are with those hands when they call as the strong bot does (:func:`bid_chance`)."""
        deals: list[tuple[list[list[int]], int]] = []
        weights: list[float] = []
        for _ in range(20):
            hands, one = _deal_unseen(hand, unseen, me, n, rng)
            weight = 1.0
            for call in calls:
                chance = bid_chance(hands[call.seat], n, call.amount, call.bid_before)
                weight *= chance if call.is_bid else 1.0 - chance
            deals.append((hands, one))
            weights.append(weight)
        point = rng.random() * sum(weights)
        for deal, weight in zip(deals, weights, strict=True):
            point -= weight
            if point <= 0:
                return deal
        return deals[-1]

    def _would_bid(self, hand: Sequence[int], n: int, amount: int, bid_before: bool,
                   rng: random.Random) -> bool:
        """Drawn with the chance that a strong player with ``hand`` bids ``amount``."""
        return rng.random() < bid_chance(hand, n, amount, bid_before)

    def deal_value(self, view: SeatView) -> DealValue:
        game = view.game
        if game is None:
            return super().deal_value(view)
        n = view.info.n
        chances = win_chances(n, game.target).of
        totals = game.totals
        next_dealer = (view.info.dealer + 1) % n

        def value(scores: Sequence[int]) -> Sequence[float]:
            return chances([t + s for t, s in zip(totals, scores, strict=True)], next_dealer)

        return value


BOTS: dict[str, Bot] = {"random": RandomBot(), "greedy": GreedyBot(), "strong": StrongBot(),
                        "expert": ExpertBot()}
"""The bots by level, as ``score play --bot LEVEL`` names them."""


def get_bot(name: str) -> Bot:
    """The bot called ``name``; ``ValueError`` listing the levels otherwise."""
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(
            f"no bot called {name!r}: choose one of {', '.join(BOTS)}"
        ) from None
