"""scorekeeper: score card games at a real table, or play them with a virtual deck."""

from __future__ import annotations

DISTRIBUTION = "cardnight-scorekeeper"
"""The name the package is installed under (the index's; the import name is ``scorekeeper``)."""


def version() -> str:
    """The installed distribution's version, from its metadata (``pyproject.toml``'s
    ``version`` is the one place it is written): what ``score --version`` prints.
    ``0+unknown`` when the code runs without being installed.

    Read only when asked (``importlib.metadata`` searches the installed distributions),
    so that a command's start-up does not pay for it."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    """``scorekeeper.__version__``: :func:`version`, read when first used."""
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
