"""``score serve``: the command that starts the live pages (:mod:`scorekeeper.web.server`)
and says where to open them."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from scorekeeper import i18n
from scorekeeper.card_printing import plain
from scorekeeper.cli import completion
from scorekeeper.cli.context import console, store
from scorekeeper.i18n import N_, _
from scorekeeper.kit.entries import EntryError
from scorekeeper.session import Session
from scorekeeper.store import StoreError
from scorekeeper.views import qr
from scorekeeper.web.entry import EntrySite, PlayerDesk, entry_server, player_url
from scorekeeper.web.server import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    Site,
    ViewerServer,
    lan_addresses,
    listen_problem,
    page_url,
    serve_until_stopped,
    snapshot,
    store_problem,
)


def _say(message: str) -> None:
    console.print(Text(message), soft_wrap=True)


def _announce(server: ViewerServer, host: str, session_id: int | None,
              damage: str | None) -> None:
    """The address to open (with its token), who can open it, and its QR code (when a
    phone can open the address: not on loopback)."""
    port, token = server.server_port, server.site.token
    everywhere = host in ("0.0.0.0", "::", "")
    loopback = host.startswith("127.") or host in ("localhost", "::1")
    if everywhere:
        urls = [page_url(address, port, token) for address in lan_addresses() or ["127.0.0.1"]]
    else:
        urls = [page_url(host, port, token)]
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
    elif loopback:
        lan = lan_addresses()
        if lan:
            _say(_("Only this computer can open it, so there is no QR code to scan: --host "
                   "0.0.0.0 (or --host {address}, this computer's address on your network) "
                   "lets in the phones on your network.").format(address=lan[0]))
        else:
            _say(_("Only this computer can open it, so there is no QR code to scan: --host "
                   "0.0.0.0 lets in the phones on your network."))
    else:
        _say(_("Anyone who can reach {host} with this address can now see these pages.").format(
            host=host))
    if damage:
        _say(damage)
    if not loopback:  # no phone can open a loopback address: no code to scan
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
    entry: Annotated[bool, typer.Option(
        "--entry", help=N_("Each player of the table session also gets a private link to "
                           "enter their own result for the deal; `score add-round` with no "
                           "NAME=VALUE takes the entries."))] = False,
) -> None:
    """Live read-only pages of the scores for every phone at the table (Ctrl-C stops)."""
    path = store(ctx).path
    if entry:
        _serve_entries(path, session_id, host, port)
        return
    damage: str | None = None
    try:
        view = snapshot(path)
        if session_id is not None:
            view.get(session_id)  # refuse an ID that does not exist, before listening
    except StoreError as error:
        damage = store_problem(error)
    token = secrets.token_urlsafe(16)
    site = Site(path, token, session_id, report=_say, reported=damage)
    try:
        server = ViewerServer((host, port), site)
    except OSError as error:
        raise listen_problem(host, port, error) from None
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


def _entry_session(path: Path, session_id: int | None) -> Session:
    """The table session whose players enter their own results (refused: a virtual game,
    a finished one, a game that takes no entries)."""
    session = snapshot(path).get(session_id)
    if session.mode != "table":
        raise EntryError(_("session {id} is a game on the virtual deck: --entry is for a "
                           "game at the table (`score play --online` plays one on phones)"
                           ).format(id=session.id))
    if session.finished or session.abandoned:
        raise EntryError(_("session {id} takes no more rounds: --entry is for a game still "
                           "being played").format(id=session.id))
    if session.declaration.entry_form is None:
        raise EntryError(_("{game} takes no entries from the players' pages").format(
            game=session.declaration.title))
    return session


def _serve_entries(path: Path, session_id: int | None, host: str, port: int) -> None:
    session = _entry_session(path, session_id)
    site = EntrySite(path, secrets.token_urlsafe(16), session,
                     language=i18n.active_language(), report=_say)
    try:
        server = entry_server((host, port), site)
    except OSError as error:
        raise listen_problem(host, port, error) from None

    def joined(desk: PlayerDesk) -> None:  # a player who joins the session meanwhile
        _announce_player(server, host, desk)

    site.joined = joined

    def announce() -> None:
        _announce_entries(server, site, host)
        site.start()  # then who is in, as entries arrive

    try:
        serve_until_stopped(server, announce)
    finally:
        site.stopped.set()
        site.watcher.stop()
        server.server_close()
    _say(_("Stopped: the pages are offline. The entries made so far are kept for "
           "`score add-round`."))


def _shown_host(host: str) -> str:
    """The address a phone opens: this computer's on the network for 0.0.0.0."""
    if host in ("0.0.0.0", "::", ""):
        return next(iter(lan_addresses()), "127.0.0.1")
    return host


def _announce_player(server: ViewerServer, host: str, desk: PlayerDesk) -> None:
    """A player's private link, and its QR code when a phone can open it."""
    shown = _shown_host(host)
    base = "http://{}:{}".format(f"[{shown}]" if ":" in shown else shown, server.server_port)
    url = player_url(base, desk)
    console.print(plain(_("{player}'s entry (for {player} only): {url}").format(
        player=desk.name, url=url)), soft_wrap=True)
    if not (host.startswith("127.") or host in ("localhost", "::1")):
        console.print(Text("\n".join(qr.text_lines(url)), style="black on white"),
                      no_wrap=True, overflow="ignore", crop=False)


def _announce_entries(server: ViewerServer, site: EntrySite, host: str) -> None:
    """Each player's private link (and QR code, when a phone can open it), then the
    read-only pages' link."""
    everywhere = host in ("0.0.0.0", "::", "")
    loopback = host.startswith("127.") or host in ("localhost", "::1")
    shown = _shown_host(host)
    _say(_("Session {id}: each player enters their own result for the deal at their own "
           "link.").format(id=site.entry_session))
    for desk in site.desks.values():
        _announce_player(server, host, desk)
    _say(_("The scores, read-only, for anyone at the table: {url}").format(
        url=page_url(shown, server.server_port, site.token)))
    if loopback:
        _say(_("Only this computer can open these, so there is no QR code to scan: --host "
               "0.0.0.0 lets in the phones on your network."))
    elif everywhere:
        _say(_("Listening on every network of this computer: anyone on your network with "
               "one of these addresses (the token in it included) can open its page."))
    _say(_("When everyone is in, `score add-round` with the deal's options and no "
           "NAME=VALUE records the deal from the entries. Ctrl-C stops."))
