"""Least Score at the keyboard: showing a player's view, reading a move, telling a replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from scorekeeper.cards import Card, CardError, parse_card
from scorekeeper.cli.keyboard import read_move
from scorekeeper.cli.render import cards_text
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.engine import Action, Deal, Declare, Discard, View

HELP = ("Type the cards to discard, then the card to take from the floor or 'deck' "
        "(e.g. '3H 3S 7C' or '9D deck'); 'declare' to declare; '?' for your legal moves.")


def _cards(cards: tuple[Card, ...] | list[Card]) -> Text:
    return cards_text([str(card) for card in cards])


def render_view(view: View) -> RenderableType:
    lines: list[RenderableType] = []
    others = []
    for seat, name in enumerate(view.players):
        if name == view.player:
            continue
        text = f"{name}: {view.hand_sizes[seat]} cards"
        if view.taken_seen[seat]:
            text += " (took " + " ".join(c.pretty() for c in view.taken_seen[seat]) + ")"
        others.append(text)
    lines.append(Text("  ".join(others), style="dim"))
    floor = Text("Floor: ")
    floor.append_text(_cards(view.floor))
    if view.floor_from:
        floor.append(f"  (discarded by {view.floor_from})", style="dim")
    else:
        floor.append("  (turned up)", style="dim")
    floor.append(f"   Deck: {view.deck_size} cards", style="dim")
    lines.append(floor)
    hand = Text(f"{view.player}, your hand: ")
    hand.append_text(_cards(view.hand))
    hand.append(f"   = {rules.hand_value(view.hand)}", style="bold")
    lines.append(hand)
    if view.can_declare:
        lines.append(Text("You may declare.", style="green"))
    elif view.my_turn:
        lines.append(Text("No declaring until everyone has had a turn.", style="dim"))
    return Group(*lines)


def legal_moves(view: View) -> list[str]:
    discards = [" ".join(str(c) for c in cards) for cards in view.legal_discards()]
    takes = [str(card) for card in view.floor] + (["deck"] if view.deck_available else [])
    moves = ["Discard one of: " + " | ".join(discards), "then take: " + ", ".join(takes)]
    if view.can_declare:
        moves.append("or: declare")
    return moves


def parse_move(text: str, view: View) -> Action | str:
    """The action typed, or a question to ask next (the take, when only discards were typed).

    Raises ValueError with a player-facing reason for text that is not a move.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("type a move, or ? for your legal moves")
    if [w.lower() for w in words] in (["declare"], ["d"]):
        return Declare()
    discard: list[Card] = []
    take: Card | None = None
    take_given = False
    for word in words:
        if word.lower() in ("deck", "take-deck"):
            take_given = True
            continue
        if word.lower() in ("take", "then"):
            continue
        try:
            card = parse_card(word, allow_joker=False)
        except CardError as error:
            raise ValueError(str(error)) from None
        if card in view.hand:
            discard.append(card)
        elif card in view.floor:
            if take_given:
                raise ValueError("take only one card")
            take, take_given = card, True
        else:
            raise ValueError(f"{card} is neither in your hand nor on the floor")
    if not discard:
        raise ValueError("say which cards you discard (from your hand) before what you take")
    if not take_given:
        return "take"
    return Discard(tuple(discard), take)


def parse_take(text: str, view: View) -> Card | None:
    word = text.strip()
    if word.lower() in ("deck", "d", ""):
        return None
    try:
        card = parse_card(word, allow_joker=False)
    except CardError as error:
        raise ValueError(str(error)) from None
    if card not in view.floor:
        raise ValueError(f"{card} is not on the floor: take one of "
                         + ", ".join(str(c) for c in view.floor) + " or the deck")
    return card


def take_prompt(view: View) -> str:
    options = ", ".join(str(c) for c in view.floor)
    return f"Take {options} or deck? [deck]" if view.deck_available else f"Take {options}?"


def describe_action(player: str, action: Action, deal: Deal) -> Text:
    if isinstance(action, Declare):
        return Text(f"{player} declares!", style="bold")
    text = Text(f"{player} discards ")
    text.append_text(_cards(action.cards))
    if action.take is None:
        text.append(" and takes from the deck")
    else:
        text.append(" and takes ")
        text.append_text(_cards([action.take]))
    return text


def describe_end(deal: Deal) -> RenderableType:
    result = deal.result()
    lines: list[RenderableType] = []
    for name in deal.players:
        line = Text(f"{name:>12}: ")
        line.append_text(_cards(result.hands[name]))
        line.append(f" = {result.totals[name]}")
        if name == result.declarer:
            line.append("  declared", style="bold")
        lines.append(line)
    verdict = ("a false declaration!" if result.false_declaration
               else "a good declaration.")
    scores = ", ".join(f"{n} +{s}" for n, s in result.scores.items())
    lines.append(Text(f"{result.declarer} made {verdict} Scores: {scores}",
                      style="bold red" if result.false_declaration else "bold green"))
    return Group(*lines)


def replay_state(deal: Deal) -> RenderableType:
    """The whole table, every hand face up, as a replay shows it."""
    lines: list[RenderableType] = []
    for name in deal.players:
        line = Text(f"{name:>12}: ")
        hand = deal.hand(name)
        line.append_text(_cards(hand))
        line.append(f" = {rules.hand_value(hand)}", style="dim")
        if name == deal.current_player:
            line.append("  ← to play", style="bold")
        lines.append(line)
    floor = Text(f"{'floor':>12}: ")
    floor.append_text(_cards(deal.floor))
    floor.append(f"   deck {len(deal.deck)}, dead pile {len(deal.dead_pile)}", style="dim")
    lines.append(floor)
    return Group(*lines)


def describe_record(record: Mapping[str, Any]) -> Text:
    """One saved action, as text."""
    if "reshuffle" in record:
        return Text(f"The dead pile is shuffled into a new deck ({len(record['reshuffle'])} "
                    "cards).", style="dim")
    if record.get("declare"):
        return Text(f"{record['player']} declares!", style="bold")
    text = Text(f"{record['player']} discards ")
    text.append_text(cards_text(record["discard"]))
    if record["take"] == "deck":
        text.append(" and takes from the deck")
    else:
        text.append(" and takes ")
        text.append_text(cards_text([record["take"]]))
    return text


def read_action(view: View, ask: Any, say: Any) -> Action:
    """Ask the player at the keyboard for a move until it parses (the engine checks it)."""

    def parse(text: str) -> Action:
        move = parse_move(text, view)
        if move == "take":
            take = parse_take(ask(take_prompt(view)), view)
            discard = parse_move(text + " deck", view)
            assert isinstance(discard, Discard)
            return Discard(discard.cards, take)
        assert not isinstance(move, str)
        return move

    return read_move(ask, say, f"{view.player}, your move (? for help)", HELP,
                     lambda: legal_moves(view), parse)
