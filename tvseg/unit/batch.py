r"""Pk and WindowDiff of many hypotheses against one reference, at once: the engine of the simulations.

:func:`window_batch` returns one :class:`WindowBatch` (the counts, and the values from them);
:func:`windowdiff_batch` is the shorthand for WindowDiff's values alone, which skips Pk's counts. Row
``i`` of every result equals the single-pair functions of :mod:`tvseg.unit.windows` on hypothesis ``i``
(``tests/test_windows_properties.py``), in every convention of :mod:`tvseg.unit.conventions`.

Computed from the boundary positions of all hypotheses at once, :math:`O(H B \log B)` for ``B``
boundaries per hypothesis after one scan of the ``(H, N-1)`` indicators, not :math:`O(H N)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.conventions import Geometry, geometry, ratio
from tvseg.unit.masses import as_masses, boundary_positions

__all__ = ["window_batch", "windowdiff_batch", "WindowBatch"]


@dataclass(frozen=True, eq=False)
class WindowBatch:
    """Pk's and WindowDiff's counts for many hypotheses (integer arrays of shape ``(H,)``).

    Attributes
    ----------
    miss, false_alarm : numpy.ndarray
        Pk's misses and false alarms (:class:`tvseg.unit.windows.PkComponents` per row).
    errors : numpy.ndarray
        WindowDiff's windows in error (weighted: summed differences).
    windows : numpy.ndarray
        Pk's number of windows.
    wd_windows : numpy.ndarray
        WindowDiff's divisor (:class:`tvseg.unit.windows.WindowDiffComponents`): the same as
        ``windows`` except under ``"segeval1"``, whose WindowDiff windows hold one gap less, and with
        the Lamprier et al. correction.
    convention : str
    pk_geometry, wd_geometry : tvseg.unit.conventions.Geometry
        Where the windows lie; :meth:`pk` and :meth:`windowdiff` need them when no window fits.
    """

    miss: np.ndarray
    false_alarm: np.ndarray
    errors: np.ndarray
    windows: np.ndarray
    wd_windows: np.ndarray
    convention: str
    pk_geometry: Geometry = field(repr=False)
    wd_geometry: Geometry = field(repr=False)

    def pk(self, false_alarm_weight: float = 1.0) -> np.ndarray:
        """Pk of every row (P'k with ``false_alarm_weight=2.0``), as :func:`tvseg.unit.windows.pk`."""
        return _ratio_array(
            self.miss + false_alarm_weight * self.false_alarm, self.pk_geometry, self.convention, "pk", self.miss.size
        )

    def windowdiff(self) -> np.ndarray:
        """WindowDiff of every row, as :func:`tvseg.unit.windows.windowdiff`."""
        return _ratio_array(self.errors, self.wd_geometry, self.convention, "windowdiff", self.errors.size)


def window_batch(reference, hypotheses, *, k=None, convention="paper", lamprier=False, weighted=False) -> WindowBatch:
    r"""Pk's misses and false alarms and WindowDiff's errors of many hypotheses, in one pass.

    For each hypothesis :math:`h` and each window start :math:`s` (the convention's geometry,
    :mod:`tvseg.unit.conventions`), with :math:`r_s`, :math:`h_s` the boundaries the window holds:

    .. math::

        \text{miss} = \#\{s : r_s > 0 = h_s\}, \quad
        \text{false alarm} = \#\{s : r_s = 0 < h_s\}, \quad
        \text{errors} = \#\{s : r_s \neq h_s\}

    so that :math:`P_k = (\text{miss} + \text{false alarm}) / \text{windows}`, Pevzner & Hearst's
    :math:`P'_k = (\text{miss} + 2\,\text{false alarm}) / \text{windows}` and
    :math:`\mathrm{WD} = \text{errors} / \text{windows}` (Pevzner & Hearst 2002, sections 3-4).

    Misses come from the runs of window starts between consecutive hypothesis boundaries (where
    :math:`h_s = 0`) and a prefix count of the windows holding a reference boundary; errors from a
    sweep over the windows where the boundaries on which the hypothesis and the reference disagree
    enter and leave.

    Parameters
    ----------
    reference : sequence of int
        Reference masses (``N`` units).
    hypotheses : numpy.ndarray of bool, shape (H, N-1), or a list of masses
        Boundary indicators over the ``N - 1`` gaps (as :func:`tvseg.unit.masses.to_indicator`).
    k : int, optional
        Window size; None is the convention's default (:func:`tvseg.unit.windows.default_k`).
    convention : {"paper", "segeval1", "segeval", "nltk"}
    lamprier, weighted : bool
        WindowDiff's options, as in :func:`tvseg.unit.windows.windowdiff` (Pk has neither).

    Returns
    -------
    WindowBatch
        Row ``i`` of ``miss, false_alarm, windows`` equals :func:`tvseg.unit.windows.pk_components`
        of hypothesis ``i``, and of ``errors, wd_windows`` :func:`tvseg.unit.windows.windowdiff_components`;
        ``.pk()`` and ``.windowdiff()`` give the values.
    """
    ref, n, ind = _batch_inputs(reference, hypotheses)
    g_pk = geometry(n, int(ref.size), k, convention, metric="pk")
    g_wd = geometry(n, int(ref.size), k, convention, lamprier=lamprier, weighted=weighted)
    rows = _HypothesisBoundaries(ind)
    pr = boundary_positions(ref)
    miss, fa = _pk_batch_counts(pr, rows, g_pk)
    errors = _wd_batch_errors(pr, ind, rows, g_wd, weighted)
    return WindowBatch(
        miss,
        fa,
        errors,
        np.full(rows.h, g_pk.windows, np.int64),
        np.full(rows.h, max(g_wd.divisor, 0), np.int64),
        convention,
        g_pk,
        g_wd,
    )


def windowdiff_batch(
    reference, hypotheses, *, k=None, lamprier=False, weighted=False, convention="paper"
) -> np.ndarray:
    """WindowDiff of many hypotheses against one reference: ``window_batch(...).windowdiff()``
    without counting Pk.

    Returns
    -------
    numpy.ndarray of float, shape (H,), equal to ``[windowdiff(reference, h, ...) for h in hypotheses]``.
    """
    ref, n, ind = _batch_inputs(reference, hypotheses)
    g = geometry(n, int(ref.size), k, convention, lamprier=lamprier, weighted=weighted)
    errors = _wd_batch_errors(boundary_positions(ref), ind, _HypothesisBoundaries(ind), g, weighted)
    return _ratio_array(errors, g, convention, "windowdiff", ind.shape[0])


def _ratio_array(num, g: Geometry, convention: str, metric: str, h: int) -> np.ndarray:
    if g.divisor > 0:
        return np.asarray(num, float) / g.divisor
    return np.full(h, ratio(0, g, convention, metric))


def _batch_inputs(reference, hypotheses):
    ref = as_masses(reference, name="reference")
    n = int(ref.sum())
    if isinstance(hypotheses, np.ndarray) and hypotheses.ndim == 2:
        if hypotheses.dtype != bool:
            raise InputError(
                "hypotheses must be a boolean indicator array of shape (H, N-1)", value=str(hypotheses.dtype)
            )
        if hypotheses.shape[1] != n - 1:
            raise InputError(f"hypotheses must have N-1 = {n - 1} columns", value=hypotheses.shape[1])
        ind = hypotheses
    else:
        rows = []
        for i, h in enumerate(hypotheses):
            m = as_masses(h, name=f"hypotheses[{i}]")
            if int(m.sum()) != n:
                raise InputError(f"hypotheses[{i}] covers {int(m.sum())} units, the reference {n}")
            row = np.zeros(n - 1, bool)
            row[boundary_positions(m) - 1] = True
            rows.append(row)
        ind = np.array(rows, dtype=bool).reshape(len(rows), n - 1)
    return ref, n, ind


class _HypothesisBoundaries:
    """The boundary positions of indicator rows, row after row: ``position`` (gap numbers, sorted
    within each row), the ``row`` of each, and where each row ends in them (``ends``)."""

    def __init__(self, ind: np.ndarray):
        self.h, gaps = ind.shape
        flat = np.flatnonzero(ind)
        if gaps:
            self.ends = np.searchsorted(flat, gaps * np.arange(1, self.h + 1))
            self.counts = np.diff(self.ends, prepend=0)
            self.row = np.repeat(np.arange(self.h), self.counts)
            self.position = flat - gaps * self.row + 1
        else:
            self.ends = self.counts = np.zeros(self.h, np.int64)
            self.row = self.position = flat


def _pk_batch_counts(pr: np.ndarray, hyp: _HypothesisBoundaries, g: Geometry):
    r"""Misses and false alarms of every row.

    Window starts are indexed ``j = s - lo`` in ``0 .. W-1``. ``held[j]`` counts the windows
    before ``j`` that hold a reference boundary. Between consecutive hypothesis boundaries
    :math:`q < q'` of a row (and before the first, after the last) the windows starting in
    ``q + 1 .. q' - w`` hold none: summed, these runs give the windows with :math:`h_s = 0`
    (``Z``) and, through ``held``, the misses ``M`` among them. Then
    :math:`\text{false alarm} = (W - Z) - (A - M)` with ``A`` the windows holding a reference boundary.
    """
    h, w, lo, hi = hyp.h, g.width, g.lo, g.hi
    n_windows = g.windows
    if n_windows == 0 or w == 0:
        zero = np.zeros(h, np.int64)
        return zero, zero.copy()
    enter = np.clip(pr - w + 1, lo, hi + 1) - lo
    leave = np.clip(pr + 1, lo, hi + 1) - lo
    inside = np.cumsum(np.bincount(enter, minlength=n_windows + 1) - np.bincount(leave, minlength=n_windows + 1))[
        :n_windows
    ]
    held = np.zeros(n_windows + 1, np.int64)
    np.cumsum(inside > 0, out=held[1:])
    # each row's positions between two sentinels: lo - 1 before, hi + w after
    two = 2 * np.arange(h)
    seq = np.empty(hyp.position.size + 2 * h, np.int64)
    seq[np.arange(hyp.position.size) + np.repeat(two + 1, hyp.counts)] = hyp.position
    first = hyp.ends - hyp.counts + two
    last = hyp.ends + two + 1
    seq[first] = lo - 1
    seq[last] = hi + w
    # run between seq[t] and seq[t + 1] (the pair across two rows is empty: a = W, b <= a)
    a = np.clip(seq[:-1] + 1, lo, hi + 1) - lo
    b = np.clip(seq[1:] - w + 1, lo, hi + 1) - lo
    np.maximum(b, a, out=b)
    empty = np.zeros(seq.size, np.int64)
    np.cumsum(b - a, out=empty[1:])
    missed = np.zeros(seq.size, np.int64)
    np.cumsum(held[b] - held[a], out=missed[1:])
    z = empty[last] - empty[first]
    miss = missed[last] - missed[first]
    return miss, (n_windows - z) - (int(held[-1]) - miss)


def _wd_batch_errors(
    pr: np.ndarray, ind: np.ndarray, hyp: _HypothesisBoundaries, g: Geometry, weighted: bool
) -> np.ndarray:
    r"""WindowDiff's errors of every row: a sweep over :math:`d_s = h_s - r_s`.

    Only the gaps where a row and the reference disagree change :math:`d_s`: a hypothesis
    boundary the reference lacks adds 1 to the windows ``p - w + 1 .. p``, a reference boundary
    the row lacks takes 1 away. Each such event is a key ``2 (row (W + 1) + j) + bit`` (``j`` the
    window index, clipped to ``0 .. W``; ``bit`` 1 for -1); the four kinds of events are each
    sorted already, so a stable sort merges them. Every row's events sum to 0, so the run between
    two rows has :math:`d = 0` and counts nothing.
    """
    h, w, lo, hi = hyp.h, g.width, g.lo, g.hi
    n_windows = g.windows
    if n_windows == 0 or w == 0 or hyp.row.size + pr.size == 0:
        return np.zeros(h, np.int64)
    stride = n_windows + 1
    on_ref = np.zeros(ind.shape[1] + 1, bool)
    on_ref[pr] = True
    extra = ~on_ref[hyp.position]  # hypothesis boundaries the reference lacks
    fp_row, fp_at = hyp.row[extra], hyp.position[extra]
    fn_row, fn_j = np.nonzero(~ind[:, pr - 1])  # reference boundaries a row lacks
    fn_at = pr[fn_j]

    def key(row, at, shift, bit):
        j = np.clip(at + shift, lo, hi + 1) - lo
        return ((row * stride + j) << 1) | bit

    events = np.concatenate(
        (key(fp_row, fp_at, 1 - w, 0), key(fp_row, fp_at, 1, 1), key(fn_row, fn_at, 1 - w, 1), key(fn_row, fn_at, 1, 0))
    )
    if events.size == 0:
        return np.zeros(h, np.int64)
    events.sort(kind="stable")
    d = np.cumsum(1 - 2 * (events & 1))
    events >>= 1
    run = np.diff(events)
    d = d[:-1]
    counted = np.zeros(events.size + 1, np.int64)  # counted[t]: errors of the runs before event t
    np.cumsum(run * np.abs(d) if weighted else run * (d != 0), out=counted[1:-1])
    counted[-1] = counted[-2]
    bounds = np.searchsorted(events, stride * np.arange(h + 1))
    return counted[bounds[1:]] - counted[bounds[:-1]]
