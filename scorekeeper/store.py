"""The session store: one TinyDB JSON file that is never lost or corrupted.

* The file is TinyDB's JSON (``{"meta": {"1": ...}, "sessions": {"1": ..., ...}}``),
  written one document per line so that a write re-serialises only the sessions
  it changed and copies the others' text as it is.
* Every write replaces the whole file atomically: the new content goes to a
  temporary file beside the store's real file (a symlinked store is written
  through to its target), is fsync'ed, then ``os.replace``\\ d over it. A crash at
  any moment leaves either the old file or the new one.
* Writers hold a file lock (``<store>.lock``) for their re-read-modify-write, never
  while waiting for a person; each session carries a revision and every change
  is a compare-and-set on the revision the command read.
* The previous versions are kept as ``<store>.bak1`` (newest) to ``.bak5``; a write
  that changes nothing writes nothing and keeps them.
* Each session's text is checked (re-scored, as ``score doctor`` does) when it is
  written, and its digest is kept in ``meta``; a write re-checks only the sessions
  it touches and those whose text no longer matches its digest (edited by hand),
  so a damaged session still blocks every write while writes stay fast.
* The file carries its schema version in the ``meta`` table; older versions are
  migrated in memory on read and written back in the new version on the next
  write; a newer version is refused rather than overwritten.
* Reading never creates the file, its folder or its lock; neither does a refused write.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from filelock import FileLock, Timeout

from scorekeeper import files
from scorekeeper.errors import NewerStoreError as NewerStoreError  # re-exported
from scorekeeper.errors import StoreError as StoreError  # re-exported
from scorekeeper.files import NotARegularFile, read_regular_file
from scorekeeper.files import describe_kind as describe_kind  # re-exported
from scorekeeper.files import is_temporary_of as is_temporary_of  # re-exported
from scorekeeper.files import real_path as real_path  # re-exported
from scorekeeper.files import remove_stale_temporaries as _remove_stale_temporaries
from scorekeeper.games.common import EntryError, name_key
from scorekeeper.i18n import N_, _
from scorekeeper.session import Session

SCHEMA_VERSION = 2
"""1: the first store (sessions without history); 2: history, redo and front-end data."""
BACKUPS = 5
LOCK_TIMEOUT_SECONDS = 30.0
SESSIONS = "sessions"
META = "meta"
META_ID = 1
DEFAULT_TABLE = "_default"
TABLES = (META, SESSIONS, DEFAULT_TABLE)
CHECKED = "checked"
"""The meta key holding, for each session, the digest of the text last checked."""
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


def backup_paths(path: Path) -> list[Path]:
    return [path.with_name(f"{path.name}.bak{n}") for n in range(1, BACKUPS + 1)]


_NOT_A_REGULAR_FILE = N_("{path} is {kind}, not a scorekeeper store. Nothing was changed: use "
                         "--db or SCOREKEEPER_DB to pick a regular file")


def read_file_bytes(path: Path) -> bytes | None:
    """The bytes of the regular file ``path``, or None when there is none.

    Checked before reading: a FIFO, a device or a folder is refused (StoreError)
    instead of blocking or reading forever (the open itself does not block).
    """
    try:
        return read_regular_file(path)
    except NotARegularFile as error:
        raise StoreError(_(_NOT_A_REGULAR_FILE).format(path=path, kind=error.kind)) from None
    except OSError as error:
        raise StoreError(_("can't read {path}: {reason}").format(
            path=path, reason=error.strerror or error)) from None


# ---------------------------------------------------------------------------
# Reading and checking raw store data


def parse_store_text(text: str | bytes, path: Path) -> dict[str, dict[str, Any]]:
    """Parse and check the file's text; migrate an older schema in memory."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise StoreError(_(
                "{path} is not a scorekeeper store (not a text file). Nothing was changed: "
                "use --db or SCOREKEEPER_DB to pick another file, or move this one aside"
            ).format(path=path)) from None
    if not text.strip():
        raise StoreError(_(
            "{path} is empty, so it is not a scorekeeper store: it may have been truncated. "
            "Run `score doctor --restore` to bring back the newest good backup, "
            "or move the file aside"
        ).format(path=path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StoreError(_(
            "{path} is damaged (not valid JSON: {problem} at line {line}). "
            "Nothing was changed. Run `score doctor --restore` to bring back the newest good "
            "backup, or move the file aside"
        ).format(path=path, problem=error.msg, line=error.lineno)) from None
    except RecursionError:
        raise StoreError(_(
            "{path} is damaged (nested too deeply to be a scorekeeper store). Nothing was "
            "changed. Run `score doctor --restore` to bring back the newest good backup, or "
            "move the file aside"
        ).format(path=path)) from None
    return check_store_data(data, path)


def _foreign(path: Path) -> StoreError:
    return StoreError(_(
        "{path} is not a scorekeeper store (it holds other JSON). Nothing was changed: "
        "use --db or SCOREKEEPER_DB to pick another file, or move this one aside"
    ).format(path=path))


def _check_schema(meta_table: Any, path: Path) -> int:
    """The schema version in the meta table; refuse a newer one (whatever else the file
    holds: a newer scorekeeper may add tables) and anything that is not ours."""
    meta = meta_table.get(str(META_ID)) if isinstance(meta_table, dict) else None
    version = meta.get("schema") if isinstance(meta, dict) else None
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _foreign(path)
    if version > SCHEMA_VERSION:
        raise NewerStoreError(_(
            "{path} was written by a newer scorekeeper (store schema {version}; this one "
            "reads up to {ours}). Nothing was changed: upgrade scorekeeper "
            "(its package is cardnight-scorekeeper: pipx upgrade cardnight-scorekeeper) to use it"
        ).format(path=path, version=version, ours=SCHEMA_VERSION))
    return version


def check_store_data(data: Any, path: Path) -> dict[str, dict[str, Any]]:
    if not isinstance(data, dict):
        raise _foreign(path)
    if not data:
        return {}
    if META not in data:
        raise _foreign(path)
    _check_schema(data[META], path)
    if set(data) - set(TABLES):
        raise _foreign(path)
    for table in data.values():
        if not isinstance(table, dict) or not all(
            isinstance(doc, dict) and key.isascii() and key.isdigit() for key, doc in table.items()
        ):
            raise _foreign(path)
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


def check_session(document: Any, session_id: int) -> Session:
    """The session stored in ``document``, re-scored and checked as `score doctor` does.

    Raises (any exception) when the session is damaged.
    """
    if not isinstance(document, Mapping):
        raise ValueError(_("it is not a JSON object"))
    session = Session.from_document(document, session_id)
    _check_invariants(session)
    return session


def _check_invariants(session: Session) -> None:
    standings = session.standings
    if len({name_key(name) for name in session.players}) != len(session.players):
        raise ValueError(_("two players share a name"))
    if sorted(standings.still_in + standings.knocked_out) != sorted(session.players):
        raise ValueError(_("players in and knocked out do not add up to the players"))
    if standings.finished and not standings.winners:
        raise ValueError(_("finished without a winner"))
    running = dict.fromkeys(session.players, 0)
    for summary in standings.rounds:
        for name, points in summary["scores"].items():
            running[name] += points
    if running != standings.totals:
        raise ValueError(_("the totals are not the sum of the rounds"))


# ---------------------------------------------------------------------------
# The file's layout: one document per line
#
#   {
#   "meta": {
#   "1": {"schema": 2, "current": 1, "checked": {...}}
#   },
#   "sessions": {
#   "1": {...},
#   "2": {...}
#   }
#   }
#
# Valid JSON (TinyDB reads it as it is). A JSON text never holds a raw line break, so
# each document's text can be found, kept and copied without parsing the others.


_TABLE_LINE = re.compile(rb'"([A-Za-z_][A-Za-z0-9_]*)": \{')
_DOC_KEY = re.compile(rb'"([0-9]+)"')


def _split_layout(raw: bytes) -> dict[str, dict[str, bytes]] | None:
    """Each table's documents as their JSON text, if ``raw`` is in exactly the layout
    :func:`_render` writes; None otherwise (the file is then parsed whole)."""
    lines = raw.split(b"\n")
    if len(lines) < 3 or lines[-1] != b"" or lines[0] != b"{" or lines[-2] != b"}":
        return None
    end = len(lines) - 2  # the index of the closing "}"
    tables: dict[str, dict[str, bytes]] = {}
    index = 1
    while index < end:
        header = _TABLE_LINE.fullmatch(lines[index])
        if header is None:
            return None
        name = header[1].decode("ascii")
        if name in tables:
            return None
        documents: dict[str, bytes] = {}
        index += 1
        while True:
            if index >= end:
                return None
            line = lines[index]
            if line in (b"}", b"},"):
                if (line == b"},") != (index + 1 < end):  # a comma iff a table follows
                    return None
                index += 1
                break
            key, separator, text = line.partition(b": ")
            found = _DOC_KEY.fullmatch(key)
            if not separator or found is None:
                return None
            if lines[index + 1] not in (b"}", b"},"):  # not the table's last: a comma
                if not text.endswith(b","):
                    return None
                text = text[:-1]
            if not (text.startswith(b"{") and text.endswith(b"}")):
                return None
            doc_id = found[1].decode("ascii")
            if doc_id in documents:
                return None
            documents[doc_id] = text
            index += 1
        tables[name] = documents
    return tables


def _render(tables: Mapping[str, Mapping[str, bytes]]) -> bytes:
    lines = [b"{"]
    names = list(tables)
    for position, name in enumerate(names):
        lines.append(json.dumps(name).encode("ascii") + b": {")
        documents = tables[name]
        for number, (doc_id, text) in enumerate(documents.items(), start=1):
            comma = b"," if number < len(documents) else b""
            lines.append(b'"' + doc_id.encode("ascii") + b'": ' + text + comma)
        lines.append(b"}," if position < len(names) - 1 else b"}")
    lines.append(b"}")
    return b"\n".join(lines) + b"\n"


def _serialise(document: Mapping[str, Any]) -> bytes:
    try:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        raise EntryError(_("that text can't be stored: it is not valid Unicode")) from None


def _digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()[:32]


@dataclass
class _Document:
    """One document: its JSON text as in the file, its parsed data, or both."""

    text: bytes | None = None
    data: dict[str, Any] | None = None


@dataclass
class _Contents:
    """What the store file holds, parsed only as far as a command needs."""

    path: Path
    raw: bytes | None
    meta: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, dict[str, _Document]] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)
    """Session id -> digest of its text, for every session known to be good."""

    @classmethod
    def load(cls, raw: bytes | None, path: Path) -> _Contents:
        contents = cls(path, raw)
        if raw is None:
            return contents
        split = _split_layout(raw)
        if split is not None and set(split) <= set(TABLES) and META in split:
            meta_table: dict[str, Any] = {}
            for doc_id, text in split[META].items():
                try:
                    meta_table[doc_id] = json.loads(text)
                except (ValueError, RecursionError):
                    split = None  # damaged: parsed whole below, for its message
                    break
            if split is not None and _check_schema(meta_table, path) == SCHEMA_VERSION \
                    and all(isinstance(doc, dict) for doc in meta_table.values()):
                contents.meta = dict(meta_table[str(META_ID)])
                contents.tables = {
                    name: {doc_id: _Document(text=text) for doc_id, text in documents.items()}
                    for name, documents in split.items() if name != META
                }
                contents.tables[META] = {doc_id: _Document(data=doc) for doc_id, doc
                                         in meta_table.items() if doc_id != str(META_ID)}
                if contents._parse_default_table():
                    return contents
        contents = cls(path, raw)
        data = parse_store_text(raw, path)
        if data:
            contents.meta = dict(data[META][str(META_ID)])
            contents.tables = {
                name: {doc_id: _Document(data=doc) for doc_id, doc in table.items()
                       if not (name == META and doc_id == str(META_ID))}
                for name, table in data.items()
            }
        return contents

    def _parse_default_table(self) -> bool:
        """TinyDB's default table is not ours and never checked by a digest: parse it
        (it is normally absent) so that nothing unparsed but sessions is ever copied."""
        for document in self.tables.get(DEFAULT_TABLE, {}).values():
            try:
                document.data = json.loads(document.text or b"")
            except (ValueError, RecursionError):
                return False
            if not isinstance(document.data, dict):
                return False
            document.text = None
        return True

    @property
    def session_table(self) -> dict[str, _Document]:
        return self.tables.setdefault(SESSIONS, {})

    def session_data(self, doc_id: str) -> dict[str, Any]:
        document = self.session_table[doc_id]
        if document.data is None:
            assert document.text is not None
            try:
                data = json.loads(document.text)
            except (ValueError, RecursionError) as error:
                raise StoreError(self.damaged(doc_id, _("not valid JSON: {problem}").format(
                    problem=error))) from None
            if not isinstance(data, dict):
                raise StoreError(self.damaged(doc_id, _("not a JSON object")))
            document.data = data
        return document.data

    def damaged(self, doc_id: str, why: object) -> str:
        return _("{path}: session {id} is damaged ({why}). Nothing was changed: run "
                 "`score doctor` to check the file, `score doctor --restore` to bring back the "
                 "newest good backup").format(path=self.path, id=doc_id, why=why)

    def verify(self) -> None:
        """Every session is good: its text matches the digest of the text last checked,
        or it is checked again now (re-scored). A damaged session refuses the write."""
        checked = self.meta.get(CHECKED)
        known = checked if isinstance(checked, dict) else {}
        for doc_id, document in self.session_table.items():
            if doc_id in self.digests:
                continue
            if document.text is not None and known.get(doc_id) == _digest(document.text):
                self.digests[doc_id] = known[doc_id]
                continue
            try:
                check_session(self.session_data(doc_id), int(doc_id))
            except StoreError:
                raise
            except Exception as error:  # any failure here means damage, not a crash
                raise StoreError(self.damaged(doc_id, error)) from None
            if document.text is None:
                assert document.data is not None
                document.text = _serialise(document.data)
            self.digests[doc_id] = _digest(document.text)

    def render(self) -> bytes:
        """The file's new content (every session verified or written by this command)."""
        sessions = self.session_table
        meta = dict(self.meta)
        meta["schema"] = SCHEMA_VERSION
        meta[CHECKED] = {doc_id: self.digests[doc_id] for doc_id in _by_id(sessions)}
        tables: dict[str, dict[str, bytes]] = {META: {str(META_ID): _serialise(meta)}}
        for doc_id, document in self.tables.get(META, {}).items():
            tables[META][doc_id] = _text_of(document)
        tables[SESSIONS] = {doc_id: _text_of(sessions[doc_id]) for doc_id in _by_id(sessions)}
        if DEFAULT_TABLE in self.tables:
            table = self.tables[DEFAULT_TABLE]
            tables[DEFAULT_TABLE] = {doc_id: _text_of(table[doc_id]) for doc_id in _by_id(table)}
        return _render(tables)


def _by_id(table: Mapping[str, Any]) -> list[str]:
    return sorted(table, key=int)


def _text_of(document: _Document) -> bytes:
    if document.text is None:
        assert document.data is not None
        document.text = _serialise(document.data)
    return document.text


# ---------------------------------------------------------------------------
# Writing files


def write_atomically(path: Path, text: str | bytes, *, backups: bool = False,
                     replace: bool = True) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file
    (:func:`scorekeeper.files.write_atomically`: a symlink is written through, the
    mode kept). ``backups`` rotates the store's backups first; ``replace=False``
    refuses an existing file (FileExistsError). OSErrors propagate, with no
    temporary file left behind.
    """
    files.write_atomically(path, text, replace=replace,
                           before_replace=_rotate_backups if backups else None)


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
        write_atomically(backups[0], path.read_bytes())


# ---------------------------------------------------------------------------
# Sessions in the store


class StoreView:
    """Sessions and the current-session pointer, read from or about to be written to the file."""

    def __init__(self, contents: _Contents, path: Path) -> None:
        self.contents = contents
        self.path = path
        self._loaded: dict[int, Session] = {}

    @property
    def current_id(self) -> int | None:
        value = self.contents.meta.get("current")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def meta_records(self, key: str) -> list[dict[str, Any]]:
        """A list of records kept in the meta table (e.g. :data:`DELETED`)."""
        value = self.contents.meta.get(key)
        return [dict(item) for item in value if isinstance(item, dict)] \
            if isinstance(value, list) else []

    def deleted(self, session_id: int) -> dict[str, Any] | None:
        """The record of session ``session_id`` if ``score delete`` removed it."""
        return next((record for record in self.meta_records(DELETED)
                     if record.get("id") == session_id), None)

    def session_ids(self) -> list[int]:
        return [int(doc_id) for doc_id in _by_id(self.contents.session_table)]

    def sessions(self) -> list[Session]:
        return [self._load(session_id) for session_id in self.session_ids()]

    def _load(self, session_id: int) -> Session:
        """The stored session, checked as `score doctor` checks it; a StoreError if damaged."""
        if session_id not in self._loaded:
            doc_id = str(session_id)
            document = self.contents.session_data(doc_id)
            try:
                self._loaded[session_id] = check_session(document, session_id)
            except Exception as error:
                raise StoreError(self.contents.damaged(doc_id, error)) from None
        return self._loaded[session_id]

    def get(self, session_id: int | None = None) -> Session:
        """Session ``session_id``, or the current one."""
        wanted = self.current_id if session_id is None else session_id
        if wanted is None:
            if self.session_ids():
                raise EntryError(_("no session is current: pick one with `score use ID` "
                                   "(see `score sessions`)"))
            raise EntryError(_("there are no sessions yet: start one with `score new`"))
        if str(wanted) not in self.contents.session_table:
            known = ", ".join(str(i) for i in self.session_ids())
            if not known:
                raise EntryError(_("there is no session {id} (sessions: none yet)").format(
                    id=wanted))
            raise EntryError(_("there is no session {id} (sessions: {known})").format(
                id=wanted, known=known))
        return self._load(wanted)


class WritableStoreView(StoreView):
    """The changes of one write; saved when the write ends, not at all on error."""

    def __init__(self, contents: _Contents, path: Path) -> None:
        super().__init__(contents, path)
        self.changed = False

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
        doc_id = str(session.id)
        if doc_id not in self.contents.session_table:
            raise SessionChanged(_("session {id} is no longer in {path} (was a backup "
                                   "restored?); nothing was changed").format(
                id=session.id, path=self.path))
        # The stored session was checked when this write began (verify, or get).
        stored_revision = self.contents.session_data(doc_id).get("revision", 0)
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
        self.get(session_id)
        if self.contents.meta.get("current") != session_id:
            self.contents.meta["current"] = session_id
            self.changed = True

    def remove(self, session_id: int, record: Mapping[str, Any]) -> None:
        """Take a session out of the store, keeping ``record`` of it in the meta table."""
        doc_id = str(session_id)
        self.contents.session_table.pop(doc_id, None)
        self.contents.digests.pop(doc_id, None)
        self._loaded.pop(session_id, None)
        meta = self.contents.meta
        meta[DELETED] = [*self.meta_records(DELETED), dict(record)]
        if meta.get("current") == session_id:
            del meta["current"]
        self.changed = True

    def discard(self, session_id: int, revision: int, current: int | None) -> bool:
        """Take out a session that never held anything (a ``score play`` stopped before
        its first deal), if it is still the ``revision`` its maker wrote, and make
        ``current`` the current session again. No record is kept: there was nothing."""
        doc_id = str(session_id)
        if doc_id not in self.contents.session_table or \
                self.contents.session_data(doc_id).get("revision", 0) != revision:
            return False
        self.contents.session_table.pop(doc_id, None)
        self.contents.digests.pop(doc_id, None)
        self._loaded.pop(session_id, None)
        meta = self.contents.meta
        if meta.get("current") == session_id:
            if current is not None and str(current) in self.contents.session_table:
                meta["current"] = current
            else:
                del meta["current"]
        self.changed = True
        return True

    def set_meta_records(self, key: str, records: list[dict[str, Any]]) -> None:
        if self.contents.meta.get(key) != records:
            self.contents.meta[key] = records
            self.changed = True

    def _store(self, session: Session) -> None:
        assert session.id is not None
        try:
            _check_invariants(session)
        except ValueError as error:  # the session layer refuses such changes first
            raise EntryError(_("that change would leave the session inconsistent: {problem}")
                             .format(problem=error)) from None
        text = _serialise(session.to_document())
        doc_id = str(session.id)
        self.contents.session_table[doc_id] = _Document(text=text, data=None)
        self.contents.digests[doc_id] = _digest(text)
        self._loaded[session.id] = session
        self.changed = True


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
        target = self.target
        return target.with_name(target.name + ".lock")

    def lease_path(self, session_id: int) -> Path:
        target = self.target
        return target.with_name(f"{target.name}.play-{session_id}.lock")

    def read(self) -> StoreView:
        """A read-only view. Needs no lock: the file is only ever replaced whole."""
        return StoreView(_Contents.load(read_file_bytes(self.path), self.path), self.path)

    def update(self, change: Callable[[WritableStoreView], T]) -> T:
        """Apply ``change`` and save what it changed; return what it returns.

        ``change`` runs first on the file as it is, with no lock, so a refusal creates
        nothing; when it changes something, the store is locked and re-read, and if
        another command wrote in between, ``change`` runs again on the new content
        (so it must do nothing but read and change the view). Nothing is written when
        nothing changed.
        """
        raw = read_file_bytes(self.path)
        view = WritableStoreView(_Contents.load(raw, self.path), self.path)
        result = change(view)
        if view.changed:
            self._check_writable()
            view.contents.verify()
            with self._locked():
                again = read_file_bytes(self.path)
                if again != raw:
                    view = WritableStoreView(_Contents.load(again, self.path), self.path)
                    result = change(view)
                    if view.changed:
                        view.contents.verify()
                self._save(view)
        self._committed()
        return result

    @contextlib.contextmanager
    def write(self) -> Iterator[WritableStoreView]:
        """A locked read-modify-write: saved atomically at the end, not at all on error.

        The store is checked before anything is created (a damaged or read-only store is
        refused with no lock taken); nothing is written when nothing changed.
        """
        self._check_writable()
        raw = read_file_bytes(self.path)
        contents = _Contents.load(raw, self.path)
        contents.verify()
        with self._locked():
            again = read_file_bytes(self.path)
            if again != raw:
                contents = _Contents.load(again, self.path)
                contents.verify()
            view = WritableStoreView(contents, self.path)
            yield view
            self._save(view)
        self._committed()

    def exclusively(self, work: Callable[[], T]) -> T:
        """Run ``work`` holding the store's lock, as a write holds it (``score doctor
        --restore`` replaces the file this way); refused like a write when the file
        can't be written."""
        self._check_writable()
        with self._locked():
            result = work()
        self._committed()
        return result

    def _committed(self) -> None:
        if self.on_commit is not None:
            self.on_commit()

    def _save(self, view: WritableStoreView) -> None:
        if not view.changed:
            return
        content = view.contents.render()
        try:
            write_atomically(self.target, content, backups=True)
        except OSError as error:  # disk full, no permission...: the old file stays
            raise StoreError(_("can't write {path}: {reason}. Nothing was changed").format(
                path=self.path, reason=error.strerror or error)) from None

    def _check_writable(self) -> None:
        """Refuse a store file that can't or must not be replaced."""
        target = self.target
        try:
            status = os.stat(target)
        except FileNotFoundError:
            return
        except OSError as error:
            raise StoreError(_("can't use {path}: {reason}").format(
                path=self.path, reason=error.strerror or error)) from None
        if not stat.S_ISREG(status.st_mode):
            raise StoreError(_(_NOT_A_REGULAR_FILE).format(
                path=self.path, kind=describe_kind(status.st_mode)))
        if not status.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise StoreError(_("{path} is read-only, so nothing was changed: make it "
                               "writable (e.g. chmod u+w) to record changes").format(
                path=self.path))

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the store's lock (beside its real file); stale temporaries are removed."""
        target = self.target
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(_("can't create the folder {path}: {reason}").format(
                path=target.parent, reason=error.strerror or error)) from None
        lock_path = self.lock_path
        lock = FileLock(str(lock_path), timeout=LOCK_TIMEOUT_SECONDS)
        try:
            lock.acquire()
        except Timeout:
            raise StoreError(_(
                "another score command has held {path} for {seconds} s; try again when it "
                "has finished").format(path=lock_path,
                                        seconds=f"{LOCK_TIMEOUT_SECONDS:.0f}")) from None
        except OSError as error:  # e.g. a folder without write permission
            raise StoreError(_("can't lock {path}: {reason}. Nothing was changed").format(
                path=lock_path, reason=error.strerror or error)) from None
        try:
            _remove_stale_temporaries(target)
            yield
        finally:
            lock.release()

    def owns(self, candidate: Path) -> str | None:
        """What ``candidate`` is to this store (the store itself, a backup, its lock...),
        under any name (symlinks and hard links included); None if it is not its file."""
        target = self.target
        named = {target.name: _("the store"), self.lock_path.name: _("its lock file")}
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
            if not _try_lock(descriptor):
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


if sys.platform == "win32":  # pragma: no cover - the lease on Windows
    import msvcrt

    def _try_lock(descriptor: int) -> bool:
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(descriptor: int) -> bool:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


# ---------------------------------------------------------------------------
# Checking and restoring (score doctor)
