"""`score add-round`: entering deals at the table, every house rule, every refusal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import CLI, Refuse, file_bytes, players_args
from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def values(**totals: object) -> list[str]:
    return [f"{name}={value}" for name, value in totals.items()]


# --------------------------------------------------------------------------- Least Score


def test_worked_example_good_declaration(least, ok: CLI, summary) -> None:
    """RULES.md: A declares with 10, B has 16, C has 17: A 0, B 6, C 7."""
    least("A", "B", "C")
    result = ok("add-round", "--declarer", "A", "A=10", "B=16", "C=17")
    assert "Round 1 recorded: A +0, B +6, C +7" in result.stdout
    data = summary()
    assert data["rounds"][0]["scores"] == {"A": 0, "B": 6, "C": 7}
    assert data["rounds"][0]["false_declaration"] is False
    assert data["totals"] == {"A": 0, "B": 6, "C": 7}


def test_worked_example_false_declaration(least, ok: CLI, summary) -> None:
    """RULES.md: A declares with 10, B has 8, C has 15: A 22, B 0, C 0."""
    least("A", "B", "C")
    result = ok("add-round", "--declarer", "A", "A=10", "B=8", "C=15")
    assert "Round 1 recorded: A +22, B +0, C +0" in result.stdout
    assert "false declaration by A" in result.stdout
    data = summary()
    assert data["rounds"][0]["scores"] == {"A": 22, "B": 0, "C": 0}
    assert data["rounds"][0]["false_declaration"] is True
    assert data["totals"] == {"A": 22, "B": 0, "C": 0}


def test_names_match_ignoring_case_and_keep_the_session_spelling(least, ok: CLI,
                                                                 summary) -> None:
    least("Ann", "Bob", "Cy")
    ok("add-round", "--declarer", "ANN", "ann=10", "BOB=16", "cY=17")
    first = summary()["rounds"][0]
    assert first["declarer"] == "Ann"
    assert first["totals"] == {"Ann": 10, "Bob": 16, "Cy": 17}


def test_cards_are_counted_and_stored_as_in_format_md(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", "Cy")
    ok("add-round", "--declarer", "Ann", "Ann=ah,9s", "Bob=KD,6c", "Cy=7♥,Q♠")
    first = summary()["rounds"][0]
    assert first["totals"] == {"Ann": 10, "Bob": 16, "Cy": 17}
    assert first["hands"] == {"Ann": ["AH", "9S"], "Bob": ["KD", "6C"], "Cy": ["7H", "QS"]}
    assert first["scores"] == {"Ann": 0, "Bob": 6, "Cy": 7}


def test_ten_may_be_written_t_and_totals_mix_with_cards(least, ok: CLI, summary) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Bob", "Ann=Th,JD", "Bob=3")
    first = summary()["rounds"][0]
    assert first["totals"] == {"Ann": 20, "Bob": 3}
    assert first["hands"] == {"Ann": ["10H", "JD"]}


def test_round_goes_to_the_session_option_not_only_the_current(least, ok: CLI,
                                                               summary) -> None:
    least("Ann", "Bob")
    least("Cy", "Dan")
    ok("add-round", "--session", "1", "--declarer", "Ann", "Ann=1", "Bob=5")
    assert summary(1)["totals"] == {"Ann": 0, "Bob": 4}
    assert summary(2)["rounds"] == []
    assert summary()["id"] == 2  # still the current one


def test_limit_knocks_out_only_strictly_above(least, ok: CLI, refuse: Refuse, summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "25"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=26", "Cy=2")
    data = summary()
    assert data["totals"]["Bob"] == 25  # exactly the limit: still in
    assert data["knocked_out"] == [] and data["rounds"][0]["knocked_out"] == []
    result = ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=2")
    assert "Bob is knocked out." in result.stdout
    data = summary()
    assert data["totals"]["Bob"] == 26
    assert data["knocked_out"] == ["Bob"] and data["rounds"][1]["knocked_out"] == ["Bob"]
    assert data["status"] == "in-progress"
    # a knocked-out player has no hand and can't declare
    refuse("add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=2",
           says=("Bob is knocked out", "Ann, Cy"))
    refuse("add-round", "--declarer", "Bob", "Ann=1", "Cy=2",
           says=("Bob is knocked out", "can't declare"))
    # the deal goes on without Bob
    result = ok("add-round", "--declarer", "Cy", "Ann=3", "Cy=2")
    assert "Round 3 recorded: Ann +1, Cy +0" in result.stdout
    assert "Bob" not in summary()["rounds"][2]["scores"]


def test_last_standing_wins(least, ok: CLI, refuse: Refuse, summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20", "Cy=5")
    result = ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=20")
    assert "Cy is knocked out." in result.stdout
    assert "Game over: Ann wins!" in result.stdout
    data = summary()
    assert data["status"] == "finished" and data["winners"] == ["Ann"]
    assert data["knocked_out"] == ["Bob", "Cy"]
    refuse("add-round", "--declarer", "Ann", "Ann=1", "Bob=2", says=("finished", "score new"))


def test_tie_declarer_wins_by_default(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", "Cy")
    ok("add-round", "--declarer", "Ann", "Ann=7", "Bob=7", "Cy=9")
    first = summary()["rounds"][0]
    assert first["scores"] == {"Ann": 0, "Bob": 0, "Cy": 2}
    assert first["false_declaration"] is False


def test_tie_declarer_loses(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--tie", "declarer-loses"))
    result = ok("add-round", "--declarer", "Ann", "Ann=7", "Bob=7", "Cy=9")
    assert "false declaration by Ann" in result.stdout
    first = summary()["rounds"][0]
    assert first["scores"] == {"Ann": 20, "Bob": 0, "Cy": 0}
    assert first["false_declaration"] is True
    # below the lowest is still a good declaration
    ok("add-round", "--declarer", "Ann", "Ann=6", "Bob=7", "Cy=9")
    assert summary()["rounds"][1]["scores"] == {"Ann": 0, "Bob": 1, "Cy": 3}


def test_end_first_out_with_a_tie_sharing_the_win(least, ok: CLI, refuse: Refuse,
                                                  summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--end", "first-out"))
    result = ok("add-round", "--declarer", "Ann", "Ann=5", "Bob=5", "Cy=16")
    assert "Cy is knocked out." in result.stdout
    assert "Game over: Ann and Bob win!" in result.stdout
    data = summary()
    assert data["status"] == "finished"
    assert data["winners"] == ["Ann", "Bob"]
    assert data["knocked_out"] == ["Cy"]
    refuse("add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=3", says="finished")


def test_end_first_out_lowest_total_wins(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--end", "first-out"))
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=1", "Cy=3")  # Ann 3, Cy 2
    assert summary()["status"] == "in-progress"
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=3", "Cy=12")  # Bob 1, Cy 12: out
    data = summary()
    assert data["totals"] == {"Ann": 3, "Bob": 1, "Cy": 12}
    assert data["winners"] == ["Bob"] and data["status"] == "finished"


def test_end_last_standing_goes_on_after_a_knock_out(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=3", "Cy=13")
    data = summary()
    assert data["knocked_out"] == ["Cy"] and data["status"] == "in-progress"


def test_two_pairs_is_stored_and_printed(least, ok: CLI, summary) -> None:
    """It only matters for the virtual deck; at the table it is kept and shown."""
    result = least("Ann", "Bob", extra=("--two-pairs", "any-rank"))
    assert "two-pairs any-rank" in result.stdout  # as the user types it
    assert summary()["options"]["two_pairs"] == "any-rank"
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    assert "two-pairs any-rank" in ok("show").stdout
    assert "two-pairs any-rank" in ok("export", "--format", "md").stdout
    assert "two pairs of any ranks" in ok("rules", "least-score").stdout


def test_dealer_passes_left_among_players_still_in(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--dealer", "Ann"))
    result = ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20", "Cy=2")
    assert "Next deal: Cy deals, Ann plays first." in result.stdout  # Bob is out
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=2")
    assert [r["dealer"] for r in summary()["rounds"]] == ["Ann", "Cy"]


LEAST_SCORE_REFUSALS = [
    pytest.param(["--declarer", "Ann", "Ann=5", "Bbo=8", "Cy=9"],
                 ("no player called 'Bbo'", "Ann, Bob, Cy"), id="typo"),
    pytest.param(["--declarer", "Ann", "Ann=5", "Cy=9"], ("Bob is missing",), id="missing"),
    pytest.param(["--declarer", "Ann", "Ann=5", "ann=6", "Bob=8", "Cy=9"],
                 ("Ann is entered twice",), id="twice"),
    pytest.param(["--declarer", "Ann", "Ann=0", "Bob=8", "Cy=9"],
                 ("Ann's total 0 is impossible", "1 to 50"), id="total-0"),
    pytest.param(["--declarer", "Ann", "Ann=51", "Bob=8", "Cy=9"],
                 ("Ann's total 51 is impossible", "1 to 50"), id="total-51"),
    pytest.param(["--declarer", "Ann", "Ann=-3", "Bob=8", "Cy=9"],
                 ("impossible",), id="negative"),
    pytest.param(["--declarer", "Ann", "Ann=AH,2H,3H,4H,5H,6H", "Bob=8", "Cy=9"],
                 ("Ann has 6 cards", "1 to 5"), id="six-cards"),
    pytest.param(["--declarer", "Ann", "Ann=AH,2S", "Bob=ah,3S", "Cy=9"],
                 ("AH", "Ann", "Bob", "one of each card"), id="same-card-two-hands"),
    pytest.param(["--declarer", "Ann", "Ann=AH,AH", "Bob=8", "Cy=9"],
                 ("AH", "twice", "one of each card"), id="same-card-one-hand"),
    pytest.param(["--declarer", "Ann", "Ann=JK,2S", "Bob=8", "Cy=9"],
                 ("JK", "without the joker"), id="joker"),
    pytest.param(["--declarer", "Ann", "Ann=1H", "Bob=8", "Cy=9"],
                 ("'1H' is not a card", "10H"), id="bad-card"),
    pytest.param(["Ann=5", "Bob=8", "Cy=9"], ("--declarer",), id="no-declarer"),
    pytest.param(["--declarer", "Zed", "Ann=5", "Bob=8", "Cy=9"],
                 ("declarer called 'Zed'",), id="unknown-declarer"),
    pytest.param(["--declarer", "Ann", "--bidder", "Ann", "--bid", "8", "Ann=5", "Bob=8",
                  "Cy=9"], ("--bidder is a round option of One Card, not of Least Score",),
                 id="bidder"),
    pytest.param(["--declarer", "Ann", "--no-bid", "Ann=5", "Bob=8", "Cy=9"],
                 ("--no-bid is a round option of One Card, not of Least Score",), id="no-bid"),
    pytest.param(["--declarer", "Ann", "--trump", "S", "Ann=5", "Bob=8", "Cy=9"],
                 ("--trump is a round option of One Card, not of Least Score",), id="trump"),
]


@pytest.mark.parametrize(("args", "says"), LEAST_SCORE_REFUSALS)
def test_least_score_refusals(least, ok: CLI, refuse: Refuse, summary, args: list[str],
                              says: tuple[str, ...], request: pytest.FixtureRequest) -> None:
    least("Ann", "Bob", "Cy")
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=3", "Cy=9")  # the store has a round
    refuse("add-round", *args, says=says, code=_code(request))
    assert len(summary()["rounds"]) == 1


@pytest.mark.parametrize("card", ["ZZ", "1Q", "QX"])
def test_least_score_card_errors_do_not_offer_the_joker(least, refuse: Refuse,
                                                        card: str) -> None:
    """Issue 28.7: Least Score is played without the joker, so 'the joker JK' is no help."""
    least("Ann", "Bob", "Cy")
    result = refuse("add-round", "--declarer", "Ann", f"Ann={card},3S", "Bob=8", "Cy=9",
                    says=(f"'{card}' is not a card", "suits S H D C"))
    assert "joker" not in result.stderr.lower() and "JK" not in result.stderr


# --------------------------------------------------------------------------- One Card


def test_one_card_bid_made_failed_and_no_bid(one_card, ok: CLI, summary) -> None:
    one_card("Ann", "Bob", "Cy", extra=("--dealer", "Ann"))
    result = ok("add-round", "--bidder", "Bob", "--bid", "9", "Ann=4", "Bob=8", "Cy=3")
    assert "Round 1 recorded: Ann +4, Bob +0, Cy +3" in result.stdout
    assert "Bob failed the bid of 9" in result.stdout
    ok("add-round", "--bidder", "cy", "--bid", "7", "--trump", "h", "Ann=4", "Bob=3", "Cy=8")
    ok("add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5")
    rounds = summary()["rounds"]
    assert rounds[0] == {"number": 1, "dealer": "Ann", "bidder": "Bob", "bid": 9,
                         "trump": None, "points": {"Ann": 4, "Bob": 8, "Cy": 3},
                         "scores": {"Ann": 4, "Bob": 0, "Cy": 3}, "bid_failed": True}
    assert rounds[1]["bidder"] == "Cy" and rounds[1]["trump"] == "H"
    assert rounds[1]["scores"] == {"Ann": 4, "Bob": 3, "Cy": 8}  # made: points, not the bid
    assert rounds[1]["bid_failed"] is False and rounds[1]["dealer"] == "Bob"
    assert rounds[2]["bidder"] is None and rounds[2]["bid"] is None
    assert rounds[2]["bid_failed"] is False
    assert summary()["totals"] == {"Ann": 13, "Bob": 8, "Cy": 16}


def test_one_card_bid_of_15(one_card, ok: CLI, summary) -> None:
    one_card("Ann", "Bob")
    ok("add-round", "--bidder", "Ann", "--bid", "15", "Ann=15", "Bob=0")
    assert summary()["totals"] == {"Ann": 15, "Bob": 0}


def test_one_card_game_ends_at_30_and_a_tie_plays_on(one_card, ok: CLI, refuse: Refuse,
                                                     summary) -> None:
    one_card("Ann", "Bob")
    for _ in range(3):
        ok("add-round", "--no-bid", "Ann=8", "Bob=7")  # 24 - 21
    ok("add-round", "--no-bid", "Ann=6", "Bob=9")  # 30 - 30: tied at the target
    data = summary()
    assert data["totals"] == {"Ann": 30, "Bob": 30} and data["status"] == "in-progress"
    assert "tied at 30" in ok("show").stdout
    result = ok("add-round", "--bidder", "Bob", "--bid", "8", "Ann=7", "Bob=8")
    assert "Game over: Bob wins!" in result.stdout
    data = summary()
    assert data["winners"] == ["Bob"] and data["status"] == "finished"
    refuse("add-round", "--no-bid", "Ann=7", "Bob=8", says=("finished", "score new"))


ONE_CARD_REFUSALS = [
    pytest.param(["--no-bid", "Ann=4", "Bob=8", "Cy=2"], ("add up to 14", "15"), id="sum-14"),
    pytest.param(["--no-bid", "Ann=4", "Bob=8", "Cy=4"], ("add up to 16", "15"), id="sum-16"),
    pytest.param(["--no-bid", "Ann=0", "Bob=16", "Cy=0"], ("0 to 15", "16"), id="points-16"),
    pytest.param(["--no-bid", "Ann=4", "Bob=-1", "Cy=12"], ("0 to 15", "-1"), id="negative"),
    pytest.param(["--no-bid", "Ann=4", "Bob=x", "Cy=3"], ("whole number", "'x'"),
                 id="not-a-number"),
    pytest.param(["--bidder", "Bob", "--bid", "6", "Ann=4", "Bob=8", "Cy=3"],
                 ("lowest bid for 3 players is 7",), id="bid-below-lowest"),
    pytest.param(["--bidder", "Bob", "--bid", "16", "Ann=4", "Bob=8", "Cy=3"],
                 ("highest bid is 15",), id="bid-16"),
    pytest.param(["--bid", "9", "Ann=4", "Bob=8", "Cy=3"], ("--bidder",),
                 id="bid-without-bidder"),
    pytest.param(["--bidder", "Bob", "--bid", "9", "--no-bid", "Ann=4", "Bob=8", "Cy=3"],
                 ("not both",), id="bidder-and-no-bid"),
    pytest.param(["Ann=4", "Bob=8", "Cy=3"], ("--bidder NAME --bid N, or --no-bid",),
                 id="neither"),
    pytest.param(["--declarer", "Bob", "--no-bid", "Ann=4", "Bob=8", "Cy=3"],
                 ("--declarer is a round option of Least Score and Yaniv, not of One Card",),
                 id="declarer"),
    pytest.param(["--bidder", "Bob", "Ann=4", "Bob=8", "Cy=3"], ("--bid N", "7 to 15"),
                 id="bidder-without-bid"),
    pytest.param(["--bidder", "Bbo", "--bid", "9", "Ann=4", "Bob=8", "Cy=3"],
                 ("bidder called 'Bbo'",), id="unknown-bidder"),
    pytest.param(["--no-bid", "Ann=4", "Bbo=8", "Cy=3"], ("no player called 'Bbo'",),
                 id="typo"),
    pytest.param(["--no-bid", "Ann=4", "Bob=11"], ("Cy is missing",), id="missing"),
    pytest.param(["--no-bid", "Ann=4", "Bob=8", "Cy=3", "cy=0"], ("Cy is entered twice",),
                 id="twice"),
    pytest.param(["--no-bid", "--bid", "8", "Ann=4", "Bob=8", "Cy=3"], ("--bid",),
                 id="no-bid-with-bid"),
    pytest.param(["--no-bid", "--trump", "S", "Ann=4", "Bob=8", "Cy=3"], ("no trump",),
                 id="no-bid-trump"),
]


@pytest.mark.parametrize(("args", "says"), ONE_CARD_REFUSALS)
def test_one_card_refusals(one_card, ok: CLI, refuse: Refuse, summary, args: list[str],
                           says: tuple[str, ...], request: pytest.FixtureRequest) -> None:
    one_card("Ann", "Bob", "Cy")
    ok("add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5")
    refuse("add-round", *args, says=says, code=_code(request))
    assert len(summary()["rounds"]) == 1


MALFORMED = {"bid-without-bidder", "bidder-and-no-bid", "declarer", "bidder-without-bid",
             "no-bid-with-bid", "no-bid-trump", "bidder", "no-bid", "trump"}
"""Command lines whose round options contradict each other, lack their partner or belong
to another game: malformed, exit 2 (docs/commands.md), whatever the scores say."""


def _code(request: pytest.FixtureRequest) -> int:
    return 2 if request.node.callspec.id in MALFORMED else 1


def test_one_card_sum_is_shown_in_the_refusal(one_card, refuse: Refuse) -> None:
    one_card("Ann", "Bob", "Cy")
    refuse("add-round", "--no-bid", "Ann=4", "Bob=8", "Cy=2", says="add up to 14, not 15")


@pytest.mark.parametrize(("players", "lowest"), [(2, 8), (3, 7), (4, 6)])
def test_one_card_lowest_bid_depends_on_the_player_count(
    ok: CLI, refuse: Refuse, summary, players: int, lowest: int
) -> None:
    names = ["Ann", "Bob", "Cy", "Dan"][:players]
    ok("new", "one-card", *players_args(*names))
    points = [15] + [0] * (players - 1)
    entered = [f"{name}={value}" for name, value in zip(names, points, strict=True)]
    refuse("add-round", "--bidder", "Ann", "--bid", lowest - 1, *entered,
           says=f"the lowest bid for {players} players is {lowest}")
    ok("add-round", "--bidder", "Ann", "--bid", lowest, *entered)
    assert summary()["rounds"][0]["bid"] == lowest


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    "args",
    [
        ["--declarer", "Ann", "Ann5", "Bob=8"],
        ["--declarer", "Ann", "=5", "Bob=8"],
        ["--declarer", "Ann", "Ann=", "Bob=8"],
        ["--declarer", "Ann", "--bogus", "Ann=5", "Bob=8"],
        ["--declarer", "Ann", "--session", "one", "Ann=5", "Bob=8"],
    ],
    ids=["no-equals", "no-name", "no-value", "unknown-option", "session-not-a-number"],
)
def test_malformed_command_lines_exit_2(least, refuse: Refuse, args: list[str]) -> None:
    least("Ann", "Bob")
    refuse("add-round", *args, code=2)


@pytest.mark.parametrize(
    "args",
    [
        ["--bidder", "Ann", "--bid", "8", "Ann5", "Bob=8"],
        ["--bidder", "Ann", "--bid", "8", "=5", "Bob=8"],
        ["--bidder", "Ann", "--bid", "8", "Ann=", "Bob=8"],
        ["--bidder", "Ann", "--bid", "8", "--bogus", "Ann=5", "Bob=8"],
        ["--bidder", "Ann", "--bid", "8", "--session", "one", "Ann=5", "Bob=8"],
        ["--bidder", "Ann", "--bid", "eight", "Ann=5", "Bob=8"],
        ["--bidder", "Ann", "--bid", "8", "--trump", "X", "Ann=8", "Bob=7"],
    ],
    ids=["no-equals", "no-name", "no-value", "unknown-option", "session-not-a-number",
         "bid-not-a-number", "trump-not-a-suit"],
)
def test_one_card_malformed_command_lines_exit_2_as_in_least_score(
        one_card, refuse: Refuse, args: list[str]) -> None:
    """Issue 28.7: a --trump that is no suit is a malformed value, like --bid eight."""
    one_card("Ann", "Bob")
    refuse("add-round", *args, code=2)


def test_one_card_trump_not_a_suit_says_what_a_suit_is(one_card, refuse: Refuse) -> None:
    one_card("Ann", "Bob", "Cy")
    refuse("add-round", "--bidder", "Bob", "--bid", "9", "--trump", "X", "Ann=4", "Bob=8",
           "Cy=3", code=2, says=("--trump", "'X' is not a suit", "S, H, D or C"))


def test_malformed_name_value_says_what_is_expected(least, refuse: Refuse) -> None:
    least("Ann", "Bob")
    refuse("add-round", "--declarer", "Ann", "Ann5", "Bob=8", code=2,
           says=("'Ann5'", "NAME=VALUE"))


def test_one_card_bid_not_a_number_is_malformed(one_card, refuse: Refuse) -> None:
    one_card("Ann", "Bob")
    refuse("add-round", "--bidder", "Ann", "--bid", "nine", "Ann=8", "Bob=7", code=2,
           says="--bid")


def test_no_session_yet(refuse: Refuse, db_path: Path) -> None:
    refuse("add-round", "--declarer", "Ann", "Ann=5", "Bob=8", says="score new")
    assert not db_path.exists()


def test_unknown_session(least, refuse: Refuse) -> None:
    least("Ann", "Bob")
    refuse("add-round", "--session", "7", "--declarer", "Ann", "Ann=5", "Bob=8",
           says=("no session 7", "1"))


# --------------------------------------------------------------------------- properties


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_random_valid_rounds_totals_are_the_sum_of_scores(ok: CLI, summary, db_path: Path,
                                                          data: st.DataObject) -> None:
    """Each example starts its own session in the shared temporary store."""
    count = data.draw(st.integers(2, 5), label="players")
    names = ["Ann", "Bob", "Cy", "Dan", "Eve"][:count]
    ok("new", "least-score", *players_args(*names), "--limit", "500")
    deals = data.draw(st.integers(1, 4), label="deals")
    for _ in range(deals):
        totals = data.draw(st.lists(st.integers(1, 50), min_size=count, max_size=count))
        declarer = data.draw(st.sampled_from(names))
        ok("add-round", "--declarer", declarer,
           *(f"{n}={t}" for n, t in zip(names, totals, strict=True)))
    result = summary()
    assert len(result["rounds"]) == deals
    for name in names:
        assert result["totals"][name] == sum(r["scores"][name] for r in result["rounds"])
    for deal in result["rounds"]:
        declared = deal["totals"][deal["declarer"]]
        lowest = min(t for n, t in deal["totals"].items() if n != deal["declarer"])
        if deal["false_declaration"]:
            assert deal["scores"][deal["declarer"]] == 20 + declared - lowest
        else:
            assert deal["scores"] == {n: t - declared for n, t in deal["totals"].items()}
    assert file_bytes(db_path) is not None


# --------------------------------------------------------------------------- at a terminal


class TerminalInput(io.StringIO):
    """Typed answers, on what claims to be a terminal."""

    def isatty(self) -> bool:
        return True


def test_at_a_terminal_missing_values_are_asked_for(least, one_card, ok: CLI, summary,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    least("Ann", "Bob", "Cy")
    monkeypatch.setattr("sys.stdin", TerminalInput("bob\n7\n"))
    result = ok("add-round", "Ann=10", "Bob=3")  # no --declarer, no Cy
    assert "Who declared?" in result.stdout and "Cy's hand total or cards" in result.stdout
    first = summary()["rounds"][0]
    assert first["declarer"] == "Bob" and first["totals"] == {"Ann": 10, "Bob": 3, "Cy": 7}
    one_card("Ann", "Bob")
    monkeypatch.setattr("sys.stdin", TerminalInput("ann\n8\n15\n0\n"))
    ok("add-round")
    first = summary()["rounds"][0]
    assert first["bidder"] == "Ann" and first["bid"] == 8
    assert first["points"] == {"Ann": 15, "Bob": 0}


def test_a_hand_with_a_card_left_out_is_refused(least, ok: CLI, refuse: Refuse,
                                                summary) -> None:
    least("Ann", "Bob", "Cy")
    refuse("add-round", "--declarer", "Ann", "Ann=AH,,2C", "Bob=2", "Cy=2",
           says=("Ann's hand", "'AH,,2C'", "comma with no card"))
    assert summary()["rounds"] == []
    ok("add-round", "--declarer", "Ann", "Ann=AH, 2C", "Bob=9", "Cy=9")
    assert summary()["rounds"][0]["scores"]["Ann"] == 0


@pytest.mark.parametrize(("game", "role", "args"), [
    ("least-score", "declarer", ["--declarer", "{typed}", "Alexander=3", "Bob=4"]),
    ("least-score", "player", ["--declarer", "Bob", "{typed}=3", "Bob=4"]),
    ("one-card", "bidder", ["--bidder", "{typed}", "--bid", "8", "Alexander=8", "Bob=7"]),
    ("one-card", "player", ["--bidder", "Bob", "--bid", "8", "{typed}=8", "Bob=7"]),
])
@pytest.mark.parametrize("typed", ["Alexandre", "Al"])
def test_a_name_that_is_not_a_player_says_did_you_mean(
        ok: CLI, refuse: Refuse, game: str, role: str, args: list[str], typed: str) -> None:
    """Issue 28.7: a typo, or a name cut short (which only a prompt accepts), is answered
    with the player meant."""
    ok("new", game, *players_args("Alexander", "Bob"))
    refuse("add-round", *(arg.format(typed=typed) for arg in args),
           says=f"there is no {role} called '{typed}' (did you mean Alexander?)")
