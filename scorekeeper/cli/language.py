"""Which language ``score`` speaks.

The first of these that is set decides:

1. ``score --lang en|da|ar COMMAND``;
2. the environment variable ``SCOREKEEPER_LANG``;
3. the group's config file (``score config set language da``);
4. the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, as the
   C library reads them (``da_DK.UTF-8`` is Danish; a language scorekeeper does not
   speak, or ``C``/``POSIX``, is English);
5. English.

A language asked for by name (the option or the variable) that scorekeeper does not
speak is a malformed command line (exit 2); the locale is the system's, not a request
to scorekeeper, so it never refuses.

:func:`speak_for_command_line` decides before anything is parsed or printed (help texts
too), from a first look at the command line's root ``--lang``.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping, Sequence

import scorekeeper.i18n
from scorekeeper import config
from scorekeeper.cli.context import usage
from scorekeeper.i18n import _
from scorekeeper.kit.options import Language

LANGUAGE_VARIABLE = "SCOREKEEPER_LANG"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
_CODES = [language.value for language in Language]


def parse_language(text: str, source: str = "--lang") -> Language:
    """A language named by the user, ignoring case and spaces.

    >>> parse_language(" DA ")
    <Language.DANISH: 'da'>
    """
    try:
        return Language(text.strip().lower())
    except ValueError:
        usage(_("{source} must be {choices}, not {given}").format(
            source=source, choices=_("{first} or {last}").format(
                first=", ".join(_CODES[:-1]), last=_CODES[-1]), given=repr(text)))


def complete_language(incomplete: str) -> list[str]:
    """Tab completion of ``--lang``."""
    return [code for code in _CODES if code.startswith(incomplete.lower())]


def locale_language(environ: Mapping[str, str]) -> Language | None:
    """The language of the locale, when scorekeeper speaks it.

    >>> locale_language({"LANG": "da_DK.UTF-8"})
    <Language.DANISH: 'da'>
    >>> locale_language({"LC_ALL": "C", "LANG": "ar_EG.UTF-8"}) is None
    True
    """
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            try:
                return Language(code)
            except ValueError:
                return None
    return None


def resolve_language(option: Language | None, environ: Mapping[str, str],
                     configured: Language | None = None) -> Language:
    """The language to speak: the option, the variable, the config file, the locale, English.

    >>> resolve_language(None, {"SCOREKEEPER_LANG": "ar", "LANG": "da_DK.UTF-8"})
    <Language.ARABIC: 'ar'>
    """
    if option is not None:
        return option
    named = environ.get(LANGUAGE_VARIABLE, "").strip()
    if named:
        return parse_language(named, LANGUAGE_VARIABLE)
    if configured is not None:
        return configured
    return locale_language(environ) or Language.ENGLISH


def language() -> Language:
    """The language this run speaks (:func:`speak_for_command_line` chose it)."""
    return Language(scorekeeper.i18n.active_language())



def root_option(args: Sequence[str]) -> str | None:
    """The value of the root's ``--lang`` in a command line (before the command's name).

    >>> root_option(["--db", "x.json", "--lang=da", "show"])
    'da'
    >>> root_option(["show", "--lang", "ar"]) is None
    True
    """
    index = 0
    while index < len(args):
        arg = args[index]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if arg == "--lang":
            return args[index + 1] if index + 1 < len(args) else None
        if arg == "--" or not arg.startswith("-"):
            return None  # the command's name: what follows is the command's
        index += 2 if arg == "--db" else 1
    return None


TYPER_DOMAIN = "messages"
"""gettext's default domain, through which Typer says its own words ("Options")."""


def speak(language: Language) -> None:
    """Speak ``language`` for the rest of this run: our catalog and Typer's words."""
    scorekeeper.i18n.activate(language.value)
    # Typer asks gettext for its own words in the default domain, in the language of
    # $LANGUAGE (which gettext reads first): our catalog of them, in the chosen language
    gettext.bindtextdomain(TYPER_DOMAIN, str(scorekeeper.i18n.LOCALE_FOLDER))
    os.environ["LANGUAGE"] = language.value


def speak_for_command_line(args: Sequence[str], environ: Mapping[str, str]) -> Language:
    """Choose (:func:`resolve_language`) and :func:`speak` this run's language, before the
    command line is parsed.

    A language asked for that scorekeeper does not speak is a usage error, said in the
    language the run would speak without it.
    """
    option_text = root_option(args)
    variable_text = environ.get(LANGUAGE_VARIABLE, "")
    option = None if option_text is None else _known(option_text)
    variable_unknown = bool(variable_text.strip()) and _known(variable_text) is None
    usable = {name: value for name, value in environ.items()
              if not (name == LANGUAGE_VARIABLE and variable_unknown)}
    configured = None
    if option is None and not usable.get(LANGUAGE_VARIABLE, "").strip():
        configured = _configured_language()
    chosen = resolve_language(option, usable, configured)
    speak(chosen)
    if option_text is not None and option is None:
        parse_language(option_text)  # refuses
    if option_text is None and variable_unknown:
        parse_language(variable_text, LANGUAGE_VARIABLE)  # refuses
    return chosen


def _known(text: str) -> Language | None:
    try:
        return Language(text.strip().lower())
    except ValueError:
        return None


def _configured_language() -> Language | None:
    """The config file's language; a broken file is left for the commands that read it
    to report."""
    settings = config.load(lambda message: None)
    return Language(settings.language) if settings.language else None
