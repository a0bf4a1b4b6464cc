"""The store's record of each session's facts for `score stats` (scorekeeper/derived.py):
kept in the same write as the session, used only when its digest matches, never able
to disagree with the session's own rounds scored again."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import derived
from scorekeeper.kit.entries import RoundEntry
from scorekeeper.session import Session
from scorekeeper.stats import Played, compute
from scorekeeper.store import SESSIONS, Store, _text_of

NAMES = ("Ann", "Bob", "Cy", "Dan")


def least_score(rng: random.Random, rounds: int) -> Session:
    players = list(NAMES[:rng.randint(2, 4)])
    session = Session.new("least-score", players, options={"limit": 60}, dealer=players[0],
                          time="2026-01-02T20:00:00+01:00")
    for _ in range(rounds):
        if session.finished:
            break
        still_in = session.standings.still_in
        totals = {name: rng.randint(1, 30) for name in still_in}
        declarer = min(still_in, key=lambda name: totals[name] + rng.randint(-5, 5))
        session = session.add_round(RoundEntry(
            tuple((name, str(total)) for name, total in totals.items()), declarer=declarer))
    return session


def points(rng: random.Random, rounds: int) -> Session:
    players = list(NAMES[:rng.randint(2, 4)])
    session = Session.new("points", players, options={"target": 0, "rounds": 3},
                          dealer=players[0], time="2026-01-03T20:00:00+01:00")
    for _ in range(rounds):
        if session.finished:
            break
        session = session.add_round(RoundEntry(
            tuple((name, str(rng.randint(-5, 20))) for name in players)))
    return session


def recomputed(path: Path) -> list[Played]:
    """Every session read, checked and scored again, the record not read."""
    return [Played.of(session) for session in Store(path).read().sessions()]


def from_store(path: Path) -> list[Played]:
    found, unavailable = Store(path).read().played()
    assert unavailable == []
    return found


def records(path: Path) -> dict[str, Any]:
    return Store(path).read().records()


def current(path: Path) -> set[int]:
    """The sessions whose record the statistics would use."""
    view = Store(path).read()
    kept = view.records()
    stored = (view.opened.transaction.read() or {}).get(SESSIONS, {})
    return {int(key) for key, document in stored.items()
            if derived.facts_if_current(kept.get(key), _text_of(document)) is not None}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "scorekeeper.json"


def fill(path: Path, seed: int, count: int = 4) -> None:
    rng = random.Random(seed)
    with Store(path).write() as view:
        for _ in range(count):
            make = least_score if rng.random() < 0.6 else points
            view.add(make(rng, rng.randint(0, 12)))


# -- each write keeps the record of what it stored ----------------------------------


def test_each_write_keeps_a_current_record_of_what_it_stored(db: Path) -> None:
    fill(db, 1)
    assert current(db) == {1, 2, 3, 4}
    assert from_store(db) == recomputed(db)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000),
       steps=st.lists(st.sampled_from(["round", "undo", "abandon", "delete", "new"]),
                      max_size=8))
def test_the_record_never_disagrees_with_the_rounds(tmp_path: Path, seed: int,
                                                     steps: list[str]) -> None:
    """Whatever the commands did, what `stats` reads equals the sessions scored again,
    and every session written since has a current record."""
    path = Path(tempfile.mkdtemp(dir=tmp_path)) / "scorekeeper.json"  # one per example
    fill(path, seed, count=2)
    rng = random.Random(seed)
    for step in steps:
        with Store(path).write() as view:
            ids = view.session_ids()
            if step == "new" or not ids:
                view.add(points(rng, rng.randint(0, 4)))
                continue
            session = view.get(rng.choice(ids))
            if step == "round" and session.game == "points" and not session.finished \
                    and not session.abandoned:
                session = session.add_round(RoundEntry(
                    tuple((name, str(rng.randint(0, 9))) for name in session.players)))
                view.put(session)
            elif step == "undo" and session.rounds:
                view.put(session.undo())
            elif step == "abandon" and not session.finished and not session.abandoned:
                view.put(session.abandon())
            elif step == "delete":
                view.remove(session.id or 0, {"id": session.id})
        kept = records(path)
        assert set(kept) <= {str(i) for i in Store(path).read().session_ids()}
        assert from_store(path) == recomputed(path)
        assert current(path) == set(Store(path).read().session_ids())
    figures = compute(from_store(path))
    again = compute(Store(path).read().sessions())
    assert figures == again


# -- a file edited by hand ----------------------------------------------------------


def edit_line(path: Path, start: bytes, change: Any) -> None:
    lines = path.read_bytes().split(b"\n")
    for index, line in enumerate(lines):
        if line.startswith(start):
            key, _, text = line.partition(b": ")
            comma = text.endswith(b",")
            document = json.loads(text.rstrip(b","))
            change(document)
            lines[index] = key + b": " + json.dumps(
                document, ensure_ascii=False, separators=(",", ":")).encode() + \
                (b"," if comma else b"")
            path.write_bytes(b"\n".join(lines))
            return
    raise AssertionError(f"no line {start!r}")


def test_a_session_edited_by_hand_is_scored_again(db: Path) -> None:
    rng = random.Random(3)
    session = points(rng, 3)  # three rounds to 0: finished
    assert session.finished
    with Store(db).write() as view:
        view.add(session)
    before = from_store(db)[0]

    def lower_the_winner(document: dict[str, Any]) -> None:
        winner = before.winners[0]
        for round_ in document["rounds"]:
            round_["points"][winner] = -50
    edit_line(db, b'"1": {"game"', lower_the_winner)
    assert current(db) == set()  # the record no longer matches the session's text
    after = from_store(db)
    assert after == recomputed(db)
    assert after[0].places[before.winners[0]] > 1


def test_a_record_edited_by_hand_is_not_believed(db: Path) -> None:
    fill(db, 5)
    honest = from_store(db)

    edited: set[int] = set()

    def crown_the_last(document: dict[str, Any]) -> None:
        for key, entry in document["sessions"].items():
            facts = json.loads(entry["facts"])
            if facts["finished"]:
                last = max(facts["places"], key=facts["places"].get)
                facts["winners"] = [last]
                facts["places"] = {name: 1 if name == last else 2
                                   for name in facts["places"]}
                entry["facts"] = json.dumps(facts, separators=(",", ":"))
                edited.add(int(key))
    edit_line(db, b'"2": {"sessions"', crown_the_last)
    assert edited and current(db) == {1, 2, 3, 4} - edited
    assert from_store(db) == honest == recomputed(db)


def test_a_record_that_is_not_json_is_left_aside_and_replaced(db: Path) -> None:
    fill(db, 6)
    lines = db.read_bytes().split(b"\n")
    index = next(i for i, line in enumerate(lines) if line.startswith(b'"2": {"sessions"'))
    lines[index] = b'"2": {"sessions":{"1":}' + (b"," if lines[index].endswith(b",") else b"")
    db.write_bytes(b"\n".join(lines))
    assert from_store(db) == recomputed(db)  # the sessions themselves are read
    rng = random.Random(6)
    with Store(db).write() as view:
        view.add(points(rng, 3))
    assert current(db) == {5}  # a write that stores a session replaces the record


def test_new_scoring_code_is_not_trusted_with_old_records(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(db, 7)
    assert current(db) == {1, 2, 3, 4}
    monkeypatch.setattr(derived, "code_fingerprint", lambda game: b"another version")
    assert current(db) == set()
    assert from_store(db) == recomputed(db)


def test_the_fingerprint_covers_the_games_own_code_and_the_kit() -> None:
    derived.code_fingerprint.cache_clear()
    ours = derived.code_fingerprint("hearts")
    assert ours != derived.code_fingerprint("points") != derived.code_fingerprint(
        "least-score")


# -- an older store --------------------------------------------------------------


def test_a_store_without_records_reads_as_before_and_reading_writes_nothing(db: Path) -> None:
    fill(db, 8)
    data = json.loads(db.read_bytes())
    del data["meta"]["2"]
    db.write_text(json.dumps(data), encoding="utf-8")  # TinyDB's own layout, no record
    before, files = db.read_bytes(), sorted(db.parent.iterdir())
    assert from_store(db) == recomputed(db)
    assert db.read_bytes() == before and sorted(db.parent.iterdir()) == files


def test_an_older_store_catches_up_a_few_sessions_a_write(db: Path) -> None:
    from scorekeeper import store as store_module

    fill(db, 9, count=12)
    data = json.loads(db.read_bytes())
    del data["meta"]["2"]
    db.write_text(json.dumps(data), encoding="utf-8")
    assert current(db) == set()
    limit = store_module.RECORDS_FILLED_PER_WRITE
    rng = random.Random(9)
    Store(db).update(lambda view: view.add(points(rng, 1)))  # session 13, and `limit` more
    assert current(db) == {13, *range(1, limit + 1)}
    Store(db).update(lambda view: view.set_current(1))
    assert current(db) == {13, *range(1, min(12, 2 * limit) + 1)}
    assert from_store(db) == recomputed(db)


GOOD_FACTS: dict[str, Any] = {
    "game": "least-score", "players": ["Ann", "Bob"], "mode": "table",
    "created": "2026-01-02T20:00:00+01:00", "abandoned": "", "finished": True,
    "bots": {}, "winners": ["Ann"], "places": {"Ann": 1, "Bob": 2},
    "tallies": {"Ann": {"declarations": 1}, "Bob": {}}}


@pytest.mark.parametrize("change", [
    {"players": ["Ann", 7]}, {"players": ["Ann", "Ann"]}, {"players": "Ann"},
    {"places": {"Ann": 1, "Bob": True}}, {"places": {"Ann": 1, "Bob": 2.0}},
    {"places": {"Ann": 1}}, {"places": {"Ann": 1, "Bob": 2, "Cy": 3}},
    {"tallies": {"Ann": {"declarations": False}}}, {"tallies": {"Cy": {}}},
    {"tallies": {"Ann": {"declarations": "1"}}}, {"tallies": []},
    {"winners": ["Cy"]}, {"winners": [None]}, {"bots": {"Ann": 3}}, {"bots": {"Cy": "strong"}},
    {"finished": 1}, {"finished": False}, {"game": None}, {"created": 20260102},
])
def test_a_record_whose_facts_are_not_what_facts_of_writes_is_not_used(
        change: dict[str, Any]) -> None:
    """Played.from_json checks every fact's type and shape (a count is an int, never a
    bool; each name seated, and each seated player placed in a finished session)."""
    assert Played.from_json(json.loads(json.dumps(GOOD_FACTS)), 1) is not None
    assert Played.from_json({**json.loads(json.dumps(GOOD_FACTS)), **change}, 1) is None
    broken = json.loads(json.dumps(GOOD_FACTS))
    del broken[next(iter(change))]
    assert Played.from_json(broken, 1) is None


def test_the_facts_read_back_are_the_facts_written() -> None:
    session = least_score(random.Random(3), 12)
    facts = derived.facts_of(session)
    played = Played.from_json(json.loads(json.dumps(facts)), 5)
    assert played == Played.of(session.with_id(5))
    assert played is not None and played.to_json() == json.loads(json.dumps(facts))
