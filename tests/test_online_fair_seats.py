"""Fair seats (issue 40.1): nothing the host of ``score play --online`` shows, nothing a
page or a stream serves another seat or a spectator, and nothing ``show`` or ``export``
says of the saved game while it runs lets anyone compute a hidden hand.

The attack is the one that worked before: every number anyone could read is tried as the
game's seed, and the deal the package would deal from it is compared with Bob's hand. The
same attack with the seed from the store itself does rebuild Bob's hand, so the test can
fail."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import Result
from deadlines import deadline
from online import Phone, request
from test_cli_play_online import Playing, playing  # noqa: F401 (the fixture)

from scorekeeper import match
from scorekeeper.registry import get_virtual
from scorekeeper.session import Session
from scorekeeper.store import Store

pytestmark = pytest.mark.e2e

NUMBER = re.compile(r"\d+")


def first_event(url: str) -> str:
    """The first state a page's live stream sends (what a spectator's phone gets)."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "", parts.port or 0),
                                  timeout=deadline(30)) as sock:
        sock.sendall(f"GET {parts.path}events HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        with sock.makefile("rb") as stream:
            assert b" 200 " in stream.readline()
            while line := stream.readline():
                if line.startswith(b"data: "):
                    return line.decode()
    raise AssertionError("the stream sent no state")


def first_hand(session: Session, seed: int, player: str) -> list[str] | None:
    """The hand ``player`` gets in deal 1 when ``seed`` is the game's seed (None when that
    seed's first dealer is not the game's: it cannot be the seed)."""
    settings = session.virtual
    assert settings is not None
    names = list(session.players)
    if match.draw_first_dealer(seed, names) != session.first_dealer:
        return None
    hands = []
    for derivation in (1, 2):
        deal_rng, _players = match.deal_generators(seed, (1,), names, derivation)
        deal = get_virtual(session.game).new_deal(names, session.first_dealer or names[0],
                                                  deal_rng, session.options,
                                                  [0] * len(names))
        hands.append(sorted(str(card) for card in deal.view(player).hand))
    return hands[0] if hands[0] == hands[1] else hands[0] + ["/"] + hands[1]


def rebuilds(session: Session, candidates: Iterable[int], player: str,
             hand: list[str]) -> list[int]:
    """The candidate seeds whose deal 1 gives ``player`` exactly ``hand``."""
    found = []
    for seed in candidates:
        dealt = first_hand(session, seed, player)
        if dealt is not None and (dealt == hand or
                                  (dealt.count("/") and hand in (dealt[:len(hand)],
                                                                 dealt[len(hand) + 1:]))):
            found.append(seed)
    return found


def test_nothing_the_host_prints_or_serves_rebuilds_a_seats_hand(
        playing: Callable[..., Playing], score_run: Callable[..., Result],  # noqa: F811
        db_path: Path) -> None:
    game = playing("least-score", "--player", "Ann", "--player", "Bob")
    urls = game.seats()
    table_url = next(match_.group(1) for line in game.seen
                     if "for anyone watching" in line
                     and (match_ := re.search(r"(http://\S+/)$", line)))
    seen: list[str] = list(game.seen)
    ann = Phone(urls["Ann"])
    seen.append(json.dumps(ann.next_state()))
    seen.append(request(urls["Ann"])[2].decode())
    seen.append(request(table_url)[2].decode())
    seen.append(first_event(table_url))
    for command in (("show", "1"), ("show", "1", "--json"), ("sessions", "--json"),
                    ("export", "1", "--format", "json"), ("export", "1", "--format", "csv"),
                    ("export", "1", "--format", "md"),
                    ("export", "1", "--format", "html")):
        result = score_run(*command)
        assert result.exit_code == 0, result.output
        seen.append(result.output)
    bob = Phone(urls["Bob"])
    hand = sorted(bob.next_state()["hand"]["cards"])
    assert hand
    session = Store(db_path).read().get(1)
    assert session.virtual is not None
    candidates = {int(number) for text in seen for number in NUMBER.findall(text)}
    assert not rebuilds(session, candidates, "Bob", hand)
    # The attack works when the seed is known: it is only kept from everyone's eyes.
    assert rebuilds(session, [session.virtual.seed], "Bob", hand) == [session.virtual.seed]
    assert session.virtual.seed >= 2**32  # beyond trying every seed from Bob's own hand
    for phone in (ann, bob):
        phone.close()
    game.process.kill()


def test_a_seed_online_is_refused_unless_its_risk_is_acknowledged(
        score_run: Callable[..., Result]) -> None:
    refused = score_run("play", "least-score", "--player", "Ann", "--player", "Bob",
                        "--online", "--port", "0", "--seed", "7")
    assert refused.exit_code == 2 and "--reveal-seed" in refused.output, refused.output
    alone = score_run("play", "least-score", "--player", "Ann", "--bot", "random",
                      "--reveal-seed")
    assert alone.exit_code == 2 and "--online" in alone.output, alone.output


def test_an_unfinished_game_is_exported_without_its_seed_and_imports_with_a_fresh_one(
        score_run: Callable[..., Result], db_path: Path, tmp_path: Path) -> None:
    """While a virtual game with a human seat is unfinished its summary keeps its seed
    back; the import of such a summary shuffles the deals to come from a fresh seed, and
    the finished game's summary shows its seed for replay."""
    db = Store(db_path)
    session = match.start_game("least-score", match.make_seats(["Ann"], ["random"]),
                               123456789, options={"limit": 30})
    with db.write() as view:
        view.add(session)
    unfinished = score_run("show", "1", "--json")
    assert unfinished.exit_code == 0, unfinished.output
    assert "seed" not in unfinished.json()["virtual"]
    assert "123456789" not in unfinished.output
    exported = tmp_path / "unfinished.json"
    assert score_run("export", "1", "--format", "json", "--output", exported).exit_code == 0
    assert "123456789" not in exported.read_text()
    other = {"SCOREKEEPER_DB": str(tmp_path / "other.json")}
    imported = score_run("import", exported, env=other)
    assert imported.exit_code == 0, imported.output
    again = Store(tmp_path / "other.json").read().get(1)
    assert again.virtual is not None and again.virtual.seed != 123456789
    played = match.play_to_end(again, choose_human=lambda player, view, problem:
                               view.legal_actions()[0])
    with Store(tmp_path / "other.json").write() as view:
        view.put(played)
    finished = score_run("show", "1", "--json", env=other)
    assert finished.json()["status"] == "finished"
    assert finished.json()["virtual"]["seed"] == again.virtual.seed
