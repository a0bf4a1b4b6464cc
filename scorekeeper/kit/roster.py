"""Players who join, leave and come back between deals (``score add-player`` /
``drop-player``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, NamedTuple

from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, RosterError
from scorekeeper.kit.rounds import JSONObject, Round
from scorekeeper.kit.standings import OptionsT, Standings, TableGame

__all__ = [
    "MAX_STARTING_TOTAL",
    "RosterChange",
    "RosterRule",
    "RosterTimeline",
    "next_seat",
]


MAX_STARTING_TOTAL = 1_000_000
"""The generic bound on a late player's starting total, either way (a typing slip guard)."""


class RosterChange(NamedTuple):
    """A player joining (at a starting total), leaving, or coming back after leaving (at
    the total they left with), after ``after`` rounds.

    Stored, and exported, as ``{"after": 2, "join": "Dan", "total": 45}``,
    ``{"after": 3, "leave": "Bob"}`` or ``{"after": 5, "back": "Bob"}`` (docs/format.md's
    ``roster``).

    >>> RosterChange(2, "Dan", joined=True, total=45).to_json()
    {'after': 2, 'join': 'Dan', 'total': 45}
    >>> RosterChange(5, "Bob", joined=True, back=True).to_json()
    {'after': 5, 'back': 'Bob'}
    """

    after: int
    player: str
    joined: bool
    """A join or a return: the player plays from the next deal."""
    total: int | None = None
    """A join's starting total (None for a leave and for a return)."""
    back: bool = False
    """A return of a player who left: their seat, rounds and total are theirs still."""

    @property
    def late(self) -> bool:
        """A late player's first join (not a return): they were not at ``score new``."""
        return self.joined and not self.back

    def to_json(self) -> JSONObject:
        if self.back:
            return {"after": self.after, "back": self.player}
        if self.joined:
            return {"after": self.after, "join": self.player, "total": self.total}
        return {"after": self.after, "leave": self.player}

    @classmethod
    def from_json(cls, data: Any) -> RosterChange:
        """A stored or imported change, every part checked for its type."""
        shape = _('a roster change must be {"after": N, "join": NAME, "total": N}, '
                  '{"after": N, "leave": NAME} or {"after": N, "back": NAME}')
        if not isinstance(data, dict):
            raise EntryError(shape)
        after = data.get("after")
        if type(after) is not int or not 0 <= after <= 1_000_000:
            raise EntryError(shape)
        if set(data) == {"after", "join", "total"} and isinstance(data["join"], str) \
                and type(data["total"]) is int \
                and abs(data["total"]) <= MAX_STARTING_TOTAL:
            return cls(after, data["join"], joined=True, total=data["total"])
        if set(data) == {"after", "leave"} and isinstance(data["leave"], str):
            return cls(after, data["leave"], joined=False)
        if set(data) == {"after", "back"} and isinstance(data["back"], str):
            return cls(after, data["back"], joined=True, back=True)
        raise EntryError(shape)

    def renamed(self, names: Mapping[str, str]) -> RosterChange:
        return self._replace(player=names.get(self.player, self.player))

    def at(self, after: int) -> RosterChange:
        return self._replace(after=after)

    def describe(self) -> str:
        """``Dan joined at 45``, ``Bob left``, ``Bob came back``: the change in the log and
        the views."""
        if self.back:
            return _("{name} came back").format(name=self.player)
        if self.joined:
            return _("{name} joined at {total}").format(name=self.player, total=self.total)
        return _("{name} left").format(name=self.player)


def next_seat(seating: Sequence[str], name: str, among: Iterable[str]) -> str | None:
    """The next player after ``name`` in seating order (to the left) among ``among``;
    None when there is nobody."""
    remaining = set(among)
    start = seating.index(name)
    for step in range(1, len(seating) + 1):
        candidate = seating[(start + step) % len(seating)]
        if candidate in remaining:
            return candidate
    return None


class RosterTimeline:
    """A session's roster changes laid over its rounds, for a game's standings loop.

    ``players`` is the whole seating (everyone who ever sat, a late player after those
    already seated); :meth:`start` is who played the first deal and :meth:`apply` brings
    in the changes made after each round, checking each against the game's range of
    players (``low``, ``high``: those still in count)."""

    def __init__(self, players: Sequence[str], roster: Sequence[RosterChange], rounds: int,
                 low: int, high: int) -> None:
        self.players, self.roster, self.low, self.high = list(players), list(roster), low, high
        joins = [change.player for change in roster if change.late]
        previous = 0
        for change in roster:
            if change.after < previous or change.after > rounds:
                raise RosterError(change.after, change.describe(), _(
                    "the changes must follow the rounds in order, each after round 0 to "
                    "{rounds}").format(rounds=rounds))
            previous = change.after
            if change.player not in self.players:
                raise RosterError(change.after, change.describe(), _(
                    "{name} is not among the session's players").format(name=change.player))
            if change.joined and joins.count(change.player) > 1:
                raise RosterError(change.after, change.describe(), _(
                    "{name} joins twice").format(name=change.player))
        self.joined = set(joins)

    def start(self) -> list[str]:
        return [name for name in self.players if name not in self.joined]

    def apply(self, after: int, still_in: list[str], running: dict[str, int],
              left: list[str], dealer: str | None) -> tuple[list[str], str | None]:
        """Who is still in, and who deals next, once the changes made after round
        ``after`` are applied, one by one; ``running`` gets each late player's starting
        total, ``left`` each leaver (and loses them again when they come back, at the
        total they left with). A leaver's deal passes to the next player still in
        (a late player who joins afterwards does not take it back)."""
        present = set(still_in)
        for change in self.roster:
            if change.after != after:
                continue
            what = change.describe()
            if change.back:
                if change.player not in left:
                    raise RosterError(after, what, _("{name} did not leave, so can't come back")
                                      .format(name=change.player))
                left.remove(change.player)  # their total is the one they left with
                present.add(change.player)
            elif change.joined:
                if change.player in running:
                    raise RosterError(after, what, _("{name} is already in the game")
                                      .format(name=change.player))
                running[change.player] = change.total or 0
                present.add(change.player)
            else:
                if change.player not in present:
                    raise RosterError(after, what, _("{name} is not playing, so can't leave")
                                      .format(name=change.player))
                present.discard(change.player)
                left.append(change.player)
            if not self.low <= len(present) <= self.high:
                raise RosterError(after, what, _(
                    "the game takes {low} to {high} players still in, not {n}").format(
                    low=self.low, high=self.high, n=len(present)))
            if dealer is not None and dealer not in present and dealer in self.players:
                dealer = next_seat(self.players, dealer, present)
        return [name for name in self.players if name in present], dealer

    def starting(self) -> dict[str, int]:
        return {change.player: change.total or 0 for change in self.roster if change.late}


class RosterRule(ABC, Generic[OptionsT]):
    """How a game takes players who join and leave between deals: declared by the game
    (:attr:`GameDeclaration.roster`); a game that declares none keeps the players of
    ``score new``.

    This generic rule starts a late player at 0 and takes any starting total within
    :data:`MAX_STARTING_TOTAL` either way; the session keeps the number of players still
    in within the table's range. A game subclasses it for what differs (its starting
    total, what a total may be, a refusal of its own) and gives :meth:`recompute`, its
    standings with the changes laid over its rounds."""

    def starting_total(self, table: TableGame[OptionsT], options: OptionsT,
                       standings: Standings) -> int:
        """A late player's total when ``--total`` does not say."""
        return 0

    def starting_words(self, table: TableGame[OptionsT], options: OptionsT,
                       standings: Standings, name: str, total: int) -> str:
        """Why ``name``, who joined, starts at ``total`` (``standings``: with them), after
        the total: ``at 0, where every player started``; a game says its own rule."""
        if total == 0:
            return _("at 0, where every player started")
        return _("at {total}, as --total said").format(total=total)

    def check_total(self, table: TableGame[OptionsT], options: OptionsT, total: int) -> None:
        """Refuse a starting total the game does not allow (EntryError)."""
        if abs(total) > MAX_STARTING_TOTAL:
            raise EntryError(_("a starting total must be within {most} either way, not "
                               "{total}").format(most=MAX_STARTING_TOTAL, total=total))

    def check_join(self, table: TableGame[OptionsT], options: OptionsT,
                   standings: Standings, name: str) -> None:
        """Refuse a join the game's own rules forbid (beyond the range of players)."""
        return  # by default the game's own rules forbid none

    def check_return(self, table: TableGame[OptionsT], options: OptionsT,
                     standings: Standings, name: str) -> None:
        """Refuse the return of ``name``, who left, if the game's rules forbid it (beyond
        the range of players). A player who comes back keeps their seat, their rounds and
        the total they left with; by default the game allows it."""
        return  # by default a player who left may come back

    def check_leave(self, table: TableGame[OptionsT], options: OptionsT,
                    standings: Standings, name: str) -> None:
        """Refuse a leave the game's own rules forbid (beyond the range of players)."""
        return  # by default the game's own rules forbid none

    @abstractmethod
    def recompute(self, table: TableGame[OptionsT], players: Sequence[str], options: OptionsT,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        """The standings with the changes laid over the rounds (the game's table)."""

    def standings(self, table: TableGame[OptionsT], players: Sequence[str], options: OptionsT,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        """:meth:`recompute`, each late player's starting total checked first."""
        for change in roster:
            if change.late:
                try:
                    self.check_total(table, options, change.total or 0)
                except EntryError as error:
                    raise RosterError(change.after, change.describe(), str(error)) from None
        return self.recompute(table, players, options, first_dealer, rounds, roster)
