"""The report of an evaluation streamed in shards (issue 40): each shard's segments written to a file by the
process that scored it (tvseg.scale.evaluate_files_spilled), the pages read back a shard at a time
(tvseg.report.adapter.ShardedPages). The expected report is the independent path, the one that holds every
segment at once: tvseg.evaluate on the same files read whole, written by ResultPages. Every file must be
the same, byte for byte."""

import hashlib
import warnings

import pytest
from test_scale import N_SHOWS, _files, write_corpus

import tvseg
from tvseg.report import write_report
from tvseg.report.analysis import LIST_LIMIT
from tvseg.scale import evaluate_files_spilled, read_files

SETTINGS = tvseg.Settings(bootstrap=50)


def _digests(folder):
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("streamed")
    write_corpus(folder).to_csv(folder / "metadata.csv")
    return folder


@pytest.fixture(scope="module")
def whole(corpus, tmp_path_factory):
    """The report of the corpus evaluated in one piece, every segment held."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(settings=SETTINGS, **read_files(_files(corpus)))
    out = tmp_path_factory.mktemp("whole") / "report"
    write_report(result, out, progress=False, jobs=1, date="2000-01-01", run_id="0123456789abcdef")
    return result, _digests(out)


def _streamed(corpus, tmp_path, shards, jobs=1):
    spill = tmp_path / "segments"
    spill.mkdir()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result, segment_files = evaluate_files_spilled(_files(corpus), spill, shards=shards, settings=SETTINGS)
    out = tmp_path / "report"
    write_report(
        result, out, progress=False, jobs=jobs, date="2000-01-01", run_id="0123456789abcdef", segments=segment_files
    )
    return result, segment_files, _digests(out)


@pytest.mark.parametrize("shards", [1, 3, 7])
def test_a_report_streamed_shard_by_shard_is_the_whole_report(corpus, whole, tmp_path, shards):
    # write_corpus: titled reference, system a titled in its first half only, b untitled and missing some
    # shows, units missing for some shows, metadata, a.rttm ending with a show that sorts first (read whole
    # in a second round: the first round's files are not used)
    result, segment_files, got = _streamed(corpus, tmp_path, shards)
    assert [(f.first, f.shows) for f in segment_files] == [
        (sum(f.shows for f in segment_files[:k]), f.shows) for k, f in enumerate(segment_files)
    ]
    assert sum(f.shows for f in segment_files) == N_SHOWS and len(segment_files) == shards
    assert not hasattr(result.systems["a"].scores, "matching")  # the result itself holds no segment
    expected = whole[1]
    assert sorted(got) == sorted(expected)
    assert [name for name in expected if got[name] != expected[name]] == []


def test_pages_written_by_two_processes_and_the_corpus_lists_merged_across_shards(corpus, whole, tmp_path):
    # the corpus page lists at most LIST_LIMIT stories missed by every system, the longest first: the lists of
    # the shards are merged (more stories missed than the limit, so that the merge decides which are shown)
    result, _, got = _streamed(corpus, tmp_path, 4, jobs=2)
    from tvseg.report.adapter import ResultPages

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = ResultPages(tvseg.evaluate(settings=SETTINGS, **read_files(_files(corpus)))).analysis
    assert analysis.n_missed_by_all > LIST_LIMIT or analysis.n_retrieved_by_all > LIST_LIMIT
    assert got == whole[1]


def test_the_shards_titles_follow_the_corpus(corpus, tmp_path):
    # b has no title anywhere: its shards were scored with titles, which the corpus drops (the report's
    # pages, equal to the whole run's, drop them too: test_a_report_streamed_shard_by_shard_is_the_whole_report)
    result, segment_files, _ = _streamed(corpus, tmp_path, 3)
    assert result.systems["a"].titles and not result.systems["b"].titles
    loaded = segment_files[0].load()
    assert loaded["b"][0].titles and loaded["a"][0].titles
