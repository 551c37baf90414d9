"""The rates of the time domain come from :mod:`tvseg.rates`, the one 0/0 policy of tvseg."""
from tvseg.rates import f_measure, rate

__all__ = ["rate", "f_measure"]
