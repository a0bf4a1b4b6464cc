"""``score export --format bgstats``: a BG Stats play file, as the app imports it.

BG Stats (Board Game Stats) opens a JSON "play file" shared from another device or app:
its players, its games and its plays, each play with every player's score, winner, rank,
seat and start player. docs/format.md gives the field mapping and the public sources it
follows. Everything is derived from the sessions, so the same sessions give the same file;
the identities (``uuid``) are fixed by what they name (a session, a player's name, a
game), so importing a newer file again updates the plays rather than adding copies.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import TypedDict

from scorekeeper.kit.entries import name_key
from scorekeeper.ranking import ranked_players
from scorekeeper.session import Session

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://pypi.org/project/cardnight-scorekeeper/")
"""The namespace of every identity in the file (uuid5: the same name, the same uuid)."""

ABOUT = ("This is a Play file that can be read by Board Game Stats, written by scorekeeper "
         "(score export --format bgstats). Open it with Board Game Stats to import the plays.")


def identity(*parts: object) -> str:
    """A fixed uuid for what ``parts`` name, in the upper case BG Stats writes."""
    return str(uuid.uuid5(NAMESPACE, "\x1f".join(str(part) for part in parts))).upper()


def table_clock(stamp: str) -> str:
    """``2026-11-27 20:15:00``: the time as the table's clock read it (BG Stats' form);
    empty when the stored time is not an ISO time."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    return moment.replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")


class Player(TypedDict):
    id: int
    uuid: str
    name: str
    isAnonymous: bool
    bggUsername: str
    modificationDate: str


class Game(TypedDict):
    id: int
    uuid: str
    name: str
    highestWins: bool
    noPoints: bool
    cooperative: bool
    usesTeams: bool
    bggId: int
    bggYear: int
    modificationDate: str


class PlayerScore(TypedDict):
    playerRefId: int
    score: str
    winner: bool
    rank: int
    seatOrder: int
    startPlayer: bool
    newPlayer: bool


class Play(TypedDict):
    uuid: str
    gameRefId: int
    playDate: str
    durationMin: int
    rounds: int
    ignored: bool
    manualWinner: bool
    usesTeams: bool
    rating: int
    scoringSetting: int
    playImages: str
    comments: str
    playerScores: list[PlayerScore]


class PlayFile(TypedDict):
    """The file BG Stats opens (its keys are the app's, hence the camel case)."""

    about: str
    players: list[Player]
    locations: list[object]
    games: list[Game]
    plays: list[Play]


def session_identity(session: Session) -> str:
    """What makes a session the same night wherever it is exported from: its global id
    when it has one, else its game, start time and players."""
    global_id = getattr(session, "uid", None)
    if global_id:
        return identity("session", global_id)
    return identity("session", session.game, session.created, *session.players)


def play_file(sessions: Sequence[Session]) -> PlayFile:
    """The play file of ``sessions`` (each a finished or unfinished table session)."""
    players: dict[str, Player] = {}
    games: dict[tuple[str, bool], Game] = {}
    plays: list[Play] = []
    for session in sessions:
        for name in session.players:
            key = name_key(name)
            if key not in players:
                players[key] = {"id": len(players) + 1, "uuid": identity("player", key),
                                "name": name, "isAnonymous": False, "bggUsername": "",
                                "modificationDate": table_clock(session.created)}
        highest_wins = not lowest_wins(session)
        game_key = (session.game, highest_wins)
        if game_key not in games:
            games[game_key] = {
                "id": len(games) + 1, "uuid": identity("game", session.game, highest_wins),
                "name": _game_name(session, highest_wins, games),
                "highestWins": highest_wins, "noPoints": False, "cooperative": False,
                "usesTeams": False, "bggId": 0, "bggYear": 0,
                "modificationDate": table_clock(session.created)}
        plays.append(_play(session, games[game_key]["id"],
                           {name: players[name_key(name)]["id"] for name in session.players}))
    return {"about": ABOUT, "players": list(players.values()), "locations": [],
            "games": list(games.values()), "plays": plays}


def lowest_wins(session: Session) -> bool:
    """Whether the lowest total wins ``session``, as its game placed its players: a
    group's Points game may be played to the lowest total one night and to the highest
    the next. With nothing to tell by (equal totals), the game's own default."""
    ranked = ranked_players(session)
    totals = session.standings.totals
    if ranked:
        best = [totals[name] for place, name in ranked if place == ranked[0][0]]
        worst = [totals[name] for place, name in ranked if place == ranked[-1][0]]
        if max(best) < min(worst):
            return True
        if min(best) > max(worst):
            return False
    return session.lowest_wins


def _game_name(session: Session, highest_wins: bool,
               games: dict[tuple[str, bool], Game]) -> str:
    """The game's title; a game played both ways (Points to the highest and to the
    lowest total) is two games in BG Stats, whose winner rule is the game's."""
    title = session.rules.title
    if (session.game, not highest_wins) in games:
        return f"{title} (lowest wins)" if not highest_wins else f"{title} (highest wins)"
    return title


def _play(session: Session, game_id: int, player_ids: dict[str, int]) -> Play:
    standings = session.standings
    places = dict((name, place) for place, name in ranked_players(session))
    duration = session.duration
    comments = "\n".join(part for part in (session.name, session.note) if part)
    return {
        "uuid": session_identity(session),
        "gameRefId": game_id,
        "playDate": table_clock(session.created),
        "durationMin": int(duration.total_seconds() // 60) if duration else 0,
        "rounds": len(session.rounds),
        "ignored": False,
        "manualWinner": True,
        "usesTeams": False,
        "rating": 0,
        "scoringSetting": 0,
        "playImages": "[]",
        "comments": comments,
        "playerScores": [
            {"playerRefId": player_ids[name],
             "score": str(standings.totals[name]),
             "winner": name in standings.winners,
             "rank": places[name],
             "seatOrder": seat,
             "startPlayer": name == session.first_dealer,
             "newPlayer": False}
            for seat, name in enumerate(session.players, start=1)],
    }
