"""Each built-in game's declaration spells its house rules' defaults and choices as plain
values (so that every command need not import every game's rules: docs/performance.md):
they are the rules' own."""

from __future__ import annotations

from enum import StrEnum

import pytest

from scorekeeper.games.hearts import rules as hearts
from scorekeeper.games.oh_hell import rules as oh_hell
from scorekeeper.games.one_card import rules as one_card
from scorekeeper.games.points import rules as points
from scorekeeper.games.yaniv import rules as yaniv
from scorekeeper.registry import declaration_of, get_game

BUILT_IN = ["least-score", "one-card", "points", "hearts", "oh-hell", "yaniv"]

ENUMS: dict[tuple[str, str], type[StrEnum]] = {
    ("one-card", "joker"): one_card.JokerRule,
    ("points", "wins"): points.Wins,
    ("oh-hell", "hand_sizes"): oh_hell.Schedule,
    ("oh-hell", "bid_scoring"): oh_hell.Scoring,
    ("oh-hell", "hook"): oh_hell.Hook,
    ("hearts", "jack_of_diamonds"): hearts.JackRule,
}


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_declared_defaults_are_what_the_rules_take_by_default(game: str) -> None:
    declared = {option.key: option.default for option in declaration_of(game).house_rules}
    rules = get_game(game)
    assert rules.check_options({}) == rules.check_options(declared)  # (Hearts: plus is add)
    assert set(rules.check_options({})) == set(declared)


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_declared_choice_is_taken_by_the_rules(game: str) -> None:
    for option in declaration_of(game).house_rules:
        for choice in option.choices:
            assert option.key in get_game(game).check_options({option.key: choice})
        if (game, option.key) in ENUMS:
            assert option.choices == tuple(member.value for member in ENUMS[game, option.key])


def test_the_constants_the_declarations_restate() -> None:
    from scorekeeper.games.hearts import game as hearts_game
    from scorekeeper.games.oh_hell import game as oh_hell_game
    from scorekeeper.games.points import game as points_game

    assert (points_game.ANY_SUM, points_game.POINTS_KEY) == (points.ANY_SUM, points.POINTS_KEY)
    assert (oh_hell_game.BIDS_KEY, oh_hell_game.TRICKS_KEY) == (oh_hell.BIDS_KEY,
                                                                oh_hell.TRICKS_KEY)
    assert yaniv.YanivOptions().tie.value == "declarer-loses"
    assert (hearts_game.MOON_KEY, hearts_game.PASSING_KEY, hearts_game.TARGET) == (
        hearts.MOON_KEY, hearts.PASSING_KEY, hearts.TARGET)
    moon = (hearts_game.MOON_PLUS, hearts_game.MOON_ADD, hearts_game.MOON_MINUS)
    assert moon == (hearts.MOON_PLUS, hearts.MoonRule.ADD.value, hearts.MoonRule.MINUS.value)
    assert hearts.MoonRule(hearts_game.MOON_PLUS) is hearts.MoonRule.ADD
