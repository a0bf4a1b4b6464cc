"""`score import` refuses hostile files in one line, the store unchanged (issue 9, point 7):
files too large, too deep, with numbers too long or parts of the wrong type; and virtual
rounds that replay only because the check let them (another seating, no first dealer,
actions after the deal is over)."""

from __future__ import annotations

import copy
import json
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, ESCAPE, Refuse, file_bytes
from deadlines import SCALE
from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import match
from scorekeeper.importing import MAX_CONTAINERS, MAX_IMPORT_BYTES
from scorekeeper.kit.entries import EntryError
from scorekeeper.session import Session
from scorekeeper.summary import session_from_summary, summary_of

THREE_BOTS = ["--bot", "random", "--bot", "greedy", "--bot", "random"]


@pytest.fixture
def stored(ok: CLI, db_path: Path) -> bytes:
    """A store with a session in it, so that 'unchanged' means something."""
    ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    before = file_bytes(db_path)
    assert before is not None
    return before


def played(ok: CLI, game: str = "least-score", seed: int = 1) -> dict[str, Any]:
    """A real virtual game: `score play GAME` with three bots, exported as JSON."""
    ok("play", game, *THREE_BOTS, "--seed", seed)
    data: dict[str, Any] = json.loads(ok("export", "--format", "json").stdout)
    assert data["mode"] == "virtual" and len(data["rounds"]) >= 2
    return data


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def without_results(data: dict[str, Any]) -> dict[str, Any]:
    """The summary without its stated results, for rounds that re-score differently."""
    for key in ("totals", "knocked_out", "status", "winners"):
        data.pop(key, None)
    for round_ in data["rounds"]:
        for key in ("scores", "false_declaration", "bid_failed", "knocked_out"):
            round_.pop(key, None)
    return data


# --------------------------------------------------------------------------- the file


def test_a_deeply_nested_file_is_refused(stored: bytes, refuse: Refuse,
                                         tmp_path: Path) -> None:
    """Today: RecursionError and a traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    refuse("import", "--again", deep, says="nested too deeply")


def test_a_file_nested_deeper_than_a_summary_can_be_is_refused(stored: bytes, ok: CLI,
                                                               refuse: Refuse,
                                                               tmp_path: Path) -> None:
    data = json.loads(ok("export", "--format", "json").stdout)
    nested: Any = "Ann"
    for _ in range(900):
        nested = [nested]
    data["rounds"] = [{"declarer": "Ann", "totals": {"Ann": nested, "Bob": 3}}]
    refuse("import", "--again", write(tmp_path, data), says="nested too deeply")


def test_a_number_of_5000_digits_is_refused(stored: bytes, refuse: Refuse,
                                            tmp_path: Path) -> None:
    """Today: ValueError (Python's limit on converting digits to an int) and a traceback."""
    path = tmp_path / "digits.json"
    path.write_text('{"format": "scorekeeper-session", "version": ' + "9" * 5000 + "}",
                    encoding="utf-8")
    refuse("import", "--again", path, says="digits")


@pytest.mark.parametrize("text, says", [
    ('{"format": "scorekeeper-session", "version": NaN}', "NaN"),
    ('{"format": "scorekeeper-session", "version": -Infinity}', "Infinity"),
    ("[" + "[]," * (MAX_CONTAINERS + 1) + "[]]", "lists and objects"),
])
def test_what_is_not_json_or_too_many_objects_is_refused(stored: bytes, refuse: Refuse,
                                                         tmp_path: Path, text: str,
                                                         says: str) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    refuse("import", "--again", path, says=says)


def test_a_file_that_is_not_utf8_is_refused(stored: bytes, refuse: Refuse,
                                            tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"name": "\xe9"}')
    refuse("import", "--again", path, says="not UTF-8")


def test_a_file_over_64_mib_is_refused_without_reading_it_all(stored: bytes,
                                                              refuse: Refuse,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: no 64 MiB written to the disk
        handle.truncate(MAX_IMPORT_BYTES + 1)
    refuse("import", "--again", path, says="64 MiB")


def test_a_file_of_exactly_64_mib_is_read(stored: bytes, refuse: Refuse,
                                          tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.write(b"[")
        handle.truncate(MAX_IMPORT_BYTES)  # then NUL bytes: read, then not valid JSON
    refuse("import", "--again", path, says="not valid JSON")


def test_a_summary_that_a_bom_starts_is_read(ok: CLI, tmp_path: Path) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    text = ok("export", "--format", "json").stdout
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert "Imported" in ok("import", "--again", path).stdout


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.e2e
def test_dev_zero_is_refused_quickly_in_one_line(score_exe: Path, score_env: dict[str, str],
                                                 db_path: Path) -> None:
    """Today: it reads until memory runs out (MemoryError). Run with 1 GiB of address
    space and 60 s, so that a regression fails the test, not the machine."""
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    completed = subprocess.run([str(score_exe), "import", "--again", "/dev/zero"], env=score_env,
                               capture_output=True, text=True, timeout=60 * SCALE,
                               preexec_fn=limit_memory if sys.platform != "win32" else None)
    assert completed.returncode == 1, completed
    assert completed.stderr.startswith("error: /dev/zero is larger than 64 MiB")
    assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
    assert not db_path.exists()


def test_stdin_is_capped_too(stored: bytes, refuse: Refuse,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    class Endless:
        def read(self, size: int = -1) -> bytes:
            assert size > 0, "an import must never read stdin without a limit"
            return b" " * size

    class Stdin:
        buffer = Endless()

    monkeypatch.setattr(sys, "stdin", Stdin())
    refuse("import", "--again", "-", says="stdin is larger than 64 MiB")


# --------------------------------------------------------------------------- wrong types


def set_path(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


WRONG_TYPES = [
    (("virtual", "seats", 0, "bot"), ["random"]),   # today: TypeError (unhashable list)
    (("virtual", "seats", 0, "bot"), {"level": "random"}),
    (("virtual", "seats", 0), "Random-1"),
    (("name",), ["Friday"]),
    (("created",), 20261127),
    (("version",), True),
    (("players",), "Random-1"),
    (("options", "limit"), [100]),
    (("rounds", 0, "dealer"), ["Random-1"]),
    (("rounds", 0, "totals"), [["Random-1", 3]]),
    (("rounds", 0, "deal"), ["AH"]),
    (("rounds", 0, "actions", 0), ["Random-2", "declare"]),
]


@pytest.mark.parametrize("path, value", WRONG_TYPES, ids=lambda v: str(v)[:40])
def test_a_part_of_the_wrong_type_is_refused_in_one_line(
        ok: CLI, refuse: Refuse, tmp_path: Path, path: tuple[Any, ...], value: Any) -> None:
    data = played_once(ok)
    set_path(data, path, value)
    refuse("import", "--again", write(tmp_path, data))


_PLAYED: dict[str, Any] = {}


def played_once(ok: CLI) -> dict[str, Any]:
    """One real game per test run (play takes a moment), copied for each test."""
    if "least-score" not in _PLAYED:
        _PLAYED["least-score"] = played(ok)
    else:
        ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    return copy.deepcopy(_PLAYED["least-score"])


# --------------------------------------------------------------------------- replay gaps


def test_a_deal_seated_in_another_order_than_the_session_is_refused(
        ok: CLI, refuse: Refuse, tmp_path: Path) -> None:
    """Today it is accepted: the deal's hands say the seating, and so who acts first."""
    data = without_results(played(ok))
    del data["rounds"][1:]  # one deal: the dealer rotation says nothing about seating
    players = data["players"]
    dealer = data["rounds"][0]["deal"]["dealer"]
    reseated = [dealer] + [name for name in reversed(players) if name != dealer]
    assert reseated != players
    data["players"] = reseated
    data["virtual"]["seats"] = [{"name": name, "bot": "random"} for name in reseated]
    data["first_dealer"] = dealer
    refuse("import", "--again", write(tmp_path, data), says=("round 1", "seated"))
    data["players"] = players
    data["virtual"]["seats"] = [{"name": name, "bot": "random"} for name in players]
    assert "Imported" in ok("import", "--again", write(tmp_path, data, "as-dealt.json")).stdout


def test_a_one_card_deal_seated_in_another_order_is_refused(ok: CLI, refuse: Refuse,
                                                            tmp_path: Path) -> None:
    data = without_results(played(ok, "one-card", seed=2))
    del data["rounds"][1:]
    hands = data["rounds"][0]["deal"]["hands"]
    names = list(hands)
    reseated = [names[0], names[2], names[1]]
    data["players"] = reseated
    data["virtual"]["seats"] = [{"name": name, "bot": "random"} for name in reseated]
    data["first_dealer"] = data["rounds"][0]["deal"]["dealer"]
    refuse("import", "--again", write(tmp_path, data), says=("round 1", "seated"))


def test_deals_out_of_the_dealer_rotation_are_refused_without_a_first_dealer(
        ok: CLI, refuse: Refuse, tmp_path: Path) -> None:
    """Today a file without first_dealer (and no dealer in its rounds) skips the rotation."""
    data = without_results(played(ok))
    rounds = data["rounds"]
    assert rounds[0]["deal"]["dealer"] != rounds[1]["deal"]["dealer"]
    rounds[0], rounds[1] = rounds[1], rounds[0]
    del rounds[2:]
    data["first_dealer"] = None
    for round_ in rounds:
        round_["dealer"] = None
    refuse("import", "--again", write(tmp_path, data), says=("round 2", "dealt"))


def test_a_virtual_session_needs_a_first_dealer(ok: CLI, refuse: Refuse,
                                                tmp_path: Path) -> None:
    data = without_results(played(ok))
    del data["rounds"][:]
    data["first_dealer"] = None
    refuse("import", "--again", write(tmp_path, data), says="first_dealer")


def test_the_first_dealer_is_taken_from_the_first_deal_when_the_file_omits_it(
        ok: CLI, tmp_path: Path) -> None:
    data = played(ok)
    first = data["rounds"][0]["deal"]["dealer"]
    del data["first_dealer"]
    for round_ in data["rounds"]:
        round_["dealer"] = None
    ok("import", "--again", write(tmp_path, data))
    imported = json.loads(ok("export", "--format", "json").stdout)
    assert imported["first_dealer"] == first
    assert [r["dealer"] for r in imported["rounds"]] == \
        [r["deal"]["dealer"] for r in data["rounds"]]


def test_a_round_of_a_virtual_session_without_its_deal_is_refused(ok: CLI, refuse: Refuse,
                                                                  tmp_path: Path) -> None:
    data = played(ok)
    last = data["rounds"][-1]
    del last["deal"], last["actions"]
    refuse("import", "--again", write(tmp_path, data), says=(f"round {last['number']}", "'deal'"))


def reshuffle_of(data: dict[str, Any]) -> list[str]:
    """A reshuffle record with one card twice (any two cards of the first deal)."""
    card = data["rounds"][0]["deal"]["deck"][0]
    return [card, card]


@pytest.mark.parametrize("extra", [
    lambda data: {"reshuffle": reshuffle_of(data)},
    lambda data: {"reshuffle": list(data["rounds"][0]["deal"]["deck"])},
    lambda data: {"reshuffle": []},
    lambda data: {"player": data["rounds"][0]["actions"][-1]["player"], "declare": True},
])
def test_a_least_score_record_that_goes_on_after_the_declaration_is_refused(
        ok: CLI, refuse: Refuse, tmp_path: Path,
        extra: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Today a reshuffle after the declaration (even with one card twice) is accepted."""
    data = played(ok)
    actions = data["rounds"][0]["actions"]
    assert actions[-1].get("declare") is True
    actions.append(extra(data))
    refuse("import", "--again", write(tmp_path, data), says="round 1")


def test_an_import_keeps_each_deal_as_it_replays_not_as_the_file_adds_to_it(
        ok: CLI, tmp_path: Path) -> None:
    data = played(ok)
    original = copy.deepcopy(data)
    data["rounds"][0]["deal"]["note"] = "\x1b]0;pwned\x07"
    data["rounds"][0]["actions"][0]["note"] = [[[["deep"]]]]
    result = ok("import", "--again", write(tmp_path, data))
    assert ESCAPE not in result.output
    imported = json.loads(ok("export", "--format", "json").stdout)
    assert imported["rounds"] == original["rounds"]


# --------------------------------------------------------------------------- any change


def _summaries() -> list[dict[str, Any]]:
    out = []
    for game in ("least-score", "one-card"):
        seats = [match.Seat(f"P{i}", level) for i, level in
                 enumerate(("random", "greedy", "random"))]
        session = match.start_game(game, seats, 7)
        for _ in range(2):
            session = match.play_deal(session)
        out.append(summary_of(session))
    table = Session.new("least-score", ["Ann", "Bob"], dealer="Ann")
    from scorekeeper.kit.entries import RoundEntry

    table = table.add_round(RoundEntry(values=(("Ann", "AH,2S"), ("Bob", "9")),
                                       declarer="Ann"))
    out.append(summary_of(table))
    return out


SUMMARIES = _summaries()

HOSTILE = st.sampled_from([None, True, 0, -1, 10**30, 1.5, "", "x", "\x1b[2J", "AH", "JK",
                           "P1", "deck", [], {}, [[]], {"a": 1}, ["AH"], [1], ["P1"],
                           {"P1": 1}, {"P1": "AH"}])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


PATHS = [(number, path) for number, summary in enumerate(SUMMARIES)
         for path in _paths(summary) if "deck" not in path[:-1]]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), HOSTILE, st.booleans()),
                        min_size=1, max_size=3))
def test_any_change_to_a_summary_is_imported_or_refused_never_a_crash(
        changes: list[tuple[tuple[int, tuple[Any, ...]], Any, bool]]) -> None:
    number = changes[0][0][0]
    data = copy.deepcopy(SUMMARIES[number])
    for (which, path), value, delete in changes:
        if which != number:
            continue
        parent: Any = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if delete:
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced the way there
    try:
        session_from_summary(data)
    except EntryError as refused:
        assert "\n" not in str(refused)


def test_the_import_cap_is_in_the_readme() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(
        encoding="utf-8")
    data_section = readme[readme.index("## Your data"):]
    assert "64 MiB" in data_section[:data_section.index("\n## ", 5)]
