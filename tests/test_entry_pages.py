"""The players' entry pages of ``score serve --entry``, served in-process on loopback:
hidden means hidden (every byte sent to each player's path is recorded and holds no other
player's entry before the deal is recorded), the refusals (stale page, wrong token, no
page token, another site, too big a body, bad values), the terminal's news and the
languages."""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, file_bytes
from deadlines import SCALE
from entries import Player
from online import request
from serving import EventStream

from scorekeeper import pending
from scorekeeper.store import Store
from scorekeeper.web.entry import MAX_ENTRY_BYTES, EntrySite, PlayerDesk, entry_server
from scorekeeper.web.server import ViewerServer


@dataclass
class Served:
    site: EntrySite
    server: ViewerServer
    told: list[str]
    sent: dict[str, bytearray] = field(default_factory=lambda: defaultdict(bytearray))
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def url(self, player: str) -> str:
        return f"{self.base}/{self.site.desks[player].token}/"

    def record(self, player: str, data: bytes) -> None:
        with self.lock:
            self.sent[player] += data

    def wait_told(self, text: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout * SCALE
        while not any(text in line for line in self.told):
            assert time.monotonic() < deadline, (text, self.told)
            time.sleep(0.05)


@contextlib.contextmanager
def entry_site(db_path: Path, session_id: int | None = None) -> Iterator[Served]:
    session = Store(db_path).read().get(session_id)
    told: list[str] = []
    site = EntrySite(db_path, "viewer-token-0123456789", session, report=told.append)
    server = entry_server(("127.0.0.1", 0), site)
    served = Served(site, server, told)
    site.record = served.record
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site.start()
    try:
        yield served
    finally:
        site.stopped.set()
        site.watcher.stop()
        server.shutdown()
        server.server_close()


@pytest.fixture
def table(ok: CLI, db_path: Path) -> Path:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann")
    return db_path


HANDS = {"Ann": "QS,2D", "Bob": "KC,9H", "Cy": "JD,8C"}
"""Three hands that share no card: each card string shows whose entry it is."""


@pytest.mark.e2e
def test_no_page_ever_gets_another_players_entry_before_the_deal_is_recorded(
        table: Path, ok: CLI) -> None:
    with entry_site(table) as served:
        streams = {name: EventStream(served.url(name) + "events") for name in HANDS}
        players = {name: Player(served.url(name)) for name in HANDS}
        for name, hand in HANDS.items():
            status, answer = players[name].post({"hand": hand, "declared": name == "Ann"})
            assert status == 200, answer
            assert answer["mine"]["hand"] == hand
        served.wait_told("Everyone is in")
        for name, stream in streams.items():  # each stream's last state: all three in
            while (state := json.loads(stream.next_data()))["waiting"]:
                pass
            assert state["mine"]["hand"] == HANDS[name]
            assert state["in"] == ["Ann", "Bob", "Cy"]
        with served.lock:
            before = {name: bytes(data) for name, data in served.sent.items()}
        ok("add-round")
        for stream in streams.values():  # the next deal opens on every page
            while json.loads(stream.next_data())["deal"] != 2:
                pass
            stream.close()
    for name, data in before.items():
        text = data.decode("utf-8")
        assert HANDS[name] in text, name
        for other, hand in HANDS.items():
            if other != name:
                for card in hand.split(","):  # as a card, not inside a random token
                    assert not re.search(rf"(?<![\w-]){card}(?![\w-])", text), \
                        (name, other, card)
        assert "declared\":true" not in text or name == "Ann"
    assert set(before) == set(HANDS)


@pytest.mark.e2e
def test_the_page_shows_the_players_own_entry_and_the_deal(table: Path) -> None:
    with entry_site(table) as served:
        ann = Player(served.url("Ann"))
        first = ann.state()
        assert first["deal"] == 1 and first["open"] and first["mine"] is None
        assert [spec["key"] for spec in first["fields"]] == ["hand", "declared"]
        assert first["waiting"] == ["Ann", "Bob", "Cy"]
        ann.post({"hand": "7"})
        again = Player(served.url("Ann")).state()  # a reload: the same entry
        assert again["mine"] == {"hand": "7"}
        assert again["in"] == ["Ann"]
        assert "Your entry is in" in again["status"]
        status, _answer = ann.post({})
        assert status == 200
        assert Player(served.url("Ann")).state()["mine"] is None
        served.wait_told("Ann took their entry back")


@pytest.mark.e2e
def test_the_page_is_a_shell_with_the_strict_headers_and_no_inline_script(
        table: Path) -> None:
    with entry_site(table) as served:
        ann = Player(served.url("Ann"))
        policy = ann.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "form-action 'none'" in policy and "frame-ancestors 'none'" in policy
        assert re.findall(r"<script\b[^>]*>", ann.html) == [
            '<script src="entry.js" defer>']
        assert "QS" not in ann.html and "mine" not in ann.html
        status, headers, script = request(served.url("Ann") + "entry.js")
        assert status == 200 and headers["content-type"].startswith("text/javascript")
        assert b"X-Scorekeeper-Page" in script


@pytest.mark.e2e
def test_a_stale_page_is_refused_and_changes_nothing(table: Path, ok: CLI) -> None:
    with entry_site(table) as served:
        bob = Player(served.url("Bob"))
        version = bob.state()["v"]
        ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=4", "Cy=5")
        store = file_bytes(table)
        status, answer = bob.post({"hand": "9"}, version)
        assert status == 409
        assert "recorded meanwhile" in answer["problem"]
        assert file_bytes(table) == store
        assert not pending.entries_path(table).exists()
        status, _answer = bob.post({"hand": "9"})  # the page as it is now
        assert status == 200


@pytest.mark.parametrize(("fields", "says"), [
    ({"hand": "60"}, "impossible"),
    ({"hand": "AH,AH"}, "twice"),
    ({"hand": "ZZ"}, "Bob's hand"),
    ({"declared": True}, "this is what the deal needs from you"),
    ({"hand": "7", "declared": "yes"}, "box"),
    ({"hand": "7" * 300}, "at most"),
])
@pytest.mark.e2e
def test_bad_values_are_refused_with_the_games_own_reasons(
        table: Path, fields: dict[str, Any], says: str) -> None:
    with entry_site(table) as served:
        bob = Player(served.url("Bob"))
        bob.post({"hand": "5"})
        entries = file_bytes(pending.entries_path(table))
        status, answer = bob.post(fields)
        assert status == 422, answer
        assert says in answer["problem"]
        assert file_bytes(pending.entries_path(table)) == entries


@pytest.mark.e2e
def test_tokens_pages_and_sites_are_checked(table: Path) -> None:
    with entry_site(table) as served:
        ann = Player(served.url("Ann"))
        version = ann.state()["v"]
        body = json.dumps({"v": version, "fields": {"hand": "7"}}).encode()
        guessed = served.base + "/" + "A" * 22 + "/entry"
        assert request(guessed, "POST", body)[0] == 404
        viewer = f"{served.base}/{served.site.token}/entry"
        assert request(viewer, "POST", body, {"Content-Type": "application/json"})[0] == 404
        assert request(f"{served.base}/{served.site.token}/")[0] == 200  # serve's pages
        json_type = {"Content-Type": "application/json"}
        assert ann.post({}, body=body, headers=json_type)[0] == 403  # no page token
        assert ann.post({}, body=body, headers={**json_type, "X-Scorekeeper-Page": "x"})[0] \
            == 403
        other_site = {**json_type, "X-Scorekeeper-Page": ann.page,
                      "Origin": "http://evil.example"}
        assert ann.post({}, body=body, headers=other_site)[0] == 403
        form = {"Content-Type": "application/x-www-form-urlencoded",
                "X-Scorekeeper-Page": ann.page}
        assert ann.post({}, body=body, headers=form)[0] == 403
        page = {**json_type, "X-Scorekeeper-Page": ann.page}
        assert ann.post({}, body=b"{not json", headers=page)[0] == 400
        assert ann.post({}, body=b"[" * 1000 + b"]" * 1000, headers=page)[0] == 400
        too_big = json.dumps({"v": version, "fields": {"hand": "7" * MAX_ENTRY_BYTES}})
        assert ann.post({}, body=too_big.encode(), headers=page)[0] == 413
        assert request(served.url("Ann") + "entry")[0] == 405
        assert not pending.entries_path(table).exists()
        bob = Player(served.url("Bob"))  # Ann's page token is not Bob's
        status, _ = bob.post({}, body=body, headers={**page, "X-Scorekeeper-Page": ann.page})
        assert status == 403


@pytest.mark.e2e
def test_a_knocked_out_player_has_nothing_to_enter(ok: CLI, db_path: Path) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--limit", "10", "--dealer", "Ann")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20", "Cy=2")
    with entry_site(db_path) as served:
        bob = Player(served.url("Bob"))
        state = bob.state()
        assert not state["open"] and state["fields"] == []
        assert "out of the game" in state["status"]
        status, _answer = bob.post({"hand": "5"})
        assert status == 409
        assert Player(served.url("Ann")).state()["waiting"] == ["Ann", "Cy"]


@pytest.mark.e2e
def test_the_terminal_says_who_is_in_as_entries_arrive(table: Path, ok: CLI) -> None:
    with entry_site(table) as served:
        Player(served.url("Cy")).post({"hand": "4"})
        served.wait_told("Cy is in.")
        served.wait_told("In: 1 of 3; waiting for Ann, Bob.")
        Player(served.url("Cy")).post({"hand": "5"})
        served.wait_told("Cy changed their entry.")
        ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=4", "Cy=5")
        served.wait_told("Deal 2: the players' entries are open.")
    assert not any("5" in line and "Cy" in line and "hand" in line for line in served.told)


@pytest.mark.e2e
def test_pages_speak_the_players_language(table: Path) -> None:
    with entry_site(table) as served:
        arabic = Player(served.url("Ann"), "ar")
        assert 'lang="ar" dir="rtl"' in arabic.html
        with EventStream(served.url("Ann") + "events?lang=ar") as stream:
            state = json.loads(stream.next_data())
        assert state["fields"][1]["label"] == "أعلنتُ"
        danish = Player(served.url("Ann"), "da")
        assert 'lang="da"' in danish.html
        status, answer = danish.post({"hand": "60"}, body=json.dumps(
            {"v": arabic.state()["v"], "fields": {"hand": "60"}}).encode(),
            headers={"Content-Type": "application/json", "X-Scorekeeper-Page": danish.page})
        assert status == 422
        assert "impossible" not in answer["problem"] and "60" in answer["problem"]
        assert arabic.post({"hand": "7"})[0] == 200
        served.wait_told("Ann is in.")  # the terminal speaks its own language, not the page's


@pytest.mark.e2e
def test_one_card_players_enter_points_and_the_bidder_the_bid(
        ok: CLI, db_path: Path, summary: Callable[..., dict[str, Any]]) -> None:
    ok("new", "one-card", "--player", "Ann", "--player", "Bob", "--player", "Cy")
    with entry_site(db_path) as served:
        status, answer = Player(served.url("Ann")).post({"points": "9", "bid": "99"})
        assert status == 422 and "bid" in answer["problem"]
        assert Player(served.url("Ann")).post({"points": "9", "bid": "8"})[0] == 200
        assert Player(served.url("Bob")).post({"points": "3"})[0] == 200
        assert Player(served.url("Cy")).post({"points": "3"})[0] == 200
        ok("add-round")
    played = summary()["rounds"][0]
    assert (played["bidder"], played["bid"]) == ("Ann", 8)


@pytest.mark.e2e
def test_a_player_who_joins_gets_a_link_of_their_own(ok: CLI, db_path: Path) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob")
    with entry_site(db_path) as served:
        joined: list[PlayerDesk] = []
        served.site.joined = joined.append
        assert Player(served.url("Ann")).post({"points": "5"})[0] == 200
        store = Store(db_path)
        store.update(lambda db: db.put(replace(db.get(1), players=("Ann", "Bob", "Cy"))))
        deadline = time.monotonic() + 10 * SCALE
        while "Cy" not in served.site.desks:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert [desk.name for desk in joined] == ["Cy"]
        cy = Player(served.url("Cy"))
        state = cy.state()
        assert state["open"] and state["mine"] is None and state["in"] == []
        assert cy.post({"points": "4"})[0] == 200


@pytest.mark.e2e
def test_conflicts_show_on_the_involved_phones_at_once_and_add_round_says_the_same(
        table: Path, refuse: Any) -> None:
    """Two players tick "I declared", or one card is in two hands: the pages of the
    players involved (and only theirs) say so as soon as the second entry is in, with
    who must change what; ``add-round`` refuses in the same words (issue 40.3)."""
    with entry_site(table) as served:
        ann, bob, cy = (Player(served.url(name)) for name in ("Ann", "Bob", "Cy"))
        assert ann.post({"hand": "QS,2D", "declared": True})[0] == 200
        assert ann.state()["conflicts"] == []
        assert bob.post({"hand": "KC,9H", "declared": True})[0] == 200
        said = "Ann and Bob both ticked “I declared”: one of you must untick it."
        assert ann.state()["conflicts"] == [said]
        assert bob.state()["conflicts"] == [said]
        assert cy.post({"hand": "JD,2D"})[0] == 200  # Ann's 2D too
        twice = ("2D is in both Ann's and Cy's hands: a deck has one of each card. Ann or "
                 "Cy must change their entry.")
        assert ann.state()["conflicts"] == [said, twice]
        assert cy.state()["conflicts"] == [twice]
        assert bob.state()["conflicts"] == [said]
        refuse("add-round", says="Ann and Bob both ticked “I declared”: one of you must "
                                 "untick it, or give --declarer on the command line")
        assert bob.post({"hand": "KC,9H"})[0] == 200
        assert cy.post({"hand": "JD,8C"})[0] == 200
        assert ann.state()["conflicts"] == [] and cy.state()["conflicts"] == []
