"""Yaniv (issue 30 point 3), a variant of Least Score in its own folder: the rules' own
examples, the engine's call threshold, property tests of the table's checks, a corpus of
bad entries each refused in one line with the store unchanged, and the whole table
through the real ``score`` (new, add-round, show, undo/redo, edit-round, every export
and its re-import, stats, --json, --lang da/ar, play, simulate)."""

from __future__ import annotations

import csv
import http.client
import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import CLI, Refuse, Result, players_args
from deadlines import SCALE
from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import parse_cards
from scorekeeper.errors import IllegalAction
from scorekeeper.games.least_score import rules as least_rules
from scorekeeper.games.least_score.engine import Deal, Declare
from scorekeeper.games.least_score.rules import Options, Scoring, Tie, new_total
from scorekeeper.games.yaniv.rules import YanivOptions
from scorekeeper.games.yaniv.table import YanivTable

Run = Callable[..., Result]
NAMES = ("Ann", "Bob", "Cy")


# ---------------------------------------------------------------------------
# The rules' own examples (rules/en.md)


def _yaniv_scores(totals: dict[str, int], caller: str,
                  options: Options | None = None) -> dict[str, int]:
    return least_rules.score_declaration(totals, caller, options or YanivOptions()).scores


def test_the_rules_examples() -> None:
    assert _yaniv_scores({"Ann": 5, "Bob": 16, "Cy": 9}, "Ann") == {"Ann": 0, "Bob": 16, "Cy": 9}
    assert _yaniv_scores({"Ann": 5, "Bob": 16, "Cy": 4}, "Ann") == {"Ann": 35, "Bob": 16, "Cy": 0}
    # a tie is Assaf by default, a good call with --tie declarer-wins
    assert _yaniv_scores({"Ann": 5, "Bob": 5}, "Ann") == {"Ann": 35, "Bob": 0}
    assert _yaniv_scores({"Ann": 5, "Bob": 5}, "Ann", YanivOptions(tie=Tie.DECLARER_WINS)) \
        == {"Ann": 0, "Bob": 5}
    assert _yaniv_scores({"Ann": 5, "Bob": 16, "Cy": 4}, "Ann", YanivOptions(penalty=25)) \
        == {"Ann": 30, "Bob": 16, "Cy": 0}


def test_halving_lands_exactly_on_a_multiple_within_the_limit() -> None:
    yaniv = YanivOptions()
    assert [new_total(90, 10, yaniv), new_total(190, 10, yaniv), new_total(40, 10, yaniv)] \
        == [50, 100, 25]
    assert new_total(95, 10, yaniv) == 105
    assert new_total(100, 0, yaniv) == 100  # no points, no landing
    assert new_total(240, 10, yaniv) == 250  # over the limit: out, not halved
    assert new_total(90, 10, YanivOptions(halving=0)) == 100
    assert new_total(90, 10, YanivOptions(halving=25)) == 50
    assert new_total(90, 10, Options()) == 100  # Least Score never halves


def test_least_score_keeps_its_own_options_and_scoring() -> None:
    assert Options().as_dict() == {"limit": 100, "tie": "declarer-wins",
                                   "end": "last-standing", "two_pairs": "same-rank"}
    assert Options().scoring is Scoring.DIFFERENCE and Options().declare_at == 50
    assert least_rules.score_declaration({"A": 10, "B": 8, "C": 15}, "A", Options()).scores \
        == {"A": 22, "B": 0, "C": 0}
    assert set(YanivOptions().as_dict()) == {"limit", "tie", "end", "two_pairs", "declare_at",
                                             "penalty", "halving", "jokers"}


@given(st.dictionaries(st.sampled_from(NAMES), st.integers(1, 50), min_size=2),
       st.integers(0, 60), st.sampled_from(list(Tie)))
def test_yaniv_scoring_by_its_definition(totals: dict[str, int], penalty: int,
                                          tie: Tie) -> None:
    caller = sorted(totals)[0]
    options = YanivOptions(penalty=min(penalty, 100), tie=tie)
    scores = _yaniv_scores(totals, caller, options)
    mine = totals[caller]
    lowest = min(t for n, t in totals.items() if n != caller)
    good = mine < lowest or (mine == lowest and tie is Tie.DECLARER_WINS)
    for name, total in totals.items():
        if name == caller:
            assert scores[name] == (0 if good else options.penalty + mine)
        elif not good and total == lowest:
            assert scores[name] == 0
        else:
            assert scores[name] == total


# ---------------------------------------------------------------------------
# The engine: a call only at declare_at or less


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 12), st.integers(0, 50))
def test_the_engine_offers_and_takes_a_call_only_at_the_threshold(seed: int, turns: int,
                                                                  declare_at: int) -> None:
    options = YanivOptions(declare_at=declare_at)
    rng = random.Random(seed)
    deal = Deal.new(list(NAMES), "Ann", rng, options)
    for _ in range(turns):
        moves = [action for action in deal.legal_actions() if not isinstance(action, Declare)]
        deal.apply(rng.choice(moves))
    player = deal.current_player
    assert player is not None
    hand_total = least_rules.hand_value(deal.hand(player))
    allowed = deal.turn >= len(NAMES) and hand_total <= declare_at
    assert any(isinstance(a, Declare) for a in deal.legal_actions()) is allowed
    assert deal.can_declare is allowed and deal.view(player).can_declare is allowed
    if not allowed:
        before = deal.to_record()
        with pytest.raises(IllegalAction):
            deal.apply(Declare())
        assert deal.to_record() == before and not deal.is_over
    else:
        deal.apply(Declare())
        assert deal.result().score == least_rules.score_declaration(
            deal.result().totals, player, options)


# ---------------------------------------------------------------------------
# The table's checks, drawn


@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_round_is_taken_exactly_when_the_caller_may_call(cli: CLI, summary: Any,
                                                           data: st.DataObject) -> None:
    """Each example starts its own session in the shared temporary store."""
    declare_at = data.draw(st.integers(1, 12), label="declare_at")
    assert cli("new", "yaniv", *players_args(*NAMES), "--declare-at", declare_at,
               "--limit", "500").exit_code == 0
    for _ in range(data.draw(st.integers(1, 3), label="deals")):
        before = summary()
        totals = data.draw(st.lists(st.integers(1, 50), min_size=3, max_size=3))
        caller = data.draw(st.sampled_from(NAMES))
        result = cli("add-round", "--declarer", caller,
                     *(f"{n}={t}" for n, t in zip(NAMES, totals, strict=True)))
        mine = totals[NAMES.index(caller)]
        if mine > declare_at:
            assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
            assert f"declared with {mine}" in result.stderr
            assert summary() == before
            continue
        assert result.exit_code == 0, result
        after = summary()
        deal = after["rounds"][-1]
        for name in NAMES:
            assert after["totals"][name] == before["totals"][name] + deal["scores"][name]
            assert after["totals"][name] == sum(r["scores"][name] for r in after["rounds"])


# ---------------------------------------------------------------------------
# Bad entries: each refused in one line, the store unchanged

BAD_ROUNDS: list[tuple[tuple[str, ...], str]] = [
    (("--declarer", "Ann", "Ann=8", "Bob=16", "Cy=9"), "Ann declared with 8"),
    (("--declarer", "Bob", "Ann=3", "Bob=KH,QS", "Cy=9"), "Bob declared with 20"),
    (("--declarer", "Ann", "Ann=0", "Bob=16", "Cy=9"), "Ann's total 0 is impossible"),
    (("--declarer", "Ann", "Ann=5", "Bob=51", "Cy=9"), "Bob's total 51 is impossible"),
    (("--declarer", "Ann", "Ann=5", "Bob=16"), "Cy"),
    (("--declarer", "Dan", "Ann=5", "Bob=16", "Cy=9"), "Dan"),
    (("Ann=5", "Bob=16", "Cy=9"), "--declarer"),
    (("--declarer", "Ann", "Ann=AH,4S", "Bob=4S,KH", "Cy=9"), "4S"),
    (("--declarer", "Ann", "Ann=AH,JK", "Bob=16", "Cy=9"), "Ann's hand"),
    (("--declarer", "Ann", "--bid", "3", "Ann=5", "Bob=16", "Cy=9"), "--bid"),
    (("--declarer", "Ann", "--moon", "Bob", "Ann=5", "Bob=16", "Cy=9"), "--moon"),
    (("--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9", "Dan=3"), "Dan"),
    (("--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9", "Bob=4"), "Bob"),
    (("--declarer", "Cy", "Ann=5", "Bob=16", "Cy=AH,2H,3H,4H,5H"), "Cy declared with 15"),
    (("--declarer", "Ann", "Ann=AH,2H,3H,4H,5H,6H", "Bob=16", "Cy=9"), "6 cards"),
    (("--declarer", "Ann", "Ann=5", "Bob=-3", "Cy=9"), "Bob"),
]


@pytest.mark.parametrize(("args", "says"), BAD_ROUNDS, ids=[s for _a, s in BAD_ROUNDS])
def test_a_bad_round_is_refused_in_one_line(ok: CLI, refuse: Refuse, args: tuple[str, ...],
                                            says: str) -> None:
    ok("new", "yaniv", *players_args(*NAMES))
    ok("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9")
    # another game's round option is a malformed command line (exit 2)
    refuse("add-round", *args, says=says, code=2 if says in ("--bid", "--moon") else 1)


def test_an_edit_or_a_round_after_the_end_is_refused_in_one_line(ok: CLI,
                                                                  refuse: Refuse) -> None:
    ok("new", "yaniv", *players_args("Ann", "Bob"), "--limit", "20")
    ok("add-round", "--declarer", "Ann", "Ann=5", "Bob=16")
    refuse("edit-round", "1", "--declarer", "Ann", "Ann=9", "Bob=16",
           says="Ann declared with 9")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=KH")
    refuse("add-round", "--declarer", "Ann", "Ann=2", "Bob=3", says="is finished (Ann won)")


@pytest.mark.e2e
def test_at_a_terminal_the_callers_hand_is_checked_as_it_is_typed(
        ok: CLI, summary: Any, score_exe: Path, db_path: Path) -> None:
    from terminal import finish, spawn_score  # (the pseudo-terminal tests' helper)

    ok("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann")
    child = spawn_score(score_exe, db_path, ["add-round", "--declarer", "bob"])
    child.expect_exact("Ann's hand total or cards: ")
    child.sendline("9")
    child.expect_exact("Bob's hand total or cards: ")
    child.sendline("8")
    child.expect_exact("Bob's hand total or cards: ")
    assert "Bob declared with 8: a player may declare only with 7 or less" in str(child.before)
    child.sendline("AH,6S")
    child.expect_exact("Cy's hand total or cards: ")
    child.sendline("12")
    code, output = finish(child)
    assert code == 0 and "Round 1 recorded: Ann +9, Bob +0, Cy +12" in output
    assert summary()["rounds"][0]["hands"] == {"Bob": ["AH", "6S"]}


BAD_NEW: list[tuple[tuple[str, ...], str]] = [
    (("--declare-at", "51"), "1 to 50"),
    (("--declare-at", "0"), "no hand is under 1"),
    (("--penalty", "101"), "0 to 100"),
    (("--halving", "5"), "10 to 500"),
    (("--limit", "9"), "10"),
    (("--tie", "sometimes"), "sometimes"),
]


@pytest.mark.parametrize(("args", "says"), BAD_NEW, ids=[a[0] for a, _s in BAD_NEW])
def test_bad_house_rules_are_refused_in_one_line(cli: CLI, refuse: Refuse,
                                                 args: tuple[str, ...], says: str) -> None:
    result = cli("new", "yaniv", *players_args(*NAMES), *args)
    assert result.exit_code in (1, 2) and len(result.stderr.splitlines()) == 1, result
    assert says in result.stderr
    refuse("new", "yaniv", *players_args(*NAMES), *args, code=result.exit_code)


# ---------------------------------------------------------------------------
# The whole table through the real `score`


@pytest.fixture
def yaniv(score_run: Run) -> Run:
    def run(*args: object, code: int = 0) -> Result:
        result = score_run(*args)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output
        return result

    return run


def test_yaniv_at_the_table(ok: CLI, cli: CLI, tmp_path: Path) -> None:
    """The whole night through the command line in-process (the real ``score`` below)."""
    yaniv = ok
    started = yaniv("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann", "--limit", "60")
    assert "declare-at 7, penalty 30, halving 50" in started.stdout
    first = yaniv("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9")
    assert "Round 1 recorded: Ann +0, Bob +16, Cy +9" in first.stdout
    assaf = yaniv("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=4")
    assert "Ann +35, Bob +16, Cy +0" in assaf.stdout and "Assaf" in assaf.stdout
    yaniv("undo")
    yaniv("redo")
    # Bob 32 + 18 = 50: halved to 25
    halved = yaniv("add-round", "--declarer", "Cy", "Ann=20", "Bob=18", "Cy=2")
    assert "halved: Bob" in halved.stdout
    data = json.loads(yaniv("show", "--json").stdout)
    assert data["game"] == "yaniv" and data["totals"] == {"Ann": 55, "Bob": 25, "Cy": 9}
    assert data["rounds"][2]["halved"] == ["Bob"]
    yaniv("edit-round", "2", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9")
    data = json.loads(yaniv("show", "--json").stdout)
    assert data["rounds"][1]["scores"] == {"Ann": 0, "Bob": 16, "Cy": 9}
    assert data["totals"] == {"Ann": 20, "Bob": 25, "Cy": 18}  # Bob 32 + 18: halved again
    shown = yaniv("show").stdout
    assert "Called" in shown and "called Yaniv" in shown
    assert "Ann called Yaniv" in yaniv("log").stdout
    # Ann goes over 60 and is out; Bob then goes out: Cy wins
    yaniv("add-round", "--declarer", "Cy", "Ann=45", "Bob=10", "Cy=3")
    done = yaniv("add-round", "--declarer", "Cy", "Bob=40", "Cy=1")
    assert "Game over: Cy wins!" in done.stdout

    exported = yaniv("export", "--format", "json").stdout
    path = tmp_path / "yaniv.json"
    path.write_text(exported, encoding="utf-8")
    assert "as session 2" in yaniv("import", "--again", path).stdout
    assert json.loads(yaniv("export", "2", "--format", "json").stdout)["totals"] == \
        json.loads(exported)["totals"]
    rows = list(csv.reader(io.StringIO(yaniv("export", "--format", "csv").stdout)))
    assert rows[0][:4] == ["round", "dealer", "declarer", "false_declaration"]
    assert [row[2] for row in rows[1:]] == ["Ann", "Ann", "Cy", "Cy", "Cy"]
    assert "| Round |" in yaniv("export", "--format", "md").stdout
    assert "<html" in yaniv("export", "--format", "html").stdout
    changed = json.loads(exported)
    changed["rounds"][1]["false_declaration"] = True  # not what the rounds re-score to
    path.write_text(json.dumps(changed), encoding="utf-8")
    refused = cli("import", "--again", path)
    assert refused.exit_code == 1 and "false_declaration" in refused.stderr

    stats = json.loads(yaniv("stats", "--json").stdout)
    players = stats["games"]["yaniv"]["players"]
    assert players["Ann"]["declarations"] == 4  # two sessions, two calls each
    assert players["Bob"]["halvings"] == 2 and players["Cy"]["knock_outs"] == 0
    assert "Assaf" in yaniv("stats", "--game", "yaniv").stdout


@pytest.mark.e2e
def test_yaniv_through_the_real_score_in_three_languages(yaniv: Run) -> None:
    yaniv("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann", "--limit", "30")
    yaniv("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9")
    done = yaniv("add-round", "--declarer", "Cy", "Ann=AH,4S", "Bob=KH,QS,9D", "Cy=2C")
    assert "Bob" in done.stdout and "Game over" not in done.stdout
    danish = yaniv("--lang", "da", "add-round", "--declarer", "Ann", "Ann=3", "Cy=22")
    assert "Spillet er slut: Ann vinder!" in danish.stdout
    da_rules = yaniv("--lang", "da", "rules", "yaniv").stdout
    assert da_rules.startswith("# Yaniv") and "pagat.com/draw/yaniv.html" in da_rules
    arabic = yaniv("--lang", "ar", "rules", "yaniv").stdout
    assert arabic.startswith("# يانيف") and "pagat.com" in arabic


@pytest.mark.e2e
def test_yaniv_is_played_and_simulated_with_bots(yaniv: Run) -> None:
    played = yaniv("play", "yaniv", "--bot", "greedy", "--bot", "strong", "--seed", "3",
                   "--limit", "50")
    assert "Game over" in played.stdout
    data = json.loads(yaniv("show", "--json").stdout)
    assert data["game"] == "yaniv" and data["mode"] == "virtual"
    for deal in data["rounds"]:
        assert deal["totals"][deal["declarer"]] <= 7  # every bot called at 7 or less
    simulated = json.loads(yaniv("simulate", "yaniv", "--bot", "greedy", "--bot", "strong",
                                 "-n", "3", "--json").stdout)
    assert sum(seat["wins"] for seat in simulated["seats"]) >= 3


# ---------------------------------------------------------------------------
# Least Score is unchanged by its new parameters; Yaniv's rounds say who was halved


def test_least_score_rounds_keep_their_format_md_keys(ok: CLI, summary: Any) -> None:
    ok("new", "least-score", *players_args(*NAMES), "--dealer", "Ann", "--limit", "50")
    ok("add-round", "--declarer", "Ann", "Ann=30", "Bob=40", "Cy=45")  # any hand declares
    ok("add-round", "--declarer", "Bob", "Ann=5", "Bob=10", "Cy=20")  # 20+5 = 25: not halved
    data = summary()
    assert [sorted(deal) for deal in data["rounds"]] == [sorted(
        ["number", "dealer", "declarer", "totals", "scores", "false_declaration",
         "knocked_out"])] * 2
    assert data["rounds"][1]["scores"] == {"Ann": 0, "Bob": 25, "Cy": 0}
    assert data["totals"] == {"Ann": 0, "Bob": 35, "Cy": 15}


def test_every_yaniv_round_says_whose_total_was_halved(ok: CLI, refuse: Refuse,
                                                       summary: Any, tmp_path: Path) -> None:
    ok("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann", "--halving", "25")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=25", "Cy=9")
    data = summary()
    assert data["options"] == {"limit": 200, "tie": "declarer-loses", "end": "last-standing",
                               "two_pairs": "same-rank", "declare_at": 7, "penalty": 30,
                               "halving": 25, "jokers": 0}
    assert data["rounds"][0]["halved"] == ["Bob"] and data["totals"]["Bob"] == 12
    assert data["rounds"][0]["scores"] == {"Ann": 0, "Bob": 12, "Cy": 9}
    ok("add-round", "--declarer", "Cy", "Ann=4", "Bob=10", "Cy=2")
    data = summary()
    assert data["rounds"][1]["halved"] == []
    path = tmp_path / "halved.json"
    for tampered in ([], ["Cy"]):
        changed = json.loads(json.dumps(data))
        changed["rounds"][0]["halved"] = tampered
        path.write_text(json.dumps(changed), encoding="utf-8")
        refuse("import", "--again", path, says=("round 1", "halved"))
    path.write_text(json.dumps(data), encoding="utf-8")
    assert ok("import", "--again", path).exit_code == 0


def test_yaniv_keeps_its_defaults_in_the_config_and_its_rematch(ok: CLI, refuse: Refuse,
                                                                summary: Any) -> None:
    ok("config", "set", "yaniv.declare-at", "5")
    refuse("config", "set", "yaniv.penalty", "101", says="0 to 100")
    ok("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann")
    assert summary()["options"]["declare_at"] == 5
    refuse("add-round", "--declarer", "Ann", "Ann=6", "Bob=16", "Cy=9",
           says="Ann declared with 6: a player may declare only with 5 or less")
    ok("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9")
    ok("rematch")
    again = summary()
    assert again["game"] == "yaniv" and again["options"]["declare_at"] == 5
    assert again["rounds"] == [] and again["id"] == 2
    ok("new", "least-score", *players_args(*NAMES))
    assert "declare_at" not in summary()["options"]  # Yaniv's config is Yaniv's alone


def test_yaniv_is_listed_completed_and_explained(ok: CLI) -> None:
    games = {game["name"]: game for game in json.loads(ok("games", "--json").stdout)["games"]}
    yaniv = games["yaniv"]
    assert yaniv["origin"] == "built-in" and "Assaf" in yaniv["description"]
    assert [rule["default"] for rule in yaniv["house_rules"]] == [
        200, "declarer-loses", "last-standing", "same-rank", 7, 30, 50, 0]
    rules = json.loads(ok("rules", "yaniv", "--json").stdout)
    assert "pagat.com/draw/yaniv.html" in rules["text"]
    assert "wikipedia.org/wiki/Yaniv" in rules["text"]
    keys = [rule["key"] for rule in rules["house_rules"]]
    assert keys == ["limit", "tie", "end", "two_pairs", "declare_at", "penalty", "halving",
                    "jokers"]


@pytest.mark.e2e
def test_the_phone_page_shows_yaniv(score_exe: Path, score_env: dict[str, str],
                                              yaniv: Run) -> None:
    from serving import start_serve  # (a test helper of the serve tests)

    yaniv("new", "yaniv", *players_args(*NAMES), "--dealer", "Ann")
    yaniv("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=4")
    served = start_serve(score_exe, score_env)
    try:
        url = urlsplit(served.url)
        connection = http.client.HTTPConnection(url.netloc, timeout=10 * SCALE)
        connection.request("GET", url.path + "session/1")
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        connection.close()
        assert response.status == 200, body
        assert "Yaniv" in body and "Assaf" in body and "<svg" in body
    finally:
        code, _out, err = served.stop()
    assert (code, err) == (0, "")


def test_a_played_yaniv_game_is_replayed_and_reviewed(ok: CLI) -> None:
    ok("play", "yaniv", "--bot", "random", "--bot", "greedy", "--seed", "4", "--limit", "10")
    replayed = ok("replay", "1", "--round", "1", "--no-pause").stdout
    assert "declares!" in replayed
    reviewed = json.loads(ok("review", "1", "--json").stdout)
    assert reviewed["game"] == "yaniv" and reviewed["decisions"]
    calls = [d for d in reviewed["decisions"] if d["kind"] == "declaring"]
    assert calls  # weighed only where a call was allowed: at 7 or less
    assert all(least_rules.hand_value(parse_cards(d["position"]["hand"])) <= 7 for d in calls)


def _outlook(options: Options, total: int) -> tuple[float, float]:
    """The strong bot's (chance, edge) of a call with ``total``, three turns into one deal
    (the same cards and samples whatever the options)."""
    from scorekeeper.games.least_score.bots import StrongBot  # (only this test's)

    deal = Deal.new(list(NAMES), "Ann", random.Random(3), options)
    for _ in range(3):
        deal.apply(next(a for a in deal.legal_actions() if not isinstance(a, Declare)))
    view = deal.view(str(deal.current_player))
    return StrongBot().declaration_outlook(view, random.Random(1), total=total)


def test_the_bots_weigh_a_call_by_the_variants_penalty_and_scoring() -> None:
    """A failed call costs the variant's penalty; with Yaniv's scoring a good call is
    worth the others' whole hands (Least Score's: their hands less the caller's)."""
    assert _outlook(YanivOptions(penalty=60), 50)[1] == pytest.approx(
        _outlook(YanivOptions(penalty=30), 50)[1] - 30)
    assert _outlook(Options(penalty=50), 50)[1] == pytest.approx(
        _outlook(Options(), 50)[1] - 30)
    wins = Tie.DECLARER_WINS
    yaniv_chance, yaniv_edge = _outlook(YanivOptions(tie=wins), 1)
    least_chance, least_edge = _outlook(Options(tie=wins, penalty=30), 1)
    assert yaniv_chance == least_chance == 1.0  # every hand holds 1 or more
    assert yaniv_edge == pytest.approx(least_edge + 1)


def test_the_keyboard_says_why_a_high_hand_may_not_call() -> None:
    from rich.console import Console  # (only this test renders)

    from scorekeeper.games.least_score.ui import render_view

    deal = Deal.new(list(NAMES), "Ann", random.Random(5), YanivOptions(declare_at=0))
    for _ in range(3):
        deal.apply(next(a for a in deal.legal_actions() if not isinstance(a, Declare)))
    player = str(deal.current_player)
    console = Console(record=True, width=120)
    console.print(render_view(deal.view(player)))
    total = least_rules.hand_value(deal.hand(player))
    assert f"No declaring with {total}: only with 0 or less" in console.export_text()


@pytest.mark.e2e
def test_declare_at_0_is_refused_and_a_stored_one_still_reads(
        refuse: Refuse, score_run: Callable[..., Result]) -> None:
    """No hand is under 1 (an ace; no jokers): a threshold of 0 allows no call, so a new
    session, `config` and `simulate` refuse it in one line, no traceback; a session stored
    with it (before it was refused) still reads."""
    refuse("new", "yaniv", *players_args(*NAMES), "--declare-at", "0",
           says="Yaniv may be called at 1 to 50")
    simulated = score_run("simulate", "yaniv", "--declare-at", "0", "--bot", "greedy",
                          "--bot", "greedy", "--games", "1")
    assert simulated.exit_code in (1, 2) and "Traceback" not in simulated.stderr
    assert simulated.stderr.count("\n") == 1 and "1 to 50" in simulated.stderr
    stored = YanivTable().parse_options({"declare_at": 0})  # as a stored session is read
    assert stored.declare_at == 0 and stored.problem() is not None
