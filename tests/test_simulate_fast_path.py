"""The bots-only fast path of ``score simulate`` plays exactly the games ``score play``
plays: the same deals, the same decisions, the same scores, deal by deal.

``match.simulate_game`` plays on each game's core engine, ``State`` (a per-seat
observation stays current instead of a ``View`` built for every decision, with no
session re-scored after every deal); ``match.play_to_end`` plays the
same game through ``play_deal``, the ``Deal`` state machine and a session, as ``score play`` does.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import match
from scorekeeper.games.least_score import bots as ls_bots
from scorekeeper.games.least_score import engine as ls_engine
from scorekeeper.games.least_score.rules import Options as LeastScoreOptions
from scorekeeper.games.one_card import bots as oc_bots
from scorekeeper.games.one_card import engine as oc_engine
from scorekeeper.games.one_card import rules as oc_rules
from scorekeeper.games.one_card.rules import JokerRule
from scorekeeper.games.one_card.rules import Options as OneCardOptions
from scorekeeper.registry import get_game, get_virtual

CASES = [
    pytest.param("one-card", ["random"] * 4, {}, id="one-card-4-random"),
    pytest.param("one-card", ["greedy", "random", "greedy"], {"joker": "two-of-diamonds"},
                 id="one-card-3-2D"),
    pytest.param("one-card", ["strong", "greedy"], {"target": 10}, id="one-card-strong"),
    pytest.param("least-score", ["random"] * 4, {"limit": 25}, id="least-score-4-random"),
    pytest.param("least-score", ["greedy", "random", "strong"],
                 {"limit": 25, "tie": "declarer-loses", "two_pairs": "any-rank"},
                 id="least-score-house-rules"),
    pytest.param("least-score", ["strong", "greedy", "greedy", "random", "random"],
                 {"limit": 10, "end": "first-out"}, id="least-score-first-out"),
    pytest.param("least-score", ["expert", "strong", "greedy"], {"limit": 25},
                 id="least-score-expert"),
]


def play_path(game: str, bots: list[str], seed: int, index: int,
              options: dict[str, Any]) -> tuple[match.GameOutcome, list[dict[str, int]]]:
    """Game ``index`` of a simulation played as ``score play`` plays it, and each deal's
    scores."""
    seats = [match.Seat(f"P{i + 1}", level) for i, level in enumerate(bots)]
    session = match.play_to_end(match.start_game(game, seats, match.hash_seed(seed, index),
                                                 options=options))
    standings = session.standings
    names = list(session.players)
    outcome = match.GameOutcome(
        winners=tuple(names.index(name) for name in standings.winners),
        deals=len(standings.rounds),
        stats=get_virtual(game).stats(standings.rounds),
    )
    return outcome, [dict(summary.scores) for summary in standings.rounds]


def fast_path_trace(game: str, bots: list[str], seed: int, index: int,
                    options: dict[str, Any]) -> list[dict[str, int]]:
    names = [f"P{i + 1}" for i in range(len(bots))]
    game_seed = match.hash_seed(seed, index)
    first = match.draw_first_dealer(game_seed, names)
    trace: list[dict[str, int]] = []
    typed = get_game(game).parse_options(options)  # as match.simulate_game reads them
    get_virtual(game).play_bots(bots, names, first, typed, match.deal_rngs(game_seed),
                                match.MAX_ACTIONS_PER_DEAL, trace)
    return trace


@pytest.mark.parametrize(("game", "bots", "options"), CASES)
def test_bots_only_games_are_the_play_paths_games_deal_by_deal(
        game: str, bots: list[str], options: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    if "expert" in bots and game == "least-score":
        # Both paths take the bot from the same table: a lighter expert (fewer hand
        # readings and playouts, the same reading, search and playouts) shows the same
        # thing, the same decisions on both paths, in a tenth of the time.
        monkeypatch.setitem(ls_bots.BOTS, "expert", ls_bots.ExpertBot(
            particles=24, rollouts=6, rollout_samples=6))
    for index in range(1 if "strong" in bots and game == "one-card" else 3):
        outcome, scores = play_path(game, bots, 7, index, options)
        assert match.simulate_game(game, bots, 7, index, options) == outcome
        assert fast_path_trace(game, bots, 7, index, options) == scores


def test_deal_rngs_are_the_generators_play_deal_derives() -> None:
    rngs = match.deal_rngs(123)
    deal, bots = rngs(4, ["P2", "P3"])
    assert deal.getstate() == match.derive_rng(123, 4, "deal").getstate()
    assert bots == [deal, deal]  # derivation 2: the deal's generator, for every bot
    deal, bots = match.deal_rngs(123, 1)(4, ["P2", "P3"])
    assert deal.getstate() == match.derive_rng(123, 4, "deal").getstate()
    assert [r.getstate() for r in bots] == [
        match.derive_rng(123, 4, "bot", name).getstate() for name in ("P2", "P3")]


@pytest.mark.parametrize("derivation", [1, 2])
def test_a_session_plays_its_deals_with_the_generators_of_its_derivation(
        derivation: int) -> None:
    """A game saved with derivation 1 (before derivation 2 existed) resumes with the
    generators it was started with; a new game with derivation 2's."""
    seats = [match.Seat(f"P{i}", "random") for i in (1, 2, 3)]
    session = match.start_game("one-card", seats, 5)
    assert session.virtual is not None and session.virtual.derivation == 2
    session = dataclasses.replace(session, virtual=dataclasses.replace(
        session.virtual, derivation=derivation))
    session = match.play_deal(match.play_deal(session))
    names = list(session.players)
    for number, round_ in enumerate([r.to_json() for r in session.rounds], 1):
        deal_rng = match.derive_rng(5, number, "deal")
        bot_rngs = ({name: match.derive_rng(5, number, "bot", name) for name in names}
                    if derivation == 1 else dict.fromkeys(names, deal_rng))
        deal = oc_engine.Deal.new(names, round_["dealer"], deal_rng, OneCardOptions())
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            deal.apply(oc_bots.RandomBot().choose(deal.view(player), bot_rngs[player]))
        assert deal.to_record() == (round_["deal"], round_["actions"])



# --------------------------------------------------------------------------- One Card


def one_card_pair(seed: int, n: int, rule: JokerRule
                  ) -> tuple[oc_engine.Deal, oc_engine.State, random.Random]:
    """The same shuffled deal as a ``Deal`` and as the bare ``State`` simulate plays."""
    rng = random.Random(seed)
    players = ("A", "B", "C", "D")[:n]
    dealer = rng.randrange(n)
    deal = oc_engine.Deal.new(players, players[dealer], random.Random(seed), OneCardOptions(
        joker=rule))
    return deal, oc_engine.State.shuffled(n, dealer, random.Random(seed)), rng


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.sampled_from(list(JokerRule)))
def test_one_card_live_views_are_the_views_at_every_decision(seed: int, n: int,
                                                              rule: JokerRule) -> None:
    deal, live, rng = one_card_pair(seed, n, rule)
    while True:
        for seat, name in enumerate(deal.players):
            expected = oc_engine.SeatView.from_view(deal.view(name))
            view = live.observation(seat)
            assert view.seat == expected.seat and view.hand == expected.hand
            assert view.info.as_dict() == expected.info.as_dict()
            assert list(view.legal()) == list(expected.legal())
        if deal.is_over:
            break
        legal = deal.legal_actions()
        seat = deal.current_seat
        assert seat is not None
        assert [oc_engine.action_to_int(a, rule) for a in legal] == list(
            live.observation(seat).legal())
        action = legal[rng.randrange(len(legal))]
        deal.apply(action)
        live.apply(oc_engine.action_to_int(action, rule))
    result = deal.result()
    score = live.score()
    assert tuple(result.scores.values()) == score.scores
    assert result.bid_failed == score.bid_failed
    assert sum(live.info.taken) == oc_rules.TOTAL_POINTS


def test_one_card_expert_plays_the_same_games_on_both_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert reads the game's totals: both paths show the same ones."""
    monkeypatch.setitem(oc_bots.BOTS, "expert", oc_bots.ExpertBot(iterations=60, bid_samples=10))
    bots = ["expert", "greedy", "greedy"]
    outcome, scores = play_path("one-card", bots, 3, 0, {"target": 12})
    assert len(scores) >= 2
    assert match.simulate_game("one-card", bots, 3, 0, {"target": 12}) == outcome
    assert fast_path_trace("one-card", bots, 3, 0, {"target": 12}) == scores


def test_one_card_seat_view_holds_only_the_players_own_cards() -> None:
    """What a bot gets in a bots-only game: its own hand and the public ``DealInfo``;
    no other hand and no One Card is reachable from it."""
    _, live, rng = one_card_pair(5, 4, JokerRule.JOKER)
    assert oc_engine.SeatView.__slots__ == ("game", "hand", "info", "seat")
    hidden_ids = {id(hand) for hand in live.hands}
    for _ in range(9):
        legal = live.observation(live.info.cur).legal()
        live.apply(legal[rng.randrange(len(legal))])
    for view in live.observations():
        assert view.hand is live.hands[view.seat]
        others = hidden_ids - {id(view.hand)}
        for name in oc_engine.DealInfo.__slots__:
            value = getattr(view.info, name)
            assert id(value) not in others
        assert live.one not in view.info.played
        assert view.game is None  # a deal on its own; a game's shows only its totals


# --------------------------------------------------------------------------- Least Score

VIEW_FIELDS = ("seat", "player", "players", "dealer", "hand", "floor", "floor_from", "seen",
               "dead_pile", "reshuffled", "hand_sizes", "taken_seen", "turns_taken",
               "deck_size", "current_player", "turn", "can_declare", "options", "my_turn",
               "deck_available", "game")


def frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    return value


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6))
def test_least_score_live_views_are_the_views_at_every_decision(seed: int, n: int) -> None:
    """The core as ``simulate`` drives it (integer actions, explicit chance steps drawn
    from the deal's generator) against the typed ``Deal`` of ``score play``."""
    players = [f"P{i}" for i in range(n)]
    options = LeastScoreOptions()
    deal = ls_engine.Deal.new(players, players[seed % n], random.Random(seed), options)
    state = ls_engine.State(players, players[seed % n], options)
    state_rng = random.Random(seed)
    rng = random.Random(seed + 1)
    chance_steps = 0
    for _ in range(150):  # long enough for reshuffles of the dead pile
        while state.current_player() == ls_engine.CHANCE:
            state.apply_chance(state.chance_outcome(state_rng))
            chance_steps += 1
        for seat, name in enumerate(players):
            view = deal.view(name)
            seat_view = state.observation(seat)
            for field in VIEW_FIELDS:
                ours, theirs = getattr(seat_view, field), getattr(view, field)
                # ``==`` first: equal values are equal frozen; ``frozen`` (a walk over
                # every card) only tells a list from a tuple where ``==`` says unequal.
                assert ours == theirs or frozen(ours) == frozen(theirs), field
            assert seat_view.legal_discards() == view.legal_discards()
            assert seat_view.take_options() == view.take_options()
        legal = state.legal_actions()
        assert [ls_engine.decode_action(code) for code in legal] == deal.legal_actions()
        discards = [code for code in legal if code != ls_engine.DECLARE]
        code = discards[rng.randrange(len(discards))]
        deal.apply(ls_engine.decode_action(code))
        state.apply(code)
    while state.current_player() == ls_engine.CHANCE:  # the last move's reshuffle
        state.apply_chance(state.chance_outcome(state_rng))
        chance_steps += 1
    assert any("reshuffle" in record for record in deal.to_record()[1])
    assert chance_steps == 1 + sum("reshuffle" in record for record in deal.to_record()[1])
    deal.apply(ls_engine.Declare())
    state.apply(ls_engine.DECLARE)
    assert state.is_terminal() and state.current_player() == ls_engine.TERMINAL
    assert state.totals() == deal.result().totals
    assert state.score() == deal.result().score


def test_least_score_seat_view_holds_only_the_players_own_cards() -> None:
    players = ["A", "B", "C"]
    state = ls_engine.State(players, "A", LeastScoreOptions())
    state.apply_chance(state.chance_outcome(random.Random(3)))
    assert ls_engine.SeatView.__slots__ == ("hand", "info", "player", "seat")
    hidden = {id(hand) for hand in state.hands}
    for seat, view in enumerate(state.views):
        assert view is state.observation(seat)
        assert view.hand is state.hands[view.seat]
        for name in ls_engine.DealInfo.__slots__:
            assert id(getattr(view.info, name)) not in hidden - {id(view.hand)}
    assert "_deck" not in ls_engine.DealInfo.__slots__
