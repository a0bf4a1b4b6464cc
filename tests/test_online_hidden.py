"""Hidden means hidden (issue 31.2): over whole games of both games, with several seeds and
house rules, every byte ``score play --online`` sends to each seat (and to the public
table) is recorded in the server's send path, and every card in it is checked against
what the engine lets that seat see at that moment: its own hand, the floor and the
cards the rules reveal.

"At that moment" is exact: each state the pages get names its deal and its step (the
actions played in the deal), and the deal is replayed from the saved game to that step
to ask the engine for that seat's observation. The checker is written here, from the
engines' views, not from the server's code."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from deadlines import SCALE
from online import Online, Phone, online_game, play_seat

from scorekeeper.cards import Card, parse_card
from scorekeeper.registry import get_virtual
from scorekeeper.session import Session

CARD = re.compile(r"(?<![0-9A-Za-z])(?:(10|[2-9AJQK])([SHDC♠♥♦♣])|JK)(?![0-9A-Za-z])")
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(text: str) -> set[Card]:
    """Every card written in ``text``, in notation (10H) or with its symbol (10♥)."""
    found = set()
    for match in CARD.finditer(text):
        if match.group(0) == "JK":
            found.add(parse_card("JK"))
        else:
            found.add(parse_card(match.group(1) + SYMBOLS.get(match.group(2), match.group(2))))
    return found


def visible(view: Any) -> set[Card]:
    """What a seat's observation shows: the fields of each game's View that hold cards."""
    cards: set[Card] = set()
    for name in ("hand", "floor", "seen", "dead_pile", "reshuffled"):  # Least Score
        cards.update(getattr(view, name, ()))
    for taken in getattr(view, "taken_seen", ()):
        cards.update(taken)
    for trick in getattr(view, "tricks", ()):  # One Card
        cards.update(trick.cards)
    cards.update(card for _seat, card in getattr(view, "trick", ()))
    if getattr(view, "one_card", None) is not None:
        cards.add(view.one_card)
    return cards


def public(view: Any) -> set[Card]:
    """What the whole table sees: a view without its hand (cards of the hand seen on the
    floor stay public)."""
    hand = set(view.hand)
    table = visible(view._replace(hand=()) if hasattr(view, "_replace") else view)
    if not hasattr(view, "_replace"):
        table -= hand
        for trick in view.tricks:
            table.update(trick.cards)
        table.update(card for _seat, card in view.trick)
    return table


def revealed(deal: Any) -> set[Card]:
    """What the rules show everyone at the deal's end (Least Score: every hand)."""
    if not deal.is_over:
        return set()
    result = deal.result()
    hands = getattr(result, "hands", {})
    return {card for hand in hands.values() for card in hand}


class Checker:
    """The cards each seat may see, deal by deal and step by step, from the saved game."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.virtual = get_virtual(session.game)
        self._cache: dict[tuple[str, int, int], set[Card]] = {}

    def allowed(self, who: str, deal: int, step: int | None) -> set[Card]:
        """``who`` (``seat:NAME`` or ``public``) at ``step`` of ``deal`` (None: its end)."""
        if deal == 0:
            return set()
        key = (who, deal, -1 if step is None else step)
        if key not in self._cache:
            recorded = self.session.rounds[deal - 1].recorded
            assert recorded is not None
            state = self.virtual.replay(recorded, self.session.options, upto=step)
            name = who.removeprefix("seat:")
            if who.startswith("seat:") and name in state.players:
                cards = visible(state.view(name))
            else:
                cards = public(state.view(state.players[0]))
            self._cache[key] = cards | revealed(state)
        return self._cache[key]

    def check_state(self, who: str, state: dict[str, Any]) -> None:
        previous = state.pop("previous", None)
        shown = cards_in(repr(state))
        allowed = self.allowed(who, state["deal"], state["step"])
        assert shown <= allowed, (who, state["deal"], state["step"], shown - allowed, state)
        if previous is not None:
            shown = cards_in(repr(previous))
            allowed = self.allowed(who, previous["number"], None)
            assert shown <= allowed, (who, previous, shown - allowed)


def bodies(sent: bytes) -> tuple[str, str]:
    head, _, body = sent.partition(b"\r\n\r\n")
    kind = next((line.split(b":", 1)[1].strip().decode() for line in head.split(b"\r\n")
                 if line.lower().startswith(b"content-type:")), "")
    return kind, body.decode("utf-8")


def check_everything(online: Online, session: Session) -> int:
    """Check every answer the server sent; the number of states checked."""
    import json

    checker = Checker(session)
    tokens = [online.table.viewer_token, *(d.token for d in online.table.seats.values())]
    pages = [page for desk in online.table.seats.values() for page in desk.pages]
    states = 0
    for who, sent in online.record.connections.values():
        kind, body = bodies(bytes(sent))
        if kind.startswith("text/event-stream"):
            for line in body.splitlines():
                if line.startswith("data: "):
                    checker.check_state(who, json.loads(line[len("data: "):]))
                    states += 1
        elif kind.startswith("application/json"):
            answer = json.loads(body)
            shown = cards_in(repr(answer))
            if shown:
                allowed = checker.allowed(who, answer["deal"], answer["step"])
                assert shown <= allowed, (who, answer, shown - allowed)
        else:  # the page's shell, its script and style, errors: no card at all
            text = bytes(sent).decode("utf-8")
            for secret in (*tokens, *pages):
                text = text.replace(secret, "")
            assert not cards_in(text), (who, cards_in(text), text[:400])
    return states


def play_whole_game(tmp_path: Path, game: str, humans: list[str], bots: list[str],
                    seed: int, options: dict[str, Any]) -> tuple[Online, Session]:
    with online_game(tmp_path, game, humans, bots, seed, options) as online:
        phones = [Phone(online.seat_url(name), lang) for name, lang
                  in zip(humans, ["en", "da", "ar", "en"], strict=False)]
        watcher = Phone(online.viewer_url)
        stop = threading.Event()
        threads = [threading.Thread(target=play_seat, args=(phone, seed * 10 + i, stop),
                                    daemon=True) for i, phone in enumerate([*phones, watcher])]
        online.play()
        for thread in threads:
            thread.start()
        session = online.finish(300)
        for thread in threads:
            thread.join(10 * SCALE)
        stop.set()
        for phone in [*phones, watcher]:
            phone.close()
    return online, session


GAMES = [
    ("least-score", ["Ann", "Bea"], ["random"], 1, {"limit": 25}),
    ("least-score", ["Ann", "Bea", "Cy"], [], 2, {"limit": 25, "two_pairs": "any-rank",
                                                 "end": "first-out"}),
    ("least-score", ["Ann"], ["greedy", "random"], 3, {"limit": 30, "tie": "declarer-loses"}),
    ("one-card", ["Ann", "Bea"], ["random"], 4, {"target": 20}),
    ("one-card", ["Ann", "Bea", "Cy"], ["random"], 5, {"joker": "two-of-diamonds",
                                                      "target": 20}),
    ("one-card", ["Ann"], ["greedy", "random"], 6, {"target": 20}),
]


@pytest.mark.parametrize(("game", "humans", "bots", "seed", "options"), GAMES,
                         ids=[f"{g[0]}-{g[3]}" for g in GAMES])
@pytest.mark.e2e
def test_no_seat_is_ever_sent_a_card_it_may_not_see(
        tmp_path: Path, game: str, humans: list[str], bots: list[str], seed: int,
        options: dict[str, Any]) -> None:
    online, session = play_whole_game(tmp_path, game, humans, bots, seed, options)
    assert session.finished
    states = check_everything(online, session)
    assert states >= 2 * len(session.rounds)
    seen = {who for who, _sent in online.record.connections.values()}
    assert seen >= {"public", *(f"seat:{name}" for name in humans)}


@pytest.mark.e2e
def test_the_checker_catches_a_card_of_another_hand(tmp_path: Path) -> None:
    """The proof can fail: a state that shows another seat one card of Ann's hand is
    caught, and so is a hidden card in a page's shell."""
    online, session = play_whole_game(tmp_path, "one-card", ["Ann", "Bea"], ["random"], 7,
                                      {"target": 20})
    checker = Checker(session)
    recorded = session.rounds[0].recorded
    assert recorded is not None
    deal = checker.virtual.replay(recorded, session.options, upto=0)
    ann_card = str(deal.view("Ann").hand[0])
    honest = {"deal": 1, "step": 0, "hand": {"cards": [str(c) for c in
                                                        deal.view("Bea").hand]}}
    checker.check_state("seat:Bea", dict(honest))
    with pytest.raises(AssertionError):
        checker.check_state("seat:Bea", {**honest, "log": [f"Ann holds {ann_card}"]})
    with pytest.raises(AssertionError):
        checker.check_state("public", dict(honest))
    pretty = parse_card(ann_card).pretty()
    check_everything(online, session)
    online.record.connections[0] = ("seat:Bea", bytearray(
        f"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>{pretty}</p>".encode()))
    with pytest.raises(AssertionError):
        check_everything(online, session)


def test_cards_are_found_in_every_notation() -> None:
    assert cards_in('["10H","QS"] 9♦, JK and A♣') == {
        parse_card("10H"), parse_card("QS"), parse_card("9D"), parse_card("JK"),
        parse_card("AC")}
    assert cards_in("Random-3 ASK KCX 110H") == set()




@pytest.mark.parametrize("game", ["least-score", "one-card"])
@pytest.mark.e2e
def test_score_serves_pages_of_a_game_played_online_show_no_card(tmp_path: Path,
                                                                 game: str) -> None:
    """The viewers' pages of ``score serve`` (the session, the list, the statistics) of a
    virtual game show scores, never its cards."""
    from scorekeeper.store import Store
    from scorekeeper.views import pages, stats_report

    options = {"limit": 25} if game == "least-score" else {"target": 20}
    _online, session = play_whole_game(tmp_path, game, ["Ann"], ["random"], 8, options)
    view = Store(tmp_path / "store.json").read()
    shown = [pages.session_page(view, session.id).body, pages.sessions_page(view).body,
             stats_report.store_page(view)]
    for body in shown:
        rules = body.replace("JK is the joker", "")  # the house rule's name, no one's card
        assert not cards_in(rules), cards_in(rules)
    assert all("Ann" in body for body in shown[:2])
