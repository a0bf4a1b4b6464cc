"""`score play` with humans at one keyboard: the totals on every hand-over screen and at a
resume, the config's house rules, and the players' own words (issue 28, points 3 and 6)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Result
from terminal import finish, spawn_score
from test_cli_play import exported, first_seed, play_args, same_game, script_game

from scorekeeper.summary import session_from_summary

Run = Callable[..., Result]


def expected_totals_line(totals: dict[str, int], limit: int) -> str:
    parts = [f"{name} {total} (out)" if total > limit else
             f"{name} {total} ({limit - total} left)" for name, total in totals.items()]
    return f"Totals, limit {limit}: " + " · ".join(parts)


@pytest.mark.e2e
def test_every_hand_over_screen_shows_the_totals_the_limit_and_who_is_out(
        score_run: Run) -> None:
    humans, limit = ["Ann", "Bob", "Cy"], 25
    seed, script = first_seed("least-score", humans, [], 3, {"limit": limit}, deals=3)
    result = score_run(*play_args("least-score", humans, [], seed, {"limit": limit}),
                       stdin=script.stdin())
    assert result.exit_code == 0, result.output[-3000:]
    handovers = result.stdout.count("Pass the keyboard to ")
    shown = re.findall(r"^(Totals, limit .*)\nPass the keyboard to ", result.stdout, re.M)
    assert len(shown) == handovers > 0  # every hand-over, right above its prompt
    running = [dict.fromkeys(humans, 0), *script.session.standings.running_totals()]
    # The totals before each deal, as the table knew them (the last: the game is over).
    expected = {expected_totals_line(totals, limit) for totals in running[:-1]}
    assert set(shown) == expected
    assert any("(out)" in line for line in shown), "nobody was out at a hand-over"


@pytest.mark.e2e
def test_resume_starts_with_the_totals(score_run: Run) -> None:
    game, bots, options = "least-score", ["greedy", "random"], {"limit": 25}
    seed, script = first_seed(game, ["Ann"], bots, 11, options, deals=3)
    while not script.lines_by_deal[1]:  # Ann must still be in the game in deal 2
        seed, script = first_seed(game, ["Ann"], bots, seed + 1, options, deals=3)
    stopped = score_run(*play_args(game, ["Ann"], bots, seed, options),
                        stdin=script.stdin(slice(0, 1)))
    assert stopped.exit_code == 130, stopped.output[-2000:]
    saved = exported(score_run, 1)
    # The export keeps an unfinished game's seed back (issue 40.1); this test chose it.
    saved_with_seed = {**saved, "virtual": {**saved["virtual"], "seed": seed}}
    restarted = script_game(game, ["Ann"], bots, seed, options, mistakes=False,
                            start=session_from_summary(saved_with_seed))
    resumed = score_run("play", "--resume", 1, stdin=restarted.stdin())
    assert resumed.exit_code == 0, resumed.output[-3000:]
    recap = expected_totals_line(saved["totals"], 25)
    before_first_deal = resumed.stdout.split("Deal 2 — ")[0]
    assert "Resuming " in before_first_deal and "after 1 deal." in before_first_deal
    assert recap in before_first_deal
    same_game(exported(score_run, 1), restarted)


def test_play_follows_the_configs_house_rules_and_the_command_line_wins(
        ok: CLI, summary: Any) -> None:
    config = Path(os.environ["SCOREKEEPER_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[least-score]\nlimit = 50\ntie = "declarer-loses"\n', encoding="utf-8")
    bots = ["--bot", "greedy", "--bot", "random", "--seed", "4"]
    ok("play", "least-score", *bots)
    assert summary()["options"] == {"limit": 50, "tie": "declarer-loses",
                                    "end": "last-standing", "two_pairs": "same-rank"}
    ok("play", "least-score", *bots, "--limit", "30")
    assert summary()["options"] == {"limit": 30, "tie": "declarer-loses",
                                    "end": "last-standing", "two_pairs": "same-rank"}


# ---------------------------------------------------------------------------
# The players' own words (issue 28.6)

SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def a_card_of_the_hand(before: str, hand_word: str) -> str:
    """A card of the hand shown last, as typed (``10D``)."""
    line = before.rsplit(hand_word, 1)[1].splitlines()[0]
    first = line.split("=")[0].split()[0]
    return first[:-1] + SUITS[first[-1]]


@pytest.mark.parametrize(("language", "words"), [
    pytest.param("da", {"help": "hjælp", "declare": "erklær", "deck": "bunke", "hint": "tip",
                        "hand": "din hånd:", "move": "dit træk", "refused": "Ikke tilladt:",
                        "not_a_card": "er ikke et kort", "hint_shown": "Tip — den stærke bot"},
                 id="da"),
    pytest.param("ar", {"help": "مساعدة", "declare": "أعلن", "deck": "الكومة", "hint": "تلميح",
                        "hand": "يدك:", "move": "حركتك", "refused": "غير مسموح:",
                        "not_a_card": "ليست بطاقة", "hint_shown": "تلميح — الروبوت القوي"},
                 id="ar"),
])
@pytest.mark.e2e
def test_play_takes_the_languages_move_words_and_points_to_them(
        score_exe: Path, db_path: Path, language: str, words: dict[str, str]) -> None:
    child = spawn_score(score_exe, db_path, ["play", "least-score", "--player", "Ann",
                                             "--bot", "greedy", "--seed", "2"],
                        env={"SCOREKEEPER_LANG": language})
    child.expect(words["move"])
    card = a_card_of_the_hand(str(child.before), words["hand"])
    child.sendline(words["help"])  # help in the language's word: the help is shown
    child.expect(f"'{words['deck']}'")
    child.expect(words["move"])
    child.sendline("erklaer")  # a word it does not know: the words it does
    child.expect(words["not_a_card"])
    child.expect(words["move"])
    assert f"{words['deck']}/deck" in str(child.before)
    assert f"{words['hint']}/hint" in str(child.before)
    child.sendline(words["declare"])  # a declaration, refused before everyone's turn
    child.expect(words["refused"])
    child.expect(words["move"])
    child.sendline(words["hint"])
    child.expect(words["hint_shown"])  # the strong bot's hint
    child.expect(words["move"])
    child.sendline(card)  # the discard alone: the take is asked, in the language's word
    child.expect(re.escape(f"[{words['deck']}]") + ": ")
    child.sendline(words["deck"])
    child.expect(f"Ann .* {card[:-1]}")  # Ann's discard is told: the move was taken
    child.expect(words["move"])  # Ctrl-C at the next prompt, not while the bot's move prints
    child.sendcontrol("c")
    code, _ = finish(child)
    assert code == 130


@pytest.mark.parametrize(("language", "shown", "answer"), [
    pytest.param("da", "[J/n]", "ja", id="da-ja"),
    pytest.param("da", "[J/n]", "y", id="da-english"),
    pytest.param("ar", "[نعم/لا، Enter: نعم]", "نعم", id="ar"),
    pytest.param("ar", "[نعم/لا، Enter: نعم]", "y", id="ar-english"),
])
@pytest.mark.e2e
def test_yes_no_questions_are_asked_and_answered_in_the_language(
        score_exe: Path, db_path: Path, ok: CLI, summary: Any, language: str, shown: str,
        answer: str) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    child = spawn_score(score_exe, db_path, ["new", "least-score"],
                        env={"SCOREKEEPER_LANG": language})
    child.expect(re.escape(shown) + ": ")
    child.sendline("maybe")  # not an answer: asked again
    child.expect(re.escape(shown) + ": ")
    child.sendline(answer)
    code, _ = finish(child)
    assert code == 0
    assert summary()["players"] == ["Ann", "Bob"]
    assert summary()["id"] == 2


@pytest.mark.e2e
def test_one_card_takes_the_danish_pass_and_names_it(score_exe: Path, db_path: Path) -> None:
    child = spawn_score(score_exe, db_path, ["play", "one-card", "--player", "Ann",
                                             *["--bot", "greedy"] * 3, "--seed", "1"],
                        env={"SCOREKEEPER_LANG": "da"})
    child.expect("Ann, dit bud ")
    child.sendline("bogus")
    child.expect("byd et tal fra [0-9]+ til 15, eller 'pas'")
    child.sendline("pas")
    child.expect("Ann melder pas")
    child.sendcontrol("c")
    code, _ = finish(child)
    assert code == 130
