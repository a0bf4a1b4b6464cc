"""``score sync DIR [--keep ID]``: thin; :mod:`scorekeeper.sync` does the work."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from scorekeeper import sync as sync_module
from scorekeeper.cli.context import console, store
from scorekeeper.i18n import N_, _, ngettext
from scorekeeper.store import StoreView
from scorekeeper.text import show_controls


def _say(text: str) -> None:
    """A line of plain text: names and paths in it are data, never markup."""
    console.print(Text(show_controls(text)), soft_wrap=True)


def sync(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(metavar="DIR", file_okay=False, help=N_(
        "The folder Syncthing, a shared drive or a USB stick keeps in step, or a git "
        "working copy with a remote (then sync also commits, pulls and pushes)."))],
    keep: Annotated[int | None, typer.Option("--keep", metavar="ID", help=N_(
        "Of two sessions in conflict, keep session ID on every device."))] = None,
) -> None:
    st = store(ctx)
    outcome = sync_module.sync(st, folder.expanduser(), keep=keep, say=_say)
    for line in outcome.refused:
        sys.stderr.write(f"score: {show_controls(line)}\n")
    view = st.read()
    for session_id in outcome.added:
        _say(_("Session {id} ({label}) came from another device.").format(
            id=session_id, label=view.get(session_id).label))
    for session_id in outcome.updated:
        _say(_("Session {id} ({label}) was brought up to date from another device.").format(
            id=session_id, label=view.get(session_id).label))
    for session_id, label in outcome.removed:
        _say(_("Session {id} ({label}) was removed: {command} shows why.").format(
            id=session_id, label=label, command=f"`score log {session_id}`"))
    for group in outcome.conflicts:
        _say(conflict_line(view, group, folder))
    _say(ngettext("In step: {sessions} with {n} other device.",
                  "In step: {sessions} with {n} other devices.", outcome.devices).format(
        sessions=ngettext("{n} session", "{n} sessions", outcome.sessions).format(
            n=outcome.sessions), n=outcome.devices))


def conflict_line(view: StoreView, group: list[int], folder: Path | str = "DIR") -> str:
    """One line naming sessions in conflict and how to keep one."""
    return _("In conflict: sessions {ids} ({label}) were changed on two devices since they "
             "last met; keep one with {command}.").format(
        ids=", ".join(str(i) for i in group), label=view.get(group[0]).label,
        command=f"`score sync {folder} --keep ID`")


def conflicted(view: StoreView) -> list[list[int]]:
    """The sessions in conflict (none, reading nothing more, in a store that never synced)."""
    if view.meta_value(sync_module.SYNC) is None:
        return []
    return sync_module.conflicts(view)


sync.__doc__ = N_("Keep one history across devices through a synced folder or a git "
                  "remote; a night is never counted twice.")
