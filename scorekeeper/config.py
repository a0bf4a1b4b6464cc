"""The group's defaults: a TOML file in the user's config folder.

    language = "da"
    players = ["Ann", "Bob", "Cy"]

    [least-score]
    limit = 50
    end = "first-out"

    [one-card]
    target = 40

``SCOREKEEPER_CONFIG`` picks another file (the tests use it, so they never touch the
real home). The file is read with the standard library's ``tomllib``; every value is
checked the way the command line checks it, and a file with anything wrong is
reported (one line, with its path) and ignored as a whole for that run. Options
given on the command line win over the file.

* Reading opens without blocking and checks the file first (:mod:`scorekeeper.files`):
  a FIFO, a device, a folder or a file over :data:`MAX_BYTES` is refused like a
  broken file, and so is one nested too deeply for the parser.
* ``score config set`` and ``unset`` edit the file in place with ``tomlkit``: the
  user's comments, blank lines and key order stay, only the one value changes.
* They hold a lock (``<config>.lock``, beside the real file) for their
  re-read-modify-write, never while waiting for a person: the file is re-read under
  it and the change made again on what is there, so concurrent ones each keep
  their setting. The write is atomic (a crash leaves the old file or the new one),
  goes through a symlink to its target, keeps the file's mode, and removes the
  temporaries a killed write left.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from scorekeeper import files
from scorekeeper.errors import ConfigError as ConfigError  # re-exported
from scorekeeper.i18n import _, format_number
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject, JSONValue
from scorekeeper.registry import GAMES, get_game
from scorekeeper.session import check_player_names

ENV_VAR = files.CONFIG_VARIABLE
APP_NAME = "scorekeeper"
LANGUAGES = ("en", "da", "ar")
MAX_BYTES = 1024 * 1024
"""A config file holds a few settings; anything larger is refused before it is read."""
LOCK_TIMEOUT_SECONDS = 30.0

if TYPE_CHECKING:
    from tomlkit.container import Container
    from tomlkit.items import Table


def config_path() -> Path:
    return files.config_path()


class Config(NamedTuple):
    """The config file, read (every command reads it: a named tuple is defined in a
    seventh of a dataclass's time)."""

    language: str | None = None
    players: tuple[str, ...] = ()
    """The usual players, in seating order."""
    house_rules: Mapping[str, Mapping[str, JSONValue]] = MappingProxyType({})
    """Game name -> the house rules set in the file (the others keep the game's defaults)."""

    def rules_for(self, game: str) -> JSONObject:
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

    def to_toml(self) -> JSONObject:
        data: JSONObject = {}
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
        owners = [other.title for other in GAMES.values()
                  if option in other.default_options()]
        if owners:  # as `score new` says it
            raise EntryError(_("{option} is a {kind} of {owners}, not of {game}").format(
                option=f"--{option.replace('_', '-')}", kind=_("house rule"),
                owners=_(" and ").join(owners), game=rules.title))
        raise EntryError(_("{game} has no house rule {option} (its rules: {rules})").format(
            game=rules.title, option=repr(option.replace("_", "-")),
            rules=", ".join(key.replace("_", "-") for key in rules.default_options())))
    return rules.check_options({option: value})[option]


def from_toml(data: Mapping[str, object]) -> Config:
    """A config from parsed TOML; EntryError for any unknown key or bad value."""
    config = Config()
    rules: dict[str, JSONObject] = {}
    for key, value in data.items():
        if key == "language":
            config = config._replace(language=_checked_language(value))
        elif key == "players":
            config = config._replace(players=_checked_players(value))
        elif key in GAMES:
            if not isinstance(value, dict):
                raise EntryError(_("[{game}] must be a table of house rules").format(game=key))
            rules[key] = {option.replace("-", "_"): _checked_rule(key, option, rule)
                          for option, rule in value.items()}
        else:
            raise EntryError(_("unknown setting {key} (settings: {settings})").format(
                key=repr(key), settings=", ".join(known_keys())))
    return config._replace(house_rules=rules)


def _read_bytes(path: Path) -> bytes | None:
    """The file's bytes (None: no file), checked before reading; ConfigError if refused."""
    try:
        return files.read_regular_file(path, limit=MAX_BYTES)
    except files.NotARegularFile as error:
        raise ConfigError(_("the config file {path} is {kind}, not a regular file").format(
            path=path, kind=error.kind)) from None
    except files.FileTooLarge as error:
        raise ConfigError(_("the config file {path} is too large ({size} bytes; a config "
                            "file holds at most {limit} bytes)").format(
            path=path, size=format_number(error.size), limit=format_number(error.limit))
        ) from None
    except OSError as error:
        raise ConfigError(_("the config file {path} can't be read ({error})").format(
            path=path, error=error.strerror or error)) from None


def _parse(raw: bytes, path: Path) -> Config:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
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
    except RecursionError:
        raise ConfigError(_("the config file {path} is nested too deeply to be a config "
                            "file").format(path=path)) from None


def read(path: Path | None = None) -> Config:
    """The config in the file (the defaults when there is none); ConfigError if broken."""
    path = path or config_path()
    raw = _read_bytes(path)
    return Config() if raw is None else _parse(raw, path)


def load(warn: Callable[[str], None], path: Path | None = None) -> Config:
    """The config for this run: a broken file is reported through ``warn`` and ignored."""
    try:
        return read(path)
    except ConfigError as error:
        warn(_("{problem}; it is ignored for this run").format(problem=error))
        return Config()


class Setting:
    """One ``score config set KEY VALUE`` (or ``unset KEY``), checked. A plain class: a
    dataclass costs about a millisecond to define, on every command (the config is read
    for its language), and only ``config set`` makes one."""

    __slots__ = ("name", "table", "value")

    def __init__(self, table: str | None, name: str, value: Any) -> None:
        self.table = table
        """The game whose table holds it; None for a top-level key."""
        self.name = name
        """Its key in the file: ``language``, ``players``, or a house rule (``two_pairs``)."""
        self.value = value
        """The checked value as the file holds it; None: no value (the default applies)."""

    def applied(self, config: Config) -> Config:
        if self.table is None:
            if self.name == "language":
                return config._replace(language=self.value)
            return config._replace(players=tuple(self.value or ()))
        rules = {name: dict(options) for name, options in config.house_rules.items()}
        if self.value is None:
            rules.get(self.table, {}).pop(self.name, None)
        else:
            rules.setdefault(self.table, {})[self.name] = self.value
        return config._replace(house_rules={k: v for k, v in rules.items() if v})


def parse_setting(key: str, value: str | None) -> Setting:
    """``KEY`` and ``VALUE`` as typed (``value`` None: unset). EntryError for a bad one."""
    key = key.strip().lower()
    if key == "language":
        return Setting(None, key, None if value is None else _checked_language(value))
    if key == "players":
        names = () if value is None else _checked_players(
            [name for name in value.split(",") if name.strip()])
        return Setting(None, key, list(names) or None)
    game, dot, option = key.partition(".")
    if not dot or game not in GAMES:
        raise EntryError(_("there is no setting {key}: the settings are {settings}").format(
            key=repr(key), settings=", ".join(known_keys())))
    option = option.strip().replace("-", "_")
    return Setting(game, option, None if value is None else _checked_rule(game, option, value))


def with_setting(config: Config, key: str, value: str | None) -> Config:
    """``score config set KEY VALUE`` (``value`` None: unset). EntryError for a bad one."""
    return parse_setting(key, value).applied(config)


def _toml_value(value: Any) -> Any:
    """A value as ``config set`` writes it: text always a basic (double-quoted) string,
    whatever quotes the value it replaces had (tomlkit 0.15.3 began keeping them)."""
    import tomlkit  # only `score config set/unset` write

    return tomlkit.string(value) if isinstance(value, str) else value


def _edited(text: str, setting: Setting) -> str:
    """``text`` with the one setting changed and everything else as it was written."""
    import tomlkit  # only `score config set/unset` write

    document = tomlkit.parse(text)
    container: Container | Table | Any = document
    if setting.table is not None:
        if setting.table not in document:
            if setting.value is None:
                return text
            document[setting.table] = tomlkit.table()
        container = document[setting.table]
    same = [key for key in container
            if (key.strip().replace("-", "_") if setting.table else key) == setting.name]
    if setting.value is None:
        for key in same:
            del container[key]
        if setting.table is not None and not len(container) \
                and "#" not in container.as_string():  # no comment of the user's is lost
            del document[setting.table]
    elif not same:
        container[setting.name] = _toml_value(setting.value)
    else:
        container[same[0]] = _toml_value(setting.value)  # in its place, its comment kept
        for key in same[1:]:  # another spelling of it (- for _, or _ for -)
            del container[key]
    return tomlkit.dumps(document)


def change(key: str, value: str | None, path: Path | None = None) -> bool:
    """Set (``value`` None: remove) one setting in the file, keeping the rest as written.

    The file is read and the setting checked with no lock, so a refusal creates
    nothing; then, under the lock, the file is read again and, if another command
    changed it meanwhile, the change is made again on what it holds now (a
    compare-and-set on what was read). Whether the file changed (nothing is written
    when nothing changes). ConfigError: the file is broken; EntryError: a bad key or
    value, or the file can't be written.
    """
    path = path or config_path()
    raw = _read_bytes(path)
    config = Config() if raw is None else _parse(raw, path)
    setting = parse_setting(key, value)
    if _new_text(raw, config, setting, path) is None:
        return False
    with _locked(path):
        again = _read_bytes(path)
        if again != raw:
            config = Config() if again is None else _parse(again, path)
        text = _new_text(again, config, setting, path)
        if text is None:
            return False
        try:
            files.write_atomically(path, text)
        except OSError as error:
            raise EntryError(_("can't write {path}: {reason}").format(
                path=path, reason=error.strerror or error)) from None
    return True


def _new_text(raw: bytes | None, config: Config, setting: Setting, path: Path) -> str | None:
    """The file's new text with ``setting`` made; None when that changes nothing."""
    import tomllib

    from tomlkit.exceptions import TOMLKitError

    expected = setting.applied(config)
    if expected.to_toml() == config.to_toml():
        return None  # already so (perhaps spelt otherwise): the file stays as written
    old = b"" if raw is None else raw
    try:
        text = _edited(old.decode("utf-8"), setting)
    except RecursionError:
        raise ConfigError(_("the config file {path} is nested too deeply to be a config "
                            "file").format(path=path)) from None
    except (TOMLKitError, ValueError) as error:  # tomlkit refuses what tomllib accepted
        raise ConfigError(_("the config file {path} can't be edited in place ({error})").format(
            path=path, error=error)) from None
    # The edited text must say exactly what was asked and nothing else.
    if from_toml(tomllib.loads(text)).to_toml() != expected.to_toml():
        raise ConfigError(_("the config file {path} can't be edited in place ({error})").format(
            path=path, error=_("the edit would change other settings")))
    return text


def _locked(path: Path) -> contextlib.AbstractContextManager[None]:
    """Hold the config's lock (beside its real file); stale temporaries are removed."""
    target = files.real_path(path)
    return files.holding_lock(target, target.with_name(target.name + ".lock"),
                              timeout=LOCK_TIMEOUT_SECONDS, refuse=EntryError)
