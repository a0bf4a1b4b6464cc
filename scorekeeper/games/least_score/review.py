"""Least Score's coach: the expert bot's review of each decision of a saved deal.

Each decision is weighed from the player's own view at that moment (their hand, the
floor, what the table saw), never from the other hands: the expert reads the others'
hidden cards from the moves it watched, as it does when it plays (:class:`~expert.
History`, :class:`~expert.HandReader`). Its estimates are the ones it plays by:

- declaring now: :meth:`ExpertBot.outlook`, the chance that the declaration holds and
  its expected result;
- a discard and take: :meth:`ExpertBot.play_out`, the deal played out to its end from
  the move over hidden hands drawn from that reading (the same deals for every move
  weighed), for the move played and the moves the expert considers (its contenders).

Both are the deal's expected result for the player *against the others*: the others'
average score of the deal minus the player's own (higher is better; a false declaration
costs 20 and more). What the expert would have done is its own rule (it declares on its
thresholds, else plays its best move), and a decision gives away the difference between
the estimate of that and of the action played.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import ClassVar

from scorekeeper.cards import SUITS, Card
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.bots import ExpertBot, stalling
from scorekeeper.games.least_score.engine import (
    Action,
    Deal,
    Declare,
    Discard,
    View,
    action_from_record,
)
from scorekeeper.games.least_score.expert import History
from scorekeeper.games.least_score.table import LeastScoreTable
from scorekeeper.games.least_score.words import N_, _
from scorekeeper.games.virtual import Appraised, Decision
from scorekeeper.i18n import format_percent
from scorekeeper.kit.rounds import JSONObject, RecordedDeal

DECLARING = "declaring"
DISCARDING = "discarding"


def _in_order(cards: Sequence[Card]) -> list[str]:
    """By rank, then suit (a joker, with no suit: first)."""
    return [str(card) for card in sorted(cards, key=lambda c: (
        int(c.rank), SUITS.index(c.suit) if c.suit is not None else len(SUITS)))]


def _same_move(first: Discard, second: Discard) -> bool:
    """The same cards (two jokers are two: counted) and the same take."""
    return sorted(map(str, first.cards)) == sorted(map(str, second.cards)) \
        and first.take == second.take


def action_record(action: Action) -> JSONObject:
    """The action as FORMAT.md records it (without its player)."""
    if isinstance(action, Declare):
        return {"declare": True}
    return {"discard": _in_order(action.cards),
            "take": "deck" if action.take is None else str(action.take)}


def action_text(action: Action, hand: Sequence[Card]) -> str:
    if isinstance(action, Declare):
        return _("declare with {total}").format(total=rules.hand_value(hand))
    cards = " ".join(_in_order(action.cards))
    if action.take is None:
        return _("discard {cards}, take from the deck").format(cards=cards)
    return _("discard {cards}, take {take}").format(cards=cards, take=action.take)


class LeastScoreCoach:
    evaluator = "expert"
    threshold = 4.0
    kinds: ClassVar[dict[str, str]] = {DECLARING: N_("declaring"),
                                       DISCARDING: N_("discarding and taking")}
    points_meaning = N_("points against the others: the others' average score of the deal "
                        "minus your own, as the expert bot expects it (higher is better)")

    CHANCE_BAND = 0.1
    EDGE_BAND = 1.5
    """How far from the expert's declaring thresholds (its chance and edge) an outlook
    must be for declaring or not to count against the player: nearer, the sampled
    outlook could fall either side (the expert's own game would be flagged by chance)."""

    def __init__(self, table: LeastScoreTable | None = None) -> None:
        self.bot = ExpertBot(rollouts=64)
        """The expert, with twice its play-outs per move weighed: the estimates of two
        close moves differ less by chance."""
        self.table = table or LeastScoreTable()
        """Whose house rules the deals were played by (a variant's table reads its own)."""

    def close_call(self, view: View, chance: float, edge: float) -> bool:
        """Is the outlook within the bands of the expert's declaring thresholds?"""
        bot = self.bot
        wanted = bot.min_edge if len(view.players) == 2 else bot.group_edge
        hopeful = chance + self.CHANCE_BAND >= bot.min_good and edge + self.EDGE_BAND >= wanted
        wary = chance - self.CHANCE_BAND >= bot.min_good and edge - self.EDGE_BAND >= wanted
        return hopeful != wary

    def review_deal(self, recorded: RecordedDeal, options: rules.Options,
                    totals: Mapping[str, int], reviewed: Sequence[str],
                    rng_for: Callable[[int], random.Random]) -> Iterator[Decision | None]:
        deal = Deal.from_record(recorded.deal, options)
        histories: dict[str, History] = {}
        for step, record in enumerate(recorded.actions, start=1):
            player = record.get("player")
            if player in reviewed:
                view = deal.view(player)
                history = histories.setdefault(player, History())
                yield self.decision(view, history, action_from_record(record), step, totals,
                                    rng_for(step))
            deal.replay([record])

    def decision(self, view: View, history: History, played: Action, step: int,
                 totals: Mapping[str, int], rng: random.Random) -> Decision:
        """One decision, from ``view`` alone (and the player's earlier views, in
        ``history``)."""
        bot = self.bot
        moves = history.update(view)
        declaring: Appraised | None = None
        bot_declares = False
        notes: list[str] = []
        estimates: JSONObject = {}
        if view.can_declare:
            chance, edge = bot.outlook(view, moves, rng)
            declaring = Appraised({"declare": True}, action_text(Declare(), view.hand), edge,
                                  chance)
            bot_declares = stalling(view) or bot.declares(view, chance, edge)
            if isinstance(played, Declare) != bot_declares and self.close_call(view, chance,
                                                                               edge):
                bot_declares = isinstance(played, Declare)  # within the estimate's noise
            notes.append(_("Declaring with {total} would hold {chance} of the time, "
                           "{edge} points against the others.").format(
                total=rules.hand_value(view.hand), chance=format_percent(chance, 0),
                edge=f"{edge:+.1f}"))
            estimates = {"declare_chance": round(chance, 4), "declare_points": round(edge, 3)}
        contenders = bot.contenders(bot.scored_moves(view))
        weighed = list(contenders)
        if isinstance(played, Discard) and not any(_same_move(played, m) for m in weighed):
            weighed.append(played)
        hands = {} if moves is None else bot.reader.read(view, moves, bot.unseen(view), rng)
        values = bot.play_out(view, hands, weighed, rng)
        appraised = [Appraised(action_record(move), action_text(move, view.hand), value)
                     for move, value in zip(weighed, values, strict=True)]
        bot_move = max(range(len(contenders)), key=lambda i: values[i])
        best = declaring if bot_declares and declaring is not None else appraised[bot_move]
        if isinstance(played, Declare):
            assert declaring is not None  # a recorded declaration was allowed
            shown = declaring
        else:
            shown = next(a for a, move in zip(appraised, weighed, strict=True)
                         if _same_move(played, move))
        kind = DECLARING if isinstance(played, Declare) or best is declaring else DISCARDING
        return Decision(step=step, player=view.player, kind=kind, played=shown, best=best,
                        position=self.position(view, totals),
                        position_json=self.position_json(view, totals),
                        notes=tuple(notes), estimates=estimates)

    @staticmethod
    def position(view: View, totals: Mapping[str, int]) -> tuple[tuple[str, str], ...]:
        sizes = ", ".join(f"{name} {size}" for name, size in
                          zip(view.players, view.hand_sizes, strict=True)
                          if name != view.player)
        return (
            (_("hand"), _("{cards} ({total})").format(cards=" ".join(_in_order(view.hand)),
                                                      total=rules.hand_value(view.hand))),
            (_("floor"), " ".join(_in_order(view.floor))),
            (_("deck"), _("{deck} cards, dead pile {dead}").format(
                deck=view.deck_size, dead=len(view.dead_pile))),
            (_("cards in the others' hands"), sizes),
            (_("totals before the deal"), ", ".join(f"{name} {totals.get(name, 0)}"
                                                     for name in view.players)),
        )

    @staticmethod
    def position_json(view: View, totals: Mapping[str, int]) -> JSONObject:
        return {"hand": _in_order(view.hand), "floor": _in_order(view.floor),
                "deck": view.deck_size, "dead_pile": len(view.dead_pile),
                "hand_sizes": dict(zip(view.players, view.hand_sizes, strict=True)),
                "turn": view.turn + 1,
                "totals": {name: totals.get(name, 0) for name in view.players}}
