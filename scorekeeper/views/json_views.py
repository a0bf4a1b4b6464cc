"""``--json`` for the reading commands: the same information as their tables, as one
JSON object with stable keys (documented in docs/commands.md; keys may be added, never
renamed or dropped). Names and times are given as stored: times in ISO 8601.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scorekeeper.doctor import Health
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.ranking import counts_to_limit, left_after, ranked_players, target_line
from scorekeeper.session import Session
from scorekeeper.summary import summary_of
from scorekeeper.unavailable import UnavailableSession


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def session_entry(session: Session, current: int | None) -> JSONObject:
    """One session as ``score sessions --json`` lists it."""
    entry: JSONObject = {"id": session.id, "name": session.name, "label": session.label,
                       "game": session.game, "mode": session.mode,
                       "players": list(session.players), "rounds": len(session.rounds),
                       "created": session.created, "current": session.id == current}
    try:
        entry |= {"status": session.status, "leader": session.leader()}
    except Exception as error:  # a damaged session must not hide the others
        entry |= {"status": "damaged", "leader": [], "problem": str(error)}
    return entry


def unavailable_entry(session: UnavailableSession, current: int | None) -> JSONObject:
    """A session whose game is not installed, as ``score sessions --json`` lists it: status
    ``unavailable`` and the one line that says what to do."""
    return {"id": session.id, "name": session.name, "label": session.label,
            "game": session.game, "mode": session.mode, "players": list(session.players),
            "rounds": session.rounds, "created": session.created,
            "current": session.id == current, "status": "unavailable", "leader": [],
            "problem": session.problem}


def session_entries(sessions: Sequence[Session], current: int | None,
                    unavailable: Sequence[UnavailableSession] = ()) -> list[JSONObject]:
    """Every session as ``score sessions --json`` lists it, by id."""
    entries = [(session.id or 0, session_entry(session, current)) for session in sessions] + \
        [(session.id, unavailable_entry(session, current)) for session in unavailable]
    entries.sort(key=lambda pair: pair[0])
    return [entry for _, entry in entries]


def sessions_json(sessions: Sequence[Session], current: int | None,
                  unavailable: Sequence[UnavailableSession] = ()) -> JSONObject:
    return {"current": current, "sessions": session_entries(sessions, current, unavailable)}


def standings_json(session: Session) -> list[JSONObject]:
    """Each player, best place first: place, total, what is left, status."""
    standings = session.standings
    target = target_line(session)
    out_in = {name: summary.number for summary in standings.rounds
              for name in summary.knocked_out}
    rows: list[JSONObject] = []
    for place, name in ranked_players(session):
        total = standings.totals[name]
        if name in standings.winners:
            status = "winner"
        elif name in out_in:
            status = "knocked out"
        elif name in standings.left:
            status = "left"
        else:
            status = "finished" if standings.finished else "in"
        if target is None:  # a game played for its deals: nothing to reach
            margin = None
        elif counts_to_limit(session):
            margin = target - total if name in standings.still_in else None
        else:
            margin = None if name in standings.left else max(target - total, 0)
        rows.append({"place": place, "player": name, "total": total, "margin": margin,
                     "status": status, "knocked_out_in": out_in.get(name),
                     **({"left_after": left_after(session, name)}
                        if name in standings.left else {})})
    return rows


def show_json(session: Session) -> JSONObject:
    """``score show --json``: the JSON export (docs/format.md) and what show adds."""
    standings = session.standings
    return {**summary_of(session), "label": session.label,
            "target": target_line(session),
            "standings": standings_json(session), "next_dealer": standings.next_dealer,
            "notes": standings.all_notes}


def log_json(session: Session | UnavailableSession) -> JSONObject:
    return {"id": session.id, "label": session.label,
            "history": [{"time": entry.get("time"), "change": entry.get("change"),
                         "detail": entry.get("detail"), "round": entry.get("round")}
                        for entry in session.history]}


def health_json(health: Health) -> JSONObject:
    return {"file": str(health.path), "exists": health.exists, "healthy": health.good,
            "newer": health.newer, "sessions": health.sessions, "rounds": health.rounds,
            "problems": list(health.problems), "missing": list(health.missing)}


def doctor_json(current: Health, backups: Sequence[Health]) -> JSONObject:
    return {"store": health_json(current),
            "backups": [health_json(backup) for backup in backups], "restored": None}
