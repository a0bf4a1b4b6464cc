"""The one place where games are registered.

A game is one folder: its rules, its table module (scorekeeping), its catalog, for the
virtual deck its engine, bots, adapter and keyboard UI, and a ``game.py`` whose
:class:`~scorekeeper.kit.declaration.GameDeclaration` says all the generic layers need.
Games are found through the ``scorekeeper.games`` entry points of the installed
distributions (``[project.entry-points."scorekeeper.games"]`` in a pyproject.toml,
``NAME = "package.game:GAME"``); the built-in games are declared the same way in this
project's own pyproject.toml. Run from a source tree whose metadata is not installed
(or is older than the tree), no entry point comes from this package: the folders of
``scorekeeper/games/`` holding a ``game.py`` are the built-in games then. A game may
also be added with :func:`register`, or named in the ``SCOREKEEPER_GAMES`` environment
variable as ``module:ATTRIBUTE`` (comma-separated); ``SCOREKEEPER_GAME_DISTRIBUTIONS``
(comma-separated distribution names) limits the entry points read to those
distributions' (the test suite's own games, whatever else is installed). A plug-in that
fails to load is left out with one line on stderr; the other games still work.

The group's own games are files in the config folder's ``games/``, each made into a
game by the game whose declaration names ``game_files`` (Points: a TOML file is a
points game with its own name and settings). That folder is read only when a game is
asked for by a name no installed game has, or when every game is listed
(:func:`all_declarations`): the commands on the built-in games never read it. A file
that can't be a game is left out with one line on stderr (its path and line).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from importlib import resources
from typing import TYPE_CHECKING, Any, NamedTuple

from scorekeeper import files, i18n
from scorekeeper.i18n import _
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.standings import TableGame
from scorekeeper.text import show_controls

if TYPE_CHECKING:
    from scorekeeper.games.virtual import VirtualGame

Loader = Callable[[], object]
"""How to have one game's declaration: its module imported, its attribute read."""


class _Declarations(MutableMapping[str, GameDeclaration]):
    """Every registered game's declaration by name, in the order the games were found.

    The installed games are found at import (the entry points read, without importing
    them), and each is imported when first asked for by name: a command on one game's
    session imports that game's declaration alone, not every game's (start-up is the
    table's wait). Asked for a name no waiting game bears, and whenever they are listed
    (iterated, counted), every waiting game is imported, in the order they were found, as
    all were before: the first of a name wins, and a plug-in that fails to load is said
    then, in one line on stderr (:func:`_load`)."""

    def __init__(self) -> None:
        self._games: dict[str, GameDeclaration] = {}
        self._places: dict[str, int] = {}
        self._waiting: list[tuple[int, str, str, Loader, str]] = []
        """(place, name, where, load, origin) of each game found and not yet imported."""
        self._found = 0
        self._placing: int | None = None
        self._loading = threading.RLock()
        """Held while games are imported: a server's threads may ask for them at once."""

    def wait(self, name: str, where: str, load: Loader, origin: str) -> None:
        """Add a game found under ``name`` (its entry point's; the declaration's own name
        is known once it is imported), to import when asked for."""
        self._waiting.append((self._found, name.strip().lower(), where, load, origin))
        self._found += 1

    def load(self, name: str | None = None) -> None:
        """Import the waiting games found under ``name`` (None: all of them)."""
        with self._loading:
            chosen = [each for each in self._waiting if name is None or each[1] == name]
            for each in chosen:
                self._waiting.remove(each)
            for place, _name, where, load, origin in chosen:
                self._placing = place
                try:
                    _load(where, load, origin)
                finally:
                    self._placing = None

    def loaded(self, name: str) -> GameDeclaration | None:
        """The declaration of ``name`` if it is imported, without importing any."""
        return self._games.get(name)

    def __getitem__(self, name: str) -> GameDeclaration:
        if name not in self._games and self._waiting:
            with self._loading:
                self.load(name)
                if name not in self._games:
                    self.load()
        return self._games[name]

    def __setitem__(self, name: str, declaration: GameDeclaration) -> None:
        if name not in self._places:
            self._places[name] = self._found if self._placing is None else self._placing
            self._found += self._placing is None
        self._games[name] = declaration

    def __delitem__(self, name: str) -> None:
        del self._games[name]
        del self._places[name]

    def __iter__(self) -> Iterator[str]:
        self.load()
        return iter(sorted(self._games, key=self._places.__getitem__))

    def __len__(self) -> int:
        self.load()
        return len(self._games)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


DECLARATIONS = _Declarations()


class _Tables(Mapping[str, TableGame[Any]]):
    """Each registered game's table by name, each loaded when it is looked up (a game's
    declaration names its table; a command imports the tables it uses, not every game's)."""

    def __getitem__(self, name: str) -> TableGame[Any]:
        return DECLARATIONS[name].table

    def __iter__(self) -> Iterator[str]:
        return iter(DECLARATIONS)

    def __len__(self) -> int:
        return len(DECLARATIONS)


GAMES: Mapping[str, TableGame[Any]] = _Tables()
"""Each game's table side by name (kept for the callers that only score)."""

ORIGINS: dict[str, str] = {}
"""Where each game comes from: ``built-in`` (this package), ``plug-in`` (another
distribution, ``$SCOREKEEPER_GAMES`` or :func:`register`) or ``file`` (the group's own)."""
BUILT_IN, PLUG_IN, GROUP_FILE = "built-in", "plug-in", "file"
GROUP_GAMES_FOLDER = "games"
"""The folder beside the config file that holds the group's own games."""
_group_games_read = False

_virtual: dict[str, VirtualGame] = {}
"""Each game's virtual deck, imported on first use, so that the commands at the table
never load the engines and bots (start-up time is the table's wait)."""

GAMES_VARIABLE = "SCOREKEEPER_GAMES"
DISTRIBUTIONS_VARIABLE = "SCOREKEEPER_GAME_DISTRIBUTIONS"
ENTRY_POINT_GROUP = "scorekeeper.games"
"""The entry point group games are declared in (``NAME = "module:ATTRIBUTE"``)."""
PACKAGE = __name__.partition(".")[0]
GAMES_PACKAGE = f"{PACKAGE}.games"


def register(declaration: GameDeclaration) -> None:
    """Add a game; refuse a name taken. Its options are its own: another game may have a
    house rule or a round option of the same name, of another kind or with other values
    (each game's command takes its own: ``score new GAME``, ``add-round`` on its
    session)."""
    if DECLARATIONS.loaded(declaration.name) not in (None, declaration):
        raise ValueError(f"a game called {declaration.name!r} is already registered")
    DECLARATIONS[declaration.name] = declaration
    if declaration.words is not None:
        i18n.add_domain(declaration.words)


class EntryPoint(NamedTuple):
    """One ``NAME = module:attribute`` of an entry point group, as a distribution
    declares it (``[project.entry-points."scorekeeper.games"]`` in its pyproject.toml).

    A named tuple, as ``importlib.metadata``'s own once was: every command reads the
    entry points, and a named tuple is defined in a seventh of a dataclass's time."""

    name: str
    value: str
    distribution: str
    """The distribution's normalized name (``cardnight_scorekeeper``)."""

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    def load(self) -> object:
        """What the entry point names: its module imported, then its attribute."""
        attribute = self.value.partition(":")[2].partition("[")[0].strip()
        found: object = importlib.import_module(self.module)
        for part in filter(None, attribute.split(".")):
            found = getattr(found, part)
        return found


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _group(text: str, group: str) -> Iterator[tuple[str, str]]:
    """The ``name = value`` lines of section ``[group]`` of an ``entry_points.txt``."""
    section = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group:
            name, equals, value = line.partition("=")
            if equals:
                yield name.strip(), value.strip()


def entry_points(group: str = ENTRY_POINT_GROUP,
                 path: Iterable[str] | None = None) -> list[EntryPoint]:
    """The entry points of ``group`` of the distributions installed on ``path`` (default:
    ``sys.path``): the ``entry_points.txt`` of each ``*.dist-info`` or ``*.egg-info``
    folder, the first folder of a distribution's name winning. That is what
    ``importlib.metadata.entry_points(group=...)`` reads (tests/test_third_game.py checks
    that they agree), read without importing importlib.metadata and the email package it
    brings, which cost every command some 15 ms of start-up (benchmarks/).

    What that fast reading can't see, a zip file on the path (a zipapp, a zipped egg) or
    an egg's folder (its metadata in ``EGG-INFO``), is asked of importlib.metadata, for
    that entry of the path alone (tests/test_entry_points_elsewhere.py)."""
    found: list[EntryPoint] = []
    seen: set[str] = set()
    for entry in sys.path if path is None else path:
        folder = entry or "."
        if folder.lower().endswith(".egg") or os.path.isfile(folder):
            found += _through_metadata(folder, group, seen)
            continue
        try:
            names = os.listdir(folder)
        except OSError:  # gone, or not readable
            continue
        for name in names:
            stem, _dot, kind = name.rpartition(".")
            if kind not in ("dist-info", "egg-info"):
                continue
            distribution = _normalized(stem.partition("-")[0])
            if distribution in seen:
                continue
            seen.add(distribution)
            try:
                with open(os.path.join(folder, name, "entry_points.txt"),
                          encoding="utf-8") as file:
                    text = file.read()
            except OSError:
                continue
            found += [EntryPoint(key, value, distribution) for key, value in _group(text, group)]
    return found


def _through_metadata(entry: str, group: str, seen: set[str]) -> list[EntryPoint]:
    """The entry points of ``group`` that importlib.metadata finds in ``entry`` of the
    path (a zip file, an egg), the distributions already seen left out."""
    from importlib import metadata  # only for such an entry: its import costs start-up

    found: list[EntryPoint] = []
    for distribution in metadata.distributions(path=[entry]):
        name = _normalized(distribution.metadata["Name"] or "")
        if not name or name in seen:
            continue
        seen.add(name)
        found += [EntryPoint(point.name, point.value, name)
                  for point in distribution.entry_points.select(group=group)]
    return found


def _entry_points() -> list[EntryPoint]:
    """The group's entry points: this package's own first, then the others, by name;
    with ``$SCOREKEEPER_GAME_DISTRIBUTIONS`` set, only those of the distributions it
    names (:func:`distributions_allowed`)."""
    allowed = distributions_allowed()
    found = [point for point in entry_points()
             if allowed is None or point.distribution in allowed]
    return sorted(found, key=lambda point: (
        point.module.partition(".")[0] != PACKAGE, point.name))


def distributions_allowed() -> frozenset[str] | None:
    """The distributions whose games are registered, from ``$SCOREKEEPER_GAME_DISTRIBUTIONS``
    (comma-separated names, spelled as pip does, ``cardnight-scorekeeper``), or None
    (unset: every installed one). The test suite sets it to this project's own and its
    test plug-ins, so that a game installed beside them changes no test."""
    value = os.environ.get(DISTRIBUTIONS_VARIABLE)
    if value is None:
        return None
    return frozenset(_normalized(name.strip()) for name in value.split(",") if name.strip())


def _built_in_folders() -> Iterator[tuple[str, str, Loader]]:
    """The built-in games without installed metadata: each folder of the games package
    with a ``game.py``, as (its name, where, how to load its declaration)."""
    for folder in sorted(resources.files(GAMES_PACKAGE).iterdir(), key=lambda f: f.name):
        if folder.is_dir() and (folder / "game.py").is_file():
            module = f"{GAMES_PACKAGE}.{folder.name}.game"

            def load(module: str = module) -> object:
                return importlib.import_module(module).GAME

            yield folder.name.replace("_", "-"), module, load


def _from_environment() -> Iterator[tuple[str, Loader]]:
    for spec in filter(None, (part.strip() for part in
                              os.environ.get(GAMES_VARIABLE, "").split(","))):
        module, _colon, attribute = spec.partition(":")

        def load(module: str = module, attribute: str = attribute or "GAME") -> object:
            return getattr(importlib.import_module(module), attribute)

        yield f"{spec} (${GAMES_VARIABLE})", load


def _load(where: str, load: Loader, origin: str = PLUG_IN) -> None:
    """Register the declaration ``load`` gives; a broken one is left out, said in one
    line on stderr (a plug-in's error is not the table's: the other games still work)."""
    try:
        declaration = load()
        if not isinstance(declaration, GameDeclaration):
            raise TypeError(_("it is not a game's declaration but {kind}").format(
                kind=type(declaration).__name__))
        register(declaration)
        ORIGINS.setdefault(declaration.name, origin)
    except Exception as error:  # anything a plug-in's import may raise
        reason = str(error) or type(error).__name__
        _warn(_("score: the game {where} is left out: {reason}").format(
            where=where, reason=reason.splitlines()[0]))


def _warn(line: str) -> None:
    """One line on stderr about a game left out: a file's name or a plug-in's message is
    text from outside, so its control characters are written as their escapes."""
    print(show_controls(line), file=sys.stderr)


def _register_installed() -> None:
    """Find the installed games, each imported when first asked for (:class:`_Declarations`)."""
    points = _entry_points()
    if not any(point.module.partition(".")[0] == PACKAGE for point in points):
        for name, where, load in _built_in_folders():
            DECLARATIONS.wait(name, where, load, BUILT_IN)
    for point in points:
        DECLARATIONS.wait(point.name, f"{point.name} ({point.value})", point.load,
                          BUILT_IN if point.module.partition(".")[0] == PACKAGE else PLUG_IN)
    for where, load in _from_environment():
        DECLARATIONS.wait("", where, load, PLUG_IN)  # its name is known once imported


def group_games_folder() -> str:
    """The folder of the group's own games: ``games/`` beside the config file."""
    return os.path.join(os.path.dirname(files.config_path()), GROUP_GAMES_FOLDER)


def load_group_games() -> None:
    """Register the group's own games (once a run): each declaration naming
    ``game_files`` makes its games from the folder's files; each file it refuses, or
    whose name another game has, is said in one line on stderr and left out."""
    global _group_games_read
    if _group_games_read:
        return
    _group_games_read = True
    folder = group_games_folder()
    if not os.path.isdir(folder):
        return
    for maker in [each for each in DECLARATIONS.values() if each.game_files]:
        module, _colon, attribute = str(maker.game_files).partition(":")
        try:
            make = getattr(importlib.import_module(module), attribute)
            made, refused = make(folder, frozenset(DECLARATIONS))
        except Exception as error:  # a plug-in's maker failing is not the table's error
            _warn(_("score: the group's games of {game} are left out: {reason}").format(
                game=maker.title, reason=(str(error) or type(error).__name__).splitlines()[0]))
            continue
        for line in refused:
            _warn(line)
        for declaration in made:
            try:
                register(declaration)
            except ValueError as error:
                _warn(_("score: {path}: {reason}").format(path=declaration.origin,
                                                          reason=error))
                continue
            ORIGINS[declaration.name] = GROUP_FILE


def load_installed() -> None:
    """Import every installed game now (each is imported when first asked for by name
    otherwise): a plug-in that fails to load is said on stderr, once."""
    DECLARATIONS.load()


def all_declarations() -> Mapping[str, GameDeclaration]:
    """Every game: the installed ones and the group's own (its files read for this)."""
    load_group_games()
    return DECLARATIONS


def declaration_of(name: str) -> GameDeclaration:
    key = name.strip().lower()
    if key not in DECLARATIONS:
        load_group_games()
    try:
        return DECLARATIONS[key]
    except KeyError:
        raise EntryError(_("there is no game called {name}: choose {games}").format(
            name=repr(name), games=_(" or ").join(DECLARATIONS))) from None


class GameMissing(EntryError):
    """A stored session's game is not installed (its group file moved, renamed or broken,
    its plug-in uninstalled or failing): that session is unavailable, never the store."""

    def __init__(self, game: str, message: str) -> None:
        super().__init__(message)
        self.game = game


def is_installed(name: str) -> bool:
    """Whether the game ``name`` can be had (the group's files read if no installed game
    has that name), without raising."""
    key = name.strip().lower()
    if key not in DECLARATIONS:
        load_group_games()
    return key in DECLARATIONS


def _group_made(options: object) -> bool:
    """Whether a session whose house rules are ``options`` was of a group's file: its rules
    are exactly those of a game that makes games of files (Points' settings)."""
    if not isinstance(options, Mapping):
        return False
    return any(set(options) == {rule.key for rule in maker.house_rules}
               for maker in DECLARATIONS.values() if maker.game_files)


def game_missing(game: str, options: object = None) -> GameMissing:
    """The one line that says a stored session's game is not installed and what to do:
    a group's game (its house rules are a file-made game's) is a file to put back, any
    other game a plug-in to install."""
    key = game.strip().lower()
    if _group_made(options) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", key):
        file, folder = f"{GROUP_GAMES_FOLDER}/{key}.toml", group_games_folder()
        if os.path.lexists(os.path.join(folder, f"{key}.toml")):
            return GameMissing(game, _(
                "game {game} is not installed: {file} can't be read as a game (in {folder}); "
                "fix it (`score games` says what is wrong)").format(
                game=repr(game), file=file, folder=folder))
        return GameMissing(game, _(
            "game {game} is not installed: put {file} back (in {folder})").format(
            game=repr(game), file=file, folder=folder))
    return GameMissing(game, _(
        "game {game} is not installed: install the plug-in that adds it (`score games` "
        "lists the games this scorekeeper has)").format(game=repr(game)))


def get_game(name: str) -> TableGame[Any]:
    return declaration_of(name).table


def games_taking(key: str) -> list[GameDeclaration]:
    """The games whose rounds take the round option ``key``."""
    return [declaration for declaration in DECLARATIONS.values()
            if any(option.key == key for option in declaration.round_options)]


def get_virtual(name: str) -> VirtualGame:
    declaration = declaration_of(name)
    if declaration.name not in _virtual:
        if declaration.virtual is None:
            raise EntryError(_("{game} has no virtual deck yet").format(
                game=declaration.title))
        module, _colon, attribute = declaration.virtual.partition(":")
        adapter: VirtualGame = getattr(importlib.import_module(module), attribute)()
        _virtual[declaration.name] = adapter
    return _virtual[declaration.name]


_register_installed()
