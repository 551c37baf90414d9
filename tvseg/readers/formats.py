"""The formats the readers know by name: each file extension and the format it is read as, and the
``format=`` names of each family.

The readers of :mod:`tvseg.readers` look a file's format up here, and import the module that reads it only
when a file of that format is read, so that a command pays for the import of the readers it uses.
"""

from __future__ import annotations

__all__ = [
    "BROADCAST_FORMATS",
    "SUBTITLE_FORMATS",
    "SUBTITLE_KINDS",
    "AUDIO_FORMATS",
    "PODCAST_FORMATS",
    "TEXT_CORPUS_FORMATS",
    "JSON_FORMATS",
    "CHAPTER_LLAMA",
    "PARQUET",
]

BROADCAST_FORMATS = {".ttml": "ttml", ".dfxp": "ttml", ".xml": "ttml", ".scc": "scc", ".stl": "stl"}
"""The extensions of broadcast caption files and the format each is read as
(:mod:`tvseg.readers.broadcast_captions`)."""

SUBTITLE_FORMATS = {".sbv": "sbv", ".ass": "ass", ".ssa": "ssa", ".sub": "microdvd", ".smi": "sami", ".sami": "sami"}
"""The extensions of the subtitle files read by :mod:`tvseg.readers.subtitles` and the format each is read as."""
SUBTITLE_KINDS = ("sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", "sami")
"""Every ``format=`` of :mod:`tvseg.readers.subtitles` (``mpl2`` and ``tmp`` only when named: their files are
``.txt``)."""

AUDIO_FORMATS = {".mp3": "mp3", ".m4a": "mp4", ".m4b": "mp4"}
"""The audio files' extensions and the format each is read as (an ``.mp4`` file only when named: a video),
by :mod:`tvseg.readers.podcast`."""
PODCAST_FORMATS = ("podcast", "ffmetadata", "mp3", "mp4")
"""The ``format=`` names of the formats :mod:`tvseg.readers.podcast` reads."""

TEXT_CORPUS_FORMATS = ("choi", "wiki727k", "segeval", "nltk")
"""The ``format=`` of the text corpora (:mod:`tvseg.readers.text_corpora`): read in the unit domain."""

JSON_FORMATS = ("vidchapters", "anet", "json")
"""The ``format=`` names of the JSON shapes :mod:`tvseg.readers.video_chapters` reads."""

CHAPTER_LLAMA = "chapter-llama"
"""The ``format=`` of Chapter-Llama's output: one ``<video_id>.json`` per video, ``{"chapters": {"HH:MM:SS":
title}, "output": text}``, in a folder of folders (``<exp>/<video_id[:2]>/<video_id>.json``)."""

PARQUET = ".parquet"
"""The extension of YTSeg's audio configuration's files (Apache Parquet, read with pyarrow:
:mod:`tvseg.readers.ytseg`)."""
