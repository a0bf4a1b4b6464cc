"""``score sessions --format csv|ndjson``: the list of sessions as data, for a spreadsheet
or a pipe; each session's fields are those of ``--json`` (views/json_views.py)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from scorekeeper.session import Session
from scorekeeper.unavailable import UnavailableSession
from scorekeeper.views.export import csv_cell, json_text
from scorekeeper.views.json_views import session_entries

CSV_COLUMNS = ("id", "name", "game", "mode", "players", "rounds", "status", "leader",
               "created", "current")
"""The columns, as ``--json`` names its keys (a list is joined with ``; ``)."""


def as_ndjson(sessions: Sequence[Session], current: int | None,
              unavailable: Sequence[UnavailableSession] = ()) -> str:
    """One JSON object a line, a session each (``jq``, ``sqlite-utils insert --nl``)."""
    return "".join(json_text(entry, indent=None)
                   for entry in session_entries(sessions, current, unavailable))


def as_csv(sessions: Sequence[Session], current: int | None,
           unavailable: Sequence[UnavailableSession] = ()) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in session_entries(sessions, current, unavailable):
        row = []
        for column in CSV_COLUMNS:
            value = entry.get(column)
            if isinstance(value, list):
                value = "; ".join(str(item) for item in value)
            elif isinstance(value, bool):
                value = str(value).lower()
            row.append(csv_cell("" if value is None else value))
        writer.writerow(row)
    return buffer.getvalue()
