"""Re-running the papers' simulation studies (``tvseg simulate NAME``).

- :mod:`tvseg.simulate.generators`: random references and hypotheses with injected errors (numpy,
  all hypotheses of a trial at once).
- :mod:`tvseg.simulate.study`: cells, per-experiment random streams, the trial loop, the cells of a paper.
- :mod:`tvseg.simulate.pevzner_hearst`: Pevzner & Hearst (2002), Tables 1-3.
- :mod:`tvseg.simulate.fournier_inkpen`: Fournier & Inkpen (2012), Table 1.
- :mod:`tvseg.simulate.segment_retrieval`: CovN/CovD and boundary F on broadcast-like shows (a new study).
- :mod:`tvseg.simulate.published`: the papers' printed tables.
- :mod:`tvseg.simulate.report`: the printed table and the ``--json`` document.
"""
