"""Each game's declaration agrees with its table module: the options ``score new`` offers
are the options the game checks, with the same defaults and allowed values."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from scorekeeper.games.common import EntryError, GameDeclaration, Language, RoundEntry
from scorekeeper.registry import DECLARATIONS, get_virtual, register, round_options

GAMES = list(DECLARATIONS.values())


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_declared_house_rules_are_the_options_the_game_checks(game: GameDeclaration) -> None:
    table = game.table
    assert {rule.key: rule.default for rule in game.house_rules} == table.default_options()
    described = table.house_rules(table.default_options(), Language.ENGLISH)
    assert [rule.key for rule in described] == [rule.key for rule in game.house_rules]
    for rule in game.house_rules:
        for choice in rule.choices:
            assert table.check_options({rule.key: choice})[rule.key] == choice
        if rule.choices:
            with pytest.raises(EntryError):
                table.check_options({rule.key: "no-such-value"})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_round_takes_only_its_declared_options(game: GameDeclaration) -> None:
    own = {option.key for option in game.round_options}
    for key, option in round_options().items():
        if key in own:
            continue
        value: str | int | bool = {"switch": True, "number": 9}.get(option.kind, "Ann")
        with pytest.raises(EntryError, match=f"--{key.replace('_', '-')} is not for"):
            players = ["Ann", "Bob", "Cy"]
            table = game.table
            options = table.default_options()
            standings = table.standings(players, options, "Ann", [])
            table.make_round(players, options, standings,
                             RoundEntry((("Ann", "5"), ("Bob", "5"), ("Cy", "5")),
                                        **{key: value}))


@pytest.mark.parametrize("game", [game for game in GAMES if game.virtual is not None],
                         ids=lambda game: game.name)
def test_declared_bots_are_the_virtual_decks_bots(game: GameDeclaration) -> None:
    assert game.bots == tuple(get_virtual(game.name).bots)
    assert game.keyboard_ui is not None
    ui = importlib.import_module(game.keyboard_ui)
    assert callable(ui.render_view) and callable(ui.read_action)


def test_a_game_without_a_virtual_deck_declares_no_bots() -> None:
    bare = [game for game in GAMES if game.virtual is None]
    assert [game.name for game in bare] == ["oh-hell"]
    assert all(game.bots == () and game.keyboard_ui is None for game in bare)


def test_a_round_option_keeps_one_kind_across_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    monkeypatch.syspath_prepend(Path(__file__).resolve().parent / "third_game")
    from high_card.table import HighCardTable

    from scorekeeper.games.common import RoundOption

    clash = replace(GAMES[0], table=HighCardTable(),
                    round_options=(RoundOption("bid", "name", "a bid as a name"),))
    with pytest.raises(ValueError, match="--bid is a number in another game"):
        register(clash)
    assert "high-card" not in DECLARATIONS and round_options()["bid"].kind == "number"
