"""Helpers of the reader and writer tests: writing small input files, listing what was read."""


def write(tmp_path, name, text, *, encoding="utf-8", bom=False):
    """Write ``text`` to ``tmp_path / name`` in ``encoding`` (with a UTF-8 byte order mark first when
    ``bom``) and return the path."""
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode(encoding))
    return path


def segments(annotation):
    """``[(start, end, label), ...]`` of an Annotation, in its order."""
    return [(s.start, s.end, label) for s, _, label in annotation.itertracks(yield_label=True)]
