"""Helpers for the ``score serve --entry`` tests: a player's entry page as a browser
holds it (loaded with its page token, its live stream read, its entry posted)."""

from __future__ import annotations

import json
import re
from typing import Any

from online import request
from serving import EventStream

PAGE_TOKEN = re.compile(r'data-page="([^"]+)"')
ENTRY_LINK = re.compile(r"^(\S+)'s entry \(for \S+ only\): (http://\S+/)$")


class Player:
    """One player's page as a browser holds it: loaded (its page token), posting."""

    def __init__(self, url: str, lang: str = "en") -> None:
        self.url = url
        self.lang = lang
        status, self.headers, body = request(f"{url}?lang={lang}")
        assert status == 200
        self.html = body.decode()
        found = PAGE_TOKEN.search(self.html)
        assert found
        self.page = found.group(1)

    def state(self) -> dict[str, Any]:
        with EventStream(f"{self.url}events?lang={self.lang}") as stream:
            return dict(json.loads(stream.next_data()))

    def post(self, fields: dict[str, Any], version: int | None = None, *,
             body: bytes | None = None, headers: dict[str, str] | None = None
             ) -> tuple[int, dict[str, Any]]:
        if version is None:
            version = self.state()["v"]
        sent = body if body is not None else json.dumps(
            {"v": version, "fields": fields}).encode()
        status, _headers, answer = request(
            f"{self.url}entry?lang={self.lang}", "POST", sent,
            headers if headers is not None else {"Content-Type": "application/json",
                                                 "X-Scorekeeper-Page": self.page})
        try:
            return status, json.loads(answer)
        except ValueError:
            return status, {"raw": answer.decode("utf-8", "replace")}
