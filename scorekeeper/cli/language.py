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
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

import typer

from scorekeeper import config
from scorekeeper.cli.context import usage
from scorekeeper.games.common import Language
from scorekeeper.i18n import _
from scorekeeper.text import show_controls

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


def language(ctx: typer.Context) -> Language:
    """The language of this command (the root's ``--lang`` is in the context object)."""
    obj: dict[str, Any] = ctx.ensure_object(dict)
    option = obj.get("lang")
    configured = None
    if option is None and not os.environ.get(LANGUAGE_VARIABLE, "").strip():
        settings = config.load(lambda message: print(f"warning: {show_controls(message)}",
                                                     file=sys.stderr))
        configured = Language(settings.language) if settings.language else None
    return resolve_language(option, os.environ, configured)
