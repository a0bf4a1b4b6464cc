"""``score play --online``: the seats' server (:mod:`scorekeeper.web.online`) started
for a game and announced: each human's link and QR code, and the public table's. The
command (``virtual_commands.play``) plays the game through the table's hooks."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from types import ModuleType

from rich.text import Text

from scorekeeper import i18n
from scorekeeper.card_printing import plain
from scorekeeper.cli.context import console
from scorekeeper.i18n import _
from scorekeeper.playing import GameLife
from scorekeeper.views import qr
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


@contextlib.contextmanager
def seats_served(life: GameLife, game: ModuleType, host: str, port: int
                 ) -> Iterator[OnlineTable]:
    """The seats' server of ``life``'s game, listening and announced, for the block; the
    table's hooks play the humans' moves from their pages."""
    table = OnlineTable(life.session, life.humans, game,
                        report=lambda line: console.print(plain(line), soft_wrap=True))
    try:
        server = online_server((host, port), table, language=i18n.active_language())
    except OSError as error:
        raise listen_problem(host, port, error) from None
    serving = threading.Thread(target=server.serve_forever, name="online-server",
                               daemon=True)
    serving.start()
    try:
        _announce(server, table, host)
        yield table
    finally:
        table.close()
        server.shutdown()
        server.server_close()
