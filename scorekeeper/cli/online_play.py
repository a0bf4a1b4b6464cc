"""``score play --online``: the terminal's side. Starts the seats' server
(:mod:`scorekeeper.web.online`), prints each human's link and QR code, shows the public
table and who is being waited for, and stops as ``score play`` does."""

from __future__ import annotations

import threading
import time
from types import ModuleType

import typer
from rich.text import Text

from scorekeeper import i18n, playing
from scorekeeper.card_printing import plain
from scorekeeper.cli.context import console
from scorekeeper.cli.virtual_commands import deal_report, kept_current, stopped_line
from scorekeeper.i18n import _
from scorekeeper.playing import GameLife
from scorekeeper.session import Session
from scorekeeper.views import compact, qr, render
from scorekeeper.web.online import OnlineTable, online_server
from scorekeeper.web.server import ViewerServer, lan_addresses, listen_problem

DEFAULT_HOST = "127.0.0.1"
"""Loopback: this computer only, unless --host says otherwise."""
DEFAULT_PORT = 8766
"""Next to ``score serve``'s 8765, so both can run at once."""


def _say(message: str) -> None:
    console.print(Text(message), soft_wrap=True)


def _base(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = next(iter(lan_addresses()), "127.0.0.1")
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _announce(server: ViewerServer, table: OnlineTable, host: str) -> None:
    """Each human's own link (and QR code, when a phone can open it), then the public
    table's."""
    base = _base(host, server.server_port)
    loopback = host.startswith("127.") or host in ("localhost", "::1")
    for desk in table.seats.values():
        url = f"{base}/{desk.token}/"
        console.print(plain(_("{player}'s seat (for {player} only: it shows their hand): "
                              "{url}").format(player=desk.name, url=url)), soft_wrap=True)
        if not loopback:
            console.print(Text("\n".join(qr.text_lines(url)), style="black on white"),
                          no_wrap=True, overflow="ignore", crop=False)
    _say(_("The table, for anyone watching (no hands): {url}").format(
        url=f"{base}/{table.viewer_token}/"))
    if loopback:
        _say(_("Only this computer can open these, so there is no QR code to scan: --host "
               "0.0.0.0 lets in the phones on your network."))
    _say(_("The game waits for each player's move on their page. Ctrl-C stops; the game "
           "is saved after every deal."))


def play_online(life: GameLife, game: ModuleType, host: str, port: int) -> None:
    """Play ``life``'s game to its end with every human on their own page."""
    if life.kept is not None:
        console.print(kept_current(life.kept, life.session))
    table = OnlineTable(life.session, life.humans, game,
                        report=lambda line: console.print(plain(line), soft_wrap=True))
    try:
        server = online_server((host, port), table, language=i18n.active_language())
    except OSError as error:
        raise listen_problem(host, port, error) from None
    serving = threading.Thread(target=server.serve_forever, name="online-server",
                               daemon=True)
    serving.start()
    hooks = table.hooks()
    on_saved = hooks.on_saved

    def saved(session: Session) -> None:
        if on_saved is not None:
            on_saved(session)
        for line in deal_report(session, with_standings=True):
            console.print(line)

    try:
        _announce(server, table, host)
        try:
            session = life.play(playing.PlayHooks(
                choose_human=hooks.choose_human, on_action=hooks.on_action,
                on_start=hooks.on_start, on_saved=saved))
            time.sleep(1.0)  # the pages see the game's end before the server stops
        except KeyboardInterrupt:
            console.print(Text("\n" + stopped_line(life.stop(hand_seen=table.hand_seen))))
            raise typer.Exit(130) from None
    finally:
        table.close()
        server.shutdown()
        server.server_close()
    console.print(compact.standings(console, session))
    console.print(render.ending(session))
    if life.kept is not None:
        console.print(kept_current(life.kept, session))
