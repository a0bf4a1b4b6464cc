"""``score serve``: a real server on a free port, asked what a browser (or an attacker)
would ask; and the real command in a subprocess for what the terminal shows."""

from __future__ import annotations

import http.client
import json
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import CLI, Refuse, Result, file_bytes
from deadlines import SCALE
from serving import QR_CHARACTERS, EventStream, decode_qr, start_serve

from scorekeeper.session import Session
from scorekeeper.views import pages, qr
from scorekeeper.web.server import MAX_REQUEST_BYTES, Site, ViewerServer, snapshot

HOSTILE = "<script>alert(1)</script>"
MARKUP = "[b]x"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str


@dataclass
class Running:
    site: Site
    server: ViewerServer

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/{self.site.token}/"

    def ask(self, path: str, method: str = "GET", headers: dict[str, str] | None = None
            ) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.server_port,
                                                timeout=10 * SCALE)
        try:
            connection.request(method, path, headers=headers or {})
            response = connection.getresponse()
            body = response.read().decode("utf-8")
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          body)
        finally:
            connection.close()

    def get(self, page: str = "", method: str = "GET") -> Answer:
        return self.ask(f"/{self.site.token}/{page}", method)


@pytest.fixture
def serving(db_path: Path) -> Iterator[Callable[..., Running]]:
    """``serving()`` starts a server on a free port, in this process, on the test store."""
    started: list[Running] = []

    def start(session_id: int | None = None, max_connections: int = 128) -> Running:
        site = Site(db_path, secrets.token_urlsafe(16), session_id)
        server = ViewerServer(("127.0.0.1", 0), site, max_connections)
        site.watcher.start()
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        started.append(Running(site, server))
        return started[-1]

    yield start
    for running in started:
        running.site.stopped.set()
        running.site.watcher.stop()
        running.server.shutdown()
        running.server.server_close()


@pytest.fixture
def night(ok: CLI) -> None:
    """A Least Score session with a hostile name, a markup-like name, and one round."""
    ok("new", "least-score", "--player", "Ann", "--player", HOSTILE, "--player", MARKUP,
       "--dealer", "Ann", "--limit", "50", "--name", "Friday <b>night</b>")
    ok("add-round", "--declarer", "Ann", "Ann=3", f"{HOSTILE}=9", f"{MARKUP}=12")


def assert_strict_headers(answer: Answer) -> None:
    policy = answer.headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["cache-control"] == "no-store"
    assert "python" not in answer.headers.get("server", "").lower()


# ---------------------------------------------------------------------------
# The pages


@pytest.mark.usefixtures("night")
@pytest.mark.e2e
def test_the_session_page_puts_the_standings_first_then_dealer_chart_rounds(
        serving: Callable[..., Running]) -> None:
    answer = serving().get()
    assert answer.status == 200
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    body = answer.body
    order = [body.index(marker) for marker in
             ("<h2>Standings</h2>", "Next dealer:", "<svg", "<h2>Rounds</h2>")]
    assert order == sorted(order)
    standings = body[order[0]:order[1]]
    # Least Score: the lowest total leads; each player's total is in the standings.
    assert re.search(r"<td>1</td><td>Ann</td><td>0</td>", standings)
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>6</td>" in standings
    assert f"<td>{MARKUP}</td><td>9</td>" in standings
    assert "Next dealer: <strong>&lt;script&gt;" in body  # the dealer passes to the left


@pytest.mark.e2e
def test_hostile_names_are_text_everywhere(night: None, serving: Callable[..., Running]
                                           ) -> None:
    running = serving()
    page, listing = running.get(), running.get("sessions")
    with EventStream(running.url + "events/") as stream:
        pushed = json.loads(stream.next_data())
    for html in (page.body, listing.body, pushed["body"]):
        assert HOSTILE not in html
        assert "<b>night" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert MARKUP in html  # shown as typed, not as markup
    assert pushed["title"] == "Friday <b>night</b> — scorekeeper"  # set as text by the script
    assert "<title>Friday &lt;b&gt;night&lt;/b&gt; — scorekeeper</title>" in page.body


def test_control_and_bidi_characters_are_shown_not_obeyed() -> None:
    session = Session.new("least-score", ["Ann", "Bob"], time="2026-11-30T20:00:00+01:00")
    session = replace(session, name="Fri\x1b[31mday\u202eevil\x07", id=1)
    page = pages.render_session(session)
    assert "\x1b" not in page.body and "\u202e" not in page.body and "\x07" not in page.body
    assert "Fri\\x1b[31mday\\u202eevil\\x07" in page.body
    assert page.title.startswith("Fri\\x1b[31mday")
    assert pages.text('"quoted" & <tag>') == "&quot;quoted&quot; &amp; &lt;tag&gt;"


@pytest.mark.e2e
def test_no_inline_script_or_style_anywhere(night: None, serving: Callable[..., Running]
                                            ) -> None:
    running = serving()
    for page in ("", "sessions", "session/1"):
        body = running.get(page).body
        assert not re.search(r"<script(?![^>]*\bsrc=)", body), page
        assert "<style" not in body and " style=" not in body, page
        assert re.search(r"\bon[a-z]+=", body) is None, page
    script = running.get("live.js")
    assert script.status == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert "EventSource" in script.body
    style = running.get("style.css")
    assert style.headers["content-type"].startswith("text/css")
    assert "prefers-color-scheme:dark" in style.body


@pytest.mark.e2e
def test_the_session_list_links_every_session(ok: CLI, serving: Callable[..., Running]
                                              ) -> None:
    ok("new", "one-card", "--player", "Ann", "--player", "Bob", "--name", "Saturday")
    ok("new", "least-score", "--player", "Cy", "--player", "Dan", "--name", "Sunday")
    running = serving()
    listing = running.get("sessions").body
    assert listing.index("Sunday") < listing.index("Saturday")  # newest first
    assert '<a href="session/1">Saturday</a>' in listing
    assert '<a href="session/2">Sunday</a> <strong>(current)</strong>' in listing
    first = running.get("session/1").body
    assert "<h1>Saturday</h1>" in first and "One Card" in first
    assert "There is no session 7 (sessions: 1, 2)." in running.get("session/7").body
    # Without an ID the page follows the current session; with one, it stays on it.
    assert "<h1>Sunday</h1>" in running.get().body
    assert "<h1>Saturday</h1>" in serving(session_id=1).get().body


@pytest.mark.e2e
def test_an_empty_store_says_there_is_nothing_yet(db_path: Path,
                                                  serving: Callable[..., Running]) -> None:
    answer = serving().get()
    assert answer.status == 200
    assert "Nothing to show yet" in answer.body
    assert not db_path.exists(), "serving must never create the store"


@pytest.mark.parametrize("content", [b"{not json", b"", b"\xff\xfe garbage", b'{"x": 1}'])
@pytest.mark.e2e
def test_a_damaged_store_shows_a_clear_page(db_path: Path, serving: Callable[..., Running],
                                            content: bytes) -> None:
    db_path.write_bytes(content)
    for page in ("", "sessions", "session/1"):
        answer = serving().get(page)
        assert answer.status == 200
        assert "<h1>The scores can't be read</h1>" in answer.body
        assert "score doctor --restore" in answer.body
        assert "Traceback" not in answer.body


@pytest.mark.e2e
def test_a_damaged_store_page_goes_live_again_once_repaired(
        night: None, db_path: Path, serving: Callable[..., Running]) -> None:
    good = file_bytes(db_path)
    assert good is not None
    running = serving()
    with EventStream(running.url + "events/") as stream:
        assert "Friday" in json.loads(stream.next_data())["body"]
        db_path.write_bytes(b"{broken")
        assert "can't be read" in json.loads(stream.next_data(timeout=2 * SCALE))["body"]
        db_path.write_bytes(good)
        assert "Friday" in json.loads(stream.next_data(timeout=2 * SCALE))["body"]


# ---------------------------------------------------------------------------
# Safe by default


@pytest.mark.e2e
def test_without_the_token_there_is_nothing(night: None, db_path: Path,
                                            serving: Callable[..., Running]) -> None:
    running = serving()
    token = running.site.token
    wrong = [
        "/", "/sessions", "/session/1", "/live.js", "/events/", "/favicon.ico",
        f"/{token[:-1]}/", f"/{token}x/", f"/x{token}/", f"/{token.upper()}/"
        if token != token.upper() else "/X/", f"/{token}/../", f"/{token}/nothing",
        f"/{token}/session/0", f"/{token}/session/01", f"/{token}/events/nothing",
        f"/%2F{token}/", f"/{token}/%2e%2e/", f"/{token}/session/1/",
    ]
    for path in wrong:
        answer = running.ask(path)
        assert answer.status == 404, path
        assert_strict_headers(answer)
        for secret in ("Ann", "Friday", "session", str(db_path.parent), token):
            assert secret not in answer.body, (path, secret)
        # Not even the methods: a POST without the token is just as unknown.
        assert running.ask(path, "POST").status == 404, path


@pytest.mark.e2e
def test_the_token_without_its_slash_is_sent_to_the_page(serving: Callable[..., Running]
                                                         ) -> None:
    running = serving()
    answer = running.ask(f"/{running.site.token}")
    assert answer.status == 301
    assert answer.headers["location"] == f"/{running.site.token}/"


@pytest.mark.e2e
def test_only_get_and_head(night: None, db_path: Path, serving: Callable[..., Running]
                           ) -> None:
    running = serving()
    before = file_bytes(db_path)
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "BREW"):
        answer = running.get("", method)
        assert answer.status == 405, method
        assert answer.headers["allow"] == "GET, HEAD"
        assert_strict_headers(answer)
    assert file_bytes(db_path) == before
    head, get = running.get("", "HEAD"), running.get()
    assert head.status == 200 and head.body == ""
    assert head.headers["content-length"] == get.headers["content-length"]


@pytest.mark.e2e
def test_every_answer_has_strict_headers(night: None, serving: Callable[..., Running]) -> None:
    running = serving()
    for page in ("", "sessions", "session/1", "live.js", "style.css"):
        answer = running.get(page)
        assert answer.status == 200, page
        assert_strict_headers(answer)
    with EventStream(running.url + "events/") as stream:
        assert stream.status.endswith("200 OK")
        assert stream.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert_strict_headers(Answer(200, stream.headers, ""))


def raw_request(running: Running, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", running.server.server_port),
                                  timeout=10 * SCALE) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


@pytest.mark.e2e
def test_the_request_size_is_bounded(serving: Callable[..., Running]) -> None:
    running = serving()
    path = f"/{running.site.token}/"
    padded = (f"GET {path} HTTP/1.1\r\nHost: x\r\nX-Pad: {'a' * 2000}\r\n\r\n").encode()
    assert raw_request(running, padded).startswith(b"HTTP/1.0 200 ")
    for oversized in (
        f"GET {path} HTTP/1.1\r\nHost: x\r\nX-Pad: {'a' * MAX_REQUEST_BYTES}\r\n\r\n",
        f"GET {path}?{'a' * MAX_REQUEST_BYTES} HTTP/1.1\r\nHost: x\r\n\r\n",
        f"GET {path} HTTP/1.1\r\n" + "".join(f"X-{n}: {'b' * 90}\r\n" for n in range(100))
        + "\r\n",
    ):
        answer = raw_request(running, oversized.encode())
        assert answer.startswith(b"HTTP/1.0 431 "), answer[:80]
        assert b"Content-Security-Policy" in answer


@pytest.mark.e2e
def test_a_malformed_request_is_refused_quietly(serving: Callable[..., Running]) -> None:
    running = serving()
    for garbage in (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
                    b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n"):
        answer = raw_request(running, garbage)
        assert answer.startswith(b"HTTP/1.0 4") or answer.startswith(b"HTTP/1.0 5"), answer
    assert running.get().status == 200  # still serving


@pytest.mark.e2e
def test_the_connections_are_bounded_streams_included(
        night: None, serving: Callable[..., Running]) -> None:
    running = serving(max_connections=3)
    streams = [EventStream(running.url + "events/") for _ in range(3)]
    try:
        for stream in streams:
            stream.next_data()
        busy = running.get()
        assert busy.status == 503
        assert busy.headers["retry-after"] == "2"
        assert_strict_headers(busy)
        streams.pop().close()
        deadline = time.monotonic() + 5 * SCALE
        while (answer := running.get()).status == 503 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert answer.status == 200, "a closed stream must give its place back"
    finally:
        for stream in streams:
            stream.close()


# ---------------------------------------------------------------------------
# Live


@pytest.mark.e2e
def test_a_change_reaches_an_open_page_within_two_seconds(
        night: None, ok: CLI, serving: Callable[..., Running]) -> None:
    running = serving()
    with EventStream(running.url + "events/") as stream:
        first = json.loads(stream.next_data())
        assert "<td>Ann</td><td>0</td>" in first["body"]
        changed = time.monotonic()
        ok("add-round", "--declarer", MARKUP, "Ann=10", f"{HOSTILE}=2", f"{MARKUP}=1")
        update = json.loads(stream.next_data(timeout=2 * SCALE))
        assert time.monotonic() - changed < 2 * SCALE  # 2 s on a quiet machine
    assert "<td>Ann</td><td>9</td>" in update["body"]
    assert "In progress after 2 rounds" in update["body"]


def test_the_store_is_read_without_its_lock(night: None, db_path: Path) -> None:
    lock = db_path.with_name(db_path.name + ".lock")
    from filelock import FileLock

    with FileLock(str(lock), timeout=1):  # a writer in the middle of its change
        view = snapshot(db_path)
        assert view.get().label == "Friday <b>night</b>"


# ---------------------------------------------------------------------------
# The command


def test_the_qr_code_scans_back_to_the_address() -> None:
    url = f"http://192.0.2.10:8765/{secrets.token_urlsafe(16)}/"
    assert decode_qr(qr.text_lines(url)) == url


@pytest.mark.e2e
def test_serve_prints_the_address_and_stops_cleanly_on_ctrl_c(
        night: None, score_exe: Path, score_env: dict[str, str]) -> None:
    served = start_serve(score_exe, score_env)
    try:
        printed = "".join(served.lines)
        assert "Only this computer can open it" in printed
        url = served.printed_url
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{22}/", url)
        # Issue 28.7: no phone can open a loopback address, so no QR code; it says how
        # to let the phones in instead.
        assert not any(line.strip("\n") and set(line.strip("\n")) <= QR_CHARACTERS
                       for line in served.lines), printed
        assert "no QR code" in printed and "--host 0.0.0.0" in printed
        connection = http.client.HTTPConnection(urlsplit(url).netloc, timeout=10 * SCALE)
        connection.request("GET", urlsplit(url).path)
        response = connection.getresponse()
        assert response.status == 200
        assert b"Friday &lt;b&gt;night" in response.read()
        connection.close()
    finally:
        code, out, err = served.stop(signal.SIGINT)
    assert code == 0, (out, err)
    assert err == ""
    assert "Stopped" in out and "Traceback" not in out


STOPPED_IN_A_FINALIZER = """
import os, signal, sys
from pathlib import Path
from scorekeeper.web.server import Site, ViewerServer, serve_until_stopped

server = ViewerServer(("127.0.0.1", 0), Site(Path(sys.argv[1]), "token", None))
sent = []

class Finalized:
    def __del__(self):
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), getattr(signal, sys.argv[2]))
            sum(range(100_000))  # the handler runs in here, inside the finalizer

service_actions = server.service_actions

def service_actions_with_a_finalizer():
    Finalized()
    service_actions()

server.service_actions = service_actions_with_a_finalizer
serve_until_stopped(server)
print("stopped")
"""


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
@pytest.mark.e2e
def test_a_stop_that_lands_in_a_finalizer_is_not_lost(db_path: Path, how: str) -> None:
    # A KeyboardInterrupt raised by a signal handler inside __del__ is printed and
    # dropped by Python; the server must stop anyway.
    done = subprocess.run([sys.executable, "-c", STOPPED_IN_A_FINALIZER, str(db_path), how],
                          capture_output=True, text=True, timeout=20 * SCALE, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "stopped\n", "")


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.e2e
def test_stopping_it_the_moment_it_starts_is_clean(
        score_exe: Path, score_env: dict[str, str], how: int) -> None:
    code, out, err = start_serve(score_exe, score_env).stop(how)
    assert (code, err) == (0, ""), (out, err)
    assert "Stopped" in out


@pytest.mark.e2e
def test_serve_on_every_network_says_who_can_see_it(
        night: None, score_exe: Path, score_env: dict[str, str]) -> None:
    served = start_serve(score_exe, score_env, "--host", "0.0.0.0")
    try:
        printed = "".join(served.lines)
        assert "anyone on your network with this address" in printed
        assert urlsplit(served.printed_url).hostname != "0.0.0.0"  # an address to open
        assert decode_qr(served.qr_lines()) == served.printed_url
        port = urlsplit(served.url).port
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30 * SCALE)
        connection.request("GET", urlsplit(served.url).path)
        assert connection.getresponse().status == 200
        connection.close()
    finally:
        code, out, err = served.stop(signal.SIGTERM)
    assert code == 0 and err == "", (out, err)


@pytest.mark.e2e
def test_serve_completes_session_ids(night: None, score_run: Callable[..., Result]) -> None:
    result = score_run(env={"_SCORE_COMPLETE": "complete_bash", "COMP_WORDS": "score serve ",
                            "COMP_CWORD": "2"})
    assert result.exit_code == 0 and result.stdout.split() == ["1"], result


def test_serve_refuses_a_session_that_does_not_exist(night: None, refuse: Refuse) -> None:
    refuse("serve", "7", says="there is no session 7")


@pytest.mark.e2e
def test_serve_refuses_a_port_in_use(refuse: Refuse) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refuse("serve", "--port", port, says=f"port {port} on 127.0.0.1 is already in use")


@pytest.mark.e2e
def test_serve_refuses_an_address_not_of_this_computer(refuse: Refuse) -> None:
    refuse("serve", "--host", "192.0.2.77", "--port", "0", says="not an address of this")


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_serve_refuses_a_malformed_port(refuse: Refuse, port: str) -> None:
    refuse("serve", "--port", port, code=2)


# ---------------------------------------------------------------------------
# Load


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found, status
    return int(found.group(1))


@pytest.mark.slow  # a stress test: 50 streams, then 1,000 connections (about 5 s)
@pytest.mark.e2e
def test_fifty_viewers_get_a_change_within_two_seconds_and_memory_stays_flat(
        night: None, db_path: Path, score_exe: Path, score_env: dict[str, str],
        score_run: Callable[..., object]) -> None:
    served = start_serve(score_exe, score_env)
    try:
        url, pid = served.url, served.process.pid
        events = url + "events/"
        viewers = [EventStream(events) for _ in range(50)]
        for viewer in viewers:
            assert "<td>Ann</td><td>0</td>" in json.loads(viewer.next_data())["body"]
        arrived: list[float] = [0.0] * len(viewers)

        def wait(index: int) -> None:
            data = json.loads(viewers[index].next_data(timeout=10 * SCALE))
            assert "<td>Ann</td><td>9</td>" in data["body"]
            arrived[index] = time.time()  # wall clock, as the file's mtime

        waiting = [threading.Thread(target=wait, args=(i,)) for i in range(len(viewers))]
        for thread in waiting:
            thread.start()
        result = score_run("add-round", "--declarer", MARKUP, "Ann=10", f"{HOSTILE}=2",
                           f"{MARKUP}=1")
        assert getattr(result, "exit_code", None) == 0, result
        changed = db_path.stat().st_mtime  # when the new store was written
        for thread in waiting:
            thread.join(timeout=15 * SCALE)
        assert all(arrived), "a viewer got no update"
        delays = [at - changed for at in arrived]
        assert max(delays) < 2 * SCALE, f"viewers updated late (s after the change): {delays}"
        for viewer in viewers:
            viewer.close()

        def churn(count: int) -> None:
            for number in range(count):
                if number % 2:
                    with EventStream(events) as stream:
                        stream.next_data()
                else:
                    connection = http.client.HTTPConnection(urlsplit(url).netloc,
                                                            timeout=10 * SCALE)
                    connection.request("GET", urlsplit(url).path)
                    assert connection.getresponse().status == 200
                    connection.close()

        churn(200)  # warm up: the allocator settles, first-use caches fill
        time.sleep(0.5)
        before = rss_kib(pid)
        churn(1000)
        time.sleep(0.5)
        after = rss_kib(pid)
        assert after - before < 3 * 1024, f"RSS grew from {before} KiB to {after} KiB"
    finally:
        code, out, err = served.stop()
    assert code == 0, (out, err)
    print(f"RSS {before} KiB -> {after} KiB over 1,000 connections; "
          f"slowest viewer {max(delays):.2f} s after the store changed")


@pytest.mark.e2e
def test_a_closed_stream_gives_its_place_back(night: None,
                                             serving: Callable[..., Running]) -> None:
    running = serving(max_connections=2)
    for _ in range(10):  # many more streams than places, each opened and dropped
        deadline = time.monotonic() + 2 * SCALE
        while True:
            stream = EventStream(running.url + "events/")
            if stream.status.endswith("200 OK") or time.monotonic() > deadline:
                break
            stream.close()
            time.sleep(0.05)
        with stream:
            assert stream.status.endswith("200 OK"), "a closed stream kept its place"
            stream.next_data()


@pytest.mark.e2e
def test_serving_writes_nothing_beside_the_store(night: None, db_path: Path,
                                                 serving: Callable[..., Running]) -> None:
    before = {path.name: path.read_bytes() for path in db_path.parent.iterdir()}
    running = serving()
    for page in ("", "sessions", "session/1"):
        assert running.get(page).status == 200
    with EventStream(running.url + "events/") as stream:
        stream.next_data()
    after = {path.name: path.read_bytes() for path in db_path.parent.iterdir()}
    assert after == before, "no lock file, no temporary file, no change"


@pytest.mark.usefixtures("night")
@pytest.mark.e2e
def test_the_session_page_names_the_next_dealer_once(serving: Callable[..., Running]) -> None:
    """Issue 28.7: not "Next dealer: X" and then "Next deal: X deals, ..." again."""
    body = serving().get().body
    section = re.search(r'<section class="dealer">(.*?)</section>', body, re.DOTALL)
    assert section, body
    dealer = section.group(1)
    assert dealer.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 1, dealer
    assert "Next deal:" not in dealer and dealer.count("Next dealer") == 1, dealer
    assert f"{MARKUP} plays first." in dealer  # who starts is still said
    # ... on a line of its own, never run on after the dealer's name (issue 40.5)
    assert re.search(r'</strong></bdi></p><p class="meta">' + re.escape(MARKUP), dealer) \
        or re.search(r'</strong>[^<]*</p><p class="meta">', dealer), dealer


@pytest.mark.e2e
def test_each_phone_gets_the_language_it_asked_for_and_keeps_it(
        serving: Callable[..., Running], night: None) -> None:
    """``?lang=`` on the live, sessions and stats pages, kept by that phone's cookie for
    its next pages (and their live streams); another phone gets the host's language
    (issue 40.4)."""
    running = serving()
    for page in ("", "sessions", "stats", "session/1"):
        danish = running.ask(f"/{running.site.token}/{page}?lang=da")
        assert danish.status == 200 and 'lang="da"' in danish.body, page
        assert "Alle sessioner" in danish.body
        assert "scorekeeper-lang=da" in danish.headers["set-cookie"]
        assert "events/" in danish.body and "?lang=da" in danish.body
        arabic = running.ask(f"/{running.site.token}/{page}?lang=ar")
        assert 'lang="ar" dir="rtl"' in arabic.body and "كل الجلسات" in arabic.body
    # A page's own stream asks in the page's language: that is not the phone asking.
    stream = running.ask(f"/{running.site.token}/events/?lang=da", "HEAD")
    assert stream.status == 200 and "set-cookie" not in stream.headers
    kept = running.ask(f"/{running.site.token}/stats",
                       headers={"Cookie": "scorekeeper-lang=ar"})
    assert 'lang="ar" dir="rtl"' in kept.body and "set-cookie" not in kept.headers
    other = running.get("sessions")
    assert 'lang="en"' in other.body and "All sessions" in other.body
    odd = running.ask(f"/{running.site.token}/?lang=xx",
                      headers={"Cookie": "scorekeeper-lang=<script>; x=\"\\"})
    assert odd.status == 200 and 'lang="en"' in odd.body
