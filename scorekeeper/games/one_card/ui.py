"""One Card at the keyboard: showing a player's view, reading a move, telling a replay."""

from __future__ import annotations

import copy
import random
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from scorekeeper.card_printing import card_text, cards_text
from scorekeeper.cards import SUITS, Card, CardError, Suit, parse_suit
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.bots import Advice, StrongBot
from scorekeeper.games.one_card.engine import Action, Bid, ChooseOrder, Deal, Phase, Play, View
from scorekeeper.games.one_card.rules import JokerRule, Order
from scorekeeper.games.one_card.words import N_, _, ngettext, pgettext
from scorekeeper.keyboard import (
    Words,
    hint_words,
    looks_like_a_word,
    read_card,
    read_move,
    unknown_word,
)
from scorekeeper.kit.rounds import JSONRecord
from scorekeeper.text import fill

STRONG = StrongBot()
ORDER_HELP = N_("You won the trick holding the joker in a no-trump deal: 'uptown' keeps the "
                "order A K Q J 10 9; 'downtown' turns it to 9 10 J Q K A for the rest of the "
                "deal (the joker stays highest).")
SUIT_HELP = N_("Name a suit: S, H, D or C.")


def points(number: int) -> str:
    return ngettext("{n} point", "{n} points", number).format(n=number)


def joker_name(rule: JokerRule) -> str:
    return _("the joker") if rule is JokerRule.JOKER else _("the 2♦ (the joker)")


def card_help(rule: JokerRule) -> str:
    if rule is JokerRule.JOKER:
        return _("write rank then suit: ranks 9 10 J Q K A, suits S H D C, and the joker JK; "
                 "e.g. QS, 10H")
    return _("write rank then suit: ranks 9 10 J Q K A, suits S H D C, and the 2D, which is "
             "the joker; e.g. QS, 10H")


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
        if view.high_bid is None:
            return _("Bidding: no bid yet (lowest bid now {lowest}, highest 15)").format(
                lowest=lowest_bid_now(view))
        return _("Bidding: high bid {bid} by {player} (lowest bid now {lowest}, highest 15)")\
            .format(bid=view.high_bid, player=view.players[view.high_bidder or 0],
                    lowest=lowest_bid_now(view))
    if view.no_trump:
        return _("No bid: no trump, {order} order").format(order=view.order)
    bidder = view.players[view.bidder] if view.bidder is not None else "?"
    if view.trump is None:
        return _("{player} bid {bid}; trump: set by the first lead").format(player=bidder,
                                                                            bid=view.bid)
    return _("{player} bid {bid}; trump: {suit}").format(player=bidder, bid=view.bid,
                                                         suit=view.trump.in_words)


def render_view(view: View) -> RenderableType:
    lines: list[RenderableType] = [Text(_contract(view), style="bold")]
    taken = "  ".join(f"{name}: {points(view.points_taken[seat])}"
                      for seat, name in enumerate(view.players))
    lines.append(Text(_("Points taken so far — {taken}").format(taken=taken), style="dim"))
    if view.trick:
        played = Text()
        for index, (seat, card) in enumerate(view.trick):
            if index:
                played.append(", ")
            played.append(f"{view.players[seat]} ")
            played.append_text(card_text(str(card)))
        trick = fill(_("Trick so far: {cards}"), cards=played)
        if view.led_suit is not None:
            trick.append("   " + _("({suit} led)").format(suit=view.led_suit.in_words),
                         style="dim")
        lines.append(trick)
    hand = fill(_("{player}, your hand: {cards}"), player=view.player,
                cards=_cards(_sorted_hand(view)))
    lines.append(hand)
    return Group(*lines)


def pass_words() -> Words:
    return Words("pass, p, no", pgettext("words typed at a move, comma-separated",
                                         "pass, p, no"))


def uptown_words() -> Words:
    return Words("uptown, up, u", pgettext("words typed at a move, comma-separated",
                                           "uptown, up, u"))


def downtown_words() -> Words:
    return Words("downtown, down, d", pgettext("words typed at a move, comma-separated",
                                               "downtown, down, d"))


def _move_text(action: Action) -> str:
    """The action as the player would type it, in the active language's words."""
    if isinstance(action, Bid):
        return pass_words().shown if action.amount is None else str(action.amount)
    if isinstance(action, ChooseOrder):
        return (uptown_words() if action.order is Order.UPTOWN else downtown_words()).shown
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
    return [_("Legal: {moves}").format(moves=", ".join(dict.fromkeys(moves)))]


def phase_help(view: View) -> str:
    """The help for the question being asked, in One Card's words."""
    if view.phase is Phase.BIDDING:
        return _("Bid the points you expect to take, from {lowest} to 15 (above the high "
                 "bid), or 'pass' (you are then out of the bidding). The high bidder leads "
                 "first, and that card's suit is trump. 'hint' asks the strong bot.").format(
            lowest=lowest_bid_now(view))
    if view.phase is Phase.ORDER:
        return _(ORDER_HELP)
    rule = view.options.joker
    joker = rules.joker_card(rule)
    sentences = [_("Play a card of your hand ({help}).").format(help=card_help(rule))]
    if view.trick and view.led_suit is not None:
        sentences.append(_("You must follow {suit} if you can.").format(
            suit=view.led_suit.in_words))
        if view.trump is not None and view.led_suit is view.trump:
            sentences.append(_("The joker is a trump.") if rule is JokerRule.JOKER
                             else _("The 2♦ (the joker) is a trump."))
    elif joker in view.hand and (view.no_trump or view.trump is None):
        lead = (_("Leading {joker}, name the suit the others must follow after it: "
                  "'{card} H'.") if view.no_trump
                else _("Leading {joker}, name trump after it: '{card} H'."))
        sentences.append(lead.format(joker=joker_name(rule), card=joker))
    sentences.append(_("'hint' asks the strong bot."))
    return " ".join(sentences)


def parse_move(text: str, view: View) -> Action:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError(_("type a move, or ? for your legal moves"))
    if view.phase is Phase.BIDDING:
        return _parse_bid(words[0].lower(), view)
    if view.phase is Phase.ORDER:
        return _parse_order(words[0].lower())
    card = _parse_held_card(words[0], view)
    suit: Suit | None = None
    if len(words) > 1:
        try:
            suit = parse_suit(words[1])
        except CardError as error:
            raise ValueError(str(error)) from None
    return Play(card, suit)


def _parse_bid(first: str, view: View) -> Bid:
    """A bid, or a pass, typed in the bidding."""
    if first in pass_words():
        return Bid(None)
    if first.isascii() and first.isdigit():
        return Bid(int(first))
    raise ValueError(_("bid a number from {lowest} to 15, or '{word}'").format(
        lowest=lowest_bid_now(view), word=pass_words().shown))


def _parse_order(first: str) -> ChooseOrder:
    """The order chosen after winning a trick with the joker."""
    if first in uptown_words():
        return ChooseOrder(Order.UPTOWN)
    if first in downtown_words():
        return ChooseOrder(Order.DOWNTOWN)
    raise ValueError(_("you won the trick with the joker: choose '{uptown}' or "
                       "'{downtown}'").format(uptown=uptown_words().shown,
                                              downtown=downtown_words().shown))


def _parse_held_card(word: str, view: View) -> Card:
    """The card typed to play: one of the game's deck, in the player's hand."""
    rule = view.options.joker
    try:
        card = read_card(word, card_help(rule))
    except ValueError:
        if looks_like_a_word(word) and word.upper() != "JOKER":
            raise unknown_word(word, [hint_words()], card_help(rule)) from None
        raise
    if card.is_joker and rule is JokerRule.TWO_OF_DIAMONDS:
        raise ValueError(_("this game plays the 2♦ as the joker: type 2D"))
    if card not in rules.deck(rule):
        raise ValueError(_("{card} is not in One Card's deck: it has 9 10 J Q K A of each "
                           "suit and {joker}").format(card=card.pretty(),
                                                      joker=joker_name(rule)))
    if card not in view.hand:
        if rules.is_joker(card, rule):
            raise ValueError(_("you don't hold {joker}").format(joker=joker_name(rule)))
        raise ValueError(_("you don't hold the {card}").format(card=card.pretty()))
    return card


def needs_suit(action: Action, view: View) -> bool:
    """A joker lead that names a suit, typed without the suit."""
    return (isinstance(action, Play) and action.suit is None and not view.trick
            and rules.is_joker(action.card, view.options.joker)
            and (view.no_trump or view.trump is None))


def describe_hint(advice: Advice, view: View) -> Text:
    """The strong bot's choice in the player's place, with its estimate of the points."""
    action = advice.action
    typed = _move_text(action)
    if isinstance(action, Bid):
        text = Text(_("Hint — the strong bot would pass (type: {typed})").format(typed=typed)
                    if action.amount is None else
                    _("Hint — the strong bot would bid {bid} (type: {typed})").format(
                        bid=action.amount, typed=typed), style="cyan")
    elif isinstance(action, ChooseOrder):
        text = Text(_("Hint — the strong bot would choose {order} (type: {typed})").format(
            order=action.order, typed=typed), style="cyan")
    elif action.suit is not None:
        text = fill(_("Hint — the strong bot would play {card} naming {suit} (type: {typed})"),
                    style="cyan", card=card_text(str(action.card)), suit=action.suit.in_words,
                    typed=typed)
    else:
        text = fill(_("Hint — the strong bot would play {card} (type: {typed})"),
                    style="cyan", card=card_text(str(action.card)), typed=typed)
    if advice.bid_points is not None and advice.pass_points is not None:
        text.append(". " + _("Expected points this deal: {bidding} bidding {bid}, {passing} "
                             "passing").format(bidding=f"{advice.bid_points:.1f}",
                                               bid=lowest_bid_now(view),
                                               passing=f"{advice.pass_points:.1f}"))
    elif advice.expected_points is not None:
        text.append(". " + _("It expects to score about {points} points this deal").format(
            points=f"{advice.expected_points:.1f}"))
    elif len(view.legal) == 1:
        text.append(": " + _("it is the only legal move"))
    text.append(".")
    return text


def read_action(view: View, ask: Any, say: Any, hint_rng: random.Random | None = None
                ) -> Action:
    """Ask the player at the keyboard for a move until it parses (the engine checks it).

    ``?`` explains only the question being asked; with ``hint_rng``, ``hint`` shows
    what the strong bot would do."""
    prompts = {Phase.BIDDING: N_("{player}, your bid (a number or pass) (? for help)"),
               Phase.ORDER: N_("{player}, uptown or downtown (? for help)"),
               Phase.PLAY: N_("{player}, your card (? for help)")}
    # Each hint draws from a copy: asked twice in this position, it says the same.
    hint = None if hint_rng is None else (
        lambda: describe_hint(STRONG.advise(view, copy.copy(hint_rng)), view))

    def parse(text: str) -> Action:
        action = parse_move(text, view)
        if needs_suit(action, view):
            question = (_("You lead the joker: name trump (S, H, D, C)") if not view.no_trump
                        else _("You lead the joker: name the suit to follow (S, H, D, C)"))
            suit = read_move(ask, say, question, _(SUIT_HELP),
                             lambda: [_("Suits: S, H, D, C")], parse_suit)
            assert isinstance(action, Play)
            action = Play(action.card, suit)
        return action

    prompt = _(prompts.get(view.phase, N_("{player}, your move (? for help)"))).format(
        player=view.player)
    return read_move(ask, say, prompt, phase_help(view), lambda: legal_moves(view), parse,
                     hint)


def describe_action(player: str, action: Action, deal: Deal) -> RenderableType:
    if isinstance(action, Bid):
        return _said_bid(player, action.amount)
    if isinstance(action, ChooseOrder):
        return _said_order(player, action.order)
    lines: list[RenderableType] = [_said_play(player, card_text(str(action.card)),
                                              action.suit)]
    if deal.tricks and not deal.view(player).trick:  # this card completed a trick
        trick = deal.tricks[-1]
        lines.append(Text("  " + _trick_won(deal.players[trick.winner], trick.points),
                          style="bold"))
    return Group(*lines)


def _said_bid(player: str, amount: int | None) -> Text:
    if amount is None:
        return Text(_("{player} passes").format(player=player))
    return Text(_("{player} bids {bid}").format(player=player, bid=amount))


def _said_order(player: str, order: object) -> Text:
    return Text(_("{player} chooses {order}").format(player=player, order=order), style="bold")


def _said_play(player: str, card: Text, suit: Suit | None) -> Text:
    if suit is None:
        return fill(_("{player} plays {card}"), player=player, card=card)
    return fill(_("{player} plays {card} naming {suit}"), player=player, card=card,
                suit=Text(suit.in_words, style="bold"))


def _trick_won(winner: str, taken: int) -> str:
    return _("→ {player} wins the trick ({points})").format(player=winner,
                                                           points=points(taken))


def describe_end(deal: Deal) -> RenderableType:
    result = deal.result()
    one = fill(_("{player} takes the One Card: {card}"), player=result.one_card_to,
               card=card_text(str(deal.one_card)))
    lines: list[RenderableType] = [one]
    for name in deal.players:
        line = Text(f"{name:>12}: " + _("took {points}, scores {score}").format(
            points=points(result.points[name]), score=result.scores[name]))
        if name == result.bidder:
            bid = (_("(bid {bid}, failed)") if result.bid_failed
                   else _("(bid {bid})")).format(bid=result.bid)
            line.append("  " + bid, style="bold red" if result.bid_failed else "bold")
        lines.append(line)
    return Group(*lines)


def replay_state(deal: Deal) -> RenderableType:
    lines: list[RenderableType] = []
    for name in deal.players:
        line = Text(f"{name:>12}: ")
        line.append_text(_cards(sorted(deal.hand(name),
                                       key=lambda card: sort_key(card, deal.options.joker))))
        if name == deal.current_player:
            line.append("  " + _("← to act"), style="bold")
        lines.append(line)
    if deal.phase is Phase.BIDDING:
        contract = _("bidding")
    elif deal.no_trump:
        contract = _("no trump, {order}").format(order=deal.order)
    elif deal.trump:
        contract = _("trump {suit}").format(suit=deal.trump.in_words)
    else:
        contract = _("trump (first lead)")
    lines.append(Text(f"{'':>12}  {contract}", style="dim"))
    trick = deal.view(deal.players[0]).trick  # the cards on the table are public
    if trick:
        label = pgettext("replay row", "trick")
        line = Text(f"{label:>12}: ")
        for index, (seat, card) in enumerate(trick):
            line.append(", " if index else "")
            line.append(f"{deal.players[seat]} ")
            line.append_text(card_text(str(card)))
        lines.append(line)
    return Group(*lines)


def describe_record(record: JSONRecord) -> Text:
    """One saved action (of a deal that replayed: the engine checked it), as text."""
    player = str(record["player"])
    if "bid" in record:
        bid = record["bid"]
        return _said_bid(player, bid if isinstance(bid, int) else None)
    if "order" in record:
        return _said_order(player, record["order"])
    suit = parse_suit(str(record["suit"])) if record.get("suit") else None
    return _said_play(player, card_text(str(record["play"])), suit)


def describe_step(record: JSONRecord, deal: Deal) -> Text:
    """One saved action in a replay, and who won the trick when it completed one
    (``deal`` is the deal just after the action)."""
    text = describe_record(record)
    if "play" in record and deal.tricks and not deal.view(deal.players[0]).trick:
        trick = deal.tricks[-1]
        text.append("\n     " + _trick_won(deal.players[trick.winner], trick.points),
                    style="bold")
    return text
