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

The generic catalogs are ``scorekeeper/locale/<language>/LC_MESSAGES/scorekeeper.po``,
compiled to ``.mo`` files that ship in the package. Each game has its own catalog in its
own folder (a :class:`Domain`: ``games/<game>/locale/<language>/LC_MESSAGES/<game>.po``);
its code translates through the domain's functions (``_, ngettext, pgettext =
WORDS.gettext, WORDS.ngettext, WORDS.pgettext`` in its ``words.py``), and the words its
declaration gives the generic layers (N_-marked in its folder: help texts, headings)
are found by the generic :func:`_` in the catalogs of the domains :func:`add_domain`
was told of. :func:`activate` picks the language for the rest of the run; English
needs no catalog.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as _datetime
import functools
import gettext
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable

DOMAIN = "scorekeeper"
ENGLISH = "en"
LOCALE_FOLDER = resources.files("scorekeeper") / "locale"

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = ENGLISH
_speaking: contextvars.ContextVar[tuple[str, gettext.NullTranslations] | None] = \
    contextvars.ContextVar("speaking", default=None)
"""The language of one thread's work (a page asked for with ``?lang=``), over the run's."""


class _NotHere(LookupError):
    """A message a catalog does not hold (raised by :class:`_Absent`)."""


class _Absent(gettext.NullTranslations):
    """The end of a domain's chain: says that the message is not in its catalog."""

    def gettext(self, message: str) -> str:
        raise _NotHere(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        raise _NotHere(msgid1)

    def pgettext(self, context: str, message: str) -> str:
        raise _NotHere(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        raise _NotHere(msgid1)


class Domain:
    """One game's own catalog: ``<folder>/<language>/LC_MESSAGES/<name>.mo``.

    Its functions look the message up when called, so the language :func:`activate`
    chose applies; a message its catalog lacks is looked up in its ``base``'s (a variant's
    base game), then in the generic catalog, and a language none of them has a catalog
    for reads as written (English).

    >>> words = Domain("least_score", LOCALE_FOLDER.parent / "games" / "least_score" / "locale")
    >>> activate("da"); words.gettext("who declared."), words.pgettext("table heading", "Round")
    ('hvem der erklærede.', 'Runde')
    >>> activate("en")
    """

    def __init__(self, name: str, folder: Traversable, base: Domain | None = None) -> None:
        self.name = name
        self.folder = folder
        self.base = base
        self._catalogs: dict[str, gettext.NullTranslations] = {}

    def __repr__(self) -> str:
        return f"Domain({self.name!r})"

    def _catalog(self, language: str) -> gettext.NullTranslations:
        if language not in self._catalogs:
            compiled = self.folder / language / "LC_MESSAGES" / f"{self.name}.mo"
            try:
                with compiled.open("rb") as file:
                    found: gettext.NullTranslations = gettext.GNUTranslations(file)
            except (FileNotFoundError, NotADirectoryError):
                found = gettext.NullTranslations()
            found.add_fallback(_Absent())
            self._catalogs[language] = found
        return self._catalogs[language]

    def find(self, message: str, language: str, context: str | None = None) -> str | None:
        """``message`` as this domain's catalog of ``language`` has it, None if it lacks it."""
        if language == ENGLISH:
            return None
        try:
            if context is None:
                return self._catalog(language).gettext(message)
            return self._catalog(language).pgettext(context, message)
        except _NotHere:
            return None if self.base is None else self.base.find(message, language, context)

    def catalog(self, language: str) -> gettext.NullTranslations:
        """This domain's words in ``language`` (then the generic catalog's), whatever
        language is active: a rules text's house rules in the language asked for."""
        return _DomainCatalog(self, language)

    def gettext(self, message: str) -> str:
        """``message`` in the active language (this thread's, when :func:`speaking`)."""
        found = self.find(message, active_language())
        return _translations().gettext(message) if found is None else found

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a message that goes with the number ``n``, in the active language."""
        language = active_language()
        domain: Domain | None = self
        while domain is not None and language != ENGLISH:
            try:
                return domain._catalog(language).ngettext(singular, plural, n)
            except _NotHere:
                domain = domain.base
        return _translations().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in ``context``, in the active language."""
        found = self.find(message, active_language(), context)
        return _translations().pgettext(context, message) if found is None else found


class _DomainCatalog(gettext.NullTranslations):
    """A :class:`Domain`'s words in one language, whatever language is active."""

    def __init__(self, domain: Domain, language: str) -> None:
        super().__init__()
        self._domain = domain
        self._language = language

    def gettext(self, message: str) -> str:
        found = self._domain.find(message, self._language)
        return catalog(self._language).gettext(message) if found is None else found


_domains: list[Domain] = []
"""The games' domains, whose declared words the generic :func:`_` finds too."""


def add_domain(domain: Domain) -> None:
    """Let the generic :func:`_` find the words of ``domain`` (a game's declaration gives
    them to the generic layers: help texts, headings, legends)."""
    if domain not in _domains:
        _domains.append(domain)


class _DeclaredWords(gettext.NullTranslations):
    """The end of the generic catalog's chain: a message it lacks, looked up in each
    game's own catalog (a game's declared words), else as written."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self._language = language

    def gettext(self, message: str) -> str:
        for domain in _domains:
            found = domain.find(message, self._language)
            if found is not None:
                return found
        return message

    def pgettext(self, context: str, message: str) -> str:
        for domain in _domains:
            found = domain.find(message, self._language, context)
            if found is not None:
                return found
        return message


_generic: dict[str, gettext.NullTranslations] = {}


def catalog(language: str) -> gettext.NullTranslations:
    """The compiled generic catalog of ``language`` (English: none, the messages as
    written), which finds the games' declared words in their own catalogs."""
    if language == ENGLISH:
        return gettext.NullTranslations()
    if language not in _generic:
        compiled = LOCALE_FOLDER / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        with compiled.open("rb") as file:
            found = gettext.GNUTranslations(file)
        found.add_fallback(_DeclaredWords(language))
        _generic[language] = found
    return _generic[language]


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
