"""What a game declares to the generic layers (registry, session, store, cli), and the
parts of a declaration loaded on first use."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from scorekeeper.i18n import Domain
from scorekeeper.kit.options import HouseRuleOption, RoundOption
from scorekeeper.kit.roster import RosterRule
from scorekeeper.kit.rounds import ScoredRound
from scorekeeper.kit.standings import RoundQuestions, StatFigure, TableGame

if TYPE_CHECKING:
    from scorekeeper.kit.entry_form import EntryForm
    from scorekeeper.kit.marks import GridMarks

__all__ = [
    "GameDeclaration",
    "LoadedOnUse",
    "load_where",
]


_Loaded = TypeVar("_Loaded")


_made: dict[type, object] = {}
"""The one object made of each class a declaration names (a game's table is its
questions too, and its ``widest_round`` is the same table's method)."""


def load_where(where: str) -> object:
    """What ``where`` names: ``module:attribute`` (dots after the colon go on into the
    attribute), the module imported; a class met on the way is made once (called without
    arguments, as ``virtual=`` is) and stands for its object, so
    ``pkg.table:LeastScoreTable.widest_round`` is that one table's method.

    >>> load_where("scorekeeper.kit.entry_form:MAX_ENTRY_TEXT")
    200
    """
    module, colon, attribute = where.partition(":")
    if not colon or not module.strip():
        raise ValueError(f"{where!r} does not say where it is (module:attribute)")
    found: object = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        found = getattr(found, part)
        if isinstance(found, type):
            if found not in _made:
                _made[found] = found()
            found = _made[found]
    return found


class LoadedOnUse(Generic[_Loaded]):
    """A field of :class:`GameDeclaration` given either as the thing itself or as where it
    lives (``"module:attribute"``, :func:`load_where`), loaded when first read.

    Every command loads every game's declaration (the command line lists their options),
    so a declaration names its table rather than importing it: a command on one game's
    session imports that game's table only (docs/performance.md). Reading the field gives
    the thing (loaded once); the declaration keeps what was given
    (:meth:`GameDeclaration.given`). ``dataclasses.replace`` reads every field it is not
    given, so a variant made with it restates the loaded parts it keeps (or they load when
    it is declared)."""

    def __init__(self, *, required: bool = False) -> None:
        self.required = required
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object | None, owner: type) -> _Loaded:
        if instance is None:  # the dataclass asking for the default
            if self.required:
                raise AttributeError(self.name)
            return None  # type: ignore[return-value]  # the field is Optional then
        value = instance.__dict__[self.name]
        if isinstance(value, str):
            value = load_where(value)
            check = getattr(instance, "check_loaded", None)
            if check is not None:
                check(self.name, value)
            instance.__dict__[self.name] = value
        return value  # type: ignore[no-any-return]

    def __set__(self, instance: object, value: _Loaded | str) -> None:
        instance.__dict__[self.name] = value


@dataclass(frozen=True, kw_only=True, eq=False)
class GameDeclaration:
    """Everything the generic layers know of one game, declared in its own folder.

    The registry lists these; the session, the store and the command line read them and
    never a game's name or its round's keys. A declaration is its game: two are the same
    only if they are one object (comparing their fields would load their tables, and
    every command would define two more methods at start-up).
    """

    table: LoadedOnUse[TableGame[Any]] = LoadedOnUse(required=True)
    """The scorekeeper side: options, round checks, standings, statistics, captions.
    Declared as where it lives (``"pkg.table:TheTable"``, made on first use, with
    :attr:`name` and :attr:`title` declared beside it), or as the table itself."""
    house_rules: tuple[HouseRuleOption, ...]
    """``score new``'s options for this game, in the order they are listed."""
    round_options: tuple[RoundOption, ...]
    """``add-round``'s options for this game's rounds."""
    round_usage: str
    """What a round takes besides the values, for a message: ``--leader NAME``."""
    value_word: str
    """What each player's ``NAME=VALUE`` is: ``hand total or cards``, ``points``."""
    values_help: str
    """The values in ``add-round --help``: ``each player's points (Ann=4)``."""
    role_heading: str
    """The grid's column for :attr:`RoundCaption.role`: ``Leader``, ``Pick``."""
    grid_legend: str
    """The line under the round grid."""
    values_key: str
    """The round key (FORMAT.md) of what each player's ``NAME=VALUE`` entered: ``totals``."""
    value_column: str
    """That value in a CSV column's name: ``Ann hand``, ``Ann points``."""
    csv_columns: tuple[str, ...]
    """The round keys (FORMAT.md) a CSV row carries after number and dealer."""
    checked_results: tuple[str, ...] = ()
    """Round keys (FORMAT.md) derived by scoring that an import re-checks, beyond scores
    and knock-outs."""
    questions: LoadedOnUse[RoundQuestions[Any] | None] = LoadedOnUse()
    """At a terminal: what to ask for a round the command line left incomplete, each
    answer checked as it is typed. Without it each missing round option and value is
    asked plainly and checked at the end."""
    narrow_note_heading: str = ""
    """The heading of the game's own column in the narrow grid of ``score show`` (on a
    phone), "" for none."""
    narrow_legend: tuple[tuple[str, str], ...] = ()
    """Each sign the narrow grid puts after a running total, with what it means
    (default: ``*`` for the player the round's caption marks)."""
    narrow_marks: LoadedOnUse[Callable[[ScoredRound], GridMarks] | None] = LoadedOnUse()
    """A round's signs in the narrow grid (default: from :meth:`TableGame.caption`, ``*``
    for the marked player, ``!`` when the round's act failed)."""
    widest_round: LoadedOnUse[Callable[[Sequence[str], Any], ScoredRound] | None] \
        = LoadedOnUse()
    """A scored round as wide as the wide grid of ``score show`` can get
    for these players and house rules: the longest caption, a failure marked, and the
    highest score a deal can give. ``score show`` picks its layout once for the whole
    session from it, so it does not switch part-way through the night (default: the
    rounds played so far)."""
    virtual: str | None = None
    """Where the virtual deck's adapter lives (``module:Class``), imported on first use."""
    bots: tuple[str, ...] = ()
    """The bot levels its virtual deck offers (``--bot``); the bots load with the deck."""
    keyboard_ui: str | None = None
    """The module that shows a view and reads a move at the keyboard, imported on use."""
    online_ui: str | None = None
    """The module that shows a seat's view on its phone and reads its posted moves
    (``score play --online``: ``seat_state``, ``public_state``, ``action_of``,
    ``describe_action``, ``describe_end``, ``hint``), imported on use."""
    words: Domain | None = None
    """Where the game's own catalog is (its gettext domain, in its folder's ``locale/``):
    the words it declares here (help texts, headings, legends) are translated there."""
    description: str = ""
    """The game in one sentence (``score games``; N_-marked, or a group's file's text)."""
    game_files: str | None = None
    """Where the function lives (``module:function``) that makes games of this kind from
    the group's own files, one a file in the config folder's ``games/``: given that
    folder, it gives the declarations it made and one line for each file it refused."""
    origin: str = ""
    """Where a game made from a group's file comes from (its path); "" for the others."""
    roster: LoadedOnUse[RosterRule[Any] | None] = LoadedOnUse()
    """How players join and leave between deals (``score add-player`` / ``drop-player``):
    the game's rule, or None when its players are fixed at ``score new``. A variant
    declared with ``replace`` keeps its base's."""
    entry_form: LoadedOnUse[EntryForm | None] = LoadedOnUse()
    """What each player enters on their own page at the table (``score serve --entry``),
    or where it lives (``"pkg.entry:FORM"``: only the commands that take entries import
    it); None: the game takes no entries from the players' pages."""
    base: str | None = None
    """The package of the game this one builds on (a variant: its table subclasses the
    base's, its declaration replaces what differs); the only other game it may import."""

    name: str = ""
    """The game's name (``high-card``): its table's, declared beside a table named by
    where it lives (taken from a table given itself)."""
    title: str = ""
    """The game's title (``High Card``), likewise."""

    def __post_init__(self) -> None:
        table = self.given("table")
        if not isinstance(table, str):
            object.__setattr__(self, "name", table.name)
            object.__setattr__(self, "title", table.title)
        elif not (self.name and self.title):
            raise ValueError(f"a game whose table is loaded on use ({table}) declares its "
                             "name and title")

    def given(self, field_name: str) -> Any:
        """A field as declared: for a part loaded on use, where it lives until it is read."""
        return self.__dict__[field_name]

    def check_loaded(self, field_name: str, value: object) -> None:
        """A table loaded on use must be the game declared: its name and title."""
        if field_name == "table" and (getattr(value, "name", None), getattr(
                value, "title", None)) != (self.name, self.title):
            raise ValueError(f"{self.given('table')} is not the table of {self.name} "
                             f"({self.title})")

    @property
    def stat_figures(self) -> tuple[StatFigure, ...]:
        return self.table.stat_figures
