"""A game's life on the virtual deck, stored: what ``score play`` does between parsing
its command line and rendering what happens.

A :class:`GameLife` is one ``score play`` driving one virtual session of the store:

- :meth:`GameLife.start` adds a new game to the store, :meth:`GameLife.resume` takes an
  unfinished one up again (refusing a finished game, another game's session, or a
  session another ``score play`` drives);
- either way it holds the session's lease (:class:`~scorekeeper.store.SessionLease`)
  until :meth:`GameLife.close`: one ``play`` per session;
- :meth:`GameLife.play` plays deal after deal (:func:`scorekeeper.match.play_to_end`)
  and saves each as a compare-and-set over the revision this play last wrote, so a
  session changed or deleted by another command meanwhile is never overwritten
  (:class:`SessionChangedDuringPlay`, :class:`SessionDeletedDuringPlay`). The store's
  lock is held only for each write, never while a human thinks;
- :meth:`GameLife.stop`, after an interrupt, leaves the store as a resume needs it: a
  game nobody has seen a card of is taken out again, a deal stopped midway is marked
  to be dealt afresh; it returns what it did (:class:`Stopped`) for the command to say.

Nothing here prints: the command hands in :class:`PlayHooks` and renders the records
and errors it gets back.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scorekeeper import match
from scorekeeper.errors import EntryError
from scorekeeper.games.virtual import DealState
from scorekeeper.i18n import _, ngettext
from scorekeeper.registry import get_game
from scorekeeper.session import Session
from scorekeeper.store import (
    SessionChanged,
    SessionLease,
    Store,
    StoreError,
    StoreView,
    WritableStoreView,
)


class SessionBusy(EntryError):
    """Another ``score play`` holds the session's lease."""

    def __init__(self, session_id: int) -> None:
        super().__init__(_("session {id} is being played by another `score play` right now; "
                           "only one can drive a game at a time (stop that one, then "
                           "`score play --resume {id}`)").format(id=session_id))
        self.session_id = session_id


class NothingToResume(EntryError):
    """The session asked for is finished."""

    def __init__(self, session: Session) -> None:
        super().__init__(_("{session} is finished: nothing to resume").format(
            session=session.label))


class NotThatGame(EntryError):
    """``score play GAME --resume ID`` where session ID is another game."""

    def __init__(self, session: Session, asked: str) -> None:
        super().__init__(_("session {id} is {game}, not {asked}").format(
            id=session.id, game=session.rules.title, asked=asked))


class SessionDeletedDuringPlay(EntryError):
    """Deal ``deal`` could not be saved: the session is gone from the store (deleted by
    another command, or gone with a restored backup). Nothing more of it can be saved."""

    def __init__(self, session_id: int | None, deal: int) -> None:
        super().__init__(_(
            "session {id} was deleted by another score command during this game, so the "
            "game stopped: deal {deal} was not saved, and nothing more of it can be").format(
            id=session_id, deal=deal))
        self.deal = deal


class SessionChangedDuringPlay(EntryError):
    """Deal ``deal`` was not saved: another command changed the session since this play
    last wrote it. The deals saved before are safe; a resume goes on from the store."""

    def __init__(self, session_id: int | None, deal: int) -> None:
        saved = deal - 1
        super().__init__(ngettext(
            "session {id} was changed by another score command during this game, so "
            "deal {deal} was not saved and the game stopped; the {n} deal saved before "
            "are safe: `score play --resume {id}` goes on from the game as it is stored "
            "now",
            "session {id} was changed by another score command during this game, so "
            "deal {deal} was not saved and the game stopped; the {n} deals saved before "
            "are safe: `score play --resume {id}` goes on from the game as it is stored "
            "now", saved).format(id=session_id, deal=deal, n=saved))
        self.deal = deal


@dataclass(frozen=True, slots=True)
class PlayHooks:
    """What the command does as the game goes on (all optional: bots alone need none).

    ``choose_human(player, view, problem)`` asks a human for an action; ``on_start(deal)``
    sees each deal dealt, ``on_action(player, action, deal)`` each action played and
    ``on_saved(session)`` the session as stored after each deal."""

    choose_human: match.HumanChooser | None = None
    on_action: match.ActionObserver | None = None
    on_start: Callable[[DealState], None] | None = None
    on_saved: Callable[[Session], None] | None = None


class StopKind(enum.Enum):
    NOTHING_SAVED = "nothing saved"
    """Stopped before anyone saw a card of a new game: the game is taken out again."""
    DELETED = "deleted"
    """The session is gone from the store: nothing more of it can be saved."""
    SAVED = "saved"
    """The game is stored after its last finished deal, for ``score play --resume``."""


@dataclass(frozen=True, slots=True)
class Stopped:
    """What :meth:`GameLife.stop` left in the store."""

    kind: StopKind
    session_id: int | None
    done: int
    """The deals saved."""
    dealt_again: int | None = None
    """The deal marked to be dealt from a fresh shuffle on resume (None: not recorded)."""


def still_stored(db: Store, session_id: int | None) -> bool:
    """Whether session ``session_id`` is still in the store (not deleted meanwhile by
    another command, nor gone with a restored backup): only then can a play save more of
    it, or be resumed."""
    return session_id is not None and session_id in db.read().session_ids()


def table_night(view: StoreView) -> Session | None:
    """The current session when it is a table session still being played: a game on the
    virtual deck leaves it current, so the table's next `add-round` (and a running
    `score serve`) stay with it."""
    current = view.current_id
    if current is None or current not in view.session_ids():
        return None
    session = view.get(current)
    if session.mode != "table" or session.finished or session.abandoned:
        return None
    return session


def record_restart(db: Store, session_id: int, number: int, revision: int) -> bool:
    """Mark deal ``number`` abandoned in the store, so a resume deals fresh cards.

    Only while the stored game still waits for that deal (nothing else changed it:
    it is at the ``revision`` this play last wrote)."""
    with db.write() as view:
        stored = view.get(session_id)
        if stored.revision != revision or stored.finished or len(stored.rounds) + 1 != number:
            return False
        view.put(match.record_restart(stored, number))
    return True


def _lease(db: Store, session_id: int) -> SessionLease:
    """The session's lease, taken: one `play` per session."""
    lease = SessionLease(db.lease_path(session_id))
    if not lease.acquire():
        raise SessionBusy(session_id)
    return lease


class GameLife:
    """One ``score play`` of one stored virtual session, from its start (or resume) to
    its end or interrupt. Holds the session's lease until :meth:`close` (or the end of a
    ``with`` block)."""

    def __init__(self, db: Store, session: Session, lease: SessionLease, *, resumed: bool,
                 kept: Session | None, was_current: int | None) -> None:
        self.db = db
        self.session = session
        """The session as this play last stored it."""
        self.resumed = resumed
        self.kept = kept
        """The table session in progress that stays current, if any."""
        self.was_current = was_current
        """The current session before a new game's (to restore if it is taken out)."""
        self.dealing: int | None = None
        """The number of the deal on the table once dealt (until it is saved)."""
        self._lease = lease
        self._written = session.revision
        """A deal is saved only over the revision this play wrote."""

    @property
    def seats(self) -> list[match.Seat]:
        return match.seats_of(self.session)

    @property
    def humans(self) -> list[str]:
        return [seat.name for seat in self.seats if seat.bot is None]

    def close(self) -> None:
        """Release the session's lease."""
        self._lease.release()

    def __enter__(self) -> GameLife:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @classmethod
    def start(cls, db: Store, game: str, seats: list[match.Seat], seed: int, *,
              name: str = "", options: Mapping[str, object] | None = None) -> GameLife:
        """A new game saved in the store (it becomes the current session unless a table
        session is in progress), its lease taken before anything else can see it."""
        session = match.start_game(game, seats, seed, name=name, options=options)
        with contextlib.ExitStack() as undo, db.write() as view:
            was_current, kept = view.current_id, table_night(view)
            session = view.add(session)
            if kept is not None and kept.id is not None:
                view.set_current(kept.id)
            # Before the game is saved, so no `play --resume` can take it first.
            lease = _lease(db, session.id or 0)
            undo.callback(lease.release)
            life = cls(db, session, lease, resumed=False, kept=kept, was_current=was_current)
            undo.pop_all()
        return life

    @classmethod
    def resume(cls, db: Store, session_id: int, game: str = "") -> GameLife:
        """The unfinished virtual session ``session_id`` taken up again (``game``, when
        given, must be its game); it becomes the current session unless a table session
        is in progress."""
        session = db.read().get(session_id)
        match.seats_of(session)  # refuses a session not played on the virtual deck
        if session.finished:
            raise NothingToResume(session)
        if game and get_game(game).name != session.game:
            raise NotThatGame(session, game)
        lease = _lease(db, session_id)
        with contextlib.ExitStack() as undo:
            undo.callback(lease.release)
            kept: Session | None = None

            def take_up(view: WritableStoreView) -> Session:
                nonlocal kept
                kept = table_night(view)
                if kept is None:
                    view.set_current(session_id)
                return view.get(session_id)

            session = db.update(take_up)  # as stored now that this play drives it
            if session.finished:
                raise NothingToResume(session)
            life = cls(db, session, lease, resumed=True, kept=kept, was_current=None)
            undo.pop_all()
        return life

    def play(self, hooks: PlayHooks | None = None) -> Session:
        """Play the game to its end, saving every deal; the finished session."""
        hooks = hooks or PlayHooks()

        def on_start(deal: DealState) -> None:
            self.dealing = len(self.session.rounds) + 1
            if hooks.on_start is not None:
                hooks.on_start(deal)

        def on_deal(updated: Session) -> None:
            self.session = self.save(updated)
            if hooks.on_saved is not None:
                hooks.on_saved(self.session)

        return match.play_to_end(self.session, on_deal=on_deal, on_start=on_start,
                                 choose_human=hooks.choose_human, on_action=hooks.on_action)

    def save(self, updated: Session) -> Session:
        """Store ``updated`` (the session with one more deal) over the revision this play
        last wrote; refuse it if another command changed or deleted the session since."""
        try:
            with self.db.write() as view:
                stored = view.put(updated.with_revision(self._written))
        except SessionChanged:
            deal = len(updated.rounds)
            if not still_stored(self.db, updated.id):
                raise SessionDeletedDuringPlay(updated.id, deal) from None
            raise SessionChangedDuringPlay(updated.id, deal) from None
        self._written = stored.revision
        return stored

    def stop(self, *, hand_seen: bool) -> Stopped:
        """After an interrupt: leave the store ready for a resume, and say what it holds.

        ``hand_seen`` says whether a human has been shown a hand: a new game stopped
        before that is taken out again (nothing to keep); a deal stopped midway is dealt
        afresh on resume (a human may have seen its cards)."""
        done = len(self.session.rounds)
        session_id = self.session.id
        if not self.resumed and done == 0 and not hand_seen and session_id is not None:
            self._discard_unplayed(session_id)
            return Stopped(StopKind.NOTHING_SAVED, session_id, done)
        if session_id is not None and not still_stored(self.db, session_id):
            return Stopped(StopKind.DELETED, session_id, done)
        abandoned = self.dealing
        if abandoned == done + 1 and session_id is not None \
                and record_restart(self.db, session_id, abandoned, self._written):
            return Stopped(StopKind.SAVED, session_id, done, dealt_again=abandoned)
        return Stopped(StopKind.SAVED, session_id, done)

    def _discard_unplayed(self, session_id: int) -> None:
        """A game stopped before anyone saw a card leaves no empty session behind (unless
        another command has changed it meanwhile)."""
        with contextlib.suppress(StoreError):
            self.db.update(lambda view: view.discard(session_id, self._written,
                                                     self.was_current))
