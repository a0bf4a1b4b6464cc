"""The words ``score`` prints, in the language the user chose (gettext catalogs).

Code marks every message a user sees:

- ``_("text {name}").format(name=...)``: translated where it is used (never at import
  time, so the language chosen for this run applies); placeholders are named, so a
  translation may put them in its own order;
- ``ngettext("{n} round", "{n} rounds", n).format(n=n)``: plural forms (Danish has two,
  Arabic six);
- ``pgettext("context", "text")``: the same English word meaning different things;
- ``N_("text")``: marks a message for the catalog without translating it (help texts of
  the command line, table headings kept in constants); translate it with ``_`` where
  it is shown.

The catalogs are ``scorekeeper/locale/<language>/LC_MESSAGES/scorekeeper.po``, compiled to
``.mo`` files that ship in the package. :func:`activate` picks the language for the rest
of the run; English needs no catalog.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as _datetime
import functools
import gettext
from collections.abc import Iterator
from importlib import resources

DOMAIN = "scorekeeper"
ENGLISH = "en"
LOCALE_FOLDER = resources.files("scorekeeper") / "locale"

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = ENGLISH
_speaking: contextvars.ContextVar[tuple[str, gettext.NullTranslations] | None] = \
    contextvars.ContextVar("speaking", default=None)
"""The language of one thread's work (a page asked for with ``?lang=``), over the run's."""


def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English: none, the messages as written)."""
    if language == ENGLISH:
        return gettext.NullTranslations()
    compiled = LOCALE_FOLDER / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with compiled.open("rb") as file:
        return gettext.GNUTranslations(file)


@functools.cache
def _shared_catalog(language: str) -> gettext.NullTranslations:
    return catalog(language)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak ``language`` in this thread (this context) for the block, whatever the run
    speaks: a server answers each page in the language it was asked in."""
    reset = _speaking.set((language, _shared_catalog(language)))
    try:
        yield
    finally:
        _speaking.reset(reset)


def activate(language: str) -> None:
    """Speak ``language`` from now on in this process.

    >>> activate("en"); _("Round")
    'Round'
    """
    global _active, _language
    _active = catalog(language)
    _language = language


def active_language() -> str:
    """The language :func:`activate` chose (``en`` until it is called), or the one
    :func:`speaking` speaks in this thread."""
    here = _speaking.get()
    return _language if here is None else here[0]


def _translations() -> gettext.NullTranslations:
    here = _speaking.get()
    return _active if here is None else here[1]


def _(message: str) -> str:
    """``message`` in the active language."""
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that goes with the number ``n``.

    >>> ngettext("{n} round", "{n} rounds", 1).format(n=1)
    '1 round'
    """
    return _translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the active language, told apart from the same words in another
    ``context``."""
    return _translations().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog; translate it with :func:`_` where it is shown."""
    return message


def format_number(value: float, decimals: int = 0) -> str:
    """``value`` as the active language writes numbers (Babel's CLDR data).

    >>> activate("en"); format_number(1234.5, 1)
    '1,234.5'
    """
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=active_language())


def format_percent(fraction: float, decimals: int = 1) -> str:
    """``fraction`` (0.922) as a percentage in the active language (``92.2%``).

    >>> activate("en"); format_percent(0.922)
    '92.2%'
    """
    from babel.numbers import format_percent as babel_percent

    pattern = "#,##0" + ("." + "0" * decimals if decimals else "") + "%"
    return babel_percent(fraction, format=pattern, locale=active_language())


def format_datetime(moment: _datetime.datetime, width: str = "medium") -> str:
    """A date and time as the active language writes them (``width``: short, medium,
    long, full)."""
    from babel.dates import format_datetime as babel_datetime

    return babel_datetime(moment, width, locale=active_language())


def format_date(day: _datetime.date, width: str = "medium") -> str:
    """A date as the active language writes it."""
    from babel.dates import format_date as babel_date

    return babel_date(day, width, locale=active_language())
