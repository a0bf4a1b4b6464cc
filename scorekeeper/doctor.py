"""``score doctor``: check the store and its backups, and restore the newest good backup.

Beside the store, not in it: it opens each file through the store's own TinyDB storage
(:class:`scorekeeper.storage.StoreFile`, every document parsed, every session re-scored
with :func:`scorekeeper.storage.check_session`) and restores under the store's lock with
the storage's atomic replace (:meth:`Store.exclusively`, :meth:`StoreFile.restore`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.i18n import _
from scorekeeper.store import (
    META,
    META_ID,
    NewerStoreError,
    Opened,
    Store,
    StoreError,
    StoreFile,
    UnreadableFile,
    backup_paths,
    check_stored,
    real_path,
)
from scorekeeper.unavailable import UnavailableSession


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
    missing: list[str] = field(default_factory=list)
    """The sessions whose game is not installed, each in one line with what to do: not
    damage (the file is good, and a restore would not bring the game back)."""

    @property
    def good(self) -> bool:
        return self.exists and not self.problems


def check_file(path: Path) -> Health:
    """Load ``path`` as a store and re-score every session; collect what is wrong."""
    try:
        opened = Opened(path, whole=True)
    except NewerStoreError as error:
        return Health(path, True, [str(error).split(". ")[0]], newer=True)
    except UnreadableFile as error:
        return Health(path, True, [_("can't be read: {reason}").format(
            reason=str(error).split(". ")[0])])
    except StoreError as error:
        return Health(path, True, [str(error).split(". ")[0]])
    if opened.file.raw is None:
        return Health(path, False, [])
    health = Health(path, True, [])
    ids = opened.ids()
    for session_id in ids:
        try:
            session = check_stored(opened.sessions.get(doc_id=session_id), session_id)
            if isinstance(session, UnavailableSession):
                health.rounds += session.rounds
                health.missing.append(_("session {id}: game missing: {problem}").format(
                    id=session_id, problem=session.problem))
            else:
                health.rounds += len(session.rounds)
        except Exception as error:  # any failure here is a finding, not a crash
            health.problems.append(_("session {id}: {problem}").format(
                id=session_id, problem=error))
        health.sessions += 1
    meta = opened.db.table(META).get(doc_id=META_ID)
    current = None if meta is None else meta.get("current")
    if current is not None and current not in ids:
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
        return store.exclusively(lambda file: _restore(store, file, force=force))
    except OSError as error:
        raise StoreError(_("can't restore {path}: {reason}. Nothing was changed").format(
            path=store.path, reason=error.strerror or error)) from None


def _restore(store: Store, file: StoreFile, *, force: bool) -> tuple[Path, Path | None]:
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
    return good.path, file.restore(good.path)


