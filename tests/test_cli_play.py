"""`score play`: whole games at one keyboard, driven through the real `score`'s stdin.

The technique: the same seed with the same seats gives the same deals (every shuffle
and every bot draw comes from ``match.derive_rng``), so a game is first played
in-process through the match layer (``scorekeeper.match``) with a scripted human
who records, in the notation of the game's UI module, the line a person would type
for each of their moves, the Enter of each keyboard hand-over, and a few mistakes
(text that is not a move, moves the rules refuse). Those lines are then fed to the
real `score play` in a subprocess, which must play the same game to its end and
save the same rounds, deal and actions included (FORMAT.md, "A virtual round").
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import CLI, Refuse, Result

from scorekeeper import match
from scorekeeper.games.least_score import engine as least_engine
from scorekeeper.games.one_card import engine as one_engine
from scorekeeper.games.one_card import rules as one_rules
from scorekeeper.session import Session
from scorekeeper.summary import session_from_summary, summary_of

Run = Callable[..., Result]

# ---------------------------------------------------------------------------
# What a person types (the notation of least_score_ui and one_card_ui)


def least_score_text(action: Any) -> str:
    """``declare``, or the discard then the take: ``3H 3S 7C``, ``9D deck``."""
    if isinstance(action, least_engine.Declare):
        return "declare"
    take = "deck" if action.take is None else str(action.take)
    return " ".join(str(card) for card in action.cards) + " " + take


def one_card_text(action: Any) -> str:
    """A bid (``8``) or ``pass``; a card (``QS``), a joker lead naming a suit (``JK H``);
    ``uptown`` / ``downtown``."""
    if isinstance(action, one_engine.Bid):
        return "pass" if action.amount is None else str(action.amount)
    if isinstance(action, one_engine.ChooseOrder):
        return str(action.order)
    if action.suit is not None:
        return f"{action.card} {action.suit.value}"
    return str(action.card)


def least_score_mistakes(view: Any) -> list[tuple[str, Any]]:
    """(kind, move) the engine must refuse on the human's turn in ``view``."""
    mistakes: list[tuple[str, Any]] = []
    if not view.can_declare:
        mistakes.append(("declare", least_engine.Declare()))  # before everyone had a turn
    hand = list(view.hand)
    triple = [c for c in hand if sum(1 for d in hand if d.rank == c.rank) == 3]
    take = None if view.deck_available else view.floor[0]
    if triple:
        mistakes.append(("discard", least_engine.Discard(tuple(triple), take)))
    else:
        first = hand[0]
        other = next(c for c in hand if c.rank != first.rank)
        mistakes.append(("discard", least_engine.Discard((first, other), take)))  # no pair
    return mistakes


def one_card_mistakes(view: Any) -> list[tuple[str, Any]]:
    if view.phase is one_engine.Phase.BIDDING:
        return [("bid", one_engine.Bid(one_rules.lowest_bid(view.num_players) - 1))]
    if view.phase is one_engine.Phase.PLAY and view.trick:
        legal = {a.card for a in view.legal if isinstance(a, one_engine.Play)}
        unfollowed = [card for card in view.hand if card not in legal]
        if unfollowed:
            return [("follow", one_engine.Play(unfollowed[0]))]  # does not follow suit
    return []


NOTATION = {"least-score": (least_score_text, least_score_mistakes),
            "one-card": (one_card_text, one_card_mistakes)}
GARBAGE = {"least-score": ("banana", "'banana' is not a card"),
           "one-card": ("banana", "bid a number from")}
HELP = {"least-score": "Discard one of:", "one-card": "Legal:"}


@dataclass
class Script:
    """A game played in-process, and what the humans typed in it, deal by deal."""

    session: Session
    lines_by_deal: list[list[str]]
    refusals: list[str] = field(default_factory=list)
    """The reasons the engine gave for the planted illegal moves."""

    def lines(self, deals: slice = slice(None)) -> list[str]:
        return [line for lines in self.lines_by_deal[deals] for line in lines]

    def stdin(self, deals: slice = slice(None)) -> str:
        return "".join(line + "\n" for line in self.lines(deals))

    @property
    def rounds(self) -> list[dict[str, Any]]:
        rounds: list[dict[str, Any]] = summary_of(self.session)["rounds"]
        return rounds


def script_game(game: str, humans: Sequence[str], bots: Sequence[str], seed: int,
                options: dict[str, Any] | None = None, *, mistakes: bool = True,
                start: Session | None = None) -> Script:
    """Play the game ``score play`` would play for these seats and seed, humans scripted.

    Each human plays uniformly random legal moves. On the first turns, a human also
    asks for help (``?``), types text that is not a move, then tries the moves of
    ``NOTATION``'s mistake list, which the engine must refuse (each refusal reason
    is recorded). ``start`` continues a saved game instead (``play --resume``).
    With two humans or more, an empty line answers each "Pass the
    keyboard to ...", the first hand's included (the hand-over rule of
    ``virtual_commands.Table``).
    """
    to_text, mistakes_for = NOTATION[game]
    session = start or match.start_game(game, match.make_seats(humans, bots), seed,
                                        options=options or {})
    rng = random.Random(f"human/{seed}")
    script = Script(session, [])
    state: dict[str, Any] = {"shown_to": None, "helped": not mistakes, "planted": set(),
                             "queue": [], "expect_refusal": False}

    def choose(player: str, view: Any, problem: str | None) -> Any:
        if problem is None:
            assert not state["expect_refusal"], "the engine accepted an illegal move"
            if mistakes:
                wrong = [(kind, move) for kind, move in mistakes_for(view)
                         if kind not in state["planted"]]
                state["planted"].update(kind for kind, _ in wrong)
                state["queue"] = [move for _, move in wrong]
        else:
            assert state["expect_refusal"], f"a legal move was refused: {problem}"
            script.refusals.append(problem)
        if len(humans) > 1 and state["shown_to"] != player:
            lines.append("")  # Enter, at "Pass the keyboard to ..." (the first hand too)
            state["shown_to"] = player
        if not state["helped"]:
            state["helped"] = True
            lines.extend(["?", GARBAGE[game][0]])  # help, then text that is no move
        if state["queue"]:
            action = state["queue"].pop(0)
            state["expect_refusal"] = True
        else:
            legal = view.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state["expect_refusal"] = False
        lines.append(to_text(action))
        return action

    while not session.finished:
        lines: list[str] = []
        session = match.play_deal(session, choose_human=choose)
        script.lines_by_deal.append(lines)
    assert not state["expect_refusal"]
    script.session = session
    return script


def play_args(game: str, humans: Sequence[str], bots: Sequence[str], seed: int,
              options: dict[str, Any] | None = None) -> list[str]:
    args = ["play", game]
    for name in humans:
        args += ["--player", name]
    for level in bots:
        args += ["--bot", level]
    args += ["--seed", str(seed)]
    for key, value in (options or {}).items():
        args += [f"--{key}", str(value)]
    return args


def exported(run: Run, session_id: int | None = None) -> dict[str, Any]:
    args = ["export", "--format", "json"]
    if session_id is not None:
        args.insert(1, str(session_id))
    result = run(*args)
    assert result.exit_code == 0, result
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def check_virtual_rounds(game: str, data: dict[str, Any]) -> None:
    """Every round carries its deal and actions, in FORMAT.md's shape."""
    assert data["mode"] == "virtual"
    players = set(data["players"])
    for round_ in data["rounds"]:
        deal, actions = round_["deal"], round_["actions"]
        assert deal["dealer"] == round_["dealer"]
        assert set(deal["hands"]) <= players
        assert actions
        for action in actions:
            if "reshuffle" in action:
                assert game == "least-score" and action["reshuffle"]
                continue
            assert action["player"] in deal["hands"]
        if game == "least-score":
            assert set(deal) >= {"dealer", "hands", "floor", "deck"}
            assert all(len(hand) == 5 for hand in deal["hands"].values())
            assert actions[-1] == {"player": round_["declarer"], "declare": True}
            for action in actions[:-1]:
                assert "reshuffle" in action or set(action) == {"player", "discard", "take"}
        else:
            assert set(deal) >= {"dealer", "hands", "one_card"}
            for action in actions:
                assert len(set(action) & {"bid", "play", "order"}) == 1
                assert set(action) - {"bid", "play", "order"} <= {"player", "suit"}
            assert "bid" in actions[0]  # the deal opens with the bidding


def same_game(data: dict[str, Any], script: Script) -> None:
    expected = summary_of(script.session)
    for key in ("game", "mode", "players", "options", "rounds", "totals", "knocked_out",
                "status", "winners"):
        assert data[key] == expected[key], key


def first_seed(game: str, humans: Sequence[str], bots: Sequence[str], start: int,
               options: dict[str, Any] | None = None, *, deals: int = 2) -> tuple[int, Script]:
    """The first seed from ``start`` whose scripted game lasts at least ``deals`` deals."""
    for seed in range(start, start + 50):
        script = script_game(game, humans, bots, seed, options)
        if len(script.session.rounds) >= deals:
            return seed, script
    raise AssertionError("no seed gives a long enough game")


GAMES = [
    pytest.param("least-score", ["greedy", "random"], {"limit": 25}, id="least-score"),
    pytest.param("one-card", ["greedy", "random"], {}, id="one-card"),
]


# ---------------------------------------------------------------------------
# One human against bots, start to end


@pytest.mark.parametrize(("game", "bots", "options"), GAMES)
@pytest.mark.e2e
def test_a_human_game_through_stdin_is_played_and_saved_as_scripted(
        score_run: Run, game: str, bots: list[str], options: dict[str, Any]) -> None:
    seed, script = first_seed(game, ["Ann"], bots, 7, options)
    assert len(script.refusals) >= 2, script.refusals

    result = score_run(*play_args(game, ["Ann"], bots, seed, options), stdin=script.stdin())

    assert result.exit_code == 0, result.output[-3000:]
    assert "Traceback" not in result.output
    out = result.stdout
    assert f"seed {seed}" in out and "Saved after every deal" in out
    # The mistakes: help was shown, text that is no move was explained, and each
    # illegal move was refused with the engine's reason, after which play went on.
    assert HELP[game] in out
    assert GARBAGE[game][1] in out
    for reason in script.refusals:
        assert f"Not allowed: {reason}" in out, reason
    last_refusal = max(out.index(f"Not allowed: {r}") for r in script.refusals)
    assert "Deal 1 saved" in out[last_refusal:]
    # The end.
    winners = " and ".join(script.session.standings.winners)
    assert f"Game over: {winners} win" in out
    assert out.rstrip().endswith("The bot's review: score review 1")  # offered at the end
    assert out.count("Deal ") >= len(script.rounds)
    for number in range(1, len(script.rounds) + 1):
        assert f"Deal {number} saved" in out

    data = exported(score_run)  # the game became the current session
    assert data["status"] == "finished"
    same_game(data, script)
    check_virtual_rounds(game, data)
    listing = score_run("sessions")
    assert listing.exit_code == 0 and "finished" in listing.stdout


@pytest.mark.e2e
def test_a_one_card_human_can_lead_the_joker_naming_a_suit(score_run: Run) -> None:
    """A joker lead typed as ``JK H`` (and an order choice, when one comes up)."""
    for seed in range(40):
        script = script_game("one-card", ["Ann"], ["random"], seed, mistakes=False)
        typed = script.lines()
        if any(line.startswith("JK ") for line in typed):
            break
    else:
        pytest.fail("no seed has the human lead the joker")
    result = score_run(*play_args("one-card", ["Ann"], ["random"], seed), stdin=script.stdin())
    assert result.exit_code == 0, result.output[-3000:]
    assert "Ann plays JK naming" in result.stdout
    same_game(exported(score_run), script)


# ---------------------------------------------------------------------------
# Two humans at one keyboard


def hand_over_segments(out: str) -> list[tuple[str | None, str]]:
    """The output split at each hand-over: (who was handed the keyboard, what followed)."""
    parts = re.split(r"Pass the keyboard to (.+?) and press Enter:", out)
    segments: list[tuple[str | None, str]] = [(None, parts[0])]
    segments += [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]
    return segments


@pytest.mark.parametrize(("game", "bots", "options"), [
    pytest.param("least-score", ["greedy"], {"limit": 25}, id="least-score"),
    pytest.param("one-card", ["random"], {}, id="one-card"),
])
@pytest.mark.e2e
def test_two_humans_hand_over_the_keyboard_and_never_see_each_others_hand(
        score_run: Run, game: str, bots: list[str], options: dict[str, Any]) -> None:
    humans = ["Ann", "Bob"]
    seed, script = first_seed(game, humans, bots, 3, options)
    assert "" in script.lines()

    result = score_run(*play_args(game, humans, bots, seed, options), stdin=script.stdin())

    assert result.exit_code == 0, result.output[-3000:]
    segments = hand_over_segments(result.stdout)
    assert len(segments) >= 3, "the keyboard was never handed over"
    assert "Since your last turn:" in result.stdout
    # No hand before the first hand-over: whoever holds the keyboard at the start is
    # not necessarily the first to play.
    assert "your hand:" not in segments[0][1]
    for handed_to, text in segments[1:]:
        assert handed_to is not None
        owner = handed_to
        other = next(name for name in humans if name != owner)
        assert f"{owner}, your hand:" in text, (owner, text[:500])
        assert f"{other}, your hand:" not in text, (owner, text[:2000])
        assert f"{other}, your " not in text  # no prompt of the other human either
    # Hand-overs alternate between the two humans.
    handed = [name for name, _ in segments[1:]]
    assert all(a != b for a, b in itertools.pairwise(handed))
    data = exported(score_run)
    assert data["status"] == "finished"
    same_game(data, script)


# ---------------------------------------------------------------------------
# Bots only: unattended


@pytest.mark.parametrize(("game", "bots", "options"), [
    pytest.param("least-score", ["random", "greedy", "random"], {"limit": 25},
                 id="least-score"),
    pytest.param("one-card", ["greedy", "random", "random"], {}, id="one-card"),
])
def test_bots_only_play_runs_to_the_end_unattended_and_repeats_with_its_seed(
        cli: CLI, game: str, bots: list[str], options: dict[str, Any]) -> None:
    runs = []
    for seed in (5, 5, 6):
        result = cli(*play_args(game, [], bots, seed, options))
        assert result.exit_code == 0, result
        assert "Game over:" in result.stdout and "Round 1:" in result.stdout
        assert "score review" not in result.stdout  # no human: no review offered
        found = re.match(r"Session (\d+):", result.stdout)
        assert found, result.stdout
        session_id = int(found.group(1))
        runs.append(exported(cli, session_id))
    first, again, other = runs
    assert [r["id"] for r in runs] == [1, 2, 3]
    for data in runs:
        assert data["status"] == "finished" and data["winners"]
        check_virtual_rounds(game, data)
    assert exported(cli)["id"] == 3  # the last game is the current session
    assert [(r["deal"], r["actions"]) for r in first["rounds"]] == [
        (r["deal"], r["actions"]) for r in again["rounds"]]
    assert first["totals"] == again["totals"] and first["winners"] == again["winners"]
    assert [r["deal"] for r in other["rounds"]] != [r["deal"] for r in first["rounds"]]
    # It is the match layer's game for those seats and that seed.
    expected = match.play_to_end(
        match.start_game(game, match.make_seats([], bots), 5, options=options))
    assert first["rounds"] == summary_of(expected)["rounds"]


def test_play_refuses_what_it_cannot_play(refuse: Refuse) -> None:
    refuse("play", "least-score", "--bot", "genius", "--bot", "greedy",
           says="there is no bot 'genius'")
    refuse("play", "one-card", *["--bot", "random"] * 5, says="2 to 4 players")
    refuse("play", "least-score", "--bot", "random", says="not 1")
    refuse("play", "least-score", "--player", "Ann", "--player", "ann", "--bot", "random",
           says="same name")
    refuse("play", "one-card", "--bot", "random", "--bot", "random", "--limit", "25",
           code=2, says="--limit is a house rule of Least Score and Yaniv, not of One Card")
    refuse("play", "least-score", "--bot", "random", "--bot", "random", "--tie", "often",
           code=2, says="--tie must be declarer-wins or declarer-loses, not 'often'")


# ---------------------------------------------------------------------------
# Stopping and resuming


@pytest.mark.e2e
def test_eof_stops_the_game_like_ctrl_c_and_resume_deals_the_deal_again_fresh(
        score_run: Run) -> None:
    game, bots, options = "least-score", ["greedy", "random"], {"limit": 25}
    seed, script = first_seed(game, ["Ann"], bots, 11, options, deals=3)
    while len(script.lines_by_deal[1]) < 2:  # Ann must type twice in deal 2
        seed, script = first_seed(game, ["Ann"], bots, seed + 1, options, deals=3)
    second = script.lines_by_deal[1]
    # Stdin ends after deal 1 and half of deal 2.
    stdin = script.stdin(slice(0, 1)) + "".join(line + "\n" for line in second[:1])

    stopped = score_run(*play_args(game, ["Ann"], bots, seed, options), stdin=stdin)

    assert stopped.exit_code == 130, stopped.output[-2000:]
    assert "Traceback" not in stopped.output
    assert "Stopped. The game is saved after deal 1;" in stopped.stdout
    assert "deal 2 will be dealt again from a fresh shuffle" in stopped.stdout
    assert "score play --resume 1" in stopped.stdout
    saved = exported(score_run, 1)
    assert saved["status"] == "in-progress"
    assert saved["rounds"] == script.rounds[:1]  # deal 2, half played, was not saved
    assert saved["virtual"]["restarts"] == {"2": 1}  # ... but its abandonment was

    # Resume: Ann saw half of deal 2's cards, so deal 2 comes from a fresh shuffle,
    # derived from the seed and the restart: the game stays reproducible.
    # (The export of a game with a human keeps its seed back until the game is over:
    # this test chose the seed, so it puts it back.)
    assert "seed" not in saved["virtual"]
    with_seed = {**saved, "virtual": {**saved["virtual"], "seed": seed}}
    restarted = script_game(game, ["Ann"], bots, seed, options, mistakes=False,
                            start=session_from_summary(with_seed))
    resumed = score_run("play", "--resume", 1, stdin=restarted.stdin())
    assert resumed.exit_code == 0, resumed.output[-3000:]
    assert "Deal 2 — " in resumed.stdout and "(dealt again: a fresh shuffle)" in resumed.stdout
    assert "Game over:" in resumed.stdout
    final = exported(score_run, 1)
    same_game(final, restarted)
    assert final["rounds"][0] == script.rounds[0]
    assert final["rounds"][1]["deal"] != script.rounds[1]["deal"]


def test_resume_refuses_other_arguments_and_finished_or_table_sessions(
        cli: CLI, refuse: Refuse) -> None:
    assert cli("play", "one-card", "--bot", "random", "--bot", "greedy", "--seed", 2
               ).exit_code == 0
    refuse("play", "--resume", 1, says="finished: nothing to resume")
    refuse("play", "--resume", 1, "--seed", 3, code=2, says="--resume continues a saved game")
    refuse("play", "--resume", 1, "--limit", 30, code=2,  # the resumed game's house rules
           says="--limit is a house rule of Least Score and Yaniv, not of One Card")
    assert cli("new", "least-score", "--player", "Ann", "--player", "Bob").exit_code == 0
    refuse("play", "--resume", 2, says="not played on the virtual deck")
    refuse("play", "--resume", 9, says="9")


def test_play_takes_every_house_rule_of_the_game(ok: CLI, summary: Any) -> None:
    """The house rules of `score new` (generated from the game's declaration), not only
    --limit: a group that plays the 2♦ joker or to 10 can practise it on the virtual deck."""
    ok("play", "one-card", *["--bot", "greedy"] * 3, "--seed", "4", "--joker",
       "two-of-diamonds", "--target", "10")
    data = summary()
    assert data["options"] == {"joker": "two-of-diamonds", "target": 10}
    assert data["status"] == "finished" and max(data["totals"].values()) >= 10
    ok("play", "least-score", "--bot", "greedy", "--bot", "random", "--seed", "4",
       "--two-pairs", "any-rank", "--end", "first-out", "--limit", "10")
    assert summary()["options"] == {"limit": 10, "tie": "declarer-wins", "end": "first-out",
                                    "two_pairs": "any-rank"}
