"""`score play` and `score replay` at the table (issue 11, points 5 and 10).

The keyboard UIs are driven with a scripted keyboard (``ask`` answers from a list,
``say`` collects what is shown) on deals built from a FORMAT.md record, so every
hand is known; `score play` and `score replay` are run whole where it matters.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Result
from rich.console import Console
from terminal import interrupt_when_shown

from scorekeeper import match
from scorekeeper.cards import STANDARD_DECK, parse_card
from scorekeeper.games.least_score import bots as least_bots
from scorekeeper.games.least_score import engine as least_engine
from scorekeeper.games.least_score import ui as least_score_ui
from scorekeeper.games.least_score.rules import Options as LeastOptions
from scorekeeper.games.one_card import bots as one_bots
from scorekeeper.games.one_card import engine as one_engine
from scorekeeper.games.one_card import rules as one_rules
from scorekeeper.games.one_card import ui as one_card_ui
from scorekeeper.games.one_card.rules import Options as OneOptions

Run = Callable[..., Result]


def shown(things: Iterable[Any]) -> str:
    console = Console(file=io.StringIO(), width=300, color_system=None, highlight=False)
    for thing in things:
        console.print(thing)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


class Keyboard:
    """Answers the prompts from a script; keeps everything shown."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.said: list[Any] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert self.answers, f"no answer left for {prompt!r}; shown: {self.output}"
        return self.answers.pop(0)

    def say(self, thing: Any) -> None:
        self.said.append(thing)

    @property
    def output(self) -> str:
        return shown(self.said)


# ---------------------------------------------------------------------------
# Least Score

LEAST_HANDS = {"Ann": ["KD", "AH", "5C", "QS", "2C"],
               "Bob": ["3D", "9S", "9C", "4H", "JD"],
               "Cy": ["6S", "6H", "10C", "8D", "2S"]}


def least_deal(hands: dict[str, list[str]] | None = None) -> least_engine.Deal:
    hands = hands or LEAST_HANDS
    used = {card for hand in hands.values() for card in hand} | {"7C"}
    deck = [str(card) for card in STANDARD_DECK if str(card) not in used]
    return least_engine.Deal.from_record(
        {"dealer": "Cy", "hands": hands, "floor": ["7C"], "deck": deck}, LeastOptions())


def test_least_score_hand_is_sorted_by_rank_and_runs_are_listed_in_order() -> None:
    view = least_deal().view("Ann")
    assert "Ann, your hand: A♥ 2♣ 5♣ Q♠ K♦" in shown([least_score_ui.render_view(view)])
    moves = "\n".join(least_score_ui.legal_moves(view))
    assert "QS KD AH" in moves  # the run Q-K-A, in order, the ace on top
    assert "AH QS KD" not in moves and "KD QS AH" not in moves
    singles = moves.split("Discard one of: ")[1].split(" | ")[:5]
    assert singles == ["AH", "2C", "5C", "QS", "KD"]


def test_least_score_help_answers_the_question_asked() -> None:
    view = least_deal().view("Ann")
    keyboard = Keyboard(["?", "QS KD AH", "?", "7C"])
    action = least_score_ui.read_action(view, keyboard.ask, keyboard.say)
    assert isinstance(action, least_engine.Discard)
    assert {str(c) for c in action.cards} == {"QS", "KD", "AH"} and str(action.take) == "7C"
    first_help, take_help = keyboard.output.split("Discard one of:", 1)
    # The move: no declaring before everyone has had a turn, so no word of it.
    assert "declare" not in first_help.lower()
    # The take, asked on its own: what to type there, and only that.
    assert keyboard.prompts[-1].startswith("Take 7C or deck?")
    assert "Take one card: a card of the floor" in take_help
    assert "Take: 7C, deck" in take_help
    assert "is not a card" not in keyboard.output


def test_least_score_speaks_of_its_own_cards() -> None:
    view = least_deal().view("Ann")
    keyboard = Keyboard(["banana", "JK", "AH 7C"])
    least_score_ui.read_action(view, keyboard.ask, keyboard.say)
    out = keyboard.output
    assert "'banana' is not a card: write rank then suit: ranks A 2-10 J Q K" in out
    assert "joker" not in out.split("JK")[0].lower()  # the card help has no joker
    assert "played without the joker" in out  # ... and a typed JK is told so


def least_turns(deal: least_engine.Deal, count: int) -> None:
    rng = random.Random(3)
    for _ in range(count):
        player = deal.current_player
        assert player is not None
        deal.apply(least_bots.GreedyBot().choose(deal.view(player), rng))


def test_least_score_hint_tells_the_strong_bots_move_and_the_chance_of_declaring() -> None:
    deal = least_deal()
    early = deal.view("Ann")
    keyboard = Keyboard(["hint", "AH 7C"])
    least_score_ui.read_action(early, keyboard.ask, keyboard.say, random.Random(5))
    advice = least_bots.StrongBot().advise(early, random.Random(5))
    assert isinstance(advice.action, least_engine.Discard)
    typed = " ".join(str(c) for c in least_score_ui.in_order(advice.action.cards))
    take = "deck" if advice.action.take is None else str(advice.action.take)
    assert "Hint — the strong bot would discard" in keyboard.output
    assert f"(type: {typed} {take})" in keyboard.output
    assert "No declaring before everyone has had a turn" in keyboard.output

    least_turns(deal, 3)  # everyone has had a turn: Ann may declare
    later = deal.view("Ann")
    assert later.can_declare
    keyboard = Keyboard(["hint", "declare"])
    least_score_ui.read_action(later, keyboard.ask, keyboard.say, random.Random(6))
    advice = least_bots.StrongBot().advise(later, random.Random(6))
    assert advice.declare_chance is not None
    assert re.search(r"a good declaration \d+% of the time, [+-]\d+\.\d points", keyboard.output)
    assert f"{advice.declare_chance:.0%} of the time" in keyboard.output


# ---------------------------------------------------------------------------
# One Card

ONE_HANDS = {"Ann": ["9C", "AS", "JK", "10H", "KD", "QS", "9H", "AC"],
             "Bob": ["9S", "10S", "JS", "KS", "AH", "KH", "QH", "JH"],
             "Cy": ["9D", "10D", "JD", "QD", "AD", "10C", "JC", "QC"]}


def one_deal() -> one_engine.Deal:
    return one_engine.Deal.from_record({"dealer": "Cy", "hands": ONE_HANDS, "one_card": "KC"},
                                       OneOptions())


def test_one_card_hand_and_legal_moves_go_by_suit_and_rank() -> None:
    deal = one_deal()
    view = deal.view("Ann")
    assert "Ann, your hand: A♠ Q♠ 10♥ 9♥ K♦ A♣ 9♣ JK" in shown([one_card_ui.render_view(view)])
    assert one_card_ui.legal_moves(view) == ["Legal: pass, 7, 8, 9, 10, 11, 12, 13, 14, 15"]
    for action in (one_engine.Bid(7), one_engine.Bid(None), one_engine.Bid(None)):
        deal.apply(action)
    lead = deal.view("Ann")
    assert one_card_ui.legal_moves(lead) == [
        "Legal: AS, QS, 10H, 9H, KD, AC, 9C, JK S, JK H, JK D, JK C"]


def test_one_card_bidding_line_shows_the_real_lowest_bid() -> None:
    deal = one_deal()
    assert "lowest bid now 7" in shown([one_card_ui.render_view(deal.view("Ann"))])
    deal.apply(one_engine.Bid(8))
    out = shown([one_card_ui.render_view(deal.view("Bob"))])
    assert "high bid 8 by Ann (lowest bid now 9, highest 15)" in out
    keyboard = Keyboard(["eight", "pass"])
    one_card_ui.read_action(deal.view("Bob"), keyboard.ask, keyboard.say)
    assert "bid a number from 9 to 15, or 'pass'" in keyboard.output


def test_one_card_help_answers_the_question_asked() -> None:
    deal = one_deal()
    keyboard = Keyboard(["?", "pass"])
    one_card_ui.read_action(deal.view("Ann"), keyboard.ask, keyboard.say)
    bidding = keyboard.output
    assert "Bid the points you expect to take, from 7 to 15" in bidding
    assert "uptown" not in bidding and "JK H" not in bidding and "QS" not in bidding

    for action in (one_engine.Bid(None), one_engine.Bid(None), one_engine.Bid(None)):
        deal.apply(action)  # nobody bids: a no-trump deal, led by Ann (left of Cy)
    keyboard = Keyboard(["?", "9C"])
    one_card_ui.read_action(deal.view("Ann"), keyboard.ask, keyboard.say)
    leading = keyboard.output
    assert "Play a card of your hand" in leading and "Bid the points" not in leading
    assert "name the suit the others must follow after it: 'JK H'" in leading
    assert "uptown" not in leading
    deal.apply(one_engine.Play(parse_card("9C")))
    keyboard = Keyboard(["?", "9S"])
    one_card_ui.read_action(deal.view("Bob"), keyboard.ask, keyboard.say)
    following = keyboard.output
    assert "You must follow clubs if you can." in following
    assert "JK H" not in following and "uptown" not in following


def test_one_card_speaks_of_its_own_cards_and_says_when_the_joker_is_not_held() -> None:
    deal = one_deal()
    for action in (one_engine.Bid(None), one_engine.Bid(None), one_engine.Bid(None),
                   one_engine.Play(parse_card("9C"))):
        deal.apply(action)
    bob = deal.view("Bob")
    keyboard = Keyboard(["banana", "5H", "JK", "QD", "9S"])
    action = one_card_ui.read_action(bob, keyboard.ask, keyboard.say)
    assert action == one_engine.Play(parse_card("9S"))
    out = keyboard.output
    assert "'banana' is not a card: write rank then suit: ranks 9 10 J Q K A" in out
    assert "2-10" not in out
    assert "5♥ is not in One Card's deck" in out
    assert "you don't hold the joker" in out
    assert "you don't hold the Q♦" in out


def test_one_card_hint_tells_the_strong_bots_bid_with_expected_points() -> None:
    view = one_deal().view("Ann")
    keyboard = Keyboard(["hint", "pass"])
    one_card_ui.read_action(view, keyboard.ask, keyboard.say, random.Random(2))
    advice = one_bots.StrongBot().advise(view, random.Random(2))
    assert advice.bid_points is not None and advice.pass_points is not None
    out = keyboard.output
    assert isinstance(advice.action, one_engine.Bid)
    amount = advice.action.amount
    expected = "pass" if amount is None else f"bid {amount}"
    assert f"Hint — the strong bot would {expected}" in out
    assert (f"Expected points this deal: {advice.bid_points:.1f} bidding 7, "
            f"{advice.pass_points:.1f} passing") in out


def views_of_a_deal(session: Any) -> list[Any]:
    """The view of the player to act after every action of the session's next deal."""
    views: list[Any] = []

    def seen(player: str, action: Any, deal: Any) -> None:
        if deal.current_player is not None:
            views.append(deal.view(deal.current_player))

    match.play_deal(session, on_action=seen)
    assert views
    return views


def test_strong_bots_advice_is_the_move_they_choose() -> None:
    """``advise`` draws what ``choose`` draws and picks the same action."""
    for game, strong in (("least-score", least_bots.StrongBot(samples=40)),
                         ("one-card", one_bots.StrongBot(iterations=60, bid_samples=8))):
        seats = [match.Seat(f"P{i}", "greedy") for i in range(3)]
        session = match.start_game(game, seats, 12, options={"limit": 25}
                                   if game == "least-score" else {})
        for index, view in enumerate(views_of_a_deal(session)[:25]):
            advice = strong.advise(view, random.Random(index))
            assert advice.action == strong.choose(view, random.Random(index))


def test_hint_works_in_a_game_at_the_keyboard(cli: CLI,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n"))
    result = cli("play", "one-card", "--player", "Ann", "--bot", "greedy", "--seed", 1)
    assert result.exit_code == 130, result
    assert "Hint — the strong bot would" in result.stdout
    assert "Expected points this deal" in result.stdout or "expects to score" in result.stdout


# ---------------------------------------------------------------------------
# Knock-outs, as at the table


def test_play_announces_each_knock_out(cli: CLI) -> None:
    result = cli("play", "least-score", "--bot", "greedy", "--bot", "random", "--bot",
                 "random", "--seed", 4, "--limit", 25)
    assert result.exit_code == 0, result
    data = json.loads(cli("export", "--format", "json").stdout)
    assert data["knocked_out"]
    for round_ in data["rounds"]:
        for name in round_["knocked_out"]:
            total = sum(r["scores"].get(name, 0) for r in data["rounds"]
                        if r["number"] <= round_["number"])
            line = f"{name} is knocked out: {total} is over the limit of 25."
            assert line in result.stdout
            assert result.stdout.index(line) > result.stdout.index(
                f"Round {round_['number']}:")


# ---------------------------------------------------------------------------
# Replay


def played(run: Run, game: str, seed: int) -> dict[str, Any]:
    result = run("play", game, "--bot", "greedy", "--bot", "random", "--bot", "random",
                 "--seed", seed, *(["--limit", "25"] if game == "least-score" else []))
    assert result.exit_code == 0, result
    data: dict[str, Any] = json.loads(run("export", "--format", "json").stdout)
    assert len(data["rounds"]) >= 2
    return data


def test_one_card_replay_says_who_won_each_trick(cli: CLI) -> None:
    data = played(cli, "one-card", 2)
    result = cli("replay", data["id"], "--round", 1, "--no-pause")
    assert result.exit_code == 0, result
    round_ = data["rounds"][0]
    deal = one_engine.Deal.from_record(round_["deal"], OneOptions())
    deal.replay(round_["actions"])
    winners = re.findall(r"→ (\S+) wins the trick \((\d+) points?\)", result.stdout)
    assert winners == [(deal.players[t.winner], str(t.points)) for t in deal.tricks]
    assert len(winners) == one_rules.hand_size(3)


@pytest.mark.e2e
def test_replay_keys_q_quits_n_and_p_move_between_deals(score_run: Run) -> None:
    data = played(score_run, "one-card", 2)
    replay = ("replay", data["id"], "--pause")

    quit_ = score_run(*replay, stdin="\nq\n")
    assert quit_.exit_code == 0, quit_
    assert "  1. " in quit_.stdout and "  2. " not in quit_.stdout
    assert "Deal 2 —" not in quit_.stdout

    skip = score_run(*replay, stdin="n\n\nq\n")
    assert skip.exit_code == 0, skip
    assert skip.stdout.index("Deal 2 —") < skip.stdout.index("  1. ")
    assert skip.stdout.count("  1. ") == 1

    back = score_run(*replay, stdin="\n\nn\np\nq\n")
    assert back.exit_code == 0, back
    deals = re.findall(r"Deal (\d+) —", back.stdout)
    assert deals == ["1", "2", "1"]


@pytest.mark.e2e
def test_replay_stops_on_end_of_input_with_a_clean_line(score_run: Run) -> None:
    data = played(score_run, "least-score", 3)
    stopped = score_run("replay", data["id"], "--pause", stdin="\n")
    assert stopped.exit_code == 130, stopped
    assert stopped.stderr == ""
    assert stopped.stdout.endswith("(Enter: next)\nReplay stopped.\n"), stopped.stdout[-200:]


@pytest.mark.e2e
def test_ctrl_c_in_replay_leaves_a_clean_prompt(score_exe: Path, score_env: dict[str, str],
                                                score_run: Run) -> None:
    data = played(score_run, "one-card", 2)
    code, out, err = interrupt_when_shown(score_exe, score_env,
                                          ["replay", str(data["id"]), "--pause"],
                                          b"(Enter: next)")
    assert code == 130
    assert err == b""
    assert out.decode().endswith("(Enter: next)\nReplay stopped.\n")


def test_least_score_hint_asked_twice_in_one_position_gives_the_same_estimate() -> None:
    """Issue 28.7: the estimate is drawn from the position, not from the next numbers of
    a generator that the first hint moved on."""
    deal = least_deal()
    least_turns(deal, 3)
    view = deal.view("Ann")
    assert view.can_declare
    keyboard = Keyboard(["hint", "hint", "declare"])
    least_score_ui.read_action(view, keyboard.ask, keyboard.say, random.Random(6))
    first, second = (shown([thing]) for thing in keyboard.said)
    assert "a good declaration" in first
    assert first == second


def test_one_card_hint_asked_twice_in_one_position_gives_the_same_estimate() -> None:
    view = one_deal().view("Ann")
    keyboard = Keyboard(["hint", "hint", "pass"])
    one_card_ui.read_action(view, keyboard.ask, keyboard.say, random.Random(2))
    first, second = (shown([thing]) for thing in keyboard.said)
    assert "Expected points this deal" in first
    assert first == second


def test_score_play_gives_the_same_hint_twice_in_one_position(
        cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 1: Ann's first move as the hint says; at her second she may declare, and the
    # hint estimates the declaration, the same both times it is asked.
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.setattr("sys.stdin", io.StringIO("JH 2D\nhint\nhint\n"))
    result = cli("play", "least-score", "--player", "Ann", "--bot", "greedy", "--seed", 1)
    assert result.exit_code == 130, result
    hints = re.findall(r"Hint — .*", result.stdout)
    assert len(hints) == 2 and "a good declaration" in hints[0], result.stdout
    assert hints[0] == hints[1]
