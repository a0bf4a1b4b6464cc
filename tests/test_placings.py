"""Places mean what the game means (issue 11.7): in a last-standing Least Score game the
knocked-out players are placed by how long they lasted, in `show` and in the exports;
the HTML chart ends a knocked-out player's line at the knock-out, on round ticks."""

from __future__ import annotations

import re

from conftest import CLI

from scorekeeper.views.export import nice_step


def _last_out_has_the_higher_total(least, ok: CLI) -> None:
    """Bob is out first with 11; Cy is out last with 40; Ann wins with 0."""
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--dealer", "Ann"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=12", "Cy=2")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=40")


def standings_order(text: str) -> list[tuple[str, str]]:
    """(place, player) of each row of the standings table in `show`."""
    standings = text.split("Rounds")[0]
    rows = re.findall(r"^│\s*(\d+)\s*│\s*(\w+)\s*│", standings, flags=re.MULTILINE)
    return [(place, name) for place, name in rows]


def test_show_places_the_last_one_out_second(least, ok: CLI) -> None:
    _last_out_has_the_higher_total(least, ok)
    shown = ok("show").stdout
    assert standings_order(shown)[:3] == [("1", "Ann"), ("2", "Cy"), ("3", "Bob")]


def test_markdown_and_html_place_the_last_one_out_second(least, ok: CLI) -> None:
    _last_out_has_the_higher_total(least, ok)
    markdown = ok("export", "--format", "md").stdout
    rows = re.findall(r"^\| (\d) \| (\w+) \| (\d+) \|", markdown, flags=re.MULTILINE)
    assert rows == [("1", "Ann", "0"), ("2", "Cy", "40"), ("3", "Bob", "11")]
    page = ok("export", "--format", "html").stdout
    standings = page.split("<h2>Standings</h2>")[1].split("</table>")[0]
    assert standings.index("Cy") < standings.index("Bob")


def test_first_out_places_by_total(least, ok: CLI) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--end", "first-out"))
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=5", "Cy=20")  # Cy out: game over
    shown = ok("show").stdout
    assert standings_order(shown) == [("1", "Ann"), ("2", "Bob"), ("3", "Cy")]


def test_while_the_game_is_on_the_players_still_in_go_by_total(least, ok: CLI) -> None:
    least("Ann", "Bob", "Cy", "Dan", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=12", "Cy=4", "Dan=3")
    # Bob is out (11); Dan 2 and Cy 3 still in, Ann 0
    assert standings_order(ok("show").stdout) == [("1", "Ann"), ("2", "Dan"), ("3", "Cy"),
                                                  ("4", "Bob")]


def test_one_card_places_by_the_highest_total(one_card, ok: CLI) -> None:
    one_card("Ann", "Bob", "Cy")
    ok("add-round", "--no-bid", "Ann=3", "Bob=7", "Cy=5")
    assert standings_order(ok("show").stdout) == [("1", "Bob"), ("2", "Cy"), ("3", "Ann")]


def polyline_points(page: str, name: str) -> list[str]:
    match = re.search(r'points="([^"]*)"><title>' + name + "</title>", page)
    assert match is not None, name
    return match.group(1).split()


def test_the_chart_ends_a_knocked_out_line_at_the_knock_out(least, ok: CLI) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=12", "Cy=2")  # Bob out in round 1
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=4")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=4")
    page = ok("export", "--format", "html").stdout
    assert len(polyline_points(page, "Ann")) == 4  # the start and three rounds
    assert len(polyline_points(page, "Bob")) == 2  # the start and the round he went out


def test_the_chart_axis_is_marked_at_round_numbers(least, ok: CLI) -> None:
    least("Ann", "Bob", extra=("--limit", "100"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=38")
    page = ok("export", "--format", "html").stdout
    svg = page[page.index("<svg"):page.index("</svg>")]
    ticks = [int(v) for v in re.findall(r'text-anchor="end" fill="#777">(\d+)<', svg)]
    assert ticks == [0, 20, 40, 60, 80, 100, 120]


def test_nice_steps_are_one_two_or_five_times_a_power_of_ten() -> None:
    for top in range(1, 3000, 7):
        step = nice_step(top)
        assert int(str(step)[0]) in (1, 2, 5) and set(str(step)[1:]) <= {"0"}
        assert top / step <= 6
