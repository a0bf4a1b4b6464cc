"""``score sync DIR``: one history across every device that keeps score.

DIR is a folder another engine keeps in step (Syncthing, Nextcloud, Dropbox, a share,
a USB stick), or a git working copy with a remote (then this module also commits,
pulls and pushes, through the ``git`` command). Each store writes one file of its
own, ``DIR/scorekeeper/<device>/sessions.json``, and reads everyone else's: no file
ever has two writers, so an engine never sees a conflict of its own.

The store keeps, under the meta key ``sync`` (absent until the first sync, so a store
that never synced is byte for byte what it was):

* ``device``: this store's device id (16 hex digits), the name of its folder in DIR;
* ``sessions``: for each local session id, its global identity ``uid`` (32 hex
  digits, given at its first sync), the ``digest`` of its content as last synced and
  its ``ancestors``, the digests of the versions it grew from;
* ``dropped``: the versions deleted or given up (``--keep``), on any device.

A session's *content* is its stored document without its ``revision`` (a local count
of writes); its digest is the SHA-256 of that content as sorted JSON. Merging is per
global identity, over the local versions and every device's: a version that another
one grew from gives way to it (the longer history wins), a dropped version (or one it
grew from) goes, and whatever is left is kept. Two versions left (a session changed
on two devices since they last met) are both kept, as two local sessions in conflict,
until ``--keep ID`` drops all but one. A session that arrives is re-checked by the
rules the way ``score import`` checks a file (its summary rebuilt and re-scored, a
virtual deal replayed) and must match its digest; a device's file that is damaged or
hostile is left out with one line. Every change to the store is one compare-and-set
under its lock (``Store.update``); the device's file is written atomically after it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from scorekeeper import files
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject, JSONValue
from scorekeeper.session import (
    Session,
    check_note,
    check_player_names,
    check_session_name,
    deleted_document,
    now_iso,
)
from scorekeeper.storage import check_session
from scorekeeper.store import Store, StoreView, WritableStoreView

SYNC = "sync"
"""The meta key of the sync state (see the module's docstring)."""
FOLDER = "scorekeeper"
FILE_NAME = "sessions.json"
FORMAT = "scorekeeper-sync"
VERSION = 1
MAX_DEVICE_BYTES = 64 * 2**20
MAX_ANCESTORS = 100_000
UID = re.compile(r"[0-9a-f]{32}")
DEVICE = re.compile(r"[0-9a-f]{16}")
GIT_TIMEOUT_SECONDS = 300

JSON = JSONObject


class Refused(Exception):
    """A device's file, or one version in it, that is not taken (its reason, one line)."""


# ---------------------------------------------------------------------------
# Versions and the state kept in the store


@dataclass(frozen=True)
class Version:
    """One version of a session: its identity, its digest, the digests it grew from."""

    uid: str
    digest: str
    ancestors: tuple[str, ...] = ()
    content: JSONObject | None = None
    """The session's document without its revision (None for a dropped version)."""
    local_id: int | None = None
    device: str = ""
    """The device whose file it came from ("" for this store's own)."""
    position: int = 0
    """Its place in that file (the device's order of its sessions)."""

    def grew_from(self, digest: str) -> bool:
        return digest in self.ancestors

    def as_json(self, *, with_content: bool) -> JSON:
        data: JSON = {"uid": self.uid, "digest": self.digest, "ancestors": list(self.ancestors)}
        if with_content and self.content is not None:
            data["document"] = dict(self.content)
        return data


def content_of(document: Mapping[str, JSONValue]) -> JSON:
    """A session's document without what only this store counts (its revision)."""
    return {key: value for key, value in document.items() if key != "revision"}


def digest_of(content: Mapping[str, object]) -> str:
    text = json.dumps(content, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def new_uid() -> str:
    return secrets.token_hex(16)


def new_device() -> str:
    return secrets.token_hex(8)


def _strings(value: Any, pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    if not isinstance(value, list) or len(value) > MAX_ANCESTORS or not all(
            isinstance(item, str) and pattern.fullmatch(item) for item in value):
        return None
    return tuple(value)


def _version_record(item: Any) -> Version | None:
    """A ``{"uid", "digest", "ancestors"}`` record, or None if it is not one."""
    if not isinstance(item, dict):
        return None
    uid, digest = item.get("uid"), item.get("digest")
    ancestors = _strings(item.get("ancestors", []), UID)
    if not (isinstance(uid, str) and UID.fullmatch(uid) and isinstance(digest, str)
            and UID.fullmatch(digest)) or ancestors is None:
        return None
    return Version(uid, digest, ancestors)


@dataclass
class State:
    """The sync state of one store (meta key ``sync``)."""

    device: str
    sessions: dict[int, Version] = field(default_factory=dict)
    dropped: dict[tuple[str, str], Version] = field(default_factory=dict)

    @classmethod
    def read(cls, view: StoreView) -> State | None:
        data = view.meta_value(SYNC)
        if not isinstance(data, dict) or not isinstance(data.get("device"), str):
            return None
        state = cls(data["device"])
        sessions = data.get("sessions")
        for key, item in (sessions.items() if isinstance(sessions, dict) else ()):
            record = _version_record(item)
            if record is not None and key.isdigit():
                state.sessions[int(key)] = replace(record, local_id=int(key))
        for item in data.get("dropped", []) if isinstance(data.get("dropped"), list) else ():
            record = _version_record(item)
            if record is not None:
                state.dropped[record.uid, record.digest] = record
        return state

    def as_json(self) -> JSON:
        return {
            "device": self.device,
            "sessions": {str(key): self.sessions[key].as_json(with_content=False)
                         for key in sorted(self.sessions)},
            "dropped": [self.dropped[key].as_json(with_content=False)
                        for key in sorted(self.dropped)],
        }

    def drop(self, version: Version) -> None:
        self.dropped.setdefault((version.uid, version.digest),
                                replace(version, content=None, local_id=None, device=""))

    def covered(self, version: Version) -> bool:
        """Was this version (or one it grew into) deleted or given up?"""
        if (version.uid, version.digest) in self.dropped:
            return True
        return any(gone.uid == version.uid and gone.grew_from(version.digest)
                   for gone in self.dropped.values())


def conflicts(view: StoreView) -> list[list[int]]:
    """The sessions in conflict: each group of local ids holding one global identity."""
    state = State.read(view)
    if state is None:
        return []
    present = set(view.session_ids())
    by_uid: dict[str, list[int]] = {}
    for local_id, version in state.sessions.items():
        if local_id in present:
            by_uid.setdefault(version.uid, []).append(local_id)
    return sorted(sorted(ids) for ids in by_uid.values() if len(ids) > 1)


def uid_of(view: StoreView, session_id: int) -> str | None:
    """The global identity of a session that has synced (None before its first sync)."""
    state = State.read(view)
    version = None if state is None else state.sessions.get(session_id)
    return None if version is None else version.uid


def session_with_uid(view: StoreView, uid: str) -> int | None:
    state = State.read(view)
    if state is None:
        return None
    present = set(view.session_ids())
    return next((local_id for local_id, version in sorted(state.sessions.items())
                 if version.uid == uid and local_id in present), None)


# ---------------------------------------------------------------------------
# The same night twice


def night_key(document: Mapping[str, object]) -> str | None:
    """What makes two records the same night: the game, the players and the rounds
    (None for a session with no round yet, which is no night to count twice)."""
    rounds = document.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        return None
    try:
        return json.dumps([document.get("game"), document.get("players"), rounds],
                          sort_keys=True, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        return None


def same_night(view: StoreView, session: Session) -> int | None:
    """The stored session that records the same game, players and rounds, if any."""
    key = night_key(session.to_document())
    if key is None:
        return None
    for session_id in view.session_ids():
        document = view.document(session_id)
        rounds = document.get("rounds")
        if document.get("game") == session.game and isinstance(rounds, list) \
                and len(rounds) == len(session.rounds) and night_key(document) == key:
            return session_id
    return None


def already_stored(view: StoreView, session: Session, uid: Any) -> int | None:
    """The stored session that is the night ``session`` records (an import's): the same
    global identity (``uid``, from an export of a store that synced), or the same game,
    players and rounds."""
    if isinstance(uid, str) and UID.fullmatch(uid):
        found = session_with_uid(view, uid)
        if found is not None:
            return found
    return same_night(view, session)


# ---------------------------------------------------------------------------
# Devices' files


@dataclass
class DeviceFile:
    device: str
    path: Path
    versions: list[Version]
    dropped: list[Version]


def device_folder(folder: Path) -> Path:
    return folder / FOLDER


def own_file(folder: Path, device: str) -> Path:
    return device_folder(folder) / device / FILE_NAME


def read_devices(folder: Path, own: str | None) -> tuple[list[DeviceFile], list[str]]:
    """Every other device's file in ``folder``, and a line for each one left out."""
    found: list[DeviceFile] = []
    refused: list[str] = []
    root = device_folder(folder)
    try:
        names = sorted(os.listdir(root))
    except FileNotFoundError:
        return [], []
    except OSError as error:
        raise EntryError(_("can't read {folder}: {reason}").format(
            folder=root, reason=error.strerror or error)) from None
    for name in names:
        if name == own:
            continue
        path = root / name / FILE_NAME
        if not DEVICE.fullmatch(name):
            if not name.startswith("."):
                refused.append(_("left out {path}: not a device's folder of score sync").format(
                    path=root / name))
            continue
        try:
            read = read_device_file(path, name)
        except Refused as why:
            refused.append(_("left out {path}: {reason}").format(path=path, reason=why))
            continue
        if read is not None:
            found.append(read)
    return found, refused


def _device_json(path: Path) -> Any:
    """The JSON in a device's file (None when there is no file), or Refused."""
    try:
        raw = files.read_regular_file(path, limit=MAX_DEVICE_BYTES)
    except files.NotARegularFile as error:
        raise Refused(_("it is {kind}, not a file").format(kind=error.kind)) from None
    except files.FileTooLarge:
        raise Refused(_("it is larger than {size} MiB").format(
            size=MAX_DEVICE_BYTES // 2**20)) from None
    except OSError as error:
        raise Refused(error.strerror or str(error)) from None
    if raw is None:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refused(_("it is not UTF-8 text")) from None
    except (ValueError, RecursionError):
        raise Refused(_("it is not valid JSON (damaged, or still being copied)")) from None


def read_device_file(path: Path, device: str) -> DeviceFile | None:
    """The device's file, its structure checked (each session is checked when taken)."""
    data = _device_json(path)
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Refused(_("it is not a file of score sync"))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise Refused(_("it is not a file of score sync"))
    if version > VERSION:
        raise Refused(_("it was written by a newer scorekeeper: upgrade this one"))
    if data.get("device") != device:
        raise Refused(_("it names another device"))
    sessions, dropped = data.get("sessions"), data.get("dropped", [])
    if not isinstance(sessions, list) or not isinstance(dropped, list):
        raise Refused(_("its sessions are not a list"))
    versions: list[Version] = []
    for number, item in enumerate(sessions, start=1):
        record = _version_record(item)
        document = item.get("document") if isinstance(item, dict) else None
        if record is None or not isinstance(document, dict):
            raise Refused(_("its session {number} is not a session of score sync").format(
                number=number))
        versions.append(replace(record, content=content_of(document), device=device,
                                position=number))
    gone: list[Version] = []
    for item in dropped:
        record = _version_record(item)
        if record is None:
            raise Refused(_("its list of deleted sessions is damaged"))
        gone.append(record)
    return DeviceFile(device, path, versions, gone)


def checked_session(version: Version) -> Session:
    """The session a device's version holds, re-checked as ``score import`` checks one:
    its summary rebuilt by its game and re-scored, a virtual deal replayed, its names
    checked, its content matching its digest. Refused (one line) otherwise."""
    from scorekeeper.summary import session_from_summary, summary_of  # only for arrivals

    assert version.content is not None
    try:
        session = check_session({**version.content, "revision": 0}, 1)
        check_player_names(session.players)
        check_session_name(session.name)
        check_note(session.note)
        session_from_summary(summary_of(session))
    except Exception as error:  # whatever a hostile file does, it is one line
        raise Refused(_("its session {uid} does not re-check: {reason}").format(
            uid=version.uid, reason=str(error).splitlines()[0] if str(error) else
            type(error).__name__)) from None
    if digest_of(content_of(session.to_document())) != version.digest:
        raise Refused(_("its session {uid} does not match its digest").format(uid=version.uid))
    return session.with_revision(0)


def render_device_file(device: str, versions: Iterable[Version],
                       dropped: Iterable[Version]) -> bytes:
    """This store's file: one session per line (a git diff shows which changed)."""

    def line(data: JSON) -> str:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # key order kept

    head = line({"format": FORMAT, "version": VERSION, "device": device})[:-1]
    sessions = [line(v.as_json(with_content=True)) for v in versions]  # in local id order
    gone = [line(v.as_json(with_content=False))
            for v in sorted(dropped, key=lambda v: (v.uid, v.digest))]
    return (head + ',\n"sessions":[\n' + ",\n".join(sessions) + '\n],\n"dropped":[\n'
            + ",\n".join(gone) + "\n]}\n").encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------------------
# Merging into the store


@dataclass
class Outcome:
    """What one sync did to the store, and what this device now publishes."""

    device: str = ""
    added: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    removed: list[tuple[int, str]] = field(default_factory=list)
    conflicts: list[list[int]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    published: list[Version] = field(default_factory=list)
    dropped: list[Version] = field(default_factory=list)
    sessions: int = 0
    devices: int = 0


@dataclass
class Plan:
    """For one global identity: the versions that stay, and the local ones that go."""

    keep: list[Version]
    gone: list[tuple[Version, Version | None]]
    """Each local version that goes, with the version that takes its place (None: it
    was dropped, or is a copy of one kept)."""


def _plan(versions: Sequence[Version], state: State) -> Plan:
    alive = [v for v in versions if not state.covered(v)]
    survivors: list[Version] = []
    for version in alive:
        if any(other.grew_from(version.digest) for other in alive if other is not version):
            continue
        if any(kept.digest == version.digest for kept in survivors):
            continue  # the same version twice (locals come first)
        survivors.append(version)
    gone: list[tuple[Version, Version | None]] = []
    for version in versions:
        if version.local_id is None or version in survivors:
            continue
        heir = next((s for s in survivors if s.grew_from(version.digest)), None)
        gone.append((version, heir))
    return Plan(survivors, gone)


def _local_versions(view: StoreView, state: State, uids: Callable[[], str]) -> dict[int, Version]:
    """Each local session as a version; a session changed since the last sync grows from
    the version synced then; one never synced gets its global identity."""
    present: dict[int, Version] = {}
    for session_id in view.session_ids():
        content = content_of(view.document(session_id))
        digest = digest_of(content)
        known = state.sessions.get(session_id)
        if known is None:
            present[session_id] = Version(uids(), digest, (), content, session_id)
            continue
        ancestors = known.ancestors
        if known.digest != digest and known.digest not in ancestors:
            ancestors = (*ancestors, known.digest)
        present[session_id] = Version(known.uid, digest, ancestors, content, session_id)
    for session_id, known in state.sessions.items():
        if session_id not in present:  # deleted here since the last sync
            state.drop(known)
    return present


def _unify_nights(local: dict[int, Version], remote: dict[str, list[Version]]) -> None:
    """One night recorded under two identities (imported on two devices) becomes one: the
    smaller identity's record of it. A remote identity new here whose night a local
    session records either takes that session over (its identity is the smaller: its
    versions are made to grow from the local one) or is left out (the other device
    gives way when it reads this one)."""
    new = sorted(uid for uid in remote if all(v.uid != uid for v in local.values()))
    if not new:
        return
    nights: dict[str, str] = {}
    for version in local.values():
        key = night_key(version.content or {})
        if key is not None:
            nights.setdefault(key, version.uid)
    for uid in new:
        keys = {night_key(v.content or {}) for v in remote[uid]} - {None}
        match = next((nights[key] for key in sorted(k for k in keys if k) if key in nights),
                     None)
        holders = {v.device for v in remote[uid]}
        if match is not None and any(v.device in holders for v in remote.get(match, ())):
            continue  # one device holds both: a copy made on purpose (import --again)
        if match is None:
            nights.update((key, uid) for key in keys if key)
        elif uid < match:
            taken_over = [v.digest for v in local.values() if v.uid == match]
            for session_id, version in list(local.items()):
                if version.uid == match:
                    local[session_id] = replace(version, uid=uid)
            remote[uid] = [replace(v, ancestors=(*v.ancestors, *taken_over))
                           for v in remote[uid]]
            for key, owner in list(nights.items()):
                if owner == match:
                    nights[key] = uid
        else:
            del remote[uid]


def merge(view: WritableStoreView, devices: Sequence[DeviceFile], *, device: str,
          keep: int | None = None, uids: Callable[[], str] = new_uid,
          time: str | None = None) -> Outcome:
    """Bring every device's sessions into the store (``view``); what this device
    publishes. Runs again from the start if the store changed meanwhile (Store.update)."""
    time = time or now_iso()
    base = State.read(view) or State(device)
    outcome = Outcome(device=base.device)
    local = _local_versions(view, base, uids)
    if keep is not None:
        _keep(view, base, local, keep, time, outcome)
    trusted = list(devices)
    while True:
        state = State(base.device, dict(base.sessions), dict(base.dropped))
        remote: dict[str, list[Version]] = {}
        for file in trusted:
            for gone in file.dropped:
                state.drop(gone)
            for version in file.versions:
                remote.setdefault(version.uid, []).append(version)
        merged_local = dict(local)
        _unify_nights(merged_local, remote)
        plans = _plans(merged_local, remote, state)
        checked: dict[tuple[str, str, str], Session] = {}
        bad: tuple[str, str] | None = None
        for plan in plans.values():
            for version in plan.keep:
                if version.local_id is None and bad is None:
                    try:
                        checked[version.device, version.uid, version.digest] = \
                            checked_session(version)
                    except Refused as why:
                        bad = (version.device, str(why))
        if bad is None:
            break
        path = next(file.path for file in trusted if file.device == bad[0])
        outcome.refused.append(_("left out {path}: {reason}").format(path=path, reason=bad[1]))
        trusted = [file for file in trusted if file.device != bad[0]]
    outcome.devices = len(trusted)
    _apply(view, state, plans, checked, time, outcome)
    view.set_meta_value(SYNC, state.as_json())
    outcome.dropped = list(state.dropped.values())
    outcome.conflicts = conflicts(view)
    outcome.sessions = len(view.session_ids())
    return outcome


def _plans(local: Mapping[int, Version], remote: Mapping[str, list[Version]],
           state: State) -> dict[str, Plan]:
    by_uid: dict[str, list[Version]] = {}
    for version in local.values():
        by_uid.setdefault(version.uid, []).append(version)
    for uid, versions in remote.items():
        mine = {v.digest for v in by_uid.get(uid, [])}
        for version in versions:
            if version.digest not in mine:
                by_uid.setdefault(uid, []).append(version)
                mine.add(version.digest)
    return {uid: _plan(versions, state) for uid, versions in sorted(by_uid.items())}


def _apply(view: WritableStoreView, state: State, plans: Mapping[str, Plan],
           checked: Mapping[tuple[str, str, str], Session], time: str,
           outcome: Outcome) -> None:
    state.sessions = {}
    contents: dict[int, JSONObject] = {}
    arrivals: list[Version] = []
    for plan in plans.values():
        placed: set[tuple[str, str]] = set()
        for version, heir in plan.gone:
            assert version.local_id is not None
            if heir is not None and heir.local_id is None and \
                    (heir.device, heir.digest) not in placed:
                placed.add((heir.device, heir.digest))
                session = checked[heir.device, heir.uid, heir.digest]
                stored = view.get(version.local_id)
                view.put(session.with_id(version.local_id).with_revision(stored.revision))
                _remember(state, version.local_id, heir)
                outcome.updated.append(version.local_id)
            else:
                label = view.get(version.local_id).label
                _remove(view, version.local_id, time, _(
                    "deleted on another device (score sync)") if state.covered(version)
                    else _("a copy of another session (score sync)"))
                outcome.removed.append((version.local_id, label))
        for version in plan.keep:
            if version.local_id is not None:
                _remember(state, version.local_id, version)
                if version.content is not None:
                    contents[version.local_id] = version.content
            elif (version.device, version.digest) not in placed:
                arrivals.append(version)
    # new sessions get their ids in the order they were started, as they would have here
    for version in sorted(arrivals, key=lambda v: (str((v.content or {}).get("created")),
                                                   v.device, v.position)):
        stored = view.insert(checked[version.device, version.uid, version.digest])
        assert stored.id is not None
        _remember(state, stored.id, version)
        outcome.added.append(stored.id)
    outcome.published = [
        replace(v, content=contents[i] if i in contents else content_of(view.document(i)))
        for i, v in sorted(state.sessions.items())]


def _remember(state: State, session_id: int, version: Version) -> None:
    state.sessions[session_id] = Version(version.uid, version.digest, version.ancestors,
                                         None, session_id)


def _remove(view: WritableStoreView, session_id: int, time: str, why: str) -> None:
    document = deleted_document(view.get(session_id), time, why)
    view.remove(session_id, {"id": session_id, "time": time, "label": view.get(session_id).label,
                             "document": document})


def _keep(view: WritableStoreView, state: State, local: dict[int, Version], keep: int,
          time: str, outcome: Outcome) -> None:
    """``--keep ID``: the other versions of its session are given up on every device."""
    view.get(keep)  # there is no session ...: one line
    kept = local[keep]
    others = [v for v in local.values() if v.uid == kept.uid and v.local_id != keep]
    if not others:
        raise EntryError(_("session {id} is not in conflict: `score sync --keep` picks one "
                           "of two sessions that `score sessions` marks as in conflict").format(
            id=keep))
    for other in others:
        assert other.local_id is not None
        state.drop(other)
        outcome.removed.append((other.local_id, view.get(other.local_id).label))
        _remove(view, other.local_id, time, _("given up for session {id} (score sync --keep)")
                .format(id=keep))
        del local[other.local_id]


# ---------------------------------------------------------------------------
# One whole sync


def sync(store: Store, folder: Path, *, keep: int | None = None,
         say: Callable[[str], None] = lambda _line: None) -> Outcome:
    """Sync the store with ``folder`` (and its git remote, if it is a git working copy)."""
    if not folder.is_dir():
        raise EntryError(_("{folder} is not a folder: score sync takes the folder that "
                           "Syncthing, a shared drive or git keeps in step").format(
            folder=folder))
    existing = State.read(store.read())
    device = existing.device if existing is not None else new_device()
    git = Git.of(folder)
    if git is not None:
        git.commit_own(device)
        git.pull()
    devices, refused = read_devices(folder, device)
    outcome = store.update(lambda view: merge(view, devices, device=device, keep=keep))
    outcome.refused[:0] = refused
    publish(folder, outcome)
    if git is not None and (git.commit_own(outcome.device) or git.ahead()):
        say(git.push())
    return outcome


def publish(folder: Path, outcome: Outcome) -> bool:
    """Write this device's file if it changed (atomically); whether it was written."""
    path = own_file(folder, outcome.device)
    content = render_device_file(outcome.device, outcome.published, outcome.dropped)
    with contextlib.suppress(OSError):
        if path.read_bytes() == content:
            return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomically(path, content)
    except OSError as error:
        raise EntryError(_("can't write {path}: {reason}; the store is synced, run score sync "
                           "again to publish it").format(
            path=path, reason=error.strerror or error)) from None
    return True


# ---------------------------------------------------------------------------
# git as the engine


@dataclass
class Git:
    """A git working copy with a remote: commit this device's file, pull, push."""

    folder: Path
    remote: str
    branch: str

    @classmethod
    def of(cls, folder: Path) -> Git | None:
        if not (folder / ".git").exists():
            return None
        try:
            remotes = _git(folder, "remote").stdout.split()
        except EntryError:
            return None
        if not remotes:
            return None
        remote = "origin" if "origin" in remotes else remotes[0]
        branch = _git(folder, "symbolic-ref", "--short", "HEAD").stdout.strip()
        return cls(folder, remote, branch)

    def commit_own(self, device: str) -> bool:
        own = f"{FOLDER}/{device}"
        if not (self.folder / own).exists():
            return False
        _git(self.folder, "add", "-A", "--", own)
        if _git(self.folder, "diff", "--cached", "--quiet", "--", own, check=False).returncode == 0:
            return False
        _git(self.folder, "commit", "-q", "-m", f"score sync: device {device}", "--", own,
             identity=True)
        return True

    def pull(self) -> None:
        _git(self.folder, "fetch", "-q", self.remote)
        upstream = f"{self.remote}/{self.branch}"
        if _git(self.folder, "rev-parse", "-q", "--verify", upstream, check=False).returncode:
            return  # nothing pushed yet
        if _git(self.folder, "merge", "-q", "--no-edit", upstream, check=False,
                identity=True).returncode:
            _git(self.folder, "merge", "--abort", check=False)
            raise EntryError(_("git could not merge {upstream} into {folder}: only score sync "
                               "should write in its folder; nothing was changed").format(
                upstream=upstream, folder=self.folder))

    def ahead(self) -> bool:
        upstream = f"{self.remote}/{self.branch}"
        if _git(self.folder, "rev-parse", "-q", "--verify", "HEAD", check=False).returncode:
            return False
        if _git(self.folder, "rev-parse", "-q", "--verify", upstream, check=False).returncode:
            return True
        count = _git(self.folder, "rev-list", "--count", f"{upstream}..HEAD").stdout.strip()
        return count not in ("", "0")

    def push(self) -> str:
        for _attempt in range(3):
            pushed = _git(self.folder, "push", "-q", self.remote, f"HEAD:{self.branch}",
                          check=False)
            if pushed.returncode == 0:
                return _("Pushed to {remote} ({branch}).").format(remote=self.remote,
                                                                  branch=self.branch)
            self.pull()  # another device pushed first: its file merges beside ours
        raise EntryError(_("git push to {remote} failed: {reason}; the store is synced, run "
                           "score sync again").format(
            remote=self.remote, reason=_first_line(pushed.stderr)))


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _git(folder: Path, *args: str, check: bool = True,
         identity: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    command = ["git", "-C", str(folder)]
    if identity and not _configured(folder):
        command += ["-c", "user.name=scorekeeper", "-c", "user.email=scorekeeper@localhost"]
    try:
        done = subprocess.run([*command, *args], capture_output=True, text=True, env=env,
                              stdin=subprocess.DEVNULL, timeout=GIT_TIMEOUT_SECONDS,
                              check=False)
    except FileNotFoundError:
        raise EntryError(_("{folder} is a git working copy, and git is not installed").format(
            folder=folder)) from None
    except subprocess.TimeoutExpired:
        raise EntryError(_("git {command} took longer than {seconds} s; nothing more was "
                           "done: run score sync again").format(
            command=args[0], seconds=GIT_TIMEOUT_SECONDS)) from None
    if check and done.returncode:
        raise EntryError(_("git {command} failed in {folder}: {reason}").format(
            command=args[0], folder=folder, reason=_first_line(done.stderr) or done.returncode))
    return done


def _configured(folder: Path) -> bool:
    found = subprocess.run(["git", "-C", str(folder), "config", "user.email"],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL,
                           check=False)
    return bool(found.stdout.strip())
