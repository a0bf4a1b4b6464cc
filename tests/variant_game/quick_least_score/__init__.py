"""Quick Least Score: Least Score with a knock-out limit of 50 unless the table says
otherwise. A variant: it imports its base game (its declared ``base``) and overrides
what differs."""
