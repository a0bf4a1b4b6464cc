"""The people across sessions: who has played, and renaming or merging them everywhere.

A player is the same person in every session where the name matches ignoring case
(after NFC normalisation; :func:`scorekeeper.stats.player_key`), spelt one way: the
roster's (:func:`scorekeeper.stats.roster_names`). A rename or merge is
planned here as, for each session it touches, a map from the old spelling to the
new; :meth:`Session.with_players_renamed` applies it and logs it in the session's
history. The plan's inverse is what ``score players undo`` applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.i18n import _, ngettext
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.session import Session, check_player_names
from scorekeeper.stats import bot_seats, chronological, player_key, roster_names


@dataclass(frozen=True)
class Player:
    key: str
    name: str
    """The roster's spelling: the first seen, or the one ``score players rename`` set."""
    spellings: tuple[str, ...]
    sessions: tuple[int, ...]
    finished: int
    last_played: str
    """The time of the last change at the table in their latest session."""
    bot: str | None = None
    """The bot level when the name was only ever a bot's seat in a virtual game."""


def roster(sessions: Sequence[Session], *, virtual: bool = True) -> list[Player]:
    """Everyone who has played, most recently seen first; without ``virtual``, the people
    of the table sessions only (``score players``: bots and virtual games left out)."""
    names = roster_names(sessions)  # the same spelling, whichever sessions are listed
    seen: dict[str, list[Session]] = {}
    spellings: dict[str, dict[str, None]] = {}
    latest: dict[str, int] = {}
    bots: dict[str, str] = {}
    for index, session in enumerate(chronological(
            s for s in sessions if virtual or s.mode != "virtual")):
        levels = bot_seats(session)
        for name in session.players:
            key = player_key(name)
            seen.setdefault(key, []).append(session)
            spellings.setdefault(key, {})[name] = None
            latest[key] = index
            if name in levels:
                bots.setdefault(key, levels[name])
    players = []
    for key, played in seen.items():
        span = played[-1].played_span()
        last = span[1].isoformat(timespec="minutes") if span else played[-1].created
        players.append(Player(key, names.get(key) or next(iter(spellings[key])),
                              tuple(spellings[key]),
                              tuple(s.id for s in played if s.id is not None),
                              sum(1 for s in played if s.finished), last,
                              None if key in names else bots.get(key)))
    return sorted(players, key=lambda p: (-latest[p.key], p.name.casefold()))


def find(sessions: Sequence[Session], typed: str) -> Player:
    key = player_key(typed.strip())
    for player in roster(sessions):
        if player.key == key:
            return player
    known = ", ".join(sorted((p.name for p in roster(sessions)), key=str.casefold))
    if not known:
        raise EntryError(_("nobody called {name} has played (the players: nobody yet)").format(
            name=repr(typed.strip())))
    raise EntryError(_("nobody called {name} has played (the players: {players})").format(
        name=repr(typed.strip()), players=known))


Plan = dict[int, dict[str, str]]
"""Session id -> {old spelling: new spelling}."""


def plan_rename(sessions: Sequence[Session], old: str, new: str) -> Plan:
    """``score players rename OLD NEW``: every session of OLD spells the name NEW."""
    player = find(sessions, old)
    (spelling,) = check_player_names([new])
    key = player_key(spelling)
    if key != player.key:
        other = next((p for p in roster(sessions) if p.key == key), None)
        if other is not None:
            _refuse_shared(sessions, player, other)
            raise EntryError(_("{other} is already a player: `score players merge {name} "
                               "{new}` makes them one person").format(
                other=repr(other.name), name=player.name, new=other.name))
    plan = _plan(sessions, player, spelling)
    if not plan:
        raise EntryError(_("{name} is already spelled {spelling} in every session").format(
            name=repr(player.name), spelling=repr(spelling)))
    return plan


def plan_merge(sessions: Sequence[Session], first: str, second: str) -> tuple[Plan, str]:
    """``score players merge A B``: A becomes B (B's roster spelling) in every session."""
    player, other = find(sessions, first), find(sessions, second)
    if player.key == other.key:
        raise EntryError(_("{first} and {second} are already one player (names that differ "
                           "only in case are the same person)").format(
            first=repr(first.strip()), second=repr(second.strip())))
    _refuse_shared(sessions, player, other)
    return _plan(sessions, player, other.name), other.name


def _refuse_shared(sessions: Sequence[Session], player: Player, other: Player) -> None:
    shared = sorted(set(player.sessions) & set(other.sessions))
    if shared:
        listed = ", ".join(str(i) for i in shared)
        raise EntryError(ngettext(
            "{name} and {other} both played in session {sessions}: two players of one session "
            "can't share a name",
            "{name} and {other} both played in sessions {sessions}: two players of one "
            "session can't share a name", len(shared)).format(
            name=player.name, other=other.name, sessions=listed))


def _plan(sessions: Sequence[Session], player: Player, spelling: str) -> Plan:
    plan: Plan = {}
    for session in sessions:
        for name in session.players:
            if player_key(name) == player.key and name != spelling and session.id is not None:
                plan[session.id] = {name: spelling}
    return plan


def apply(sessions: Mapping[int, Session], plan: Plan, detail: str, *, change: str,
          time: str) -> list[Session]:
    """The sessions of ``plan`` renamed (refused whole if any one can't be)."""
    renamed = []
    for session_id, names in sorted(plan.items()):
        session = sessions.get(session_id)
        if session is None:
            continue  # deleted since; nothing to rename there
        missing = [old for old in names if old not in session.players]
        if missing:
            raise EntryError(_("session {id} no longer has a player called {name}: nothing "
                             "was changed").format(id=session_id, name=repr(missing[0])))
        renamed.append(session.with_players_renamed(names, detail, change=change, time=time))
    return renamed


def record(change: str, detail: str, plan: Plan, time: str) -> JSONObject:
    """What the store keeps of a rename or merge, for ``score players undo``."""
    return {"time": time, "change": change, "detail": detail,
            "sessions": [{"id": session_id, "names": names}
                         for session_id, names in sorted(plan.items())]}


def inverse(recorded: Mapping[str, object]) -> Plan:
    """The plan that takes a recorded rename or merge back."""
    plan: Plan = {}
    items = recorded.get("sessions")
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("names"), dict):
            plan[int(item["id"])] = {str(new): str(old) for old, new in item["names"].items()}
    return plan
