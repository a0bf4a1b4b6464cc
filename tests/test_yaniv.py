"""Yaniv (issue 30 point 3), a variant of Least Score in its own folder: the rules' own
examples, the engine's call threshold, property tests of the table's checks, a corpus of
bad entries each refused in one line with the store unchanged, and the whole table
through the real ``score`` (new, add-round, show, undo/redo, edit-round, every export
and its re-import, stats, --json, --lang da/ar, play, simulate)."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, players_args
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.errors import IllegalAction
from scorekeeper.games.least_score import rules as least_rules
from scorekeeper.games.least_score.engine import Deal, Declare
from scorekeeper.games.least_score.rules import Options, Scoring, Tie, new_total
from scorekeeper.games.yaniv.rules import YanivOptions

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
                                             "penalty", "halving"}


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


@settings(max_examples=25, deadline=None)
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


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_round_is_taken_exactly_when_the_caller_may_call(cli: CLI, summary: Any,
                                                           data: st.DataObject) -> None:
    """Each example starts its own session in the shared temporary store."""
    declare_at = data.draw(st.integers(0, 12), label="declare_at")
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
]


@pytest.mark.parametrize(("args", "says"), BAD_ROUNDS, ids=[s for _a, s in BAD_ROUNDS])
def test_a_bad_round_is_refused_in_one_line(ok: CLI, refuse: Refuse, args: tuple[str, ...],
                                            says: str) -> None:
    ok("new", "yaniv", *players_args(*NAMES))
    ok("add-round", "--declarer", "Ann", "Ann=5", "Bob=16", "Cy=9")
    refuse("add-round", *args, says=says)


BAD_NEW: list[tuple[tuple[str, ...], str]] = [
    (("--declare-at", "51"), "0 to 50"),
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


def test_yaniv_at_the_table(yaniv: Run, tmp_path: Path) -> None:
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
    assert "as session 2" in yaniv("import", path).stdout
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
    assert "false_declaration" in yaniv("import", path, code=1).stderr

    stats = json.loads(yaniv("stats", "--json").stdout)
    players = stats["games"]["yaniv"]["players"]
    assert players["Ann"]["declarations"] == 4  # two sessions, two calls each
    assert players["Bob"]["halvings"] == 2 and players["Cy"]["knock_outs"] == 0
    assert "Assaf" in yaniv("stats", "--game", "yaniv").stdout

    danish = yaniv("--lang", "da", "show", "1").stdout
    assert "Spillet er slut: Cy vinder!" in danish
    assert yaniv("--lang", "da", "rules", "yaniv").stdout.startswith("# Yaniv")
    assert "pagat.com/draw/yaniv.html" in yaniv("--lang", "da", "rules", "yaniv").stdout
    arabic = yaniv("--lang", "ar", "rules", "yaniv").stdout
    assert arabic.startswith("# يانيف") and "pagat.com" in arabic
    assert "pagat.com" in yaniv("rules", "yaniv").stdout


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
