"""``score review``: the best bot's review of a saved virtual game (issue 32).

Games are built through the match layer with a scripted "human" (planted mistakes, or the
bot's own choices), saved to the store, and reviewed through the command line."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import match, review
from scorekeeper.games.least_score import rules as ls_rules
from scorekeeper.games.least_score.bots import BOTS as LS_BOTS
from scorekeeper.games.least_score.engine import Declare, Discard
from scorekeeper.games.one_card.bots import BOTS as OC_BOTS
from scorekeeper.games.one_card.engine import Bid, Deal
from scorekeeper.games.one_card.review import OneCardCoach
from scorekeeper.games.one_card.rules import Options as OneCardOptions
from scorekeeper.kit.rounds import RecordedDeal, parse_rounds
from scorekeeper.session import Session
from scorekeeper.store import Store
from tests.conftest import CLI, ESCAPE

Chooser = Callable[[str, Any, str | None], Any]


def played_game(game: str, seats: list[match.Seat], seed: int, deals: int,
                chooser: Chooser | None = None, options: dict[str, Any] | None = None
                ) -> Session:
    session = match.start_game(game, seats, seed, options=options)
    for _ in range(deals):
        if session.finished:
            break
        session = match.play_deal(session, choose_human=chooser)
    return session


def saved(db_path: Path, session: Session) -> int:
    with Store(db_path).write() as view:
        stored = view.add(session)
    assert stored.id is not None
    return stored.id


def like_strong(game_bots: Any, seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda player, view, problem: game_bots["strong"].choose(view, rng)


# ---------------------------------------------------------------------------
# Least Score


class PlantedLeastScore:
    """Ann plays as the strong bot, except for two planted mistakes: on her first turn
    she discards her lowest card and keeps her highest (a ten or a face card), and at
    her first chance to declare with 20 or more she declares."""

    def __init__(self) -> None:
        self.rng = random.Random(5)
        self.discarded = False
        self.declared = False

    def __call__(self, player: str, view: Any, problem: str | None) -> Any:
        hand = list(view.hand)
        values = [min(int(card.rank), 10) for card in hand]
        if (not self.discarded and view.turn < len(view.players) and max(values) >= 10
                and min(values) <= 3):
            self.discarded = True
            return Discard((hand[values.index(min(values))],), None)
        if (not self.declared and self.discarded and view.can_declare
                and ls_rules.hand_value(hand) >= 20):
            self.declared = True
            return Declare()
        return LS_BOTS["strong"].choose(view, self.rng)


def value(card: str) -> int:
    rank = card[:-1]
    return 1 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)


def decisions_of(result: dict[str, Any], player: str) -> list[dict[str, Any]]:
    return [d for d in result["decisions"] if d["player"] == player]


REVIEWS: dict[str, review.Review] = {}
"""The reviews made through ``reviewed_once``, by the game and the player reviewed."""


@pytest.fixture
def reviewed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``score review`` weighs each game for each player once in this module: the tests
    that show one review in several formats or widths share it (weighing a decision plays
    the deal out many times). test_review_json_shape goes without it: it checks that a
    second review is the same."""
    weigh = review.review

    def once(session: Session, player: str | None = None,
             progress: review.Progress | None = None) -> review.Review:
        game = {key: value for key, value in session.to_document().items()
                if key not in ("created", "history", "revision")}
        virtual = session.virtual.as_json() if session.virtual is not None else None
        key = json.dumps([game, virtual, session.id, player], sort_keys=True)
        if key not in REVIEWS:
            REVIEWS[key] = weigh(session, player, progress)
        return REVIEWS[key]

    monkeypatch.setattr(review, "review", once)


@pytest.fixture(scope="module")
def planted_least_score() -> Session:
    seats = [match.Seat("Ann"), match.Seat("Strong-2", "strong")]
    for seed in range(1, 40):
        chooser = PlantedLeastScore()
        session = played_game("least-score", seats, seed, 3, chooser)
        if chooser.discarded and chooser.declared:
            return session
    raise AssertionError("no seed planted both mistakes")


def test_planted_least_score_mistakes_are_flagged(cli: CLI, db_path: Path,
                                                  planted_least_score: Session) -> None:
    session_id = saved(db_path, planted_least_score)
    result = cli("review", session_id, "--json")
    assert result.exit_code == 0, result
    found = result.json()
    ann = decisions_of(found, "Ann")
    declared = [d for d in ann if d["played"]["action"] == {"declare": True}]
    assert declared, ann
    bad = declared[0]
    assert bad["mistake"] and bad["kind"] == "declaring"
    assert bad["played"]["chance"] < 0.3  # the bot sees the declaration fail
    assert bad["best"]["action"] != {"declare": True}
    kept_high = [d for d in ann if d["kind"] == "discarding" and d["mistake"]
                 and len(d["played"]["action"]["discard"]) == 1
                 and value(d["played"]["action"]["discard"][0]) <= 3
                 and max(map(value, d["position"]["hand"])) >= 10]
    assert kept_high, [(d["played"], d["best"], d["loss"]) for d in ann]
    summary = found["players"][0]
    assert summary["name"] == "Ann" and summary["mistakes"] >= 2
    assert summary["most_in"] == "declaring"
    assert {"deal": bad["deal"], "step": bad["step"]} in summary["costliest"]


def test_the_experts_own_game_has_no_mistakes() -> None:
    seats = [match.Seat(f"Expert-{i}", "expert") for i in (1, 2)]
    session = played_game("least-score", seats, 11, 3).with_id(1)
    found = review.review(session)
    assert found.reviewed == ["Expert-1", "Expert-2"]  # a game of bots: everyone
    assert found.decisions
    losses = [d.decision.loss for d in found.decisions]
    assert not [d for d in found.decisions if d.mistake], max(losses)


def test_the_review_sees_only_what_the_player_saw() -> None:
    """Changing cards Ann never saw (a card the other player kept all deal, a card left
    deep in the deck) changes nothing in Ann's review; changing one of hers does."""
    seats = [match.Seat("Ann"), match.Seat("Strong-2", "strong")]
    for seed in range(1, 30):
        session = played_game("least-score", seats, seed, 1,
                              like_strong(LS_BOTS, 1)).with_id(1)
        round_ = session.rounds[0].to_json()
        deal, actions = round_["deal"], round_["actions"]
        moved = {c for a in actions for c in a.get("discard", [])}
        kept = [c for c in deal["hands"]["Strong-2"] if c not in moved]
        ann_kept = [c for c in deal["hands"]["Ann"] if c not in moved]
        draws = sum(1 for a in actions if a.get("take") == "deck")
        unseen = deal["deck"][draws:]
        if kept and ann_kept and not any("reshuffle" in a for a in actions):
            break
    assert kept and ann_kept and unseen

    def with_deal(change: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
        changed = copy.deepcopy(deal)
        change(changed)
        rounds = parse_rounds(session.rules, [{**round_, "deal": changed}])
        found = review.review(dataclasses.replace(session, rounds=rounds), "Ann").as_json()
        return found["decisions"]

    def swap_hidden(d: dict[str, Any]) -> None:
        hand, deck = d["hands"]["Strong-2"], d["deck"]
        i, j = hand.index(kept[0]), deck.index(unseen[-1])
        hand[i], deck[j] = deck[j], hand[i]

    as_played = with_deal(lambda d: None)
    assert as_played == with_deal(swap_hidden)
    # the test can tell: one of Ann's own cards, never played, swapped with the same card

    def swap_own(d: dict[str, Any]) -> None:
        hand, deck = d["hands"]["Ann"], d["deck"]
        i, j = hand.index(ann_kept[0]), deck.index(unseen[-1])
        hand[i], deck[j] = deck[j], hand[i]

    assert as_played != with_deal(swap_own)


# ---------------------------------------------------------------------------
# One Card


def test_a_one_card_bid_far_off_is_flagged(cli: CLI, db_path: Path) -> None:
    rng = random.Random(3)
    planted: list[int] = []

    def chooser(player: str, view: Any, problem: str | None) -> Any:
        if view.phase.value == "bidding" and not planted and Bid(15) in view.legal:
            points = sum(1 for c in view.hand if c.rank.name in ("JACK", "QUEEN", "KING"))
            if points <= 3:
                planted.append(len(view.bids))
                return Bid(15)
        return OC_BOTS["strong"].choose(view, rng)

    seats = [match.Seat("Ann"), match.Seat("Strong-2", "strong"), match.Seat("Strong-3",
                                                                             "strong")]
    for seed in range(1, 20):
        planted.clear()
        session = played_game("one-card", seats, seed, 2, chooser)
        if planted:
            break
    assert planted
    session_id = saved(db_path, session)
    found = cli("review", session_id, "--json").json()
    bids = [d for d in decisions_of(found, "Ann") if d["played"]["action"] == {"bid": 15}]
    assert bids and bids[0]["mistake"] and bids[0]["kind"] == "bidding", bids
    assert bids[0]["estimates"]["played_bid_points"] < bids[0]["estimates"]["pass_points"]


def test_the_strong_bots_own_one_card_game_has_no_mistakes() -> None:
    seats = [match.Seat(f"Strong-{i}", "strong") for i in (1, 2, 3)]
    session = played_game("one-card", seats, 4, 2).with_id(1)
    found = review.review(session)
    assert len(found.decisions) > 20
    assert not [d for d in found.decisions if d.mistake], \
        max(d.decision.loss for d in found.decisions)


def test_a_one_card_decision_sees_only_the_players_hand() -> None:
    """Ann bids first: the other hands and the One Card dealt otherwise change nothing."""
    options = OneCardOptions()
    deal = Deal.new(["Ann", "Bob", "Cy"], "Cy", random.Random(8), options)
    record, _ = deal.to_record()
    other = copy.deepcopy(record)
    bob, cy = other["hands"]["Bob"], other["hands"]["Cy"]
    bob[0], cy[0], other["one_card"] = cy[0], other["one_card"], bob[0]
    coach = OneCardCoach()

    def first(deal_record: dict[str, Any], hand: list[str] | None = None) -> Any:
        if hand is not None:
            deal_record = {**deal_record, "hands": {**deal_record["hands"], "Ann": hand}}
        recorded = RecordedDeal(deal_record, [{"player": "Ann", "bid": None}])
        return next(iter(coach.review_deal(recorded, OneCardOptions(), {}, ["Ann"],
                                           lambda step: random.Random(step))))

    assert first(record) == first(other)
    # the test can tell: swap one of Ann's cards with Bob's
    ann, bob = list(record["hands"]["Ann"]), list(record["hands"]["Bob"])
    ann[0], bob[0] = bob[0], ann[0]
    changed = {**record, "hands": {**record["hands"], "Bob": bob}}
    assert first(changed, ann) != first(record)


# ---------------------------------------------------------------------------
# The command


@pytest.fixture
def bots_game(db_path: Path) -> int:
    seats = [match.Seat("[b]x"), match.Seat("<script>alert(1)</script>", "greedy")]
    session = played_game("least-score", seats, 2, 1, like_strong(LS_BOTS, 2),
                          options={"limit": 25})
    return saved(db_path, session)


def test_review_json_shape(cli: CLI, bots_game: int) -> None:
    result = cli("review", bots_game, "--json")
    assert result.exit_code == 0 and result.stderr == "", result
    found = result.json()
    assert set(found) >= {"session", "game", "seed", "evaluator", "threshold", "players",
                          "decisions"}
    assert found["session"] == bots_game and found["evaluator"] == "expert"
    assert [p["name"] for p in found["players"]] == ["[b]x"]  # the human only
    player = found["players"][0]
    assert set(player) >= {"name", "bot", "decisions", "mistakes", "points_given_away",
                           "by_kind", "most_in", "costliest"}
    assert player["decisions"] == len(found["decisions"]) > 0
    for decision in found["decisions"]:
        assert set(decision) >= {"deal", "step", "player", "kind", "played", "best", "loss",
                                 "mistake", "position", "estimates"}
        assert set(decision["played"]) >= {"action", "text", "points"}
        assert decision["loss"] >= 0
        assert decision["mistake"] == (decision["loss"] > found["threshold"])
        assert set(decision["position"]) >= {"hand", "floor", "totals"}
    assert cli("review", bots_game, "--json").json() == found  # the same review every time


def test_review_outputs_show_names_as_text(cli: CLI, bots_game: int,
                                           reviewed_once: None) -> None:
    everyone = ("--player", "<script>alert(1)</script>")
    terminal = cli("review", bots_game, *everyone)
    assert terminal.exit_code == 0, terminal
    assert "<script>alert(1)</script>" in terminal.stdout and ESCAPE not in terminal.stdout
    page = cli("review", bots_game, "--format", "html", *everyone).stdout
    assert "<script>" not in page and "&lt;script&gt;" in page
    markdown = cli("review", bots_game, "--format", "md").stdout
    assert "\\[b\\]x" in markdown and "<script>" not in markdown
    plain = cli("review", bots_game).stdout
    assert "[b]x" in plain


def test_review_escapes_control_characters(cli: CLI, db_path: Path,
                                          reviewed_once: None) -> None:
    session = played_game("least-score", [match.Seat("Ann"), match.Seat("Greedy-2", "greedy")],
                          2, 1, like_strong(LS_BOTS, 2), options={"limit": 25})
    # a name from an older store or file could hold an ESC (names typed now cannot)
    names = {"Ann": "An\x1bn"}
    assert session.virtual is not None
    renamed = dataclasses.replace(
        session, players=("An\x1bn", "Greedy-2"), virtual=session.virtual.renamed(names),
        first_dealer=names.get(session.first_dealer or "", session.first_dealer),
        rounds=tuple(r.renamed(names) for r in session.rounds))
    session_id = saved(db_path, renamed)
    for args in ((), ("--format", "md"), ("--format", "html")):
        result = cli("review", session_id, *args)
        assert result.exit_code == 0, result
        assert ESCAPE not in result.stdout and "x1bn" in result.stdout, (args, result)


def test_review_refuses_a_table_session_and_an_unknown_id(cli: CLI, refuse: Any) -> None:
    assert cli("new", "least-score", "--player", "Ann", "--player", "Bob").exit_code == 0
    refuse("review", "1", says="at a table")
    refuse("review", "99")
    refuse("review", "1", "--json", "--format", "md", code=2)


def test_review_of_an_imported_game(cli: CLI, db_path: Path, bots_game: int,
                                    tmp_path: Path, reviewed_once: None) -> None:
    before = cli("review", bots_game, "--json").json()
    exported = tmp_path / "game.json"
    assert cli("export", bots_game, "--format", "json", "--output", exported).exit_code == 0
    data = json.loads(exported.read_text(encoding="utf-8"))
    data.pop("virtual", None)  # an export without its seats and seed reviews everyone
    exported.write_text(json.dumps(data), encoding="utf-8")
    assert cli("import", "--again", exported).exit_code == 0
    after = cli("review", "2", "--json").json()
    assert [p["name"] for p in after["players"]] == ["[b]x", "<script>alert(1)</script>"]
    # without its seed, the review draws one from the deals: the same every time (and a
    # review from the same seed is the same review: test_review_json_shape)
    imported = Store(db_path).read().get(2)
    assert imported.virtual is None
    assert after["seed"] == review.review_seed(imported) == review.review_seed(
        Store(db_path).read().get(2))
    assert [d["position"] for d in before["decisions"]] == \
        [d["position"] for d in decisions_of(after, "[b]x")]


def random_player(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda player, view, problem: LS_BOTS["random"].choose(view, rng)


@pytest.mark.parametrize("width", [45, 80, 120])
def test_review_at_a_phones_width_is_one_block_per_decision(
        cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch, reviewed_once: None,
        width: int) -> None:
    session = played_game("least-score", [match.Seat("Ann"), match.Seat("Greedy-2", "greedy")],
                          5, 2, random_player(5), options={"limit": 25})
    game = saved(db_path, session)
    monkeypatch.setenv("COLUMNS", str(width))
    shown = cli("review", game)
    assert shown.exit_code == 0, shown
    mistakes = [d for d in cli("review", game, "--json").json()["decisions"] if d["mistake"]]
    assert mistakes, "the random player made no mistake to show"
    lines = shown.stdout.splitlines()
    assert all(len(line.rstrip()) <= width for line in lines)
    assert "…" not in shown.stdout  # no cell cut to its first letters
    if width < 72:  # each mistake its own block: where, then played, the bot's, given away
        for mistake in mistakes:
            where = f"Deal {mistake['deal']}, action {mistake['step']}, "
            at = next(i for i, line in enumerate(lines) if line.startswith(where))
            block = "\n".join(lines[at:at + 6])
            assert "Played: " + mistake["played"]["text"].split(",")[0] in block
            assert "The bot: " in block and f"Given away: {mistake['loss']:.1f}" in block
        assert "┃" not in shown.stdout
    else:
        assert "┃" in shown.stdout and "Given away" in shown.stdout
