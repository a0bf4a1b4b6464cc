"""Tests for the One Card bots, and whole bot games through the match layer (scorekeeper.match)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper import match
from scorekeeper.cards import Suit, parse_card, parse_cards
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.bots import (
    BOTS,
    Bot,
    GreedyBot,
    RandomBot,
    StrongBot,
    forbidden_cards,
    get_bot,
    hand_indices,
    sample_hands,
    unseen_cards,
)
from scorekeeper.games.one_card.engine import (
    FOLLOW,
    Bid,
    Deal,
    Play,
    SeatView,
)
from scorekeeper.games.one_card.rules import Options
from scorekeeper.session import Session

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
HANDS = {
    "Ann": "9S 10S JS QS KS AS",
    "Bob": "JH 9D 10D JD QD KD",
    "Cy": "KH AH 9H AD 9C 10C",
    "Dee": "10H QH JC QC KC AC",
}
FAST_STRONG = StrongBot(iterations=150, bid_samples=12)


def make_deal(hands: dict[str, str] = HANDS, one: str = "JK", dealer: str = "Dee") -> Deal:
    return Deal(PLAYERS, dealer, [parse_cards(hands[p]) for p in PLAYERS], parse_card(one),
                Options())


def no_bid_deal_after(lead: str) -> Deal:
    deal = make_deal()
    for _ in range(4):
        deal.apply(Bid(None))
    assert deal.current_player == "Bob"
    deal.apply(Play(parse_card(lead)))
    return deal


# --------------------------------------------------------------------------- greedy


def test_greedy_wins_as_cheaply_as_it_can() -> None:
    deal = no_bid_deal_after("JH")
    choice = GreedyBot().choose(deal.view("Cy"), random.Random(0))
    assert choice == Play(parse_card("KH"))  # not the ace, not the 9


def test_greedy_throws_its_lowest_when_it_cannot_win() -> None:
    deal = no_bid_deal_after("JH")
    deal.apply(Play(parse_card("AH")))
    assert GreedyBot().choose(deal.view("Dee"), random.Random(0)) == Play(parse_card("10H"))
    deal.apply(Play(parse_card("10H")))
    assert GreedyBot().choose(deal.view("Ann"), random.Random(0)) == Play(parse_card("9S"))


def test_greedy_leads_its_highest() -> None:
    deal = no_bid_deal_after("JH")
    for text in ("KH", "10H", "9S"):
        deal.apply(Play(parse_card(text)))
    assert deal.current_player == "Cy"
    choice = GreedyBot().choose(deal.view("Cy"), random.Random(0))
    assert isinstance(choice, Play) and choice.card.rank == parse_card("AH").rank


def strong_and_weak_deal(first: str) -> Deal:
    hands = {
        "Ann": first,
        "Bob": "9S 10S JS QS KS AS",
        "Cy": "9D 10D JD QD KD AD",
        "Dee": "9C 10C JC QC KC AC",
    }
    used = set(parse_cards(" ".join(hands.values())))
    rest = [c for c in rules.deck(rules.JokerRule.JOKER) if c not in used]
    return make_deal(hands, one=str(rest[0]))


def test_greedy_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = strong_and_weak_deal("JK AH KH QH JH 10H")
    assert GreedyBot().choose(strong.view("Ann"), random.Random(0)) == Bid(6)
    weak_hands = {
        "Ann": "9S 10S 9D 10D 9C 10C",
        "Bob": "JS QS KS AS 9H 10H",
        "Cy": "JD QD KD AD JH QH",
        "Dee": "JC QC KC AC KH AH",
    }
    weak = make_deal(weak_hands)
    assert GreedyBot().choose(weak.view("Ann"), random.Random(0)) == Bid(None)


def test_greedy_bidder_makes_trump_of_its_best_suit() -> None:
    deal = strong_and_weak_deal("JK AH KH QH JH 10H")
    deal.apply(Bid(6))
    for _ in range(3):
        deal.apply(Bid(None))
    choice = GreedyBot().choose(deal.view("Ann"), random.Random(0))
    assert choice == Play(parse_card("AH"))


# --------------------------------------------------------------------------- random


def test_random_bot_picks_every_legal_action() -> None:
    deal = make_deal()
    view = deal.view("Ann")
    rng = random.Random(1)
    seen = {RandomBot().choose(view, rng) for _ in range(400)}
    assert seen == set(view.legal)


def test_bots_refuse_to_act_out_of_turn() -> None:
    deal = make_deal()
    for bot in BOTS.values():
        with pytest.raises(ValueError, match="not Bob's turn"):
            bot.choose(deal.view("Bob"), random.Random(0))
    with pytest.raises(ValueError, match="choose one of random, greedy, strong"):
        get_bot("perfect")


# --------------------------------------------------------------------------- strong


def test_strong_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = strong_and_weak_deal("JK AH KH QH JH 10H")
    assert FAST_STRONG.choose(strong.view("Ann"), random.Random(0)) == Bid(6)
    weak_hands = {
        "Ann": "9S 10S 9D 10D 9C 10C",
        "Bob": "JS QS KS AS 9H 10H",
        "Cy": "JD QD KD AD JH QH",
        "Dee": "JC QC KC AC KH AH",
    }
    weak = make_deal(weak_hands)
    assert FAST_STRONG.choose(weak.view("Ann"), random.Random(0)) == Bid(None)


def test_strong_takes_points_it_can_take() -> None:
    deal = no_bid_deal_after("JH")
    choice = FAST_STRONG.choose(deal.view("Cy"), random.Random(3))
    assert choice in (Play(parse_card("KH")), Play(parse_card("AH")))


def test_strong_bidder_opens_with_its_trump_suit() -> None:
    deal = strong_and_weak_deal("JK AH KH QH JH 10H")
    deal.apply(Bid(6))
    for _ in range(3):
        deal.apply(Bid(None))
    choice = FAST_STRONG.choose(deal.view("Ann"), random.Random(0))
    assert isinstance(choice, Play)
    assert choice.card.suit is Suit.HEARTS or choice.suit is Suit.HEARTS


def test_strong_decides_from_its_view_only() -> None:
    """Two deals that differ only in the hidden cards give the same view and choice."""
    other = dict(HANDS, Ann="9S 10S JS QS KS JK")
    first = no_bid_deal_after("JH")
    second = make_deal(other, one="AS")
    for _ in range(4):
        second.apply(Bid(None))
    second.apply(Play(parse_card("JH")))
    assert first.view("Cy") == second.view("Cy")
    a = FAST_STRONG.choose(first.view("Cy"), random.Random(9))
    b = FAST_STRONG.choose(second.view("Cy"), random.Random(9))
    assert a == b


def play_out(deal: Deal, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> None:
    """Play one deal to its end, ``bots`` and ``rngs`` by seat, each action checked legal."""
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        view = deal.view(deal.players[seat])
        action = bots[seat].choose(view, rngs[seat])
        assert action in view.legal_actions()
        deal.apply(action)


def test_strong_plays_only_legal_moves_in_whole_deals() -> None:
    bots: list[Bot] = [FAST_STRONG, GreedyBot(), FAST_STRONG, RandomBot()]
    for seed in range(3):
        rng = random.Random(seed)
        deal = Deal.new(PLAYERS, PLAYERS[seed], rng, Options())
        play_out(deal, bots, [random.Random(seed * 10 + i) for i in range(4)])
        assert sum(deal.result().points.values()) == rules.TOTAL_POINTS


def test_samples_respect_voids_and_hand_sizes() -> None:
    deal = no_bid_deal_after("JH")
    for text in ("KH", "10H", "9S"):  # Ann shows she has no heart
        deal.apply(Play(parse_card(text)))
    view = deal.view("Cy")
    assert view.voids[0] == frozenset({Suit.HEARTS})
    seat_view = SeatView.from_view(view)
    assert seat_view.hand == hand_indices(view)
    unseen = unseen_cards(seat_view)
    forbidden = forbidden_cards(seat_view)
    rng = random.Random(4)
    hearts = FOLLOW[4][1]
    for _ in range(200):
        hands, one = sample_hands(seat_view, unseen, forbidden, rng)
        assert [len(h) for h in hands] == list(view.hand_sizes)
        assert not any(hearts[c] for c in hands[0])
        assert sorted([c for s, h in enumerate(hands) if s != view.seat for c in h] + [one]) == (
            sorted(unseen))


# --------------------------------------------------------------------------- whole games


def simulated(bots: list[str], seed: int, options: dict[str, Any] | None = None,
              ) -> tuple[match.GameOutcome, Session]:
    """Game 0 of a ``score simulate`` run, and the same game kept as a session."""
    outcome = match.simulate_game("one-card", bots, seed, 0, options)
    seats = [match.Seat(f"P{i + 1}", level) for i, level in enumerate(bots)]
    session = match.play_to_end(
        match.start_game("one-card", seats, match.hash_seed(seed, 0), options=options))
    return outcome, session


def test_match_is_deterministic_and_ends_with_a_single_leader_at_30() -> None:
    a, session_a = simulated(["greedy", "random", "greedy", "random"], seed=11)
    b, session_b = simulated(["greedy", "random", "greedy", "random"], seed=11)
    assert a == b and session_a.rounds == session_b.rounds
    assert session_a.standings == session_b.standings
    standings = session_a.standings
    players = list(session_a.players)
    assert len(a.winners) == 1
    assert [players[i] for i in a.winners] == standings.winners
    totals = [standings.totals[name] for name in players]
    assert totals[a.winners[0]] >= rules.TARGET
    assert sorted(totals)[-2] < totals[a.winners[0]]
    assert a.deals == len(standings.rounds)
    rounds = [r.to_json() for r in standings.rounds]
    bids = sum(1 for r in rounds if r["bidder"] is not None)
    made = sum(1 for r in rounds if r["bidder"] and not r["bid_failed"])
    assert a.stats == {"bid_success_rate": (made, bids)}


def test_match_records_replay_to_the_same_scores() -> None:
    _, session = simulated(["random", "greedy", "random"], seed=5)
    standings = session.standings
    totals = dict.fromkeys(session.players, 0)
    dealers = []
    for record in [r.to_json() for r in standings.rounds]:
        deal = Deal.from_record(record["deal"], Options())
        deal.replay(record["actions"])
        assert deal.round_record()["points"] == record["points"]
        assert deal.result().scores == record["scores"]
        for name, score in deal.result().scores.items():
            totals[name] += score
        assert record["deal"]["dealer"] == record["dealer"]
        dealers.append(record["dealer"])
    assert totals == standings.totals
    seats = [session.players.index(d) for d in dealers]
    assert all((b - a) % 3 == 1 for a, b in itertools.pairwise(seats))


def test_two_player_match_with_two_of_diamonds() -> None:
    outcome, session = simulated(["greedy", "random"], seed=3,
                                 options={"joker": "two-of-diamonds"})
    assert outcome.winners in ((0,), (1,))
    assert session.stored_options["joker"] == "two-of-diamonds"
    assert all("JK" not in str(r["deal"]) for r in [r_.to_json() for r_ in session.rounds])
