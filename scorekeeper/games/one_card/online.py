"""One Card on a phone (``score play --online``): a seat's state built from its ``View``
alone, the posted move turned into an engine action, the public words of what happens.
Layer 7, beside the keyboard UI (``ui.py``), whose words it reuses."""

from __future__ import annotations

import copy
import random

from scorekeeper.cards import SUITS
from scorekeeper.games.one_card import ui
from scorekeeper.games.one_card.engine import (
    Action,
    Bid,
    ChooseOrder,
    Deal,
    Phase,
    Play,
    View,
)
from scorekeeper.games.one_card.rules import Order
from scorekeeper.games.one_card.words import N_, _
from scorekeeper.kit.rounds import JSONRecord
from scorekeeper.views.seat import JSONObject, button, plain_lines, row

HELP = {
    Phase.BIDDING: N_("Bid the points you expect to take, or pass (you are then out of the "
                      "bidding). The high bidder leads first, and that card's suit is trump."),
    Phase.PLAY: N_("Play a card of your hand: you must follow the suit led if you can. "
                   "Leading the joker, you name the suit after it."),
    Phase.ORDER: ui.ORDER_HELP,
}
"""The rules of the move asked, in words (no card named: the help is the same for all)."""


def seat_state(view: View) -> JSONObject:
    """What ``view.player`` sees, as the seat page draws it (built from the view only)."""
    taken = "  ".join(f"{name}: {ui.points(view.points_taken[seat])}"
                      for seat, name in enumerate(view.players))
    table = [row(ui._contract(view)),
             row(_("Points taken so far — {taken}").format(taken=taken))]
    if view.trick:
        played = ", ".join(f"{view.players[seat]} {card.pretty()}" for seat, card in view.trick)
        note = ("" if view.led_suit is None
                else _("({suit} led)").format(suit=view.led_suit.in_words))
        table.append(row(_("Trick so far: {cards}").format(cards=played), text=note))
    elif view.tricks:
        last = view.tricks[-1]
        played = ", ".join(f"{view.players[seat]} {card.pretty()}" for seat, card in last.plays)
        table.append(row(_("Trick so far: {cards}").format(cards=played),
                         text=ui._trick_won(view.players[last.winner], last.points)))
    return {
        "table": table,
        "hand": {"label": _("{player}, your hand: {cards}").format(player=view.player,
                                                                  cards=""),
                 "cards": [str(card) for card in ui._sorted_hand(view)], "note": ""},
        "moves": moves(view) if view.my_turn else None,
        "help": _(HELP[view.phase]) if view.phase in HELP else "",
    }


def public_state(view: View) -> JSONObject:
    """What the whole table sees (any seat's view, without its hand)."""
    return {"table": seat_state(view)["table"], "hand": None, "moves": None, "help": ""}


def ordered(view: View) -> list[Action]:
    """The legal actions in the order of their buttons: pass and the bids from the
    lowest, uptown then downtown, the cards by suit and rank (the joker's suits after it)."""
    rule = view.options.joker

    def key(action: Action) -> tuple[int, int, int, int]:
        if isinstance(action, Bid):
            return (0, action.amount or 0, 0, 0)
        if isinstance(action, ChooseOrder):
            return (1, 0 if action.order is Order.UPTOWN else 1, 0, 0)
        suit = SUITS.index(action.suit) if action.suit is not None else -1
        return (2, *ui.sort_key(action.card, rule), suit)

    return sorted(view.legal_actions(), key=key)


def label(action: Action) -> str:
    if isinstance(action, Bid):
        return ui.pass_words().shown if action.amount is None else str(action.amount)
    if isinstance(action, ChooseOrder):
        return (ui.uptown_words() if action.order is Order.UPTOWN else
                ui.downtown_words()).shown
    if action.suit is not None:
        return f"{action.card.pretty()} {action.suit.symbol}"
    return action.card.pretty()


def moves(view: View) -> JSONObject:
    """The legal moves as buttons: the bids (and pass), uptown or downtown, or the cards
    to play (the joker once per suit it can name)."""
    return {"pick": None,
            "buttons": [button(label(action),
                               action.card if isinstance(action, Play) else None,
                               suit=action.suit.symbol if isinstance(action, Play)
                               and action.suit is not None else None)
                        for action in ordered(view)]}


def action_of(move: JSONRecord, view: View) -> Action:
    """The engine action of the button pressed (the engine checks it)."""
    index = move.get("button")
    legal = ordered(view)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
        raise ValueError(_("type a move, or ? for your legal moves"))
    return legal[index]


def describe_action(player: str, action: Action, deal: Deal) -> list[str]:
    return plain_lines(ui.describe_action(player, action, deal))


def describe_end(deal: Deal) -> list[str]:
    return plain_lines(ui.describe_end(deal))


def hint(view: View, rng: random.Random) -> str:
    """The strong bot's choice in the player's place."""
    return ui.describe_hint(ui.STRONG.advise(view, copy.copy(rng)), view).plain
