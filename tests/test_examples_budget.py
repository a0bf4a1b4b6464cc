"""The quick loop's example counts (tests/examples_budget.py): a quarter of each property
test's examples for ``-m "not e2e"`` typed exactly so, all of them in every other run."""

from __future__ import annotations

import examples_budget
import pytest
from hypothesis import settings


@pytest.fixture
def budget(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """This run's choice put back after the test; no SCOREKEEPER_TEST_EXAMPLES."""
    monkeypatch.setattr(examples_budget, "in_quick_loop", examples_budget.in_quick_loop)
    monkeypatch.delenv(examples_budget.VARIABLE, raising=False)
    return monkeypatch


@pytest.mark.parametrize(("markexpr", "quick"), [
    ("not e2e", True), ("  not   e2e ", True),
    ("not e2e and not slow", False),  # (CI's floor run sets the variable to quick)
    ("not slow", False), ("e2e", False), ("slow", False), ("", False), (None, False)])
def test_only_the_quick_loops_expression_is_quick(
        budget: pytest.MonkeyPatch, markexpr: str | None, quick: bool) -> None:
    assert examples_budget.choose(markexpr) is quick
    assert examples_budget.examples(300) == (75 if quick else 300)


@pytest.mark.parametrize(("setting", "quick"), [("quick", True), ("full", False),
                                                 (" FULL ", False)])
def test_the_variable_decides_over_the_expression(
        budget: pytest.MonkeyPatch, setting: str, quick: bool) -> None:
    budget.setenv(examples_budget.VARIABLE, setting)
    for markexpr in ("not e2e", "not slow"):
        assert examples_budget.choose(markexpr) is quick


def test_a_wrong_variable_is_refused(budget: pytest.MonkeyPatch) -> None:
    budget.setenv(examples_budget.VARIABLE, "fast")
    with pytest.raises(ValueError, match="quick or full"):
        examples_budget.choose("not e2e")


def test_a_quick_count_is_a_quarter_never_below_five_nor_above_the_count() -> None:
    counts = {n: examples_budget.examples(n, quick=True) for n in (3, 10, 25, 40, 60, 600)}
    assert counts == {3: 3, 10: 5, 25: 6, 40: 10, 60: 15, 600: 150}
    assert all(examples_budget.examples(n, quick=False) == n for n in counts)


def test_this_run_loaded_the_profile_it_chose(request: pytest.FixtureRequest) -> None:
    """A property test that names no count tries the loaded profile's: 25 in the quick
    loop, Hypothesis' 100 otherwise (a ``--hypothesis-profile`` given wins)."""
    given = request.config.getoption("hypothesis_profile", None)
    quick = examples_budget.in_quick_loop
    assert examples_budget.profile == (
        given or ("scorekeeper-quick" if quick else "scorekeeper"))
    if given is None:
        assert settings.default.max_examples == (25 if quick else 100)
        assert settings.default.deadline is None
