"""The session store: one TinyDB database in one JSON file that is never lost or corrupted.

The sessions live in TinyDB's tables (``sessions``, one document per session, its id the
session id; ``meta``, document 1 holding the current session and the records of
``score delete`` and ``score players``) and are read and changed through TinyDB's own
API: ``Table.get``, ``insert``, ``update`` and ``remove`` on a :class:`tinydb.TinyDB`
whose storage is :class:`scorekeeper.storage.StoreFile` behind the middleware
:class:`scorekeeper.storage.Transaction`. That storage is the only code that reads or
writes the file; see its module for the file's layout and what it adds to TinyDB
(atomic replace, symlinks written through, the lock, five backups, the schema version
and migration, refusal of damaged, foreign, newer and non-regular files).

This module adds the store's rules on top:

* Writers hold the lock (``<store>.lock``) for their re-read-modify-write, never while
  waiting for a person; each session carries a revision and every change is a
  compare-and-set on the revision the command read.
* One command is one transaction: read once, changed in memory, written once,
  atomically; a write that changes nothing writes nothing and keeps the backups.
* Each session's text is checked (re-scored, as ``score doctor`` does) when it is
  written, and its digest is kept in ``meta``; a write re-checks only the sessions it
  touches and those whose text no longer matches its digest (edited by hand), so a
  damaged session still blocks every write while writes stay fast.
* Reading never creates the file, its folder or its lock; neither does a refused write.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tinydb import TinyDB
from tinydb.table import Document, Table

from scorekeeper import derived
from scorekeeper.errors import NewerStoreError as NewerStoreError  # re-exported
from scorekeeper.errors import StoreError as StoreError  # re-exported
from scorekeeper.files import try_lock
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject, JSONValue
from scorekeeper.registry import GameMissing
from scorekeeper.session import Session
from scorekeeper.storage import BACKUPS as BACKUPS
from scorekeeper.storage import DEFAULT_TABLE as DEFAULT_TABLE
from scorekeeper.storage import META as META
from scorekeeper.storage import META_ID as META_ID
from scorekeeper.storage import SCHEMA_VERSION as SCHEMA_VERSION
from scorekeeper.storage import SESSIONS as SESSIONS
from scorekeeper.storage import (
    StoredDocument,
    check_invariants,
    damaged_message,
    is_temporary_of,
    lock_path_of,
    serialise,
)
from scorekeeper.storage import StoreFile as StoreFile
from scorekeeper.storage import Transaction as Transaction
from scorekeeper.storage import UnreadableFile as UnreadableFile
from scorekeeper.storage import backup_paths as backup_paths
from scorekeeper.storage import check_session as check_session
from scorekeeper.storage import check_stored as check_stored
from scorekeeper.storage import describe_kind as describe_kind
from scorekeeper.storage import real_path as real_path
from scorekeeper.storage import write_atomically as write_atomically

if TYPE_CHECKING:
    from scorekeeper.stats import Played
    from scorekeeper.unavailable import UnavailableSession

RECORDS_FILLED_PER_WRITE = 8
"""How many sessions without a record of their facts (:mod:`scorekeeper.derived`) each
write gives one (re-scoring each: some 3 ms a session on a quiet machine)."""

DELETED = "deleted"
"""meta key: the sessions ``score delete`` removed, each with its whole record."""
PLAYER_CHANGES = "player_changes"
"""meta key: the renames and merges of ``score players``, newest last (for its undo)."""
ENV_VAR = "SCOREKEEPER_DB"
APP_NAME = "scorekeeper"

T = TypeVar("T")


class SessionChanged(StoreError):
    """The compare-and-set failed: the session is not the one the command read."""


def default_path() -> Path:
    from platformdirs import user_data_dir  # not needed when --db or $SCOREKEEPER_DB names it

    return Path(user_data_dir(APP_NAME, appauthor=False)) / "scorekeeper.json"


def resolve_path(option: str | Path | None) -> Path:
    """``--db`` wins over ``SCOREKEEPER_DB``, which wins over the platformdirs default."""
    if option:
        return Path(option).expanduser()
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    return default_path()


# ---------------------------------------------------------------------------
# One transaction on the store


class Opened:
    """The store opened for one command: TinyDB over the file, read once."""

    __slots__ = ("db", "path", "transaction", "whole")

    def __init__(self, path: Path, whole: bool = False) -> None:
        self.path = path
        self.whole = whole
        self.transaction = Transaction(StoreFile)
        self.db = TinyDB(self.path, whole=self.whole, storage=self.transaction)
        self.transaction.read()  # the snapshot every table of this command sees

    @property
    def file(self) -> StoreFile:
        storage = self.transaction.storage
        assert isinstance(storage, StoreFile)
        return storage

    @property
    def sessions(self) -> Table:
        return self.db.table(SESSIONS)

    @property
    def meta(self) -> Table:
        return self.db.table(META)

    def ids(self, table: str = SESSIONS) -> list[int]:
        return self.transaction.document_ids(table)

    def verify(self) -> None:
        self.file.verify(self.transaction.read())

    def commit(self) -> None:
        self.transaction.commit()
        self.db.close()


def _overwrite(document: Mapping[str, JSONValue]) -> Callable[[MutableMapping[str, object]], None]:
    """A ``Table.update`` that makes the stored document exactly ``document``."""

    def replace(stored: MutableMapping[str, object]) -> None:
        stored.clear()
        stored.update(document)

    return replace


def _forget_current(meta: JSONObject) -> None:
    """A meta change: no session is current."""
    meta.pop("current", None)


# ---------------------------------------------------------------------------
# Sessions in the store


class StoreView:
    """Sessions and the current-session pointer, read from or about to be written to the file."""

    def __init__(self, opened: Opened) -> None:
        self.opened = opened
        self.path = opened.path
        self._loaded: dict[int, Session | UnavailableSession] = {}

    def _meta(self) -> JSONObject:
        document = self.opened.meta.get(doc_id=META_ID)
        return dict(document) if document is not None else {}

    @property
    def current_id(self) -> int | None:
        value = self._meta().get("current")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def meta_records(self, key: str) -> list[JSONObject]:
        """A list of records kept in the meta table (e.g. :data:`DELETED`)."""
        value = self._meta().get(key)
        return [dict(item) for item in value if isinstance(item, dict)] \
            if isinstance(value, list) else []

    def meta_value(self, key: str) -> Any:
        """The JSON kept under ``key`` in the meta table (None when there is none)."""
        return self._meta().get(key)

    def document(self, session_id: int) -> JSONObject:
        """Session ``session_id`` as the file holds it (parsed, not checked)."""
        document = self.opened.sessions.get(doc_id=session_id)
        if document is None:
            raise KeyError(session_id)
        return dict(document)

    def deleted(self, session_id: int) -> JSONObject | None:
        """The record of session ``session_id`` if ``score delete`` removed it."""
        return next((record for record in self.meta_records(DELETED)
                     if record.get("id") == session_id), None)

    def session_ids(self) -> list[int]:
        return self.opened.ids()

    def sessions(self) -> list[Session]:
        """The sessions whose game is installed (those :meth:`unavailable` lists are not)."""
        return [found for found in self.listed() if isinstance(found, Session)]

    def listed(self) -> list[Session | UnavailableSession]:
        """Every stored session, those whose game is not installed as unavailable ones."""
        return [self._load(session_id) for session_id in self.session_ids()]

    def unavailable(self) -> list[UnavailableSession]:
        """The sessions whose game is not installed: listed, never re-scored or changed."""
        return [found for found in self.listed() if not isinstance(found, Session)]

    def _load(self, session_id: int) -> Session | UnavailableSession:
        """The stored session, checked as `score doctor` checks it; a StoreError if damaged.
        A session whose game is not installed is an :class:`UnavailableSession`."""
        if session_id not in self._loaded:
            document = self.opened.sessions.get(doc_id=session_id)
            if document is None:
                raise KeyError(session_id)
            try:
                self._loaded[session_id] = check_stored(document, session_id)
            except Exception as error:
                raise StoreError(damaged_message(self.path, str(session_id), error)) from None
        return self._loaded[session_id]

    def played(self) -> tuple[list[Played], list[UnavailableSession]]:
        """What the statistics read of every stored session whose game is installed (from
        the store's record of it when that is current: :mod:`scorekeeper.derived`; else
        read, checked and scored), and the sessions whose game is not installed."""
        from scorekeeper.stats import Played  # the statistics' commands only

        records = self.records()
        stored = (self.opened.transaction.read() or {}).get(SESSIONS, {})
        found: list[Played] = []
        unavailable: list[UnavailableSession] = []
        for session_id in self.session_ids():
            facts = derived.facts_if_current(records.get(str(session_id)),
                                             _text_of(stored[str(session_id)]))
            played = None if facts is None else Played.from_json(facts, session_id)
            if played is None:
                loaded = self._load(session_id)
                if not isinstance(loaded, Session):  # unavailable
                    unavailable.append(loaded)
                    continue
                played = Played.of(loaded)
            found.append(played)
        return found, unavailable

    def records(self) -> JSONObject:
        """The store's records of the sessions' facts (:mod:`scorekeeper.derived`), by id;
        each one still to be checked against its session."""
        try:
            document = self.opened.meta.get(doc_id=derived.RECORD_ID)
        except StoreError:  # not JSON: no record is used (a write replaces it)
            return {}
        value = document.get(derived.SESSIONS_KEY) if document is not None else None
        return dict(value) if isinstance(value, dict) else {}

    def _stored_revision(self, session_id: int) -> Any:
        document = self.opened.sessions.get(doc_id=session_id)
        return 0 if document is None else document.get("revision", 0)

    def get(self, session_id: int | None = None) -> Session:
        """Session ``session_id``, or the current one; a :class:`GameMissing` (one line
        naming the game and what to do) if its game is not installed."""
        found = self.get_listed(session_id)
        if not isinstance(found, Session):  # unavailable
            raise GameMissing(found.game, found.refusal)
        return found

    def get_listed(self, session_id: int | None = None) -> Session | UnavailableSession:
        """Session ``session_id``, or the current one, even if its game is not installed."""
        wanted = self.current_id if session_id is None else session_id
        ids = self.session_ids()
        if wanted is None:
            if ids:
                raise EntryError(_("no session is current: pick one with `score use ID` "
                                   "(see `score sessions`)"))
            raise EntryError(_("there are no sessions yet: start one with `score new`"))
        if wanted not in ids:
            known = ", ".join(str(i) for i in ids)
            if not known:
                raise EntryError(_("there is no session {id} (sessions: none yet)").format(
                    id=wanted))
            raise EntryError(_("there is no session {id} (sessions: {known})").format(
                id=wanted, known=known))
        return self._load(wanted)


class WritableStoreView(StoreView):
    """The changes of one write; saved when the write ends, not at all on error."""

    @property
    def changed(self) -> bool:
        return self.opened.transaction.dirty

    def add(self, session: Session) -> Session:
        """Store a new session (revision 1) under the next id; it becomes current.

        A deleted session's id is never given to another one."""
        deleted = [record.get("id") for record in self.meta_records(DELETED)]
        used = [*self.session_ids(), *(i for i in deleted if isinstance(i, int))]
        session_id = max(used, default=0) + 1
        stored = session.with_id(session_id).with_revision(1)
        self._store(stored)
        self.set_current(session_id)
        return stored

    def put(self, session: Session) -> Session:
        """Store ``session`` over the stored one if that is still the revision
        ``session`` was made from (compare-and-set); return it as stored."""
        if session.id is None:
            raise ValueError("put needs a stored session")
        if session.id not in self.session_ids():
            raise SessionChanged(_("session {id} is no longer in {path} (was a backup "
                                   "restored?); nothing was changed").format(
                id=session.id, path=self.path))
        # The stored session was checked when this write began (verify, or get).
        stored_revision = self._stored_revision(session.id)
        if stored_revision != session.revision:
            raise SessionChanged(_(
                "session {id} was changed by another score command since this one "
                "read it (revision {revision}, now {stored}); nothing was "
                "changed: look at it again (`score show`) and repeat the command"
            ).format(id=session.id, revision=session.revision, stored=stored_revision))
        stored = session.with_revision(session.revision + 1)
        self._store(stored)
        return stored

    def set_current(self, session_id: int) -> None:
        self.get_listed(session_id)
        if self._meta().get("current") != session_id:
            self._change_meta(lambda meta: meta.__setitem__("current", session_id))

    def remove(self, session_id: int, record: Mapping[str, JSONValue]) -> None:
        """Take a session out of the store, keeping ``record`` of it in the meta table."""
        self.opened.sessions.remove(doc_ids=[session_id])
        self._loaded.pop(session_id, None)
        if str(session_id) in self.records():
            self._keep_records({})
        records = [*self.meta_records(DELETED), dict(record)]

        def change(meta: JSONObject) -> None:
            meta[DELETED] = records
            if meta.get("current") == session_id:
                del meta["current"]

        self._change_meta(change)

    def discard(self, session_id: int, revision: int, current: int | None) -> bool:
        """Take out a session that never held anything (a ``score play`` stopped before
        its first deal), if it is still the ``revision`` its maker wrote, and make
        ``current`` the current session again. No record is kept: there was nothing."""
        if session_id not in self.session_ids() or \
                self._stored_revision(session_id) != revision:
            return False
        self.opened.sessions.remove(doc_ids=[session_id])
        self._loaded.pop(session_id, None)
        if str(session_id) in self.records():
            self._keep_records({})
        remaining = self.session_ids()

        def change(meta: JSONObject) -> None:
            if meta.get("current") == session_id:
                if current is not None and current in remaining:
                    meta["current"] = current
                else:
                    del meta["current"]

        self._change_meta(change)
        return True

    def insert(self, session: Session) -> Session:
        """Store a session that arrived from elsewhere (``score sync``) under the next id,
        as :meth:`add` does, but leave the current session as it is."""
        current = self.current_id
        stored = self.add(session)
        if current is not None:
            self.set_current(current)
        else:
            self._change_meta(_forget_current)
        return stored

    def set_meta_value(self, key: str, value: Any) -> None:
        """Keep ``value`` (JSON) under ``key`` in the meta table (written only if it changed)."""
        if self._meta().get(key) != value:
            self._change_meta(lambda meta: meta.__setitem__(key, value))

    def set_meta_records(self, key: str, records: Sequence[JSONObject]) -> None:
        if self._meta().get(key) != records:
            self._change_meta(lambda meta: meta.__setitem__(key, records))

    def _change_meta(self, change: Callable[[JSONObject], None]) -> None:
        meta = self._meta()
        change(meta)
        self._put(self.opened.meta, META, META_ID, meta)

    def _put(self, table: Table, name: str, doc_id: int,
             document: Mapping[str, JSONValue]) -> None:
        if doc_id in self.opened.ids(name):
            table.update(_overwrite(document), doc_ids=[doc_id])
        else:
            table.insert(Document(document, doc_id=doc_id))

    def _store(self, session: Session) -> None:
        assert session.id is not None
        try:
            check_invariants(session)
        except ValueError as error:  # the session layer refuses such changes first
            raise EntryError(_("that change would leave the session inconsistent: {problem}")
                             .format(problem=error)) from None
        document = session.to_document()
        text = self.opened.file.vouch(session.id, document)  # checked: no re-scoring
        self._put(self.opened.sessions, SESSIONS, session.id, document)
        self._loaded[session.id] = session
        self._keep_records({str(session.id): derived.record_of(session, text)})

    def fill_records(self, limit: int) -> None:
        """Keep the record of up to ``limit`` stored sessions that have none (read,
        checked and scored here): a store written before the records catches up over its
        next writes, so that `score stats` need not re-score its old sessions."""
        records = self.records()
        missing = [session_id for session_id in self.session_ids()
                   if str(session_id) not in records]
        stored = (self.opened.transaction.read() or {}).get(SESSIONS, {})
        filled: dict[str, dict[str, str]] = {}
        for session_id in missing:  # (one whose game is missing is passed over, cheaply)
            if len(filled) >= limit:
                break
            try:
                found = self._load(session_id)
            except StoreError:  # damaged: the write's own check says so
                continue
            if isinstance(found, Session):
                filled[str(session_id)] = derived.record_of(
                    found, _text_of(stored[str(session_id)]))
        if filled:
            self._keep_records(filled)

    def _keep_records(self, changed: Mapping[str, JSONValue]) -> None:
        """Update the records of the sessions' facts in this same write (those of
        sessions no longer stored dropped)."""
        ids = {str(session_id) for session_id in self.session_ids()}
        records = {key: value for key, value in self.records().items() if key in ids}
        records.update(changed)
        self._put(self.opened.meta, META, derived.RECORD_ID, {derived.SESSIONS_KEY: records})


def _text_of(document: Any) -> bytes:
    """A session's text in the file (as read, or as it will be written)."""
    if isinstance(document, StoredDocument) and not document.parsed:
        return document.text
    return serialise(document)


class Store:
    """The store file at ``path`` (as the user named it; a symlink is followed)."""

    def __init__(self, path: Path, *, on_commit: Callable[[], None] | None = None) -> None:
        self.path = path
        self.on_commit = on_commit
        """Called when a write has ended well (even one that had nothing to change)."""

    @property
    def target(self) -> Path:
        """The real file: the store with its symlinks resolved."""
        return real_path(self.path)

    @property
    def lock_path(self) -> Path:
        return lock_path_of(self.path)

    def lease_path(self, session_id: int) -> Path:
        target = self.target
        return target.with_name(f"{target.name}.play-{session_id}.lock")

    def read(self) -> StoreView:
        """A read-only view. Needs no lock: the file is only ever replaced whole."""
        return StoreView(Opened(self.path))

    def update(self, change: Callable[[WritableStoreView], T]) -> T:
        """Apply ``change`` and save what it changed; return what it returns.

        ``change`` runs first on the file as it is, with no lock, so a refusal creates
        nothing; when it changes something, the store is locked and re-read, and if
        another command wrote in between, ``change`` runs again on the new content
        (so it must do nothing but read and change the view). Nothing is written when
        nothing changed.
        """
        opened = Opened(self.path)
        view = WritableStoreView(opened)
        result = change(view)
        if view.changed:
            opened.file.check_writable()
            opened.verify()
            view.fill_records(RECORDS_FILLED_PER_WRITE)  # before the lock is taken
            with opened.file.locked():
                if opened.file.changed_on_disk():
                    opened = Opened(self.path)
                    view = WritableStoreView(opened)
                    result = change(view)
                    if view.changed:
                        opened.verify()
                opened.commit()
        self._committed()
        return result

    @contextlib.contextmanager
    def write(self) -> Iterator[WritableStoreView]:
        """A locked read-modify-write: saved atomically at the end, not at all on error.

        The store is checked before anything is created (a damaged or read-only store is
        refused with no lock taken); nothing is written when nothing changed.
        """
        StoreFile(self.path).check_writable()
        opened = Opened(self.path)
        opened.verify()
        with opened.file.locked():
            if opened.file.changed_on_disk():
                opened = Opened(self.path)
                opened.verify()
            yield WritableStoreView(opened)
            opened.commit()
        self._committed()

    def exclusively(self, work: Callable[[StoreFile], T]) -> T:
        """Run ``work`` on the store's file holding its lock, as a write holds it (``score
        doctor --restore`` replaces the file this way); refused like a write when the
        file can't be written."""
        file = StoreFile(self.path)
        file.check_writable()
        with file.locked():
            result = work(file)
        self._committed()
        return result

    def _committed(self) -> None:
        if self.on_commit is not None:
            self.on_commit()

    def owns(self, candidate: Path) -> str | None:
        """What ``candidate`` is to this store (the store itself, a backup, its lock...),
        under any name (symlinks and hard links included); None if it is not its file."""
        target = self.target
        named = {target.name: _("the store"), self.lock_path.name: _("its lock file"),
                 f"{target.name}.entries.json": _("its players' entries")}
        named.update({path.name: _("one of its backups") for path in backup_paths(target)})
        resolved = real_path(candidate)
        same_folder = resolved.parent == target.parent
        if not same_folder:
            with contextlib.suppress(OSError):
                same_folder = os.path.samefile(resolved.parent, target.parent)
        if same_folder:
            name = resolved.name
            if name in named:
                return named[name]
            if is_temporary_of(name, target):
                return _("one of its temporary files")
            if name.startswith(f"{target.name}.replaced-"):
                return _("a copy `score doctor --restore` kept")
            if re.fullmatch(re.escape(f"{target.name}.play-") + r"[0-9]+\.lock", name):
                return _("a lock of `score play`")
        try:
            status = os.stat(candidate)
        except OSError:
            return None
        for name, what in named.items():
            with contextlib.suppress(OSError):
                if os.path.samestat(status, os.stat(target.with_name(name))):
                    return what
        return None


# ---------------------------------------------------------------------------
# One `score play` per session


class SessionLease:
    """Held by the one `score play` that drives a session, for as long as it runs.

    A lock on its own file beside the store; the operating system releases it when
    the process ends, however it ends (so a killed `play` leaves no lease held).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._descriptor: int | None = None

    def acquire(self) -> bool:
        """Take the lease; False when another process holds it."""
        for _attempt in range(100):
            try:
                descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise StoreError(_("can't create {path}: {reason}").format(
                    path=self.path, reason=error.strerror or error)) from None
            if not try_lock(descriptor):
                os.close(descriptor)
                return False
            # The holder before us removes the file as it ends: if this is that removed
            # file and not the one now at the path, the lease is not ours; take the new one.
            try:
                same = os.path.samestat(os.fstat(descriptor), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                self._descriptor = descriptor
                with contextlib.suppress(OSError):
                    os.write(descriptor, f"{os.getpid()}\n".encode())
                return True
            os.close(descriptor)
        return False

    def release(self) -> None:
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)  # while still held: nobody can take the removed file
        os.close(descriptor)  # releases the lock
