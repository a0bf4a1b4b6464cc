"""The players' own entries for the deal being played at a table (``score serve --entry``),
kept until ``score add-round`` records the deal.

They live in a small JSON file beside the store, ``<store>.entries.json``, not in the
store: a player changing their entry five times must not rotate the store's five backups
away, and the store keeps only what was recorded. The file follows the store's rules:

* it is written only under the store's lock (``<store>.lock``), atomically (a temporary
  file renamed over it), by a compare-and-set: an entry is taken only if the session is
  still at the revision the player's page showed;
* each session's entries carry the session's revision when they were made: any change
  to the session (the deal recorded, an undo, an edit) makes them stale, so they are
  never used or shown again, and the next write drops them;
* ``add-round`` reads them under the same lock it records the round with, so the round
  is exactly the entries as they were then; a refused ``add-round`` changes neither file.

The lock is held for a read and a write of small files, never while a person types.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from scorekeeper.errors import StoreError
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryValue
from scorekeeper.kit.rounds import JSONObject, JSONValue
from scorekeeper.session import Session
from scorekeeper.store import Store, real_path, write_atomically

FORMAT = "scorekeeper-entries"
VERSION = 1
MAX_FILE_BYTES = 1024 * 1024
"""A store's entries are a few hundred bytes; a bigger file is not one of ours."""


def entries_path(store_path: Path) -> Path:
    """The entries file beside the store's real file (a symlinked store's target)."""
    target = real_path(store_path)
    return target.with_name(f"{target.name}.entries.json")  # (Store.owns knows the name)


@dataclass(frozen=True)
class DealEntries:
    """One session's entries for its next deal: each player's fields, as entered."""

    session_id: int
    revision: int
    entries: dict[str, dict[str, EntryValue]] = field(default_factory=dict)

    def of(self, player: str) -> dict[str, EntryValue] | None:
        return self.entries.get(player)

    @property
    def players(self) -> list[str]:
        return list(self.entries)


def _damaged(path: Path, why: str) -> StoreError:
    return StoreError(_("the players' entries in {path} can't be read ({why}): delete that "
                        "file and the players enter again").format(path=path, why=why))


def _read_all(path: Path) -> JSONObject:
    """Every session's entries in the file (``{}`` when there is none)."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise _damaged(path, str(error.strerror or error)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise _damaged(path, _("it is too large"))
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise _damaged(path, str(error)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("sessions"), dict):
        raise _damaged(path, _("it is not a file of scorekeeper's entries"))
    return dict(data["sessions"])


def _entries_of(sessions: Mapping[str, JSONValue], session: Session) -> dict[str, JSONObject]:
    """The entries of ``session`` still current (made at its present revision)."""
    found = sessions.get(str(session.id))
    if not isinstance(found, dict) or found.get("revision") != session.revision:
        return {}
    entries = found.get("entries")
    if not isinstance(entries, dict):
        return {}
    return {name: dict(fields) for name, fields in entries.items()
            if name in session.players and isinstance(fields, dict)}


def read(store_path: Path, session: Session) -> DealEntries:
    """``session``'s current entries (none when the file or its part is missing or stale).

    Read without the lock by the pages (the file is only ever replaced whole); read under
    it by ``add-round``, which records the round in the same hold."""
    assert session.id is not None
    entries = _entries_of(_read_all(entries_path(store_path)), session)
    return DealEntries(session.id, session.revision, _strip(entries))


def _write(path: Path, sessions: Mapping[str, JSONValue]) -> None:
    data = {"format": FORMAT, "version": VERSION, "sessions": dict(sessions)}
    try:
        write_atomically(path, json.dumps(data, ensure_ascii=False, sort_keys=True,
                                          indent=1) + "\n")
    except OSError as error:
        raise StoreError(_("can't write {path}: {reason}; the entry was not taken").format(
            path=path, reason=error.strerror or error)) from None


def _current(store: Store, session_id: int) -> Session:
    return store.read().get(session_id)


class StaleEntry(StoreError):
    """The session changed (the deal was recorded) since the page showed it."""


def put(store_path: Path, session_id: int, revision: int, player: str,
        fields: Mapping[str, EntryValue], *, now: datetime | None = None) -> DealEntries:
    """Take ``player``'s entry for the deal of session ``session_id`` at ``revision``:
    under the store's lock, only if the session is still at that revision (else
    :class:`StaleEntry`); stale entries of any session are dropped in the same write.
    Empty ``fields`` take the player's entry back."""
    store = Store(store_path)
    path = entries_path(store_path)

    def work(_file: object) -> DealEntries:
        session = _current(store, session_id)
        if session.revision != revision:
            raise StaleEntry(_("the deal was recorded (or the session changed) meanwhile"))
        sessions = _pruned(store, _read_all(path))
        entries = _entries_of(sessions, session)
        if fields:
            stamp = (now or datetime.now(UTC)).isoformat(timespec="seconds")
            entries[player] = {**fields, "at": stamp}
        else:
            entries.pop(player, None)
        if entries:
            sessions[str(session_id)] = {"revision": revision, "entries": entries}
        else:
            sessions.pop(str(session_id), None)
        _write(path, sessions)
        return DealEntries(session_id, revision, _strip(entries))

    return store.exclusively(work)


def _strip(entries: Mapping[str, Mapping[str, JSONValue]]) -> dict[str, dict[str, EntryValue]]:
    """The fields the players entered, without the file's own keys (the time); a value
    no field takes (the file edited by hand) is left out."""
    return {name: {key: value for key, value in fields.items()
                   if key != "at" and (value is None or isinstance(value, str | int | bool))}
            for name, fields in entries.items()}


def _pruned(store: Store, sessions: Mapping[str, JSONValue]) -> JSONObject:
    """The file's sessions whose entries are still current (the others are dropped)."""
    try:
        view = store.read()
        kept: JSONObject = {}
        for key, value in sessions.items():
            if not key.isdigit() or int(key) not in view.session_ids():
                continue
            if isinstance(value, dict) and \
                    value.get("revision") == view.get(int(key)).revision:
                kept[key] = value
        return kept
    except StoreError:
        return dict(sessions)


def taken(store_path: Path, session: Session) -> dict[str, dict[str, EntryValue]]:
    """``session``'s current entries as its deal's fields (under the lock: add-round)."""
    return read(store_path, session).entries


def drop_stale(store_path: Path) -> None:
    """Drop the entries no longer current (after ``add-round`` recorded a deal: its
    entries were made at the revision before). Under the store's lock; nothing is written
    when nothing is stale or there is no file."""
    path = entries_path(store_path)
    if not path.exists():
        return
    store = Store(store_path)

    def work(_file: object) -> None:
        sessions = _read_all(path)
        kept = _pruned(store, sessions)
        if kept != sessions:
            if kept:
                _write(path, kept)
            else:
                path.unlink(missing_ok=True)

    store.exclusively(work)
