"""The group's own games: a TOML file each in the config folder's ``games/``, made
into a points game with the file's name, title, description, settings and players'
range (docs/own-games.md). Each file is read once, at this boundary, into a typed
:class:`GameFile` and then a declaration; a file that can't be one is refused in one
line naming its path and line, and the other files still make their games.

    title = "Rummy"
    description = "Rummy as we play it: the lowest total after ten deals wins."
    players = [2, 6]

    [defaults]
    wins = "low"
    target = 0
    rounds = 10
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scorekeeper import files
from scorekeeper.games.points import rules
from scorekeeper.games.points.game import GAME as POINTS
from scorekeeper.games.points.rules import Options
from scorekeeper.games.points.table import PointsTable
from scorekeeper.games.points.words import _
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entries import EntryError

SUFFIX = ".toml"
MAX_BYTES = 64 * 1024
"""A game's file holds a few lines; anything larger is refused before it is read."""
MAX_FILES = 200
"""The most files read from the folder (the rest are said to be left out)."""
MAX_TITLE = 60
MAX_DESCRIPTION = 300
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
SETTINGS = ("wins", "target", "rounds", "sum")
"""The settings a file may give at its top level (CLI.md), as in its ``[defaults]``."""
KEYS = ("name", "title", "description", "players", "min_players", "max_players",
        "defaults", *SETTINGS)


class GameFileError(Exception):
    """What is wrong with a game's file, and the line it is on (0: the file as a whole)."""

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.line = line


@dataclass(frozen=True, slots=True)
class GameFile:
    """One group's game, as its file says it."""

    path: Path
    name: str
    title: str
    description: str
    min_players: int
    max_players: int
    defaults: Options
    name_line: int = 0
    """The line that names it (0: the file's name does)."""


def group_games(folder: str, taken: Set[str]) -> tuple[list[GameDeclaration], list[str]]:
    """The games the ``*.toml`` files of ``folder`` make (in name order), and one line for
    each file refused: unreadable, not TOML, a wrong setting, or a name ``taken``."""
    made: list[GameDeclaration] = []
    refused: list[str] = []
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(SUFFIX))
    except OSError as error:
        return [], [_("score: {path}: the group's games can't be read: {reason}").format(
            path=folder, reason=error.strerror or error)]
    if len(names) > MAX_FILES:
        refused.append(_("score: {path}: only the first {most} game files are read").format(
            path=folder, most=MAX_FILES))
    seen = set(taken)
    for name in names[:MAX_FILES]:
        path = Path(folder) / name
        try:
            game = read_game_file(path)
            if game.name in seen:
                raise GameFileError(_("there is a game called {name} already: rename the "
                                      "file").format(name=game.name), game.name_line)
        except GameFileError as error:
            where = f"{path}:{error.line}" if error.line else str(path)
            refused.append(_("score: {where}: {reason} (the other games still work)").format(
                where=where, reason=error))
            continue
        seen.add(game.name)
        made.append(declaration(game))
    return made, refused


def read_game_file(path: Path) -> GameFile:
    """The file at ``path`` read and checked: GameFileError with its line otherwise."""
    import tomllib  # only when the group has games of its own

    try:
        content = files.read_regular_file(path, limit=MAX_BYTES)
    except files.NotARegularFile as error:
        raise GameFileError(_("it is {kind}, not a file").format(kind=error.kind)) from None
    except files.FileTooLarge:
        raise GameFileError(_("it is larger than {most} bytes").format(most=MAX_BYTES)) \
            from None
    except OSError as error:
        raise GameFileError(str(error.strerror or error)) from None
    if content is None:
        raise GameFileError(_("it is gone"))
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError(_("it is not UTF-8 text")) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GameFileError(_("not TOML: {reason}").format(reason=_reason(error)),
                            _decode_line(error, text)) from None
    except RecursionError:
        raise GameFileError(_("it is nested too deeply")) from None
    return parse_game(path, data, text)


def parse_game(path: Path, data: Mapping[str, object], text: str = "") -> GameFile:
    """A game's file's parsed TOML as a :class:`GameFile`; GameFileError naming the line
    (found in ``text``) of the first thing wrong."""
    for key in data:
        if key not in KEYS:
            raise GameFileError(_("unknown key {key} (a game's file has {keys})").format(
                key=repr(key), keys=", ".join(KEYS)), _find_line(text, key))
    stem = path.name.removesuffix(SUFFIX)
    name = data.get("name", stem)
    if isinstance(name, str) and not NAME.fullmatch(name) and "title" not in data \
            and NAME.fullmatch(stem):  # CLI.md's name: the game's name as people say it
        data = {**data, "title": name}
        name = stem
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise GameFileError(_("the name {name} must be lower-case letters, digits and "
                              "hyphens, at most 40").format(name=repr(name)),
                            _find_line(text, "name"))
    title = _text(data, "title", name, MAX_TITLE, text)
    description = _text(data, "description", "", MAX_DESCRIPTION, text)
    players = data.get("players", [data.get("min_players", rules.MIN_PLAYERS),
                                   data.get("max_players", rules.MAX_PLAYERS)])
    low, high = _players(players, _find_line(
        text, "players" if "players" in data else "min_players"))
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise GameFileError(_("[defaults] must be a table of settings"),
                            _find_line(text, "defaults"))
    for key in SETTINGS:
        if key in data and key in defaults:
            raise GameFileError(_("{key} is given twice: at the top and in [defaults]")
                                .format(key=key), _find_line(text, key))
    defaults = {**defaults, **{key: data[key] for key in SETTINGS if key in data}}
    table = PointsTable(name=name, title=title)
    try:
        options = table.parse_options({key.replace("-", "_"): value
                                       for key, value in defaults.items()})
    except EntryError as error:
        wrong = next(iter(defaults), "defaults")
        for key in defaults:  # the line of the setting the message names, else the first
            if key.replace("_", " ") in str(error) or f"--{key}" in str(error):
                wrong = key
        raise GameFileError(str(error), _find_line(text, wrong)) from None
    return GameFile(path=path, name=name, title=title, description=description,
                    min_players=low, max_players=high, defaults=options,
                    name_line=_find_line(text, "name"))


def declaration(game: GameFile) -> GameDeclaration:
    """The group's game as the generic layers see it: Points with its own name, title,
    description, players' range and defaults."""
    table = PointsTable(name=game.name, title=game.title, defaults=game.defaults,
                        min_players=game.min_players, max_players=game.max_players)
    values = game.defaults.as_dict()
    house_rules = tuple(
        replace(option, default=values.get(option.key, option.default))
        for option in POINTS.house_rules)
    return replace(POINTS, table=table, questions=table, house_rules=house_rules,
                   description=game.description, game_files=None, origin=str(game.path),
                   base="scorekeeper.games.points")


def _text(data: Mapping[str, object], key: str, default: str, most: int, text: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > most or any(
            unicodedata.category(char).startswith("C") for char in value) \
            or (key == "title" and not value.strip()):
        raise GameFileError(_("{key} must be text of at most {most} characters, without "
                              "control characters").format(key=key, most=most),
                            _find_line(text, key))
    return value.strip()


def _players(value: Any, line: int) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(each, int) and not isinstance(each, bool) for each in value)
            and rules.MIN_PLAYERS <= value[0] <= value[1] <= rules.MAX_PLAYERS):
        raise GameFileError(_("players must be [FEWEST, MOST], from {low} to {high}, not "
                              "{value}").format(low=rules.MIN_PLAYERS, high=rules.MAX_PLAYERS,
                                                value=value), line)
    return value[0], value[1]


_AT = re.compile(r"\s*\(at line (\d+), column \d+\)$")


def _reason(error: Exception) -> str:
    return _AT.sub("", str(error)).removesuffix(" (at end of document)")


def _decode_line(error: Exception, text: str) -> int:
    found = _AT.search(str(error))
    if found:
        return int(found.group(1))
    return max(text.count("\n") + (not text.endswith("\n")), 1)


def _find_line(text: str, key: str) -> int:
    """The line where ``key`` is set or its table starts (0 when it is not in ``text``)."""
    wanted = re.compile(rf"\s*(\[\s*{re.escape(key)}\s*\]|\"?{re.escape(key)}\"?\s*=)")
    for number, line in enumerate(text.splitlines(), start=1):
        if wanted.match(line):
            return number
    return 0


