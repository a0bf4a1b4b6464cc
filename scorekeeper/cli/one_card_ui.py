"""One Card at the keyboard: showing a player's view, reading a move, telling a replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from scorekeeper.cards import Card, CardError, Suit, parse_card, parse_suit
from scorekeeper.cli.keyboard import read_move
from scorekeeper.cli.render import card_text, cards_text
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.engine import Action, Bid, ChooseOrder, Deal, Phase, Play, View
from scorekeeper.games.one_card.rules import Order

HELP = ("Bidding: a number or 'pass'. Playing: a card (e.g. QS, 10h); leading the joker "
        "that names a suit: 'JK H'. After winning a no-trump trick with the joker: "
        "'uptown' or 'downtown'. '?' lists your legal moves.")


def _cards(cards: tuple[Card, ...] | list[Card]) -> Text:
    return cards_text([str(card) for card in cards])


def _sorted_hand(view: View) -> list[Card]:
    def key(card: Card) -> tuple[int, int]:
        if rules.is_joker(card, view.options.joker):
            return (9, 0)
        assert card.suit is not None
        return ("SHDC".index(card.suit.value), -int(card.rank if card.rank != 1 else 14))

    return sorted(view.hand, key=key)


def _contract(view: View) -> str:
    if view.phase is Phase.BIDDING:
        high = ("no bid yet" if view.high_bid is None
                else f"high bid {view.high_bid} by {view.players[view.high_bidder or 0]}")
        return f"Bidding: {high} (lowest bid {rules.lowest_bid(view.num_players)}, highest 15)"
    if view.no_trump:
        return f"No bid: no trump, {view.order} order"
    bidder = view.players[view.bidder] if view.bidder is not None else "?"
    trump = view.trump.english if view.trump else "set by the first lead"
    return f"{bidder} bid {view.bid}; trump: {trump}"


def render_view(view: View) -> RenderableType:
    lines: list[RenderableType] = [Text(_contract(view), style="bold")]
    taken = "  ".join(f"{name}: {view.points_taken[seat]} pts"
                      for seat, name in enumerate(view.players))
    lines.append(Text(f"Points taken so far — {taken}", style="dim"))
    if view.trick:
        trick = Text("Trick so far: ")
        for index, (seat, card) in enumerate(view.trick):
            if index:
                trick.append(", ")
            trick.append(f"{view.players[seat]} ")
            trick.append_text(card_text(str(card)))
        if view.led_suit is not None:
            trick.append(f"   ({view.led_suit.english} led)", style="dim")
        lines.append(trick)
    hand = Text(f"{view.player}, your hand: ")
    hand.append_text(_cards(_sorted_hand(view)))
    lines.append(hand)
    return Group(*lines)


def legal_moves(view: View) -> list[str]:
    moves: list[str] = []
    for action in view.legal_actions():
        if isinstance(action, Bid):
            moves.append("pass" if action.amount is None else str(action.amount))
        elif isinstance(action, ChooseOrder):
            moves.append(str(action.order))
        elif action.suit is not None:
            moves.append(f"{action.card} {action.suit.value}")
        else:
            moves.append(str(action.card))
    return ["Legal: " + ", ".join(dict.fromkeys(moves))]


def parse_move(text: str, view: View) -> Action:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("type a move, or ? for your legal moves")
    first = words[0].lower()
    if view.phase is Phase.BIDDING:
        if first in ("pass", "p", "no"):
            return Bid(None)
        if first.isdigit():
            return Bid(int(first))
        raise ValueError(f"bid a number from {rules.lowest_bid(view.num_players)} to 15, "
                         "or 'pass'")
    if view.phase is Phase.ORDER:
        if first in ("uptown", "up", "u"):
            return ChooseOrder(Order.UPTOWN)
        if first in ("downtown", "down", "d"):
            return ChooseOrder(Order.DOWNTOWN)
        raise ValueError("you won the trick with the joker: choose 'uptown' or 'downtown'")
    try:
        card = parse_card(words[0])
    except CardError as error:
        raise ValueError(str(error)) from None
    if card.is_joker and view.options.joker is rules.JokerRule.TWO_OF_DIAMONDS:
        raise ValueError("this game plays the 2♦ as the joker: type 2D")
    suit: Suit | None = None
    if len(words) > 1:
        try:
            suit = parse_suit(words[1])
        except CardError as error:
            raise ValueError(str(error)) from None
    return Play(card, suit)


def needs_suit(action: Action, view: View) -> bool:
    """A joker lead that names a suit, typed without the suit."""
    return (isinstance(action, Play) and action.suit is None and not view.trick
            and rules.is_joker(action.card, view.options.joker)
            and (view.no_trump or view.trump is None))


def read_action(view: View, ask: Any, say: Any) -> Action:
    """Ask the player at the keyboard for a move until it parses (the engine checks it)."""
    prompts = {Phase.BIDDING: "your bid (a number or pass)", Phase.ORDER: "uptown or downtown",
               Phase.PLAY: "your card"}

    def parse(text: str) -> Action:
        action = parse_move(text, view)
        if needs_suit(action, view):
            what = "trump" if not view.no_trump else "the suit to follow"
            suit = parse_suit(ask(f"You lead the joker: name {what} (S, H, D, C)"))
            assert isinstance(action, Play)
            action = Play(action.card, suit)
        return action

    prompt = f"{view.player}, {prompts.get(view.phase, 'your move')} (? for help)"
    return read_move(ask, say, prompt, HELP, lambda: legal_moves(view), parse)

def describe_action(player: str, action: Action, deal: Deal) -> RenderableType:
    if isinstance(action, Bid):
        return Text(f"{player} passes" if action.amount is None
                    else f"{player} bids {action.amount}")
    if isinstance(action, ChooseOrder):
        return Text(f"{player} chooses {action.order}", style="bold")
    text = Text(f"{player} plays ")
    text.append_text(card_text(str(action.card)))
    if action.suit is not None:
        text.append(f" naming {action.suit.english}", style="bold")
    lines: list[RenderableType] = [text]
    if deal.tricks and not deal.view(player).trick:  # this card completed a trick
        trick = deal.tricks[-1]
        lines.append(Text(f"  → {deal.players[trick.winner]} wins the trick "
                          f"({trick.points} pts)", style="bold"))
    return Group(*lines)


def describe_end(deal: Deal) -> RenderableType:
    result = deal.result()
    one = Text(f"{result.one_card_to} takes the One Card: ")
    one.append_text(card_text(str(deal.one_card)))
    lines: list[RenderableType] = [one]
    for name in deal.players:
        line = Text(f"{name:>12}: took {result.points[name]} pts, scores {result.scores[name]}")
        if name == result.bidder:
            line.append(f"  (bid {result.bid}{', failed' if result.bid_failed else ''})",
                        style="bold red" if result.bid_failed else "bold")
        lines.append(line)
    return Group(*lines)


def replay_state(deal: Deal) -> RenderableType:
    lines: list[RenderableType] = []
    for name in deal.players:
        line = Text(f"{name:>12}: ")
        line.append_text(_cards(list(deal.hand(name))))
        if name == deal.current_player:
            line.append("  ← to act", style="bold")
        lines.append(line)
    contract = ("bidding" if deal.phase is Phase.BIDDING else
                "no trump, " + str(deal.order) if deal.no_trump else
                f"trump {deal.trump.english if deal.trump else '(first lead)'}")
    lines.append(Text(f"{'':>12}  {contract}", style="dim"))
    trick = deal.view(deal.players[0]).trick  # the cards on the table are public
    if trick:
        line = Text(f"{'trick':>12}: ")
        for index, (seat, card) in enumerate(trick):
            line.append(", " if index else "")
            line.append(f"{deal.players[seat]} ")
            line.append_text(card_text(str(card)))
        lines.append(line)
    return Group(*lines)


def describe_record(record: Mapping[str, Any]) -> Text:
    player = record["player"]
    if "bid" in record:
        return Text(f"{player} passes" if record["bid"] is None else
                    f"{player} bids {record['bid']}")
    if "order" in record:
        return Text(f"{player} chooses {record['order']}", style="bold")
    text = Text(f"{player} plays ")
    text.append_text(card_text(record["play"]))
    if record.get("suit"):
        text.append(f" naming {parse_suit(record['suit']).english}", style="bold")
    return text
