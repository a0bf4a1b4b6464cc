"""The HTTP server of ``score serve``: live, read-only pages for every phone at the table.

Built on the standard library's ``http.server``: a handful of viewers on a local
network need no framework, and it adds no dependency to install or keep up to date. This
module adds what a public-facing server needs on top:

* a random token (``secrets.token_urlsafe``) as the first part of every path: any other
  path is a bare 404 that says nothing about the store;
* the token first: every new connection's request is read by one thread, the
  :class:`Gate`, with a deadline for the whole request line and the whole request (not
  each read), and at most :data:`MAX_WAITING` of them waiting at once, beside those
  younger than :data:`FIRST_SECONDS` (more close the oldest, after a last look at what it
  sent). Only a request whose line shows the token takes a viewer's place and a thread of
  its own: connections without it, idle or trickling, can't keep viewers out;
* GET and HEAD only (405 otherwise), one request per connection (HTTP/1.0), a request
  of at most :data:`MAX_REQUEST_BYTES` (431 beyond), at most ``max_connections`` viewers
  at once, live streams included (503 beyond);
* strict headers on every answer: a Content-Security-Policy without inline script or
  style (the live script and the style sheet are tokened files of their own), no
  sniffing, no framing, no referrer, no caching.

The pages follow the store: a watcher polls the file's identity (inode, mtime, size)
every :data:`POLL_SECONDS`, and each open page gets the new rendering as a Server-Sent
Event. The store is only ever replaced whole (``os.replace``), so reading it needs no
lock and never blocks a ``score`` command that writes.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import hmac
import http.cookies
import io
import itertools
import json
import re
import selectors
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from email.utils import formatdate
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from scorekeeper import i18n
from scorekeeper.config import LANGUAGES
from scorekeeper.i18n import N_, _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject, JSONValue
from scorekeeper.store import Store, StoreError, StoreView
from scorekeeper.text import show_controls
from scorekeeper.views import app_icon, pages, stats_report

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_CONNECTIONS = 128
"""Connections past the token at once, live streams included; more are answered 503."""
MAX_WAITING = 64
"""Connections not yet past the token at once; one more closes the oldest of them
(but see :data:`FIRST_SECONDS`)."""
SPECTATOR_PLACES = 64
"""Places past the gate that a site's public address (``score play --online``'s table for
anyone watching) shares among all who open it."""
SEAT_PLACES = 12
"""Places of each seat's (or player's) own token: its page, its live stream, its moves,
a second tab. Budgets are counted by who asks, so spectators, or one token, can never
take a seat's places."""
FIRST_SECONDS = 0.5
"""A connection this young is not closed to make room for newer ones (up to
:data:`YOUNG_ROOM` times :data:`MAX_WAITING` in all): a viewer's request may come a moment
after its connection, and a flood of new connections must not close it before it can
show its token."""
YOUNG_ROOM = 4
"""With the viewers' 128 places, 256 at the gate at most: well within the 1024 files a
process may usually have open."""
TOKEN_SECONDS = 5.0
"""A new connection has this long to send its request line (the token in it)..."""
REQUEST_SECONDS = 10.0
"""...and this long for its whole request, counted from its arrival, not for each read."""
MAX_REQUEST_BYTES = 8 * 1024
"""Request line and headers together; a browser sends well under 2 KiB."""
SOCKET_TIMEOUT_SECONDS = 10.0
"""A viewer that does not take (each part of) its answer for this long is dropped."""
LANGUAGE_COOKIE = "scorekeeper-lang"
"""The cookie that keeps the language a phone asked for (``?lang=``) for its next pages."""
LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600
LINGER_SECONDS = 1.0
"""After an answer given at the gate, how long the rest of the request is drained."""
MAX_LINGERING = 64
POLL_SECONDS = 0.3
"""How often the store file's identity is checked for a change."""
TICK_SECONDS = 0.25
"""How often a live stream checks for a change, a closed viewer or a stop."""
HEARTBEAT_SECONDS = 15.0
RETRY_MILLISECONDS = 1500

SECURITY_HEADERS = (
    ("Content-Security-Policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; manifest-src 'self'; base-uri 'self'; form-action 'none'; "
     "frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)

HTML = "text/html; charset=utf-8"
JSON = "application/json; charset=utf-8"
ASSETS = {
    "live.js": ("text/javascript; charset=utf-8", pages.LIVE_SCRIPT.encode("utf-8")),
    "style.css": ("text/css; charset=utf-8", pages.STYLE.encode("utf-8")),
    **{name: (kind, app_icon.icon(name)) for name, kind in app_icon.ICONS.items()},
}
SESSION_PATH = re.compile(r"session/([1-9][0-9]{0,8})")


# ---------------------------------------------------------------------------
# Reading the store


def snapshot(path: Path) -> StoreView:
    """The store as one consistent read, without its lock (a missing file is empty).

    Raises StoreError when the file is damaged."""
    return Store(path).read()  # the file is read once: every table from the same version


class StoreWatcher:
    """Counts the changes of the store file, seen by polling its inode, mtime and size."""

    def __init__(self, path: Path, interval: float = POLL_SECONDS) -> None:
        self.path = path
        self.interval = interval
        self.version = 0
        self._stamp = self._stat()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="store-watcher", daemon=True)

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return info.st_ino, info.st_mtime_ns, info.st_size

    def _run(self) -> None:
        while not self._stopped.wait(self.interval):
            stamp = self._stat()
            if stamp != self._stamp:
                self._stamp = stamp
                self.version += 1

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()


# ---------------------------------------------------------------------------
# The site: which paths exist and what they show


class Site:
    """The token, the pages and their renderings, shared by every connection."""

    def __init__(self, path: Path, token: str, session_id: int | None = None, *,
                 report: Callable[[str], None] | None = None,
                 reported: str | None = None) -> None:
        self.path = path
        self.token = token
        self.session_id = session_id
        self.report = report or (lambda line: None)
        """Where a problem is told (the terminal): the pages never show why the store
        can't be read, since the reason names its path."""
        self.watcher = StoreWatcher(path)
        self.stopped = threading.Event()
        # The site's fixed pages besides the session (path -> nav label, page).
        # Another view of the store joins with one entry, e.g.
        # "stats": ("Statistics", pages.html_page("Statistics", stats.render_html)).
        self.pages: dict[str, tuple[str, pages.PageFunction]] = {
            "sessions": (N_("All sessions"), pages.sessions_page),
            "stats": (N_("Statistics"), pages.html_page(N_("Statistics"),
                                                         stats_report.store_page)),
        }
        self._lock = threading.Lock()
        self._view: tuple[int, StoreView | StoreError] | None = None
        self._rendered: dict[str, tuple[int, pages.Page]] = {}
        self._reported = {reported} if reported else set()
        """The problems already told, since the store was last read whole."""

    @property
    def base(self) -> str:
        return f"/{self.token}/"

    def nav(self) -> list[tuple[str, str]]:
        first = (_("This game") if self.session_id is None
                 else _("Session {id}").format(id=self.session_id))
        return [("", first), *((key, _(label)) for key, (label, _page) in self.pages.items())]

    def page_function(self, key: str) -> pages.PageFunction | None:
        """What the page at ``key`` (the path after the token) shows; None: no such page."""
        if key == "":
            return partial(pages.session_page, session_id=self.session_id)
        if key in self.pages:
            return self.pages[key][1]
        match = SESSION_PATH.fullmatch(key)
        if match:
            return partial(pages.session_page, session_id=int(match.group(1)))
        return None

    def page(self, key: str) -> pages.Page:
        """The page at ``key`` as of the store's latest seen version (rendered once)."""
        render = self.page_function(key)
        if render is None:
            raise KeyError(key)
        version = self.watcher.version
        problem: str | None = None
        key_shown = f"{i18n.active_language()}:{key}"  # each language rendered once
        with self._lock:
            cached = self._rendered.get(key_shown)
            if cached is not None and cached[0] == version:
                return cached[1]
            if self._view is None or self._view[0] != version:
                self._rendered.clear()
                try:
                    self._view = (version, snapshot(self.path))
                    self._reported.clear()
                except StoreError as error:
                    self._view = (version, error)
            view = self._view[1]
            if isinstance(view, StoreError):
                page, problem = pages.damaged_page(), store_problem(view)
            else:
                try:
                    page = render(view)
                except StoreError as error:  # a damaged session
                    page, problem = pages.damaged_page(), store_problem(error)
                except Exception as error:  # a page that can't be drawn says so, no traceback
                    page = pages.damaged_page()
                    problem = sentence(_("this page could not be drawn ({error})").format(
                        error=error))
            if problem in self._reported:
                problem = None
            elif problem is not None:
                self._reported.add(problem)
            if len(self._rendered) >= 64:
                self._rendered.clear()
            self._rendered[key_shown] = (version, page)
        if problem is not None:
            self.report(problem)  # not under the lock: the terminal may be slow to take it
        return page

    def document(self, key: str) -> bytes:
        page = self.page(key)
        return pages.document(page, base=self.base,
                              events=f"events/{key}?lang={i18n.active_language()}",
                              nav=self.nav()).encode("utf-8")

    def shows_token(self, raw_path: str) -> bool:
        """Whether a request's path starts with the token (compared in constant time)."""
        parts = urlsplit(raw_path).path.split("/", 2)
        return len(parts) >= 2 and not parts[0] and hmac.compare_digest(
            parts[1].encode("latin-1", "replace"), self.token.encode("ascii"))

    def resolve(self, raw_path: str) -> tuple[str, str] | None:
        """(what, key) for a request path, or None for anything but a tokened page:
        what is ``page``, ``events``, ``asset`` or ``redirect``."""
        if not self.shows_token(raw_path):
            return None
        parts = urlsplit(raw_path).path.split("/", 2)
        if len(parts) == 2:
            return "redirect", ""
        rest = parts[2]
        if rest in ASSETS or rest == app_icon.MANIFEST:
            return "asset", rest
        if rest.startswith("events/") and self.page_function(rest[len("events/"):]):
            return "events", rest[len("events/"):]
        if self.page_function(rest) is not None:
            return "page", rest
        return None


def store_problem(error: StoreError) -> str:
    """The terminal's line for a store that can't be read (the reason names its path)."""
    return show_controls(_("The store can't be read ({problem}); the pages say so until it "
                           "is repaired.").format(problem=error))


def sentence(message: str) -> str:
    """A message as a line of its own: neutralised, its first letter a capital."""
    message = show_controls(message)
    return message[:1].upper() + message[1:]


# ---------------------------------------------------------------------------
# HTTP


class RequestTooLarge(Exception):
    pass


class _LimitedReader:
    """The request stream, cut off after ``limit`` bytes."""

    def __init__(self, stream: io.BufferedIOBase, limit: int) -> None:
        self.stream = stream
        self.left = limit

    def readline(self, size: int = -1) -> bytes:
        wanted = self.left + 1 if size < 0 else min(size, self.left + 1)
        line = self.stream.readline(wanted)
        if len(line) > self.left:
            raise RequestTooLarge
        self.left -= len(line)
        return line

    def read(self, size: int = -1) -> bytes:
        """The request's body (the gate has read it whole, within the server's limit)."""
        wanted = self.left if size < 0 else min(size, self.left)
        data = self.stream.read(wanted)
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.stream.close()


class ViewerHandler(BaseHTTPRequestHandler):
    """One request per connection, read by the gate and past its token: a page, its live
    stream, or its script or style."""

    server: ViewerServer
    protocol_version = "HTTP/1.0"
    timeout = SOCKET_TIMEOUT_SECONDS

    def __init__(self, request: socket.socket, client_address: Any, server: ViewerServer,
                 head: bytes = b"") -> None:
        self.head = head
        super().__init__(request, client_address, server)

    def setup(self) -> None:
        """The :class:`Gate` has read the request: it is read here from memory, and the
        connection is only written to (and watched for the viewer leaving)."""
        super().setup()
        self.rfile.close()
        self.rfile = _LimitedReader(io.BytesIO(self.head),  # type: ignore[assignment]
                                    MAX_REQUEST_BYTES + self.server.max_body)

    def version_string(self) -> str:
        return "scorekeeper"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows the address, not every phone's requests."""

    def handle_one_request(self) -> None:
        self.close_connection = True
        self.requestline, self.request_version, self.command = "", "HTTP/1.0", ""
        try:
            self.raw_requestline = self.rfile.readline()
            if not self.raw_requestline or not self.parse_request():
                return
            self.request_version = "HTTP/1.0"  # an HTTP/0.9 request gets headers too
            self._answer()
        except RequestTooLarge:
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
        except (OSError, ValueError):
            pass  # the viewer went away or timed out mid-answer: nothing to tell anyone

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """Every error the request parser finds, answered with our headers; the parser's
        message (which quotes the request) is not echoed."""
        status = HTTPStatus(code)
        self.request_version = "HTTP/1.0"  # the parser may have set 0.9, which has no headers
        self._send(status, HTML,
                   pages.error_page(f"{code} {status.phrase}", status.description).encode())
        # (the standard phrases of HTTP stay as the protocol writes them)

    remember: str | None = None
    """The language a ``?lang=`` asked for: the answer's cookie keeps it for this phone."""

    def _language(self, query: str, default: str) -> str:
        """The language the page is asked in: ``?lang=`` (kept in a cookie for the
        phone's next pages), else the one the phone's cookie kept, else ``default``."""
        asked = parse_qs(query).get("lang", [""])[0]
        if asked in LANGUAGES:
            if self._is_page():  # not the page's own stream, post or file: the phone's ask
                self.remember = asked
            return asked
        cookies = http.cookies.SimpleCookie()
        try:
            cookies.load(self.headers.get("Cookie", ""))
        except http.cookies.CookieError:
            return default
        kept = cookies.get(LANGUAGE_COOKIE)
        return kept.value if kept is not None and kept.value in LANGUAGES else default

    def _is_page(self) -> bool:
        """Whether the request is for a page a person opens (its address is what they
        asked for), not its live stream, a post or one of its files: only a page's
        ``?lang=`` is kept for the phone's next pages."""
        parts = urlsplit(self.path).path.split("/", 2)
        first = parts[2].split("/")[0] if len(parts) > 2 else ""
        return first not in ("events", "move", "hint", "entry") and "." not in first

    def _answer(self) -> None:
        language = self._language(urlsplit(self.path).query, i18n.active_language())
        with i18n.speaking(language):
            self._answer_in_language()

    def _answer_in_language(self) -> None:
        site = self.server.site
        found = site.resolve(self.path)
        if found is None:
            self._send(HTTPStatus.NOT_FOUND, HTML,
                       pages.error_page("404 Not Found", _("There is nothing here.")).encode())
            return
        if self.command not in ("GET", "HEAD"):
            self._send(HTTPStatus.METHOD_NOT_ALLOWED, HTML,
                       pages.error_page("405 Method Not Allowed",
                                        _("These pages are read-only.")).encode(),
                       Allow="GET, HEAD")
            return
        what, key = found
        if what == "redirect":
            self._send(HTTPStatus.MOVED_PERMANENTLY, HTML, b"", Location=site.base)
        elif what == "asset" and key == app_icon.MANIFEST:
            self._send(HTTPStatus.OK, app_icon.MANIFEST_TYPE, app_icon.manifest("Scorekeeper"))
        elif what == "asset":
            content_type, body = ASSETS[key]
            self._send(HTTPStatus.OK, content_type, body)
        elif what == "events":
            self._stream(key)
        else:
            self._send(HTTPStatus.OK, HTML, site.document(key))

    def _start(self, status: HTTPStatus, content_type: str, **extra: str) -> None:
        self.send_response(status)
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        if self.remember is not None:
            self.send_header("Set-Cookie", f"{LANGUAGE_COOKIE}={self.remember}; Path=/; "
                             f"Max-Age={LANGUAGE_COOKIE_SECONDS}; SameSite=Strict")
        self.send_header("Content-Type", content_type)
        for name, value in extra.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()

    def _send(self, status: HTTPStatus, content_type: str, body: bytes, **extra: str) -> None:
        self._start(status, content_type, Content_Length=str(len(body)), **extra)
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: HTTPStatus, answer: Mapping[str, JSONValue]) -> None:
        self._send(status, JSON, json.dumps(answer, ensure_ascii=False).encode("utf-8"))

    def _posted_object(self, page_tokens: Collection[str],
                       empty: JSONObject | None) -> JSONObject | None:
        """The JSON object a page of this site posted, or None once the refusal is sent.

        A post counts only with one of the page's own tokens, from the same origin, as
        JSON (a form on another site can send none of these); ``empty`` is what an empty
        body means (None: a bad request). A body the parser cannot take, too deep
        included, is a bad request, never a dropped connection."""
        page = self.headers.get("X-Scorekeeper-Page", "")
        origin = self.headers.get("Origin")
        host = self.headers.get("Host", "")
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        known = any(hmac.compare_digest(page.encode("utf-8", "replace"), mine.encode())
                    for mine in list(page_tokens))
        if not known or (origin is not None and origin != f"http://{host}") \
                or kind != "application/json":
            self._json(HTTPStatus.FORBIDDEN, {"ok": False, "problem": "forbidden"})
            return None
        try:
            length = int(self.headers.get("Content-Length", "0"))
            posted = json.loads(self.rfile.read(length).decode("utf-8")) if length else empty
        except (ValueError, UnicodeDecodeError, RecursionError):
            posted = None
        if not isinstance(posted, dict):
            self._json(HTTPStatus.BAD_REQUEST, {"ok": False, "problem": "bad request"})
            return None
        return posted

    def _stream(self, key: str) -> None:
        """Server-Sent Events: the page's rendering now and after every change."""
        self._start(HTTPStatus.OK, "text/event-stream; charset=utf-8")
        if self.command == "HEAD":
            return
        site = self.server.site
        self.wfile.write(f"retry: {RETRY_MILLISECONDS}\n\n".encode())
        seen, sent, quiet_since = -1, "", time.monotonic()
        with selectors.DefaultSelector() as selector:
            # A viewer sends nothing after its request: readable means it has gone.
            selector.register(self.connection, selectors.EVENT_READ)
            while not site.stopped.is_set():
                version = site.watcher.version
                if version != seen:
                    seen = version
                    data = site.page(key).event_data()
                    if data != sent:
                        self.wfile.write(f"data: {data}\n\n".encode())
                        sent, quiet_since = data, time.monotonic()
                elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                    self.wfile.write(b": still here\n\n")
                    quiet_since = time.monotonic()
                if selector.select(TICK_SECONDS):
                    return


def raw_answer(status: HTTPStatus, body: bytes, **extra: str) -> bytes:
    """A whole HTTP/1.0 answer with our headers, for the :class:`Gate` (which has no
    handler to write one)."""
    head = [f"HTTP/1.0 {status.value} {status.phrase}", "Server: scorekeeper",
            f"Date: {formatdate(usegmt=True)}",
            *(f"{name}: {value}" for name, value in SECURITY_HEADERS),
            f"Content-Type: {HTML}", f"Content-Length: {len(body)}",
            *(f"{name.replace('_', '-')}: {value}" for name, value in extra.items())]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


HEAD_END = re.compile(rb"\n\r?\n")


def head_length(data: bytes | bytearray) -> int | None:
    """How long the request head at the start of ``data`` is (request line, headers and
    the blank line after them), or None while it is incomplete."""
    first = data.find(b"\n")
    if first < 0:
        return None
    if len(data[:first].split()) < 3:
        return first + 1  # HTTP/0.9: a request line and nothing else
    found = HEAD_END.search(data, first)
    return found.end() if found else None


CONTENT_LENGTH = re.compile(rb"\r?\ncontent-length[ \t]*:[ \t]*([^\r\n]*)", re.IGNORECASE)


def body_length(head: bytes | bytearray) -> int | None:
    """How long the body after the request head ``head`` is (its Content-Length; 0 when
    none is given), or None when it can't be told (a bad or repeated length, or a
    chunked body, which no page takes)."""
    if re.search(rb"\ntransfer-encoding[ \t]*:", head, re.IGNORECASE):
        return None
    found = CONTENT_LENGTH.findall(head)
    if not found:
        return 0
    if len(found) > 1 or not found[0].strip().isdigit() or len(found[0].strip()) > 9:
        return None
    return int(found[0].strip())


class Budgets:
    """The places past the gate, counted by who asks (a site's ``asker``): each asker
    has a budget of its own, so one asker's connections never take another's places."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._used: dict[str, int] = {}

    def take(self, asker: str, limit: int) -> bool:
        """One of ``asker``'s ``limit`` places, if one is free."""
        with self._lock:
            used = self._used.get(asker, 0)
            if used >= limit:
                return False
            self._used[asker] = used + 1
            return True

    def give_back(self, asker: str) -> None:
        with self._lock:
            left = self._used.get(asker, 0) - 1
            if left > 0:
                self._used[asker] = left
            else:
                self._used.pop(asker, None)

    def used(self, asker: str) -> int:
        with self._lock:
            return self._used.get(asker, 0)


@dataclass(eq=False)
class Arrival:
    """A connection whose request the gate is reading."""

    connection: socket.socket
    address: Any
    arrived: float
    data: bytearray = field(default_factory=bytearray)
    trusted: bool = False
    """Its request line carried the token, and it holds one of the viewers' places."""
    asker: str = ""
    """Whose budget its place is from (once trusted)."""


class Gate:
    """The door every connection comes in by. One thread and a selector read the
    requests of all new connections, so a connection costs no thread and no viewer's
    place until its request line shows the token:

    * a new connection has ``token_seconds`` to send its whole request line and
      ``request_seconds`` for its whole request, counted from when it was accepted (not
      for each read: trickling a byte at a time buys nothing);
    * at most ``max_waiting`` connections wait for their token at once; one more closes
      the oldest (after a last look at what it sent). Idle or trickling connections can't
      keep a viewer out: a viewer's request arrives with its connection, or a moment
      after it, so those younger than :data:`FIRST_SECONDS` are closed only beyond
      :data:`YOUNG_ROOM` times ``max_waiting``;
    * a connection accepted is never closed unread: when the gate's thread is behind, the
      server's loop waits for it (the rest wait in the kernel's queue, their requests
      kept);
    * a request line without the token is answered 404 at once. With it, the connection
      takes one of the server's places (503 when they are all taken) and, once its
      request is whole, is handed to a thread of its own;
    * an answer given here is followed by a short drain before closing: closing a socket
      with an unread request in it would reset the connection before the answer is read.
    """

    def __init__(self, server: ViewerServer, *, max_waiting: int, token_seconds: float,
                 request_seconds: float, first_seconds: float = FIRST_SECONDS) -> None:
        self.server = server
        self.max_waiting = max_waiting
        self.token_seconds = token_seconds
        self.first_seconds = first_seconds
        self.request_seconds = request_seconds
        self.arrivals: collections.deque[Arrival] = collections.deque()
        """Accepted by the server's loop, not yet taken in by the gate's thread."""
        self._taken_in = threading.Condition()
        """Notified when the gate's thread has taken the arrivals in."""
        self.waiting: dict[socket.socket, Arrival] = {}
        """Not yet past the token, oldest first."""
        self.trusted: dict[socket.socket, Arrival] = {}
        """Past the token, holding a place, their request not yet whole."""
        self.lingering: dict[socket.socket, float] = {}
        """Answered here, drained until the viewer closes or the time (the value) is up."""
        self.selector = selectors.DefaultSelector()
        self._wake_in, self._wake_out = socket.socketpair()
        self._wake_in.setblocking(False)
        self._wake_out.setblocking(False)
        self.selector.register(self._wake_in, selectors.EVENT_READ)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="serve-gate", daemon=True)
        self._thread.start()

    # -- called from the server's loop

    def admit(self, connection: socket.socket, address: Any) -> None:
        """Take in a connection just accepted; returns at once."""
        with self._taken_in:
            while len(self.arrivals) >= self.max_waiting and not self._stopped:
                self._wake()  # the gate's thread is behind: wait, accepting no more
                self._taken_in.wait(TICK_SECONDS)
            self.arrivals.append(Arrival(connection, address, time.monotonic()))
        self._wake()

    def stop(self) -> None:
        """Close every connection still at the gate, and end its thread."""
        self._stopped = True
        with self._taken_in:
            self._taken_in.notify_all()
        self._wake()
        self._thread.join(timeout=5)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # a full pipe: the thread has been woken already
            self._wake_out.send(b"\0")

    # -- the gate's thread

    def _run(self) -> None:
        try:
            while not self._stopped:
                self._take_arrivals()
                for key, _events in self.selector.select(self._timeout()):
                    if key.fileobj is self._wake_in:
                        with contextlib.suppress(OSError):
                            self._wake_in.recv(4096)
                    else:
                        self._readable(key.fileobj)  # type: ignore[arg-type]
                self._expire(time.monotonic())
        finally:
            for connection in [*self.waiting, *self.trusted, *self.lingering]:
                self._drop(connection)
            while self.arrivals:
                self.server.close_request(self.arrivals.popleft().connection)
            self.selector.close()
            self._wake_in.close()
            self._wake_out.close()

    def _timeout(self) -> float:
        """Until the next deadline (at most a tick)."""
        deadlines = [arrival.arrived + self.token_seconds
                     for arrival in itertools.islice(self.waiting.values(), 1)]
        if len(self.waiting) > self.max_waiting:  # room to make once the oldest is not new
            deadlines.append(next(iter(self.waiting.values())).arrived + self.first_seconds)
        deadlines += [arrival.arrived + self.request_seconds
                      for arrival in self.trusted.values()]
        deadlines += self.lingering.values()
        soonest = min(deadlines, default=time.monotonic() + TICK_SECONDS)
        return min(TICK_SECONDS, max(0.0, soonest - time.monotonic()))

    def _take_arrivals(self) -> None:
        while self.arrivals:
            try:
                arrival = self.arrivals.popleft()
            except IndexError:
                break
            try:
                arrival.connection.setblocking(False)
                self.selector.register(arrival.connection, selectors.EVENT_READ)
            except (OSError, ValueError):
                self.server.close_request(arrival.connection)
                continue
            self.waiting[arrival.connection] = arrival
            self._read(arrival)  # a viewer's request is usually in already
            self._make_room(time.monotonic())
        with self._taken_in:
            self._taken_in.notify_all()

    def _make_room(self, now: float) -> None:
        """Close the oldest waiting beyond ``max_waiting``; those younger than
        :data:`FIRST_SECONDS` only beyond :data:`YOUNG_ROOM` times as many."""
        while len(self.waiting) > self.max_waiting:
            oldest = next(iter(self.waiting.values()))
            if (oldest.arrived + self.first_seconds > now
                    and len(self.waiting) <= YOUNG_ROOM * self.max_waiting):
                return
            self._read(oldest)  # a last look: it may have shown the token by now
            if oldest.connection in self.waiting:
                self._drop(oldest.connection)

    def _readable(self, connection: socket.socket) -> None:
        if connection in self.lingering:
            try:
                while connection.recv(4096):
                    pass
            except BlockingIOError:
                return
            except OSError:
                pass
            self._drop(connection)  # the viewer closed its side
            return
        arrival = self.waiting.get(connection) or self.trusted.get(connection)
        if arrival is not None:
            self._read(arrival)

    def _read(self, arrival: Arrival) -> None:
        """Whatever has come in, and what follows from it."""
        try:
            chunk = arrival.connection.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:  # closed (or reset) before its request was whole
            self._drop(arrival.connection)
            return
        arrival.data += chunk
        data = arrival.data
        if not arrival.trusted:
            line_end = data.find(b"\n")
            if line_end < 0:
                if len(data) > MAX_REQUEST_BYTES:
                    self._answer(arrival, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
                return
            words = data[:line_end].split()
            asker = None if len(words) < 2 else self.server.asker(words[1].decode("latin-1"))
            if asker is None:
                self._answer(arrival, HTTPStatus.NOT_FOUND)
                return
            if not self.server.budgets.take(*asker):
                self._answer(arrival, HTTPStatus.SERVICE_UNAVAILABLE)
                return
            arrival.asker = asker[0]
            del self.waiting[arrival.connection]
            arrival.trusted = True
            self.trusted[arrival.connection] = arrival
        length = head_length(data)
        if length is not None and length <= MAX_REQUEST_BYTES:
            body = body_length(data[:length])
            if body is None or body > self.server.max_body:
                self._answer(arrival, HTTPStatus.REQUEST_ENTITY_TOO_LARGE if body
                             else HTTPStatus.BAD_REQUEST)
                return
            if len(data) < length + body:
                return  # the body is still coming (within the request's deadline)
            del self.trusted[arrival.connection]
            self.selector.unregister(arrival.connection)
            self.server.hand_over(arrival.connection, arrival.address,
                                  bytes(data[:length + body]), arrival.asker)
        elif len(data) > MAX_REQUEST_BYTES:
            self._answer(arrival, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)

    def _answer(self, arrival: Arrival, status: HTTPStatus) -> None:
        """Answer here, without a thread, and drain a little before closing."""
        extra: dict[str, str] = {}
        if status == HTTPStatus.NOT_FOUND:
            body = pages.error_page("404 Not Found", _("There is nothing here."))
        elif status == HTTPStatus.SERVICE_UNAVAILABLE:
            body = pages.error_page("503 Service Unavailable",
                                    _("Too many viewers at once; try again in a moment."))
            extra["Retry_After"] = "2"
        else:  # the standard phrases of HTTP stay as the protocol writes them
            body = pages.error_page(f"{status.value} {status.phrase}", status.description)
        connection = arrival.connection
        self._forget(connection)
        with contextlib.suppress(OSError):
            connection.send(raw_answer(status, body.encode(), **extra))
            connection.shutdown(socket.SHUT_WR)
        if len(self.lingering) >= MAX_LINGERING:
            self._drop(connection)
        else:
            self.lingering[connection] = time.monotonic() + LINGER_SECONDS

    def _expire(self, now: float) -> None:
        self._make_room(now)
        while self.waiting:
            oldest = next(iter(self.waiting.values()))
            if oldest.arrived + self.token_seconds > now:
                break
            self._drop(oldest.connection)
        for connection, arrival in list(self.trusted.items()):
            if arrival.arrived + self.request_seconds <= now:
                self._drop(connection)
        for connection, deadline in list(self.lingering.items()):
            if deadline <= now:
                self._drop(connection)

    def _forget(self, connection: socket.socket) -> None:
        """Take a connection off the gate's lists (giving back its place if it held one)."""
        self.waiting.pop(connection, None)
        self.lingering.pop(connection, None)
        arrival = self.trusted.pop(connection, None)
        if arrival is not None:
            self.server.budgets.give_back(arrival.asker)

    def _drop(self, connection: socket.socket) -> None:
        self._forget(connection)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(connection)
        self.server.close_request(connection)


class ViewerServer(HTTPServer):
    """Accepts connections and hands each to the :class:`Gate`; a request past the gate
    gets a thread of its own, at most ``max_connections`` at once (live streams
    included)."""

    request_queue_size = 128

    def __init__(self, address: tuple[str, int], site: Any,
                 max_connections: int = MAX_CONNECTIONS, *,
                 max_waiting: int = MAX_WAITING, token_seconds: float = TOKEN_SECONDS,
                 first_seconds: float = FIRST_SECONDS,
                 request_seconds: float = REQUEST_SECONDS,
                 handler: type[ViewerHandler] | None = None, max_body: int = 0) -> None:
        self.site = site
        """What the paths show: a :class:`Site` (or another site with ``shows_token``,
        ``stopped`` and what its ``handler`` asks of it)."""
        self.handler = handler or ViewerHandler
        self.max_body = max_body
        """The longest request body taken (413 beyond); 0: GET and HEAD only."""
        self.max_connections = max_connections
        self.budgets = Budgets()
        """The places past the gate, by who asks (:meth:`asker`)."""
        self.stop_asked = False
        """Set by Ctrl-C or SIGTERM: the loop stops at its next pass."""
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.gate = Gate(self, max_waiting=max_waiting, token_seconds=token_seconds,
                         request_seconds=request_seconds, first_seconds=first_seconds)
        # (the gate is stopped by a failed bind too)
        super().__init__(address, ViewerHandler)

    def server_bind(self) -> None:
        # HTTPServer's own looks the host's name up in DNS, which can hang without a network.
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(self.server_address)
        self.server_address = self.socket.getsockname()
        self.server_name, self.server_port = str(self.server_address[0]), self.server_address[1]

    def process_request(self, request: Any, client_address: Any) -> None:
        self.gate.admit(request, client_address)

    def asker(self, raw_path: str) -> tuple[str, int] | None:
        """Whose budget a request path spends, and that budget's size; None without a
        token. A site that tells its askers apart (``site.asker``) gives each its own (a
        size None: ``max_connections``); otherwise the one token has every place."""
        tell = getattr(self.site, "asker", None)
        if tell is None:
            return ("", self.max_connections) if self.site.shows_token(raw_path) else None
        found: tuple[str, int | None] | None = tell(raw_path)
        if found is None:
            return None
        return found[0], self.max_connections if found[1] is None else found[1]

    def hand_over(self, connection: socket.socket, address: Any, head: bytes,
                  asker: str = "") -> None:
        """A request past the gate (holding a place of ``asker``'s budget): answered in
        a thread of its own."""
        connection.setblocking(True)
        thread = threading.Thread(target=self._answer, args=(connection, address, head, asker),
                                  name="serve-viewer", daemon=True)
        try:
            thread.start()
        except BaseException:
            self.close_request(connection)
            self.budgets.give_back(asker)
            raise

    def _answer(self, connection: socket.socket, address: Any, head: bytes,
                asker: str) -> None:
        try:
            self.handler(connection, address, self, head)
        except Exception:
            self.handle_error(connection, address)
        finally:
            self.shutdown_request(connection)
            self.budgets.give_back(asker)

    def service_actions(self) -> None:
        """Between accepts: stop if asked to."""
        if self.stop_asked:
            raise StopServing

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A failing connection is dropped quietly: no traceback in the scorekeeper's
        terminal (the handler already answers every error it can)."""

    def server_close(self) -> None:
        super().server_close()
        self.gate.stop()


# ---------------------------------------------------------------------------
# Listening


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, found without sending anything."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    if sys.platform == "linux":
        import fcntl
        import struct

        get_address = 0x8915  # SIOCGIFADDR
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET,
                                                         socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    answer = fcntl.ioctl(probe.fileno(), get_address,
                                         struct.pack("256s", name[:15].encode()))
                    found.append(socket.inet_ntoa(answer[20:24]))
    return list(dict.fromkeys(a for a in found if not a.startswith("127.")))


def page_url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{token}/"


def listen_problem(host: str, port: int, error: OSError) -> EntryError:
    if error.errno == errno.EADDRINUSE:
        return EntryError(_("port {port} on {host} is already in use (another `score serve`?): "
                            "pick another with --port, or --port 0 for any free one").format(
                                port=port, host=host))
    if error.errno == errno.EACCES:
        return EntryError(_("not allowed to listen on port {port}: pick one above 1023 "
                            "with --port").format(port=port))
    if error.errno == errno.EADDRNOTAVAIL or isinstance(error, socket.gaierror):
        return EntryError(_("{host} is not an address of this computer: use 127.0.0.1 "
                            "(this computer only) or 0.0.0.0 (every network)").format(
                                host=repr(host)))
    return EntryError(_("can't listen on {host} port {port}: {reason}").format(
        host=host, port=port, reason=error.strerror or error))


class StopServing(Exception):
    """Ctrl-C or SIGTERM asked the server to stop (raised between two passes of its loop)."""


@contextlib.contextmanager
def _stopped_by_signals(server: ViewerServer) -> Iterator[None]:
    """Ctrl-C and SIGTERM (a service manager, `kill`) stop the server within one pass of
    its loop. The handlers only set a flag: an exception raised by a handler is lost when
    the signal lands while a finalizer (``__del__``) runs, and the server would run on."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ask_to_stop(signum: int, frame: FrameType | None) -> None:
        server.stop_asked = True

    previous = {sig: signal.signal(sig, ask_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def serve_until_stopped(server: ViewerServer, first: Callable[[], None] | None = None) -> None:
    """Run ``first`` (the announcement) and serve until Ctrl-C or SIGTERM."""
    try:
        with _stopped_by_signals(server):
            if first is not None:
                first()
            server.serve_forever()
    except (KeyboardInterrupt, StopServing):
        pass
