"""``score play --online`` over HTTP, in-process: each seat's token opens that seat only,
moves need the page's own token, a stale page's move and a second tab's move are
refused, the engine's refusals come back with their reason, a page that reconnects
finds its seat as it was, and the pages speak the language they are asked in."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from deadlines import SCALE
from online import Online, Phone, online_game, request

from scorekeeper.web.server import SECURITY_HEADERS


def asked_phone(online: Online, phones: dict[str, Phone], timeout: float = 30) -> Phone:
    """The phone of the seat the game is waiting for, once its page offers the moves."""
    deadline = time.monotonic() + timeout * SCALE
    while time.monotonic() < deadline:
        waiting = [desk for desk in online.table.seats.values() if desk.asked is not None]
        if waiting:
            desk = waiting[0]
            phone = phones[desk.name]
            while phone.state.get("v") != desk.asked or not phone.state.get("moves"):
                phone.next_state()
            return phone
        time.sleep(0.01)
    raise AssertionError("nobody is asked to move")


@pytest.mark.e2e
def test_a_stale_page_and_a_second_tab_make_no_move(tmp_path: Path) -> None:
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], ["random"], 11,
                     {"target": 20}) as online:
        phones = {name: Phone(online.seat_url(name)) for name in ("Ann", "Bea")}
        online.play()
        phone = asked_phone(online, phones)
        name = phone.state["seat"]
        second_tab = Phone(online.seat_url(name))
        second_tab.next_state()
        assert second_tab.state["v"] == phone.state["v"] and second_tab.state["moves"]
        version = phone.state["v"]
        status, answer = phone.post("move", {"v": version - 1, "move": {"button": 0}})
        assert status == 409 and not answer["ok"] and answer["problem"]
        assert online.table.seats[name].asked == version  # nothing moved
        answers: list[tuple[int, dict[str, Any]]] = []
        tabs = [threading.Thread(target=lambda tab=tab: answers.append(
            tab.post("move", {"v": version, "move": {"button": 0}})))
            for tab in (phone, second_tab)]
        for tab in tabs:
            tab.start()
        for tab in tabs:
            tab.join(20 * SCALE)
        assert sorted(status for status, _answer in answers) == [200, 409]
        # the same page's move again, after it was taken: refused too
        status, _answer = phone.post("move", {"v": version, "move": {"button": 0}})
        assert status == 409


@pytest.mark.e2e
def test_a_move_needs_the_page_token_json_and_the_same_site(tmp_path: Path) -> None:
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], [], 12, {"target": 20}) as online:
        phones = {name: Phone(online.seat_url(name)) for name in ("Ann", "Bea")}
        online.play()
        phone = asked_phone(online, phones)
        move = {"v": phone.state["v"], "move": {"button": 0}}
        assert phone.post("move", move, page="not-a-page")[0] == 403
        other = phones["Bea" if phone.state["seat"] == "Ann" else "Ann"]
        assert phone.post("move", move, page=other.page)[0] == 403  # another seat's page
        assert phone.post("move", move, headers={"Origin": "http://evil.example"})[0] == 403
        assert phone.post("move", move, headers={"Content-Type": "text/plain"})[0] == 403
        status, _headers, _body = request(f"{phone.url}move", "POST", b"{}")
        assert status == 403  # no page token at all (a form or a plain fetch from elsewhere)
        big = b'{"pad": "' + b"x" * 4096 + b'"}'
        status, _headers, _body = request(f"{phone.url}move", "POST", big, {
            "Content-Type": "application/json", "X-Scorekeeper-Page": phone.page})
        assert status == 413
        for body in (b"{not json", b"[" * 1000 + b"]" * 1000):  # too deep for the parser
            status, _headers, _body = request(f"{phone.url}move", "POST", body, {
                "Content-Type": "application/json", "X-Scorekeeper-Page": phone.page})
            assert status == 400, body[:10]
        viewer = request(f"{online.viewer_url}move", "POST", b"{}")[0]
        assert viewer == 405  # the public table takes no move
        assert request(f"{online.base}/not-a-token/")[0] == 404
        assert online.table.seats[phone.state["seat"]].asked == phone.state["v"]
        status, answer = phone.post("move", move)
        assert (status, answer["ok"]) == (200, True)


@pytest.mark.e2e
def test_the_engine_refuses_an_illegal_discard_with_its_reason(tmp_path: Path) -> None:
    with online_game(tmp_path, "least-score", ["Ann", "Bea"], [], 13, {"limit": 25}) as online:
        phones = {name: Phone(online.seat_url(name)) for name in ("Ann", "Bea")}
        online.play()
        phone = asked_phone(online, phones)
        pick = phone.state["moves"]["pick"]
        legal = {tuple(sorted(cards)) for cards in pick["sets"]}
        hand = pick["cards"]
        wrong = next([a, b] for a in hand for b in hand
                     if a < b and (a, b) not in legal)
        status, answer = phone.post("move", {"v": phone.state["v"],
                                             "move": {"button": 0, "picked": wrong}})
        assert status == 422 and not answer["ok"] and answer["problem"]
        state = phone.next_state()
        assert state["problem"] == answer["problem"] and state["moves"]
        status, answer = phone.post("move", {"v": state["v"],
                                             "move": {"button": 99, "picked": wrong}})
        assert status == 422 and answer["problem"]
        status, answer = phone.post("move", {"v": state["v"], "move": {
            "button": 0, "picked": pick["sets"][0]}})
        assert (status, answer["ok"]) == (200, True)


@pytest.mark.e2e
def test_a_reloaded_page_finds_its_seat_and_the_game_waits_for_it(tmp_path: Path) -> None:
    said: list[str] = []
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], ["random"], 14,
                     {"target": 20}) as online:
        online.table.report = said.append
        phones = {name: Phone(online.seat_url(name)) for name in ("Ann", "Bea")}
        online.play()
        phone = asked_phone(online, phones)
        name, state = phone.state["seat"], dict(phone.state)
        phone.close()  # the phone sleeps
        deadline = time.monotonic() + 10 * SCALE
        while not any("waiting for" in line and name in line for line in said):
            assert time.monotonic() < deadline, said
            time.sleep(0.05)
        time.sleep(0.3)
        assert online.table.seats[name].asked == state["v"]  # the game still waits
        again = Phone(online.seat_url(name))  # it wakes up and reloads
        back = again.next_state()
        assert back == state
        status, answer = again.post("move", {"v": back["v"], "move": {"button": 0}})
        assert (status, answer["ok"]) == (200, True)
        assert again.next_state()["v"] > back["v"]


@pytest.mark.e2e
def test_each_token_opens_its_own_seat_and_the_table_shows_no_hand(tmp_path: Path) -> None:
    with online_game(tmp_path, "least-score", ["Ann", "Bea"], [], 15, {"limit": 25}) as online:
        ann, bea = Phone(online.seat_url("Ann")), Phone(online.seat_url("Bea"))
        viewer = Phone(online.viewer_url)
        online.play()
        for phone, seat in ((ann, "Ann"), (bea, "Bea"), (viewer, None)):
            state = phone.next_state()
            while state["deal"] == 0:
                state = phone.next_state()
            assert state["seat"] == seat
            assert (state["hand"] is None) == (seat is None)
        assert set(ann.state["hand"]["cards"]).isdisjoint(bea.state["hand"]["cards"])
        assert viewer.state["moves"] is None
        status, headers, body = request(online.viewer_url)
        assert status == 200 and b"data-move=\"\"" in body
        for name, value in SECURITY_HEADERS:
            assert headers[name.lower()] == value
        assert "'unsafe-inline'" not in headers["content-security-policy"]


@pytest.mark.e2e
def test_the_pages_speak_the_language_asked_for(tmp_path: Path) -> None:
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], [], 16, {"target": 20}) as online:
        status, _headers, body = request(f"{online.seat_url('Ann')}?lang=ar")
        page = body.decode()
        assert status == 200 and 'lang="ar" dir="rtl"' in page
        english = request(f"{online.seat_url('Ann')}?lang=en")[2].decode()
        assert 'dir="rtl"' not in english
        danish = request(f"{online.seat_url('Ann')}?lang=da")[2].decode()
        assert 'lang="da"' in danish
        assert {english, danish, page} and len({_words(english), _words(danish),
                                                 _words(page)}) == 3
        phones = {"Ann": Phone(online.seat_url("Ann"), "ar"),
                  "Bea": Phone(online.seat_url("Bea"), "da")}
        online.play()
        phone = asked_phone(online, phones)
        other = phones["Bea" if phone is phones["Ann"] else "Ann"]
        while other.next_state()["status"] == "":
            pass
        assert phone.state["status"] != other.state["status"]
        status, answer = phone.post("hint", {})
        assert status == 200 and answer["hint"]


@pytest.mark.e2e
def test_a_phone_keeps_the_language_it_asked_for(tmp_path: Path) -> None:
    """``?lang=`` is kept in that phone's cookie: its next page without one, the seat's
    or the public table's, speaks it too (issue 40.4)."""
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], [], 17, {"target": 20}) as online:
        _status, headers, _body = request(f"{online.seat_url('Ann')}?lang=ar")
        cookie = headers["set-cookie"].split(";")[0]
        assert cookie == "scorekeeper-lang=ar"
        for url in (online.seat_url("Ann"), online.viewer_url):
            kept = request(url, headers={"Cookie": cookie})[2].decode()
            assert 'lang="ar" dir="rtl"' in kept and "events?lang=ar" in kept
        assert 'dir="rtl"' not in request(online.seat_url("Bea"))[2].decode()


def _words(page: str) -> str:
    return page[page.index("data-words"):page.index("<h1>")]


def test_a_thread_speaks_its_own_language_without_changing_the_runs() -> None:
    """``i18n.speaking`` (each page's ``?lang=``) holds in its own thread only."""
    from scorekeeper import i18n

    seen: dict[str, str] = {}
    inside = threading.Event()
    done = threading.Event()

    def page() -> None:
        with i18n.speaking("da"):
            seen["page"] = i18n._("Totals")
            inside.set()
            done.wait(5 * SCALE)

    thread = threading.Thread(target=page)
    thread.start()
    inside.wait(5 * SCALE)
    seen["run"] = i18n._("Totals")
    done.set()
    thread.join(5 * SCALE)
    assert seen == {"page": "Summer", "run": "Totals"}
    assert i18n.active_language() == "en"


def test_a_threads_language_reaches_a_games_own_words() -> None:
    """A game's words come from its own catalog (games/<game>/words.py): a page's
    ``?lang=`` reaches them as it reaches the generic words, plural forms included."""
    from scorekeeper import i18n
    from scorekeeper.games.least_score import words

    with i18n.speaking("da"):
        assert words._("who declared.") == "hvem der erklærede."
        assert words.pgettext("table heading", "Round") == "Runde"
        assert words.ngettext("Deck: {n} card", "Deck: {n} cards", 2) != "Deck: {n} cards"
    assert words._("who declared.") == "who declared."


@pytest.mark.e2e
def test_score_serve_takes_no_request_body_and_a_seat_no_chunked_one(tmp_path: Path) -> None:
    """The gate reads a body only up to its server's limit: ``score serve`` takes none
    (413), a move is at most 2 KiB, and a chunked body (no length to bound) is refused."""
    import socket

    from scorekeeper.web.server import Site, ViewerServer

    site = Site(tmp_path / "store.json", "tok")
    server = ViewerServer(("127.0.0.1", 0), site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        status, _headers, _body = request(
            f"http://127.0.0.1:{server.server_port}/tok/", "GET", b"x" * 10)
        assert status == 413
        assert request(f"http://127.0.0.1:{server.server_port}/tok/")[0] == 200
    finally:
        site.stopped.set()
        server.shutdown()
        server.server_close()
    with online_game(tmp_path / "online", "one-card", ["Ann", "Bea"], [], 17,
                     {"target": 20}) as online:
        token = online.table.seats["Ann"].token
        raw = socket.create_connection(("127.0.0.1", online.server.server_port), 10)
        with raw:
            raw.sendall(f"POST /{token}/move HTTP/1.1\r\nHost: x\r\n"
                        "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                        .encode())
            assert raw.recv(100).startswith(b"HTTP/1.0 400")
