"""Seats before spectators (issue 40.2): the public table's address and a seat's own
token each spend a budget of their own, so a crowd of spectator streams (opened ten at a
time, as a script would) or one seat's flood of its own token never keeps another seat
from its page, its stream or its moves."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from deadlines import SCALE
from online import Online, Phone, Streams, online_game, play_seat

from scorekeeper.web.server import SEAT_PLACES, SPECTATOR_PLACES

pytestmark = pytest.mark.e2e


def phone_once_free(online: Online, name: str, timeout: float = 30) -> Phone:
    """Ann's phone, once the places her own flood held are given back (each stream's
    thread sees its page gone within a tick)."""
    deadline = time.monotonic() + timeout * SCALE
    while True:
        try:
            return Phone(online.seat_url(name))
        except AssertionError:
            if time.monotonic() > deadline:
                raise


def test_a_crowd_of_spectators_and_a_seats_flood_leave_every_other_seat_playing(
        tmp_path: Path) -> None:
    with online_game(tmp_path, "least-score", ["Ann", "Bea"], ["random"], 7,
                     {"limit": 25}) as online:
        crowd = Streams(online.viewer_url, 150)
        flood = Streams(online.seat_url("Ann"), 3 * SEAT_PLACES)
        try:
            # Each budget is full, and only its own asker was refused.
            assert crowd.statuses.count(200) == SPECTATOR_PLACES
            assert crowd.statuses.count(503) == 150 - SPECTATOR_PLACES
            assert flood.statuses.count(200) == SEAT_PLACES
            assert set(crowd.statuses + flood.statuses) == {200, 503}
            bea = Phone(online.seat_url("Bea"))  # asserts its page and its stream: 200
            flood.close()
            ann = phone_once_free(online, "Ann")
            stop = threading.Event()
            threads = [threading.Thread(target=play_seat, args=(phone, index, stop),
                                        daemon=True) for index, phone in enumerate([ann, bea])]
            online.play()
            for thread in threads:
                thread.start()
            session = online.finish(300)  # every move of both seats went through
            assert session.finished
            for thread in threads:
                thread.join(10)
            stop.set()
            for phone in (ann, bea):
                phone.close()
        finally:
            crowd.close()
            flood.close()
