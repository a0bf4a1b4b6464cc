"""The store's file, as a TinyDB storage: the one place that reads or writes its format.

TinyDB (:class:`tinydb.TinyDB`, :class:`~tinydb.table.Table`, :class:`~tinydb.table.Document`)
gives the store its tables of documents, keyed by integer ids, and their operations
(``get``, ``insert``, ``update``, ``remove``...). TinyDB reads and writes through a
:class:`tinydb.storages.Storage`, the whole database at a time. What TinyDB's own
``JSONStorage`` lacks, this module's storage adds:

* :class:`StoreFile` (a ``Storage``) owns the file. ``read`` refuses what is not a
  scorekeeper store (a FIFO, a device or a folder, a damaged, foreign or newer file),
  migrates an older schema in memory, and hands TinyDB each session as a
  :class:`StoredDocument`: a mapping that keeps its line of the file and is parsed only
  when TinyDB or the store touches it. ``write`` copies the line of every document
  never parsed as it is, re-serialises only the others, keeps the schema version and
  each checked session's digest in the meta table, and replaces the file atomically
  (a temporary file beside the real file, a symlink written through, fsync, the five
  backups rotated, ``os.replace``) while this process holds the store's lock.
* :class:`Transaction` (a ``Middleware``) reads the file once and writes it at most
  once: every TinyDB operation of one command works on the same snapshot, and
  :meth:`Transaction.commit` makes them one atomic file write (nothing, if nothing
  changed; nothing, if the command fails before).

The file is TinyDB's JSON, written one document per line so that a write copies the
others' text::

    {
    "meta": {
    "1": {"schema":2,"checked":{...},"current":1}
    },
    "sessions": {
    "1": {...},
    "2": {...}
    }
    }

TinyDB's default ``JSONStorage`` reads it as it is, and a file TinyDB wrote (any
indentation) is read too (parsed whole, then checked session by session).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb.middlewares import Middleware
from tinydb.storages import Storage

from scorekeeper import files
from scorekeeper.errors import NewerStoreError, StoreError
from scorekeeper.files import NotARegularFile, holding_lock, read_regular_file
from scorekeeper.files import describe_kind as describe_kind  # re-exported
from scorekeeper.files import is_temporary_of as is_temporary_of  # re-exported
from scorekeeper.files import real_path as real_path  # re-exported
from scorekeeper.i18n import N_, _
from scorekeeper.kit.entries import EntryError, name_key
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.registry import GameMissing
from scorekeeper.session import Session

if TYPE_CHECKING:
    from scorekeeper.unavailable import UnavailableSession

SCHEMA_VERSION = 2
"""1: the first store (sessions without history); 2: history, redo and front-end data."""
BACKUPS = 5
LOCK_TIMEOUT_SECONDS = 30.0
SESSIONS = "sessions"
META = "meta"
META_ID = 1
DEFAULT_TABLE = "_default"
TABLES = (META, SESSIONS, DEFAULT_TABLE)
SCHEMA = "schema"
"""The meta key holding the store's schema version (the storage's own)."""
CHECKED = "checked"
"""The meta key holding, for each session, the digest of the text last checked (the
storage's own)."""

Tables = dict[str, dict[str, Any]]
"""What a TinyDB storage reads and writes: table name -> document id -> document."""

class UnreadableFile(StoreError):
    """The store's file can't be read at all (not its content: the file)."""


_HELD: set[Path] = set()
"""The store locks this process holds (by lock file): a write needs its store's."""


# ---------------------------------------------------------------------------
# Files


def backup_paths(path: Path) -> list[Path]:
    return [path.with_name(f"{path.name}.bak{n}") for n in range(1, BACKUPS + 1)]


def lock_path_of(path: Path) -> Path:
    target = real_path(path)
    return target.with_name(target.name + ".lock")


NOT_A_REGULAR_FILE = N_("{path} is {kind}, not a scorekeeper store. Nothing was changed: use "
                        "--db or SCOREKEEPER_DB to pick a regular file")


def read_file_bytes(path: Path) -> bytes | None:
    """The bytes of the regular file ``path``, or None when there is none.

    Checked before reading (:func:`scorekeeper.files.read_regular_file`): a FIFO, a
    device or a folder is refused (UnreadableFile) instead of blocking or reading forever.
    """
    try:
        return read_regular_file(path)
    except NotARegularFile as error:
        raise UnreadableFile(_(NOT_A_REGULAR_FILE).format(path=path, kind=error.kind)) from None
    except OSError as error:
        raise UnreadableFile(_("can't read {path}: {reason}").format(
            path=path, reason=error.strerror or error)) from None


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
# Checking what the file holds


def damaged_message(path: Path, doc_id: str, why: object) -> str:
    return _("{path}: session {id} is damaged ({why}). Nothing was changed: run "
             "`score doctor` to check the file, `score doctor --restore` to bring back the "
             "newest good backup").format(path=path, id=doc_id, why=why)


def check_session(document: Any, session_id: int) -> Session:
    """The session stored in ``document``, re-scored and checked as `score doctor` does.

    Raises :class:`~scorekeeper.registry.GameMissing` when its game is not installed
    (see :func:`check_stored`), any other exception when the session is damaged.
    """
    if not isinstance(document, Mapping):
        raise ValueError(_("it is not a JSON object"))
    session = Session.from_document(document, session_id)
    check_invariants(session)
    return session


def check_stored(document: Any, session_id: int) -> Session | UnavailableSession:
    """The session stored in ``document``, checked; a session whose game is not installed
    is an :class:`UnavailableSession` (its readable part checked), never damage. Raises
    (any exception) when the session is damaged."""
    try:
        return check_session(document, session_id)
    except GameMissing as missing:
        from scorekeeper.unavailable import UnavailableSession  # only for such a session

        return UnavailableSession.from_document(document, session_id, str(missing))


def check_invariants(session: Session) -> None:
    standings = session.standings
    if len({name_key(name) for name in session.players}) != len(session.players):
        raise ValueError(_("two players share a name"))
    if sorted(standings.still_in + standings.knocked_out + standings.left) \
            != sorted(session.players):
        raise ValueError(_("players in and knocked out do not add up to the players"))
    if standings.finished and not standings.winners:
        raise ValueError(_("finished without a winner"))
    running = {name: standings.starting.get(name, 0) for name in session.players}
    for summary in standings.rounds:
        for name, points in summary.scores.items():
            running[name] += points
    if running != standings.totals:
        raise ValueError(_("the totals are not the sum of the rounds"))


def parse_store_text(text: str | bytes, path: Path) -> Tables:
    """Parse and check the file's whole text; migrate an older schema in memory."""
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
    version = meta.get(SCHEMA) if isinstance(meta, dict) else None
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _foreign(path)
    if version > SCHEMA_VERSION:
        raise NewerStoreError(_(
            "{path} was written by a newer scorekeeper (store schema {version}; this one "
            "reads up to {ours}). Nothing was changed: upgrade scorekeeper "
            "(its package is cardnight-scorekeeper: pipx upgrade cardnight-scorekeeper) to use it"
        ).format(path=path, version=version, ours=SCHEMA_VERSION))
    return version


def _is_document_id(key: str) -> bool:
    """A document id as TinyDB writes one: an integer in its one decimal spelling (TinyDB
    turns ids into ``int`` and back, so "01" beside "1" would lose a document)."""
    return key.isascii() and key.isdigit() and str(int(key)) == key


def check_store_data(data: Any, path: Path) -> Tables:
    """The parsed file as a store's tables (migrated to this schema), or a StoreError."""
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
            isinstance(doc, dict) and _is_document_id(key) for key, doc in table.items()
        ):
            raise _foreign(path)
    return migrate(data)


def migrate(data: Tables) -> Tables:
    """Bring store data of any older schema up to :data:`SCHEMA_VERSION`."""
    meta = data[META][str(META_ID)]
    if meta[SCHEMA] == 1:
        for document in data.get(SESSIONS, {}).values():
            document.setdefault("undone", [])
            document.setdefault("extra", {})
            document.setdefault(
                "history",
                [{"time": document.get("created", ""), "change": "new",
                  "detail": "created before history was kept"}],
            )
        meta[SCHEMA] = 2
    return data


# ---------------------------------------------------------------------------
# The file's layout: one document per line (see the module's docstring)
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


def serialise(document: Mapping[str, object]) -> bytes:
    """A document's text in the file (compact JSON, UTF-8)."""
    if not isinstance(document, dict):
        document = dict(document)  # a StoredDocument, parsed: json serialises dicts
    try:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        raise EntryError(_("that text can't be stored: it is not valid Unicode")) from None


def _digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()[:32]


def _meta_text(document: Mapping[str, object]) -> bytes:
    """A meta document's text: an unparsed one's as read (once it is known to be JSON)."""
    if isinstance(document, StoredDocument) and not document.parsed:
        document.peek()  # a damaged one is refused, never copied
        return document.text
    return serialise(document)


def _by_id(table: Mapping[str, object]) -> list[str]:
    return sorted(table, key=int)


# ---------------------------------------------------------------------------
# The storage


class StoredDocument(MutableMapping[str, Any]):
    """A session as the file holds it: its line's JSON text, parsed on first access.

    TinyDB copies a document it returns (``Document(...)``) and updates the stored one
    in place (``Table.update``); either parses it. A document never parsed cannot have
    changed, so :meth:`StoreFile.write` copies its text as it is; a parsed one is
    serialised again.
    """

    __slots__ = ("_damaged", "_data", "digest", "text")

    def __init__(self, text: bytes, damaged: Callable[[object], StoreError]) -> None:
        self.text = text
        """The document's JSON text as read from the file."""
        self.digest: str | None = None
        """The digest of :attr:`text`, once the text is known to be a good session."""
        self._data: JSONObject | None = None
        self._damaged = damaged

    @property
    def parsed(self) -> bool:
        return self._data is not None

    def peek(self) -> JSONObject:
        """The document parsed, without marking it parsed (it still copies as it is)."""
        try:
            data = json.loads(self.text)
        except (ValueError, RecursionError) as error:
            raise self._damaged(_("not valid JSON: {problem}").format(problem=error)) from None
        if not isinstance(data, dict):
            raise self._damaged(_("not a JSON object"))
        return data

    def _parsed(self) -> JSONObject:
        if self._data is None:
            self._data = self.peek()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._parsed()[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._parsed()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._parsed()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._parsed())

    def __len__(self) -> int:
        return len(self._parsed())

    def clear(self) -> None:
        self._data = {}  # replaced whole: no need to parse the old text first

    def __repr__(self) -> str:
        state = "parsed" if self.parsed else f"{len(self.text)} bytes unparsed"
        return f"<StoredDocument {state}>"


class StoreFile(Storage):
    """TinyDB's storage for the store file at ``path`` (as the user named it).

    ``TinyDB(path, storage=Transaction(StoreFile))`` opens it; see the module's docstring
    for what ``read`` and ``write`` promise. ``whole=True`` parses every document at once
    (``score doctor``, which re-scores everything anyway).
    """

    def __init__(self, path: str | Path, *, whole: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        self.whole = whole
        self.raw: bytes | None = None
        """The file's bytes as last read (None: there was no file)."""
        self._checked: dict[str, str] = {}
        """The file's own record: session id -> digest of the text last checked."""
        self._good: set[tuple[str, str]] = set()
        """(session id, digest) of the texts this process checked or wrote."""
        self._unchecked: set[str] = set()
        """The sessions whose game is not installed, so that they could not be re-scored:
        copied as they are, their digest in the file's record left as it was."""

    # -- where the files are

    @property
    def target(self) -> Path:
        """The real file: the store with its symlinks resolved."""
        return real_path(self.path)

    @property
    def lock_path(self) -> Path:
        return lock_path_of(self.path)

    # -- reading

    def read(self) -> Tables | None:
        raw = read_file_bytes(self.path)
        self.raw = raw
        return None if raw is None else self.load(raw)

    def load(self, raw: bytes) -> Tables | None:
        """The tables of a file whose bytes are ``raw`` (as :meth:`read` gives them)."""
        tables = None if self.whole else self._read_lines(raw)
        if tables is None:
            tables = parse_store_text(raw, self.path)
        if not tables:
            return None
        meta = tables[META][str(META_ID)]
        meta.pop(SCHEMA, None)
        checked = meta.pop(CHECKED, None)
        self._checked = {key: value for key, value in checked.items()
                         if isinstance(value, str)} if isinstance(checked, dict) else {}
        return tables

    def _read_lines(self, raw: bytes) -> Tables | None:
        """The tables of a file in the one-document-per-line layout and this schema, each
        session left unparsed; None for any other file (parsed whole instead)."""
        split = _split_layout(raw)
        if split is None or not set(split) <= set(TABLES) or META not in split or \
                not all(_is_document_id(key) for table in split.values() for key in table):
            return None
        parsed: Tables = {}
        for name in (META, DEFAULT_TABLE):
            if name in split:
                parsed[name] = {}
                for doc_id, text in split[name].items():
                    if name == META and doc_id != str(META_ID):  # a record (derived.py)
                        parsed[name][doc_id] = StoredDocument(text, self._damaged(doc_id))
                        continue
                    try:
                        document = json.loads(text)
                    except (ValueError, RecursionError):
                        return None  # damaged: parsed whole, for its message
                    if not isinstance(document, dict):
                        return None
                    parsed[name][doc_id] = document
        if _check_schema(parsed[META], self.path) != SCHEMA_VERSION:
            return None  # an older schema: parsed whole and migrated
        tables: Tables = {META: parsed[META]}
        if SESSIONS in split:
            tables[SESSIONS] = {doc_id: StoredDocument(text, self._damaged(doc_id))
                                for doc_id, text in split[SESSIONS].items()}
        if DEFAULT_TABLE in parsed:
            tables[DEFAULT_TABLE] = parsed[DEFAULT_TABLE]
        return tables

    def _damaged(self, doc_id: str) -> Callable[[object], StoreError]:
        return lambda why: StoreError(damaged_message(self.path, doc_id, why))

    def changed_on_disk(self) -> bool:
        """Whether the file is no longer what :meth:`read` read (another command wrote)."""
        return read_file_bytes(self.path) != self.raw

    # -- checking

    def verify(self, data: Tables | None) -> None:
        """Every session is good: its text matches the digest of the text last checked,
        or it is checked again now (re-scored). A StoreError names a damaged session."""
        self._texts(data)

    def vouch(self, doc_id: int, document: Mapping[str, object]) -> bytes:
        """``document`` is a session the store checked as it stored it under ``doc_id``
        (so a write need not re-score it); its text in the file. An EntryError if it
        can't be stored."""
        text = serialise(document)
        self._good.add((str(doc_id), _digest(text)))
        return text

    def _texts(self, data: Tables | None) -> dict[str, tuple[bytes, str]]:
        """Each session's text and digest, every one checked."""
        sessions = (data or {}).get(SESSIONS, {})
        return {doc_id: self._text(doc_id, sessions[doc_id]) for doc_id in _by_id(sessions)}

    def _text(self, doc_id: str, document: Any) -> tuple[bytes, str]:
        if isinstance(document, StoredDocument) and not document.parsed:
            if document.digest is None:
                digest = _digest(document.text)
                if not self._known(doc_id, digest):
                    self._check(doc_id, document.peek())
                document.digest = digest
            return document.text, document.digest
        if not isinstance(document, Mapping):
            raise StoreError(damaged_message(self.path, doc_id, _("it is not a JSON object")))
        text = serialise(document)
        digest = _digest(text)
        if not self._known(doc_id, digest):
            self._check(doc_id, document)
        return text, digest

    def _known(self, doc_id: str, digest: str) -> bool:
        return self._checked.get(doc_id) == digest or (doc_id, digest) in self._good

    def _check(self, doc_id: str, document: Mapping[str, object]) -> None:
        try:
            if not isinstance(check_stored(document, int(doc_id)), Session):  # unavailable
                self._unchecked.add(doc_id)
        except StoreError:
            raise
        except Exception as error:  # any failure here means damage, not a crash
            raise StoreError(damaged_message(self.path, doc_id, error)) from None

    # -- writing

    def render(self, data: Tables | None) -> bytes:
        """The file's content for ``data`` (every session checked)."""
        data = data or {}
        unknown = set(data) - set(TABLES)
        if unknown:
            raise ValueError(f"the store has no table {sorted(unknown)}")
        texts = self._texts(data)
        meta_table = data.get(META, {})
        checked = {doc_id: self._checked.get(doc_id) if doc_id in self._unchecked
                   else texts[doc_id][1] for doc_id in texts}
        meta = {SCHEMA: SCHEMA_VERSION, CHECKED: {doc_id: digest for doc_id, digest
                                                  in checked.items() if digest is not None}}
        meta.update((key, value) for key, value in meta_table.get(str(META_ID), {}).items()
                    if key not in (SCHEMA, CHECKED))
        tables: dict[str, dict[str, bytes]] = {META: {str(META_ID): serialise(meta)}}
        for doc_id, document in meta_table.items():
            if doc_id != str(META_ID):
                tables[META][doc_id] = _meta_text(document)
        tables[SESSIONS] = {doc_id: text for doc_id, (text, _digest) in texts.items()}
        if DEFAULT_TABLE in data:
            table = data[DEFAULT_TABLE]
            tables[DEFAULT_TABLE] = {doc_id: serialise(table[doc_id]) for doc_id in _by_id(table)}
        return _render(tables)

    def write(self, data: Tables) -> None:
        """Replace the file with ``data``, atomically, the old file becoming ``.bak1``.

        Only under the store's lock (:meth:`locked`), which the caller took before it
        read what it changes."""
        if self.lock_path not in _HELD:
            raise RuntimeError(f"{self.path} is written without its lock")
        content = self.render(data)
        try:
            write_atomically(self.target, content, backups=True)
        except OSError as error:  # disk full, no permission...: the old file stays
            raise StoreError(_("can't write {path}: {reason}. Nothing was changed").format(
                path=self.path, reason=error.strerror or error)) from None
        self.raw = content

    def restore(self, backup: Path) -> Path | None:
        """Put the file ``backup`` in place of the store (under the lock), keeping the
        replaced store aside; return where it was kept. OSErrors propagate, changing
        nothing."""
        if self.lock_path not in _HELD:
            raise RuntimeError(f"{self.path} is restored without its lock")
        content = read_file_bytes(backup)
        if content is None:
            raise StoreError(_("{path} disappeared; nothing was changed").format(path=backup))
        target = self.target
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
        return kept

    def check_writable(self) -> None:
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
            raise StoreError(_(NOT_A_REGULAR_FILE).format(
                path=self.path, kind=describe_kind(status.st_mode)))
        if not status.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise StoreError(_("{path} is read-only, so nothing was changed: make it "
                               "writable (e.g. chmod u+w) to record changes").format(
                path=self.path))

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock (beside its real file); stale temporaries are removed."""
        lock_path = self.lock_path
        with holding_lock(self.target, lock_path, timeout=LOCK_TIMEOUT_SECONDS,
                          refuse=StoreError):
            _HELD.add(lock_path)
            try:
                yield
            finally:
                _HELD.discard(lock_path)


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


class Transaction(Middleware):
    """TinyDB middleware: one read of the file, at most one write, on :meth:`commit`.

    TinyDB reads the whole storage before each table operation and writes it after each
    change; here every operation of one command sees the same snapshot and the changes
    stay in memory until :meth:`commit` hands them to the storage in one write. Closing
    without a commit drops them (unlike TinyDB's ``CachingMiddleware``, which flushes).
    """

    def __init__(self, storage_cls: Callable[..., Storage] = StoreFile) -> None:
        super().__init__(storage_cls)
        self._data: Tables | None = None
        self._read = False
        self.dirty = False
        """Whether an operation has changed the snapshot since it was read."""

    def read(self) -> Tables | None:
        if not self._read:
            self._data = self.storage.read()
            self._read = True
        return self._data

    def write(self, data: Tables) -> None:
        self._data = data
        self._read = True
        self.dirty = True

    def document_ids(self, table: str) -> list[int]:
        """The ids of ``table``'s documents, parsing none of them (TinyDB's ``Table`` has no
        call for this that does not copy every document)."""
        return [int(doc_id) for doc_id in _by_id((self.read() or {}).get(table, {}))]

    def commit(self) -> None:
        """Write the changes, if any, to the storage (one atomic file write)."""
        if self.dirty:
            self.storage.write(self._data or {})
            self.dirty = False

    def close(self) -> None:
        self.storage.close()
