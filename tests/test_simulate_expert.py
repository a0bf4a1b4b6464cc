"""The ``expert`` bot level of each game: legal play from a player's view only, its
hidden-hand sampling, and the level offered by ``score play`` and ``score simulate``."""

from __future__ import annotations

import random

import pytest
from conftest import CLI

from scorekeeper.cards import parse_card, parse_cards
from scorekeeper.games.least_score import bots as ls_bots
from scorekeeper.games.least_score.engine import Deal as LeastScoreDeal
from scorekeeper.games.least_score.engine import Declare
from scorekeeper.games.least_score.rules import Options as LeastScoreOptions
from scorekeeper.games.one_card import bots as oc_bots
from scorekeeper.games.one_card import rules as oc_rules
from scorekeeper.games.one_card.engine import Bid, Deal, Play, SeatView
from scorekeeper.games.one_card.rules import Options

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
FAST_EXPERT = oc_bots.ExpertBot(iterations=150, bid_samples=12)


def test_expert_is_a_level_of_both_games(cli: CLI) -> None:
    assert isinstance(ls_bots.get_bot("expert"), ls_bots.ExpertBot)
    assert isinstance(oc_bots.get_bot("expert"), oc_bots.ExpertBot)
    for game in ("least-score", "one-card"):
        result = cli("simulate", game, "--bot", "expert", "--bot", "greedy", "--games", 1,
                     "--json", *(["--target", 10] if game == "one-card" else ["--limit", 10]))
        assert result.exit_code == 0, result


@pytest.mark.slow  # a long run of the bot's play; the default suite stays under 2 minutes
def test_least_score_expert_declares_on_its_reading_of_the_table() -> None:
    """Where the expert and strong part ways over declaring, the expert's reading of the
    others' moves (not strong's estimate) says what it does."""
    # its moves are not compared here: no play-outs (they would take a minute)
    expert, strong = ls_bots.ExpertBot(particles=48, rollouts=0), ls_bots.StrongBot()
    players = ["A", "B", "C", "D"]
    different = 0
    for seed in range(40):
        deal = LeastScoreDeal.new(players, "D", random.Random(seed), LeastScoreOptions())
        rng = random.Random(seed)
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            action = expert.choose(view, random.Random(1))
            assert action in deal.legal_actions()
            if view.can_declare and not isinstance(strong.choose(view, random.Random(1)),
                                                   type(action)):
                moves = expert.history.update(view)  # the same view again: the same story
                assert moves is not None
                # with the draws choose made
                chance, edge = expert.outlook(view, moves, random.Random(1))
                declared = isinstance(action, Declare)
                assert declared == expert.declares(view, chance, edge)
                different += 1
            deal.apply(strong.choose(view, rng))
    assert different


def one_card_bid_deal() -> Deal:
    hands = {
        "Ann": "9S 10S JS QS KS AS",
        "Bob": "JH 9D 10D JD QD KD",
        "Cy": "KH AH 9H AD 9C 10C",
        "Dee": "10H QH JC QC KC AC",
    }
    deal = Deal(PLAYERS, "Dee", [parse_cards(hands[p]) for p in PLAYERS], parse_card("JK"),
                Options())
    deal.apply(Bid(8))  # Ann bids 8 with six spades
    for _ in range(3):
        deal.apply(Bid(None))
    deal.apply(Play(parse_card("AS")))  # spades are trump
    return deal


def test_bidding_sampler_deals_hands_that_agree_with_the_bids() -> None:
    deal = one_card_bid_deal()
    view = SeatView.from_view(deal.view("Bob"))
    unseen = oc_bots.unseen_cards(view)
    forbidden = oc_bots.forbidden_cards(view)
    agree = plain = 0
    bidding = oc_bots.BiddingSampler(view, unseen, forbidden, random.Random(2))
    uniform = oc_bots.HandSampler(view, unseen, forbidden, random.Random(2))
    ace_of_spades = view.info.played[0]
    for _ in range(100):
        hands, one = bidding.draw()
        assert sorted([c for s, h in enumerate(hands) if s != view.seat for c in h] + [one]) \
            == sorted(unseen)
        assert [len(h) for h in hands] == view.info.sizes
        assert bidding.agrees(hands)
        hands[0].clear()  # a copy: the search plays its cards out of it
        agree += oc_bots.estimate_bid_points([*bidding.draw()[0][0], ace_of_spades], 4)[0] >= 8
        hands, _ = uniform.draw()
        plain += oc_bots.estimate_bid_points([*hands[0], ace_of_spades], 4)[0] >= 8
    assert agree == 100 and plain < 90, plain  # Ann's hand as dealt counts to her bid


def test_one_card_expert_plays_legal_moves_from_its_view_only() -> None:
    for seed in range(2):
        rng = random.Random(seed)
        deal = Deal.new(PLAYERS, PLAYERS[seed], rng, Options())
        bots = [FAST_EXPERT, oc_bots.StrongBot(iterations=100, bid_samples=8)] * 2
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(PLAYERS[seat])
            action = bots[seat].choose(view, random.Random(seed * 10 + seat))
            assert action in view.legal_actions()
            deal.apply(action)
        assert sum(deal.result().points.values()) == oc_rules.TOTAL_POINTS
    # Two deals that differ only in cards Bob can't see: the same view, the same choice.
    first = one_card_bid_deal()
    other = Deal(PLAYERS, "Dee", [parse_cards(h) for h in (
        "9S 10S JS QS KS AS", "JH 9D 10D JD QD KD", "10H QH AH AD 9C 10C",
        "KH 9H JC QC KC AC")], parse_card("JK"), Options())
    other.apply(Bid(8))
    for _ in range(3):
        other.apply(Bid(None))
    other.apply(Play(parse_card("AS")))
    assert first.view("Bob") == other.view("Bob")
    assert FAST_EXPERT.choose(first.view("Bob"), random.Random(5)) == FAST_EXPERT.choose(
        other.view("Bob"), random.Random(5))
