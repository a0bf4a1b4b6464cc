"""A session: one game at one table, played to its end.

A session is its settings plus its list of rounds. Totals, knock-outs, the next
dealer, the status and the winners are recomputed from the rounds every time
(:attr:`Session.standings`), never stored as truth; undo, redo and edits are
list operations followed by that same recompute.
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING, Any

from scorekeeper import i18n
from scorekeeper.errors import MalformedValue
from scorekeeper.i18n import _
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entries import (
    EntryError,
    RosterError,
    RoundEntry,
    RoundError,
    match_player,
    name_key,
)
from scorekeeper.kit.roster import RosterChange, RosterRule
from scorekeeper.kit.rounds import JSONObject, Round, parse_rounds
from scorekeeper.kit.standings import Standings, TableGame, competition_ranks
from scorekeeper.registry import declaration_of, game_missing, games_taking, get_game, is_installed
from scorekeeper.text import count as counted
from scorekeeper.text import escaped, hidden_characters

if TYPE_CHECKING:  # defined where they are used: the commands at the table never need them
    from scorekeeper.unavailable import UnavailableSession as UnavailableSession
    from scorekeeper.virtual_settings import DERIVATIONS as DERIVATIONS
    from scorekeeper.virtual_settings import VirtualSeat as VirtualSeat
    from scorekeeper.virtual_settings import VirtualSettings as VirtualSettings

_MOVED = {"UnavailableSession": "scorekeeper.unavailable",
          "DERIVATIONS": "scorekeeper.virtual_settings",
          "VirtualSeat": "scorekeeper.virtual_settings",
          "VirtualSettings": "scorekeeper.virtual_settings"}
"""Names this module had, now in their own modules (start-up: defining a class costs
about a millisecond; a command on a game at the table uses none of these)."""


def __getattr__(name: str) -> object:
    """``scorekeeper.session.UnavailableSession`` and the virtual deck's settings, imported
    from their modules when first asked for here."""
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_MOVED[name]), name)

MODES = ("table", "virtual")
MAX_NAME_LENGTH = 40
MAX_NOTE_LENGTH = 500
PLAY_CHANGES = ("new", "add-round", "undo", "redo", "edit-round", "add-player", "drop-player")
"""The changes that happen at the table: the night lasts from the first to the last."""
MAX_SESSION_NAME_LENGTH = 200


def now_iso() -> str:
    """The local time with its UTC offset, to the second (as FORMAT.md shows)."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


@contextmanager
def in_english() -> Iterator[None]:
    """Speak English inside: what a session keeps in its log is stored data, written the
    same whatever language the command that wrote it spoke."""
    language = i18n.active_language()
    if language == i18n.ENGLISH:
        yield
        return
    i18n.activate(i18n.ENGLISH)
    try:
        yield
    finally:
        i18n.activate(language)

def check_player_names(players: Sequence[str]) -> list[str]:
    """NFC-normalise and strip names; refuse empty, over-long, repeated (ignoring case and
    look-alike forms), unparseable ones and any holding a character that acts instead of
    being seen (a control, zero-width or bidi character: see :mod:`scorekeeper.text`)."""
    cleaned = [unicodedata.normalize("NFC", name).strip() for name in players]
    seen: dict[str, str] = {}
    for name in cleaned:
        if not name:
            raise EntryError(_("a player name can't be empty"))
        hidden = hidden_characters(name)
        if hidden:
            raise EntryError(_("a player name can't contain a tab, line break, zero-width, "
                               "text-direction or other invisible control character "
                               "({name} has {character})").format(
                name=repr(name), character=escaped(hidden[0])))
        if "=" in name or "," in name:
            raise EntryError(_("a player name can't contain '=' or ',' ({name}): rounds are "
                               "entered as NAME=VALUE").format(name=repr(name)))
        if len(name) > MAX_NAME_LENGTH:
            raise EntryError(_("the name {start}... is too long: at most {most} characters")
                             .format(start=repr(name[:12]), most=MAX_NAME_LENGTH))
        key = name_key(name)
        if key in seen:
            raise EntryError(_("{name} and {other} are the same name ignoring case: give "
                               "every player a different name").format(
                name=repr(name), other=repr(seen[key])))
        seen[key] = name
    return cleaned


def check_note(text: str) -> str:
    """A note on a session or a round: one line of plain text."""
    note = unicodedata.normalize("NFC", text).strip()
    if hidden_characters(note):
        raise EntryError(_("a note can't contain a tab, line break, escape, zero-width, "
                           "text-direction or other invisible control character"))
    if len(note) > MAX_NOTE_LENGTH:
        raise EntryError(_("the note is too long: at most {most} characters").format(
            most=MAX_NOTE_LENGTH))
    return note


def check_session_name(name: str) -> str:
    """A session name, NFC-normalised and stripped; refuse invisible control characters."""
    cleaned = unicodedata.normalize("NFC", name).strip()
    hidden = hidden_characters(cleaned)
    if hidden:
        raise EntryError(_("a session name can't contain a line break, escape, zero-width, "
                           "text-direction or other invisible control character "
                           "({name} has {character})").format(
            name=repr(cleaned[:40]), character=escaped(hidden[0])))
    if len(cleaned) > MAX_SESSION_NAME_LENGTH:
        raise EntryError(_("the session name {start}... is too long: at most {most} "
                           "characters").format(start=repr(cleaned[:12]),
                                                most=MAX_SESSION_NAME_LENGTH))
    return cleaned


@dataclass(frozen=True)
class Session:
    """The settings and rounds of one game; everything else is derived."""

    game: str
    players: tuple[str, ...]
    stored_options: JSONObject
    """The house rules as stored (FORMAT.md's ``options``), written back exactly as read;
    :attr:`options` is them typed."""
    name: str = ""
    mode: str = "table"
    first_dealer: str | None = None
    created: str = ""
    rounds: tuple[Round, ...] = ()
    undone: tuple[Round | RosterChange, ...] = ()
    """Rounds and roster changes taken back by undo, most recent last: what redo brings
    back."""
    roster: tuple[RosterChange, ...] = ()
    """The players who joined and left between deals (``add-player``/``drop-player``), in
    order; ``players`` is the whole seating, a late player after those already seated."""
    history: tuple[JSONObject, ...] = ()
    id: int | None = None
    virtual: VirtualSettings | None = None
    """A game on the virtual deck: its seed, seats and restarts (None at a table)."""
    note: str = ""
    abandoned: str = ""
    """When the session was abandoned (left out of statistics); empty while it is not."""
    revision: int = 0
    """How many times the store has written this session: each write is a compare-and-set
    on the revision the command read, so no command overwrites a change it did not see."""

    # -- creating ----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        game: str,
        players: Sequence[str],
        *,
        name: str = "",
        options: Mapping[str, object] | None = None,
        dealer: str | None = None,
        mode: str = "table",
        virtual: VirtualSettings | None = None,
        time: str | None = None,
        note: str = "",
    ) -> Session:
        rules = get_game(game)
        names = check_player_names(players)
        rules.check_players(names)
        checked = rules.check_options(options or {})
        first_dealer = match_player(names, dealer, _("dealer")) if dealer else None
        if mode not in MODES:
            raise EntryError(_("mode must be table or virtual, not {mode}").format(
                mode=repr(mode)))
        stamp = time or now_iso()
        session = cls(
            game=rules.name,
            players=tuple(names),
            stored_options=checked,
            name=check_session_name(name),
            mode=mode,
            first_dealer=first_dealer,
            created=stamp,
            virtual=virtual,
            note=check_note(note),
        )
        detail = f"{rules.title} for {', '.join(names)}"
        if first_dealer:
            detail += f"; {first_dealer} deals first"
        return session._logged("new", detail, stamp)

    # -- derived -------------------------------------------------------------------

    @property
    def rules(self) -> TableGame[Any]:
        return get_game(self.game)

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest total wins this session: the table's ``lower_is_better``,
        or, for a game whose house rules say it (Points' ``--wins``, a group's game's
        ``wins``), the table's ``lowest_wins(options)``."""
        per_session = getattr(self.rules, "lowest_wins", None)
        if callable(per_session):
            return bool(per_session(self.options))
        return self.rules.lower_is_better

    @property
    def declaration(self) -> GameDeclaration:
        """What the game declares to the generic layers (columns, captions, options)."""
        return declaration_of(self.game)

    @cached_property
    def options(self) -> object:
        """The house rules typed once, as the game's own options object (read from
        :attr:`stored_options` by its table's ``parse_options``); only the game's table
        and virtual deck look inside it."""
        return self.rules.parse_options(self.stored_options)

    @cached_property
    def standings(self) -> Standings:
        if not self.roster:
            return self.rules.standings(self.players, self.options, self.first_dealer,
                                        self.rounds)
        rule = self.declaration.roster
        if rule is None:
            raise RoundError(self.roster[0].after + 1, _(
                "{game} takes no players joining or leaving").format(game=self.rules.title))
        return rule.standings(self.rules, self.players, self.options, self.first_dealer,
                              self.rounds, self.roster)

    @property
    def seated(self) -> list[str]:
        """The players in the game now, in seating order: not those who left or who join
        later (Least Score's knocked-out players included, as at ``score new``)."""
        standings = self.standings
        return [name for name in self.players
                if name in standings.totals and name not in standings.left]

    def before_round(self, number: int) -> Session:
        """The session as it stood when round ``number`` was entered: the rounds and the
        roster changes before it."""
        later = {change.player for change in self.roster
                 if change.late and change.after > number - 1}
        return replace(self, rounds=self.rounds[:number - 1],
                       players=tuple(name for name in self.players if name not in later),
                       roster=tuple(change for change in self.roster
                                    if change.after <= number - 1))

    def placings(self) -> dict[str, int]:
        """Each player's place as the game places them, a player who left below everyone
        who stayed (in the order they left: the last to leave first)."""
        standings = self.standings
        places = self.rules.placings(self.players, self.options, standings)
        if not standings.left:
            return places
        stayed = [name for name in self.players if name not in standings.left]
        ranked = competition_ranks({name: places[name] for name in stayed})
        below = max(ranked.values(), default=0)
        for index, name in enumerate(reversed(standings.left), start=1):
            ranked[name] = below + index
        return ranked

    @property
    def finished(self) -> bool:
        return self.standings.finished

    @property
    def status(self) -> str:
        """finished, in-progress or abandoned (FORMAT.md's ``status`` is the first two)."""
        if self.finished:
            return "finished"
        return "abandoned" if self.abandoned else "in-progress"

    def played_span(self) -> tuple[datetime, datetime] | None:
        """The night from its first to its last change at the table (an imported session's
        span is the one its file gave, if any); None when unknown."""
        times: list[datetime] = []
        for entry in self.history:
            if entry.get("change") not in PLAY_CHANGES:
                continue
            # an import's "new" carries the span the file gave (None: the file had none)
            stamps = [entry["played_from"], entry["played_to"]] if "played_from" in entry \
                else [entry.get("time")]
            for stamp in stamps:
                if stamp is None:
                    continue
                try:
                    times.append(datetime.fromisoformat(str(stamp)))
                except ValueError:
                    continue
        if not times:
            return None
        try:
            return min(times), max(times)
        except TypeError:  # naive and aware times mixed (hand-edited store)
            return None

    @property
    def duration(self) -> timedelta | None:
        span = self.played_span()
        return None if span is None else span[1] - span[0]

    @property
    def label(self) -> str:
        return self.name or self.generated_name or f"{self.rules.title} #{self.id}"

    @property
    def generated_name(self) -> str:
        """A virtual game's name when it was given none: its game and who sat at it
        (``Least Score with Ann, Strong-2``); "" for a game at a table."""
        if self.mode != "virtual":
            return ""
        return f"{self.rules.title} with {', '.join(self.players)}"

    def leader(self) -> list[str]:
        """The winners once finished, else the player(s) in the best position."""
        standings = self.standings
        if standings.finished:
            return list(standings.winners)
        if not self.rounds:
            return []
        pool = standings.still_in or list(self.players)
        pick = min if self.lowest_wins else max
        best = pick(standings.totals[name] for name in pool)
        return [name for name in pool if standings.totals[name] == best]

    # -- changes (each returns a new session, checked by a full recompute) -----------

    def check_takes_rounds(self) -> None:
        """Refuse a round for a session that takes no more (finished or abandoned)."""
        if self.finished:
            raise EntryError(self._finished_message())
        if self.abandoned:
            raise EntryError(_("{session} was abandoned and takes no more rounds: "
                               "`score abandon {id} --undo` takes that back").format(
                session=self.label, id=self.id))

    def add_round(self, entry: RoundEntry, *, time: str | None = None,
                  note: str = "") -> Session:
        self.check_takes_rounds()
        self.check_entry_fields(entry)
        self.check_not_left(entry)
        round_ = self.rules.make_round(self.seated, self.options, self.standings, entry)
        if check_note(note):
            round_ = round_.with_note(check_note(note))
        return self.add_round_record(round_, time=time)

    def add_round_record(self, round_: Round, *, time: str | None = None) -> Session:
        """Append an already-built round (the virtual deck's deals come this way)."""
        self.check_takes_rounds()
        changed = replace(self, rounds=(*self.rounds, round_), undone=())
        try:
            changed.standings  # noqa: B018 - recompute now so a bad round is refused
        except RoundError as error:
            raise EntryError(error.reason) from None
        number = len(changed.rounds)
        with in_english():
            detail = changed.describe_round(number)
        return changed._logged("add-round", detail, time, number)

    @property
    def last_roster_change(self) -> RosterChange | None:
        """The roster change made since the last round, the latest change of all, if any."""
        if self.roster and self.roster[-1].after == len(self.rounds):
            return self.roster[-1]
        return None

    def undo(self, *, time: str | None = None) -> Session:
        self.check_rounds_can_change("undo")
        change = self.last_roster_change
        if change is not None:
            players = tuple(name for name in self.players  # a return keeps its seat
                            if not (change.late and name == change.player))
            taken = replace(self, players=players, roster=self.roster[:-1],
                            undone=(*self.undone, change))
            with in_english():
                detail = "took back: " + change.describe()
            return taken._logged("undo", detail, time)
        if not self.rounds:
            raise EntryError(_("{session} has no rounds to undo").format(session=self.label))
        number = len(self.rounds)
        with in_english():
            detail = "removed " + self.describe_round(number)
        changed = replace(self, rounds=self.rounds[:-1], undone=(*self.undone, self.rounds[-1]))
        return changed._logged("undo", detail, time, number)

    def redo(self, *, time: str | None = None) -> Session:
        self.check_rounds_can_change("redo")
        if not self.undone:
            raise EntryError(_("{session} has nothing to redo: redo only brings back what "
                               "undo removed, before any other change").format(
                session=self.label))
        last = self.undone[-1]
        if isinstance(last, RosterChange):
            return self._redo_roster(last, time)
        changed = replace(self, rounds=(*self.rounds, last), undone=self.undone[:-1])
        try:
            changed.standings  # noqa: B018
        except RoundError as error:
            raise EntryError(_("the undone round no longer fits: {reason}").format(
                reason=error.reason)) from None
        number = len(changed.rounds)
        with in_english():
            detail = "brought back " + changed.describe_round(number)
        return changed._logged("redo", detail, time, number)

    def _redo_roster(self, change: RosterChange, time: str | None) -> Session:
        change = change.at(len(self.rounds))
        players = (*self.players, change.player) if change.late else self.players
        changed = replace(self, players=players, roster=(*self.roster, change),
                          undone=self.undone[:-1])
        try:
            changed.standings  # noqa: B018
        except RoundError as error:
            raise EntryError(_("the undone change no longer fits: {reason}").format(
                reason=error.reason)) from None
        with in_english():
            detail = "brought back: " + change.describe()
        return changed._logged("redo", detail, time)

    # -- players joining and leaving between deals --------------------------------

    def roster_rule(self, command: str) -> RosterRule[Any]:
        """The game's rule for players joining and leaving; refused on the virtual deck
        (its seats are dealt and played by the program), for a game with none, and for a
        session that takes no more rounds."""
        if self.mode == "virtual":
            raise EntryError(_("{session} is played on the virtual deck, whose seats are "
                               "fixed when it starts: `{command}` is for a game at the "
                               "table").format(session=self.label, command=command))
        rule = self.declaration.roster
        if rule is None:
            raise EntryError(_("{game} keeps the players it started with: `{command}` is not "
                               "for it").format(game=self.rules.title, command=command))
        self.check_takes_rounds()
        return rule

    def check_not_left(self, entry: RoundEntry) -> None:
        """Refuse a round naming a player who left the game, saying so (the rules would
        only say there is no such player)."""
        left = self.standings.left
        if not left:
            return
        names = {option.key for option in self.declaration.round_options
                 if option.kind == "name"}
        typed = [name for name, _value in entry.values]
        typed += [str(entry.text(key)) for key in names if entry.text(key) is not None]
        for name in left:
            if any(name_key(text.strip()) == name_key(name) for text in typed):
                raise EntryError(_("{name} left the game after round {after} and plays no "
                                   "more deals").format(name=name,
                                                        after=self._left_after(name)))

    def _left_after(self, name: str) -> int:
        """The round after which ``name`` last left."""
        return next(change.after for change in reversed(self.roster)
                    if change.player == name and not change.joined)

    def add_player(self, typed: str, total: int | None = None, *,
                   time: str | None = None) -> Session:
        """A player joins between deals, at ``total`` or the game's starting total; a
        player who left comes back (:meth:`_comes_back`)."""
        rule = self.roster_rule("add-player")
        (name,) = check_player_names([typed])
        standings, table = self.standings, self.rules
        for existing in self.players:
            if name_key(existing) != name_key(name):
                continue
            if existing in standings.left:
                return self._comes_back(rule, existing, total, time)
            if existing in standings.knocked_out:
                raise EntryError(_("{name} is knocked out of {session}, and a player who is "
                                   "knocked out never comes back").format(
                    name=existing, session=self.label))
            raise EntryError(_("{name} is already a player of {session}").format(
                name=existing, session=self.label))
        check_player_names([*self.players, name])
        self._check_room()
        rule.check_join(table, self.options, standings, name)
        start = rule.starting_total(table, self.options, standings) if total is None \
            else total
        rule.check_total(table, self.options, start)
        change = RosterChange(len(self.rounds), name, joined=True, total=start)
        changed = replace(self, players=(*self.players, name),
                          roster=(*self.roster, change), undone=())
        changed._check_roster()
        with in_english():
            detail = f"{change.describe()} after round {change.after}"
        return changed._logged("add-player", detail, time)

    def _check_room(self) -> None:
        """Refuse one more player when the players still in fill the table."""
        table, still_in = self.rules, self.standings.still_in
        if len(still_in) + 1 > table.max_players:
            raise EntryError(_("{game} takes {low} to {high} players, and {n} are playing: "
                               "nobody more can join").format(
                game=table.title, low=table.min_players, high=table.max_players,
                n=len(still_in)))

    def _comes_back(self, rule: RosterRule[Any], name: str, total: int | None,
                    time: str | None) -> Session:
        """``name``, who left, plays again from the next deal, in their seat, with their
        rounds and the total they left with, when the game's rules allow it
        (:meth:`RosterRule.check_return`)."""
        if total is not None:
            raise EntryError(_("{name} left {session} at {total} and comes back at that "
                               "total: --total is for a new player").format(
                name=name, session=self.label, total=self.standings.totals[name]))
        self._check_room()
        rule.check_return(self.rules, self.options, self.standings, name)
        change = RosterChange(len(self.rounds), name, joined=True, back=True)
        changed = replace(self, roster=(*self.roster, change), undone=())
        changed._check_roster()
        with in_english():
            detail = f"{change.describe()} after round {change.after}"
        return changed._logged("add-player", detail, time)

    def drop_player(self, typed: str, *, time: str | None = None) -> Session:
        """A player leaves between deals: their rounds stay, they play no more deals."""
        rule = self.roster_rule("drop-player")
        name = match_player(self.players, typed)
        standings, table = self.standings, self.rules
        if name in standings.left:
            raise EntryError(_("{name} already left {session}, after round {after}").format(
                name=name, session=self.label, after=self._left_after(name)))
        if name not in standings.still_in:
            raise EntryError(_("{name} is knocked out and plays no more deals already")
                             .format(name=name))
        if len(standings.still_in) - 1 < table.min_players:
            raise EntryError(_("{game} needs at least {low} players still in, and without "
                               "{name} there would be {n}: finish the game, or set it aside "
                               "with `score abandon`").format(
                game=table.title, low=table.min_players, name=name,
                n=len(standings.still_in) - 1))
        rule.check_leave(table, self.options, standings, name)
        change = RosterChange(len(self.rounds), name, joined=False)
        changed = replace(self, roster=(*self.roster, change), undone=())
        changed._check_roster()
        with in_english():
            detail = f"{change.describe()} after round {change.after}"
        return changed._logged("drop-player", detail, time)

    def _check_roster(self) -> None:
        try:
            self.standings  # noqa: B018 - recompute now so a bad change is refused
        except RoundError as error:
            raise EntryError(error.reason) from None

    def edit_round(self, number: int, entry: RoundEntry, *, time: str | None = None) -> Session:
        self.check_rounds_can_change("edit-round")
        self.check_round_number(number)
        before = self.before_round(number)
        self.check_entry_fields(entry)
        round_ = self.rules.make_round(before.seated, self.options, before.standings, entry)
        return self.replace_round(number, round_, time=time)

    def replace_round(self, number: int, round_: Round, *, time: str | None = None) -> Session:
        self.check_round_number(number)
        with in_english():
            old = self.describe_round(number)
        rounds = list(self.rounds)
        rounds[number - 1] = round_
        changed = replace(self, rounds=tuple(rounds), undone=())
        try:
            changed.standings  # noqa: B018
        except RosterError as error:
            raise EntryError(_("that edit makes a later change of players impossible "
                               "({change}); if the edit is right, take back the changes from "
                               "there on first (`score undo`), edit round {number}, then make "
                               "them again").format(change=error, number=number)) from None
        except RoundError as error:
            if error.number == number:
                raise EntryError(error.reason) from None
            raise EntryError(self._later_round_broken(number, error)) from None
        with in_english():
            detail = f"round {number} was {old}; now {changed.describe_round(number)}"
        return changed._logged("edit-round", detail, time, number)

    def _later_round_broken(self, number: int, error: RoundError) -> str:
        """What to do when an edit of round ``number`` leaves a later round impossible.

        Editing that later round first can't help (it was entered for the game as it
        stood), so the rounds from it on have to be taken back, and typed in again after
        the edit."""
        later, last = error.number, len(self.rounds)
        if later == last:
            message = _("that edit makes round {later} impossible ({reason}); if the edit is "
                        "right, round {later} no longer fit: take them back first "
                        "(`score undo` once), edit round {number}, then enter them again "
                        "with `score add-round`")
        else:
            message = _("that edit makes round {later} impossible ({reason}); if the edit is "
                        "right, rounds {later} to {last} no longer fit: take them back first "
                        "(`score undo` {times} times), edit round {number}, then enter them "
                        "again with `score add-round`")
        return message.format(later=later, last=last, reason=error.reason, number=number,
                              times=last - later + 1)

    def check_rounds_can_change(self, command: str) -> None:
        """A virtual deal is what the cards and moves were: taking one back would let
        ``play --resume`` deal again cards a human has already seen."""
        if self.mode == "virtual":
            raise EntryError(_("{session} was played on the virtual deck: its deals are a "
                               "record of the cards and moves, so `{command}` can't change "
                               "them").format(session=self.label, command=command))

    @property
    def extra(self) -> JSONObject:
        """The virtual settings as JSON, ``{}`` at a table (as the store keeps them)."""
        return {} if self.virtual is None else self.virtual.as_json()

    def with_virtual(self, virtual: VirtualSettings, change: str, detail: str,
                     number: int | None = None, *, time: str | None = None) -> Session:
        """New virtual settings (e.g. a deal's restart), logged as ``change``."""
        return replace(self, virtual=virtual)._logged(change, detail, time, number)

    def with_id(self, session_id: int) -> Session:
        return replace(self, id=session_id)

    def abandon(self, *, time: str | None = None) -> Session:
        if self.finished:
            raise EntryError(_("{session} is finished, so it counts in the statistics: "
                               "abandon is for a game left unfinished (`score delete` removes "
                               "one)").format(session=self.label))
        if self.abandoned:
            raise EntryError(_("{session} was already abandoned at {time}").format(
                session=self.label, time=self.abandoned))
        stamp = time or now_iso()
        return replace(self, abandoned=stamp)._logged(
            "abandon", "abandoned: left out of statistics", stamp)

    def resume(self, *, time: str | None = None) -> Session:
        if not self.abandoned:
            raise EntryError(_("{session} is not abandoned, so there is nothing to take back")
                             .format(session=self.label))
        return replace(self, abandoned="")._logged(
            "resume", "no longer abandoned: it takes rounds again", time)

    def with_players_renamed(self, names: Mapping[str, str], detail: str, *,
                             change: str = "players rename", time: str | None = None) -> Session:
        """Every occurrence of the players in ``names`` (old spelling -> new) renamed.

        The history before it keeps the old spellings: it is the record of what happened.
        """
        players = tuple(names.get(name, name) for name in self.players)
        check_player_names(players)
        dealer = self.first_dealer
        renamed = replace(
            self, players=players,
            virtual=None if self.virtual is None else self.virtual.renamed(names),
            first_dealer=names.get(dealer, dealer) if dealer is not None else None,
            rounds=tuple(r.with_names(names) for r in self.rounds),
            undone=tuple(r.renamed(names) if isinstance(r, RosterChange) else r.with_names(names)
                         for r in self.undone),
            roster=tuple(change.renamed(names) for change in self.roster),
        )
        before = {names.get(k, k): v for k, v in self.standings.totals.items()}
        if renamed.standings.totals != before:  # a game whose rename misses a field
            raise EntryError(_("renaming changes the scores of {session}; nothing was changed")
                             .format(session=self.label))
        return renamed._logged(change, detail, time)

    def with_revision(self, revision: int) -> Session:
        return replace(self, revision=revision)

    def _logged(self, change: str, detail: str, time: str | None,
                number: int | None = None) -> Session:
        entry: JSONObject = {"time": time or now_iso(), "change": change, "detail": detail}
        if number is not None:
            entry["round"] = number
        return replace(self, history=(*self.history, entry))

    def logged_import(self, source: str, *, time: str | None = None) -> Session:
        rounds = counted(len(self.rounds), "round")
        return self._logged("import", f"imported from {source} with {rounds}", time)

    # -- describing ----------------------------------------------------------------

    def describe_round(self, number: int) -> str:
        summary = self.standings.rounds[number - 1]
        scores = ", ".join(f"{name} {points:+d}" for name, points in summary.scores.items())
        caption = summary.caption()
        what = caption.sentence
        if caption.failure:
            what = _("{what} ({failure})").format(what=what, failure=caption.failure)
        return _("round {number}: {what}; {scores}").format(number=number, what=what,
                                                            scores=scores)

    def check_entry_fields(self, entry: RoundEntry) -> None:
        """Refuse a round option of another game's rounds (one this game does not declare)."""
        declaration = declaration_of(self.game)
        own = {option.key for option in declaration.round_options}
        for key in entry.given():
            if key not in own:
                others = _(" and ").join(other.title for other in games_taking(key)) \
                    or _("no game")
                flag = key.replace("_", "-")
                raise MalformedValue(_("--{flag} is for {others}, and {game} has no {flag}: "
                                   "{game}'s rounds take {usage}").format(
                    flag=flag, others=others, game=declaration.title,
                    usage=declaration.round_usage))

    def _finished_message(self) -> str:
        winners = _(" and ").join(self.standings.winners)
        return _("{session} is finished ({winners} won) and takes no more rounds: start a new "
                 "game with `score new`").format(session=self.label, winners=winners)

    def check_round_number(self, number: int) -> None:
        """Refuse a round number the session does not have, saying which it has."""
        if 1 <= number <= len(self.rounds):
            return
        if not self.rounds:
            raise EntryError(_("{session} has no rounds yet").format(session=self.label))
        raise EntryError(_("there is no round {number}: {session} has rounds 1 to {last}")
                         .format(number=number, session=self.label, last=len(self.rounds)))

    # -- storage -------------------------------------------------------------------

    def to_document(self) -> JSONObject:
        return {
            "game": self.game,
            "name": self.name,
            "mode": self.mode,
            "players": list(self.players),
            "options": dict(self.stored_options),
            "first_dealer": self.first_dealer,
            "created": self.created,
            "rounds": [copy.deepcopy(r.stored_json()) for r in self.rounds],
            "undone": [{"roster": r.to_json()} if isinstance(r, RosterChange)
                       else copy.deepcopy(r.stored_json()) for r in self.undone],
            "history": [dict(h) for h in self.history],
            "extra": self.extra,
            "note": self.note,
            "abandoned": self.abandoned,
            "revision": self.revision,
            **({"roster": [change.to_json() for change in self.roster]} if self.roster
               else {}),
        }

    @classmethod
    def from_document(cls, document: Mapping[str, Any], session_id: int | None) -> Session:
        revision = document.get("revision", 0)
        if not isinstance(revision, int) or isinstance(revision, bool) or revision < 0:
            raise ValueError(_("its revision is not a count of writes: {revision}").format(
                revision=repr(revision)))
        game = document["game"]
        if isinstance(game, str) and not is_installed(game):
            raise game_missing(game, document.get("options"))
        rules = get_game(game)
        return cls(
            game=document["game"],
            name=document.get("name", ""),
            mode=document.get("mode", "table"),
            players=tuple(document["players"]),
            stored_options=dict(document["options"]),
            first_dealer=document.get("first_dealer"),
            created=document.get("created", ""),
            rounds=parse_rounds(rules, document.get("rounds", ())),
            undone=_parse_undone(rules, document.get("undone", ())),
            roster=parse_roster(document.get("roster", [])),
            history=tuple(document.get("history", ())),
            virtual=_virtual(document.get("extra")),
            note=document.get("note", ""),
            abandoned=document.get("abandoned", ""),
            id=session_id,
            revision=revision,
        )


def _virtual(data: Any) -> VirtualSettings | None:
    """A stored session's virtual-deck settings, if it has them (a game at the table has
    none: its commands never import their module)."""
    if not data:
        return None
    from scorekeeper.virtual_settings import VirtualSettings  # start-up: the deck's only

    return VirtualSettings.from_json(data)


def parse_roster(data: Any) -> tuple[RosterChange, ...]:
    """Stored or imported roster changes (docs/format.md's ``roster``), each checked."""
    if not isinstance(data, list):
        raise EntryError(_("its 'roster' must be a list of players joining and leaving"))
    return tuple(RosterChange.from_json(item) for item in data)


def _parse_undone(rules: TableGame[Any], data: Sequence[Any]) -> tuple[Round | RosterChange, ...]:
    """What undo took back: rounds, and roster changes stored as ``{"roster": {...}}``."""
    if not any(isinstance(item, dict) and set(item) == {"roster"} for item in data):
        return parse_rounds(rules, data)
    return tuple(RosterChange.from_json(item["roster"])
                 if isinstance(item, dict) and set(item) == {"roster"}
                 else parse_rounds(rules, [item])[0] for item in data)


def deleted_document(session: Session | UnavailableSession, time: str,
                     detail: str) -> JSONObject:
    """The stored document of ``session`` as ``score delete`` keeps it: its history ends
    with the deletion (``detail``, e.g. why sync removed it)."""
    document = session.to_document()
    history = document.get("history")
    entries = history if isinstance(history, list) else []
    document["history"] = [*entries, {"time": time, "change": "delete", "detail": detail}]
    return document
