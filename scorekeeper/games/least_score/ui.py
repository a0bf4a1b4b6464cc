"""Least Score at the keyboard: showing a player's view, reading a move, telling a replay."""

from __future__ import annotations

import copy
import random
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from scorekeeper.card_printing import cards_text
from scorekeeper.cards import SUITS, Card, Rank, parse_cards
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.bots import Advice, StrongBot
from scorekeeper.games.least_score.engine import Action, Deal, Declare, Discard, View
from scorekeeper.games.least_score.words import N_, _, ngettext, pgettext
from scorekeeper.i18n import format_percent
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

CARD_HELP = N_("write rank then suit: ranks A 2-10 J Q K (T for 10), suits S H D C; "
               "e.g. 10H, QS")
MOVE_HELP = N_("Your move: the cards to discard (a single card, a pair, all four of a rank, "
               "a run of 3 or 5, or a flush of 5), then a card to take from the floor or "
               "'deck' — e.g. '3H 3S 7C' or '9D deck'. 'hint' asks the strong bot.")
DECLARE_HELP = N_("Or 'declare': every hand is shown and the lowest total wins the deal.")
TAKE_HELP = N_("Take one card: a card of the floor (type it, e.g. 7C) or 'deck' for the top "
               "card of the deck.")
STRONG = StrongBot()


def declare_words() -> Words:
    return Words("declare, d", pgettext("words typed at a move, comma-separated",
                                        "declare, d"))


def deck_words() -> Words:
    return Words("deck, take-deck", pgettext("words typed at a move, comma-separated",
                                             "deck, take-deck"))


def filler_words() -> Words:
    """Words that may stand between the discard and the take (``9D then deck``)."""
    return Words("take, then", pgettext("words typed at a move, comma-separated",
                                        "take, then"))


def read_card_or_word(word: str, view: View) -> Card:
    """A card as typed; a word that is no card gets the words this move knows."""
    try:
        return read_card(word, _(CARD_HELP), allow_joker=view.options.jokers > 0)
    except ValueError:
        if looks_like_a_word(word) and word.strip().upper() != "JOKER":
            known = [deck_words(), hint_words()]
            if view.can_declare:
                known.insert(0, declare_words())
            raise unknown_word(word, known, _(CARD_HELP)) from None
        raise


def sort_key(card: Card) -> tuple[int, int]:
    """By rank (the ace low: it is worth 1), then suit."""
    return (int(card.rank), SUITS.index(card.suit) if card.suit is not None else 4)


def in_order(cards: tuple[Card, ...] | list[Card]) -> list[Card]:
    """Cards by rank; a run that ends on the ace (Q-K-A) is shown with the ace last."""
    ordered = sorted(cards, key=sort_key)
    high = sorted(14 if card.rank is Rank.ACE else int(card.rank) for card in ordered)
    if (len(ordered) in (3, 5) and ordered[0].rank is Rank.ACE and high[-1] == 14
            and high == list(range(high[0], high[0] + len(high)))):
        ordered = ordered[1:] + ordered[:1]
    return ordered


def _cards(cards: tuple[Card, ...] | list[Card]) -> Text:
    return cards_text([str(card) for card in in_order(cards)])


def _notation(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(card) for card in in_order(cards))


def render_view(view: View) -> RenderableType:
    lines: list[RenderableType] = []
    others = []
    for seat, name in enumerate(view.players):
        if name == view.player:
            continue
        size = view.hand_sizes[seat]
        text = ngettext("{name}: {n} card", "{name}: {n} cards", size).format(name=name, n=size)
        if view.taken_seen[seat]:
            text += " " + _("(took {cards})").format(
                cards=" ".join(c.pretty() for c in view.taken_seen[seat]))
        others.append(text)
    lines.append(Text("  ".join(others), style="dim"))
    floor = fill(_("Floor: {cards}"), cards=_cards(view.floor))
    if view.floor_from:
        floor.append("  " + _("(discarded by {player})").format(player=view.floor_from),
                     style="dim")
    else:
        floor.append("  " + _("(turned up)"), style="dim")
    floor.append("   " + ngettext("Deck: {n} card", "Deck: {n} cards", view.deck_size)
                 .format(n=view.deck_size), style="dim")
    lines.append(floor)
    hand = fill(_("{player}, your hand: {cards}"), player=view.player, cards=_cards(view.hand))
    hand.append(f"   = {rules.hand_value(view.hand)}", style="bold")
    lines.append(hand)
    if view.can_declare:
        lines.append(Text(_("You may declare."), style="green"))
    elif view.my_turn:
        lines.append(Text(_why_no_declaring(view, _("No declaring until everyone has had a "
                                                     "turn.")), style="dim"))
    return Group(*lines)


def _why_no_declaring(view: View, too_early: str) -> str:
    """Why the player whose turn it is may not declare: ``too_early`` (not everyone has
    had a turn), or (a variant's ``declare_at``) the hand is too high."""
    if view.turn < len(view.players):
        return too_early
    return _("No declaring with {total}: only with {most} or less").format(
        total=rules.hand_value(view.hand), most=view.options.declare_at)


def legal_moves(view: View) -> list[str]:
    """The legal discards (smallest first, each in order), the takes, and declare."""
    sets = sorted(view.legal_discards(),
                  key=lambda cards: (len(cards), [sort_key(c) for c in in_order(cards)]))
    discards = [_notation(cards) for cards in sets]
    moves = [_("Discard one of: {moves}").format(moves=" | ".join(discards)),
             _("then take: {moves}").format(moves=", ".join(take_moves(view)))]
    if view.can_declare:
        moves.append(_("or: {declare}").format(declare=declare_words().shown))
    return moves


def take_moves(view: View) -> list[str]:
    deck = [deck_words().shown] if view.deck_available else []
    return [str(card) for card in in_order(view.floor)] + deck


def parse_move(text: str, view: View) -> Action | str:
    """The action typed, or a question to ask next (the take, when only discards were typed).

    Raises ValueError with a player-facing reason for text that is not a move.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError(_("type a move, or ? for your legal moves"))
    if len(words) == 1 and words[0] in declare_words():
        return Declare()
    discard: list[Card] = []
    take: Card | None = None
    take_given = False
    for word in words:
        if word in deck_words():
            take_given = True
            continue
        if word in filler_words():
            continue
        card = read_card_or_word(word, view)
        if card in view.hand:
            discard.append(card)
        elif card in view.floor:
            if take_given:
                raise ValueError(_("take only one card"))
            take, take_given = card, True
        else:
            raise ValueError(_("{card} is neither in your hand nor on the floor").format(
                card=card))
    if not discard:
        raise ValueError(_("say which cards you discard (from your hand) before what you "
                           "take"))
    if not take_given:
        return "take"
    return Discard(tuple(discard), take)


def parse_take(text: str, view: View) -> Card | None:
    word = text.strip()
    if word == "" or word.lower() == "d" or word in deck_words():
        if not view.deck_available:
            raise ValueError(_("the deck and the dead pile are empty: take a card of the "
                               "floor"))
        return None
    card = read_card_or_word(word, view)
    if card not in view.floor:
        raise ValueError(_("{card} is not on the floor: take {moves}").format(
            card=card, moves=_(" or ").join(take_moves(view))))
    return card


def take_prompt(view: View) -> str:
    options = ", ".join(str(c) for c in in_order(view.floor))
    if view.deck_available:
        return _("Take {cards} or {deck}? [{deck}]").format(cards=options,
                                                            deck=deck_words().shown)
    return _("Take {cards}?").format(cards=options)


def describe_action(player: str, action: Action, deal: Deal) -> Text:
    if isinstance(action, Declare):
        return fill(_("{player} declares!"), style="bold", player=player)
    if action.take is None:
        return fill(_("{player} discards {cards} and takes from the deck"), player=player,
                    cards=_cards(action.cards))
    return fill(_("{player} discards {cards} and takes {take}"), player=player,
                cards=_cards(action.cards), take=_cards([action.take]))


def describe_end(deal: Deal) -> RenderableType:
    result = deal.result()
    lines: list[RenderableType] = []
    for name in deal.players:
        line = Text(f"{name:>12}: ")
        line.append_text(_cards(result.hands[name]))
        line.append(f" = {result.totals[name]}")
        if name == result.declarer:
            line.append("  " + pgettext("the player who declared", "declared"), style="bold")
        lines.append(line)
    verdict = (_("{player} made a false declaration! Scores: {scores}")
               if result.false_declaration
               else _("{player} made a good declaration. Scores: {scores}"))
    scores = ", ".join(f"{n} +{s}" for n, s in result.scores.items())
    lines.append(fill(verdict, style="bold red" if result.false_declaration else "bold green",
                      player=result.declarer, scores=scores))
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
            line.append("  " + _("← to play"), style="bold")
        lines.append(line)
    label = pgettext("replay row", "floor")
    floor = Text(f"{label:>12}: ")
    floor.append_text(_cards(deal.floor))
    floor.append("   " + _("deck {deck}, dead pile {dead}").format(
        deck=len(deal.deck), dead=len(deal.dead_pile)), style="dim")
    lines.append(floor)
    return Group(*lines)


def describe_record(record: JSONRecord) -> Text:
    """One saved action (of a deal that replayed: the engine checked it), as text."""
    if "reshuffle" in record:
        reshuffled = record["reshuffle"]
        size = len(reshuffled) if isinstance(reshuffled, list) else 0
        return Text(ngettext("The dead pile is shuffled into a new deck ({n} card).",
                             "The dead pile is shuffled into a new deck ({n} cards).",
                             size).format(n=size), style="dim")
    if record.get("declare"):
        return fill(_("{player} declares!"), style="bold", player=record["player"])
    discarded = record["discard"]  # (a joker: Yaniv's house rule)
    cards = _cards(parse_cards([str(card) for card in discarded]
                               if isinstance(discarded, list) else ()))
    if record["take"] == "deck":
        return fill(_("{player} discards {cards} and takes from the deck"),
                    player=record["player"], cards=cards)
    return fill(_("{player} discards {cards} and takes {take}"), player=record["player"],
                cards=cards, take=cards_text([str(record["take"])]))


def describe_hint(advice: Advice, view: View) -> Text:
    """The strong bot's move in the player's place, and its estimate of declaring now."""
    action = advice.action
    if isinstance(action, Declare):
        text = Text(_("Hint — the strong bot would declare"), style="cyan")
    else:
        typed = f"{_notation(action.cards)} {action.take or deck_words().shown}"
        if action.take is None:
            text = fill(_("Hint — the strong bot would discard {cards} and take from the deck "
                          "(type: {typed})"), style="cyan", cards=_cards(action.cards),
                        typed=typed)
        else:
            text = fill(_("Hint — the strong bot would discard {cards} and take {take} "
                          "(type: {typed})"), style="cyan", cards=_cards(action.cards),
                        take=_cards([action.take]), typed=typed)
    if advice.declare_chance is not None and advice.declare_edge is not None:
        text.append(". " + _("Declaring now with {total}: a good declaration {chance} of the "
                             "time, {edge} points against the others on average").format(
            total=rules.hand_value(view.hand), chance=format_percent(advice.declare_chance, 0),
            edge=f"{advice.declare_edge:+.1f}"))
    elif not view.can_declare:
        text.append(". " + _why_no_declaring(view, _("No declaring before everyone has had "
                                                     "a turn")))
    text.append(".")
    return text


def read_action(view: View, ask: Any, say: Any, hint_rng: random.Random | None = None
                ) -> Action:
    """Ask the player at the keyboard for a move until it parses (the engine checks it).

    With ``hint_rng``, typing ``hint`` shows what the strong bot would do."""
    # Each hint draws from a copy: asked twice in this position, it says the same.
    hint = None if hint_rng is None else (
        lambda: describe_hint(STRONG.advise(view, copy.copy(hint_rng)), view))

    def parse(text: str) -> Action:
        move = parse_move(text, view)
        if move == "take":
            take = read_move(ask, say, take_prompt(view), _(TAKE_HELP),
                             lambda: [_("Take: {moves}").format(
                                 moves=", ".join(take_moves(view)))],
                             lambda answer: parse_take(answer, view), hint)
            discard = parse_move(text + " deck", view)
            assert isinstance(discard, Discard)
            return Discard(discard.cards, take)
        assert not isinstance(move, str)
        return move

    help_text = _(MOVE_HELP) + (" " + _(DECLARE_HELP) if view.can_declare else "")
    return read_move(ask, say, _("{player}, your move (? for help)").format(player=view.player),
                     help_text,
                     lambda: legal_moves(view), parse, hint)


def describe_step(record: JSONRecord, deal: Deal) -> Text:
    """One saved action in a replay (``deal`` is the deal just after it)."""
    return describe_record(record)
