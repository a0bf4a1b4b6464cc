"""The standings loop, written once: the rounds in order with the players who join and
leave between them, the deal passing round the table, the knock-outs, the game over;
each game gives only how a round scores and when its game is over (:func:`play_rounds`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, RosterError, RoundError
from scorekeeper.kit.roster import RosterChange, RosterTimeline, next_seat
from scorekeeper.kit.rounds import Round, ScoredRound
from scorekeeper.kit.standings import Standings

__all__ = ["Played", "RosterCheck", "first_players", "play_rounds"]


class Played:
    """The night so far, as :func:`play_rounds` leaves it (and as a game's scoring sees
    it before each round: who is still in, the running totals, who deals).

    A plain class, not a dataclass: it is made once per command and defining a dataclass
    costs `score add-round` half a millisecond of its start-up (docs/performance.md)."""

    __slots__ = (
        "dealer",
        "finished",
        "knocked",
        "left",
        "players",
        "running",
        "scored",
        "starting",
        "still_in",
    )

    def __init__(self, players: list[str], still_in: list[str], running: dict[str, int],
                 dealer: str | None, left: list[str] | None = None,
                 scored: list[ScoredRound] | None = None, finished: bool = False,
                 starting: dict[str, int] | None = None,
                 knocked: list[str] | None = None) -> None:
        self.players = players
        """The whole seating: everyone who ever sat."""
        self.still_in = still_in
        self.running = running
        self.dealer = dealer
        self.left = [] if left is None else left
        self.scored = [] if scored is None else scored
        self.finished = finished
        self.starting = {} if starting is None else starting
        self.knocked = [] if knocked is None else knocked
        """The players knocked out, in the order they went out (each scored round's
        ``knocked_out``): they play no more deals."""

    def totals_in(self) -> dict[str, int]:
        """The running totals of the players still in."""
        return {name: self.running[name] for name in self.still_in}

    def standings(self, winners: Sequence[str] = (), notes: Sequence[str] = (),
                  next_deal: str | None = None,
                  next_starter: str | None = None) -> Standings:
        """The :class:`Standings` of the night: the game says who won, its notes and
        who deals and starts next (shown while the game is on)."""
        return Standings(totals=self.running, knocked_out=list(self.knocked),
                         still_in=self.still_in, finished=self.finished,
                         winners=list(winners), rounds=self.scored,
                         next_dealer=None if self.finished else self.dealer,
                         notes=list(notes), next_deal=next_deal, next_starter=next_starter,
                         left=self.left, starting=self.starting)


RosterCheck = Callable[[int, Sequence[RosterChange], Played], None]
"""A game's own check of the roster changes made after round N (``after``, the changes,
the night): raises :class:`RosterError` for a change its rules refuse."""


def first_players(players: Sequence[str], roster: Sequence[RosterChange], rounds: int,
                  low: int, high: int) -> list[str]:
    """Who plays the first deal: the seating, without the players who join later (as
    :func:`play_rounds` with the same arguments starts; raising the :class:`RosterError`
    it would for a roster that does not fit the rounds)."""
    return RosterTimeline(players, roster, rounds, low, high).start()


def _changes(timeline: RosterTimeline, after: int, played: Played,
             before: RosterCheck | None, then: RosterCheck | None) -> None:
    """The roster changes made after round ``after`` laid over the night, with the game's
    checks before and after them."""
    changes = [change for change in timeline.roster if change.after == after]
    if changes and before is not None:
        before(after, changes, played)
    played.still_in, played.dealer = timeline.apply(
        after, played.still_in, played.running, played.left, played.dealer)
    if changes and then is not None:
        then(after, changes, played)


def play_rounds(players: Sequence[str], first_dealer: str | None, rounds: Sequence[Round],
                roster: Sequence[RosterChange], low: int, high: int, *,
                score: Callable[[int, Round, Played], ScoredRound],
                over: Callable[[Played, int], bool],
                already_over: Callable[[int, Played], str] | None = None,
                before_changes: RosterCheck | None = None,
                after_changes: RosterCheck | None = None) -> Played:
    """Every round in order: before each, the roster changes made after the one before
    (a late player's starting total, a leaver, the deal passed over a leaver) checked
    against ``low``..``high`` players still in, and by the game's own
    ``before_changes``/``after_changes`` (called with the changes, before and after they
    are laid over ``played``); ``score(number, round, played)`` scores the round (raising
    :class:`EntryError` for one that does not fit, another game's round included; refused
    as that round's :class:`RoundError`), its scores are added to the running totals, the
    players it knocked out (its ``knocked_out``) leave ``still_in`` for ``knocked``,
    ``over(played, number)`` says whether the game is over, and the deal passes to the
    left among those still in. A round after the game is over is refused
    (``already_over(number, played)`` says so; by default "the game was already over
    after deal N"), and so is a change after its last round."""
    timeline = RosterTimeline(players, roster, len(rounds), low, high)
    still_in = timeline.start()
    played = Played(list(players), still_in, dict.fromkeys(still_in, 0), first_dealer,
                    starting=timeline.starting())
    for number, entered in enumerate(rounds, start=1):
        if played.finished:
            raise RoundError(number, already_over(number, played) if already_over else _(
                "the game was already over after deal {number}").format(number=number - 1))
        _changes(timeline, number - 1, played, before_changes, after_changes)
        try:
            scored = score(number, entered, played)
        except EntryError as error:
            raise RoundError(number, str(error)) from None
        for name, points in scored.scores.items():
            played.running[name] += points
        if scored.knocked_out:
            played.knocked.extend(scored.knocked_out)
            played.still_in = [name for name in played.still_in
                               if name not in scored.knocked_out]
        played.scored.append(scored)
        played.finished = over(played, number)
        if played.dealer is not None and played.dealer in players:
            played.dealer = next_seat(players, played.dealer, played.still_in)
    if not played.finished:
        _changes(timeline, len(rounds), played, before_changes, after_changes)
    elif any(change.after == len(rounds) for change in roster):
        raise RosterError(len(rounds), roster[-1].describe(), _("the game was already over"))
    return played
