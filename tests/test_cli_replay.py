"""`score replay`, and importing a virtual game: every deal replayed from its record."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result

from scorekeeper.cards import parse_card, parse_suit
from scorekeeper.summary import summary_of

Run = Callable[..., Result]

BOT_GAMES = [
    pytest.param("least-score", ["greedy", "random", "random"], ["--limit", "25"],
                 id="least-score"),
    pytest.param("one-card", ["greedy", "random", "random"], [], id="one-card"),
]


def pretty(card: str) -> str:
    return "JK" if card == "JK" else parse_card(card).pretty()


RANK_VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}


def shown_in_order(cards: list[str], game: str) -> list[str]:
    """How a replay orders cards. Least Score: by rank, the ace low except at the top
    of a run (Q K A); One Card: by suit (S H D C), highest first, the joker last."""
    if game == "one-card":
        def key(card: str) -> tuple[int, int]:
            if card == "JK":
                return (4, 0)
            rank = RANK_VALUE[card[:-1]]
            return ("SHDC".index(card[-1]), -(14 if rank == 1 else rank))
        return sorted(cards, key=key)
    ordered = sorted(cards, key=lambda c: (RANK_VALUE[c[:-1]], "SHDC".index(c[-1])))
    ranks = [RANK_VALUE[c[:-1]] for c in ordered]
    if len(ordered) in (3, 5) and len(set(ranks)) == len(ranks) and {1, 13} <= set(ranks):
        ordered = ordered[1:] + ordered[:1]
    return ordered


def expected_line(record: dict[str, Any]) -> str:
    """How a replay tells one recorded action (FORMAT.md, "A virtual round")."""
    if "reshuffle" in record:
        return f"The dead pile is shuffled into a new deck ({len(record['reshuffle'])} cards)."
    player = record["player"]
    if record.get("declare"):
        return f"{player} declares!"
    if "discard" in record:
        taken = ("from the deck" if record["take"] == "deck" else pretty(record["take"]))
        discard = shown_in_order(record["discard"], "least-score")
        return f"{player} discards {' '.join(map(pretty, discard))} and takes {taken}"
    if "bid" in record:
        return f"{player} passes" if record["bid"] is None else f"{player} bids {record['bid']}"
    if "order" in record:
        return f"{player} chooses {record['order']}"
    line = f"{player} plays {pretty(record['play'])}"
    if record.get("suit"):
        line += f" naming {parse_suit(record['suit']).english}"
    return line


def play_bots(cli: CLI, game: str, bots: list[str], seed: int, extra: list[str]) -> dict[str, Any]:
    args = ["play", game, "--seed", str(seed), *extra]
    for level in bots:
        args += ["--bot", level]
    result = cli(*args)
    assert result.exit_code == 0, result
    exported = cli("export", "--format", "json")
    assert exported.exit_code == 0, exported
    data: dict[str, Any] = json.loads(exported.stdout)
    return data


def numbered_lines(out: str) -> list[tuple[int, str]]:
    return [(int(m.group(1)), m.group(2).rstrip())
            for m in re.finditer(r"^\s*(\d+)\. (.*)$", out, flags=re.MULTILINE)]


# ---------------------------------------------------------------------------
# Replay


@pytest.mark.parametrize(("game", "bots", "extra"), BOT_GAMES)
def test_replay_of_one_round_prints_every_action_in_order_and_the_final_scores(
        cli: CLI, game: str, bots: list[str], extra: list[str]) -> None:
    data = play_bots(cli, game, bots, 8, extra)
    assert len(data["rounds"]) >= 2
    round_ = data["rounds"][1]

    result = cli("replay", data["id"], "--round", 2, "--no-pause")

    assert result.exit_code == 0, result
    out = result.stdout
    assert f"Deal 2 — {round_['deal']['dealer']} deals" in out
    assert "Deal 1 —" not in out
    steps = numbered_lines(out)
    assert [number for number, _ in steps] == list(range(1, len(round_["actions"]) + 1))
    for (_, text), record in zip(steps, round_["actions"], strict=True):
        assert text == expected_line(record)
    # Every hand face up (sorted) before the first action.
    before = out[: out.index("  1. ")]
    for name, hand in round_["deal"]["hands"].items():
        assert f"{name}: {' '.join(map(pretty, shown_in_order(hand, game)))}" in before
    # The end of the deal and its scores.
    after = out[out.rindex(f"{len(steps):>3}. "):]
    if game == "least-score":
        scores = ", ".join(f"{name} +{score}" for name, score in round_["scores"].items())
        assert f"Scores: {scores}" in after
        assert f"{round_['declarer']} made a" in after
    else:
        for name, points in round_["points"].items():
            took = f"{points} point{'' if points == 1 else 's'}"
            assert f"{name}: took {took}, scores {round_['scores'][name]}" in after
        assert "takes the One Card: " + pretty(round_["deal"]["one_card"]) in after


@pytest.mark.parametrize(("game", "bots", "extra"), BOT_GAMES)
def test_replay_without_a_round_steps_through_every_deal(
        cli: CLI, game: str, bots: list[str], extra: list[str]) -> None:
    data = play_bots(cli, game, bots, 3, extra)
    result = cli("replay", data["id"], "--no-pause")
    assert result.exit_code == 0, result
    positions = [result.stdout.index(f"Deal {r['number']} — {r['dealer']} deals")
                 for r in data["rounds"]]
    assert positions == sorted(positions)
    assert len(numbered_lines(result.stdout)) == sum(len(r["actions"]) for r in data["rounds"])


@pytest.mark.e2e
def test_replay_with_pause_waits_for_enter_before_each_action(score_run: Run) -> None:
    played = score_run("play", "one-card", "--bot", "random", "--bot", "random", "--seed", 4)
    assert played.exit_code == 0, played
    data = json.loads(score_run("export", "--format", "json").stdout)
    actions = data["rounds"][0]["actions"]
    result = score_run("replay", data["id"], "--round", 1, "--pause",
                       stdin="\n" * len(actions))
    assert result.exit_code == 0, result
    assert result.stdout.count("(Enter: next)") == len(actions)
    # Without the Enters, it stops at the first wait, changing nothing.
    stopped = score_run("replay", data["id"], "--round", 1, "--pause", stdin="")
    assert stopped.exit_code != 0
    assert "Traceback" not in stopped.output
    assert "  1. " not in stopped.stdout


def test_replay_refuses_a_table_session_and_a_missing_round(
        cli: CLI, refuse: Refuse) -> None:
    assert cli("new", "least-score", "--player", "Ann", "--player", "Bob").exit_code == 0
    assert cli("add-round", "--declarer", "Ann", "Ann=3", "Bob=9").exit_code == 0
    refuse("replay", 1, "--no-pause", says=("session 1 was entered at a table",
                                            "no deals to replay"))
    play_bots(cli, "one-card", ["random", "random"], 1, [])
    refuse("replay", 2, "--round", 99, "--no-pause", says="there is no round 99")
    refuse("replay", 7, "--no-pause", says="7")


# ---------------------------------------------------------------------------
# Import: every virtual deal is replayed and checked


def export_file(cli: CLI, tmp_path: Path, session_id: int) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / f"session-{session_id}.json"
    result = cli("export", session_id, "--format", "json", "--output", path)
    assert result.exit_code == 0, result
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return path, data


def write(tmp_path: Path, data: dict[str, Any], name: str) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("game", "bots", "extra"), BOT_GAMES)
def test_a_virtual_export_imports_whole_and_replays(
        cli: CLI, tmp_path: Path, game: str, bots: list[str], extra: list[str]) -> None:
    original = play_bots(cli, game, bots, 6, extra)
    path, _ = export_file(cli, tmp_path, original["id"])
    result = cli("import", "--again", path)
    assert result.exit_code == 0, result
    imported = json.loads(cli("export", "--format", "json").stdout)
    assert imported["id"] != original["id"]
    for key in ("game", "mode", "players", "options", "rounds", "totals", "status", "winners"):
        assert imported[key] == original[key], key
    assert imported["mode"] == "virtual"
    replayed = cli("replay", imported["id"], "--round", 1, "--no-pause")
    assert replayed.exit_code == 0, replayed
    assert numbered_lines(replayed.stdout)


def first_play(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in actions if "discard" in a or "play" in a)


@pytest.mark.parametrize(("game", "bots", "extra"), BOT_GAMES)
def test_import_refuses_an_export_with_one_action_changed(
        cli: CLI, refuse: Refuse, tmp_path: Path, game: str, bots: list[str],
        extra: list[str]) -> None:
    original = play_bots(cli, game, bots, 6, extra)
    _, data = export_file(cli, tmp_path, original["id"])
    tampered = copy.deepcopy(data)
    round_ = tampered["rounds"][0]
    action = first_play(round_["actions"])
    # A card of somebody else's hand, in place of the card really played.
    other = next(name for name in round_["deal"]["hands"] if name != action["player"])
    stolen = round_["deal"]["hands"][other][0]
    if game == "least-score":
        action["discard"] = [stolen]
    else:
        action["play"] = stolen
    refuse("import", "--again", write(tmp_path, tampered, "action.json"),
           says=("round 1", f"{stolen} is not in your hand"))

    # A bid raised after the fact (One Card) / a take changed (Least Score): the deal
    # no longer replays to what the round says, or not at all.
    tampered = copy.deepcopy(data)
    round_ = tampered["rounds"][0]
    if game == "one-card":
        bid = next(a for a in round_["actions"] if a.get("bid") is not None)
        bid["bid"] = 15 if bid["bid"] != 15 else 14
    else:
        action = first_play(round_["actions"])
        floor = round_["deal"]["floor"][0]
        action["take"] = "deck" if action["take"] != "deck" else floor
    refuse("import", "--again", write(tmp_path, tampered, "action2.json"), says="round 1")
    assert cli("import", "--again", write(tmp_path, data, "whole.json")).exit_code == 0


@pytest.mark.parametrize(("game", "bots", "extra"), BOT_GAMES)
def test_import_refuses_an_export_with_one_card_changed(
        cli: CLI, refuse: Refuse, tmp_path: Path, game: str, bots: list[str],
        extra: list[str]) -> None:
    original = play_bots(cli, game, bots, 6, extra)
    _, data = export_file(cli, tmp_path, original["id"])
    number = len(data["rounds"])  # the last deal
    # Two cards swapped between two players' hands as dealt.
    tampered = copy.deepcopy(data)
    hands = tampered["rounds"][-1]["deal"]["hands"]
    first, second = list(hands)[:2]
    hands[first][0], hands[second][0] = hands[second][0], hands[first][0]
    refuse("import", "--again", write(tmp_path, tampered, "swapped.json"), says=f"round {number}")
    # A card dealt twice.
    tampered = copy.deepcopy(data)
    hands = tampered["rounds"][-1]["deal"]["hands"]
    hands[first][0] = hands[second][1]
    refuse("import", "--again", write(tmp_path, tampered, "twice.json"),
           says=(f"round {number}", "does not replay"))
    if game == "one-card":
        # The One Card exchanged with a card of a hand.
        tampered = copy.deepcopy(data)
        deal = tampered["rounds"][-1]["deal"]
        deal["one_card"], deal["hands"][first][0] = deal["hands"][first][0], deal["one_card"]
        refuse("import", "--again", write(tmp_path, tampered, "one.json"), says=f"round {number}")
    # A deal without its actions can't be checked.
    tampered = copy.deepcopy(data)
    del tampered["rounds"][0]["actions"]
    refuse("import", "--again", write(tmp_path, tampered, "no-actions.json"),
           says=("round 1", "'deal' and its 'actions'"))


def test_an_imported_virtual_game_can_be_resumed_to_the_same_end(tmp_path: Path) -> None:
    """The export keeps the seed and the seats, so an import can go on exactly as before."""
    from scorekeeper import match
    from scorekeeper.cli.app import run
    from scorekeeper.store import Store

    seats = [match.Seat("Greedy-1", "greedy"), match.Seat("Random-2", "random"),
             match.Seat("Greedy-3", "greedy")]
    started = match.start_game("least-score", seats, 41, options={"limit": 25})
    after_one = match.play_deal(started)
    finished = match.play_to_end(after_one)
    summary = summary_of(after_one)
    assert summary["virtual"] == {"seed": 41, "seats": [s.as_dict() for s in seats],
                                  "derivation": 2}
    exported = tmp_path / "one-deal.json"
    exported.write_text(json.dumps(summary), encoding="utf-8")
    db = tmp_path / "store.json"
    assert run(["--db", str(db), "import", "--again", str(exported)]) == 0
    assert run(["--db", str(db), "play", "--resume", "1"]) == 0
    resumed = Store(db).read().get(1)
    assert resumed.finished
    assert [r.to_json()["deal"] for r in resumed.rounds] == \
        [r.to_json()["deal"] for r in finished.rounds]
    assert resumed.standings.totals == finished.standings.totals


def test_an_import_whose_virtual_seats_are_not_its_players_is_refused(tmp_path: Path) -> None:
    from scorekeeper import match
    from scorekeeper.cli.app import run

    seats = [match.Seat("Greedy-1", "greedy"), match.Seat("Greedy-2", "greedy")]
    summary = summary_of(match.play_deal(match.start_game("least-score", seats, 5)))
    summary["virtual"]["seats"][1]["name"] = "Someone"
    exported = tmp_path / "bad.json"
    exported.write_text(json.dumps(summary), encoding="utf-8")
    db = tmp_path / "store.json"
    assert run(["--db", str(db), "import", "--again", str(exported)]) == 1
    assert not db.exists()
