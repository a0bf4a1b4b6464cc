"""Helpers for the ``score play --online`` tests: a game played in-process by its
:class:`~scorekeeper.web.online.OnlineTable` and server on loopback, and phones that
play a seat over plain HTTP (its page, its live stream, its moves), as a browser does."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import re
import selectors
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from deadlines import deadline

from scorekeeper import match
from scorekeeper.playing import GameLife
from scorekeeper.registry import declaration_of
from scorekeeper.session import Session
from scorekeeper.store import Store
from scorekeeper.web.online import OnlineTable, online_server
from scorekeeper.web.server import ViewerServer

PAGE_TOKEN = re.compile(r'data-page="([^"]+)"')


@dataclass
class Recorded:
    """Every byte the server sent, by connection: (whose page, the bytes)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    connections: dict[int, tuple[str, bytearray]] = field(default_factory=dict)

    def __call__(self, number: int, who: str, data: bytes) -> None:
        with self.lock:
            _who, sent = self.connections.setdefault(number, (who, bytearray()))
            sent += data
            self.connections[number] = (who, sent)


@dataclass
class Online:
    """A game being played online, in this process."""

    life: GameLife
    table: OnlineTable
    server: ViewerServer
    record: Recorded
    result: list[Session | BaseException] = field(default_factory=list)
    thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def seat_url(self, name: str) -> str:
        return f"{self.base}/{self.table.seats[name].token}/"

    @property
    def viewer_url(self) -> str:
        return f"{self.base}/{self.table.viewer_token}/"

    def play(self) -> None:
        """Play the game in a thread of its own (as the command plays it in its own)."""
        def run() -> None:
            try:
                self.result.append(self.life.play(self.table.hooks()))
            except BaseException as error:
                self.result.append(error)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def finish(self, timeout: float = 120) -> Session:
        assert self.thread is not None
        self.thread.join(deadline(timeout))
        assert not self.thread.is_alive(), "the game did not end"
        outcome = self.result[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def close(self) -> None:
        self.table.close()
        self.server.shutdown()
        self.server.server_close()
        if self.thread is not None:
            self.thread.join(10)
        self.life.close()


@contextlib.contextmanager
def online_game(tmp_path: Path, game: str, humans: list[str], bots: list[str], seed: int,
                options: dict[str, Any] | None = None, *, resume: int | None = None
                ) -> Iterator[Online]:
    """A game started (or resumed) in a store under ``tmp_path``, its server listening on
    a free loopback port, every byte it sends recorded."""
    db = Store(tmp_path / "store.json")
    if resume is None:
        life = GameLife.start(db, game, match.make_seats(humans, bots), seed,
                              options=options or {})
    else:
        life = GameLife.resume(db, resume)
    module = __import__(declaration_of(life.session.game).online_ui or "", fromlist=["_"])
    table = OnlineTable(life.session, life.humans, module)
    server = online_server(("127.0.0.1", 0), table)
    record = Recorded()
    server.site.record = record
    threading.Thread(target=server.serve_forever, daemon=True).start()
    online = Online(life, table, server, record)
    try:
        yield online
    finally:
        online.close()


def request(url: str, method: str = "GET", body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=deadline(20))
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


class Phone:
    """One seat's page as a browser holds it: loaded (with its page token), its live
    stream open, its moves posted."""

    def __init__(self, url: str, lang: str = "en") -> None:
        self.url = url
        self.lang = lang
        status, _headers, body = request(f"{url}?lang={lang}")
        assert status == 200, status
        found = PAGE_TOKEN.search(body.decode())
        assert found
        self.page = found.group(1)
        parts = urlsplit(url)
        self.socket = socket.create_connection((parts.hostname or "", parts.port or 0),
                                               timeout=deadline(30))
        self.socket.sendall(f"GET {parts.path}events?lang={lang} HTTP/1.1\r\n"
                            f"Host: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n"
                            .encode())
        self.file = self.socket.makefile("rb")
        status_line = self.file.readline()
        assert b" 200 " in status_line, status_line
        while self.file.readline().strip():
            pass
        self.state: dict[str, Any] = {}

    def next_state(self, timeout: float = 30) -> dict[str, Any]:
        self.socket.settimeout(deadline(timeout))
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("the stream ended")
            if line.startswith(b"data: "):
                self.state = json.loads(line[len(b"data: "):])
                return self.state

    def post(self, what: str, body: dict[str, Any], page: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        status, _headers, answer = request(
            f"{self.url}{what}?lang={self.lang}", "POST", json.dumps(body).encode(),
            {"Content-Type": "application/json", "X-Scorekeeper-Page": page or self.page,
             **(headers or {})})
        return status, json.loads(answer) if answer.startswith(b"{") else {}

    def move(self, rng: random.Random) -> tuple[int, dict[str, Any]]:
        """A legal-looking move of the state shown (a random button; with a pick, a
        legal set of cards first)."""
        moves = self.state["moves"]
        buttons = list(enumerate(moves["buttons"]))
        picked: list[str] = []
        if moves["pick"] is not None:
            picked = rng.choice(moves["pick"]["sets"])
        index, _button = rng.choice(buttons)
        return self.post("move", {"v": self.state["v"],
                                  "move": {"button": index, "picked": picked}})

    def close(self) -> None:
        """Close the live stream, as a phone that sleeps or a closed tab does."""
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_RDWR)
        self.file.close()
        self.socket.close()


def play_seat(phone: Phone, seed: int, stop: threading.Event) -> None:
    """Play the seat on ``phone`` until the game is over: a random legal move whenever
    the page offers moves."""
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            state = phone.next_state()
        except (EOFError, OSError):
            return
        if state["over"]:
            return
        if state["moves"]:
            phone.move(rng)


class Streams:
    """``count`` live streams of one address, opened ``batch`` at a time and kept open,
    whatever they are sent read and dropped by one thread."""

    def __init__(self, url: str, count: int, batch: int = 10) -> None:
        parts = urlsplit(url)
        self.statuses: list[int] = []
        self.open: list[socket.socket] = []
        self.selector = selectors.DefaultSelector()
        self.stopped = threading.Event()
        for start in range(0, count, batch):
            opened = [socket.create_connection((parts.hostname or "", parts.port or 0),
                                               timeout=deadline(30))
                      for _ in range(min(batch, count - start))]
            for connection in opened:
                connection.sendall(f"GET {parts.path}events HTTP/1.1\r\nHost: "
                                   f"{parts.netloc}\r\n\r\n".encode())
            for connection in opened:
                status = int(connection.recv(64).split()[1])
                self.statuses.append(status)
                if status == 200:
                    connection.setblocking(False)
                    self.selector.register(connection, selectors.EVENT_READ)
                    self.open.append(connection)
                else:
                    connection.close()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while not self.stopped.is_set():
            for key, _events in self.selector.select(0.1):
                with contextlib.suppress(OSError):
                    key.fileobj.recv(65536)  # type: ignore[union-attr]

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        for connection in self.open:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            connection.close()
        self.selector.close()
