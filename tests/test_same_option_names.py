"""Two plug-ins may use the same option name (issue 38.2): Snap A and Snap B, two test
plug-ins made of High Card (tests/third_game), each with a house rule ``--speed`` of its
own values and a round option ``--speed`` of its own kind (a word in A, a number in B).
Each game's commands take its own: ``score new A --speed fast``, ``score new B --speed
dash``, ``add-round`` on each session, and each help page shows its game's only."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import Result, fake_distribution, games_from

from scorekeeper.kit.options import RoundOption
from scorekeeper.registry import DECLARATIONS, register

THIRD_GAME = Path(__file__).resolve().parent / "third_game"

SNAP_GAMES = '''\
"""Snap A and Snap B: High Card with a house rule and a round option called speed."""

from dataclasses import replace
from typing import Any

from high_card.game import GAME as HIGH_CARD
from high_card.table import HighCardTable
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.options import HouseRuleOption, RoundOption


class SnapTable(HighCardTable):
    speeds: tuple[str, ...] = ()

    def default_options(self) -> dict[str, Any]:
        return {"wins": 3, "speed": self.speeds[0]}

    def check_options(self, options: Any) -> dict[str, Any]:
        speed = options.get("speed", self.speeds[0])
        if speed not in self.speeds:
            raise EntryError(f"{self.title} has no speed {speed}: {', '.join(self.speeds)}")
        rest = {key: value for key, value in options.items() if key != "speed"}
        return {**super().check_options(rest), "speed": speed}

    def parse_options(self, options: Any) -> Any:
        """High Card's own options; the speed is checked by :meth:`check_options`."""
        return super().parse_options({key: value for key, value in options.items()
                                      if key != "speed"})

    def make_round(self, players: Any, options: Any, standings: Any, entry: Any) -> Any:
        self.check_speed(entry)
        return super().make_round(players, options, standings, entry)


class SnapATable(SnapTable):
    name, title, speeds = "snap-a", "Snap A", ("slow", "fast")

    def check_speed(self, entry: Any) -> None:
        if entry.text("speed") not in ("slow", "fast"):
            raise EntryError("a Snap A round is played slow or fast: --speed slow|fast")


class SnapBTable(SnapTable):
    name, title, speeds = "snap-b", "Snap B", ("crawl", "dash")

    def check_speed(self, entry: Any) -> None:
        if entry.number("speed") is None:
            raise EntryError("a Snap B round says its speed in seconds: --speed N")


SNAP_A = replace(
    HIGH_CARD, table=SnapATable(), name="snap-a", title="Snap A",
    house_rules=(*HIGH_CARD.house_rules,
                 HouseRuleOption("speed", "slow", "Snap A's pace: slow or fast.",
                                 ("slow", "fast"))),
    round_options=(*HIGH_CARD.round_options,
                   RoundOption("speed", "text", "the round's pace in Snap A.")))
SNAP_B = replace(
    HIGH_CARD, table=SnapBTable(), name="snap-b", title="Snap B",
    house_rules=(*HIGH_CARD.house_rules,
                 HouseRuleOption("speed", "crawl", "Snap B's pace: crawl or dash.",
                                 ("crawl", "dash"))),
    round_options=(*HIGH_CARD.round_options,
                   RoundOption("speed", "number", "the round's seconds in Snap B.")))
'''


def test_two_games_register_a_round_option_of_the_same_name_and_other_kinds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(THIRD_GAME))
    from high_card.game import GAME as HIGH_CARD
    from high_card.table import HighCardTable

    class OtherTable(HighCardTable):
        name, title = "other-card", "Other Card"

    other = replace(HIGH_CARD, table=OtherTable(), name="other-card", title="Other Card",
                    round_options=(RoundOption("bid", "name", "a bid as a name"),))
    monkeypatch.setitem(DECLARATIONS, "other-card", other)  # taken away after the test
    del DECLARATIONS["other-card"]  # ... and registered as a plug-in is:
    register(other)  # One Card's --bid is a number: no matter
    assert DECLARATIONS["other-card"] is other
    assert {option.kind for name in ("one-card", "other-card")
            for option in DECLARATIONS[name].round_options if option.key == "bid"} \
        == {"number", "name"}


@pytest.mark.e2e
def test_two_plug_ins_with_the_same_option_names(
        score_run: Callable[..., Result], tmp_path: Path) -> None:
    site = tmp_path / "site"
    fake_distribution(site, "snap_a_game", "[scorekeeper.games]\nsnap-a = snap_games:SNAP_A\n")
    fake_distribution(site, "snap_b_game", "[scorekeeper.games]\nsnap-b = snap_games:SNAP_B\n")
    (site / "snap_games.py").write_text(SNAP_GAMES, encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join([str(site), str(THIRD_GAME)]),
           **games_from("snap_a_game", "snap_b_game")}

    def run(*args: str, code: int = 0) -> Result:
        result = score_run(*args, env=env)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.stderr
        return result

    players = ("-p", "Ann", "-p", "Bob", "--dealer", "Ann")
    run("new", "snap-a", *players, "--speed", "fast")
    refused = run("new", "snap-b", *players, "--speed", "fast", code=2)
    assert refused.stderr.count("\n") == 1 and "--speed must be crawl or dash" in refused.stderr
    run("new", "snap-b", *players, "--speed", "dash")
    sessions = {entry["game"]: entry["id"]
                for entry in json.loads(run("sessions", "--json").stdout)["sessions"]}

    a, b = str(sessions["snap-a"]), str(sessions["snap-b"])
    run("add-round", "--session", a, "--caller", "Ann", "--speed", "slow", "Ann=KH", "Bob=2C")
    run("add-round", "--session", b, "--caller", "Bob", "--speed", "12", "Ann=3D", "Bob=QS")
    wrong = run("add-round", "--session", b, "--caller", "Bob", "--speed", "fast",
                "Ann=3D", "Bob=QS", code=2)
    assert "fast" in wrong.stderr and wrong.stderr.count("\n") == 1
    run("add-round", "--session", a, "--caller", "Ann", "--speed", "12", "Ann=3D", "Bob=QS",
        code=1)
    assert json.loads(run("export", a, "--format", "json").stdout)["options"]["speed"] == "fast"
    assert json.loads(run("export", b, "--format", "json").stdout)["options"]["speed"] == "dash"
    assert len(json.loads(run("export", b, "--format", "json").stdout)["rounds"]) == 1

    help_a = run("new", "snap-a", "--help").stdout
    assert "slow|fast" in help_a and "Snap A's pace" in help_a
    assert "crawl" not in help_a and "Snap B" not in help_a
    help_b = run("new", "snap-b", "--help").stdout
    assert "crawl|dash" in help_b and "slow|fast" not in help_b
    round_help = run("add-round", "--session", b, "--help").stdout
    assert "Snap B" in round_help and "Snap A" not in round_help
