"""Pages that explain themselves (issue 40.3): One Card's joker lead shows the suit each
button names; Least Score's pick is labelled as a choice of cards and every choice that
is not a legal discard carries the terminal's reason, shown under the cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from browsers import pooled_chromium
from deadlines import deadline
from online import online_game
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from scorekeeper.cards import STANDARD_DECK, parse_card, parse_cards
from scorekeeper.games.least_score import online as least_online
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.engine import Deal as LeastDeal
from scorekeeper.games.least_score.rules import Options as LeastOptions
from scorekeeper.games.one_card import online as one_online
from scorekeeper.games.one_card.engine import Bid
from scorekeeper.games.one_card.engine import Deal as OneDeal
from scorekeeper.games.one_card.rules import Options as OneOptions
from scorekeeper.views.seat import pick_key, static_file

ONE_CARD_HANDS = {
    "Ann": "JK AH KH QH AS AD",
    "Bob": "9H 10S JS 9D 10D 9C",
    "Cy": "10H QS KS JD QD 10C",
    "Dee": "JH 9S KD JC QC KC",
}


def test_the_joker_lead_shows_the_suit_each_button_names() -> None:
    players = tuple(ONE_CARD_HANDS)
    deal = OneDeal(players, "Dee", [parse_cards(ONE_CARD_HANDS[p]) for p in players],
                   parse_card("AC"), OneOptions())
    for amount in (6, None, None, 7, 8, None):
        deal.apply(Bid(amount))
    buttons = one_online.moves(deal.view("Ann"))["buttons"]
    jokers = [button for button in buttons if button["card"] == "JK"]
    assert [button["suit"] for button in jokers] == ["♠", "♥", "♦", "♣"]
    assert len({button["label"] for button in jokers}) == 4
    assert all("suit" not in button for button in buttons if button["card"] != "JK")
    script = static_file("seat.js").decode()
    assert "spec.suit" in script  # the page draws it beside the card


def least_deal(hand: str) -> LeastDeal:
    """Ann holds ``hand``; the other cards go to Bob, the floor and the deck."""
    mine = parse_cards(hand)
    rest = [card for card in STANDARD_DECK if card not in mine]
    return LeastDeal(("Ann", "Bob"), "Bob", [mine, rest[:5]], rest[5], rest[6:],
                     LeastOptions(), None)


def test_an_illegal_pick_carries_the_terminals_reason_and_the_label_says_pick() -> None:
    deal = least_deal("9H 9S 9D 2C KD")
    pick = least_online.moves(deal.view("Ann"))["pick"]
    assert pick["label"] == "Pick the cards to discard:"
    three = pick_key(parse_cards("9H 9S 9D"))
    assert pick["problems"][three] == "three of a kind can't be discarded"
    assert pick["problems"][pick_key(parse_cards("2C KD"))] == \
        "two cards must be a pair of the same rank"
    for legal in pick["sets"]:  # a legal choice has no problem, every other one has
        assert pick_key(legal) not in pick["problems"]
    hand = parse_cards("9H 9S 9D 2C KD")
    assert len(pick["problems"]) + len(pick["sets"]) == 2 ** len(hand) - 1
    for key, problem in pick["problems"].items():
        assert rules.discard_problem(parse_cards(key)) == problem


@pytest.mark.e2e
def test_the_seat_page_shows_why_a_pick_is_not_a_discard(tmp_path: Path) -> None:
    """In Chromium: Ann taps two cards of different ranks; the reason appears under the
    cards, in the terminal's words, and the buttons that take a card stay off."""
    with (online_game(tmp_path, "least-score", ["Ann"], ["random"], 8,
                      {"limit": 25}) as online, pooled_chromium(390) as driver):
        online.play()
        driver.get(online.seat_url("Ann"))
        wait = WebDriverWait(driver, deadline(60), poll_frequency=0.1)
        wait.until(lambda found: found.find_elements(By.CSS_SELECTOR,
                                                     "section.moves .pick button"))
        label = driver.find_element(By.CSS_SELECTOR, "section.moves p.label").text
        assert label == "Pick the cards to discard:"
        cards = driver.find_elements(By.CSS_SELECTOR, "section.moves .pick button")
        ranks = [(card.get_attribute("data-card") or "")[:-1] for card in cards]
        first, second = next((i, j) for i in range(len(cards)) for j in range(i + 1,
                             len(cards)) if ranks[i] != ranks[j])
        cards[first].click()
        driver.find_elements(By.CSS_SELECTOR, "section.moves .pick button")[second].click()
        wait.until(lambda found: found.find_element(
            By.CSS_SELECTOR, ".pick-problem").text)
        assert driver.find_element(By.CSS_SELECTOR, ".pick-problem").text == \
            "two cards must be a pair of the same rank"
        takes = driver.find_elements(By.CSS_SELECTOR, "section.moves .buttons button")
        assert any(not button.is_enabled() for button in takes)
