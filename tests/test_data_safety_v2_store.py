"""Data that is never lost: a store written before the store ran on TinyDB opens unchanged.

tests/fixtures/store_schema_v2.json was written by the scorekeeper whose store read and
wrote TinyDB's file format by hand (commit 65c368a): three sessions of both games (one
with an undone round, one renamed by `score players rename` and abandoned, one played
by bots), a deleted session kept in the meta table, and the digests of the checked
sessions. Reading it changes nothing; a write re-serialises only what it changed and
copies every other session's line byte for byte.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli.app import run
from scorekeeper.doctor import check_file
from scorekeeper.store import Store, backup_paths

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "store_schema_v2.json"


@pytest.fixture
def v2_store(tmp_path: Path) -> Path:
    db = tmp_path / "store.json"
    shutil.copyfile(FIXTURE, db)
    return db


def score(db: Path, *argv: str) -> int:
    return run(["--db", str(db), *argv])


def lines(content: bytes) -> dict[bytes, bytes]:
    """Each document line of the file by its id (``"3"``), the meta line under ``meta``,
    the record of the sessions' facts (scorekeeper/derived.py) under ``record``."""
    found: dict[bytes, bytes] = {}
    for line in content.split(b"\n"):
        if line.startswith(b'"1": {"schema"'):
            found[b"meta"] = line
        elif line.startswith(b'"2": {"sessions"'):
            found[b"record"] = line.rstrip(b",")
        elif line.startswith(b'"') and b'": {"' in line:
            found[line.split(b'"')[1]] = line.rstrip(b",")
    return found


def test_the_fixture_is_what_the_hand_written_store_wrote() -> None:
    raw = FIXTURE.read_bytes()
    data: dict[str, Any] = json.loads(raw)
    assert set(data) == {"meta", "sessions"} and raw.count(b"\n") == 10
    meta = data["meta"]["1"]
    assert meta["schema"] == 2 and meta["current"] == 1
    assert set(meta["checked"]) == set(data["sessions"]) == {"1", "3", "4"}
    assert [record["id"] for record in meta["deleted"]] == [2]
    assert meta["player_changes"][0]["change"] == "players rename"
    assert {s["mode"] for s in data["sessions"].values()} == {"table", "virtual"}


@pytest.mark.parametrize("argv", [
    ["sessions"], ["show"], ["show", "3"], ["log", "2"], ["log", "3"], ["players"],
    ["stats"], ["export", "4", "--format", "json"], ["doctor"], ["rules", "one-card"],
])
def test_reading_the_fixture_changes_nothing(v2_store: Path, argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert score(v2_store, *argv) == 0, capsys.readouterr()
    assert v2_store.read_bytes() == FIXTURE.read_bytes()
    assert sorted(p.name for p in v2_store.parent.iterdir()) == [v2_store.name]


def test_the_fixture_reads_as_it_was_written(v2_store: Path) -> None:
    view = Store(v2_store).read()
    assert view.current_id == 1 and view.session_ids() == [1, 3, 4]
    first, second, bots = view.sessions()
    assert first.name == "Friday night" and len(first.rounds) == 2 and len(first.undone) == 1
    assert second.players == ("Dan", "Evelyn", "Fay") and len(second.rounds) == 2
    assert bots.finished and list(bots.standings.winners) == ["Greedy-1"]
    deleted = view.deleted(2)
    assert deleted is not None and deleted["label"] == "to delete"
    assert view.meta_records("player_changes")[0]["sessions"] == [
        {"id": 3, "names": {"Eve": "Evelyn"}}]
    health = check_file(v2_store)
    assert health.good and health.sessions == 3 and health.rounds == 9


def test_a_write_to_the_fixture_changes_only_what_it_changed(
    v2_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = lines(FIXTURE.read_bytes())
    assert score(v2_store, "redo") == 0  # session 1's undone round comes back
    after = lines(v2_store.read_bytes())
    assert set(after) == set(before) | {b"record"}  # the sessions' facts kept (the
    # redone one's, and the others' as this older store catches up: derived.py)
    assert json.loads(after[b"record"].partition(b": ")[2])["sessions"].keys() == \
        {"1", "3", "4"}
    assert after[b"3"] == before[b"3"] and after[b"4"] == before[b"4"]  # copied as they were
    assert after[b"1"] != before[b"1"]
    old, new = json.loads(FIXTURE.read_bytes()), json.loads(v2_store.read_bytes())
    assert {k: v for k, v in new["meta"]["1"].items() if k != "checked"} == \
        {k: v for k, v in old["meta"]["1"].items() if k != "checked"}
    assert new["meta"]["1"]["checked"]["3"] == old["meta"]["1"]["checked"]["3"]
    assert new["meta"]["1"]["checked"]["1"] != old["meta"]["1"]["checked"]["1"]
    assert new["sessions"]["1"]["revision"] == old["sessions"]["1"]["revision"] + 1
    assert backup_paths(v2_store)[0].read_bytes() == FIXTURE.read_bytes()
    session = Store(v2_store).read().get(1)
    assert len(session.rounds) == 3 and session.undone == ()
    assert score(v2_store, "add-round", "-s", "1", "--declarer", "Bob", "Ann=4", "Bob=1",
                 "Cy Ø=6") == 0
    assert score(v2_store, "delete", "4", "--yes") == 0
    capsys.readouterr()
    view = Store(v2_store).read()
    assert view.session_ids() == [1, 3] and len(view.get(1).rounds) == 4
    assert [record["id"] for record in view.meta_records("deleted")] == [2, 4]
    assert check_file(v2_store).good
    assert lines(v2_store.read_bytes())[b"3"] == before[b"3"]
