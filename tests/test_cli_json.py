"""`--json` on the reading commands (issue 11.12): sessions, show, log and doctor print one
JSON object whose keys are documented in docs/commands.md."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from conftest import CLI

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")


def night(least, ok: CLI) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--dealer", "Ann", "--name", "Friday"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=12", "Cy=2")  # Bob out (11)
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=3")


def documented(keys: Any, section: str) -> None:
    """Every key is named in backticks in the command's section of docs/commands.md."""
    text = re.split(rf"^#{{2,}} score {section}\b", REFERENCE, flags=re.MULTILINE)[1]
    text = re.split(r"^#{2,} ", text, flags=re.MULTILINE)[0]
    for key in keys:
        assert f"`{key}`" in text, f"score {section} --json: `{key}` is not documented"


def test_sessions_json(least, one_card, ok: CLI, db_path: Path) -> None:
    assert ok("sessions", "--json").json() == {"current": None, "sessions": []}
    assert not db_path.exists()
    night(least, ok)
    one_card("Dan", "Eve")
    data = ok("sessions", "--json").json()
    assert data["current"] == 2
    first, second = data["sessions"]
    assert first == {"id": 1, "name": "Friday", "label": "Friday", "game": "least-score",
                     "mode": "table", "players": ["Ann", "Bob", "Cy"], "rounds": 2,
                     "created": first["created"], "current": False,
                     "status": "in-progress", "leader": ["Ann"]}
    assert datetime.fromisoformat(first["created"]).tzinfo is not None
    assert second["label"] == "One Card #2" and second["current"] is True
    assert second["leader"] == []
    documented(data, "sessions")
    documented(first, "sessions")


def test_show_json_is_the_export_plus_the_standings(least, ok: CLI, tmp_path: Path) -> None:
    night(least, ok)
    shown = ok("show", "--json").json()
    exported = ok("export", "--format", "json").json()
    assert {key: shown[key] for key in exported} == exported
    assert shown["label"] == "Friday" and shown["target"] == 10
    assert shown["standings"] == [
        {"place": 1, "player": "Ann", "total": 0, "margin": 10, "status": "in",
         "knocked_out_in": None},
        {"place": 2, "player": "Cy", "total": 3, "margin": 7, "status": "in",
         "knocked_out_in": None},
        {"place": 3, "player": "Bob", "total": 11, "margin": None, "status": "knocked out",
         "knocked_out_in": 1},
    ]
    assert shown["next_dealer"] == "Ann"  # Ann, then Cy (Bob was out): Ann again
    assert shown["notes"] == ["Next deal: Ann deals, Cy plays first."]
    documented(set(shown) - set(exported), "show")
    documented(shown["standings"][0], "show")
    # the same object imports like an export
    (tmp_path / "shown.json").write_text(json.dumps(shown), encoding="utf-8")
    ok("import", "--again", tmp_path / "shown.json")


def test_show_json_of_a_finished_one_card_game(one_card, ok: CLI) -> None:
    one_card("Ann", "Bob", extra=("--target", "10", "--dealer", "Bob"))
    ok("add-round", "--no-bid", "Ann=12", "Bob=3")
    shown = ok("show", "1", "--json").json()
    assert [(row["player"], row["status"], row["margin"]) for row in shown["standings"]] \
        == [("Ann", "winner", 0), ("Bob", "finished", 7)]
    assert shown["next_dealer"] is None and shown["status"] == "finished"


def test_log_json(least, ok: CLI) -> None:
    night(least, ok)
    ok("undo")
    data = ok("log", "--json").json()
    assert data["id"] == 1 and data["label"] == "Friday"
    assert [entry["change"] for entry in data["history"]] == ["new", "add-round",
                                                              "add-round", "undo"]
    assert [entry["round"] for entry in data["history"]] == [None, 1, 2, 2]
    for entry in data["history"]:
        assert set(entry) == {"time", "change", "detail", "round"}
        assert datetime.fromisoformat(entry["time"]).tzinfo is not None
    assert data["history"][0]["detail"].startswith("Least Score for Ann, Bob, Cy")
    documented(data, "log")
    documented(data["history"][0], "log")


def test_doctor_json_healthy_damaged_and_restored(least, ok: CLI, cli: CLI,
                                                  db_path: Path) -> None:
    assert ok("doctor", "--json").json()["store"]["exists"] is False
    night(least, ok)
    data = ok("doctor", "--json").json()
    assert data["store"] == {"file": str(db_path), "exists": True, "healthy": True,
                             "newer": False, "sessions": 1, "rounds": 2, "problems": [],
                             "missing": []}
    assert [backup["rounds"] for backup in data["backups"]] == [1, 0]  # before each write
    assert data["restored"] is None
    documented(data, "doctor")
    documented(data["store"], "doctor")
    db_path.write_text('{"sessions": {"1": {"game": "least', encoding="utf-8")
    damaged = cli("doctor", "--json")
    assert damaged.exit_code == 1 and damaged.stderr == ""
    report = json.loads(damaged.stdout)
    assert report["store"]["healthy"] is False and report["store"]["problems"]
    restored = ok("doctor", "--restore", "--json").json()
    assert restored["restored"]["from"].endswith("scorekeeper.json.bak1")
    assert re.search(r"\.replaced-", restored["restored"]["kept"])
    assert ok("doctor", "--json").json()["store"]["healthy"] is True


def test_show_json_refuses_like_show(refuse) -> None:
    refuse("show", "--json", says="no sessions yet")
