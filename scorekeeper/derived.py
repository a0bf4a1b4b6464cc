"""What the statistics read of a session, and the store's record of it.

``score stats`` reads of each session only its players and seats, whether it finished,
and for a finished one its winners, each player's place and each player's tallies summed
over its rounds (:func:`facts_of`, the JSON that :class:`scorekeeper.stats.Played`
reads). Computing them re-scores the session through its game; on a store of 1,000
sessions that was most of the command (docs/performance.md, Statistics).

So each write that stores a session keeps its facts in the store (meta document
:data:`RECORD_ID`, ``{"sessions": {id: {"game": ..., "digest": ..., "facts": ...}}}``
(the facts as their JSON text), in the same
compare-and-set write as the session) with a digest of what they were computed from:

* the session's text exactly as the file holds it (its rounds, players, options,
  roster, everything);
* the scoring code: the contents of every module of the game's table, its base's, the
  kit, the session and the cards (:func:`code_fingerprint`), so a new version of the game (or an
  edited checkout) recomputes;
* the facts themselves, so an edited record is not believed either.

A record is used only when that digest matches (:func:`facts_if_current`); a session
edited by hand, or one whose record is missing, stale or edited, is read, checked and
scored as before. A store without records (an older one) reads unchanged, and each
write (``Store.update``) gives a few of its sessions their record, before it takes the
lock (``store.RECORDS_FILLED_PER_WRITE``), so it catches up. Reading never writes;
``score doctor`` never reads the records and checks everything.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from scorekeeper.kit.rounds import JSONObject
from scorekeeper.registry import get_game, is_installed

if TYPE_CHECKING:
    from scorekeeper.session import Session

RECORD_ID = 2
"""The meta document that holds the sessions' records (document 1 is the store's own)."""
SESSIONS_KEY = "sessions"
"""Its key: session id (a string) -> {"game": ..., "digest": ..., "facts": JSON text}."""
_VERSION = b"scorekeeper facts 2\n"
"""Changes whenever :func:`facts_of`'s JSON does."""

_PACKAGE = Path(__file__).resolve().parent


def facts_of(session: Session) -> JSONObject:
    """What the statistics read of ``session`` (scored by its game), as JSON."""
    bots: dict[str, str] = {}
    if session.mode == "virtual" and session.virtual is not None:
        bots = {seat.name: seat.bot for seat in session.virtual.seats if seat.bot is not None}
    finished = session.finished
    facts: JSONObject = {
        "game": session.game, "players": list(session.players), "mode": session.mode,
        "created": session.created, "abandoned": session.abandoned, "finished": finished,
        "bots": bots, "winners": [], "places": {}, "tallies": {}}
    if finished:
        standings = session.standings
        tallies: dict[str, dict[str, int]] = {}
        for summary in standings.rounds:
            for name, counts in summary.tallies().items():
                totals = tallies.setdefault(name, {})
                for tally, value in counts.items():
                    totals[tally] = totals.get(tally, 0) + value
        facts.update(winners=list(standings.winners), places=session.placings(),
                     tallies=tallies)
    return facts


@cache
def code_fingerprint(game: str) -> bytes:
    """A digest of the code that scores ``game``'s sessions: every module in the folders
    of its table's classes (its own, its base's, the kit's), the session's, the cards'
    (hand values) and this one. (The other modules the rules import, errors and words,
    say things; they do not score.)"""
    folders = {_PACKAGE / "kit"}
    for kind in type(get_game(game)).__mro__:
        module = sys.modules.get(kind.__module__)
        where = getattr(module, "__file__", None)
        if where:
            folders.add(Path(where).resolve().parent)
    files = [_PACKAGE / "session.py", _PACKAGE / "cards.py", Path(__file__).resolve()]
    listed = [sorted(folder.glob("*.py")) for folder in sorted(folders - {_PACKAGE})]
    unread = not all(listed)  # a folder that lists nothing: a zipapp, a zipped egg
    files += [path for paths in listed for path in paths]
    digest = hashlib.sha256(_VERSION)
    for path in files:
        try:
            content = path.read_bytes()
        except OSError:
            content, unread = b"?", True
        digest.update(f"{path}\0{len(content)}\0".encode("utf-8", "surrogateescape"))
        digest.update(content)
    if unread:  # the code can't be read as files: the installed version stands for it
        from scorekeeper import version  # importlib.metadata: only for code not in files

        digest.update(version().encode("utf-8"))
    return digest.digest()


def record_digest(game: str, text: bytes, facts: str) -> str:
    """The digest a record of ``facts`` (their JSON text) about a session of ``game``
    whose text is ``text`` carries."""
    digest = hashlib.sha256(code_fingerprint(game))
    for part in (game.encode("utf-8", "surrogatepass"), text):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    digest.update(facts.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:40]


def record_of(session: Session, text: bytes) -> dict[str, str]:
    """The record of ``session`` (checked), stored as ``text``: its facts kept as their
    JSON text, so that checking the digest needs no JSON written again."""
    facts = json.dumps(facts_of(session), ensure_ascii=False, separators=(",", ":"))
    return {"game": session.game, "digest": record_digest(session.game, text, facts),
            "facts": facts}


def facts_if_current(record: object, text: bytes) -> JSONObject | None:
    """The facts of a record that is current for a session stored as ``text`` (its game
    installed, its digest matching), else None."""
    if not isinstance(record, dict):
        return None
    game, facts, digest = record.get("game"), record.get("facts"), record.get("digest")
    if not (isinstance(game, str) and isinstance(facts, str) and isinstance(digest, str)):
        return None
    if not is_installed(game):
        return None
    try:
        if record_digest(game, text, facts) != digest:
            return None
        parsed = json.loads(facts)
    except (UnicodeError, ValueError, RecursionError):  # not text we wrote
        return None
    return parsed if isinstance(parsed, dict) and parsed.get("game") == game else None
