"""Oh Hell through ``score`` (issue 30 point 3): a corpus of bad entries each refused in
one line with the store unchanged, and every command of the table through the real
``score`` (new, add-round, show, undo/redo, edit-round, log, every export and its
re-import re-checked, stats, rematch, config defaults, --json, completion, games, rules,
--lang da and ar), at a terminal (each answer checked as it is typed), on the phone
page of ``score serve``, and on terminals of 45, 80 and 120 columns."""

from __future__ import annotations

import csv
import http.client
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pexpect
import pytest
from conftest import CLI, Refuse, Result, players_args
from deadlines import SCALE
from serving import start_serve
from terminal import finish, spawn_score

Run = Callable[..., Result]
NAMES = ("Ann", "Bob", "Cy")
ARABIC = re.compile("[\u0600-\u06ff]")


@pytest.fixture
def three(ok: CLI) -> None:
    """Ann, Bob and Cy, Cy deals first, 3 cards down to 1."""
    ok("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", "3")


# ---------------------------------------------------------------------------
# Bad entries: each refused in one line, the store unchanged

BAD_ROUNDS: list[tuple[tuple[str, ...], str]] = [
    (("Ann=2/2", "Bob=1/2", "Cy=2/3"), "the tricks add up to 7, not 3: this deal has 3 tricks"),
    (("Ann=1/1", "Bob=1/1", "Cy=0/0"), "the tricks add up to 2, not 3"),
    (("Ann=1/1", "Bob=1/1", "Cy=1/1"), "the hook: Cy deals and may not bid 1, which makes "
                                       "the bids add up to 3"),
    (("Ann=3/3", "Bob=0/0", "Cy=0/0"), "the hook: Cy deals and may not bid 0"),
    (("Ann=4/1", "Bob=1/1", "Cy=0/1"), "Ann's bid 4 is impossible: this deal has 3 cards "
                                       "each, so 0 to 3"),
    (("Ann=1/4", "Bob=0/0", "Cy=0/0"), "Ann's tricks 4 is impossible"),
    (("Ann=2-1", "Bob=1/1", "Cy=0/1"), "Ann's entry '2-1' is not bid/tricks, such as Ann=2/1"),
    (("Ann=2", "Bob=1/1", "Cy=0/1"), "Ann's entry '2' is not bid/tricks"),
    (("Ann=-1/1", "Bob=1/1", "Cy=0/1"), "is not bid/tricks"),
    (("Ann=1/1/1", "Bob=1/1", "Cy=0/1"), "is not bid/tricks"),
    (("Ann=²/1", "Bob=1/1", "Cy=0/1"), "is not bid/tricks"),
    (("Ann=1000/1", "Bob=1/1", "Cy=0/1"), "is not bid/tricks"),
    (("Ann=1/1", "Bob=1/1"), "Cy is missing"),
    (("Ann=1/1", "Bob=1/1", "Cy=0/1", "Dan=0/0"), "no player called 'Dan'"),
    (("Ann=1/1", "ann=1/1", "Bob=1/1", "Cy=0/1"), "Ann is entered twice"),
    (("--declarer", "Ann", "Ann=1/1", "Bob=1/1", "Cy=0/1"),
     "--declarer is a round option of Least Score and Yaniv, not of Oh Hell"),
    (("--moon", "Ann"), "--moon is a round option of Hearts, not of Oh Hell"),
]


@pytest.mark.parametrize(("args", "says"), BAD_ROUNDS, ids=[s[:40] for _a, s in BAD_ROUNDS])
def test_a_bad_round_is_refused_in_one_line(three: None, refuse: Refuse,
                                            args: tuple[str, ...], says: str) -> None:
    another_games = "round option of" in says  # a malformed command line: exit 2
    refuse("add-round", *args, says=says, code=2 if another_games else 1)


BAD_EDITS: list[tuple[tuple[str, ...], str]] = [
    (("2", "Ann=1/1", "Bob=1/1", "Cy=0/1"), "there is no round 2"),
    (("1", "Ann=1/1", "Bob=1/1", "Cy=1/1"), "the hook: Cy deals and may not bid 1"),
    (("1", "Ann=1/1", "Bob=1/1", "Cy=0/0"), "the tricks add up to 2, not 3"),
]


@pytest.mark.parametrize(("args", "says"), BAD_EDITS, ids=[s[:30] for _a, s in BAD_EDITS])
def test_a_bad_edit_is_refused_in_one_line(three: None, ok: CLI, refuse: Refuse,
                                           args: tuple[str, ...], says: str) -> None:
    ok("add-round", "Ann=1/1", "Bob=0/0", "Cy=1/2")
    refuse("edit-round", *args, says=says)


def test_no_deal_after_the_last(ok: CLI, refuse: Refuse) -> None:
    ok("new", "oh-hell", *players_args(*NAMES), "--most-cards", "1", "--dealer", "Ann")
    done = ok("add-round", "Ann=1/1", "Bob=1/0", "Cy=1/0")  # Ann deals: the hook lets 1 by
    assert "Game over: Ann wins!" in done.stdout
    refuse("add-round", "Ann=0/0", "Bob=0/1", "Cy=0/0", says="is finished (Ann won)")


BAD_NEW: list[tuple[tuple[str, ...], str, int]] = [
    (("--most-cards", "0"), "the biggest deal must be 1 to 17 cards, not 0", 1),
    (("--most-cards", "18"), "1 to 17", 1),
    (("--most-cards", "x"), "--most-cards must be a whole number", 2),
    (("--hand-sizes", "sideways"), "--hand-sizes must be descend or ascend or both", 2),
    (("--bid-scoring", "golf"), "--bid-scoring must be ten-plus or per-trick or minus", 2),
    (("--hook", "maybe"), "--hook must be hook or no-hook", 2),
    (("--limit", "50"), "--limit is a house rule of Least Score and Yaniv, not of Oh Hell", 2),
]


@pytest.mark.parametrize(("args", "says", "code"), BAD_NEW, ids=[a[0] + a[1]
                                                                 for a, _s, _c in BAD_NEW])
def test_bad_house_rules_are_refused_in_one_line(refuse: Refuse, args: tuple[str, ...],
                                                 says: str, code: int) -> None:
    refuse("new", "oh-hell", *players_args(*NAMES), *args, code=code, says=says)


def test_the_player_count_is_checked_and_bounds_the_biggest_deal(ok: CLI, refuse: Refuse,
                                                                 summary: Any) -> None:
    refuse("new", "oh-hell", *players_args("Ann", "Bob"), says="Oh Hell takes 3 to 7 "
                                                                "players, not 2")
    refuse("new", "oh-hell", *players_args(*"ABCDEFGH"), says="3 to 7 players")
    started = ok("new", "oh-hell", *players_args(*"ABCDEFG"), "--most-cards", "10",
                 "--dealer", "G").stdout
    assert "Next deal: G deals 7 cards each, A bids first (deal 1 of 7)." in started
    refuse("add-round", *(f"{n}=1/1" for n in "ABCDEF"), "G=0/8",
           says="G's tricks 8 is impossible: this deal has 7 cards each")  # 52 // 7 = 7
    ok("add-round", *(f"{n}=1/1" for n in "ABCDEF"), "G=0/1")
    assert summary()["rounds"][0]["hand_size"] == 7


def test_oh_hell_has_no_virtual_deck(refuse: Refuse) -> None:
    refuse("play", "oh-hell", "--bot", "random", "--bot", "random", "--bot", "random",
           says="Oh Hell has no virtual deck")
    refuse("simulate", "oh-hell", "--bot", "random", "--bot", "random", "--bot", "random",
           says="Oh Hell has no virtual deck")


# ---------------------------------------------------------------------------
# The whole table through the real `score`


@pytest.fixture
def oh_hell(score_run: Run) -> Run:
    def run(*args: object, code: int = 0, env: dict[str, str] | None = None) -> Result:
        result = score_run(*args, env=env)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output
        if code == 0:
            assert result.stderr == "", (args, result.stderr)
        else:
            assert len(result.stderr.splitlines()) == 1, (args, result.stderr)
        return result

    return run


@pytest.fixture
def table(cli: CLI, monkeypatch: pytest.MonkeyPatch) -> Run:
    """The same as ``oh_hell``, in-process (quicker, for what the real ``score`` has
    shown once already)."""
    def run(*args: object, code: int = 0, env: dict[str, str] | None = None) -> Result:
        with monkeypatch.context() as patched:
            for key, value in (env or {}).items():
                patched.setenv(key, value)
            result = cli(*args)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output
        if code == 0:
            assert result.stderr == "", (args, result.stderr)
        else:
            assert len(result.stderr.splitlines()) == 1, (args, result.stderr)
        return result

    return run


def play_the_night(oh_hell: Run) -> None:
    """3 deals (3, 2, 1 cards), Cy deals first: Ann 21, Bob 32, Cy 10."""
    started = oh_hell("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy",
                      "--most-cards", "3", "--name", "Whist")
    assert "most-cards 3, hand-sizes descend, bid-scoring ten-plus, hook on" in started.stdout
    assert "Next deal: Cy deals 3 cards each, Ann bids first (deal 1 of 3)." in started.stdout
    first = oh_hell("add-round", "Ann=1/1", "Bob=0/0", "Cy=1/2", "--note",
                    "Cy's lucky queen").stdout
    assert "Round 1 recorded: Ann +11, Bob +10, Cy +0  (missed: Cy)" in first
    assert "Next deal: Ann deals 2 cards each, Bob bids first (deal 2 of 3)." in first
    refused = oh_hell("add-round", "Ann=1/1", "Bob=1/1", "Cy=0/0", code=1)
    assert "the hook: Ann deals and may not bid 1" in refused.stderr
    oh_hell("add-round", "Ann=2/1", "Bob=1/1", "Cy=0/0")
    oh_hell("undo")
    oh_hell("redo")
    oh_hell("edit-round", "2", "Ann=0/1", "Bob=1/1", "Cy=0/0")
    done = oh_hell("add-round", "Ann=0/0", "Bob=1/1", "Cy=1/0").stdout
    assert "Bob deals 1 card each" not in done and "Game over: Bob wins!" in done


@pytest.mark.e2e
def test_oh_hell_at_the_table_through_the_real_score(oh_hell: Run) -> None:
    """The night of :func:`play_the_night` without its undo, redo and edit (the
    in-process tests below have them): six runs of the installed ``score``."""
    started = oh_hell("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy",
                      "--most-cards", "3").stdout
    assert "Next deal: Cy deals 3 cards each, Ann bids first (deal 1 of 3)." in started
    first = oh_hell("add-round", "Ann=1/1", "Bob=0/0", "Cy=1/2").stdout
    assert "Round 1 recorded: Ann +11, Bob +10, Cy +0  (missed: Cy)" in first
    refused = oh_hell("add-round", "Ann=1/1", "Bob=1/1", "Cy=0/0", code=1)
    assert refused.stderr == ("error: the hook: Ann deals and may not bid 1, which makes the "
                              "bids add up to 2\n")
    oh_hell("add-round", "Ann=0/1", "Bob=1/1", "Cy=0/0")
    assert "Game over: Bob wins!" in oh_hell("add-round", "Ann=0/0", "Bob=1/1",
                                             "Cy=1/0").stdout
    data = json.loads(oh_hell("export", "--format", "json").stdout)
    assert data["game"] == "oh-hell" and data["status"] == "finished"
    assert data["totals"] == {"Ann": 21, "Bob": 32, "Cy": 10} and data["winners"] == ["Bob"]


def test_oh_hell_shows_logs_and_says_what_it_holds(table: Run) -> None:
    play_the_night(table)
    data = json.loads(table("show", "--json").stdout)
    assert data["game"] == "oh-hell" and data["winners"] == ["Bob"]
    assert data["totals"] == {"Ann": 21, "Bob": 32, "Cy": 10}
    second = data["rounds"][1]
    assert second == {"number": 2, "dealer": "Ann", "hand_size": 2,
                      "bids": {"Ann": 0, "Bob": 1, "Cy": 0},
                      "tricks": {"Ann": 1, "Bob": 1, "Cy": 0},
                      "contracts": {"Ann": "0/1", "Bob": "1/1", "Cy": "0/0"},
                      "scores": {"Ann": 0, "Bob": 11, "Cy": 10}, "made": ["Bob", "Cy"],
                      "knocked_out": []}
    assert data["rounds"][0]["note"] == "Cy's lucky queen"
    shown = table("show").stdout
    assert "Hand" in shown and "3 cards" in shown and "1 card " in shown
    assert "House rules: most-cards 3, hand-sizes descend, bid-scoring ten-plus, hook on" \
        in shown
    log = table("log").stdout
    assert "2 cards, Ann dealt" in log and "edit-round" in log and "undo" in log


def test_oh_hell_exports_in_every_format_and_an_import_is_rechecked(table: Run,
                                                                    tmp_path: Path) -> None:
    play_the_night(table)
    exported = table("export", "--format", "json").stdout
    data = json.loads(exported)
    path = tmp_path / "oh-hell.json"
    path.write_text(exported, encoding="utf-8")
    assert "as session 2" in table("import", "--again", path).stdout
    again = json.loads(table("export", "2", "--format", "json").stdout)
    assert again["rounds"] == data["rounds"] and again["totals"] == data["totals"]
    rows = list(csv.reader(io.StringIO(table("export", "--format", "csv").stdout)))
    assert rows[0][:6] == ["round", "dealer", "hand_size", "Ann bid/tricks", "Ann score",
                           "Ann total"]
    assert rows[1][:6] == ["1", "Cy", "3", "1/1", "11", "11"]
    assert rows[0][-1] == "note" and rows[1][-1] == "Cy's lucky queen"
    markdown = table("export", "--format", "md").stdout
    assert "| Round | Dealer | Hand |" in markdown and "| 2 | Ann | 2 cards |" in markdown
    html = table("export", "--format", "html").stdout
    assert "<svg" in html and "Oh Hell" in html
    for key, value, says in (
            ("tricks", {"Ann": 1, "Bob": 1, "Cy": 2}, "round 1: the tricks add up to 4"),
            ("bids", {"Ann": 1, "Bob": 0, "Cy": 2}, "round 1: the hook: Cy deals and may "
                                                    "not bid 2"),
            ("made", ["Ann", "Bob", "Cy"], "round 1: the file says made"),
            ("hand_size", 2, "round 1: the file says hand_size = 2"),
            ("scores", {"Ann": 11, "Bob": 10, "Cy": 10}, "re-scores")):
        tampered = json.loads(exported)
        tampered["rounds"][0][key] = value
        path.write_text(json.dumps(tampered), encoding="utf-8")
        assert says in table("import", "--again", path, code=1).stderr
    tampered = json.loads(exported)
    tampered["rounds"].append(tampered["rounds"][2])
    path.write_text(json.dumps(tampered), encoding="utf-8")
    assert "round 4: the game is over: it has 3 deals" in table("import", "--again", path,
                                                                code=1).stderr


def test_oh_hell_stats_rematch_and_json(table: Run) -> None:
    play_the_night(table)
    stats = json.loads(table("stats", "--json").stdout)
    bob = stats["games"]["oh-hell"]["players"]["Bob"]
    assert bob["made_rate"] == 1.0 and bob["average_bid"] == pytest.approx(2 / 3, rel=1e-3)
    assert bob["points_per_deal"] == pytest.approx(32 / 3, rel=1e-3)
    cy = stats["games"]["oh-hell"]["players"]["Cy"]
    assert cy["made_rate"] == pytest.approx(1 / 3, rel=1e-3)
    assert cy["average_tricks"] == pytest.approx(2 / 3, rel=1e-3)
    text = table("stats", "--game", "oh-hell").stdout
    assert "Made %" in text and "the share of bids made exactly" in text
    again = table("rematch").stdout
    assert "Session 2 started: a rematch of session 1" in again
    assert "Next deal: Ann deals 3 cards each, Bob bids first (deal 1 of 3)." in again
    assert json.loads(table("show", "--json").stdout)["options"]["most_cards"] == 3


def test_the_groups_config_sets_oh_hells_defaults(table: Run) -> None:
    table("config", "set", "oh-hell.hook", "no-hook")
    table("config", "set", "oh-hell.hand-sizes", "both")
    assert "--hook must be hook or no-hook" in table("config", "set", "oh-hell.hook",
                                                       "sometimes", code=1).stderr
    started = table("new", "oh-hell", *players_args(*NAMES), "--dealer", "Ann",
                      "--most-cards", "2").stdout
    assert "hand-sizes both" in started and "hook off" in started
    assert "(deal 1 of 3)" in started
    # with the hook off the dealer may make the bids add up to the hand size
    assert "Round 1 recorded: Ann +11, Bob +11, Cy +10" in table(
        "add-round", "Ann=1/1", "Bob=1/1", "Cy=0/0").stdout


@pytest.mark.e2e
def test_games_rules_and_completion_know_oh_hell(table: Run, oh_hell: Run) -> None:
    games = {game["name"]: game for game in json.loads(table("games", "--json").stdout)
             ["games"]}
    assert games["oh-hell"]["players"] == {"min": 3, "max": 7}
    assert [(rule["option"], rule["default"]) for rule in games["oh-hell"]["house_rules"]] \
        == [("--most-cards", 7), ("--hand-sizes", "descend"), ("--bid-scoring", "ten-plus"),
            ("--hook", "hook")]
    assert "Oh Hell (Contract Whist)" in table("games").stdout
    for lang, heading in (("en", "# Oh Hell"), ("da", "# Oh Hell"), ("ar", "# أوه هيل")):
        text = table("--lang", lang, "rules", "oh-hell").stdout
        assert text.startswith(heading) and "pagat.com/exact/ohhell.html" in text
    rules = json.loads(table("rules", "oh-hell", "--json").stdout)
    assert rules["house_rules"][3]["description"] == \
        "the hook: the dealer may not make the bids add up to the hand size"
    complete = {"_SCORE_COMPLETE": "complete_bash", "COMP_WORDS": "score new oh-hell --h",
                "COMP_CWORD": "3"}
    assert set(oh_hell(env=complete).stdout.split()) == {"--hand-sizes", "--help", "--hook"}
    complete |= {"COMP_WORDS": "score rules o", "COMP_CWORD": "2"}
    assert oh_hell(env=complete).stdout.split() == ["oh-hell", "one-card"]


def test_oh_hell_speaks_danish_and_arabic(table: Run) -> None:
    play_the_night(table)
    danish = table("--lang", "da", "show").stdout
    assert "Spillet er slut: Bob vinder!" in danish and "3 kort" in danish
    narrow = table("--lang", "da", "show", env={"COLUMNS": "45"}).stdout
    assert re.search(r"^#\s+Kort\s+Ann\s+Bob\s+Cy$", narrow, re.MULTILINE), narrow
    assert "! melding forfejlet" in narrow
    rows = [line.split() for line in narrow.splitlines() if re.match(r"^[123]\s+[123]\s", line)]
    assert rows == [["1", "3", "11", "10", "0!"], ["2", "2", "11!", "21", "10"],
                    ["3", "1", "21", "32", "10!"]]  # the hand size, then who missed: !
    refused = table("--lang", "da", "new", "oh-hell", *players_args("Ann", "Bob"), code=1)
    assert "Oh Hell tager 3 til 7 spillere, ikke 2" in refused.stderr
    table("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", "3")
    hook = table("--lang", "da", "add-round", "Ann=1/1", "Bob=1/1", "Cy=1/1", code=1)
    assert "Cy giver og må ikke melde 1" in hook.stderr
    arabic = table("--lang", "ar", "add-round", "Ann=1/1", "Bob=1/1", "Cy=1/1", code=1)
    assert ARABIC.search(arabic.stderr) and "Cy" in arabic.stderr and "1" in arabic.stderr
    assert ARABIC.search(table("--lang", "ar", "show", "1").stdout)


# ---------------------------------------------------------------------------
# At a terminal: each answer checked as it is typed


@pytest.fixture
def at_terminal(score_exe: Path, db_path: Path) -> Callable[..., pexpect.spawn]:
    def spawn(*args: str, columns: int = 100) -> pexpect.spawn:
        return spawn_score(score_exe, db_path, list(args), columns=columns)
    return spawn


def answer(child: pexpect.spawn, question: str, typed: str) -> str:
    child.expect_exact(question)
    before = str(child.before)
    child.sendline(typed)
    return before


@pytest.mark.e2e
def test_a_terminal_asks_in_bidding_order_and_refuses_the_hook_at_once(
        ok: CLI, at_terminal: Callable[..., pexpect.spawn], summary: Any) -> None:
    ok("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", "3")
    child = at_terminal("add-round", "Bob=1/1")
    answer(child, "Ann's bid/tricks (3 cards): ", "1/3")
    said = answer(child, "Ann's bid/tricks (3 cards): ", "1/1")
    assert "the tricks add up to 4, not 3" in said
    answer(child, "Cy's bid/tricks (3 cards): ", "1/1")
    said = answer(child, "Cy's bid/tricks (3 cards): ", "2/1")
    assert "the hook: Cy deals and may not bid 1" in said
    code, output = finish(child)
    assert code == 0 and "Round 1 recorded: Ann +11, Bob +11, Cy +0" in output
    assert summary()["rounds"][0]["bids"] == {"Ann": 1, "Bob": 1, "Cy": 2}


@pytest.mark.e2e
def test_edit_round_at_a_terminal_offers_what_the_deal_holds(
        ok: CLI, at_terminal: Callable[..., pexpect.spawn], summary: Any) -> None:
    ok("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", "3")
    ok("add-round", "Ann=1/1", "Bob=0/0", "Cy=1/2")
    child = at_terminal("edit-round", "1", "Ann=1/2", "Bob=0/0")
    answer(child, "Cy's bid/tricks (3 cards) [1/2]: ", "")
    said = answer(child, "Cy's bid/tricks (3 cards) [1/2]: ", "1/1")
    assert "the tricks add up to 4, not 3" in said
    code, output = finish(child)
    assert code == 0 and "Round 1 re-entered" in output
    assert summary()["rounds"][0]["contracts"] == {"Ann": "1/2", "Bob": "0/0", "Cy": "1/1"}


# ---------------------------------------------------------------------------
# On a phone: the served page, and terminals of 45, 80 and 120 columns

LONG = ("Annabel", "Bartholomew Quincy", "Cyrille", "Dorothea", "Maximiliana Oberholzer")


@pytest.mark.e2e
def test_the_phone_page_shows_the_next_deals_hand_size(score_exe: Path,
                                                       score_env: dict[str, str],
                                                       ok: CLI) -> None:
    ok("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", "3")
    ok("add-round", "Ann=1/1", "Bob=0/0", "Cy=1/2")
    served = start_serve(score_exe, score_env)
    try:
        url = urlsplit(served.url)
        connection = http.client.HTTPConnection(url.netloc, timeout=10 * SCALE)
        connection.request("GET", url.path + "session/1")
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        connection.close()
        assert response.status == 200, body
        assert "Oh Hell" in body and "3 cards" in body and "<svg" in body
        assert "2 cards each, Bob bids first (deal 2 of 3)." in body
    finally:
        code, _out, err = served.stop()
    assert (code, err) == (0, "")


def fits(text: str, width: int) -> None:
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, too_wide
    assert "…" not in text


def layout(shown: str) -> str:
    return "wide" if "┃ Rnd ┃ Dealer" in shown else "narrow"


@pytest.mark.parametrize(("width", "names", "expected"), [
    (45, LONG, "narrow"), (80, LONG, "narrow"), (120, LONG[:4], "wide")])
def test_oh_hell_fits_the_terminal_and_keeps_one_layout_all_night(
        ok: CLI, monkeypatch: pytest.MonkeyPatch, width: int, names: tuple[str, ...],
        expected: str) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    ok("new", "oh-hell", *players_args(*names), "--dealer", names[0], "--most-cards", "10",
       "--bid-scoring", "minus")
    seen = []
    for number, size in enumerate(range(10, 0, -1), start=1):
        # the dealer's left bids and takes every trick, the dealer bids 0 and everyone
        # else 1 (so the bids add up to more than the hand: the hook never bites)
        dealer = names[(number - 1) % len(names)]
        left = names[number % len(names)]
        values = [f"{name}={size if name == left else 0 if name == dealer else 1}/"
                  f"{size if name == left else 0}" for name in names]
        result = ok("add-round", *values)
        fits(result.stdout, width)
        shown = ok("show").stdout
        fits(shown, width)
        seen.append(layout(shown))
    assert set(seen) == {seen[0]}, seen
    assert seen[0] == expected
    if seen[0] == "narrow":
        assert "! bid missed" in " ".join(shown.split())
    assert "Game over" in shown
    fits(ok("stats").stdout, width)
    fits(ok("games").stdout, width)
    fits(ok("log").stdout, width)
