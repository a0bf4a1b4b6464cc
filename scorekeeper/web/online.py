"""``score play --online``: every human at the table plays on their own phone.

One :class:`OnlineTable` sits between the game (``GameLife.play``, in the command's
thread) and the HTTP server (:mod:`scorekeeper.web.server`'s gate, limits, headers and
server, its threads answering the phones):

* the game's hooks (:meth:`OnlineTable.hooks`) keep, after every step, each seat's
  *observation* (the engine's ``View`` for that seat, an immutable snapshot) and the
  public words of what happened. A human's turn (``choose_human``) waits on that seat's
  queue, holding no lock (the store's lock is only ever taken by ``GameLife.save``);
* every answer to a seat is built from that seat's observation only (the game's
  ``online`` module turns a ``View`` into the JSON the page draws, see
  :mod:`scorekeeper.views.seat`): no answer can carry a card the seat may not see. The
  public page is built from an observation without its hand;
* each seat has a token of its own (a seat's token opens that seat only), the public
  table another. A move is POSTed to the seat's path with the page's own token (in a
  header no other site can send without our consent, which is never given) and the
  version of the state the page shows: a move from a stale page is refused, and of two
  tabs of one seat only the first move counts;
* a page that reloads or reconnects (a phone that slept) gets the same seat and state;
  the game waits for a human whose page is closed, and the terminal says who.

Every byte sent goes through :attr:`OnlineSite.record` when set (the hidden-information
test records every answer to every seat there).

It stays on the standard library's ``http.server``, as ``score serve`` does: the gate,
the limits and the headers it needs are ``serve``'s, already proven against slow and
idle connections (``tests/test_serve_guard.py``); a table's four seats and fifty
viewers get a move within 30 ms at the 95th percentile on loopback
(``benchmarks/online_latency.py``), far inside the 250 ms goal, so a framework (and
its dependencies to keep up to date) would buy nothing the table would notice.
"""

from __future__ import annotations

import collections
import hmac
import json
import queue
import secrets
import selectors
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from types import ModuleType
from typing import Any, BinaryIO, Protocol
from urllib.parse import urlsplit

from scorekeeper import i18n, match, playing, ranking
from scorekeeper.config import LANGUAGES
from scorekeeper.i18n import _
from scorekeeper.session import Session
from scorekeeper.views import app_icon, pages, seat
from scorekeeper.web.server import (
    HEARTBEAT_SECONDS,
    HTML,
    RETRY_MILLISECONDS,
    SEAT_PLACES,
    SPECTATOR_PLACES,
    TICK_SECONDS,
    ViewerHandler,
    ViewerServer,
)

MAX_MOVE_BYTES = 2 * 1024
"""A move's body: a button's number and at most five cards."""
PAGES_PER_SEAT = 16
"""The page tokens a seat keeps (one per page load); an older page must reload."""
ANSWER_SECONDS = 10.0
"""How long a move's POST waits for the game to take or refuse it."""
ASSETS = {
    "seat.js": "text/javascript; charset=utf-8",
    "seat.css": "text/css; charset=utf-8",
    **app_icon.ICONS,
}


class GameStopped(Exception):
    """The table was closed while a human was being waited for."""


@dataclass
class SeatDesk:
    """One human seat: its token, the move it is asked for, its open pages."""

    name: str
    token: str
    moves: queue.Queue[tuple[int, Any]] = field(default_factory=queue.Queue)
    asked: int | None = None
    """The version of the state in which this seat is asked to move (None: not asked)."""
    taken: int | None = None
    """The version whose move the game has been handed and not yet taken or refused."""
    problem: str | None = None
    """Why its last move was refused (shown until it moves)."""
    outcomes: dict[int, str | None] = field(default_factory=dict)
    """Each move taken (by the version it was asked in): None accepted, else why not."""
    pages: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=PAGES_PER_SEAT))
    streams: int = 0
    """Its live streams open now."""


class SeatView(Protocol):
    """What the table reads of a seat's observation (any game's engine View): the
    rest only the game's virtual adapter reads."""

    @property
    def current_player(self) -> str | None: ...

    @property
    def dealer(self) -> str: ...


@dataclass(frozen=True)
class Snapshot:
    """The table after one step: every seat's observation and the public record."""

    version: int
    deal: int
    step: int
    views: dict[str, SeatView]
    """Each seated player's observation (the engine's View for them)."""
    log: tuple[dict[str, tuple[str, ...]], ...]
    """This deal's public events, each in every language."""
    end: dict[str, tuple[str, ...]] | None
    """The deal's end as the rules reveal it, in every language (None: not over)."""
    previous: tuple[int, dict[str, tuple[str, ...]]] | None
    """The last finished deal's number and its end, in every language."""
    totals: tuple[tuple[str, int, bool], ...]
    """(player, total, knocked out) of the game before this deal."""
    over: bool = False


def in_every_language(say: Callable[[], Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """Public words, said once in each language the pages speak."""
    said = {}
    for language in LANGUAGES:
        with i18n.speaking(language):
            said[language] = tuple(say())
    return said


class OnlineTable:
    """The game's side and the phones' side of one ``score play --online``."""

    def __init__(self, session: Session, humans: Sequence[str], game: ModuleType, *,
                 report: Callable[[str], None] | None = None) -> None:
        self.game = game
        """The game's ``online`` module (seat_state, public_state, action_of, ...)."""
        self.session = session
        self.seed = session.virtual.seed if session.virtual else 0
        self.report = report or (lambda line: None)
        self.viewer_token = secrets.token_urlsafe(16)
        self.seats = {name: SeatDesk(name, secrets.token_urlsafe(16)) for name in humans}
        self.condition = threading.Condition()
        self.stopped = threading.Event()
        self.hand_seen = False
        self._log: list[dict[str, tuple[str, ...]]] = []
        self._end: dict[str, tuple[str, ...]] | None = None
        self._previous: tuple[int, dict[str, tuple[str, ...]]] | None = None
        self._deal_number = len(session.rounds)
        self._step = 0
        self.snapshot = Snapshot(0, self._deal_number, 0, {}, (), None, None,
                                 self._totals(session), over=session.finished)
        self._states: dict[tuple[str, str, int], bytes] = {}

    # -- the game's side (the command's thread) --------------------------------------

    def hooks(self) -> playing.PlayHooks:
        return playing.PlayHooks(choose_human=self.choose, on_action=self.on_action,
                                 on_start=self.on_start, on_saved=self.on_saved)

    @staticmethod
    def _totals(session: Session) -> tuple[tuple[str, int, bool], ...]:
        standings = session.standings
        return tuple((name, standings.totals[name], name in standings.knocked_out)
                     for name in session.players)

    def _publish(self, deal: Any | None, *, over: bool = False) -> None:
        """A new snapshot of the table (every seat's observation now) for the pages."""
        views = ({} if deal is None else
                 {name: deal.view(name) for name in deal.players})
        with self.condition:
            if deal is None:
                views = self.snapshot.views
            self.snapshot = Snapshot(self.snapshot.version + 1, self._deal_number, self._step,
                                     views, tuple(self._log), self._end, self._previous,
                                     self._totals(self.session), over=over)
            self._states.clear()
            self.condition.notify_all()

    def on_start(self, deal: Any) -> None:
        self._deal_number = len(self.session.rounds) + 1
        self._step = 0
        self._log = []
        self._end = None
        number, dealer = self._deal_number, deal.dealer
        self.report(_("Deal {number} — {dealer} deals").format(number=number, dealer=dealer))
        self._publish(deal)

    def on_action(self, player: str, action: Any, deal: Any) -> None:
        self._step = len(deal.to_record()[1])
        said = in_every_language(lambda: self.game.describe_action(player, action, deal))
        self._log.append(said)
        for line in self._here(said):
            self.report(line)
        if deal.is_over:
            self._end = in_every_language(lambda: self.game.describe_end(deal))
            for line in self._here(self._end):
                self.report(line)
        desk = self.seats.get(player)
        if desk is not None:
            with self.condition:
                if desk.taken is not None:
                    desk.outcomes[desk.taken] = None
                desk.taken, desk.problem = None, None
        self._publish(deal)

    def on_saved(self, session: Session) -> None:
        self.session = session
        if self._end is not None:
            self._previous = (self._deal_number, self._end)
        self._publish(None, over=session.finished)

    @staticmethod
    def _here(said: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        return said.get(i18n.active_language(), said[i18n.ENGLISH])

    def choose(self, player: str, view: Any, problem: str | None) -> Any:
        """A human's move: wait (holding no lock) for their page to post one."""
        desk = self.seats[player]
        self.hand_seen = True
        with self.condition:
            if desk.taken is not None and problem is not None:
                desk.outcomes[desk.taken] = problem
            desk.taken = None
            desk.problem = problem
            desk.asked = self.snapshot.version + 1
            open_pages = desk.streams
        self._publish(None)
        if open_pages:
            self.report(_("Waiting for {player}…").format(player=player))
        else:
            self.report(_("Waiting for {player}, whose page is not open.").format(
                player=player))
        while True:
            try:
                asked, action = desk.moves.get(timeout=TICK_SECONDS)
            except queue.Empty:
                if self.stopped.is_set():
                    raise GameStopped from None
                continue
            with self.condition:
                current = asked == desk.taken
            if current:
                return action

    def close(self) -> None:
        self.stopped.set()
        with self.condition:
            self.condition.notify_all()

    # -- the phones' side (the server's threads) ----------------------------------------

    def seat_of(self, token: str) -> SeatDesk | None:
        for desk in self.seats.values():
            if hmac.compare_digest(desk.token.encode(), token.encode("utf-8", "replace")):
                return desk
        return None

    def state(self, who: str | None, language: str) -> bytes:
        """The state a page shows now (``who``: a seat, None for the public table), as the
        JSON of one live update (built once per version, seat and language)."""
        snapshot = self.snapshot
        key = (who or "", language, snapshot.version)
        cached = self._states.get(key)
        if cached is not None:
            return cached
        with i18n.speaking(language):
            data = json.dumps(self._state(snapshot, who, language), ensure_ascii=False,
                              separators=(",", ":")).encode("utf-8")
        with self.condition:
            if self.snapshot.version == snapshot.version:
                self._states[key] = data
        return data

    def _state(self, snapshot: Snapshot, who: str | None, language: str) -> seat.JSONObject:
        desk = self.seats.get(who or "")
        view = snapshot.views.get(who or "")
        if who is None or view is None:
            any_view = next(iter(snapshot.views.values()), None)
            shown = (self.game.public_state(any_view) if any_view is not None else
                     {"table": [], "hand": None, "moves": None, "help": ""})
        else:
            shown = self.game.seat_state(view)
        asked = desk is not None and desk.asked == snapshot.version
        if not asked:
            shown["moves"] = None
        turn = next((v.current_player for v in snapshot.views.values()), None)
        if snapshot.over:
            status = _("The game is over.")
        elif asked:
            status = _("Your turn")
        elif turn is not None:
            status = _("Waiting for {player}…").format(player=turn)
        else:
            status = ""
        previous = None
        if snapshot.previous is not None and snapshot.previous[0] != snapshot.deal:
            number, said = snapshot.previous
            previous = {"number": number, "lines": list(said.get(language, ()))}
        title = _("Deal {number} — {dealer} deals").format(
            number=snapshot.deal, dealer=next((v.dealer for v in snapshot.views.values()),
                                              "")) if snapshot.views else ""
        return {
            "v": snapshot.version, "deal": snapshot.deal, "step": snapshot.step,
            "seat": who, "title": title, "status": status, "over": snapshot.over,
            "problem": (desk.problem if asked and desk is not None else None),
            "totals": [{"name": name, "total": total, "out": out}
                       for name, total, out in snapshot.totals],
            "totals_title": self._totals_title(),
            "log": [line for said in snapshot.log for line in said.get(language, ())],
            "end": None if snapshot.end is None else list(snapshot.end.get(language, ())),
            "previous": previous,
            **shown,
        }

    def _totals_title(self) -> str:
        """The totals' heading with the game's end in it: the knock-out limit (lowest
        wins) or the target, as the terminal's totals line says it."""
        target = self.session.rules.target(self.session.options)
        if not target:
            return _("Totals")
        return (_("Totals, limit {target}") if ranking.counts_to_limit(self.session)
                else _("Totals, to {target}")).format(target=target)

    def take_move(self, desk: SeatDesk, version: object, move: object,
                  language: str) -> tuple[HTTPStatus, seat.JSONObject]:
        """A move posted by ``desk``'s page showing ``version``: refused at once when
        stale, doubled or not a move; else handed to the game, whose engine takes it or
        says why not."""
        with i18n.speaking(language), self.condition:
            snapshot = self.snapshot
            where = {"deal": snapshot.deal, "step": snapshot.step}
            if desk.asked is None or desk.asked != snapshot.version:
                return HTTPStatus.CONFLICT, {"ok": False, **where, "problem": _(
                    "It is not your turn.")}
            if version != desk.asked:
                return HTTPStatus.CONFLICT, {"ok": False, **where, "problem": _(
                    "The game moved on: this is the table as it is now.")}
            view = snapshot.views[desk.name]
            if not isinstance(move, dict):
                move = {}
            try:
                action = self.game.action_of(move, view)
            except ValueError as refused:
                return HTTPStatus.UNPROCESSABLE_ENTITY, {"ok": False, **where,
                                                         "problem": str(refused)}
            asked = desk.asked
            desk.asked = None  # a second tab's move is refused from now on
            desk.taken = asked
            desk.moves.put((asked, action))
            deadline = time.monotonic() + ANSWER_SECONDS
            while asked not in desk.outcomes and not self.stopped.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.condition.wait(min(left, TICK_SECONDS))
            problem = desk.outcomes.pop(asked, None)
            snapshot = self.snapshot
            where = {"deal": snapshot.deal, "step": snapshot.step}
        if problem is not None:
            with i18n.speaking(language):
                return HTTPStatus.UNPROCESSABLE_ENTITY, {"ok": False, **where,
                                                         "problem": problem}
        return HTTPStatus.OK, {"ok": True, **where}

    def hint(self, desk: SeatDesk, language: str) -> tuple[HTTPStatus, seat.JSONObject]:
        """The strong bot's move in the seat's place (only while it is asked)."""
        snapshot = self.snapshot
        where = {"deal": snapshot.deal, "step": snapshot.step}
        if desk.asked != snapshot.version:
            with i18n.speaking(language):
                return HTTPStatus.CONFLICT, {"ok": False, **where,
                                             "problem": _("It is not your turn.")}
        view = snapshot.views[desk.name]
        rng = match.derive_rng(self.seed, "hints", match.position_key(view))
        with i18n.speaking(language):
            return HTTPStatus.OK, {"ok": True, **where, "hint": self.game.hint(view, rng)}

    def opened(self, desk: SeatDesk | None) -> None:
        if desk is not None:
            with self.condition:
                desk.streams += 1

    def closed(self, desk: SeatDesk | None) -> None:
        if desk is None:
            return
        with self.condition:
            desk.streams -= 1
            waited = desk.streams == 0 and desk.asked is not None
        if waited and not self.stopped.is_set():
            self.report(_("{player}'s page was closed or lost its connection; waiting for "
                          "{player} to open it again.").format(player=desk.name))

    def changes(self, seen: int, timeout: float) -> int:
        """The version once it is past ``seen`` (or after ``timeout``)."""
        with self.condition:
            if self.snapshot.version == seen and not self.stopped.is_set():
                self.condition.wait(timeout)
            return self.snapshot.version


# ---------------------------------------------------------------------------
# HTTP


class OnlineSite:
    """The paths of ``score play --online``: ``/SEAT-TOKEN/`` a seat's page (its live
    stream ``events``, its ``move`` and ``hint``), ``/VIEWER-TOKEN/`` the public table."""

    def __init__(self, table: OnlineTable, *, language: str = i18n.ENGLISH) -> None:
        self.table = table
        self.language = language
        self.stopped = table.stopped
        self.record: Callable[[int, str, bytes], None] | None = None
        """Sees every byte sent, with the connection's number and whose page it is."""
        self._connections = iter(range(1, 1 << 62))
        self._lock = threading.Lock()
        self.spectator_places = SPECTATOR_PLACES
        """The places all who watch the public table share (each seat has its own)."""

    def tokens(self) -> Iterator[str]:
        yield self.table.viewer_token
        for desk in self.table.seats.values():
            yield desk.token

    def shows_token(self, raw_path: str) -> bool:
        return self.asker(raw_path) is not None

    def asker(self, raw_path: str) -> tuple[str, int] | None:
        """Whose places a request spends (``ViewerServer.asker``): the public table's
        shared budget (``spectator_places``), or a seat's own; None without a token.
        Every token is compared, each in constant time."""
        parts = urlsplit(raw_path).path.split("/", 2)
        if len(parts) < 2 or parts[0]:
            return None
        given = parts[1].encode("latin-1", "replace")
        found: tuple[str, int] | None = None
        if hmac.compare_digest(given, self.table.viewer_token.encode("ascii")):
            found = ("public", self.spectator_places)
        for desk in list(self.table.seats.values()):
            if hmac.compare_digest(given, desk.token.encode("ascii")):
                found = (f"seat:{desk.name}", SEAT_PLACES)
        return found

    def connection_number(self) -> int:
        with self._lock:
            return next(self._connections)


class _Recorder:
    """The answer's stream, every byte also shown to the site's recorder."""

    def __init__(self, stream: BinaryIO, handler: OnlineHandler) -> None:
        self.stream = stream
        self.handler = handler

    def write(self, data: bytes) -> int:
        record = self.handler.server.site.record
        if record is not None:
            record(self.handler.number, self.handler.who, bytes(data))
        return self.stream.write(data)

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


class OnlineHandler(ViewerHandler):
    """One request to a seat's or the public table's path."""

    who = "?"
    """Whose path the request came on (``seat:NAME``, ``public``)."""

    def setup(self) -> None:
        super().setup()
        self.number = self.server.site.connection_number()
        self.wfile = _Recorder(self.wfile, self)  # type: ignore[assignment,arg-type]

    def _answer(self) -> None:
        site: OnlineSite = self.server.site
        table = site.table
        parts = urlsplit(self.path)
        pieces = parts.path.split("/", 2)
        token = pieces[1] if len(pieces) > 1 else ""
        rest = pieces[2] if len(pieces) > 2 else None
        desk = table.seat_of(token)
        self.who = "public" if desk is None else f"seat:{desk.name}"
        language = self._language(parts.query, site.language)
        if rest is None:
            self._send(HTTPStatus.MOVED_PERMANENTLY, HTML, b"", Location=f"/{token}/")
            return
        if rest in ASSETS and self.command in ("GET", "HEAD"):
            self._send(HTTPStatus.OK, ASSETS[rest], seat.static_file(rest))
            return
        if rest == app_icon.MANIFEST and self.command in ("GET", "HEAD"):
            with i18n.speaking(language):  # the home screen's name: the page's title
                name = (_("{player}'s seat").format(player=desk.name) if desk is not None
                        else _("The table"))
                self._send(HTTPStatus.OK, app_icon.MANIFEST_TYPE, app_icon.manifest(name))
            return
        if desk is not None and rest in ("move", "hint") and self.command == "POST":
            self._post(desk, rest, language)
            return
        if rest in ("", "events") and self.command in ("GET", "HEAD"):
            if rest == "":
                self._page(desk, token, language, parts.query)
            else:
                self._live(desk, language)
            return
        if rest in ("", "events", "move", "hint", *ASSETS):
            allowed = "POST" if rest in ("move", "hint") else "GET, HEAD"
            self._send(HTTPStatus.METHOD_NOT_ALLOWED, HTML, pages.error_page(
                "405 Method Not Allowed", _("There is nothing here.")).encode(),
                Allow=allowed)
            return
        self._send(HTTPStatus.NOT_FOUND, HTML,
                   pages.error_page("404 Not Found", _("There is nothing here.")).encode())

    def _page(self, desk: SeatDesk | None, token: str, language: str, query: str) -> None:
        table = self.server.site.table
        page_token = secrets.token_urlsafe(16)
        if desk is not None:
            with table.condition:
                desk.pages.append(page_token)
        suffix = f"?lang={language}"
        with i18n.speaking(language):
            title = (_("{player}'s seat").format(player=desk.name) if desk is not None
                     else _("The table"))
            body = seat.seat_document(
                title=pages.plain(title), base=f"/{token}/", events=f"events{suffix}",
                move=None if desk is None else f"move{suffix}", page_token=page_token,
                words=seat.seat_words())
        self._send(HTTPStatus.OK, HTML, body.encode("utf-8"))

    def _post(self, desk: SeatDesk, what: str, language: str) -> None:
        table = self.server.site.table
        posted = self._posted_object(desk.pages, empty={})
        if posted is None:
            return
        if what == "hint":
            status, answer = table.hint(desk, language)
        else:
            status, answer = table.take_move(desk, posted.get("v"), posted.get("move"),
                                             language)
        self._json(status, answer)

    def _live(self, desk: SeatDesk | None, language: str) -> None:
        """Server-Sent Events: the page's state now and after every change."""
        self._start(HTTPStatus.OK, "text/event-stream; charset=utf-8")
        if self.command == "HEAD":
            return
        site: OnlineSite = self.server.site
        table = site.table
        who = None if desk is None else desk.name
        self.wfile.write(f"retry: {RETRY_MILLISECONDS}\n\n".encode())
        table.opened(desk)
        try:
            seen, quiet_since = -1, time.monotonic()
            with selectors.DefaultSelector() as selector:
                selector.register(self.connection, selectors.EVENT_READ)
                while not site.stopped.is_set():
                    version = table.snapshot.version
                    if version != seen:
                        seen = version
                        self.wfile.write(b"data: " + table.state(who, language) + b"\n\n")
                        quiet_since = time.monotonic()
                    elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                        self.wfile.write(b": still here\n\n")
                        quiet_since = time.monotonic()
                    if selector.select(0):
                        return  # the page went away
                    table.changes(seen, TICK_SECONDS)
        finally:
            table.closed(desk)


def seat_url(base: str, token: str) -> str:
    """A seat's (or the public table's) address on a server at ``base`` (``http://h:p``)."""
    return f"{base}/{token}/"


def online_server(address: tuple[str, int], table: OnlineTable, *,
                  language: str = i18n.ENGLISH, spectator_places: int = SPECTATOR_PLACES
                  ) -> ViewerServer:
    """The server of ``table``'s pages (refused with OSError when it can't listen): the
    public table's watchers share ``spectator_places``; each seat has places of its own
    (:data:`~scorekeeper.web.server.SEAT_PLACES`), whatever the watchers do."""
    site = OnlineSite(table, language=language)
    site.spectator_places = spectator_places
    return ViewerServer(address, site, spectator_places, handler=OnlineHandler,
                        max_body=MAX_MOVE_BYTES)
