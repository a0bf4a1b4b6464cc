"""Yaniv's house rule ``jokers`` (issue 38.6): the jokers of the pack, each worth 0, so
``--declare-at 0`` is legal with them. The discards with jokers against the rules'
subset test, the engine's deck, actions and records with two alike jokers, the table's
checks of typed hands, old sessions without the key, and the real ``score`` (new,
add-round, show, rules, config, simulate)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, players_args
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import JOKER, STANDARD_DECK, Card, parse_cards
from scorekeeper.errors import IllegalAction
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.bots import BOTS
from scorekeeper.games.least_score.engine import (
    Deal,
    Declare,
    Discard,
    State,
    decode_action,
    encode_action,
    legal_discard_sets,
)
from scorekeeper.games.least_score.rules import TwoPairs
from scorekeeper.games.yaniv.rules import YanivOptions
from scorekeeper.games.yaniv.table import YanivTable
from scorekeeper.kit.entries import EntryError, RoundEntry

NAMES = ("Ann", "Bob", "Cy")
WITH_TWO = YanivOptions(jokers=2, declare_at=0)
TABLE = YanivTable()

LOW = [card for card in STANDARD_DECK if card.rank <= 4]
"""Low ranks, so that pairs and runs beside the jokers are common."""
joker_hands = st.lists(st.sampled_from([*LOW, *STANDARD_DECK[:13]]), min_size=0, max_size=5,
                       unique=True).flatmap(
    lambda cards: st.integers(min_value=max(0, 1 - len(cards)),
                              max_value=min(2, 5 - len(cards))).flatmap(
        lambda jokers: st.permutations([*cards, *(JOKER,) * jokers])))


def multiset(discards: list[tuple[Card, ...]]) -> Counter[tuple[str, ...]]:
    return Counter(tuple(sorted(map(str, cards))) for cards in discards)


@settings(max_examples=300, deadline=None)
@given(hand=joker_hands, two_pairs=st.sampled_from(list(TwoPairs)))
def test_discards_with_jokers_agree_with_the_rules_subset_test(
        hand: list[Card], two_pairs: TwoPairs) -> None:
    """The engine's generated sets are the rules' (every subset tested), each once: the
    two jokers are alike, so one single joker and one pair of them."""
    fast = legal_discard_sets(hand, two_pairs)
    slow = rules.legal_discards(hand, two_pairs, jokers=True)
    assert multiset(fast) == multiset(slow)
    assert max(multiset(fast).values(), default=1) == 1
    for cards in fast:
        assert rules.discard_problem(cards, two_pairs, jokers=True) is None
        if JOKER in cards and len(cards) > 1:  # never wild: jokers, or with a pair
            assert len(cards) in (2, 4) and all(
                n == 2 for n in Counter(card.rank for card in cards).values())
        assert decode_action(encode_action(Discard(cards, None))) == Discard(cards, None)


def test_a_joker_is_never_wild_and_least_score_has_none() -> None:
    assert rules.discard_problem(parse_cards("JK AH 2H"), jokers=True) == (
        "a joker is not wild: it goes alone, with the other joker or with a pair")
    assert rules.discard_problem(parse_cards("JK JK"), jokers=True) is None
    assert rules.discard_problem(parse_cards("JK JK 5H 5S"), TwoPairs.ANY_RANK,
                                 jokers=True) is None
    assert rules.discard_problem(parse_cards("JK JK")) == "the same card can't be discarded twice"
    assert rules.discard_problem(parse_cards("JK")) == "Least Score is played without the joker"
    assert len(rules.deck(WITH_TWO)) == 54 and len(rules.deck(YanivOptions())) == 52


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), jokers=st.integers(1, 2),
       players=st.integers(2, 5))
def test_a_deal_with_jokers_keeps_its_cards_and_each_hand_is_worth_its_cards(
        seed: int, jokers: int, players: int) -> None:
    """Random legal integer actions to the end of a deal (or 400 of them): the deck,
    hands, floor and dead pile always hold the 52 cards and the jokers; the totals are
    the hands' values, a joker 0; the record replays to the same end."""
    options = YanivOptions(jokers=jokers, declare_at=7)
    rng = random.Random(seed)
    names = [*NAMES, "Di", "Ed"][:players]
    deal = Deal.new(names, names[0], rng, options)
    for _step in range(400):
        if deal.is_over:
            break
        assert Counter(deal.all_cards()) == Counter(rules.deck(options))
        state = deal.state
        if state.is_chance_node():
            break
        deal.apply(decode_action(rng.choice(state.legal_actions())))
    record, actions = deal.to_record()
    again = Deal.from_record(record, options, random.Random(seed))
    again.replay(actions)
    assert again.is_over == deal.is_over
    if deal.is_over:
        result = deal.result()
        for name, hand in result.hands.items():
            assert result.totals[name] == sum(rules.card_value(card) for card in hand)
        assert again.result() == result


def test_two_alike_jokers_in_a_deal_and_its_record() -> None:
    """Ann holds both jokers: a pair of them goes as one discard; a record of a deal
    with jokers reads back only under the rule (the deck must hold them)."""
    rest = [card for card in STANDARD_DECK if card not in parse_cards("AH 2C 9D")]
    ann = [JOKER, *parse_cards("AH"), JOKER, *parse_cards("2C 9D")]
    deal = Deal(("Ann", "Bob"), "Bob", [ann, rest[:5]], rest[5], rest[6:], WITH_TWO, None)
    deal.apply(Discard((JOKER, JOKER), None))
    assert deal.view("Ann").hand.count(JOKER) == 0 and deal.view("Ann").floor == (JOKER, JOKER)
    with pytest.raises(IllegalAction, match="JK is not in your hand"):
        deal.apply(Discard((JOKER,), None))  # Bob has none
    record, _actions = deal.to_record()
    with pytest.raises(ValueError, match="52 cards once each"):
        Deal.from_record(record, YanivOptions())
    assert Deal.from_record(record, WITH_TWO).view("Ann").hand.count(JOKER) == 2


def test_a_hand_of_jokers_may_call_at_0_and_nothing_else_may() -> None:
    state = State(list(NAMES[:2]), "Bob", WITH_TWO)
    state.apply_chance(state.chance_outcome(random.Random(4)))
    assert not rules.may_declare(1, WITH_TWO) and rules.may_declare(0, WITH_TWO)
    assert YanivOptions(jokers=1, declare_at=0).problem() is None
    assert "Yaniv may be called at 1 to 50" in str(YanivOptions(declare_at=0).problem())


@pytest.mark.parametrize("jokers", [1, 2])
def test_bots_only_deals_at_0_with_jokers_end(jokers: int) -> None:
    """Only a hand of jokers may call at 0: the bots, who keep their jokers, pass them
    round once the deal stalls, so every deal ends, with a hand of jokers."""
    options = YanivOptions(jokers=jokers, declare_at=0)
    for seed in range(6):
        rng = random.Random(seed)
        state = State(list(NAMES), "Ann", options)
        state.apply_chance(state.chance_outcome(rng))
        bots = [BOTS[level].choose for level in ("greedy", "strong", "greedy")]
        for _step in range(3000):
            if state.is_terminal():
                break
            action = bots[state.info.cur](state.views[state.info.cur], rng)
            if isinstance(action, Declare):
                state.declare()
            elif state.move(action.cards, action.take):
                state.apply_chance(state.chance_outcome(rng))
        assert state.is_terminal(), seed
        assert set(state.hands[state.declarer]) == {JOKER}


# ---------------------------------------------------------------------------
# The table's checks


def check(options: YanivOptions, **values: str) -> None:
    entry = RoundEntry(tuple(values.items()), declarer="Ann")
    standings = TABLE.standings(NAMES, options.as_dict(), "Cy", [])
    TABLE.check_given(NAMES, options, standings, entry)


@settings(max_examples=60, deadline=None)
@given(hand=joker_hands.filter(bool), jokers=st.integers(0, 2))
def test_a_typed_hand_with_jokers_is_taken_exactly_when_the_deck_has_them(
        hand: list[Card], jokers: int) -> None:
    """A hand typed as cards: worth its cards, a joker 0; refused in one message when it
    holds more jokers than the deck (none without the rule)."""
    options = YanivOptions(jokers=jokers, declare_at=50)
    typed = ",".join(map(str, hand))
    held = hand.count(JOKER)
    if held > jokers:
        with pytest.raises(EntryError) as refused:
            check(options, Ann=typed, Bob="9", Cy="10")
        assert "\n" not in str(refused.value) and (
            "joker" in str(refused.value) or "JK" in str(refused.value))
    else:
        check(options, Ann=typed, Bob="9", Cy="10")
        round_ = TABLE.make_round(NAMES, options,
                                  TABLE.standings(NAMES, options.as_dict(), "Cy", []),
                                  RoundEntry((("Ann", typed), ("Bob", "9"), ("Cy", "10")),
                                             declarer="Ann"))
        assert round_.totals["Ann"] == sum(rules.card_value(card) for card in hand)


def test_a_total_of_0_is_a_hand_only_with_jokers() -> None:
    check(WITH_TWO, Ann="0", Bob="JK", Cy="3")
    with pytest.raises(EntryError, match="so 1 to 50"):
        check(YanivOptions(declare_at=50), Ann="2", Bob="0", Cy="3")
    with pytest.raises(EntryError, match="may declare only with 0 or less"):
        check(WITH_TWO, Ann="AH", Bob="JK", Cy="3")


def test_an_old_session_without_the_key_reads_as_no_jokers() -> None:
    stored = {"limit": 200, "tie": "declarer-loses", "end": "last-standing",
              "two_pairs": "same-rank", "declare_at": 7, "penalty": 30, "halving": 50}
    assert TABLE.parse_options(stored).jokers == 0
    assert TABLE.parse_options({**stored, "jokers": 2}).jokers == 2
    with pytest.raises(EntryError, match="0 to 2"):
        TABLE.check_options({"jokers": 3})


# ---------------------------------------------------------------------------
# Through `score`


def test_a_session_with_jokers_at_the_table(ok: CLI, refuse: Refuse,
                                            summary: Callable[..., dict[str, Any]]) -> None:
    refuse("new", "yaniv", *players_args(*NAMES), "--jokers", "3", says="0 to 2")
    refuse("new", "yaniv", *players_args(*NAMES), "--declare-at", "0",
           says="with --jokers, at 0")
    started = ok("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann", "--jokers", "2",
                 "--declare-at", "0")
    assert "two jokers" in started.stdout
    assert summary()["options"]["jokers"] == 2
    refuse("add-round", "--declarer", "Bob", "Ann=JK", "Bob=JK", "Cy=JK",
           says="the hands hold 3 jokers: the deck has 2 jokers")
    refuse("add-round", "--declarer", "Bob", "Ann=4", "Bob=1", "Cy=9",
           says="only with 0 or less")
    ok("add-round", "--declarer", "Bob", "Ann=JK,4S", "Bob=JK", "Cy=9")
    assert summary()["rounds"][0]["hands"] == {"Ann": ["JK", "4S"], "Bob": ["JK"]}
    assert summary()["rounds"][0]["scores"] == {"Ann": 4, "Bob": 0, "Cy": 9}
    ok("add-round", "--declarer", "Cy", "Ann=JK,JK", "Bob=5", "Cy=0")
    rules_text = ok("rules", "yaniv").stdout
    assert "- `--jokers 2`: played with the two jokers, each worth 0" in rules_text
    assert "two jokers" in ok("show").stdout


def test_jokers_in_a_session_without_them_are_refused(ok: CLI, refuse: Refuse) -> None:
    ok("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann")
    refuse("add-round", "--declarer", "Bob", "Ann=9", "Bob=JK", "Cy=9",
           says="played without the joker")
    refuse("add-round", "--declarer", "Bob", "Ann=9", "Bob=0", "Cy=9", says="so 1 to 50")


def test_config_sets_the_jokers_for_new_sessions(ok: CLI, refuse: Refuse,
                                                 summary: Callable[..., dict[str, Any]],
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_CONFIG", str(tmp_path / "config.toml"))
    ok("config", "set", "yaniv.jokers", "2")
    ok("new", "yaniv", *players_args(*NAMES), "--declare-at", "0")
    assert summary()["options"]["jokers"] == 2


@pytest.mark.e2e
def test_simulate_yaniv_with_two_jokers_calls_at_0(score_run: Callable[..., Result]) -> None:
    """The issue's traceback: `score simulate yaniv --jokers 2 --declare-at 0` ends its
    games (a call only with a hand of jokers)."""
    result = score_run("simulate", "yaniv", "--jokers", "2", "--declare-at", "0",
                       "--bot", "greedy", "--bot", "strong", "--games", "3", "--json")
    assert result.exit_code == 0, result
    assert "Traceback" not in result.stderr
    simulated = json.loads(result.stdout)
    assert sum(seat["wins"] for seat in simulated["seats"]) >= 3


def test_the_phone_page_offers_the_pair_of_jokers_and_reads_it_back() -> None:
    """`score play --online`: both jokers are cards of the pick, the pair of them a
    legal set, and a posted pair of jokers is that discard."""
    from scorekeeper.games.least_score import online

    rest = [card for card in STANDARD_DECK if card not in parse_cards("AH 2C 9D")]
    ann = [JOKER, *parse_cards("AH"), JOKER, *parse_cards("2C 9D")]
    deal = Deal(("Ann", "Bob"), "Bob", [ann, rest[:5]], rest[5], rest[6:], WITH_TWO, None)
    view = deal.view("Ann")
    moves = online.moves(view)
    assert moves["pick"]["cards"].count("JK") == 2 and ["JK", "JK"] in moves["pick"]["sets"]
    deck_button = len(moves["buttons"]) - 1
    action = online.action_of({"button": deck_button, "picked": ["JK", "JK"]}, view)
    assert action == Discard((JOKER, JOKER), None)
    problems = online.discard_problems(view)  # a joker is wild in no run, with no card
    assert problems["AH JK"] == "two cards must be a pair of the same rank"
    assert problems["2C AH JK"].startswith("a joker is not wild")
