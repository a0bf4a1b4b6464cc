"""JSON, typed: what ``json.loads`` gives and ``json.dumps`` takes, for every layer (the
engines' records, the store's documents, the phone pages' state). The game kit names them
for plug-ins (:mod:`scorekeeper.kit.rounds`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

__all__ = ["JSONObject", "JSONRecord", "JSONValue"]

JSONValue: TypeAlias = \
    "bool | int | float | str | Sequence[JSONValue] | Mapping[str, JSONValue] | None"
"""A JSON value, typed: what ``json.dumps`` writes (a list or tuple, a mapping of text)."""

JSONObject: TypeAlias = "dict[str, JSONValue]"
"""A JSON object made to be written (a page's state, ``--json``), each value typed."""

JSONRecord: TypeAlias = "Mapping[str, JSONValue]"
"""A JSON object as read (a stored round, a deal's record): read-only, each value narrowed
with ``isinstance`` where it is used, a wrong type refused (EntryError)."""
