"""The session side speaks the user's language (issue 15): refusals with their reasons, the
house rules in words and `score play`'s prompts and moves, in Danish and Arabic, while
what a session stores (its log) stays the same whatever the language.

These need the Danish and Arabic catalogs (scorekeeper/locale), which hold the
translations of these messages once they are merged.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CLI, Refuse

from scorekeeper import i18n
from scorekeeper.games.least_score import engine as least_engine
from scorekeeper.games.least_score import ui as least_score_ui
from scorekeeper.games.least_score.rules import Options as LeastOptions
from scorekeeper.games.least_score.table import LeastScoreTable
from scorekeeper.games.one_card.table import OneCardTable
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.kit.options import Language
from scorekeeper.kit.standings import Standings
from scorekeeper.session import Session, in_english
from scorekeeper.store import SESSIONS


@pytest.fixture
def speaking() -> Iterator[None]:
    """Whatever a test activates, the next one starts in English."""
    yield
    i18n.activate(i18n.ENGLISH)


def fresh_standings(players: list[str]) -> Standings:
    return LeastScoreTable().standings(players, LeastScoreTable().parse_options({}), None, [])


@pytest.mark.parametrize(("language", "expected"), [
    ("da", "der er ingen erklærer ved navn 'Zed': spillerne er Ann, Bob"),
    ("ar", "لا يوجد مُعلِن باسم 'Zed': اللاعبون هم Ann, Bob"),
])
def test_a_refusal_comes_in_the_language_of_the_run(least, refuse: Refuse,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    language: str, expected: str) -> None:
    least("Ann", "Bob")
    monkeypatch.setenv("SCOREKEEPER_LANG", language)
    refuse("add-round", "--declarer", "Zed", "Ann=3", "Bob=4", says=expected)


@pytest.mark.parametrize(("language", "expected"), [
    ("da", "Anns sum 60 er umulig: en hånd er 1 til 5 kort, der hver er værd 1 til 10, "
           "altså 1 til 50"),
    ("ar", "مجموع Ann 60 مستحيل: اليد من 1 إلى 5 بطاقات قيمة كل منها من 1 إلى 10، أي من "
           "1 إلى 50"),
])
def test_why_a_round_is_impossible_is_said_in_the_language(speaking: None, language: str,
                                                            expected: str) -> None:
    i18n.activate(language)
    with pytest.raises(EntryError) as refused:
        LeastScoreTable().check_given(["Ann", "Bob"], LeastScoreTable().parse_options({}),
                                      fresh_standings(["Ann", "Bob"]),
                                      RoundEntry((("Ann", "60"), ("Bob", "4")), declarer="Ann"))
    assert str(refused.value) == expected


def test_the_rules_of_a_discard_are_refused_in_danish(speaking: None) -> None:
    i18n.activate("da")
    from scorekeeper.cards import parse_cards
    from scorekeeper.games.least_score.rules import discard_problem

    assert discard_problem(parse_cards("KH AS 2D")) == \
        "K-A-2 er ikke en sekvens: en sekvens går aldrig rundt om esset"


@pytest.mark.parametrize(("language", "prompt"), [
    ("da", "Ann, dit træk (? for hjælp)"),
    ("ar", "Ann، حركتك (? للمساعدة)"),
])
def test_the_play_prompt_is_in_the_language(speaking: None, language: str,
                                            prompt: str) -> None:
    i18n.activate(language)
    hands = {"Ann": ["KD", "AH", "5C", "QS", "2C"], "Bob": ["3D", "9S", "9C", "4H", "JD"]}
    used = {card for hand in hands.values() for card in hand} | {"7C"}
    from scorekeeper.cards import STANDARD_DECK

    deck = [str(card) for card in STANDARD_DECK if str(card) not in used]
    deal = least_engine.Deal.from_record(
        {"dealer": "Bob", "hands": hands, "floor": ["7C"], "deck": deck}, LeastOptions())
    asked: list[str] = []
    answers = ["2C 7C"]

    def ask(question: str) -> str:
        asked.append(question)
        return answers.pop(0)

    least_score_ui.read_action(deal.view("Ann"), ask, lambda thing: None)
    assert asked == [prompt]


@pytest.mark.parametrize(("language", "prompt", "hint"), [
    ("da", "Ann, dit bud (et tal eller pass) (? for hjælp)", "Tip — den stærke bot ville"),
    ("ar", "Ann، مزايدتك (رقم أو pass) (? للمساعدة)", "تلميح — الروبوت القوي كان"),
])
def test_score_play_asks_for_a_bid_in_the_language(cli: CLI, monkeypatch: pytest.MonkeyPatch,
                                                   language: str, prompt: str,
                                                   hint: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_LANG", language)
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n"))
    result = cli("play", "one-card", "--player", "Ann", "--bot", "greedy", "--seed", 1)
    assert result.exit_code == 130, result
    assert prompt in result.stdout, result.stdout
    assert hint in result.stdout, result.stdout


def test_the_house_rules_are_described_from_the_catalog() -> None:
    table = OneCardTable()
    rules = table.house_rules(table.parse_options({"joker": "two-of-diamonds", "target": 40}),
                              Language.ARABIC)
    assert [rule.description for rule in rules] == [
        "اثنان الديناري (2D) هو الجوكر، بكل قدراته وقيمته",
        "تنتهي اللعبة بعد الجولة التي يبلغ فيها أحد اللاعبين 40",
    ]


def test_the_log_a_session_keeps_is_english_whatever_the_language(
        least, ok: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    least("Ann", "Bob")
    monkeypatch.setenv("SCOREKEEPER_LANG", "da")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=4")
    ok("undo")
    stored = json.loads(db_path.read_text(encoding="utf-8"))[SESSIONS]["1"]
    assert [entry["detail"] for entry in stored["history"][-2:]] == [
        "round 1: Ann declared; Ann +0, Bob +1",
        "removed round 1: Ann declared; Ann +0, Bob +1",
    ]


def test_in_english_speaks_english_inside_and_the_language_after(speaking: None) -> None:
    i18n.activate("da")
    with in_english():
        assert i18n.active_language() == "en"
        assert Session.__name__  # nothing else changes
    assert i18n.active_language() == "da"
