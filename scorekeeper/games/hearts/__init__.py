"""Hearts: a variant of Points (its declared base) with Hearts' checks: each deal's
penalty points add up to 26, or one player shot the moon; the lowest total wins when
someone reaches 100."""
