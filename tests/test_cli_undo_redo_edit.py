"""`score undo`, `score redo` and `score edit-round`: totals, knock-outs and winners follow."""

from __future__ import annotations

from conftest import CLI, Refuse


def three_rounds(least, ok: CLI, limit: int = 25) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", limit))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=11", "Cy=6")  # 0 10 5
    ok("add-round", "--declarer", "Bob", "Ann=9", "Bob=2", "Cy=4")  # 7 0 2 -> 7 10 7
    ok("add-round", "--declarer", "Cy", "Ann=5", "Bob=20", "Cy=3")  # 2 17 0 -> 9 27 7


def test_undo_removes_the_last_round_and_totals_follow(least, ok: CLI, summary) -> None:
    three_rounds(least, ok)
    data = summary()
    assert data["totals"] == {"Ann": 9, "Bob": 27, "Cy": 7}
    assert data["knocked_out"] == ["Bob"]
    result = ok("undo")
    assert "Removed round 3" in result.stdout
    assert "score redo" in result.stdout
    data = summary()
    assert len(data["rounds"]) == 2
    assert data["totals"] == {"Ann": 7, "Bob": 10, "Cy": 7}
    assert data["knocked_out"] == []  # Bob is back in
    ok("undo")
    ok("undo")
    assert summary()["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}


def test_undo_of_the_winning_round_reopens_the_game(least, ok: CLI, summary) -> None:
    least("Ann", "Bob", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20")
    assert summary()["winners"] == ["Ann"]
    ok("undo")
    data = summary()
    assert data["status"] == "in-progress" and data["winners"] == []
    ok("add-round", "--declarer", "Bob", "Ann=5", "Bob=2")
    assert summary()["totals"] == {"Ann": 3, "Bob": 0}


def test_redo_brings_back_what_undo_removed(least, ok: CLI, summary) -> None:
    three_rounds(least, ok)
    before = summary()
    ok("undo")
    ok("undo")
    result = ok("redo")
    assert "Round 2 recorded" in result.stdout
    result = ok("redo")
    assert "Round 3 recorded" in result.stdout
    assert "Bob is knocked out." in result.stdout
    assert summary()["rounds"] == before["rounds"]
    assert summary()["totals"] == before["totals"]


def test_redo_refused_after_another_change(least, ok: CLI, refuse: Refuse) -> None:
    three_rounds(least, ok)
    ok("undo")
    ok("add-round", "--declarer", "Cy", "Ann=5", "Bob=6", "Cy=3")
    refuse("redo", says="nothing to redo")


def test_redo_with_nothing_undone_and_undo_with_no_rounds(least, refuse: Refuse) -> None:
    least("Ann", "Bob")
    refuse("undo", says="no rounds to undo")
    refuse("redo", says="nothing to redo")


def test_undo_and_redo_take_a_session_option(least, ok: CLI, summary) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    least("Cy", "Dan")
    ok("undo", "--session", "1")
    assert summary(1)["rounds"] == []
    ok("redo", "-s", "1")
    assert summary(1)["totals"] == {"Ann": 0, "Bob": 4}


def test_edit_round_rescoring_later_rounds(least, ok: CLI, summary) -> None:
    three_rounds(least, ok, limit=30)
    assert summary()["knocked_out"] == []
    # round 1 really was a false declaration by Ann: 20 + (8 - 6) = 22
    result = ok("edit-round", "1", "--declarer", "Ann", "Ann=8", "Bob=11", "Cy=6")
    assert "Round 1 re-entered" in result.stdout
    data = summary()
    assert data["rounds"][0]["scores"] == {"Ann": 22, "Bob": 0, "Cy": 0}
    assert data["rounds"][0]["false_declaration"] is True
    # rounds 2 and 3 keep their entries and scores; the running totals follow
    assert data["rounds"][1]["scores"] == {"Ann": 7, "Bob": 0, "Cy": 2}
    assert data["totals"] == {"Ann": 22 + 7 + 2, "Bob": 17, "Cy": 2}
    # Ann is now over 30 after round 3
    assert data["knocked_out"] == ["Ann"]
    assert data["rounds"][2]["knocked_out"] == ["Ann"]


def test_edit_round_with_cards_and_names_ignoring_case(least, ok: CLI, summary) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=5")
    ok("edit-round", "1", "--declarer", "bob", "ann=AH,2C", "BOB=AS")
    first = summary()["rounds"][0]
    assert first["declarer"] == "Bob"
    assert first["hands"] == {"Ann": ["AH", "2C"], "Bob": ["AS"]}
    assert first["scores"] == {"Ann": 2, "Bob": 0}


def test_edit_refused_when_a_later_round_becomes_impossible(least, ok: CLI, refuse: Refuse,
                                                            summary) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "25"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=30", "Cy=2")  # Bob 29: out
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=2")  # without Bob
    before = summary()
    refuse("edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=3", "Cy=2",
           says=("round 2", "Bob is missing", "take them back first (`score undo` once), "
                 "edit round 1, then enter them again with `score add-round`"))
    assert summary() == before


def test_the_advice_for_an_edit_that_breaks_later_rounds_works(least, ok: CLI, refuse: Refuse,
                                                               summary) -> None:
    """Issue 11.3: the refusal says what would actually fix it, and following it works
    (editing the later round first can't: it was entered for the game as it stood)."""
    least("Ann", "Bob", "Cy", extra=("--limit", "25"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=30", "Cy=2")  # Bob 29: out
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=2")
    ok("add-round", "--declarer", "Cy", "Ann=3", "Cy=1")
    edit = ("edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=3", "Cy=2")
    result = refuse(*edit, says=("rounds 2 to 3 no longer fit", "`score undo` 2 times",
                                 "edit round 1"))
    refuse("edit-round", "2", "--declarer", "Ann", "Ann=1", "Bob=3", "Cy=2",
           says="Bob is knocked out")  # what the old advice asked for: it can't work
    assert "round 2" in result.stderr
    ok("undo")
    ok("undo")
    ok(*edit)
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=3", "Cy=2")
    assert summary()["totals"] == {"Ann": 0, "Bob": 4, "Cy": 2}


def test_edit_refused_when_it_ends_the_game_before_later_rounds(least, ok: CLI,
                                                                refuse: Refuse) -> None:
    least("Ann", "Bob", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    refuse("edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=20",
           says=("round 2", "already over after round 1"))


def test_edit_refusals_of_the_entry_itself(least, ok: CLI, refuse: Refuse) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    refuse("edit-round", "1", "--declarer", "Ann", "Ann=0", "Bob=5", says="impossible")
    refuse("edit-round", "1", "--declarer", "Ann", "Ann=1", says="Bob is missing")
    refuse("edit-round", "2", "--declarer", "Ann", "Ann=1", "Bob=5",
           says=("no round 2", "rounds 1 to 1"))
    refuse("edit-round", "0", "--declarer", "Ann", "Ann=1", "Bob=5", says="no round 0")
    refuse("edit-round", "1", "--declarer", "Ann", "Ann1", "Bob=5", code=2, says="NAME=VALUE")
    refuse("edit-round", "one", code=2)


def test_edit_round_with_no_rounds(least, refuse: Refuse) -> None:
    least("Ann", "Bob")
    refuse("edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=5", says="no rounds yet")


def test_edit_clears_redo(least, ok: CLI, refuse: Refuse) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    ok("undo")
    ok("edit-round", "1", "--declarer", "Ann", "Ann=2", "Bob=5")
    refuse("redo", says="nothing to redo")


def test_edit_one_card_round(one_card, ok: CLI, refuse: Refuse, summary) -> None:
    one_card("Ann", "Bob", "Cy")
    ok("add-round", "--bidder", "Ann", "--bid", "8", "Ann=9", "Bob=3", "Cy=3")
    ok("add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5")
    ok("edit-round", "1", "--bidder", "Ann", "--bid", "10", "Ann=9", "Bob=3", "Cy=3")
    data = summary()
    assert data["rounds"][0]["bid_failed"] is True
    assert data["totals"] == {"Ann": 5, "Bob": 8, "Cy": 8}
    refuse("edit-round", "2", "--no-bid", "Ann=5", "Bob=5", "Cy=4", says="add up to 14")


def test_edit_that_finishes_a_one_card_game_early(one_card, ok: CLI, refuse: Refuse) -> None:
    one_card("Ann", "Bob")
    ok("add-round", "--no-bid", "Ann=15", "Bob=0")
    ok("add-round", "--no-bid", "Ann=14", "Bob=1")
    ok("add-round", "--no-bid", "Ann=0", "Bob=15")
    refuse("edit-round", "2", "--no-bid", "Ann=15", "Bob=0",
           says=("round 3", "already over after round 2"))
