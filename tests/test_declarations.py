"""Each game's declaration agrees with its table module: the options ``score new`` offers
are the options the game checks, with the same defaults and allowed values."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.kit.options import Language
from scorekeeper.registry import DECLARATIONS, get_virtual

GAMES = list(DECLARATIONS.values())


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_declared_house_rules_are_the_options_the_game_checks(game: GameDeclaration) -> None:
    table = game.table
    # a value as the command line names it (Hearts' plus), read as the table stores it
    assert {rule.key: table.check_options({rule.key: rule.default})[rule.key]
            for rule in game.house_rules} == table.default_options()
    described = table.house_rules(table.parse_options(table.default_options()),
                                  Language.ENGLISH)
    assert [rule.key for rule in described] == [rule.key for rule in game.house_rules]
    for rule in game.house_rules:
        for choice in rule.choices:
            stored = table.check_options({rule.key: choice})[rule.key]
            assert stored == choice or table.check_options({rule.key: stored}) == \
                table.check_options({rule.key: choice})
        if rule.choices:
            with pytest.raises(EntryError):
                table.check_options({rule.key: "no-such-value"})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_round_takes_only_its_declared_options(game: GameDeclaration) -> None:
    own = {option.key for option in game.round_options}
    every = {option.key: option for other in GAMES for option in other.round_options}
    for key, option in every.items():
        if key in own:
            continue
        value: str | int | bool = {"switch": True, "number": 9}.get(option.kind, "Ann")
        with pytest.raises(EntryError, match=f"--{key.replace('_', '-')} is not for"):
            players = ["Ann", "Bob", "Cy"]
            table = game.table
            options = table.parse_options(table.default_options())
            standings = table.standings(players, options, "Ann", [])
            table.make_round(players, options, standings,
                             RoundEntry((("Ann", "5"), ("Bob", "5"), ("Cy", "5")),
                                        **{key: value}))


@pytest.mark.parametrize("game", [game for game in GAMES if game.virtual],
                         ids=lambda game: game.name)
def test_declared_bots_are_the_virtual_decks_bots(game: GameDeclaration) -> None:
    assert game.bots == tuple(get_virtual(game.name).bots)
    assert game.keyboard_ui is not None
    ui = importlib.import_module(game.keyboard_ui)
    assert callable(ui.render_view) and callable(ui.read_action)


@pytest.mark.parametrize("game", [game for game in GAMES if not game.virtual],
                         ids=lambda game: game.name)
def test_a_game_without_a_virtual_deck_declares_no_bots_and_says_so(
        game: GameDeclaration) -> None:
    assert game.bots == () and game.keyboard_ui is None
    with pytest.raises(EntryError, match="has no virtual deck"):
        get_virtual(game.name)


# ---------------------------------------------------------------------------
# A declaration names its table; the table loads when it is first read


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_declared_name_and_title_are_its_tables(game: GameDeclaration) -> None:
    assert (game.table.name, game.table.title) == (game.name, game.title)
    assert game.given("table") is game.table  # loaded once, then kept


def lazy_least_score(**changes: object) -> GameDeclaration:
    """Least Score's declaration as declared, before anything of it is read."""
    from dataclasses import fields

    from scorekeeper.games.least_score.game import GAME

    given = {each.name: GAME.given(each.name) for each in fields(GAME) if each.init}
    given.update({"table": "scorekeeper.games.least_score.table:LeastScoreTable",
                  "widest_round": "scorekeeper.games.least_score.table:LeastScoreTable"
                                  ".widest_round", **changes})
    return GameDeclaration(**given)


def test_a_table_named_by_where_it_lives_loads_when_first_read() -> None:
    declaration = lazy_least_score()
    assert declaration.given("table") == "scorekeeper.games.least_score.table:LeastScoreTable"
    table = declaration.table
    assert declaration.given("table") is table and declaration.table is table
    assert declaration.widest_round is not None
    assert declaration.widest_round.__self__ is table  # type: ignore[attr-defined]


def test_a_table_that_is_not_the_declared_game_is_refused_when_it_loads() -> None:
    declaration = lazy_least_score(table="scorekeeper.games.one_card.table:OneCardTable")
    with pytest.raises(ValueError, match="is not the table of least-score"):
        _ = declaration.table


def test_a_table_loaded_on_use_needs_the_games_name_and_title() -> None:
    with pytest.raises(ValueError, match="declares its name and title"):
        lazy_least_score(name="")


def test_a_table_given_itself_gives_the_name_and_title(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    from dataclasses import replace

    monkeypatch.syspath_prepend(Path(__file__).resolve().parent / "third_game")
    from high_card.table import HighCardTable

    made = replace(GAMES[0], table=HighCardTable())
    assert (made.name, made.title) == ("high-card", "High Card")
