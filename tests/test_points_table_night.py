"""Points and Hearts at a terminal (each answer checked as it is typed), on the phone
pages of ``score serve``, and with the group's config defaults."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pexpect
import pytest
from conftest import CLI, Refuse
from deadlines import SCALE
from serving import start_serve
from terminal import finish, spawn_score

FOUR = ("--player", "Ann", "--player", "Bob", "--player", "Cy", "--player", "Dan")


@pytest.fixture
def at_terminal(score_exe: Path, db_path: Path) -> Any:
    def spawn(*args: str) -> pexpect.spawn:
        return spawn_score(score_exe, db_path, list(args))
    return spawn


def answer(child: pexpect.spawn, question: str, typed: str) -> str:
    child.expect_exact(question)
    before = str(child.before)
    child.sendline(typed)
    return before


@pytest.mark.e2e
def test_hearts_asks_each_players_points_checked_as_typed(ok: CLI, at_terminal: Any,
                                                          summary: Any) -> None:
    ok("new", "hearts", *FOUR, "--dealer", "Ann")
    child = at_terminal("add-round", "Ann=13")
    answer(child, "Bob's points: ", "26")
    said = answer(child, "Bob's points: ", "-1")
    assert "Bob took all 26: that is shooting the moon" in said
    said = answer(child, "Bob's points: ", "5")
    assert "Bob's -1 is impossible: a player takes 0 to 25 points" in said
    answer(child, "Cy's points: ", "8")
    answer(child, "Dan's points: ", "0")
    code, output = finish(child)
    assert code == 0 and "Round 1 recorded: Ann +13, Bob +5, Cy +8, Dan +0" in output
    assert summary()["rounds"][0]["points"] == {"Ann": 13, "Bob": 5, "Cy": 8, "Dan": 0}


@pytest.mark.e2e
def test_a_moon_with_the_jack_asks_who_took_it(ok: CLI, at_terminal: Any,
                                               summary: Any) -> None:
    ok("new", "hearts", *FOUR, "--dealer", "Ann", "--jack-of-diamonds", "on")
    child = at_terminal("add-round", "--moon", "Cy")
    answer(child, "Who took the J♦? (Ann, Bob, Cy, Dan): ", "zed")
    said = answer(child, "Who took the J♦? (Ann, Bob, Cy, Dan): ", "b")
    assert "there is no player called 'zed'" in said
    code, output = finish(child)
    assert code == 0 and "Ann +26, Bob +16, Cy +0, Dan +26" in output
    assert summary()["rounds"][0]["jack"] == "Bob"


@pytest.mark.e2e
def test_points_edit_round_offers_what_the_deal_holds(ok: CLI, at_terminal: Any,
                                                      summary: Any) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--sum", "0", "--dealer", "Ann")
    ok("add-round", "Ann=7", "Bob=-7")
    child = at_terminal("edit-round", "1", "Ann=9")
    said = answer(child, "Bob's points [-7]: ", "")
    assert "Round 1 is now" in said
    code, output = finish(child)
    assert code == 1 and "add up to 2, not 0" in output
    assert summary()["rounds"][0]["points"] == {"Ann": 7, "Bob": -7}


@pytest.mark.e2e
def test_the_phone_page_shows_a_hearts_session(score_exe: Path, score_env: dict[str, str],
                                               ok: CLI) -> None:
    ok("new", "hearts", *FOUR, "--dealer", "Ann")
    ok("add-round", "--moon", "Bob")
    served = start_serve(score_exe, score_env)
    try:
        url = urlsplit(served.url)
        connection = http.client.HTTPConnection(url.netloc, timeout=10 * SCALE)
        connection.request("GET", url.path + "session/1")
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        connection.close()
        assert response.status == 200, body
        assert "Hearts" in body and "Bob: moon" in body and "<svg" in body
    finally:
        code, _out, err = served.stop()
    assert (code, err) == (0, "")


def test_the_groups_config_sets_hearts_and_points_defaults(ok: CLI, refuse: Refuse) -> None:
    ok("config", "set", "hearts.moon-rule", "minus")
    ok("config", "set", "points.sum", "0")
    refuse("config", "set", "hearts.moon-rule", "half", says="--moon-rule must be add or minus")
    ok("new", "hearts", *FOUR)
    assert json.loads(ok("show", "--json").stdout)["options"]["moon_rule"] == "minus"
    ok("new", "points", "--player", "Ann", "--player", "Bob")
    assert json.loads(ok("show", "--json").stdout)["options"]["sum"] == 0
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--sum", "5")
    assert json.loads(ok("show", "--json").stdout)["options"]["sum"] == 5
