"""Least Score bots: they play legal moves and behave as their level says."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from scorekeeper import match
from scorekeeper.cards import STANDARD_DECK, Card, parse_card, parse_cards
from scorekeeper.games.least_score.bots import (
    BOTS,
    Bot,
    GreedyBot,
    RandomBot,
    StrongBot,
    get_bot,
)
from scorekeeper.games.least_score.engine import Deal, Declare, Discard, View
from scorekeeper.games.least_score.rules import Options

PLAYERS = ("Ann", "Bob", "Cy", "Di")


def make_view(
    hand: str,
    floor: str,
    *,
    turn: int = 12,
    sizes: tuple[int, ...] = (5, 5, 5, 5),
    taken: tuple[str, ...] = ("", "", "", ""),
    dead: str = "",
    deck_size: int = 20,
) -> View:
    """Ann's view at the start of her turn (Ann sits in seat 0)."""
    cards = tuple(parse_cards(hand))
    sizes = (len(cards), *sizes[1:])
    seen = (*parse_cards(dead), *parse_cards(floor))
    return View(
        player="Ann",
        seat=0,
        players=PLAYERS,
        dealer="Di",
        hand=cards,
        floor=tuple(parse_cards(floor)),
        floor_from="Di",
        seen=seen,
        dead_pile=tuple(parse_cards(dead)),
        reshuffled=frozenset(),
        hand_sizes=sizes,
        taken_seen=tuple(tuple(parse_cards(t)) for t in taken),
        turns_taken=tuple(turn // 4 for _ in PLAYERS),
        deck_size=deck_size,
        current_player="Ann",
        turn=turn,
        can_declare=turn >= 4,
        options=Options(),
    )


def c(text: str) -> Card:
    return parse_card(text)


def test_registry() -> None:
    assert set(BOTS) == {"random", "greedy", "strong", "expert"}
    assert isinstance(get_bot("strong"), StrongBot)
    with pytest.raises(ValueError, match="unknown bot level"):
        get_bot("genius")


# -- random ----------------------------------------------------------------


def test_random_is_uniform_over_the_legal_actions() -> None:
    view = make_view("KS KH 2C 3D AS", "9H 4C")
    legal = view.legal_actions()
    assert len(legal) == 7 * 3 + 1  # 5 singles, KK, A-2-3; two floor cards or the deck
    rng = random.Random(1)
    counts = Counter(RandomBot().choose(view, rng) for _ in range(len(legal) * 300))
    assert set(counts) == set(legal)
    assert min(counts.values()) > 200 and max(counts.values()) < 400


def test_random_only_plays_legal_actions_in_real_deals() -> None:
    rng = random.Random(3)
    bot = RandomBot()
    for number in range(30):
        deal = Deal.new(PLAYERS, PLAYERS[number % 4], random.Random(number), Options())
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            action = bot.choose(view, rng)
            assert action in view.legal_actions()
            assert action in deal.legal_actions()
            deal.apply(action)


# -- greedy ----------------------------------------------------------------


def test_greedy_discards_its_highest_set() -> None:
    bot = GreedyBot()
    rng = random.Random(0)
    # The pair of kings (20) beats any single card.
    assert bot.choose(make_view("2C KS 3D KH AS", "9H"), rng) == Discard((c("KS"), c("KH")), None)
    # The run 9-10-J (29) beats the jack alone and the pair of twos.
    action = bot.choose(make_view("9S 2C 10H 2D JD", "8H"), rng)
    assert action == Discard((c("9S"), c("10H"), c("JD")), None)
    # The whole hand as a flush.
    action = bot.choose(make_view("2H 5H 9H QH KH", "8S"), rng)
    assert isinstance(action, Discard) and len(action.cards) == 5


def test_greedy_takes_a_low_floor_card_only() -> None:
    bot = GreedyBot()
    rng = random.Random(0)
    hand = "KS 9C 4D 6H 2S"
    assert bot.choose(make_view(hand, "9H 2D 3D 4H 5S"), rng) == Discard((c("KS"),), c("2D"))
    assert bot.choose(make_view(hand, "6C"), rng) == Discard((c("KS"),), c("6C"))
    assert bot.choose(make_view(hand, "7C"), rng) == Discard((c("KS"),), None)
    # With nothing in the deck or the dead pile it must take from the floor.
    view = make_view(hand, "QC", deck_size=0)
    assert bot.choose(view, rng) == Discard((c("KS"),), c("QC"))


def test_greedy_declares_at_its_threshold_only_when_allowed() -> None:
    bot = GreedyBot()
    rng = random.Random(0)
    assert bot.choose(make_view("AS 2C 2D", "9H"), rng) == Declare()
    assert isinstance(bot.choose(make_view("AS 2C 3D", "9H"), rng), Discard)
    assert isinstance(bot.choose(make_view("AS 2C", "9H", turn=2), rng), Discard)


# -- strong ----------------------------------------------------------------


def test_strong_declares_with_a_very_low_hand_late() -> None:
    bot = StrongBot()
    rng = random.Random(0)
    view = make_view("AS", "9H", turn=24, sizes=(1, 3, 3, 3))
    assert bot.choose(view, rng) == Declare()
    chance, edge = bot.declaration_outlook(view, rng)
    assert chance > 0.95 and edge > 5


def test_strong_does_not_declare_a_losing_hand() -> None:
    bot = StrongBot()
    rng = random.Random(0)
    # 19 against three players on a single card each: almost surely false.
    view = make_view("9S 10H", "4H", turn=24, sizes=(2, 1, 1, 1))
    chance, _ = bot.declaration_outlook(view, rng)
    assert chance < 0.1
    assert isinstance(bot.choose(view, rng), Discard)
    # Known low cards taken from the floor make it certain.
    view = make_view("5S 2H", "4H", turn=24, sizes=(2, 1, 1, 1), taken=("", "AC", "2C", "3C"))
    assert bot.declaration_outlook(view, rng)[0] == 0
    assert isinstance(bot.choose(view, rng), Discard)
    # Not in the first round of turns, however low the hand.
    assert isinstance(bot.choose(make_view("AS", "9H", turn=3), rng), Discard)


def test_giving_up_on_a_hopeless_declaration_changes_no_decision() -> None:
    # The play-outs' bots stop sampling once a declaration can no longer be good
    # often enough: the same choice as sampling it all, on fewer draws.
    stopped = 0
    compared = 0
    for min_good in (0.6, 0.8, 0.5):
        full = StrongBot(samples=24, min_good=min_good)
        quick = StrongBot(samples=24, min_good=min_good, give_up=True)
        for seed in range(4):
            deal = Deal.new(PLAYERS, PLAYERS[seed % 4], random.Random(seed), Options())
            rng = random.Random(seed)
            while not deal.is_over:
                view = deal.view(deal.current_player or "")
                if view.can_declare:
                    full_draws, quick_draws = random.Random(compared), random.Random(compared)
                    assert quick.choose(view, quick_draws) == full.choose(view, full_draws)
                    stopped += quick_draws.getstate() != full_draws.getstate()
                    compared += 1
                deal.apply(full.choose(view, rng))
    assert compared > 100 and stopped > compared // 4
    # 19 against three single cards: it stops after the first draws, chance below 0.6
    view = make_view("9S 10H", "4H", turn=24, sizes=(2, 1, 1, 1))
    chance, _ = StrongBot().declaration_outlook(view, random.Random(0), stop_below=0.6)
    assert chance < 0.1


def test_strong_declares_early_against_big_hands() -> None:
    bot = StrongBot()
    rng = random.Random(0)
    # 9 points on 3 cards just after the first round, everyone else still on 5 cards.
    view = make_view("2S 3H 4D", "KH", turn=4)
    assert bot.choose(view, rng) == Declare()


def test_strong_keeps_sets_and_takes_what_helps() -> None:
    bot = StrongBot()
    rng = random.Random(0)
    # Dump the pair of kings at once rather than one king.
    assert bot.choose(make_view("KS KH 2C 3D 9S", "8H", turn=2), rng) == Discard(
        (c("KS"), c("KH")), None)
    # Take the ace from the floor (low, and it makes A-2-3), throwing the king.
    action = bot.choose(make_view("2C 3D 9S KH 8D", "AS QH", turn=2), rng)
    assert action == Discard((c("KH"),), c("AS"))


def test_strong_counts_the_cards_it_has_seen() -> None:
    view = make_view("2C 3D", "9H", dead="KS QS", taken=("", "AC", "", ""))
    unseen = StrongBot.unseen(view)
    assert len(unseen) == 52 - 2 - 1 - 2 - 1
    assert not set(unseen) & set(parse_cards("2C 3D 9H KS QS AC"))
    assert set(unseen) <= set(STANDARD_DECK)


def play_out(deal: Deal, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> int:
    """Play one deal to its declaration, each action checked legal; the turns played."""
    seats = {name: i for i, name in enumerate(deal.players)}
    turns = 0
    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        view = deal.view(player)
        action = bots[seats[player]].choose(view, rngs[seats[player]])
        assert action in view.legal_actions()
        deal.apply(action)
        turns += 1
        assert turns < 5000, "a deal that never ends"
    return turns


def test_strong_and_greedy_play_legal_whole_games() -> None:
    # The match layer refuses any illegal bot action (the engine raises IllegalAction).
    outcome = match.simulate_game(
        "least-score", ["strong", "greedy", "strong", "greedy", "random"], 5, 0, {"limit": 25})
    assert outcome.deals >= 1 and len(outcome.winners) == 1
    deal = Deal.new(PLAYERS, "Di", random.Random(9), Options())
    turns = play_out(deal, [BOTS["strong"]] * 4, [random.Random(i) for i in range(4)])
    assert deal.is_over and turns >= 4


def test_strong_beats_greedy() -> None:
    """A small sample (the benchmark measures it properly): strong wins most games."""
    wins = sum(0 in match.simulate_game("least-score", ["strong", "greedy", "greedy", "greedy"],
                                        0, index).winners
               for index in range(12))
    assert wins >= 6
