r"""Stanford CoreNLP 3.4.1's PTBTokenizer (``-preserveLines -lowerCase``) in Python, on the titles it is exact for.

pycocoevalcap's ``PTBTokenizer`` runs ``edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase`` (a
Java program, the jar it ships) on each title, then drops its punctuation tokens; ``dvc_eval`` first replaces
every non-ASCII character by a space. :func:`ptb_line` gives the jar's output line for a line of printable
ASCII text **when the line is in the subset this module covers**, and None otherwise; the caller then needs
the jar (:func:`tvseg.retrieval.captioning.tokenize`). The subset is what chapter titles are mostly made of;
``tests/test_ptb_tokenizer.py`` compares this module with the jar on thousands of generated lines, both those
it covers (equal) and others (refused or equal).

A line is split at spaces and tabs into chunks; each chunk is ``OPEN* CORE CLOSE* END?`` where

- ``OPEN`` is ``(``, ``[`` or ``{`` (tokens ``-LRB-``, ``-LSB-``, ``-LCB-``) and ``CLOSE`` their closers;
- ``CORE`` is a word of letters and digits (hyphens inside: ``self-driving``; ``AT&T`` whole, ``q&a`` split); a
  number whose digits are joined by ``.``, ``,``, ``:``, ``/`` or ``-`` (``3.5``, ``100,000``, ``3:45``),
  after a ``$`` and before a ``%`` (their own tokens); a word and its contraction (``it's`` -> ``it 's``,
  ``I'm``, ``we've``, ``they'd``, ``you're``, ``we'll``; ``don't`` -> ``do n't``, ``can't`` -> ``ca n't``,
  ``won't`` -> ``wo n't``; ``students'`` -> ``students '``); the jar's assimilations (``cannot`` -> ``can not``,
  ``gonna`` -> ``gon na``, ``gotta``, ``wanna``, ``lemme``, ``gimme``, ``'tis`` -> ``'t is``, ``'twas``); a
  French elision ``l'``, ``d'``, ``j'`` alone (``l'été`` without its accented letters);
- ``END`` is one run of ``!`` and ``?`` (one token: ``?!``), or one of ``,``, ``;``, ``:``, or a final ``.``
  or ``...`` after a word of letters that is no abbreviation nor single letter (the jar keeps ``etc.``,
  ``Mr.``, ``A.`` whole and, before a capital, adds a sentence-final period);

or a chunk of punctuation alone: ``-`` ``--`` (``---``: ``--``), ``...``, ``&``, ``/``, ``+``,
``%``, ``#``, ``$``, ``|``, ``=``, ``~``, ``^``, ``*``, ``,``, ``;``, ``:``, ``.``, ``!``/``?`` runs. Refused: quotes
(their direction depends on the text around), ``<`` ``>`` (markup), ``@`` ``_`` ``\`` ``` ` ```, apostrophes
elsewhere, periods inside words (acronyms, URLs), digits next to letters after a separator (``3:45pm``), two
chunks of digits in a row (the jar joins phone numbers: ``12 345 6789``).
Tokens are lower-cased, as ``-lowerCase`` does (so ``-LRB-`` is ``-lrb-``, which pycocoevalcap's list of
punctuation, upper case, does not drop).
"""

from __future__ import annotations

import re

__all__ = ["ptb_line", "ptb_lines", "approximate_line"]

_ASSIMILATIONS = {
    "cannot": ("can", "not"),
    "gonna": ("gon", "na"),
    "gotta": ("got", "ta"),
    "wanna": ("wan", "na"),
    "lemme": ("lem", "me"),
    "gimme": ("gim", "me"),
    "'tis": ("'t", "is"),
    "'twas": ("'t", "was"),
}
# the abbreviations of the jar's lexer (and a margin): a final period after one of them is refused
_ABBREVIATIONS = frozenset(
    """jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thurs fri sat sun ala ariz az ark
    calif colo conn ct dak del fla ga ill ind kan kans ky la mass md mich minn miss mo mont neb nev okla ore pa
    penn tenn tex va vt wash wis wisc wyo inc co cos corp pty ptys pte ltd plc rt bancorp bhd assn univ intl sys
    tel est ext sq jr bros esq etc al seq bldg mr mrs ms mx dr drs prof profs sen sens rep reps atty attys lt col
    gen messrs gov govs adm rev maj sgt cpl pvt capt st ste ave pres lieut hon brig cmdr comdr pfc spc supt supts
    det mt ft adj adv asst assoc ens insp mlle mme msgr sfc sr vs alex wm jos cie cf treas ph invt elec natl mfg
    mtg dept blvd rd ca fig figs prop no nos sec secs sect sects art arts para paras pp op approx pt rs so p pg
    vol vols ed eds ch chap dist dists div gov govt hr hrs min mins mgr mssr rep misc oz lb lbs kg km mi ms ft
    ie eg viz aka""".split()
)
_OPEN = {"(": "-lrb-", "[": "-lsb-", "{": "-lcb-"}
_CLOSE = {")": "-rrb-", "]": "-rsb-", "}": "-rcb-"}
_ALONE = {"-", "--", "&", "/", "+", "%", "#", "$", "|", "=", "~", "^", "*", ",", ";", ":", "."}
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*|[a-z]+&[a-z]+", re.IGNORECASE)
_NUMBER = re.compile(r"\$?([0-9]+(?:[.,:/-][0-9]+)+|[0-9]+)%?")
_CONTRACTION = re.compile(r"([a-z]+)('s|'m|'d|'re|'ve|'ll)", re.IGNORECASE)
_NOT = re.compile(r"([a-z]*[a-mo-z])(n't)", re.IGNORECASE)
_PLURAL = re.compile(r"([a-z]*s)(')", re.IGNORECASE)
_BANG = re.compile(r"[!?]+")
_PRINTABLE = re.compile(r"[ -~\t]*")


def _core(core: str) -> list[str] | None:
    """The tokens of a chunk's core (as written), None when it is not in the subset."""
    if core.lower() in _ASSIMILATIONS:
        return list(_ASSIMILATIONS[core.lower()])
    if re.fullmatch("[ldj]'", core, re.IGNORECASE):
        return [core]  # French elisions, as what remove_nonascii leaves of l'été: "l' t"
    number = _NUMBER.fullmatch(core)
    if number is not None:
        tokens = ["$"] if core.startswith("$") else []
        tokens.append(number.group(1))
        return tokens + (["%"] if core.endswith("%") else [])
    if _WORD.fullmatch(core):
        if "&" in core and not re.fullmatch("[A-Z]+&[A-Z]+", core):
            left, _, right = core.partition("&")
            return [left, "&", right] if left.isalpha() and right.isalpha() else None  # Q&A whole, q&a split
        if any(c.isdigit() for c in core) and "-" in core:
            return None  # a hyphenated or joined word with digits: number rules of the jar
        return [core]
    for pattern in (_CONTRACTION, _NOT, _PLURAL):
        found = pattern.fullmatch(core)
        if found is not None and found.group(1):
            return [found.group(1), found.group(2)]
    return None


def _chunk(chunk: str) -> list[str] | None:
    if chunk in _ALONE:
        return [chunk]
    if chunk == "---":
        return ["--"]
    if chunk == "...":
        return ["..."]
    if _BANG.fullmatch(chunk):
        return [chunk]
    opens, i = [], 0
    while i < len(chunk) and chunk[i] in _OPEN:
        opens.append(_OPEN[chunk[i]])
        i += 1
    end: list[str] = []
    rest = chunk[i:]
    if rest.endswith(("!", "?")):
        core_end = len(rest.rstrip("!?"))
        end, rest = [rest[core_end:]], rest[:core_end]
    elif rest.endswith("...") and not rest.endswith("...."):
        end, rest = ["..."], rest[:-3]
    elif rest.endswith((",", ";", ":")):
        end, rest = [rest[-1]], rest[:-1]
    elif rest.endswith("."):
        end, rest = ["."], rest[:-1]
    closes: list[str] = []
    while rest and rest[-1] in _CLOSE:
        closes.insert(0, _CLOSE[rest[-1]])
        rest = rest[:-1]
    if not rest:
        return None
    if end and end[0] in (".", "...") and len(rest) == 1:
        return None  # a single letter and a period: an acronym for the jar ("A." "x. . .")
    if end and end[0] in (".", "..."):
        whole = re.fullmatch("[A-Z]+&[A-Z]+", rest) is not None  # Q&A. (q&a. splits into an acronym a.)
        spelled = whole or (rest.replace("'", "").isalpha() and not rest.startswith("'"))
        number = end == ["."] and _NUMBER.fullmatch(rest) is not None and rest[-1].isdigit()
        if rest.lower() in _ABBREVIATIONS or not (spelled or number):
            return None
    tokens = _core(rest)
    if tokens is None:
        return None
    return opens + tokens + closes + end


def ptb_line(line: str) -> str | None:
    """The jar's output line (``-preserveLines -lowerCase``) for ``line`` of printable ASCII, or None when the
    line is not in the subset this module reproduces (module docstring)."""
    if not _PRINTABLE.fullmatch(line):
        return None
    chunks = line.split()
    tokens: list[str] = []
    for k, chunk in enumerate(chunks):
        if k and chunks[k - 1][-1].isdigit() and chunk.lstrip("$")[:1].isdigit():
            return None  # the jar joins groups of digits (phone numbers, 1 1/2)
        found = _chunk(chunk)
        if found is None:
            return None
        tokens += found
    return " ".join(tokens).lower()


def ptb_lines(lines: list[str]) -> list[str | None]:
    """:func:`ptb_line` of every line (None for a line not in the subset)."""
    return [ptb_line(line) for line in lines]


_APPROXIMATE = re.compile(r"[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*|\.\.\.|[^\sA-Za-z0-9]")


def approximate_line(line: str) -> str:
    """A line outside the subset, tokenised approximately (words, ``...`` and each other character), lower case:
    what the captioning metrics use without Java for such a title, with a warning."""
    return " ".join(_OPEN.get(t, _CLOSE.get(t, t)) for t in _APPROXIMATE.findall(line)).lower()
