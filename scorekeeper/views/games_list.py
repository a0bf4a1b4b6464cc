"""``score games`` as the terminal shows it: a table where the terminal has room for one,
else (a phone) each game as a short block of lines that wrap at spaces."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from scorekeeper.card_printing import plain
from scorekeeper.i18n import _, pgettext
from scorekeeper.kit.declaration import GameDeclaration

TABLE_COLUMNS = 100
"""Below this width the five columns would cut the descriptions and house rules to ``…``."""


def house_rules_text(declaration: GameDeclaration, separator: str) -> Text:
    return Text(separator).join(plain(f"{option.flag} {option.default}")
                                for option in declaration.house_rules) or Text("—")


def players_text(declaration: GameDeclaration) -> str:
    return f"{declaration.table.min_players}–{declaration.table.max_players}"


def games_table(declarations: Mapping[str, GameDeclaration],
                origins: Mapping[str, str]) -> Table:
    table = Table(title=_("Games"), title_justify="left")
    table.add_column(pgettext("table heading", "Game"), no_wrap=True)
    table.add_column(pgettext("table heading", "Title"))
    table.add_column(pgettext("table heading", "Players"), justify="right", no_wrap=True)
    table.add_column(pgettext("table heading", "From"))
    table.add_column(pgettext("table heading", "House rules (defaults)"))
    for name, declaration in declarations.items():
        title = plain(declaration.title)
        if declaration.description:
            title.append("\n")
            title.append_text(plain(_(declaration.description), style="dim"))
        table.add_row(plain(name), title, players_text(declaration), plain(origins[name]),
                      house_rules_text(declaration, "\n"))
    return table


def games_blocks(declarations: Mapping[str, GameDeclaration],
                 origins: Mapping[str, str]) -> Group:
    """Each game as lines of their own: its name and title, its description, its players
    and origin, its house rules (each line wraps at spaces, nothing is cut)."""
    parts: list[RenderableType] = [Text(_("Games"), style="italic")]
    for name, declaration in declarations.items():
        head = plain(name, style="bold")
        head.append(" — ")
        head.append_text(plain(declaration.title))
        parts.append(Text(""))
        parts.append(head)
        if declaration.description:
            parts.append(plain(_(declaration.description), style="dim"))
        parts.append(Text(" · ").join([
            plain(_("{label}: {meaning}").format(
                label=pgettext("table heading", "Players"), meaning=players_text(declaration))),
            plain(_("{label}: {meaning}").format(
                label=pgettext("table heading", "From"), meaning=origins[name]))]))
        rules = plain(_("{label}: {meaning}").format(
            label=pgettext("table heading", "House rules (defaults)"), meaning=""))
        rules.append_text(house_rules_text(declaration, " · "))
        parts.append(rules)
    return Group(*parts)


def games_view(declarations: Mapping[str, GameDeclaration], origins: Mapping[str, str],
               width: int) -> RenderableType:
    """The list of games for a terminal ``width`` columns wide."""
    if width >= TABLE_COLUMNS:
        return games_table(declarations, origins)
    return games_blocks(declarations, origins)
