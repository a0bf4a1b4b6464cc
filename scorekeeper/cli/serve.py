"""``score serve``: the scores as live, read-only pages for every phone at the table.

Built on the standard library's ``http.server.ThreadingHTTPServer``: a handful of
viewers on a local network need no framework, and it adds no dependency to install or
keep up to date. One thread per connection; this module adds what a public-facing
server needs on top:

* a random token (``secrets.token_urlsafe``) as the first part of every path: any other
  path is a bare 404 that says nothing about the store;
* GET and HEAD only (405 otherwise), one request per connection (HTTP/1.0), a request
  of at most :data:`MAX_REQUEST_BYTES` (431 beyond), at most ``max_connections`` at once,
  live streams included (503 beyond);
* strict headers on every answer: a Content-Security-Policy without inline script or
  style (the live script and the style sheet are tokened files of their own), no
  sniffing, no framing, no referrer, no caching.

The pages follow the store: a watcher polls the file's identity (inode, mtime, size)
every :data:`POLL_SECONDS`, and each open page gets the new rendering as a Server-Sent
Event. The store is only ever replaced whole (``os.replace``), so reading it needs no
lock and never blocks a ``score`` command that writes.
"""

from __future__ import annotations

import contextlib
import errno
import hmac
import io
import re
import secrets
import selectors
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer
from rich.text import Text

from scorekeeper.cli import completion, pages, qr, stats_report
from scorekeeper.cli.context import console, store
from scorekeeper.games.common import EntryError
from scorekeeper.i18n import N_, _
from scorekeeper.store import Store, StoreError, StoreView

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_CONNECTIONS = 128
"""Open connections at once, live streams included; more are answered 503."""
MAX_REQUEST_BYTES = 8 * 1024
"""Request line and headers together; a browser sends well under 2 KiB."""
SOCKET_TIMEOUT_SECONDS = 10.0
"""A client that neither sends its request nor reads its answer for this long is dropped."""
POLL_SECONDS = 0.3
"""How often the store file's identity is checked for a change."""
TICK_SECONDS = 0.25
"""How often a live stream checks for a change, a closed viewer or a stop."""
HEARTBEAT_SECONDS = 15.0
RETRY_MILLISECONDS = 1500

SECURITY_HEADERS = (
    ("Content-Security-Policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)

HTML = "text/html; charset=utf-8"
ASSETS = {
    "live.js": ("text/javascript; charset=utf-8", pages.LIVE_SCRIPT.encode("utf-8")),
    "style.css": ("text/css; charset=utf-8", pages.STYLE.encode("utf-8")),
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

    def __init__(self, path: Path, token: str, session_id: int | None = None) -> None:
        self.path = path
        self.token = token
        self.session_id = session_id
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
        with self._lock:
            cached = self._rendered.get(key)
            if cached is not None and cached[0] == version:
                return cached[1]
            if self._view is None or self._view[0] != version:
                self._rendered.clear()
                try:
                    self._view = (version, snapshot(self.path))
                except StoreError as error:
                    self._view = (version, error)
            view = self._view[1]
            if isinstance(view, StoreError):
                page = pages.damaged_page(str(view))
            else:
                try:
                    page = render(view)
                except Exception as error:  # a page that can't be drawn says so, no traceback
                    page = pages.damaged_page(
                        _("this page could not be drawn ({error})").format(error=error))
            if len(self._rendered) >= 64:
                self._rendered.clear()
            self._rendered[key] = (version, page)
            return page

    def document(self, key: str) -> bytes:
        page = self.page(key)
        return pages.document(page, base=self.base, events=f"events/{key}",
                              nav=self.nav()).encode("utf-8")

    def resolve(self, raw_path: str) -> tuple[str, str] | None:
        """(what, key) for a request path, or None for anything but a tokened page:
        what is ``page``, ``events``, ``asset`` or ``redirect``."""
        parts = urlsplit(raw_path).path.split("/", 2)
        if len(parts) < 2 or parts[0] or not hmac.compare_digest(
                parts[1].encode("latin-1", "replace"), self.token.encode("ascii")):
            return None
        if len(parts) == 2:
            return "redirect", ""
        rest = parts[2]
        if rest in ASSETS:
            return "asset", rest
        if rest.startswith("events/") and self.page_function(rest[len("events/"):]):
            return "events", rest[len("events/"):]
        if self.page_function(rest) is not None:
            return "page", rest
        return None


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
        raise RequestTooLarge  # no page takes a request body

    def close(self) -> None:
        self.stream.close()


class ViewerHandler(BaseHTTPRequestHandler):
    """One request per connection: a page, its live stream, or its script or style."""

    server: ViewerServer
    protocol_version = "HTTP/1.0"
    timeout = SOCKET_TIMEOUT_SECONDS

    def setup(self) -> None:
        super().setup()
        self.rfile = _LimitedReader(self.rfile, MAX_REQUEST_BYTES)  # type: ignore[assignment]

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

    def _answer(self) -> None:
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
        self.send_header("Content-Type", content_type)
        for name, value in extra.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()

    def _send(self, status: HTTPStatus, content_type: str, body: bytes, **extra: str) -> None:
        self._start(status, content_type, Content_Length=str(len(body)), **extra)
        if self.command != "HEAD":
            self.wfile.write(body)

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


class ViewerServer(ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` of them; more get a 503."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], site: Site,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.site = site
        self.slots = threading.BoundedSemaphore(max_connections)
        self.turned_away: list[tuple[socket.socket, float]] = []
        self.stop_asked = False
        """Set by Ctrl-C or SIGTERM: the loop stops at its next pass."""
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, ViewerHandler)

    def server_bind(self) -> None:
        # HTTPServer's own looks the host's name up in DNS, which can hang without a network.
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(self.server_address)
        self.server_address = self.socket.getsockname()
        self.server_name, self.server_port = str(self.server_address[0]), self.server_address[1]

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self._turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def _turn_away(self, connection: socket.socket) -> None:
        """Answer 503 without a thread, and close a little later: closing a socket with an
        unread request in it would reset the connection before the answer is read."""
        body = pages.error_page("503 Service Unavailable",
                                _("Too many viewers at once; try again in a moment.")).encode()
        head = ["HTTP/1.0 503 Service Unavailable", "Retry-After: 2",
                *(f"{name}: {value}" for name, value in SECURITY_HEADERS),
                f"Content-Type: {HTML}", f"Content-Length: {len(body)}"]
        with contextlib.suppress(OSError):
            connection.setblocking(False)
            connection.send(("\r\n".join(head) + "\r\n\r\n").encode() + body)
            connection.shutdown(socket.SHUT_WR)
        if len(self.turned_away) >= 64:
            self.close_request(connection)
            return
        self.turned_away.append((connection, time.monotonic() + 1.0))

    def service_actions(self) -> None:
        """Between accepts: stop if asked to; drain and close the connections turned away."""
        if self.stop_asked:
            raise StopServing
        waiting = []
        for connection, deadline in self.turned_away:
            try:
                while connection.recv(4096):
                    pass
                done = True  # the viewer closed its side
            except BlockingIOError:
                done = time.monotonic() > deadline
            except OSError:
                done = True
            if done:
                self.close_request(connection)
            else:
                waiting.append((connection, deadline))
        self.turned_away = waiting

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A failing connection is dropped quietly: no traceback in the scorekeeper's
        terminal (the handler already answers every error it can)."""

    def server_close(self) -> None:
        super().server_close()
        for connection, _deadline in self.turned_away:
            self.close_request(connection)
        self.turned_away = []


# ---------------------------------------------------------------------------
# The command


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


def _url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{token}/"


def _listen_problem(host: str, port: int, error: OSError) -> EntryError:
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


def _say(message: str) -> None:
    console.print(Text(message), soft_wrap=True)


def _announce(server: ViewerServer, host: str, session_id: int | None,
              damage: str | None) -> None:
    """The address to open (with its token), who can open it, and its QR code."""
    port, token = server.server_port, server.site.token
    everywhere = host in ("0.0.0.0", "::", "")
    if everywhere:
        urls = [_url(address, port, token) for address in lan_addresses() or ["127.0.0.1"]]
    else:
        urls = [_url(host, port, token)]
    if session_id is not None:
        _say(_("Serving session {id} and the session list, read-only and live, at:").format(
            id=session_id))
    else:
        _say(_("Serving the current session and the session list, read-only and live, at:"))
    for url in urls:
        _say(f"  {url}")
    if everywhere:
        _say(_("Listening on every network of this computer: anyone on your network with this "
               "address (the token in it included) can now see these pages."))
    elif host.startswith("127.") or host in ("localhost", "::1"):
        _say(_("Only this computer can open it; --host 0.0.0.0 lets in the phones on your "
               "network."))
    else:
        _say(_("Anyone who can reach {host} with this address can now see these pages.").format(
            host=host))
    if damage:
        _say(_("The store can't be read ({problem}); the pages say so until it is "
               "repaired.").format(problem=damage))
    console.print(Text("\n".join(qr.text_lines(urls[0])), style="black on white"),
                  no_wrap=True, overflow="ignore", crop=False)
    _say(_("Pages update within 2 seconds of every `score` change. Ctrl-C stops."))


def serve(
    ctx: typer.Context,
    session_id: Annotated[int | None, typer.Argument(
        metavar="[ID]", show_default=False, autocompletion=completion.session_ids,
        help=N_("The session to show (default: the current one, following `score use`)."))
    ] = None,
    host: Annotated[str, typer.Option(
        "--host", help=N_("The address to listen on: 127.0.0.1 is this computer only; 0.0.0.0 "
                          "lets in every phone on your network."))] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(
        "--port", min=0, max=65535, help=N_("The port (0: any free one)."))] = DEFAULT_PORT,
) -> None:
    """Live read-only pages of the scores for every phone at the table (Ctrl-C stops)."""
    path = store(ctx).path
    damage: str | None = None
    try:
        view = snapshot(path)
        if session_id is not None:
            view.get(session_id)  # refuse an ID that does not exist, before listening
    except StoreError as error:
        damage = str(error)
    token = secrets.token_urlsafe(16)
    site = Site(path, token, session_id)
    try:
        server = ViewerServer((host, port), site)
    except OSError as error:
        raise _listen_problem(host, port, error) from None
    site.watcher.start()
    try:
        serve_until_stopped(server, lambda: _announce(server, host, session_id, damage))
    finally:
        site.stopped.set()
        site.watcher.stop()
        server.server_close()
    _say(_("Stopped: the pages are offline."))


serve.__doc__ = N_("Live read-only pages of the scores for every phone at the table "
                   "(Ctrl-C stops).")
"""The command's help, marked for the catalog (a docstring is not extracted)."""
