"""Oh Hell (Contract Whist): a scorekeeping-only game in its own folder (no virtual deck)."""
