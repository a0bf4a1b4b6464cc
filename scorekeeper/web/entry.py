"""``score serve --entry``: each player of a table session enters their own result for
the deal on their own phone.

:class:`EntrySite` is ``score serve``'s :class:`~scorekeeper.web.server.Site` (its
read-only pages, under its token) plus one private path per player, ``/PLAYER-TOKEN/``:
the player's entry page, its live stream (``events``) and where the entry is POSTed
(``entry``). Everything else is ``serve``'s: the gate, the limits on connections and
request sizes, the strict headers (no inline script), loopback by default.

* A player's token opens that player's page only; the state sent to it is built from
  the recorded session and that player's own pending entry (:mod:`scorekeeper.views.
  entry`), so no answer to a player carries another player's entry before the deal is
  recorded (``tests/test_entry_pages.py`` records every byte sent to each page);
* an entry is POSTed as JSON with the page's own token in a header (another site can't
  send one without our consent, which is never given), from a page showing the session
  at a revision: a page from before the deal was recorded is refused (409);
* the entry is checked with the game's own round checks, then kept beside the store by
  :mod:`scorekeeper.pending` (a compare-and-set under the store's lock, held for a file
  read and write, never for a person); ``score add-round`` takes the entries from there.

A watcher follows the store and the entries file; the terminal is told who is in as
entries arrive, and when the deal is recorded.
"""

from __future__ import annotations

import collections
import hmac
import json
import secrets
import selectors
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scorekeeper import i18n, pending
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, EntryValue
from scorekeeper.session import Session
from scorekeeper.store import StoreError
from scorekeeper.views import app_icon, pages, seat
from scorekeeper.views import entry as entry_view
from scorekeeper.web.server import (
    HEARTBEAT_SECONDS,
    HTML,
    POLL_SECONDS,
    RETRY_MILLISECONDS,
    SEAT_PLACES,
    TICK_SECONDS,
    Site,
    StoreWatcher,
    ViewerHandler,
    ViewerServer,
    snapshot,
)

MAX_ENTRY_BYTES = 2 * 1024
"""An entry's body: a hand of five cards and a box ticked take under 100 bytes."""
PAGES_PER_PLAYER = 16
"""The page tokens a player keeps (one per page load); an older page must reload."""
ASSETS = {
    "entry.js": "text/javascript; charset=utf-8",
    "seat.css": "text/css; charset=utf-8",
    **app_icon.ICONS,
}


@dataclass
class PlayerDesk:
    """One player's private path: its token and its open pages' tokens."""

    name: str
    token: str
    pages: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=PAGES_PER_PLAYER))


class FilesWatcher(StoreWatcher):
    """Counts the changes of the store and of its entries file."""

    def __init__(self, path: Path, interval: float = POLL_SECONDS) -> None:
        self.entries = pending.entries_path(path)
        super().__init__(path, interval)

    def _stat(self) -> Any:
        stamps: list[tuple[int, int, int] | None] = []
        for path in (self.path, self.entries):
            try:
                info = path.stat()
            except OSError:
                stamps.append(None)
                continue
            stamps.append((info.st_ino, info.st_mtime_ns, info.st_size))
        return tuple(stamps)


class EntrySite(Site):
    """``serve``'s pages under ``token``, and each player's entry under their own."""

    def __init__(self, path: Path, token: str, session: Session, *,
                 language: str = i18n.ENGLISH,
                 report: Callable[[str], None] | None = None,
                 reported: str | None = None,
                 joined: Callable[[PlayerDesk], None] | None = None) -> None:
        super().__init__(path, token, session.id, report=report, reported=reported)
        self.joined = joined or (lambda desk: None)
        """Told of a player who joined the session after the links were given (their new
        link is announced there)."""
        assert session.id is not None
        self.entry_session: int = session.id
        self.language = language
        """The pages' language when a link does not ask for one (``?lang=``)."""
        self.terminal = i18n.active_language()
        """The language of the keeper's terminal (the run's)."""
        self.watcher = FilesWatcher(path)
        self.desks = {name: PlayerDesk(name, secrets.token_urlsafe(16))
                      for name in session.players}
        self.record: Callable[[str, bytes], None] | None = None
        """Sees every byte sent on a player's path, with whose path it is (tests)."""
        self._told: tuple[int, dict[str, dict[str, EntryValue]]] | None = None
        self._telling = threading.Lock()
        self._monitor = threading.Thread(target=self._follow, name="entry-monitor",
                                         daemon=True)

    # -- tokens

    def shows_token(self, raw_path: str) -> bool:
        return super().shows_token(raw_path) or self.desk_of(raw_path) is not None

    def asker(self, raw_path: str) -> tuple[str, int | None] | None:
        """Whose places a request spends (``ViewerServer.asker``): each player's token
        its own few, so the shared pages' viewers (the server's places, None) never take
        a player's page."""
        desk = self.desk_of(raw_path)
        if desk is not None:
            return (f"player:{desk.name}", SEAT_PLACES)
        return ("", None) if super().shows_token(raw_path) else None

    def desk_of(self, raw_path: str) -> PlayerDesk | None:
        parts = urlsplit(raw_path).path.split("/", 2)
        if len(parts) < 2 or parts[0]:
            return None
        given = parts[1].encode("latin-1", "replace")
        found = None
        for desk in list(self.desks.values()):  # every token, in constant time each
            if hmac.compare_digest(given, desk.token.encode("ascii")):
                found = desk
        return found

    # -- the session and its entries

    def current(self) -> tuple[Session, pending.DealEntries]:
        """The session as stored now, and its current entries (read without the lock:
        both files are only ever replaced whole)."""
        session = snapshot(self.path).get(self.entry_session)
        return session, pending.read(self.path, session)

    def state(self, desk: PlayerDesk, language: str) -> bytes:
        session, entries = self.current()
        with i18n.speaking(language):
            data = entry_view.entry_state(session, desk.name, entries.of(desk.name),
                                          entries.players,
                                          entry_view.entry_conflicts(session, entries.entries))
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def take(self, desk: PlayerDesk, version: object, posted: object,
             language: str) -> tuple[HTTPStatus, seat.JSONObject]:
        """A player's entry posted from a page showing the session at ``version``."""
        with i18n.speaking(language):
            try:
                return self._take(desk, version, posted)
            except pending.StaleEntry:
                return HTTPStatus.CONFLICT, {"ok": False, "problem": _(
                    "The deal was recorded meanwhile: this is the next deal.")}
            except EntryError as refused:
                return HTTPStatus.UNPROCESSABLE_ENTITY, {"ok": False,
                                                         "problem": str(refused)}
            except StoreError as error:
                self.report(pages.plain(error))
                return HTTPStatus.SERVICE_UNAVAILABLE, {"ok": False, "problem": _(
                    "Your entry could not be saved; the keeper's terminal says why.")}

    def _take(self, desk: PlayerDesk, version: object,
              posted: object) -> tuple[HTTPStatus, seat.JSONObject]:
        session, _entries = self.current()
        standings = session.standings
        if standings.finished or session.abandoned:
            return HTTPStatus.CONFLICT, {"ok": False, "problem": _("The game is over.")}
        if desk.name not in standings.still_in:
            return HTTPStatus.CONFLICT, {"ok": False, "problem": _(
                "You are out of the game: there is nothing to enter.")}
        if version != session.revision:
            raise pending.StaleEntry(str(version))
        form = session.declaration.entry_form
        if form is None or not isinstance(posted, dict):
            return HTTPStatus.BAD_REQUEST, {"ok": False, "problem": "bad request"}
        fields = form.read(desk.name, posted)
        if fields:
            entry = form.player_entry(desk.name, fields)
            questions = session.declaration.questions
            if questions is not None:
                questions.check_given(session.seated, session.options, standings, entry)
        entries = pending.put(self.path, self.entry_session, session.revision, desk.name,
                              fields)
        self.tell(session, entries)  # at once: the watcher may not see every write
        return HTTPStatus.OK, {"ok": True, "mine": fields or None}

    # -- the terminal: who is in

    def start(self) -> None:
        self.watcher.start()
        self._monitor.start()

    def _follow(self) -> None:
        seen = -1
        while not self.stopped.is_set():
            version = self.watcher.version
            if version != seen:
                seen = version
                try:
                    session, entries = self.current()
                except StoreError:
                    pass  # the viewer's pages say so, and the terminal once (Site.page)
                else:
                    self.tell(session, entries)
            self.stopped.wait(TICK_SECONDS)

    def tell(self, session: Session, entries: pending.DealEntries) -> None:
        """Tell the terminal what changed (once, whichever thread sees it first)."""
        with self._telling:
            if self._told is not None and session.revision < self._told[0]:
                return  # an older read than the one told already
            with i18n.speaking(self.terminal):  # not the posting page's language
                lines = list(self._news(session, entries))
            new = [PlayerDesk(name, secrets.token_urlsafe(16))
                   for name in session.players if name not in self.desks]
            if new:  # a player who joined: a link of their own (the dict is replaced whole)
                self.desks = {**self.desks, **{desk.name: desk for desk in new}}
        for desk in new:
            self.joined(desk)
        for line in lines:
            self.report(line)

    def _news(self, session: Session, entries: pending.DealEntries) -> Iterator[str]:
        """What changed since the terminal was last told: the deal recorded, a player's
        entry in, changed or taken back, everyone in."""
        now = (session.revision, entries.entries)
        before, self._told = self._told, now
        standings = session.standings
        expected = standings.still_in
        if before is not None and before[0] != session.revision:
            if standings.finished:
                yield _("The game is over: no more entries.")
            else:
                yield _("Deal {number}: the players' entries are open.").format(
                    number=len(session.rounds) + 1)
            before = None
        if before is None and not entries.entries:
            return
        old = {} if before is None else before[1]
        for name in expected:
            if name in entries.entries and name not in old:
                yield _("{player} is in.").format(player=pages.plain(name))
            elif name in entries.entries and entries.entries[name] != old.get(name):
                yield _("{player} changed their entry.").format(player=pages.plain(name))
            elif name in old and name not in entries.entries:
                yield _("{player} took their entry back.").format(player=pages.plain(name))
        waiting = [pages.plain(name) for name in expected if name not in entries.entries]
        if waiting and old.keys() == entries.entries.keys():
            return
        if waiting:
            yield _("In: {count} of {total}; waiting for {players}.").format(
                count=len(expected) - len(waiting), total=len(expected),
                players=", ".join(waiting))
        elif old.keys() != entries.entries.keys() or before is None:
            yield _("Everyone is in: `score add-round` (with no NAME=VALUE) records the "
                    "deal.")


# ---------------------------------------------------------------------------
# HTTP


class _Recorder:
    """The answer's stream, every byte also shown to the site's recorder."""

    def __init__(self, stream: Any, record: Callable[[bytes], None]) -> None:
        self.stream = stream
        self.record = record

    def write(self, data: bytes) -> int:
        self.record(bytes(data))
        return int(self.stream.write(data))

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


class EntryHandler(ViewerHandler):
    """A request on a player's path (else ``serve``'s own pages)."""

    def _answer(self) -> None:
        site: EntrySite = self.server.site
        desk = site.desk_of(self.path)
        if desk is None:
            super()._answer()
            return
        if site.record is not None:
            record, name = site.record, desk.name
            self.wfile = _Recorder(self.wfile,  # type: ignore[assignment]
                                   lambda data: record(name, data))
        parts = urlsplit(self.path)
        rest = parts.path.split("/", 2)[2] if parts.path.count("/") >= 2 else None
        language = self._language(parts.query, site.language)
        if rest is None:
            self._send(HTTPStatus.MOVED_PERMANENTLY, HTML, b"", Location=f"/{desk.token}/")
        elif rest in ASSETS and self.command in ("GET", "HEAD"):
            self._send(HTTPStatus.OK, ASSETS[rest], seat.static_file(rest))
        elif rest == app_icon.MANIFEST and self.command in ("GET", "HEAD"):
            with i18n.speaking(language):  # the home screen's name: the page's title
                name = pages.plain(_("{player}'s entry").format(player=desk.name))
                self._send(HTTPStatus.OK, app_icon.MANIFEST_TYPE, app_icon.manifest(name))
        elif rest == "entry" and self.command == "POST":
            self._post(desk, language)
        elif rest == "" and self.command in ("GET", "HEAD"):
            self._page(desk, language)
        elif rest == "events" and self.command in ("GET", "HEAD"):
            self._live(desk, language)
        elif rest in ("", "events", "entry", *ASSETS):
            self._send(HTTPStatus.METHOD_NOT_ALLOWED, HTML, pages.error_page(
                "405 Method Not Allowed", _("There is nothing here.")).encode(),
                Allow="POST" if rest == "entry" else "GET, HEAD")
        else:
            self._send(HTTPStatus.NOT_FOUND, HTML,
                       pages.error_page("404 Not Found", _("There is nothing here.")).encode())

    def _page(self, desk: PlayerDesk, language: str) -> None:
        page_token = secrets.token_urlsafe(16)
        desk.pages.append(page_token)
        suffix = f"?lang={language}"
        with i18n.speaking(language):
            title = pages.plain(_("{player}'s entry").format(player=desk.name))
            body = entry_view.entry_document(
                title=title, base=f"/{desk.token}/", events=f"events{suffix}",
                post=f"entry{suffix}", page_token=page_token,
                words=entry_view.entry_words())
        self._send(HTTPStatus.OK, HTML, body.encode("utf-8"))

    def _post(self, desk: PlayerDesk, language: str) -> None:
        site: EntrySite = self.server.site
        posted = self._posted_object(desk.pages, empty=None)
        if posted is None:
            return
        status, answer = site.take(desk, posted.get("v"), posted.get("fields"), language)
        self._json(status, answer)

    def _live(self, desk: PlayerDesk, language: str) -> None:
        """Server-Sent Events: the player's state now and after every change."""
        self._start(HTTPStatus.OK, "text/event-stream; charset=utf-8")
        if self.command == "HEAD":
            return
        site: EntrySite = self.server.site
        self.wfile.write(f"retry: {RETRY_MILLISECONDS}\n\n".encode())
        seen, sent, quiet_since = -1, b"", time.monotonic()
        with selectors.DefaultSelector() as selector:
            selector.register(self.connection, selectors.EVENT_READ)
            while not site.stopped.is_set():
                version = site.watcher.version
                if version != seen:
                    seen = version
                    try:
                        data = site.state(desk, language)
                    except (StoreError, EntryError):
                        data = sent  # the terminal says why; the page keeps what it shows
                    if data != sent:
                        self.wfile.write(b"data: " + data + b"\n\n")
                        sent, quiet_since = data, time.monotonic()
                elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                    self.wfile.write(b": still here\n\n")
                    quiet_since = time.monotonic()
                if selector.select(TICK_SECONDS):
                    return  # the page went away


def entry_server(address: tuple[str, int], site: EntrySite, *,
                 max_connections: int = 128) -> ViewerServer:
    """The server of ``site``'s pages (refused with OSError when it can't listen)."""
    return ViewerServer(address, site, max_connections, handler=EntryHandler,
                        max_body=MAX_ENTRY_BYTES)


def player_url(base: str, desk: PlayerDesk) -> str:
    """A player's private address on a server at ``base`` (``http://h:p``)."""
    return f"{base}/{desk.token}/"
