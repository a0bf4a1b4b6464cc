"""The group's defaults: a TOML file in the user's config folder.

    language = "da"
    players = ["Ann", "Bob", "Cy"]

    [least-score]
    limit = 50
    end = "first-out"

    [one-card]
    target = 40

``SCOREKEEPER_CONFIG`` picks another file (the tests use it, so they never touch the
real home). The file is read with the standard library's ``tomllib`` and written
with ``tomli-w``; every value is checked the way the command line checks it, and a
file with anything wrong is reported (one line, with its path) and ignored as a
whole for that run. Options given on the command line win over the file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from scorekeeper.errors import ConfigError as ConfigError  # re-exported
from scorekeeper.games.common import EntryError
from scorekeeper.i18n import _
from scorekeeper.registry import GAMES, get_game
from scorekeeper.session import check_player_names

ENV_VAR = "SCOREKEEPER_CONFIG"
APP_NAME = "scorekeeper"
LANGUAGES = ("en", "da", "ar")


def config_path() -> Path:
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    from platformdirs import user_config_dir  # not needed when $SCOREKEEPER_CONFIG names it

    return Path(user_config_dir(APP_NAME, appauthor=False)) / "config.toml"


@dataclass(frozen=True)
class Config:
    language: str | None = None
    players: tuple[str, ...] = ()
    """The usual players, in seating order."""
    house_rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Game name -> the house rules set in the file (the others keep the game's defaults)."""

    def rules_for(self, game: str) -> dict[str, Any]:
        return dict(self.house_rules.get(game, {}))

    def items(self) -> list[tuple[str, Any]]:
        """Every setting in the file as (KEY, value), KEY as ``score config set`` takes it."""
        found: list[tuple[str, Any]] = []
        if self.language is not None:
            found.append(("language", self.language))
        if self.players:
            found.append(("players", list(self.players)))
        for game in sorted(self.house_rules):
            found += [(f"{game}.{option.replace('_', '-')}", value)  # as typed: - for _
                      for option, value in sorted(self.house_rules[game].items())]
        return found

    def to_toml(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.language is not None:
            data["language"] = self.language
        if self.players:
            data["players"] = list(self.players)
        for game in sorted(self.house_rules):
            if self.house_rules[game]:
                data[game] = dict(self.house_rules[game])
        return data


def known_keys() -> list[str]:
    return ["language", "players", *(f"{name}.{option.replace('_', '-')}"
                                     for name, game in GAMES.items()
                                     for option in game.default_options())]


def _checked_language(value: Any) -> str:
    if not isinstance(value, str) or value.strip().lower() not in LANGUAGES:
        raise EntryError(_("language must be {languages}, not {value}").format(
            languages=", ".join(LANGUAGES), value=repr(value)))
    return value.strip().lower()


def _checked_players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise EntryError(_("players must be a list of names"))
    return tuple(check_player_names(value))


def _checked_rule(game: str, option: str, value: Any) -> Any:
    rules = get_game(game)
    option = option.strip().replace("-", "_")
    if option not in rules.default_options():
        raise EntryError(_("{game} has no house rule {option} (its rules: {rules})").format(
            game=rules.title, option=repr(option.replace("_", "-")),
            rules=", ".join(key.replace("_", "-") for key in rules.default_options())))
    return rules.check_options({option: value})[option]


def from_toml(data: Mapping[str, Any]) -> Config:
    """A config from parsed TOML; EntryError for any unknown key or bad value."""
    config = Config()
    rules: dict[str, dict[str, Any]] = {}
    for key, value in data.items():
        if key == "language":
            config = replace(config, language=_checked_language(value))
        elif key == "players":
            config = replace(config, players=_checked_players(value))
        elif key in GAMES:
            if not isinstance(value, dict):
                raise EntryError(_("[{game}] must be a table of house rules").format(game=key))
            rules[key] = {option.replace("-", "_"): _checked_rule(key, option, rule)
                          for option, rule in value.items()}
        else:
            raise EntryError(_("unknown setting {key} (settings: {settings})").format(
                key=repr(key), settings=", ".join(known_keys())))
    return replace(config, house_rules=rules)


def read(path: Path | None = None) -> Config:
    """The config in the file (the defaults when there is none); ConfigError if broken."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(_("the config file {path} can't be read ({error})").format(
            path=path, error=error)) from None
    import tomllib  # only when there is a file: every command reads it for its language

    try:
        return from_toml(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(_("the config file {path} is not valid TOML ({error})").format(
            path=path, error=error)) from None
    except EntryError as error:
        raise ConfigError(_("the config file {path} is broken: {error}").format(
            path=path, error=error)) from None


def load(warn: Callable[[str], None], path: Path | None = None) -> Config:
    """The config for this run: a broken file is reported through ``warn`` and ignored."""
    try:
        return read(path)
    except ConfigError as error:
        warn(_("{problem}; it is ignored for this run").format(problem=error))
        return Config()


def with_setting(config: Config, key: str, value: str | None) -> Config:
    """``score config set KEY VALUE`` (``value`` None: unset). EntryError for a bad one."""
    key = key.strip().lower()
    if key == "language":
        return replace(config, language=None if value is None else _checked_language(value))
    if key == "players":
        names = () if value is None else _checked_players(
            [name for name in value.split(",") if name.strip()])
        return replace(config, players=names)
    game, dot, option = key.partition(".")
    if not dot or game not in GAMES:
        raise EntryError(_("there is no setting {key}: the settings are {settings}").format(
            key=repr(key), settings=", ".join(known_keys())))
    option = option.replace("-", "_")
    rules = {name: dict(options) for name, options in config.house_rules.items()}
    if value is None:
        rules.get(game, {}).pop(option, None)
    else:
        rules.setdefault(game, {})[option] = _checked_rule(game, option, value)
    return replace(config, house_rules={k: v for k, v in rules.items() if v})


def write(config: Config, path: Path | None = None) -> Path:
    """Replace the file atomically (a crash leaves the old file or the new one)."""
    path = path or config_path()
    import tomli_w  # only `score config set/unset` write

    text = tomli_w.dumps(config.to_toml())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                             dir=path.parent)
    except OSError as error:
        raise EntryError(_("can't write {path}: {reason}").format(
            path=path, reason=error.strerror or error)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise EntryError(_("can't write {path}: {reason}").format(
            path=path, reason=error.strerror or error)) from None
    return path
