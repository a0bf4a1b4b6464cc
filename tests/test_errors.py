"""One error hierarchy in one module: every error a user can cause is a ScorekeeperError,
importable from where it always was."""

from __future__ import annotations

from scorekeeper import cards, config, errors, store
from scorekeeper.kit import entries


def test_every_user_error_has_one_home_and_one_root() -> None:
    assert cards.CardError is errors.CardError
    assert entries.EntryError is errors.EntryError and entries.RoundError is errors.RoundError
    assert store.StoreError is errors.StoreError
    assert store.NewerStoreError is errors.NewerStoreError
    assert config.ConfigError is errors.ConfigError
    for error in (errors.EntryError, errors.RoundError, errors.CardError,
                  errors.IllegalAction, errors.StoreError, errors.NewerStoreError,
                  errors.ConfigError):
        assert issubclass(error, errors.ScorekeeperError)
    assert issubclass(errors.RoundError, errors.EntryError)
    assert str(errors.RoundError(3, "no such card")) == "round 3: no such card"
