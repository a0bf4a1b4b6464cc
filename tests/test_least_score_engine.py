"""The Least Score engine: legal discards, one deal's state machine, records, views."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import i18n, match
from scorekeeper.cards import STANDARD_DECK, Card, parse_card, parse_cards
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.bots import BOTS
from scorekeeper.games.least_score.engine import (
    CHANCE,
    DECLARE,
    Deal,
    Declare,
    Discard,
    IllegalAction,
    State,
    View,
    decode_action,
    encode_action,
    legal_actions_for,
    legal_discard_sets,
)
from scorekeeper.games.least_score.rules import Options, Tie, TwoPairs
from scorekeeper.session import Session

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]

# Hands from a few ranks make pairs, quads and runs common.
CLUSTERED = [c for c in STANDARD_DECK if c.rank in (1, 2, 3, 4, 5, 11, 12, 13)]
hands = st.one_of(
    st.lists(st.sampled_from(STANDARD_DECK), min_size=1, max_size=5, unique=True),
    st.lists(st.sampled_from(CLUSTERED), min_size=1, max_size=5, unique=True),
    st.lists(
        st.sampled_from([c for c in STANDARD_DECK if c.suit == "H"]),
        min_size=5, max_size=5, unique=True,
    ),
)


def as_sets(discards: list[tuple[Card, ...]]) -> set[frozenset[Card]]:
    return {frozenset(d) for d in discards}


@settings(max_examples=examples(400), deadline=None)
@given(hand=hands, two_pairs=st.sampled_from(list(TwoPairs)))
def test_legal_discards_agree_with_rules(hand: list[Card], two_pairs: TwoPairs) -> None:
    fast = legal_discard_sets(hand, two_pairs)
    assert len(fast) == len(set(map(frozenset, fast))), "no set twice"
    assert as_sets(fast) == as_sets(rules.legal_discards(hand, two_pairs))
    for cards in fast:  # in hand order, like rules.legal_discards
        assert list(cards) == [c for c in hand if c in cards]
        assert rules.discard_problem(cards, two_pairs) is None


def test_legal_discards_examples() -> None:
    hand = parse_cards("KS KH 5D 5C QH")
    same = as_sets(legal_discard_sets(hand, TwoPairs.SAME_RANK))
    anyr = as_sets(legal_discard_sets(hand, TwoPairs.ANY_RANK))
    assert frozenset(parse_cards("KS KH 5D 5C")) in anyr - same
    assert frozenset(parse_cards("QH KS AD")) in as_sets(legal_discard_sets(parse_cards(
        "QH KS AD 2C 9S")))
    assert frozenset(parse_cards("KH AS 2D")) not in as_sets(legal_discard_sets(parse_cards(
        "KH AS 2D 7C 9S")))
    # 10-J-Q-K-A is a 5-card run; all four 7s are legal, three of them never.
    assert len(legal_discard_sets(parse_cards("10S JH QD KC AS"))[-1]) == 5
    sevens = as_sets(legal_discard_sets(parse_cards("7S 7H 7D 7C 2S")))
    assert frozenset(parse_cards("7S 7H 7D 7C")) in sevens
    assert not any(len(s) == 3 for s in sevens)


# ---------------------------------------------------------------------------
# Playing deals


class NeverDeclare:
    """Uniform over the discards only: deals run long and reshuffle."""

    def choose(self, view: View, rng: random.Random) -> Discard:
        actions = [a for a in view.legal_actions() if isinstance(a, Discard)]
        return rng.choice(actions)


def cards_in_view(obj: Any) -> list[Card]:
    """Every card anywhere in a view object."""
    if isinstance(obj, Card):
        return [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [c for f in dataclasses.fields(obj) for c in cards_in_view(getattr(obj, f.name))]
    if isinstance(obj, dict):
        return [c for k, v in obj.items() for c in cards_in_view(k) + cards_in_view(v)]
    if isinstance(obj, tuple | list | set | frozenset):
        return [c for item in obj for c in cards_in_view(item)]
    return []


def check_invariants(deal: Deal, face_up: set[Card]) -> None:
    every = deal.all_cards()
    assert len(every) == 52 and set(every) == set(STANDARD_DECK)
    for name in deal.players:
        assert 1 <= len(deal.hand(name)) <= 5
        view = deal.view(name)
        # Nothing the player may not see: own hand, or a card that was face up.
        hidden = set(cards_in_view(view)) - set(view.hand) - face_up
        assert not hidden, f"{name} sees {hidden}"
        assert view.deck_size == len(deal.deck)
        assert view.hand_sizes == tuple(len(deal.hand(p)) for p in deal.players)


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8),
       two_pairs=st.sampled_from(list(TwoPairs)))
def test_invariants_over_long_random_deals(seed: int, players: int, two_pairs: TwoPairs) -> None:
    rng = random.Random(seed)
    names = NAMES[:players]
    deal = Deal.new(names, names[-1], random.Random(seed), Options(two_pairs=two_pairs))
    bot = NeverDeclare()
    face_up = set(deal.floor)
    for _ in range(120):
        check_invariants(deal, face_up)
        player = deal.current_player
        assert player is not None
        first_round = deal.turn < players
        actions = deal.legal_actions()
        assert (Declare() in actions) is not first_round
        if first_round:
            with pytest.raises(IllegalAction, match="before every player has had a turn"):
                deal.apply(Declare())
        before_hand = deal.hand(player)
        before_floor = deal.floor
        before_dead = deal.dead_pile
        recorded = len(deal.to_record()[1])
        action = bot.choose(deal.view(player), rng)
        deal.apply(action)
        face_up.update(action.cards)
        new_actions = deal.to_record()[1][recorded:]
        assert len(deal.hand(player)) == len(before_hand) - len(action.cards) + 1
        assert deal.floor == action.cards
        if len(new_actions) == 2:  # a reshuffle, then the action
            assert action.take is None and "reshuffle" in new_actions[0]
            reshuffled = parse_cards(new_actions[0]["reshuffle"])
            assert sorted(reshuffled) == sorted(before_dead)
            assert not set(reshuffled) & (set(before_floor) | set(action.cards))
            # The old floor stayed out of the deck; what was left of it is now dead.
            assert set(deal.dead_pile) == set(before_floor)
    check_invariants(deal, face_up)
    deal.apply(Declare())
    assert deal.is_over and deal.current_player is None and deal.legal_actions() == []


def test_the_hidden_card_check_would_catch_a_leak() -> None:
    deal = Deal.new(NAMES[:3], "Ann", random.Random(2), Options())
    view = deal.view("Bob")
    face_up = set(deal.floor)
    assert set(cards_in_view(view)) - set(view.hand) - face_up == set()
    leaky = view._replace(taken_seen=((deal.hand("Ann")[0],), (), ()))
    assert set(cards_in_view(leaky)) - set(view.hand) - face_up == {deal.hand("Ann")[0]}


def test_reshuffles_happen_and_replay_exactly() -> None:
    rng = random.Random(7)
    deal = Deal.new(NAMES[:2], "Ann", random.Random(7), Options())
    bot = NeverDeclare()
    while deal.turn < 200:
        player = deal.current_player
        assert player is not None
        deal.apply(bot.choose(deal.view(player), rng))
    deal.apply(Declare())
    record, actions = deal.to_record()
    assert sum("reshuffle" in a for a in actions) >= 2
    # Through JSON and back, with no random generator: the recorded order is used.
    record, actions = json.loads(json.dumps([record, actions]))
    again = Deal.from_record(record, Options())
    again.replay(actions)
    assert again.to_record() == deal.to_record()
    for name in deal.players:
        assert again.hand(name) == deal.hand(name)
    assert (again.floor, again.deck, again.dead_pile) == (deal.floor, deal.deck, deal.dead_pile)
    assert again.result() == deal.result()


def test_replay_refuses_a_tampered_record() -> None:
    deal = Deal.new(NAMES[:3], "Ann", random.Random(3), Options())
    bots = BOTS["greedy"]
    rng = random.Random(0)
    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        deal.apply(bots.choose(deal.view(player), rng))
    record, actions = deal.to_record()
    bad = [dict(a) for a in actions]
    bad[0]["player"] = "Cy"
    with pytest.raises(IllegalAction, match="Bob's turn"):
        Deal.from_record(record, Options()).replay(bad)
    bad = [dict(a) for a in actions]
    bad[0]["take"] = "deck" if bad[0]["take"] != "deck" else record["deck"][0]
    if bad[0]["take"] != "deck":
        with pytest.raises(IllegalAction, match="not on the floor"):
            Deal.from_record(record, Options()).replay(bad)


def bot_game(bots: list[str], seed: int, options: dict[str, Any]) -> Session:
    """A whole bot game through the match layer, seats named P1, P2, ..."""
    seats = [match.Seat(f"P{i + 1}", level) for i, level in enumerate(bots)]
    return match.play_to_end(match.start_game("least-score", seats, seed, options=options))


def test_same_seed_same_game() -> None:
    bots = ["random", "greedy", "strong"]
    one = bot_game(bots, 11, {"limit": 25})
    two = bot_game(bots, 11, {"limit": 25})
    assert one.standings == two.standings
    assert [(r["deal"], r["actions"]) for r in [r_.to_json() for r_ in one.rounds]] == [
        (r["deal"], r["actions"]) for r in [r_.to_json() for r_ in two.rounds]]
    other = bot_game(bots, 12, {"limit": 25})
    assert [r.to_json()["deal"] for r in other.rounds] != \
        [r.to_json()["deal"] for r in one.rounds]
    simulated = match.simulate_game("least-score", bots, 11, 0, {"limit": 25})
    assert simulated == match.simulate_game("least-score", bots, 11, 0, {"limit": 25})
    assert simulated != match.simulate_game("least-score", bots, 11, 1, {"limit": 25})
    a = Deal.new(NAMES[:4], "Di", random.Random(5), Options()).to_record()
    b = Deal.new(NAMES[:4], "Di", random.Random(5), Options()).to_record()
    assert a == b


def test_match_records_rescore_to_the_totals() -> None:
    bots = ["greedy", "strong", "random", "greedy"]
    outcome = match.simulate_game("least-score", bots, 3, 0, {"limit": 50})
    # The same game, kept: simulate_game plays game ``index`` from hash_seed(seed, index).
    session = bot_game(bots, match.hash_seed(3, 0), {"limit": 50})
    standings = session.standings
    players = list(session.players)
    running = dict.fromkeys(players, 0)
    false = 0
    for record in [r.to_json() for r in standings.rounds]:
        assert record["deal"]["dealer"] == record["dealer"]
        deal = Deal.from_record(record["deal"], Options(limit=50))
        deal.replay(record["actions"])
        outcome_of_deal = deal.result()
        assert outcome_of_deal.scores == record["scores"]
        assert outcome_of_deal.false_declaration == record["false_declaration"]
        false += outcome_of_deal.false_declaration
        for name, score in outcome_of_deal.scores.items():
            running[name] += score
    assert running == standings.totals
    assert outcome.deals == len(standings.rounds) == len(session.rounds)
    assert outcome.stats == {"false_declaration_rate": (false, len(standings.rounds))}
    assert len(outcome.winners) == 1
    assert [players[i] for i in outcome.winners] == list(standings.winners) == [
        p for p in players if p not in standings.knocked_out]


def test_new_deals_left_of_the_dealer() -> None:
    rng = random.Random(42)
    shuffled = list(STANDARD_DECK)
    random.Random(42).shuffle(shuffled)
    deal = Deal.new(["Ann", "Bob", "Cy"], "Bob", rng, Options())
    assert deal.current_player == "Cy"
    assert deal.hand("Cy") == tuple(shuffled[0:15:3])
    assert deal.hand("Ann") == tuple(shuffled[1:15:3])
    assert deal.hand("Bob") == tuple(shuffled[2:15:3])
    assert deal.floor == (shuffled[15],)
    assert deal.deck == tuple(shuffled[16:])
    record, actions = deal.to_record()
    assert record["floor"] == [str(shuffled[15])] and actions == []
    assert list(record["hands"]) == ["Ann", "Bob", "Cy"]


# ---------------------------------------------------------------------------
# A scripted deal


def scripted_record(deck_cards: str = "") -> dict[str, Any]:
    hands = {
        "Ann": ["5H", "KD", "2C", "2S", "9H"],
        "Bob": ["KS", "3C", "4D", "8S", "AH"],
        "Cy": ["QS", "QH", "JD", "10C", "6D"],
    }
    floor = ["7C"]
    used = {parse_card(c) for cs in hands.values() for c in cs} | {parse_card("7C")}
    top = parse_cards(deck_cards)
    rest = [c for c in STANDARD_DECK if c not in used and c not in top]
    return {"dealer": "Ann", "hands": hands, "floor": floor,
            "deck": [str(c) for c in [*top, *rest]]}


def test_scripted_deal_exact_scores() -> None:
    deal = Deal.from_record(scripted_record("AS 3H 2D"), Options())
    assert deal.current_player == "Bob"
    c = parse_card
    deal.apply(Discard((c("KS"),), c("7C")))  # Bob: 3C 4D 8S AH 7C
    deal.apply(Discard((c("QS"), c("QH")), None))  # Cy: JD 10C 6D AS; KS dead
    deal.apply(Discard((c("KD"),), c("QS")))  # Ann: 5H 2C 2S 9H QS; QH dead
    state = deal.to_record()
    with pytest.raises(IllegalAction, match="2C is not in your hand"):
        deal.apply(Discard((c("2C"),), None))
    assert deal.to_record() == state, "a refused action changes nothing"
    deal.apply(Discard((c("8S"),), None))  # Bob: 3C 4D AH 7C 3H; KD dead
    deal.apply(Discard((c("JD"),), c("8S")))  # Cy: 10C 6D AS 8S
    deal.apply(Discard((c("2C"), c("2S")), c("JD")))  # Ann: 5H 9H QS JD
    assert deal.dead_pile == (c("KS"), c("QH"), c("KD"))
    assert deal.floor == (c("2C"), c("2S"))
    assert deal.deck[0] == c("2D")
    deal.apply(Declare())  # Bob declares with 18
    result = deal.result()
    assert result.declarer == "Bob"
    assert result.totals == {"Ann": 34, "Bob": 18, "Cy": 25}
    assert result.scores == {"Ann": 16, "Bob": 0, "Cy": 7}
    assert not result.false_declaration
    assert result.score == rules.score_deal(result.totals, "Bob")
    record, actions = deal.to_record()
    assert actions[0] == {"player": "Bob", "discard": ["KS"], "take": "7C"}
    assert actions[1] == {"player": "Cy", "discard": ["QS", "QH"], "take": "deck"}
    assert actions[-1] == {"player": "Bob", "declare": True}
    assert len(actions) == 7
    again = Deal.from_record(record, Options())
    again.replay(actions)
    assert again.result() == result


@pytest.mark.parametrize(
    ("tie", "scores"),
    [(Tie.DECLARER_WINS, {"Ann": 0, "Bob": 0}), (Tie.DECLARER_LOSES, {"Ann": 20, "Bob": 0})],
)
def test_tie_rule(tie: Tie, scores: dict[str, int]) -> None:
    hands = {"Ann": ["AS", "2S", "3S", "4D", "9C"], "Bob": ["AH", "2H", "3H", "4C", "9D"]}
    used = {parse_card(x) for h in hands.values() for x in h} | set(parse_cards("7C 7D"))
    record = {"dealer": "Bob", "hands": hands, "floor": ["7C"],
              "deck": ["7D", *(str(x) for x in STANDARD_DECK if x not in used)]}
    deal = Deal.from_record(record, Options(tie=tie))
    deal.replay([
        {"player": "Ann", "discard": ["9C"], "take": "7C"},
        {"player": "Bob", "discard": ["9D"], "take": "deck"},
        {"player": "Ann", "declare": True},
    ])
    result = deal.result()
    assert result.totals == {"Ann": 17, "Bob": 17}
    assert result.scores == scores
    assert result.false_declaration is (tie is Tie.DECLARER_LOSES)


def test_illegal_actions_say_why() -> None:
    c = parse_card
    deal = Deal.from_record(scripted_record(), Options())
    with pytest.raises(IllegalAction, match="before every player has had a turn"):
        deal.apply(Declare())
    with pytest.raises(IllegalAction, match="two cards must be a pair"):
        deal.apply(Discard((c("KS"), c("3C")), None))
    with pytest.raises(IllegalAction, match="is not on the floor"):
        deal.apply(Discard((c("KS"),), c("QS")))
    with pytest.raises(IllegalAction, match="you can't take back a card you just discarded"):
        deal.apply(Discard((c("KS"),), c("KS")))
    with pytest.raises(IllegalAction, match="three cards must be a run"):
        deal.apply(Discard(tuple(parse_cards("AH 3C 4D")), None))
    deal.apply(Discard((c("KS"),), None))
    with pytest.raises(IllegalAction, match="three cards must be a run"):
        deal.apply(Discard((c("QS"), c("QH"), c("JD")), None))


def test_a_deck_and_dead_pile_both_empty_leave_only_the_floor() -> None:
    # With 52 cards this cannot happen in a real deal (at most 8 x 5 cards in hands
    # plus a 5-card floor), but the rule is still applied from what is visible.
    hand = parse_cards("2H 9S")
    floor = parse_cards("3C 4C 5C")
    actions = legal_actions_for(hand, floor, False, True)
    takes = {a.take for a in actions if isinstance(a, Discard)}
    assert takes == set(floor)
    assert Declare() in actions
    assert len(actions) == 2 * 3 + 1


def test_three_of_a_kind_refused() -> None:
    hands = {
        "Ann": ["3H", "3S", "3D", "9C", "KH"],
        "Bob": ["2H", "2S", "4D", "4C", "5H"],
    }
    used = {parse_card(x) for h in hands.values() for x in h} | {parse_card("7C")}
    record = {"dealer": "Bob", "hands": hands, "floor": ["7C"],
              "deck": [str(x) for x in STANDARD_DECK if x not in used]}
    deal = Deal.from_record(record, Options())
    with pytest.raises(IllegalAction, match="three of a kind can't be discarded"):
        deal.apply(Discard(tuple(parse_cards("3H 3S 3D")), None))


def test_hand_of_one_card() -> None:
    hands = {
        "Ann": ["3H", "4S", "5D", "6C", "7H"],
        "Bob": ["10H", "10S", "10D", "10C", "KH"],
    }
    used = {parse_card(x) for h in hands.values() for x in h} | {parse_card("AC")}
    record = {"dealer": "Ann", "hands": hands, "floor": ["AC"],
              "deck": [str(x) for x in STANDARD_DECK if x not in used]}
    deal = Deal.from_record(record, Options())
    deal.apply(Discard(tuple(parse_cards("10H 10S 10D 10C")), parse_card("AC")))
    assert deal.hand("Bob") == tuple(parse_cards("KH AC"))
    deal.apply(Discard(tuple(parse_cards("3H 4S 5D 6C 7H")), None))
    assert len(deal.hand("Ann")) == 1
    deal.apply(Discard(tuple(parse_cards("KH")), parse_card("3H")))
    assert deal.hand("Ann") == (parse_card("AS"),)
    deal.apply(Discard((parse_card("AS"),), parse_card("KH")))
    assert deal.hand("Ann") == (parse_card("KH"),)
    view = deal.view("Bob")
    assert view.can_declare and view.hand_sizes == (1, 2)
    assert view.taken_seen == ((parse_card("KH"),), tuple(parse_cards("AC 3H")))
    assert view.floor == (parse_card("AS"),)


# ---------------------------------------------------------------------------
# The core: integer actions, explicit chance, clone


@settings(max_examples=examples(200), deadline=None)
@given(cards=st.lists(st.sampled_from(STANDARD_DECK), min_size=1, max_size=5, unique=True),
       take=st.one_of(st.none(), st.sampled_from(STANDARD_DECK)))
def test_integer_actions_keep_the_cards_and_their_order(cards: list[Card],
                                                        take: Card | None) -> None:
    action = Discard(tuple(cards), take)
    code = encode_action(action)
    assert decode_action(code) == action
    assert code != DECLARE
    if len(cards) > 1:  # the order the cards land on the floor is part of the action
        assert code != encode_action(Discard(tuple(reversed(cards)), take))
    assert decode_action(encode_action(Declare())) == Declare()


def drawn_until_reshuffle(seed: int) -> tuple[Deal, State, random.Random]:
    """A 2-player deal and its core, played alike by discards only until the next
    move takes from the empty deck."""
    rng = random.Random(seed)
    deal = Deal.new(NAMES[:2], "Ann", random.Random(seed), Options())
    state = State(NAMES[:2], "Ann", Options())
    state_rng = random.Random(seed)
    state.apply_chance(state.chance_outcome(state_rng))
    while deal.deck:
        legal = [a for a in deal.legal_actions() if isinstance(a, Discard)]
        action = rng.choice(legal)
        deal.apply(action)
        state.apply(encode_action(action))
    return deal, state, state_rng


def test_a_take_from_the_empty_deck_is_a_chance_step() -> None:
    deal, state, state_rng = drawn_until_reshuffle(4)
    seat = state.current_player()
    assert seat >= 0 and not state.deck() and state.info.dead
    state.apply(encode_action(Discard((state.hands[seat][0],), None)))
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.legal_actions() == []
    dead = list(state.info.dead)
    order = state.chance_outcome(state_rng)
    assert sorted(order) == sorted(dead)
    state.apply_chance(order)
    assert state.current_player() == (seat + 1) % 2
    deal.apply(Discard((deal.hand(deal.players[seat])[0],), None))
    reshuffle = deal.to_record()[1][-2]
    assert reshuffle == {"reshuffle": [str(c) for c in order]}
    assert [tuple(h) for h in state.hands] == [deal.hand(name) for name in deal.players]
    assert state.deck() == deal.deck and list(state.info.dead) == list(deal.dead_pile)


def test_clone_is_independent_and_plays_on_alike() -> None:
    state = drawn_until_reshuffle(7)[1]
    copy = state.clone()
    before = (state.deck(), [tuple(h) for h in state.hands], list(state.info.dead),
              state.info.floor, list(map(tuple, state.info.known)), state.info.turn)
    rng = random.Random(1)
    for _ in range(6):
        while copy.is_chance_node():
            copy.apply_chance(copy.chance_outcome(rng))
        copy.apply(rng.choice(copy.legal_actions()[:-1]))
    assert (state.deck(), [tuple(h) for h in state.hands], list(state.info.dead),
            state.info.floor, list(map(tuple, state.info.known)), state.info.turn) == before
    again = state.clone()
    for twin in (state, again):
        twin_rng = random.Random(2)
        for _ in range(4):
            while twin.is_chance_node():
                twin.apply_chance(twin.chance_outcome(twin_rng))
            twin.apply(twin.legal_actions()[0])
    assert again.hands == state.hands and again.deck() == state.deck()
    assert [again.observation(s).hand for s in range(2)] == [state.observation(s).hand
                                                            for s in range(2)]
    assert again.observation(0).hand is again.hands[0]


def test_a_new_state_waits_for_the_deal() -> None:
    state = State(NAMES[:3], "Cy", Options())
    assert state.current_player() == CHANCE and state.legal_actions() == []
    order = list(STANDARD_DECK)
    state.apply_chance(order)
    # One card each in turn, starting left of the dealer (Ann), then the floor.
    assert state.hands[0] == order[0:15:3] and state.hands[1] == order[1:15:3]
    assert state.info.floor == (order[15],) and state.deck() == tuple(order[16:])
    assert state.current_player() == 0 and DECLARE not in state.legal_actions()


def frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    return value


@pytest.mark.parametrize("live", [False, True], ids=["View", "SeatView"])
def test_a_state_from_a_view_and_the_true_hidden_cards_plays_on_as_the_deal(live: bool) -> None:
    """What a bot's search builds: the view it has plus sampled hidden cards. With the
    true hidden cards it is the deal itself, move for move."""
    deal, _state, _rng = drawn_until_reshuffle(11)
    deal.apply(Discard((deal.hand(deal.current_player or "")[0],), None))  # reshuffles
    for _ in range(3):
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Discard)))
    player = deal.current_player
    assert player is not None
    seat = deal.players.index(player)
    view = deal.state.observation(seat) if live else deal.view(player)
    hands = [deal.hand(name) for name in deal.players]
    state = State.from_view(view, hands, deal.deck)
    assert state.current_player() == seat
    snapshot = deal.view(player)
    for name in View._fields:
        assert frozen(getattr(state.observation(seat), name)) == frozen(
            getattr(snapshot, name)), name
    assert state.legal_actions() == deal.state.legal_actions()
    for pick in (0, -2, -1):  # a discard and take, another (the deck), then declare
        code = state.legal_actions()[pick]
        state.apply(code)
        deal.apply(decode_action(code))
    assert state.totals() == deal.result().totals and state.score() == deal.result().score


def test_refusals_speak_the_chosen_language() -> None:
    deal = Deal.new(NAMES[:3], "Ann", random.Random(3), Options())
    i18n.activate("da")  # the autouse fixture speaks English again afterwards
    with pytest.raises(IllegalAction, match=r"^du kan ikke erklære, før alle spillere"):
        deal.apply(Declare())
    i18n.activate("ar")
    card = deal.hand("Ann")[0]
    with pytest.raises(IllegalAction, match=f"^{card} ليست في يدك$"):
        deal.apply(Discard((card,), None))  # Ann is not the player to act: Bob is
    assert deal.turn == 0 and deal.current_player == "Bob"
