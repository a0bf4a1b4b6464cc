"""A game's life on the virtual deck (scorekeeper/playing.py), without the command line:
resume refusals, the session's lease, saving each deal as a compare-and-set, a session
deleted or changed under a play, and what an interrupt leaves in the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper import match
from scorekeeper.errors import EntryError
from scorekeeper.playing import (
    GameLife,
    NothingToResume,
    NotThatGame,
    PlayHooks,
    SessionBusy,
    SessionChangedDuringPlay,
    SessionDeletedDuringPlay,
    StopKind,
)
from scorekeeper.session import Session
from scorekeeper.store import Store

BOTS = match.make_seats([], ["random", "random"])


@pytest.fixture
def db(tmp_path: Path) -> Store:
    return Store(tmp_path / "scores.json")


def new_game(db: Store, seed: int = 7, seats: list[match.Seat] = BOTS) -> GameLife:
    return GameLife.start(db, "least-score", seats, seed)


def stop_after(actions: int) -> PlayHooks:
    """Hooks that interrupt the game (Ctrl-C) after ``actions`` actions."""
    seen = 0

    def on_action(player: str, action: Any, deal: Any) -> None:
        nonlocal seen
        seen += 1
        if seen == actions:
            raise KeyboardInterrupt

    return PlayHooks(on_action=on_action)


def test_a_game_played_to_its_end_is_stored_deal_by_deal(db: Store) -> None:
    stored_after: list[int] = []
    with new_game(db) as life:
        assert db.read().current_id == life.session.id
        finished = life.play(PlayHooks(on_saved=lambda s: stored_after.append(len(s.rounds))))
    assert finished.finished
    stored = db.read().get(finished.id)
    assert stored.finished and len(stored.rounds) == len(finished.rounds)
    assert stored_after == list(range(1, len(finished.rounds) + 1))
    # the same game as the match layer plays without a store
    alone = match.play_to_end(match.start_game("least-score", BOTS, 7))
    assert [r["scores"] for r in stored.standings.rounds] == \
        [r["scores"] for r in alone.standings.rounds]


def test_one_play_per_session_the_lease_is_held_until_closed(db: Store) -> None:
    life = new_game(db)
    session_id = life.session.id
    assert session_id is not None
    with pytest.raises(SessionBusy, match="being played by another"):
        GameLife.resume(db, session_id)
    life.close()
    with GameLife.resume(db, session_id) as again:
        assert again.resumed and again.session.id == session_id
        with pytest.raises(SessionBusy):
            GameLife.resume(db, session_id)


def test_resume_refuses_a_finished_game_another_game_and_a_table_session(db: Store) -> None:
    with new_game(db) as life:
        finished = life.play()
    assert finished.id is not None
    with pytest.raises(NothingToResume, match="is finished: nothing to resume"):
        GameLife.resume(db, finished.id)
    with new_game(db, seed=8) as other:
        other_id = other.session.id
    assert other_id is not None
    with pytest.raises(NotThatGame, match=f"session {other_id} is Least Score, not one-card"):
        GameLife.resume(db, other_id, "one-card")
    with db.write() as view:
        table = view.add(Session.new("least-score", ["Ann", "Bob"]))
    assert table.id is not None
    with pytest.raises(EntryError, match="not played on the virtual deck"):
        GameLife.resume(db, table.id)
    # a refused resume takes no lease: the game can still be resumed
    with GameLife.resume(db, other_id):
        pass


def test_a_deal_is_not_saved_over_a_session_changed_under_the_play(db: Store) -> None:
    life = new_game(db)
    session_id = life.session.id
    assert session_id is not None

    def rename_after_the_first_deal(session: Session) -> None:
        if len(session.rounds) == 1:  # another command writes the session meanwhile
            with db.write() as view:
                stored = view.get(session_id)
                view.put(stored.with_virtual(stored.virtual or match.virtual_settings(stored),
                                             "note", "changed by another command"))

    with life, pytest.raises(SessionChangedDuringPlay, match="deal 2 was not saved") as error:
        life.play(PlayHooks(on_saved=rename_after_the_first_deal))
    assert error.value.deal == 2
    stored = db.read().get(session_id)
    assert len(stored.rounds) == 1
    assert stored.history[-1]["change"] == "note"  # the other command's change is kept


def test_a_deleted_session_stops_the_play_and_nothing_more_is_saved(db: Store) -> None:
    life = new_game(db)
    session_id = life.session.id
    assert session_id is not None

    def delete_after_the_first_deal(session: Session) -> None:
        if len(session.rounds) == 1:
            with db.write() as view:
                view.remove(session_id, {"id": session_id})

    with life, pytest.raises(SessionDeletedDuringPlay, match="deal 2 was not saved") as error:
        life.play(PlayHooks(on_saved=delete_after_the_first_deal))
    assert error.value.deal == 2
    assert session_id not in db.read().session_ids()
    stopped = life.stop(hand_seen=True)
    assert stopped.kind is StopKind.DELETED and stopped.done == 1
    assert session_id not in db.read().session_ids()


def test_a_new_game_stopped_before_anyone_saw_a_card_is_taken_out(db: Store) -> None:
    with new_game(db, seed=3) as first:
        before = first.play()  # the current session until the next game starts
    with new_game(db) as life:
        assert db.read().current_id == life.session.id
        session_id = life.session.id
        with pytest.raises(KeyboardInterrupt):
            life.play(stop_after(3))
        stopped = life.stop(hand_seen=False)
    assert stopped.kind is StopKind.NOTHING_SAVED and stopped.done == 0
    assert session_id not in db.read().session_ids()
    assert db.read().current_id == before.id  # the current session before the game's


def test_a_deal_stopped_midway_is_dealt_again_from_a_fresh_shuffle(db: Store) -> None:
    with new_game(db) as life:
        session_id = life.session.id
        assert session_id is not None
        with pytest.raises(KeyboardInterrupt):
            life.play(stop_after(3))
        stopped = life.stop(hand_seen=True)
    assert stopped.kind is StopKind.SAVED
    assert (stopped.done, stopped.dealt_again) == (0, 1)
    assert match.restarts_of(db.read().get(session_id)) == {1: 1}
    with GameLife.resume(db, session_id) as again:  # the resumed game is never taken out
        with pytest.raises(KeyboardInterrupt):
            again.play(stop_after(2))
        stopped = again.stop(hand_seen=False)
    assert stopped.kind is StopKind.SAVED and stopped.dealt_again == 1
    assert match.restarts_of(db.read().get(session_id)) == {1: 2}


def test_a_restart_is_not_recorded_over_a_session_changed_meanwhile(db: Store) -> None:
    life = new_game(db)
    session_id = life.session.id
    assert session_id is not None
    with life:
        with pytest.raises(KeyboardInterrupt):
            life.play(stop_after(3))
        with db.write() as view:
            stored = view.get(session_id)
            view.put(stored.with_virtual(match.virtual_settings(stored), "note", "meanwhile"))
        stopped = life.stop(hand_seen=True)
    assert stopped.kind is StopKind.SAVED and stopped.dealt_again is None
    assert match.restarts_of(db.read().get(session_id)) == {}
