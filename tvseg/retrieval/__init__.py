"""Segment retrieval scoring in the time domain (Bouchekif et al.).

- :mod:`~tvseg.columns`: segmentations of many shows as flat, sorted numpy arrays.
- :mod:`~tvseg.retrieval.coverage`: bidirectional coverage matching, CovN and CovD.
- :mod:`~tvseg.retrieval.boundaries`: boundary precision, recall and F with a tolerance.
- :mod:`~tvseg.retrieval.titles`: titles of correctly retrieved segments.
- :mod:`~tvseg.rates`: rates and F-measures from counts, with the 0/0 policy.
- :mod:`~tvseg.retrieval.corpus`: per-show components.
- :mod:`~tvseg.retrieval.reductions`: the metrics of the components: pooled, macro, by length, by group.
- :mod:`~tvseg.retrieval.sweeps`: scores as gamma and the tolerance vary.
"""
