"""Threshold decisions on integer microseconds come from :mod:`tvseg.exact`."""
from tvseg.exact import MAX_SECONDS, TICKS_PER_SECOND, above, largest_numerator_below, ratio, tick, ticks

__all__ = ["TICKS_PER_SECOND", "MAX_SECONDS", "ticks", "tick", "ratio", "above", "largest_numerator_below"]
