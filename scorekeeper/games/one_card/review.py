"""One Card's coach: the strong bot's review of each decision of a saved deal.

Each decision is weighed from the player's own view at that moment (their hand, the
bidding, the tricks played), never from the other hands or the One Card: the bot deals
the cards it cannot see anew, consistently with what play has shown, as it does when it
plays or gives a ``hint``. Its estimates are the ones ``hint`` shows, in points of the
deal for the player (what the deal adds to their total):

- a bid or a pass: :meth:`StrongBot.bid_estimates`, the expected score of the deal as
  bidder at the amount bid (with the best trump) and after passing;
- a card (or the order after the joker): :meth:`StrongBot.play_values`, each legal
  action's mean result in the bot's search.

The strong bot plays for the deal's points (the expert weighs the end of a deal by the
chance to win the game, which is not in points), so it is the one that reviews.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import ClassVar

from scorekeeper.cards import Card
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.bots import StrongBot
from scorekeeper.games.one_card.engine import (
    BIDDING,
    Action,
    Bid,
    ChooseOrder,
    Deal,
    Phase,
    SeatView,
    View,
    action_from_int,
    action_from_record,
    action_to_int,
)
from scorekeeper.games.one_card.rules import Order
from scorekeeper.games.one_card.words import N_, _
from scorekeeper.games.virtual import Appraised, Decision
from scorekeeper.kit.rounds import JSONObject, RecordedDeal

BIDDING_KIND = "bidding"
PLAYING = "playing"
ORDERING = "ordering"


def _in_order(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in sorted(cards, key=lambda c: (str(c.suit), -int(c.rank)))]


def action_record(action: Action) -> JSONObject:
    """The action as FORMAT.md records it (without its player)."""
    if isinstance(action, Bid):
        return {"bid": action.amount}
    if isinstance(action, ChooseOrder):
        return {"order": str(action.order)}
    record: JSONObject = {"play": str(action.card)}
    if action.suit is not None:
        record["suit"] = action.suit.value
    return record


def action_text(action: Action) -> str:
    if isinstance(action, Bid):
        return _("pass") if action.amount is None else _("bid {amount}").format(
            amount=action.amount)
    if isinstance(action, ChooseOrder):
        return (_("turn the order downtown") if action.order is Order.DOWNTOWN
                else _("keep the order uptown"))
    if action.suit is not None:
        return _("play {card} naming {suit}").format(card=action.card, suit=action.suit.value)
    return _("play {card}").format(card=action.card)


class OneCardCoach:
    evaluator = "strong"
    threshold = 1.5
    kinds: ClassVar[dict[str, str]] = {BIDDING_KIND: N_("bidding"), PLAYING: N_("playing cards"),
             ORDERING: N_("choosing the order")}
    points_meaning = N_("points of the deal for you (what the deal adds to your total), as "
                        "the strong bot expects them")

    def __init__(self) -> None:
        self.bot = StrongBot()

    def review_deal(self, recorded: RecordedDeal, options: rules.Options,
                    totals: Mapping[str, int], reviewed: Sequence[str],
                    rng_for: Callable[[int], random.Random]) -> Iterator[Decision | None]:
        opts = options
        deal = Deal.from_record(recorded.deal, opts)
        for step, record in enumerate(recorded.actions, start=1):
            player = record.get("player")
            if player in reviewed:
                view = deal.view(player)
                played = action_from_record(record, opts.joker)
                yield (self.decision(view, played, step, totals, rng_for(step))
                       if len(view.legal) > 1 else None)
            deal.replay([record])

    def decision(self, view: View, played: Action, step: int, totals: Mapping[str, int],
                 rng: random.Random) -> Decision:
        """One decision, from ``view`` alone."""
        seat_view = SeatView.from_view(view)
        rule = view.options.joker
        notes: list[str] = []
        estimates: JSONObject = {}
        if seat_view.info.phase == BIDDING:
            kind = BIDDING_KIND
            lowest = max(rules.lowest_bid(len(view.players)), (view.high_bid or 0) + 1)
            bid_points, pass_points = self.bot.bid_estimates(seat_view, rng)
            bids = bid_points > pass_points + self.bot.bid_margin
            best_action: Action = Bid(lowest if bids else None)
            best_points = bid_points if bids else pass_points
            assert isinstance(played, Bid)
            if played.amount is None:
                played_points = pass_points
            elif played.amount == lowest:
                played_points = bid_points
            else:
                played_points = self.bot.bid_estimates(seat_view, rng, played.amount)[0]
                estimates["played_bid_points"] = round(played_points, 3)
            estimates.update(bid_points=round(bid_points, 3), pass_points=round(pass_points, 3),
                             lowest_bid=lowest)
            notes.append(_("Bidding {lowest} (with the best trump): {bid} points expected; "
                           "passing: {passing}.").format(
                lowest=lowest, bid=f"{bid_points:.1f}", passing=f"{pass_points:.1f}"))
            if played.amount is not None and played.amount != lowest:
                notes.append(_("Bidding {amount}: {points} points expected.").format(
                    amount=played.amount, points=f"{played_points:.1f}"))
        else:
            kind = ORDERING if view.phase is Phase.ORDER else PLAYING
            chosen, values = self.bot.play_values(seat_view, rng)
            best_action = action_from_int(chosen, rule)
            best_points = values.get(chosen, 0.0)
            played_points = values.get(action_to_int(played, rule), min(values.values()))
        return Decision(
            step=step, player=view.player, kind=kind,
            played=Appraised(action_record(played), action_text(played), played_points),
            best=Appraised(action_record(best_action), action_text(best_action), best_points),
            position=self.position(view, totals), position_json=self.position_json(view, totals),
            notes=tuple(notes), estimates=estimates)

    @staticmethod
    def _contract(view: View) -> str:
        if view.phase is Phase.BIDDING:
            calls = ", ".join(f"{view.players[seat]} {_('pass') if amount is None else amount}"
                              for seat, amount in view.bids)
            return _("bidding: {calls}").format(calls=calls or _("nobody has called yet"))
        if view.bidder is not None:
            trump = view.trump.value if view.trump is not None else _("not named yet")
            return _("{bidder} bid {bid}, trump {trump}").format(
                bidder=view.players[view.bidder], bid=view.bid, trump=trump)
        return _("no bid: no trump, {order}").format(order=str(view.order))

    def position(self, view: View, totals: Mapping[str, int]) -> tuple[tuple[str, str], ...]:
        trick = ", ".join(f"{view.players[seat]} {card}" for seat, card in view.trick)
        return (
            (_("hand"), " ".join(_in_order(view.hand))),
            (_("contract"), self._contract(view)),
            (_("trick"), trick or _("you lead")),
            (_("points taken"), ", ".join(f"{name} {points}" for name, points in
                                          zip(view.players, view.points_taken, strict=True))),
            (_("totals before the deal"), ", ".join(f"{name} {totals.get(name, 0)}"
                                                     for name in view.players)),
        )

    @staticmethod
    def position_json(view: View, totals: Mapping[str, int]) -> JSONObject:
        return {
            "hand": _in_order(view.hand),
            "bids": [{"player": view.players[seat], "bid": amount} for seat, amount in view.bids],
            "bidder": None if view.bidder is None else view.players[view.bidder],
            "bid": view.bid,
            "trump": None if view.trump is None else view.trump.value,
            "trick": [{"player": view.players[seat], "card": str(card)}
                      for seat, card in view.trick],
            "tricks_done": len(view.tricks),
            "points_taken": dict(zip(view.players, view.points_taken, strict=True)),
            "totals": {name: totals.get(name, 0) for name in view.players},
        }

