"""The session summary of FORMAT.md: writing it (export) and reading it back (a checked
import).

An import is checked at the boundary: every part of the file is checked for its type
(:class:`SummaryParts`), every round is rebuilt by its game and re-scored, a virtual
deal is replayed move by move, and the file's own results must be what its rounds
re-score to. Whatever does not fit is one line (EntryError), never a traceback.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, RoundError
from scorekeeper.kit.rounds import RECORDED_DEAL_KEYS, JSONObject, JSONValue, Round, read_round
from scorekeeper.kit.standings import Standings, TableGame
from scorekeeper.registry import DECLARATIONS, declaration_of, get_game, get_virtual
from scorekeeper.session import Session, check_player_names, parse_roster
from scorekeeper.text import hidden_characters
from scorekeeper.virtual_settings import VirtualSettings

SUMMARY_FORMAT = "scorekeeper-session"
SUMMARY_VERSION = 1


def _shown(value: Any) -> str:
    """A value from a file, short enough for a one-line message (never its whole repr)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if abs(value) < 10**12 else _("a very long number")
    if isinstance(value, str):
        return repr(value[:24] + ("..." if len(value) > 24 else ""))
    if isinstance(value, list):
        return _("a list")
    return _("an object") if isinstance(value, dict) else _("a value")


def _created(value: Any) -> str | None:
    """When the session started: an ISO 8601 date and time as FORMAT.md shows it."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if not hidden_characters(value):
                return value
    raise EntryError(_("its 'created' is {value}, not a date and time such as "
                       "2026-11-27T20:15:00+01:00").format(value=_shown(value)))


@dataclass(frozen=True)
class SummaryParts:
    """The top-level parts of a FORMAT.md summary, each of the type it must have.

    The rounds are objects whose insides each game's ``round_from_summary`` checks; the
    ``virtual`` part is checked by :func:`_virtual_settings`.
    """

    game: TableGame[Any]
    players: list[str]
    name: str
    mode: str
    options: dict[str, str | int | float | bool | None]
    created: str | None
    first_dealer: str | None
    rounds: list[JSONObject]
    virtual: Any

    @classmethod
    def parse(cls, data: Any) -> SummaryParts:
        if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
            raise EntryError(_("this is not a scorekeeper session summary (no \"format\": "
                               "\"{format}\")").format(format=SUMMARY_FORMAT))
        version = data.get("version")
        if version != SUMMARY_VERSION or isinstance(version, bool):
            raise EntryError(_("this summary is version {version}; this scorekeeper reads "
                               "version {ours}").format(version=_shown(version),
                                                        ours=SUMMARY_VERSION))

        def text(key: str, default: str | None) -> str | None:
            value = data.get(key, default)
            if value is None or isinstance(value, str):
                return value
            raise EntryError(_("its {key} must be text, not {value}").format(
                key=repr(key), value=_shown(value)))

        for key in ("game", "players", "rounds"):
            if key not in data:
                raise EntryError(_("the summary lacks a required part: {key}").format(
                    key=repr(key)))
        game_name = text("game", None)
        if game_name is None:
            raise EntryError(_("its 'game' must be {games}, not null").format(
                games=_(" or ").join(DECLARATIONS)))
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise EntryError(_("its 'players' must be a list of names"))
        rounds = data.get("rounds")
        if not isinstance(rounds, list):
            raise EntryError(_("its 'rounds' must be a list of rounds"))
        for index, round_ in enumerate(rounds, start=1):
            if not isinstance(round_, dict):
                raise EntryError(_("round {number} is not a JSON object").format(number=index))
            if not isinstance(round_.get("dealer"), str | None):
                raise EntryError(_("round {number}: its dealer must be a name, not {value}")
                                 .format(number=index, value=_shown(round_["dealer"])))
        options = data.get("options") or {}
        if not isinstance(options, dict) or not all(
                isinstance(value, str | int | float | bool) or value is None
                for value in options.values()):
            raise EntryError(_("its 'options' must map each house rule to a value, "
                               "e.g. {\"limit\": 100}"))
        mode = text("mode", "table") or "table"
        first_dealer = text("first_dealer", None) or _first_deal_dealer(rounds)
        recorded = any(key in round_ for round_ in rounds for key in RECORDED_DEAL_KEYS)
        if first_dealer is None and (mode == "virtual" or recorded):
            raise EntryError(_("its 'first_dealer' is missing: a virtual game says who dealt "
                               "first, so that every deal's dealer can be checked"))
        return cls(
            game=get_game(game_name),
            players=players,
            name=text("name", "") or "",
            mode=mode,
            options=options,
            created=_created(data.get("created")),
            first_dealer=first_dealer,
            rounds=rounds,
            virtual=data.get("virtual"),
        )


def _first_deal_dealer(rounds: Sequence[JSONObject]) -> str | None:
    """Who dealt the first round, when the summary does not say ``first_dealer``."""
    if not rounds:
        return None
    first = rounds[0]
    dealer = first.get("dealer")
    deal = first.get("deal")
    if dealer is None and isinstance(deal, dict):
        dealer = deal.get("dealer")
    if dealer is None or isinstance(dealer, str):
        return dealer
    raise EntryError(_("round 1's dealer must be a name, not {value}").format(
        value=_shown(dealer)))


def summary_of(session: Session) -> JSONObject:
    """The session as FORMAT.md's summary: its settings, rounds and recomputed results."""
    standings = session.standings
    return {
        "format": SUMMARY_FORMAT,
        "version": SUMMARY_VERSION,
        "id": session.id,
        "name": session.name,
        "game": session.game,
        "mode": session.mode,
        "options": dict(session.stored_options),
        "players": list(session.players),
        "created": session.created,
        "rounds": copy.deepcopy([summary.summary_json() for summary in standings.rounds]),
        "totals": dict(standings.totals),
        "knocked_out": list(standings.knocked_out),
        "status": "finished" if standings.finished else "in-progress",
        "winners": list(standings.winners),
        "first_dealer": session.first_dealer,
        **({"roster": [change.to_json() for change in session.roster]}
           if session.roster else {}),
        **({"note": session.note} if session.note else {}),
        **({"abandoned": session.abandoned} if session.abandoned else {}),
        **_played_summary(session),
        **({"virtual": _virtual_part(session, finished=standings.finished)}
           if session.mode == "virtual" and session.virtual else {}),
    }


def _virtual_part(session: Session, *, finished: bool) -> JSONObject:
    """The virtual settings as the summary shows them: while a game with a human seat is
    unfinished, without its seed, from which anyone could compute every hand still to be
    played (``score play --online``: each seat's hand is hidden from the others). A
    finished game's seed is shown, and a game of bots only hides nothing from anyone."""
    assert session.virtual is not None
    data = session.virtual.as_json()
    if not finished and any(seat.bot is None for seat in session.virtual.seats):
        del data["seed"]
    return data

def _played_summary(session: Session) -> JSONObject:
    span = session.played_span()
    if span is None:
        return {}
    return {"played_from": span[0].isoformat(), "played_to": span[1].isoformat(),
            "duration_seconds": int((span[1] - span[0]).total_seconds())}

def session_from_summary(data: Any, *, time: str | None = None) -> Session:
    """Rebuild a session from its JSON summary; refuse one that does not re-score.

    ``data`` is whatever JSON gave: every part is checked for its type here, at the
    boundary, so a wrong type anywhere is a one-line refusal (EntryError), never a
    TypeError further in.
    """
    parts = SummaryParts.parse(data)
    game = parts.game
    roster = parse_roster(data.get("roster", []))
    if roster and parts.mode == "virtual":
        raise EntryError(_("its 'roster' has players joining or leaving, and a virtual "
                           "game keeps its seats"))
    joined = {change.player for change in roster if change.late}  # not a return
    session = Session.new(
        game.name,
        [name for name in parts.players if name not in joined],
        name=parts.name,
        options=parts.options,
        dealer=parts.first_dealer,
        mode=parts.mode,
        time=time,
        note=data["note"] if isinstance(data.get("note"), str) else "",
    )
    if parts.created is not None:
        session = replace(session, created=parts.created)
    if isinstance(data.get("abandoned"), str):
        session = replace(session, abandoned=data["abandoned"])
    span: list[str | None] = [data.get("played_from"), data.get("played_to")]
    try:
        for stamp in span:
            datetime.fromisoformat(str(stamp))
    except ValueError:
        span = [None, None]
    session = replace(session, history=(
        {**session.history[0], "played_from": span[0], "played_to": span[1]},
        *session.history[1:]))
    if parts.mode == "virtual" and parts.virtual is not None:
        virtual = parts.virtual
        if isinstance(virtual, dict) and "seed" not in virtual \
                and data.get("status") == "in-progress":
            # An unfinished game is exported without its seed (it would show the hands
            # still hidden): its deals to come are shuffled from a fresh one.
            virtual = {**virtual, "seed": secrets.randbits(63)}
        session = replace(session, virtual=_virtual_settings(virtual, session.players,
                                                             game.name))
    rounds: list[Round] = []
    for index, summary_round in enumerate(parts.rounds, start=1):
        try:
            rounds.append(read_round(game.round_from_summary, summary_round))
        except EntryError as error:
            raise EntryError(_("round {number}: {reason}").format(number=index,
                                                                  reason=error)) from None
    session = replace(session, rounds=tuple(rounds))
    if roster:
        session = replace(session, players=tuple(check_player_names(parts.players)),
                          roster=roster)
    try:
        standings = session.standings
    except RoundError as error:
        raise EntryError(str(error)) from None
    session = _verify_deals(session)
    _compare_scores(data, parts.rounds, summary_of(session), standings,
                    declaration_of(game.name).checked_results)
    return session


def _virtual_settings(data: Any, players: Sequence[str], game: str) -> VirtualSettings:
    """The seed and seats of a virtual game (what ``score play --resume`` needs), checked."""
    settings = VirtualSettings.from_json(data)
    if [seat.name for seat in settings.seats] != list(players):
        raise EntryError(_("its virtual seats are not its players, in order"))
    bots = get_virtual(game).bots
    for seat in settings.seats:
        if seat.bot is not None and seat.bot not in bots:
            raise EntryError(_("its seat {name} has no bot called {bot}: choose {bots}")
                             .format(name=seat.name, bot=_shown(seat.bot),
                                     bots=", ".join(bots)))
    return settings


def _verify_deals(session: Session) -> Session:
    """Replay every round that carries its deal and actions (a virtual deal) move by move;
    refuse the summary unless each replays legally, seated as the session sits, to what
    the round says. The session comes back with each deal and its actions as the replay
    records them (nothing the file added to them is kept)."""
    if not any(round_.recorded is not None for round_ in session.rounds):
        return session
    virtual = get_virtual(session.game)
    rounds = list(session.rounds)
    knocked: set[str] = set()
    for number, (round_, summary) in enumerate(zip(rounds, session.standings.rounds,
                                                   strict=True), start=1):
        seated = [name for name in session.players if name not in knocked]
        knocked.update(summary.knocked_out)
        recorded = round_.recorded
        if recorded is None:
            if session.mode == "virtual":
                raise EntryError(_("round {number}: a round of a virtual game needs its "
                                   "'deal' and its 'actions' to be replayed").format(
                    number=number))
            continue
        if not recorded.complete:
            raise EntryError(_("round {number}: a virtual round needs both its 'deal' and its "
                               "'actions' to be replayed").format(number=number))
        try:
            replayed = virtual.verify(round_, session.options, seated)
        except EntryError as error:
            raise EntryError(_("round {number}: {reason}").format(number=number,
                                                                  reason=error)) from None
        rounds[number - 1] = round_.with_recorded(replayed.recorded)
    return replace(session, rounds=tuple(rounds))


def _compare_scores(data: Mapping[str, object], rounds: Sequence[JSONObject],
                    rescored: Mapping[str, JSONValue], standings: Standings,
                    checked_results: Sequence[str]) -> None:
    """Refuse a summary whose recorded results differ from what its rounds (``data``'s
    ``rounds``, checked) re-score to."""
    for index, (given, scored) in enumerate(zip(rounds, standings.rounds, strict=True),
                                            start=1):
        computed = scored.to_json()
        for key in ("scores", *checked_results, "knocked_out"):
            if key in given and given[key] != computed.get(key):
                raise EntryError(_("round {number}: the file says {key} = {given}, but the "
                                   "round re-scores to {computed}").format(
                    number=index, key=key, given=_brief(given[key]),
                    computed=computed.get(key)))
    for key in ("totals", "knocked_out", "status", "winners"):
        if key in data and data[key] != rescored[key]:
            raise EntryError(_("the file says {key} = {given}, but its rounds re-score to "
                               "{computed}").format(key=key, given=_brief(data[key]),
                                                    computed=rescored[key]))


def _brief(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 80 else text[:77] + "..."
