"""Yaniv: a variant of Least Score. It imports Least Score's modules and overrides what
differs (the declare threshold, the Assaf penalty, the limit, halving, scoring each hand)."""
