"""The formats ``score export`` writes, apart from the writers (views/export.py), so that
the command line names them without loading the writers (start-up is the table's wait)."""

from __future__ import annotations

from enum import StrEnum


class Format(StrEnum):
    JSON = "json"
    MD = "md"
    CSV = "csv"
    HTML = "html"
    BGSTATS = "bgstats"
