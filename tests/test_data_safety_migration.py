"""Data that is never lost: a store written in schema version 1 still opens and upgrades.

tests/fixtures/store_schema_v1.json is a store as the first scorekeeper wrote it:
sessions without "history", "undone" or "extra", and meta {"schema": 1, "current": 3}.
Reading it changes nothing; the first write upgrades it to schema 2 with every
session intact, and keeps the version-1 file as the first backup.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli.app import run
from scorekeeper.doctor import check_file
from scorekeeper.store import SCHEMA_VERSION, Store, backup_paths

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "store_schema_v1.json"
V2_ONLY_KEYS = {"history", "undone", "extra"}


@pytest.fixture
def v1_store(tmp_path: Path) -> Path:
    db = tmp_path / "store.json"
    shutil.copyfile(FIXTURE, db)
    return db


def folder_state(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def score(db: Path, *argv: str) -> int:
    return run(["--db", str(db), *argv])


def fixture_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_the_fixture_is_a_realistic_version_1_store() -> None:
    data = fixture_data()
    assert set(data) == {"sessions", "meta"}
    assert data["meta"] == {"1": {"schema": 1, "current": 3}}
    sessions = data["sessions"]
    assert {s["game"] for s in sessions.values()} == {"least-score", "one-card"}
    for document in sessions.values():
        assert not V2_ONLY_KEYS & set(document)
        assert document["rounds"]
    assert SCHEMA_VERSION == 2


@pytest.mark.parametrize("argv", [
    ["show"], ["show", "1"], ["show", "2"], ["sessions"], ["log"], ["log", "1"],
    ["export", "--format", "json"], ["export", "2", "--format", "csv"],
    ["export", "1", "--format", "md"], ["rules", "least-score"], ["doctor"],
])
def test_reading_a_version_1_store_works_and_writes_nothing(
    v1_store: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = folder_state(v1_store.parent)
    assert score(v1_store, *argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.strip()
    assert folder_state(v1_store.parent) == before  # no upgrade, no backup, no lock file


def test_show_and_sessions_present_the_version_1_sessions(
    v1_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert score(v1_store, "sessions") == 0
    listing = " ".join(capsys.readouterr().out.split())
    # (the table may wrap long names at a narrow console)
    assert "Sunday" in listing and "Friday" in listing and "Eve" in listing and "Dan" in listing
    assert score(v1_store, "show") == 0  # the current session: 3
    shown = capsys.readouterr().out
    assert "Sunday rematch" in shown and "Eve" in shown and "Gus" in shown
    assert score(v1_store, "log", "1") == 0
    log = " ".join(capsys.readouterr().out.split())
    assert "created before history was kept" in log
    assert score(v1_store, "export", "1", "--format", "json") == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["status"] == "finished" and summary["winners"] == ["Dan"]
    assert summary["totals"] == {"Ann": 102, "Bob": 106, "Cy": 116, "Dan": 53}


def test_the_store_layer_migrates_in_memory(v1_store: Path) -> None:
    before = v1_store.read_bytes()
    view = Store(v1_store).read()
    assert view.current_id == 3
    sessions = view.sessions()
    assert [s.id for s in sessions] == [1, 2, 3]
    for session in sessions:
        assert session.undone == () and dict(session.extra) == {}
        assert [h["change"] for h in session.history] == ["new"]
    assert v1_store.read_bytes() == before
    assert check_file(v1_store).good


def test_the_first_write_upgrades_to_schema_2_with_the_sessions_intact(
    v1_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = fixture_data()
    assert score(v1_store, "add-round", "--declarer", "Gus", "Eve=9", "Finn=8", "Gus=2") == 0
    capsys.readouterr()
    upgraded = json.loads(v1_store.read_text(encoding="utf-8"))
    checked = upgraded["meta"]["1"].pop("checked")  # each session's digest, once checked
    assert upgraded["meta"]["1"] == {"schema": 2, "current": 3}
    assert set(checked) == {"1", "2", "3"}
    assert set(upgraded["sessions"]) == {"1", "2", "3"}
    for key, old in original["sessions"].items():
        new = upgraded["sessions"][key]
        assert set(new) >= V2_ONLY_KEYS
        for field, value in old.items():
            if key == "3" and field == "rounds":
                continue
            assert new[field] == value, (key, field)
        assert new["history"][0]["change"] == "new"
        assert new["history"][0]["time"] == old["created"]
    rounds = upgraded["sessions"]["3"]["rounds"]
    assert rounds[:3] == original["sessions"]["3"]["rounds"]
    assert rounds[3] == {"declarer": "Gus", "totals": {"Eve": 9, "Finn": 8, "Gus": 2}}
    assert [h["change"] for h in upgraded["sessions"]["3"]["history"]] == ["new", "add-round"]
    assert upgraded["sessions"]["3"]["history"][1]["round"] == 4
    # the version-1 file itself is kept as the first backup
    assert backup_paths(v1_store)[0].read_bytes() == FIXTURE.read_bytes()
    assert check_file(v1_store).good and check_file(backup_paths(v1_store)[0]).good
    # the upgraded sessions still re-score to what they did before
    assert score(v1_store, "export", "1", "--format", "json") == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["totals"] == {"Ann": 102, "Bob": 106, "Cy": 116, "Dan": 53}
    # and undo of a round entered under version 1 works, redo brings it back
    assert score(v1_store, "undo") == 0 and score(v1_store, "undo") == 0
    assert score(v1_store, "redo") == 0
    session = Store(v1_store).read().get(3)
    assert [r.to_json() for r in session.rounds] == original["sessions"]["3"]["rounds"]


@pytest.mark.parametrize("argv", [
    ["use", "1"],
    ["new", "one-card", "-p", "Zoe", "-p", "Yan"],
    ["undo", "--session", "3"],
    ["edit-round", "1", "--session", "3", "--declarer", "Gus", "Eve=9", "Finn=AS,KD,3C",
     "Gus=4"],
])
def test_any_write_upgrades_the_file(v1_store: Path, argv: list[str]) -> None:
    assert score(v1_store, *argv) == 0
    data = json.loads(v1_store.read_text(encoding="utf-8"))
    assert data["meta"]["1"]["schema"] == 2
    assert all(set(document) >= V2_ONLY_KEYS for document in data["sessions"].values())
    assert check_file(v1_store).good
    original = fixture_data()["sessions"]
    for key in ("1", "2"):
        assert data["sessions"][key]["rounds"] == original[key]["rounds"]


def test_a_refused_write_leaves_the_version_1_file_alone(
    v1_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = folder_state(v1_store.parent)
    assert score(v1_store, "add-round", "--declarer", "Gus", "Eve=9", "Finn=8") == 1
    assert "missing" in capsys.readouterr().err
    assert score(v1_store, "add-round", "-s", "1", "--declarer", "Dan", "Dan=1") == 1
    assert "finished" in capsys.readouterr().err
    after = folder_state(v1_store.parent)
    after.pop("store.json.lock", None)
    assert after == before
