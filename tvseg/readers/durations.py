"""Each show's duration (``--durations FILE``): where the last chapter of a chapter list ends.

A chapter list (a YouTube description, Chapter-Llama's output) holds its chapters' starts, not the video's
end; ``--durations`` gives it per show, from a CSV table with the columns ``show`` and ``duration`` (other
columns are not read; seconds or ``[H:]MM:SS[.fff]``), or a JSON object ``{show: seconds}`` or ``{show:
{"duration": seconds, ...}}`` (VidChapters' annotations are such a file). Errors name the file, the line
and the value.
"""

from __future__ import annotations

from pathlib import Path

from tvseg.errors import InputError
from tvseg.readers.json_values import Number, dumps, expect
from tvseg.readers.validation import parse_time

__all__ = ["read_durations"]


def read_durations(path, *, encoding: str | None = None) -> dict[str, float]:
    """``{show: seconds}`` of a durations file (a ``.json`` file as JSON, any other as a CSV table).

    Raises
    ------
    InputError
        No ``show`` or ``duration`` column, a duration that is not a positive time, a show given twice, a JSON
        value that is neither a number nor an object with a ``duration`` number.
    """
    found: dict[str, float] = {}
    lines: dict[str, int] = {}

    def add(show: str, text: str, line: int, *, clock: bool, comma: bool = False) -> None:
        show = show.strip()
        if not show:
            raise InputError("a duration without its show", path=path, line=line, value=text)
        if show in found:
            raise InputError(f"show {show!r} is given twice (line {lines[show]})", path=path, line=line, value=show)
        seconds = parse_time(text, path=path, line=line, field="duration", clock=clock, decimal_comma=comma)
        if seconds <= 0:
            raise InputError("duration must be positive", path=path, line=line, value=text)
        found[show], lines[show] = seconds, line

    if Path(path).suffix.lower() == ".json":
        from tvseg.readers.video_chapters import _load, _Reader

        data, text = _load(path, encoding=encoding)
        reader = _Reader(path, text)
        expect(data, dict, "a durations file is a JSON object {show: seconds}", path=path, line=1)
        for show, value in data.items():
            line = reader.line(show, 1)
            if isinstance(value, dict) and "duration" in value:
                value = value["duration"]
            if not isinstance(value, Number):
                raise InputError(
                    "a show's duration must be a number of seconds (or an object with a 'duration' number)",
                    path=path,
                    line=line,
                    value=dumps(value),
                )
            add(show, str(value), line, clock=False)
        return found
    from tvseg.readers.tables import read_table

    table = read_table(path, encoding=encoding)
    for column in ("show", "duration"):
        if column not in table.names:
            raise InputError(
                f"a durations table needs the columns show,duration (it has {','.join(table.names)})",
                path=path,
                line=1,
                value=column,
            )
    frame = table.frame
    for show, duration, line in zip(frame["show"], frame["duration"], table.lines.tolist()):
        add(show, duration, line, clock=True, comma=table.separator == ";")
    return found
