"""The session store: one TinyDB JSON file that is never lost or corrupted.

* Every write replaces the whole file atomically: the new content goes to a
  temporary file in the same folder, is fsync'ed, then ``os.replace``\\ d over the
  store. A crash at any moment leaves either the old file or the new one.
* Writers hold a file lock (``<store>.lock``) for their whole read-modify-write,
  so concurrent ``score`` processes never lose each other's changes.
* The previous versions are kept as ``<store>.bak1`` (newest) to ``.bak5``.
* The file carries its schema version in the ``meta`` table; older versions are
  migrated in memory on read and written back in the new version on the next
  write; a newer version is refused rather than overwritten.
* Reading never creates the file (nor its folder).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from platformdirs import user_data_dir
from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage
from tinydb.table import Document

from scorekeeper.games.common import EntryError, name_key
from scorekeeper.session import Session

SCHEMA_VERSION = 2
"""1: the first store (sessions without history); 2: history, redo and front-end data."""
BACKUPS = 5
LOCK_TIMEOUT_SECONDS = 30.0
SESSIONS = "sessions"
META = "meta"
META_ID = 1
DELETED = "deleted"
"""meta key: the sessions ``score delete`` removed, each with its whole record."""
PLAYER_CHANGES = "player_changes"
"""meta key: the renames and merges of ``score players``, newest last (for its undo)."""
ENV_VAR = "SCOREKEEPER_DB"
APP_NAME = "scorekeeper"


# The store's errors live with every other user-caused error (re-exported here).
from scorekeeper.errors import NewerStoreError as NewerStoreError  # noqa: E402
from scorekeeper.errors import StoreError as StoreError  # noqa: E402


def default_path() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "scorekeeper.json"


def resolve_path(option: str | Path | None) -> Path:
    """``--db`` wins over ``SCOREKEEPER_DB``, which wins over the platformdirs default."""
    if option:
        return Path(option).expanduser()
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    return default_path()


def backup_paths(path: Path) -> list[Path]:
    return [path.with_name(f"{path.name}.bak{n}") for n in range(1, BACKUPS + 1)]


# ---------------------------------------------------------------------------
# Reading and checking raw store data


def parse_store_text(text: str, path: Path) -> dict[str, dict[str, Any]]:
    """Parse and check the file's text; migrate an older schema in memory."""
    if not text.strip():
        raise StoreError(
            f"{path} is empty, so it is not a scorekeeper store: it may have been truncated. "
            "Run `score doctor --restore` to bring back the newest good backup, "
            "or move the file aside"
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StoreError(
            f"{path} is damaged (not valid JSON: {error.msg} at line {error.lineno}). "
            "Nothing was changed. Run `score doctor --restore` to bring back the newest good "
            "backup, or move the file aside"
        ) from None
    return check_store_data(data, path)


def check_store_data(data: Any, path: Path) -> dict[str, dict[str, Any]]:
    foreign = (
        f"{path} is not a scorekeeper store (it holds other JSON). Nothing was changed: "
        "use --db or SCOREKEEPER_DB to pick another file, or move this one aside"
    )
    if not isinstance(data, dict):
        raise StoreError(foreign)
    if not data:
        return {}
    if set(data) - {SESSIONS, META, "_default"} or META not in data:
        raise StoreError(foreign)
    for table in data.values():
        if not isinstance(table, dict) or not all(
            isinstance(doc, dict) and key.isascii() and key.isdigit() for key, doc in table.items()
        ):
            raise StoreError(foreign)
    meta = data[META].get(str(META_ID), {})
    version = meta.get("schema")
    if not isinstance(version, int) or version < 1:
        raise StoreError(foreign)
    if version > SCHEMA_VERSION:
        raise NewerStoreError(
            f"{path} was written by a newer scorekeeper (store schema {version}; this one "
            f"reads up to {SCHEMA_VERSION}). Nothing was changed: upgrade scorekeeper "
            "(its package is cardnight-scorekeeper: pipx upgrade cardnight-scorekeeper) to use it"
        )
    return migrate(data)


def migrate(data: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Bring store data of any older schema up to :data:`SCHEMA_VERSION`."""
    meta = data[META][str(META_ID)]
    if meta["schema"] == 1:
        for document in data.get(SESSIONS, {}).values():
            document.setdefault("undone", [])
            document.setdefault("extra", {})
            document.setdefault(
                "history",
                [{"time": document.get("created", ""), "change": "new",
                  "detail": "created before history was kept"}],
            )
        meta["schema"] = 2
    return data


class AtomicJSONStorage(Storage):
    """A TinyDB storage that checks what it reads and replaces the file atomically."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            raise StoreError(
                f"{self.path} is not a scorekeeper store (not a text file). Nothing was changed: "
                "use --db or SCOREKEEPER_DB to pick another file, or move this one aside"
            ) from None
        except OSError as error:
            raise StoreError(f"can't read {self.path}: {error.strerror}") from None
        return parse_store_text(text, self.path) or None

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self.read_only:
            raise RuntimeError("a read-only store was asked to write")
        write_atomically(self.path, json.dumps(data, ensure_ascii=False, indent=1))


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file."""
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes the file private (0600); keep the store's own mode instead.
        os.chmod(temporary, _store_mode(path))
        _rotate_backups(path)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(folder)


def _store_mode(path: Path) -> int:
    """The mode the store has, or what a newly created file gets under the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _rotate_backups(path: Path) -> None:
    if not path.exists():
        return
    backups = backup_paths(path)
    for older, newer in zip(reversed(backups[1:]), reversed(backups[:-1]), strict=True):
        if newer.exists():
            os.replace(newer, older)
    try:
        # A hard link keeps the old content under the backup name at no cost;
        # os.replace then gives the store name to the new file.
        os.link(path, backups[0])
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(backups[0])
        backups[0].write_bytes(path.read_bytes())


def _fsync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files left by a process killed mid-write (we hold the lock)."""
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()


# ---------------------------------------------------------------------------
# Sessions in the store


@dataclass
class StoreView:
    """Sessions and the current-session pointer, read from or about to be written to the file."""

    db: TinyDB
    path: Path

    def _meta(self) -> dict[str, Any]:
        document = self.db.table(META).get(doc_id=META_ID)
        return dict(document) if isinstance(document, Mapping) else {}

    @property
    def current_id(self) -> int | None:
        value = self._meta().get("current")
        return value if isinstance(value, int) else None

    def meta_records(self, key: str) -> list[dict[str, Any]]:
        """A list of records kept in the meta table (e.g. :data:`DELETED`)."""
        value = self._meta().get(key)
        return [dict(item) for item in value if isinstance(item, dict)] \
            if isinstance(value, list) else []

    def deleted(self, session_id: int) -> dict[str, Any] | None:
        """The record of session ``session_id`` if ``score delete`` removed it."""
        return next((record for record in self.meta_records(DELETED)
                     if record.get("id") == session_id), None)

    def session_ids(self) -> list[int]:
        return sorted(document.doc_id for document in self.db.table(SESSIONS).all())

    def sessions(self) -> list[Session]:
        return [
            self._load(document)
            for document in sorted(self.db.table(SESSIONS).all(), key=lambda d: d.doc_id)
        ]

    def _load(self, document: Document) -> Session:
        """The session stored in ``document``; a StoreError if it is damaged."""
        try:
            session = Session.from_document(document, document.doc_id)
            session.standings  # noqa: B018 - a damaged session is found here, not mid-render
        except Exception as error:
            raise StoreError(
                f"{self.path}: session {document.doc_id} is damaged ({error}). Nothing was "
                "changed: run `score doctor` to check the file, `score doctor --restore` to "
                "bring back the newest good backup"
            ) from None
        return session

    def get(self, session_id: int | None = None) -> Session:
        """Session ``session_id``, or the current one."""
        wanted = self.current_id if session_id is None else session_id
        if wanted is None:
            if self.session_ids():
                raise EntryError("no session is current: pick one with `score use ID` "
                                 "(see `score sessions`)")
            raise EntryError("there are no sessions yet: start one with `score new`")
        document = self.db.table(SESSIONS).get(doc_id=wanted)
        if not isinstance(document, Document):
            known = ", ".join(str(i) for i in self.session_ids()) or "none yet"
            raise EntryError(f"there is no session {wanted} (sessions: {known})")
        return self._load(document)


class WritableStoreView(StoreView):
    def add(self, session: Session) -> Session:
        table = self.db.table(SESSIONS)
        deleted = [record.get("id") for record in self.meta_records(DELETED)]
        if deleted:  # never give a deleted session's id to another one
            used = [*self.session_ids(), *(i for i in deleted if isinstance(i, int))]
            session_id = table.insert(Document(session.to_document(), doc_id=max(used) + 1))
        else:
            session_id = table.insert(session.to_document())
        self.set_current(session_id)
        return session.with_id(session_id)

    def remove(self, session_id: int, record: Mapping[str, Any]) -> None:
        """Take a session out of the store, keeping ``record`` of it in the meta table."""
        self.db.table(SESSIONS).remove(doc_ids=[session_id])
        meta = self._meta()
        meta[DELETED] = [*self.meta_records(DELETED), dict(record)]
        if meta.get("current") == session_id:
            del meta["current"]
        self._save_meta(meta)

    def set_meta_records(self, key: str, records: list[dict[str, Any]]) -> None:
        meta = self._meta()
        meta[key] = records
        self._save_meta(meta)

    def _save_meta(self, meta: dict[str, Any]) -> None:
        meta["schema"] = SCHEMA_VERSION
        table = self.db.table(META)
        if table.contains(doc_id=META_ID):
            table.remove(doc_ids=[META_ID])
        table.insert(Document(meta, doc_id=META_ID))

    def put(self, session: Session) -> None:
        if session.id is None:
            raise ValueError("put needs a stored session")
        table = self.db.table(SESSIONS)
        table.remove(doc_ids=[session.id])
        table.insert(Document(session.to_document(), doc_id=session.id))

    def set_current(self, session_id: int) -> None:
        self.get(session_id)
        meta = self._meta()
        meta["current"] = session_id
        meta["schema"] = SCHEMA_VERSION
        table = self.db.table(META)
        if table.contains(doc_id=META_ID):
            table.remove(doc_ids=[META_ID])
        table.insert(Document(meta, doc_id=META_ID))


class Store:
    """The store file at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock_path = path.with_name(path.name + ".lock")

    def read(self) -> StoreView:
        """A read-only view. Needs no lock: the file is only ever replaced whole."""
        return StoreView(TinyDB(self.path, storage=_ReadOnly), self.path)

    @contextlib.contextmanager
    def write(self) -> Iterator[WritableStoreView]:
        """A locked read-modify-write: saved atomically at the end, not at all on error."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"can't create the folder {self.path.parent}: "
                             f"{error.strerror}") from None
        lock = FileLock(str(self.lock_path), timeout=LOCK_TIMEOUT_SECONDS)
        try:
            lock.acquire()
        except Timeout:
            raise StoreError(
                f"another score command has held {self.lock_path} for "
                f"{LOCK_TIMEOUT_SECONDS:.0f} s; try again when it has finished"
            ) from None
        except OSError as error:  # e.g. a folder without write permission
            raise StoreError(f"can't lock {self.lock_path}: {error.strerror or error}. "
                             "Nothing was changed") from None
        try:
            _remove_stale_temporaries(self.path)
            middleware = CachingMiddleware(AtomicJSONStorage)  # type: ignore[no-untyped-call]
            middleware.WRITE_CACHE_SIZE = 1_000_000
            db = TinyDB(self.path, storage=middleware)
            view = WritableStoreView(db, self.path)
            if db.table(META).get(doc_id=META_ID) is None:
                db.table(META).insert(Document({"schema": SCHEMA_VERSION}, doc_id=META_ID))
            # A damaged session makes the whole store damaged: writing it on would push
            # the good backups out one write at a time, so refuse (StoreError) instead.
            view.sessions()
            yield view
            meta = view._meta()
            if meta.get("schema") != SCHEMA_VERSION:
                meta["schema"] = SCHEMA_VERSION
                db.table(META).remove(doc_ids=[META_ID])
                db.table(META).insert(Document(meta, doc_id=META_ID))
            try:
                middleware.flush()  # type: ignore[no-untyped-call]
            except OSError as error:  # disk full, no permission...: the old file stays
                raise StoreError(f"can't write {self.path}: {error.strerror or error}. "
                                 "Nothing was changed") from None
        finally:
            lock.release()


class _ReadOnly(AtomicJSONStorage):
    def __init__(self, path: Path) -> None:
        super().__init__(path, read_only=True)


# ---------------------------------------------------------------------------
# Checking and restoring (score doctor)


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
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Health(path, False, [])
    except (OSError, UnicodeDecodeError) as error:
        return Health(path, True, [f"can't be read: {error}"])
    try:
        data = parse_store_text(text, path)
    except NewerStoreError as error:
        return Health(path, True, [str(error).split(". ")[0]], newer=True)
    except StoreError as error:
        return Health(path, True, [str(error).split(". ")[0]])
    health = Health(path, True, [])
    sessions = data.get(SESSIONS, {})
    for key, document in sorted(sessions.items(), key=lambda item: int(item[0])):
        try:
            session = Session.from_document(document, int(key))
            standings = session.standings
            health.rounds += len(standings.rounds)
            _check_invariants(session)
        except Exception as error:  # any failure here is a finding, not a crash
            health.problems.append(f"session {key}: {error}")
        health.sessions += 1
    current = data.get(META, {}).get(str(META_ID), {}).get("current")
    if current is not None and str(current) not in sessions:
        health.problems.append(f"the current session {current} does not exist")
    return health


def _check_invariants(session: Session) -> None:
    standings = session.standings
    if len({name_key(name) for name in session.players}) != len(session.players):
        raise ValueError("two players share a name")
    if sorted(standings.still_in + standings.knocked_out) != sorted(session.players):
        raise ValueError("players in and knocked out do not add up to the players")
    if standings.finished and not standings.winners:
        raise ValueError("finished without a winner")
    running = dict.fromkeys(session.players, 0)
    for summary in standings.rounds:
        for name, points in summary["scores"].items():
            running[name] += points
    if running != standings.totals:
        raise ValueError("the totals are not the sum of the rounds")


def doctor(path: Path) -> tuple[Health, list[Health]]:
    """The store's health and each existing backup's, newest backup first."""
    backups = [check_file(backup) for backup in backup_paths(path)]
    return check_file(path), [health for health in backups if health.exists]


def restore_newest_good_backup(store: Store, *, force: bool = False) -> tuple[Path, Path | None]:
    """Put the newest good backup in place of the store; keep the replaced file aside.

    Returns (the backup restored, where the replaced store was kept).
    """
    lock = FileLock(str(store.lock_path), timeout=LOCK_TIMEOUT_SECONDS)
    try:
        lock.acquire()
    except Timeout:
        raise StoreError(f"another score command holds {store.lock_path}; try again") from None
    try:
        current, backups = doctor(store.path)
        if current.good and not force:
            raise StoreError(
                f"{store.path} is healthy, so nothing was restored (restoring would drop the "
                "latest changes); add --force to restore the newest good backup anyway"
            )
        if current.newer and not force:
            raise StoreError(
                f"{store.path} is not damaged but written by a newer scorekeeper: upgrade "
                "scorekeeper instead (restoring would roll back to an older backup; add "
                "--force to do it anyway)"
            )
        good = next((health for health in backups if health.good), None)
        if good is None:
            raise StoreError(f"no good backup of {store.path} was found; nothing was changed")
        kept: Path | None = None
        if store.path.exists():
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            kept = store.path.with_name(f"{store.path.name}.replaced-{stamp}")
            count = 1
            while kept.exists():  # restored twice within a second: keep both files
                count += 1
                kept = store.path.with_name(f"{store.path.name}.replaced-{stamp}-{count}")
            try:
                os.link(store.path, kept)
            except OSError:  # no hard links here: a copy does the same
                kept.write_bytes(store.path.read_bytes())
        content = good.path.read_text(encoding="utf-8")
        folder = store.path.parent
        handle, temporary = tempfile.mkstemp(prefix=f".{store.path.name}.", suffix=".tmp",
                                             dir=folder)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, store.path)
        _fsync_folder(folder)
        return good.path, kept
    finally:
        lock.release()
