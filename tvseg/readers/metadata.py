"""Show metadata CSV: ``show,channel,programme,date[,time_origin]`` (see ``formats/metadata.md``).

Used to group shows in reports. Every column but ``show`` may be left empty; ``date``, when
given, is an ISO 8601 date (``YYYY-MM-DD``) and is kept as that text. ``time_origin``, when the
column is there, is the show's origin on the clock (``HH:MM:SS[.fff]`` or seconds; empty: none), read
as seconds (a number column, so not a group): :mod:`tvseg.readers.time_origin`.
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING

from tvseg.arguments import check_path
from tvseg.errors import InputError
from tvseg.readers.tables import METADATA_COLUMNS, read_table, table_kind
from tvseg.readers.time_origin import parse_origin

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_metadata", "metadata_origins"]

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _is_iso_date(text: str) -> bool:
    try:
        return bool(_ISO_DATE.fullmatch(text)) and bool(datetime.date.fromisoformat(text))
    except ValueError:
        return False


def read_metadata(path, *, encoding: str | None = None) -> pd.DataFrame:
    """Read a metadata CSV into a DataFrame indexed by ``show`` with ``channel, programme, date`` (and
    ``time_origin`` in seconds, NaN where empty, when the file has the column).

    Parameters
    ----------
    path : str or os.PathLike
        The metadata CSV.
    encoding : str, optional
        The file's encoding (default UTF-8; see :func:`~tvseg.readers.source.read_text`).

    Raises
    ------
    InputError
        A table that is not a metadata table, an empty or repeated show id, or a date that is
        not ``YYYY-MM-DD`` (or not a real day), a time origin that is not a clock time or seconds; a
        ``path`` that is not a str or an ``os.PathLike``.
    """
    check_path("path", path)
    table = read_table(path, encoding=encoding)
    if table_kind(table.names, path=path) != "metadata":
        raise InputError(
            "not a metadata table (expected the columns show,channel,programme,date)",
            path=path,
            line=1,
            value=",".join(table.names),
        )
    import pandas as pd

    frame = pd.DataFrame(
        {name: (table.frame[name].str.strip() if name in table.names else "") for name in METADATA_COLUMNS}
    )
    for i, (show, date) in enumerate(zip(frame["show"], frame["date"])):
        line = int(table.lines[i])
        if not show:
            raise InputError("show is missing", path=path, line=line, value=show)
        if date and not _is_iso_date(date):
            raise InputError("date is not YYYY-MM-DD", path=path, line=line, value=date)
    if "time_origin" in table.names:
        cells = table.frame["time_origin"].tolist()
        frame["time_origin"] = [
            parse_origin(cell, path=path, line=int(table.lines[i]), what="time_origin")
            if cell.strip()
            else float("nan")
            for i, cell in enumerate(cells)
        ]
    repeated = frame["show"].duplicated()
    if repeated.any():
        i = int(repeated.to_numpy().nonzero()[0][0])
        raise InputError("show listed twice", path=path, line=int(table.lines[i]), value=frame["show"].iloc[i])
    return frame.set_index("show")


def metadata_origins(path, *, encoding: str | None = None) -> dict[str, float]:
    """``{show: time origin in seconds}`` of a metadata CSV's ``time_origin`` column (empty: no column)."""
    frame = read_metadata(path, encoding=encoding)
    if "time_origin" not in frame.columns:
        return {}
    origins = frame["time_origin"].dropna()
    return {str(show): float(value) for show, value in origins.items()}
