"""Least Score on a phone (``score play --online``): a seat's state built from its
``View`` alone, the posted move turned into an engine action, the public words of what
happens. Layer 7, beside the keyboard UI (``ui.py``), whose words it reuses."""

from __future__ import annotations

import copy
import itertools
import random

from scorekeeper.cards import Card, parse_card
from scorekeeper.games.least_score import rules, ui
from scorekeeper.games.least_score.engine import Action, Deal, Declare, Discard, View
from scorekeeper.games.least_score.words import N_, _, ngettext
from scorekeeper.kit.rounds import JSONRecord
from scorekeeper.views.seat import JSONObject, button, pick, pick_key, plain_lines, row

HELP = N_("Choose the cards to discard (a single card, a pair, all four of a rank, a run "
          "of 3 or 5, or a flush of 5), then take a card of the floor or the top card of "
          "the deck.")
DECLARE_HELP = N_("Once everyone has had a turn, you may declare instead: every hand is "
                  "shown and the lowest total wins the deal.")


def seat_state(view: View) -> JSONObject:
    """What ``view.player`` sees, as the seat page draws it (built from the view only)."""
    state: JSONObject = {
        "hand": {"label": _("{player}, your hand: {cards}").format(player=view.player,
                                                                  cards=""),
                 "cards": [str(card) for card in ui.in_order(view.hand)],
                 "note": f"= {rules.hand_value(view.hand)}"},
        "table": table_rows(view, but=view.player),
        "moves": moves(view) if view.my_turn else None,
        "help": _(HELP) + " " + _(DECLARE_HELP),
    }
    return state


def public_state(view: View) -> JSONObject:
    """What the whole table sees (any seat's view, without its hand)."""
    return {"table": table_rows(view), "hand": None, "moves": None, "help": ""}


def table_rows(view: View, but: str | None = None) -> list[JSONObject]:
    """Each player's cards in hand and the floor cards seen taken, the floor, the deck."""
    table = []
    for seat, name in enumerate(view.players):
        if name == but:
            continue
        size = view.hand_sizes[seat]
        text = ngettext("{name}: {n} card", "{name}: {n} cards", size).format(name=name, n=size)
        took = view.taken_seen[seat]
        table.append(row(text, text=_("(took {cards})").format(
            cards=" ".join(card.pretty() for card in took)) if took else ""))
    floor_note = (_("(discarded by {player})").format(player=view.floor_from)
                  if view.floor_from else _("(turned up)"))
    table.append(row(_("Floor: {cards}").format(cards=""), ui.in_order(view.floor), floor_note))
    table.append(row(ngettext("Deck: {n} card", "Deck: {n} cards", view.deck_size)
                     .format(n=view.deck_size)))
    return table


def moves(view: View) -> JSONObject:
    """The legal moves: choose the cards to discard, then a floor card or the deck; or
    declare."""
    sets = view.legal_discards()
    return {"pick": pick(_("Pick the cards to discard:"), ui.in_order(view.hand), sets,
                         discard_problems(view)),
            "buttons": _buttons(view)}


def _buttons(view: View) -> list[JSONObject]:
    """The buttons of :func:`moves`, in order: a floor card or the deck to take (after
    the cards picked to discard), or declaring."""
    buttons = [button(_("then take: {moves}").format(moves=""), card, needs_pick=True)
               for card in ui.in_order(view.floor)]
    if view.deck_available:
        buttons.append(button(_("then take: {moves}").format(moves=ui.deck_words().shown),
                              needs_pick=True))
    if view.can_declare:
        buttons.append(button(_("or: {declare}").format(declare=ui.declare_words().shown)))
    return buttons


def discard_problems(view: View) -> dict[str, str]:
    """Why each choice of the hand's cards that is not a legal discard is not one, in
    the terminal's words (a hand holds at most a few cards: every choice is listed)."""
    hand = list(view.hand)
    problems: dict[str, str] = {}
    for size in range(1, len(hand) + 1):
        for chosen in itertools.combinations(hand, size):
            problem = rules.discard_problem(chosen, view.options.two_pairs,
                                          jokers=view.options.jokers > 0)
            if problem is not None:
                problems[pick_key(chosen)] = problem
    return problems


def action_of(move: JSONRecord, view: View) -> Action:
    """The engine action a posted move stands for (the engine checks it): ``button`` is
    the index of the button pressed, ``picked`` the cards chosen to discard. ValueError
    with the reason for a move that is not one."""
    buttons = _buttons(view)
    index = move.get("button")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(buttons):
        raise ValueError(_("type a move, or ? for your legal moves"))
    pressed = buttons[index]
    if not pressed["needs_pick"]:
        return Declare()
    picked = move.get("picked")
    if not isinstance(picked, list) or not picked or len(picked) > 5 \
            or not all(isinstance(card, str) for card in picked):
        raise ValueError(_("say which cards you discard (from your hand) before what you "
                           "take"))
    cards: list[Card] = []
    for text in picked:
        card = parse_card(str(text))
        if card not in view.hand:
            raise ValueError(_("{card} is neither in your hand nor on the floor").format(
                card=card))
        cards.append(card)
    taken = pressed["card"]
    take = parse_card(taken) if isinstance(taken, str) else None
    return Discard(tuple(cards), take)


def describe_action(player: str, action: Action, deal: Deal) -> list[str]:
    """The action as the whole table sees it (a card taken from the deck stays hidden)."""
    return plain_lines(ui.describe_action(player, action, deal))


def describe_end(deal: Deal) -> list[str]:
    """The declaration: every hand is shown (the rules reveal them) and the scores."""
    return plain_lines(ui.describe_end(deal))


def hint(view: View, rng: random.Random) -> str:
    """The strong bot's move in the player's place."""
    return ui.describe_hint(ui.STRONG.advise(view, copy.copy(rng)), view).plain
