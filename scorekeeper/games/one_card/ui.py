"""One Card at the keyboard: showing a player's view, reading a move, telling a replay."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from scorekeeper.cards import SUITS, Card, CardError, Suit, parse_suit
from scorekeeper.cli.keyboard import read_card, read_move
from scorekeeper.cli.render import card_text, cards_text
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.bots import Advice, StrongBot
from scorekeeper.games.one_card.engine import Action, Bid, ChooseOrder, Deal, Phase, Play, View
from scorekeeper.games.one_card.rules import JokerRule, Order

STRONG = StrongBot()
ORDER_HELP = ("You won the trick holding the joker in a no-trump deal: 'uptown' keeps the "
              "order A K Q J 10 9; 'downtown' turns it to 9 10 J Q K A for the rest of the "
              "deal (the joker stays highest).")
SUIT_HELP = "Name a suit: S, H, D or C."


def points(number: int) -> str:
    return f"{number} point{'' if number == 1 else 's'}"


def joker_name(rule: JokerRule) -> str:
    return "the joker" if rule is JokerRule.JOKER else "the 2♦ (the joker)"


def card_help(rule: JokerRule) -> str:
    joker = "the joker JK" if rule is JokerRule.JOKER else "the 2D, which is the joker"
    return f"write rank then suit: ranks 9 10 J Q K A, suits S H D C, and {joker}; e.g. QS, 10H"


def sort_key(card: Card, rule: JokerRule) -> tuple[int, int]:
    """By suit (S H D C), highest first (A K Q J 10 9); the joker last."""
    if rules.is_joker(card, rule) or card.suit is None:
        return (len(SUITS), 0)
    return (SUITS.index(card.suit), -(14 if int(card.rank) == 1 else int(card.rank)))


def _cards(cards: tuple[Card, ...] | list[Card]) -> Text:
    return cards_text([str(card) for card in cards])


def _sorted_hand(view: View) -> list[Card]:
    return sorted(view.hand, key=lambda card: sort_key(card, view.options.joker))


def lowest_bid_now(view: View) -> int:
    """The lowest bid the player may make now: above the high bid, at least the game's lowest."""
    lowest = rules.lowest_bid(view.num_players)
    return lowest if view.high_bid is None else max(lowest, view.high_bid + 1)


def _contract(view: View) -> str:
    if view.phase is Phase.BIDDING:
        high = ("no bid yet" if view.high_bid is None
                else f"high bid {view.high_bid} by {view.players[view.high_bidder or 0]}")
        return f"Bidding: {high} (lowest bid now {lowest_bid_now(view)}, highest 15)"
    if view.no_trump:
        return f"No bid: no trump, {view.order} order"
    bidder = view.players[view.bidder] if view.bidder is not None else "?"
    trump = view.trump.english if view.trump else "set by the first lead"
    return f"{bidder} bid {view.bid}; trump: {trump}"


def render_view(view: View) -> RenderableType:
    lines: list[RenderableType] = [Text(_contract(view), style="bold")]
    taken = "  ".join(f"{name}: {points(view.points_taken[seat])}"
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


def _move_text(action: Action) -> str:
    if isinstance(action, Bid):
        return "pass" if action.amount is None else str(action.amount)
    if isinstance(action, ChooseOrder):
        return str(action.order)
    if action.suit is not None:
        return f"{action.card} {action.suit.value}"
    return str(action.card)


def legal_moves(view: View) -> list[str]:
    """The legal answers: bids from the lowest (pass first), cards by suit and rank."""
    rule = view.options.joker

    def key(action: Action) -> tuple[int, int, int, int]:
        if isinstance(action, Bid):
            return (0, action.amount or 0, 0, 0)
        if isinstance(action, ChooseOrder):
            return (1, 0 if action.order is Order.UPTOWN else 1, 0, 0)
        suit = SUITS.index(action.suit) if action.suit is not None else -1
        return (2, *sort_key(action.card, rule), suit)

    moves = [_move_text(action) for action in sorted(view.legal_actions(), key=key)]
    return ["Legal: " + ", ".join(dict.fromkeys(moves))]


def phase_help(view: View) -> str:
    """The help for the question being asked, in One Card's words."""
    if view.phase is Phase.BIDDING:
        return (f"Bid the points you expect to take, from {lowest_bid_now(view)} to 15 (above "
                "the high bid), or 'pass' (you are then out of the bidding). The high bidder "
                "leads first, and that card's suit is trump. 'hint' asks the strong bot.")
    if view.phase is Phase.ORDER:
        return ORDER_HELP
    rule = view.options.joker
    joker = rules.joker_card(rule)
    text = f"Play a card of your hand ({card_help(rule)})."
    if view.trick and view.led_suit is not None:
        text += f" You must follow {view.led_suit.english} if you can."
        if view.trump is not None and view.led_suit is view.trump:
            text += f" {joker_name(rule).capitalize()} is a trump."
    elif joker in view.hand and (view.no_trump or view.trump is None):
        what = "the suit the others must follow" if view.no_trump else "trump"
        text += (f" Leading {joker_name(rule)}, name {what} after it: "
                 f"'{joker} H'.")
    return text + " 'hint' asks the strong bot."


def parse_move(text: str, view: View) -> Action:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("type a move, or ? for your legal moves")
    first = words[0].lower()
    if view.phase is Phase.BIDDING:
        if first in ("pass", "p", "no"):
            return Bid(None)
        if first.isascii() and first.isdigit():
            return Bid(int(first))
        raise ValueError(f"bid a number from {lowest_bid_now(view)} to 15, or 'pass'")
    if view.phase is Phase.ORDER:
        if first in ("uptown", "up", "u"):
            return ChooseOrder(Order.UPTOWN)
        if first in ("downtown", "down", "d"):
            return ChooseOrder(Order.DOWNTOWN)
        raise ValueError("you won the trick with the joker: choose 'uptown' or 'downtown'")
    rule = view.options.joker
    card = read_card(words[0], card_help(rule))
    if card.is_joker and rule is JokerRule.TWO_OF_DIAMONDS:
        raise ValueError("this game plays the 2♦ as the joker: type 2D")
    if card not in rules.deck(rule):
        raise ValueError(f"{card.pretty()} is not in One Card's deck: it has 9 10 J Q K A of "
                         f"each suit and {joker_name(rule)}")
    if card not in view.hand:
        if rules.is_joker(card, rule):
            raise ValueError(f"you don't hold {joker_name(rule)}")
        raise ValueError(f"you don't hold the {card.pretty()}")
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


def describe_hint(advice: Advice, view: View) -> Text:
    """The strong bot's choice in the player's place, with its estimate of the points."""
    text = Text("Hint — the strong bot would ", style="cyan")
    action = advice.action
    if isinstance(action, Bid):
        text.append("pass" if action.amount is None else f"bid {action.amount}")
    elif isinstance(action, ChooseOrder):
        text.append(f"choose {action.order}")
    else:
        text.append("play ")
        text.append_text(card_text(str(action.card)))
        if action.suit is not None:
            text.append(f" naming {action.suit.english}")
    text.append(f" (type: {_move_text(action)})")
    if advice.bid_points is not None and advice.pass_points is not None:
        text.append(f". Expected points this deal: {advice.bid_points:.1f} bidding "
                    f"{lowest_bid_now(view)}, {advice.pass_points:.1f} passing")
    elif advice.expected_points is not None:
        text.append(f". It expects to score about {advice.expected_points:.1f} points "
                    "this deal")
    elif len(view.legal) == 1:
        text.append(": it is the only legal move")
    text.append(".")
    return text


def read_action(view: View, ask: Any, say: Any, hint_rng: random.Random | None = None
                ) -> Action:
    """Ask the player at the keyboard for a move until it parses (the engine checks it).

    ``?`` explains only the question being asked; with ``hint_rng``, ``hint`` shows
    what the strong bot would do."""
    prompts = {Phase.BIDDING: "your bid (a number or pass)", Phase.ORDER: "uptown or downtown",
               Phase.PLAY: "your card"}
    hint = None if hint_rng is None else (lambda: describe_hint(STRONG.advise(view, hint_rng),
                                                                 view))

    def parse(text: str) -> Action:
        action = parse_move(text, view)
        if needs_suit(action, view):
            what = "trump" if not view.no_trump else "the suit to follow"
            suit = read_move(ask, say, f"You lead the joker: name {what} (S, H, D, C)",
                             SUIT_HELP, lambda: ["Suits: S, H, D, C"], parse_suit)
            assert isinstance(action, Play)
            action = Play(action.card, suit)
        return action

    prompt = f"{view.player}, {prompts.get(view.phase, 'your move')} (? for help)"
    return read_move(ask, say, prompt, phase_help(view), lambda: legal_moves(view), parse,
                     hint)


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
                          f"({points(trick.points)})", style="bold"))
    return Group(*lines)


def describe_end(deal: Deal) -> RenderableType:
    result = deal.result()
    one = Text(f"{result.one_card_to} takes the One Card: ")
    one.append_text(card_text(str(deal.one_card)))
    lines: list[RenderableType] = [one]
    for name in deal.players:
        line = Text(f"{name:>12}: took {points(result.points[name])}, "
                    f"scores {result.scores[name]}")
        if name == result.bidder:
            line.append(f"  (bid {result.bid}{', failed' if result.bid_failed else ''})",
                        style="bold red" if result.bid_failed else "bold")
        lines.append(line)
    return Group(*lines)


def replay_state(deal: Deal) -> RenderableType:
    lines: list[RenderableType] = []
    for name in deal.players:
        line = Text(f"{name:>12}: ")
        line.append_text(_cards(sorted(deal.hand(name),
                                       key=lambda card: sort_key(card, deal.options.joker))))
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


def describe_step(record: Mapping[str, Any], deal: Deal) -> Text:
    """One saved action in a replay, and who won the trick when it completed one
    (``deal`` is the deal just after the action)."""
    text = describe_record(record)
    if "play" in record and deal.tricks and not deal.view(deal.players[0]).trick:
        trick = deal.tricks[-1]
        text.append(f"\n     → {deal.players[trick.winner]} wins the trick "
                    f"({points(trick.points)})", style="bold")
    return text
