"""``score doctor``: check the store and its backups, and restore the newest good backup.

Beside the store, not in it: it reads with the store's own parser and checks
(:func:`scorekeeper.store.parse_store_text`, :func:`scorekeeper.store.check_session`)
and restores under the store's lock with its atomic write (:meth:`Store.exclusively`,
:func:`scorekeeper.store.write_atomically`).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from scorekeeper.i18n import _
from scorekeeper.store import (
    META,
    META_ID,
    SESSIONS,
    NewerStoreError,
    Store,
    StoreError,
    backup_paths,
    check_session,
    parse_store_text,
    read_file_bytes,
    real_path,
    write_atomically,
)


@dataclass
class Health:
    """What ``score doctor`` found in one file."""

    path: Path
    exists: bool
    problems: list[str]
    sessions: int = 0
    rounds: int = 0
    newer: bool = False
    """Written by a newer scorekeeper: not damaged, just not readable by this one."""

    @property
    def good(self) -> bool:
        return self.exists and not self.problems


def check_file(path: Path) -> Health:
    """Load ``path`` as a store and re-score every session; collect what is wrong."""
    try:
        raw = read_file_bytes(path)
    except StoreError as error:
        return Health(path, True, [_("can't be read: {reason}").format(
            reason=str(error).split(". ")[0])])
    if raw is None:
        return Health(path, False, [])
    try:
        data = parse_store_text(raw, path)
    except NewerStoreError as error:
        return Health(path, True, [str(error).split(". ")[0]], newer=True)
    except StoreError as error:
        return Health(path, True, [str(error).split(". ")[0]])
    health = Health(path, True, [])
    sessions = data.get(SESSIONS, {})
    for key, document in sorted(sessions.items(), key=lambda item: int(item[0])):
        try:
            session = check_session(document, int(key))
            health.rounds += len(session.rounds)
        except Exception as error:  # any failure here is a finding, not a crash
            health.problems.append(_("session {id}: {problem}").format(id=key, problem=error))
        health.sessions += 1
    current = data.get(META, {}).get(str(META_ID), {}).get("current")
    if current is not None and str(current) not in sessions:
        health.problems.append(_("the current session {id} does not exist").format(
            id=current))
    return health


def doctor(path: Path) -> tuple[Health, list[Health]]:
    """The store's health and each existing backup's, newest backup first."""
    backups = [check_file(backup) for backup in backup_paths(real_path(path))]
    return check_file(path), [health for health in backups if health.exists]


def restore_newest_good_backup(store: Store, *, force: bool = False) -> tuple[Path, Path | None]:
    """Put the newest good backup in place of the store; keep the replaced file aside.

    Under the store's own lock and with its own atomic write; every OS error (a full
    disk, a read-only or unreadable folder...) is a StoreError and changes nothing.
    Returns (the backup restored, where the replaced store was kept).
    """
    try:
        return store.exclusively(lambda: _restore(store, force=force))
    except OSError as error:
        raise StoreError(_("can't restore {path}: {reason}. Nothing was changed").format(
            path=store.path, reason=error.strerror or error)) from None


def _restore(store: Store, *, force: bool) -> tuple[Path, Path | None]:
    current, backups = doctor(store.path)
    if current.good and not force:
        raise StoreError(_("{path} is healthy, so nothing was restored (restoring would drop "
                           "the latest changes); add --force to restore the newest good backup "
                           "anyway").format(path=store.path))
    if current.newer and not force:
        raise StoreError(_("{path} is not damaged but written by a newer scorekeeper: upgrade "
                           "scorekeeper instead (restoring would roll back to an older backup; "
                           "add --force to do it anyway)").format(path=store.path))
    good = next((health for health in backups if health.good), None)
    if good is None:
        raise StoreError(_("no good backup of {path} was found; nothing was changed").format(
            path=store.path))
    content = read_file_bytes(good.path)
    if content is None:
        raise StoreError(_("{path} disappeared; nothing was changed").format(path=good.path))
    target = store.target
    kept: Path | None = None
    if target.exists():
        kept = _keep_aside(target)
    try:
        write_atomically(target, content)
    except BaseException:
        if kept is not None:
            with contextlib.suppress(OSError):
                kept.unlink()
        raise
    return good.path, kept


def _keep_aside(target: Path) -> Path:
    """A copy of ``target`` under a new ``.replaced-<time>`` name (a hard link if possible)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = target.with_name(f"{target.name}.replaced-{stamp}")
    count = 1
    while os.path.lexists(kept):  # restored twice within a second: keep both files
        count += 1
        kept = target.with_name(f"{target.name}.replaced-{stamp}-{count}")
    try:
        os.link(target, kept)
    except FileExistsError:
        raise
    except OSError:  # no hard links here: a copy does the same
        content = target.read_bytes()
        write_atomically(kept, content, replace=False)
    return kept
