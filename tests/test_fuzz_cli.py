"""Fuzzing the command line (hypothesis): whatever is typed, the store stays whole.

Generated `add-round` and `edit-round` command lines (names with typos and case
changes, values negative, huge, not numbers, cards valid and invalid, every round
flag, any round number) run against real Least Score and One Card sessions, in
process through scorekeeper.cli.app.run. Never a traceback; the exit code is 0, 1
or 2; a non-zero exit leaves the store byte-for-byte unchanged; a zero exit leaves
a store that `score doctor` finds healthy.

`score import` of mangled JSON summaries (a real export with keys deleted, types
changed, numbers changed, text truncated) never tracebacks either: refused with
exit 1 and the store unchanged, or accepted with the imported session re-scoring
to the totals the file states.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import STANDARD_DECK
from scorekeeper.cli.app import run
from scorekeeper.doctor import check_file
from scorekeeper.store import Store, backup_paths

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
FUZZ_SETTINGS = settings(
    # every example, in the quick loop too: each test asserts that its examples met
    # every outcome (some are rare: a quarter of the examples missed one)
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class SessionInfo:
    id: int
    game: str
    players: tuple[str, ...]
    still_in: tuple[str, ...]
    rounds: int


SESSIONS = (
    SessionInfo(1, "least-score", ("Ann", "Bob", "Cy", "Dan"), ("Ann", "Bob", "Cy", "Dan"), 3),
    SessionInfo(2, "one-card", ("Ann", "Bob", "Cy"), ("Ann", "Bob", "Cy"), 2),
    SessionInfo(3, "least-score", ("Eve", "Finn", "Gus"), ("Eve", "Finn"), 2),
    SessionInfo(4, "one-card", ("Ann", "Bob"), ("Ann", "Bob"), 1),  # finished
    SessionInfo(5, "one-card", ("Ann", "Bob", "Cy", "Dan"), ("Ann", "Bob", "Cy", "Dan"), 3),
)


def build_template(db: Path) -> None:
    commands = [
        ["new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy", "-p", "Dan",
         "--dealer", "Ann"],
        ["add-round", "--declarer", "Bob", "Ann=7", "Bob=3", "Cy=AH,2S,9D", "Dan=12"],
        ["add-round", "--declarer", "Cy", "Ann=9", "Bob=12", "Cy=4", "Dan=KS,QS"],
        ["add-round", "--declarer", "Ann", "Ann=15", "Bob=30", "Cy=5", "Dan=3"],
        ["new", "one-card", "-p", "Ann", "-p", "Bob", "-p", "Cy", "--dealer", "Cy"],
        ["add-round", "--bidder", "Bob", "--bid", "7", "--trump", "S", "Ann=4", "Bob=8",
         "Cy=3"],
        ["add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5"],
        ["new", "least-score", "-p", "Eve", "-p", "Finn", "-p", "Gus", "--limit", "25"],
        ["add-round", "--declarer", "Eve", "Eve=2", "Finn=4", "Gus=20"],
        ["add-round", "--declarer", "Eve", "Eve=2", "Finn=4", "Gus=10"],  # Gus is out
        ["new", "one-card", "-p", "Ann", "-p", "Bob", "--target", "10"],
        ["add-round", "--no-bid", "Ann=11", "Bob=4"],  # finished
        ["new", "one-card", "-p", "Ann", "-p", "Bob", "-p", "Cy", "-p", "Dan",
         "--joker", "two-of-diamonds", "--dealer", "Dan"],
        ["add-round", "--bidder", "Cy", "--bid", "6", "Ann=2", "Bob=3", "Cy=6", "Dan=4"],
        ["add-round", "--bidder", "Ann", "--bid", "9", "Ann=5", "Bob=3", "Cy=6", "Dan=1"],
        ["add-round", "--no-bid", "Ann=0", "Bob=0", "Cy=15", "Dan=0"],
        ["use", "1"],
    ]
    with contextlib.redirect_stdout(None), contextlib.redirect_stderr(None):
        for argv in commands:
            assert run(["--db", str(db), *argv]) == 0, argv
    view = Store(db).read()
    for info in SESSIONS:
        session = view.get(info.id)
        assert (session.game, session.players, len(session.rounds)) == (
            info.game, info.players, info.rounds)
        assert tuple(session.standings.still_in) == info.still_in
    assert view.get(4).finished and not view.get(3).finished


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    db = tmp_path_factory.mktemp("template") / "store.json"
    build_template(db)
    assert check_file(db).good
    return db.read_bytes()


@dataclass
class Workspace:
    """One store file, reset to the template before every example."""

    folder: Path
    template: bytes
    outcomes: dict[str, int] = field(default_factory=dict)

    @property
    def db(self) -> Path:
        return self.folder / "store.json"

    def reset(self) -> None:
        for path in self.folder.iterdir():
            if path.is_file():
                path.unlink()
        self.db.write_bytes(self.template)

    def files(self) -> dict[str, bytes]:
        return {path.name: path.read_bytes() for path in sorted(self.folder.iterdir())
                if path.is_file() and not path.name.endswith(".lock")
                and path.name != "input.json"}

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


@pytest.fixture
def workspace(tmp_path: Path, template: bytes) -> Iterator[Workspace]:
    yield Workspace(tmp_path, template)


def run_checked(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = run(argv)  # an exception here is a traceback for the user: the test fails
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (code, argv, err)
    assert "Traceback" not in out + err
    if code == 1:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, err)
    elif code == 2:
        assert err.strip(), argv  # a usage message
    return code, out, err


# ---------------------------------------------------------------------------
# Strategies for a round's command line

JUNK_VALUES = ["", " ", "x", "²", "٣", "+-5", "--5", "1_000", "7.5", "1e3", "0", "-0", "+7",
               " 8 ", "-3", "NaN", "inf", "9" * 40, "9" * 5000, "AH,", ",", "JK", "2D,JK",
               "ah 3s", "10h,10H", "T♥,Q♠", "1H", "ZZ", "11S", "10X", "AHH", "A", "S",
               "KS,QS,JS,10S,9S,8S", "\x00", "Ann=3"]
FLAG_JUNK = ["", " ", "x", "Nobody", "-1", "0", "S", "♠", "h", "trump", "é", "None"]
deck = [str(card) for card in STANDARD_DECK]


def typo(name: str, data: st.DataObject) -> str:
    kind = data.draw(st.sampled_from(["drop", "add", "swap", "case", "pad"]))
    i = data.draw(st.integers(0, len(name) - 1))
    if kind == "drop":
        return name[:i] + name[i + 1:] or "x"
    if kind == "add":
        return name[:i] + data.draw(st.sampled_from("aeiouxnN")) + name[i:]
    if kind == "swap" and len(name) > 1:
        j = (i + 1) % len(name)
        chars = list(name)
        chars[i], chars[j] = chars[j], chars[i]
        return "".join(chars)
    if kind == "pad":
        return f"  {name} "
    return data.draw(st.sampled_from([name.lower(), name.upper(), name.swapcase()]))


def a_name(players: tuple[str, ...], data: st.DataObject) -> str:
    name = data.draw(st.sampled_from(players))
    how = data.draw(st.sampled_from(["exact", "exact", "case", "typo", "other", "text"]))
    if how == "exact":
        return name
    if how == "case":
        return data.draw(st.sampled_from([name.lower(), name.upper(), name.swapcase()]))
    if how == "typo":
        return typo(name, data)
    if how == "other":
        return data.draw(st.sampled_from(["Zed", "Gus", "Eve", "Dan", "Cy", "Ann Bob", "A"]))
    return data.draw(st.text(min_size=1, max_size=6))


def cards_text(data: st.DataObject) -> str:
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=1, max_size=6, unique=True))
    style = data.draw(st.sampled_from([",", ", ", " ", ",lower"]))
    if style == ",lower":
        return ",".join(card.lower() for card in cards)
    return style.join(cards)


def a_value(game: str, data: st.DataObject) -> str:
    kind = data.draw(st.sampled_from(["plausible", "plausible", "int", "huge", "junk",
                                      "cards", "text"]))
    if kind == "plausible":
        top = 50 if game == "least-score" else 15
        return str(data.draw(st.integers(0 if game == "one-card" else 1, top)))
    if kind == "int":
        return str(data.draw(st.integers(-1000, 1000)))
    if kind == "huge":
        return str(data.draw(st.integers(-(10**30), 10**30)))
    if kind == "junk":
        return data.draw(st.sampled_from(JUNK_VALUES))
    if kind == "cards":
        return cards_text(data)
    return data.draw(st.text(max_size=8))


def plausible_round(info: SessionInfo, data: st.DataObject) -> list[str]:
    """A round that the rules may well accept (so that the writes get exercised too)."""
    if info.game == "least-score":
        args = ["--declarer", data.draw(st.sampled_from(info.still_in))]
        shuffled = data.draw(st.permutations(deck))  # hands from one deck: no repeats
        for seat, name in enumerate(info.still_in):
            if data.draw(st.integers(0, 3)) == 0:
                size = data.draw(st.integers(1, 5))
                value = ",".join(shuffled[5 * seat: 5 * seat + size])
            else:
                value = str(data.draw(st.integers(1, 30)))
            if data.draw(st.integers(0, 9)) == 0:
                name = a_name(info.players, data)  # now and then a typo or another name
            args.append(f"{name}={value}")
        return args
    cuts = sorted(data.draw(st.lists(st.integers(0, 15), min_size=len(info.players) - 1,
                                     max_size=len(info.players) - 1)))
    points = [b - a for a, b in zip([0, *cuts], [*cuts, 15], strict=True)]
    if data.draw(st.booleans()):
        args = ["--no-bid"]
    else:
        args = ["--bidder", data.draw(st.sampled_from(info.players)),
                "--bid", str(data.draw(st.integers(5, 16)))]
        if data.draw(st.booleans()):
            args += ["--trump", data.draw(st.sampled_from(["S", "h", "♦", "C", "X"]))]
    return args + [f"{name}={value}" for name, value in zip(info.players, points, strict=True)]


def random_round(info: SessionInfo, data: st.DataObject) -> list[str]:
    players = info.players
    flags: list[str] = []
    if data.draw(st.booleans()):
        flags += ["--declarer", a_name(players, data)]
    if data.draw(st.booleans()):
        flags += ["--bidder", a_name(players, data)]
    if data.draw(st.booleans()):
        flags += ["--bid", data.draw(st.one_of(st.integers(-5, 30).map(str),
                                               st.sampled_from(FLAG_JUNK)))]
    if data.draw(st.booleans()):
        flags.append("--no-bid")
    if data.draw(st.booleans()):
        flags += ["--trump", data.draw(st.sampled_from(["S", "H", "D", "C", "♠", *FLAG_JUNK]))]
    count = data.draw(st.integers(0, len(players) + 1))
    values = [f"{a_name(players, data)}={a_value(info.game, data)}" for _ in range(count)]
    if data.draw(st.integers(0, 9)) == 0:
        values.append(data.draw(st.sampled_from(["Ann", "=3", "Ann=", "Ann==3", "-x"])))
    return flags + values if data.draw(st.booleans()) else values + flags


@st.composite
def round_command(draw: st.DrawFn) -> tuple[list[str], SessionInfo, str]:
    data = draw(st.data())
    info = draw(st.sampled_from(SESSIONS))
    command = draw(st.sampled_from(["add-round", "edit-round"]))
    args = [command]
    if command == "edit-round":
        pick = draw(st.integers(0, 9))
        if pick < 7:
            number: int | str = draw(st.integers(1, info.rounds))
        elif pick < 9:
            number = draw(st.integers(-2, 6))
        else:
            number = draw(st.sampled_from(["x", "1.5", ""]))
        args.append(str(number))
    session_choice = draw(st.sampled_from(["option"] * 5 + ["current"] * 2 + ["other"]))
    if session_choice == "option":
        args += ["--session", str(info.id)]
    elif session_choice == "other":
        args += ["--session", draw(st.sampled_from(["9", "0", "-1", "x", "1.0"]))]
        info = SESSIONS[0]
    else:
        info = SESSIONS[0]  # the current session
    plausible = draw(st.integers(0, 2)) > 0
    body = plausible_round(info, data) if plausible else random_round(info, data)
    return [*args, *body], info, command


def test_fuzz_add_round_and_edit_round(workspace: Workspace,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    @FUZZ_SETTINGS
    @given(round_command())
    def check(case: tuple[list[str], SessionInfo, str]) -> None:
        argv, info, command = case
        workspace.reset()
        before = workspace.files()
        code, _, err = run_checked(["--db", str(workspace.db), *argv], capsys)
        if code != 0:
            workspace.count(f"refused {code}")
            assert workspace.files() == before, (argv, err)  # byte for byte, no backup
            return
        workspace.count(f"{command} accepted")
        health = check_file(workspace.db)
        assert health.good, (argv, health.problems)
        old = json.loads(workspace.template)["sessions"]
        new = json.loads(workspace.db.read_text(encoding="utf-8"))["sessions"]
        assert set(new) == set(old)
        changed = [key for key in old if old[key] != new[key]]
        assert changed == [str(info.id)], (argv, changed)
        session = Store(workspace.db).read().get(info.id)
        expected = info.rounds + (1 if command == "add-round" else 0)
        assert len(session.rounds) == expected
        assert session.history[-1]["change"] == command
        assert backup_paths(workspace.db)[0].read_bytes() == workspace.template

    check()
    print("\nadd-round/edit-round fuzz:", workspace.outcomes)
    # the examples exercised both the refusals and the writes
    assert workspace.outcomes.get("add-round accepted", 0) > 0
    assert workspace.outcomes.get("edit-round accepted", 0) > 0
    assert workspace.outcomes.get("refused 1", 0) > 0
    assert workspace.outcomes.get("refused 2", 0) > 0


# ---------------------------------------------------------------------------
# Importing mangled summaries

Path_ = tuple[Any, ...]


def paths_in(value: Any, prefix: Path_ = ()) -> list[Path_]:
    found: list[Path_] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((*prefix, key))
            found.extend(paths_in(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((*prefix, index))
            found.extend(paths_in(item, (*prefix, index)))
    return found


def parent_of(document: Any, path: Path_) -> Any:
    for step in path[:-1]:
        document = document[step]
    return document


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5)
    | st.sampled_from(["Ann", "Bob", "Cy", "Dan", "S", "JK", "10H", "AH", "least-score",
                       "one-card", "finished", "in-progress", "table", "virtual"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["Ann", "Bob", "x", "number", "totals"]), children,
                      max_size=3),
    max_leaves=6,
)


@st.composite
def mangled_summary(draw: st.DrawFn, seeds: list[dict[str, Any]]) -> tuple[str, Any]:
    document = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(0, 3))):
        paths = paths_in(document)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = parent_of(document, path)
        key = path[-1]
        action = draw(st.sampled_from(["delete", "replace", "bump", "bump", "swap"]))
        if action == "delete":
            del parent[key]
        elif action == "replace":
            parent[key] = draw(json_values)
        elif action == "bump":
            value = parent[key]
            if isinstance(value, int) and not isinstance(value, bool):
                parent[key] = value + draw(st.sampled_from([-10, -1, 1, 2, 10**9]))
            elif isinstance(value, str):
                parent[key] = draw(st.sampled_from([value.lower(), value.upper(), value + "x",
                                                    value[:-1], str(len(value))]))
        else:  # another type for the same content
            value = parent[key]
            parent[key] = draw(st.sampled_from([
                str(value), [value], {"value": value}, json.dumps(value),
                float(value) if isinstance(value, int) and abs(value) < 10**15 else None,
            ]))
    text = json.dumps(document, ensure_ascii=draw(st.booleans()),
                      indent=draw(st.sampled_from([None, 2])))
    if draw(st.integers(0, 5)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text, document


def export_seeds(db: Path) -> list[dict[str, Any]]:
    seeds = [json.loads(path.read_text(encoding="utf-8"))
             for path in sorted(SAMPLES.glob("*.json"))]
    for info in SESSIONS:
        buffer = json.loads(_capture(["--db", str(db), "export", str(info.id), "--format",
                                      "json"]))
        seeds.append(buffer)
    # Virtual games (every deal with its cards and actions, replayed on import), played
    # by bots in a store of their own.
    virtual = db.with_name("virtual.json")
    games = (["least-score", "--bot", "random", "--bot", "greedy", "--seed", "3"],
             ["one-card", "--bot", "random", "--bot", "greedy", "--bot", "random",
              "--seed", "4"])
    for number, game in enumerate(games, start=1):
        _capture(["--db", str(virtual), "play", *game])
        seeds.append(json.loads(_capture(["--db", str(virtual), "export", str(number),
                                          "--format", "json"])))
        assert seeds[-1]["mode"] == "virtual"
    virtual.unlink()
    for path in db.parent.glob("virtual.json.*"):
        path.unlink()
    return seeds


def _capture(argv: list[str]) -> str:
    import io

    stream = io.StringIO()
    with contextlib.redirect_stdout(stream):
        assert run(argv) == 0
    return stream.getvalue()


def test_fuzz_import_of_mangled_summaries(workspace: Workspace,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    workspace.reset()
    seeds = export_seeds(workspace.db)
    source = workspace.folder / "input.json"

    @settings(FUZZ_SETTINGS, max_examples=200)
    @given(mangled_summary(seeds))
    def check(case: tuple[str, Any]) -> None:
        text, document = case
        workspace.reset()
        source.write_text(text, encoding="utf-8")
        before = workspace.files()
        code, _, err = run_checked(["--db", str(workspace.db), "import", str(source)], capsys)
        assert code in (0, 1), err
        if code == 1:
            workspace.count("refused")
            assert workspace.files() == before, err
            return
        workspace.count("accepted")
        data = json.loads(text)  # it was accepted, so it is whole JSON
        assert check_file(workspace.db).good
        view = Store(workspace.db).read()
        assert view.session_ids() == [*range(1, len(SESSIONS) + 2)]
        session = view.get(len(SESSIONS) + 1)
        assert view.current_id == session.id
        standings = session.standings
        assert len(standings.rounds) == len(data["rounds"])
        if "totals" in data:
            assert standings.totals == data["totals"]
        for key, value in (("status", session.status), ("winners", standings.winners),
                           ("knocked_out", standings.knocked_out)):
            if key in data:
                assert value == data[key]
        for given_round, computed in zip(data["rounds"], standings.rounds, strict=True):
            if "scores" in given_round:
                assert computed.scores == given_round["scores"]
        # and every other session is untouched
        old = json.loads(workspace.template)["sessions"]
        new = json.loads(workspace.db.read_text(encoding="utf-8"))["sessions"]
        assert {key: new[key] for key in old} == old
        assert document is not None

    check()
    print("\nimport fuzz:", workspace.outcomes)
    assert workspace.outcomes.get("accepted", 0) > 0
    assert workspace.outcomes.get("refused", 0) > 0


# ---------------------------------------------------------------------------
# What the fuzzing found (each was a traceback, or a refusal on more than one line)

FOUND_ROUNDS = [
    ["add-round", "-s", "1", "--declarer", "Ann", "Ann=²", "Bob=3", "Cy=4", "Dan=5"],
    ["add-round", "-s", "1", "--declarer", "Ann", "Ann=+-5", "Bob=3", "Cy=4", "Dan=5"],
    ["add-round", "-s", "1", "--declarer", "Ann", "Ann=" + "9" * 5000, "Bob=3", "Cy=4",
     "Dan=5"],
    ["add-round", "-s", "2", "--no-bid", "Ann=²", "Bob=5", "Cy=5"],
    ["add-round", "-s", "2", "--no-bid", "Ann=--5", "Bob=5", "Cy=5"],
    ["add-round", "-s", "2", "--no-bid", "Ann=" + "1" * 5000, "Bob=5", "Cy=5"],
    ["edit-round", "1", "-s", "1", "--declarer", "Ann", "Ann=1\n2", "Bob=3", "Cy=4",
     "Dan=5"],
]


@pytest.mark.parametrize("argv", FOUND_ROUNDS)
def test_rounds_found_by_fuzzing_are_refused_cleanly(
    workspace: Workspace, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    workspace.reset()
    before = workspace.files()
    code, _, _ = run_checked(["--db", str(workspace.db), *argv], capsys)
    assert code == 1
    assert workspace.files() == before


def _summary_change(seed: int, change: Any) -> Any:
    document = json.loads((SAMPLES / ("least-score-night.json", "one-card-game.json")[seed])
                          .read_text(encoding="utf-8"))
    change(document)
    return document


FOUND_SUMMARIES = {
    "options as a string": (0, lambda d: d.update(options="ab")),
    "a round's totals as a string": (0, lambda d: d["rounds"][0].update(totals="ab")),
    "cards that are numbers": (0, lambda d: d["rounds"][0]["hands"].update(Ann=[1, 2])),
    "hands as a list": (0, lambda d: d["rounds"][0].update(hands=["AS", "KD"])),
    "a trump that is a list": (1, lambda d: d["rounds"][0].update(trump=["S"])),
    "a trump that is an object": (1, lambda d: d["rounds"][0].update(trump={"S": 1})),
    "a line break in a total": (0, lambda d: d["rounds"][0]["totals"].update(Ann="\r\n")),
    "a line break in a name": (0, lambda d: d["players"].__setitem__(0, "Ann\nBob")),
    "an escape code in a name": (1, lambda d: d["players"].__setitem__(0, "\x1b[31mAnn")),
    "a limit in superscript": (0, lambda d: d["options"].update(limit="¹⁰⁰")),
    "a target far too large to read": (1, lambda d: d["options"].update(target="9" * 5000)),
}


@pytest.mark.parametrize("case", FOUND_SUMMARIES)
def test_summaries_found_by_fuzzing_are_refused_cleanly(
    workspace: Workspace, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace.reset()
    seed, change = FOUND_SUMMARIES[case]
    source = workspace.folder / "input.json"
    source.write_text(json.dumps(_summary_change(seed, change)), encoding="utf-8")
    before = workspace.files()
    code, _, err = run_checked(["--db", str(workspace.db), "import", str(source)], capsys)
    assert code == 1, err
    assert "\x1b" not in err
    assert workspace.files() == before
