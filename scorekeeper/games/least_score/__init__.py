"""Least Score: lowest hand wins; declare, false declarations cost 20, knock-out at the limit."""
