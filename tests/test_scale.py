"""tvseg.scale (issues 16, 23): shards scored in other processes or on a Dask cluster give tvseg.evaluate's
result bit for bit, and the same warnings; from files (evaluate_files, tvseg evaluate --jobs / --dask), each
shard reads its own shows: a folder's files by name, a large RTTM or CSV file by the bytes of its shows,
any other file whole."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment, Timeline

import tvseg
from tvseg.errors import InputError, UsageError
from tvseg.scale import Files, evaluate_files, evaluate_sharded, read_files

N_SHOWS = 200
WORDS = ("météo", "sport", "politique", "économie", "culture", "faits divers", "international", "santé")


def _rttm(show, bounds, labels):
    return "".join(
        f"SEGMENT {show} 1 {a / 1000:.3f} {(b - a) / 1000:.3f} <NA> <NA> {label} <NA> <NA>\n"
        for (a, b), label in zip(zip(bounds[:-1], bounds[1:]), labels)
    )


def _title(rng):
    return "_".join(rng.choice(WORDS, size=int(rng.integers(1, 4))).tolist()).replace(" ", "_")


def write_corpus(folder, n_shows=N_SHOWS, seed=3):
    """Reference folder (titled), system a (titled in the first half of the shows only, running past the
    reference's end in some shows, one show the reference lacks), system b (untitled, some shows missing,
    one show empty), units (none for some shows), metadata (channel, programme)."""
    ref_dir = folder / "ref"
    ref_dir.mkdir()
    texts = {"a": [], "b": []}
    units = []
    for k in range(n_shows):
        rng = np.random.default_rng((seed, k))
        show = f"show{k:04d}"
        length = int(rng.integers(300_000, 900_001))
        n_seg = int(rng.integers(2, 12))
        cuts = np.sort(rng.choice(np.arange(20_000, length - 20_000, 1000), n_seg - 1, replace=False))
        bounds = [0, *cuts.tolist(), length]
        (ref_dir / f"{show}.rttm").write_text(_rttm(show, bounds, [_title(rng) for _ in range(n_seg)]))
        for name, delete in (("a", 0.1), ("b", 0.3)):
            kept = cuts[rng.random(len(cuts)) >= delete]
            moved = np.unique(np.clip(kept + np.rint(rng.normal(0, 6000, len(kept))), 2000, length - 2000))
            moved = moved[np.concatenate(([True], np.diff(moved) >= 1000))].astype(int) if len(moved) else moved
            end = length + (int(rng.integers(1000, 30_000)) if name == "a" and k % 7 == 0 else 0)
            hb = [0, *moved.tolist(), end]
            if name == "a":
                labels = [_title(rng) if k < n_shows // 2 else "<NA>" for _ in hb[1:]]
            else:
                labels = ["<NA>"] * (len(hb) - 1)
            if name == "b" and k % 23 == 5:
                continue  # no hypothesis for this show
            texts[name].append(_rttm(show, hb, labels))
        if k % 31 != 4:
            start = np.arange(0, length - 2000, 2500)
            units += [(show, s / 1000, min(s + 2000, length) / 1000) for s in start.tolist()]
    texts["a"].append(_rttm("extra_show", [0, 60_000], ["<NA>"]))
    for name, chunks in texts.items():
        (folder / f"{name}.rttm").write_text("".join(chunks))
    pd.DataFrame(units, columns=["show", "start", "end"]).to_csv(folder / "units.csv", index=False, float_format="%.3f")
    shows = [f"show{k:04d}" for k in range(n_shows)]
    metadata = pd.DataFrame(
        {"channel": [f"ch{k % 3}" for k in range(n_shows)], "programme": [f"prog{k % 5}" for k in range(n_shows)]},
        index=pd.Index(shows, name="show"),
    )
    return metadata


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scale")
    metadata = write_corpus(folder)
    reference = tvseg.read_segments(folder / "ref")
    hypotheses = {"a": tvseg.read_segments(folder / "a.rttm"), "b": tvseg.read_segments(folder / "b.rttm")}
    units = tvseg.read_units(folder / "units.csv")
    settings = tvseg.Settings(bootstrap=200)
    metadata.to_csv(folder / "metadata.csv")
    return dict(
        reference=reference, hypotheses=hypotheses, units=units, metadata=metadata, settings=settings, folder=folder
    )


def recorded(function):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # a socket a Dask cluster of an earlier test left, collected here, is not a warning of tvseg's
        warnings.simplefilter("ignore", ResourceWarning)
        result = function()
    return result, sorted((w.category.__name__, str(w.message)) for w in caught)


@pytest.fixture(scope="module")
def expected(corpus):
    result, caught = recorded(
        lambda: tvseg.evaluate(
            corpus["reference"],
            corpus["hypotheses"],
            units=corpus["units"],
            metadata=corpus["metadata"],
            settings=corpus["settings"],
        )
    )
    return result, result.to_json(), caught


def check_same(result, expected):
    reference, reference_json, _ = expected
    got = result.to_json()
    assert got == reference_json
    assert json.dumps(got) == json.dumps(reference_json)
    for name, sr in reference.systems.items():
        other = result.systems[name]
        pd.testing.assert_frame_equal(other.matches, sr.matches)
        pd.testing.assert_frame_equal(other.boundary_pairs, sr.boundary_pairs)
        pd.testing.assert_frame_equal(other.shows, sr.shows)
        assert np.array_equal(other.scores.matching.reference_partner, sr.scores.matching.reference_partner)
        assert np.array_equal(other.scores.pairs[1], sr.scores.pairs[1])
    assert result.shows == reference.shows


def run(corpus, **options):
    return recorded(
        lambda: evaluate_sharded(
            corpus["reference"],
            corpus["hypotheses"],
            units=corpus["units"],
            metadata=corpus["metadata"],
            settings=corpus["settings"],
            **options,
        )
    )


def test_the_corpus_exercises_what_it_should(expected):
    result, _, caught = expected
    assert result.systems["a"].titles and not result.systems["b"].titles
    text = " ".join(message for _, message in caught)
    for part in ("not in the reference", "no hypothesis for show", "cropped", "no units for show", "is NaN (0/0)"):
        assert part in text


@pytest.mark.parametrize("chunk_shows", [37, 1, [1, 120, 79], [199, 1], N_SHOWS])
def test_shards_in_this_process_give_evaluate_bit_for_bit(corpus, expected, chunk_shows):
    result, caught = run(corpus, chunk_shows=chunk_shows)
    check_same(result, expected)
    assert caught == expected[2]


def test_two_local_processes(corpus, expected):
    result, caught = run(corpus, jobs=2)
    check_same(result, expected)
    assert caught == expected[2]


def test_a_dask_cluster_of_two_worker_processes(corpus, expected):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        result, caught = run(corpus, dask=cluster.scheduler_address, chunk_shows=45)
    check_same(result, expected)
    assert caught == expected[2]


def test_dask_local(corpus, expected):
    pytest.importorskip("dask.distributed")
    result, caught = run(corpus, dask="local", jobs=2)
    check_same(result, expected)
    assert caught == expected[2]


def test_annotations_and_a_uem_in_shards(corpus):
    shows = sorted(corpus["reference"])[:30]
    reference = {s: corpus["reference"][s] for s in shows}
    hypotheses = {n: {s: h[s] for s in shows if s in h} for n, h in corpus["hypotheses"].items()}
    uem = {s: Timeline([Segment(10.0, 200.0)]) for s in shows[::2]}
    options = dict(
        uem=uem,
        units={s: corpus["units"][s] for s in shows if s in corpus["units"]},
        settings=tvseg.Settings(bootstrap=50),
    )
    one, one_caught = recorded(lambda: tvseg.evaluate(reference, hypotheses, **options))
    many, many_caught = recorded(lambda: evaluate_sharded(reference, hypotheses, chunk_shows=[3, 20, 7], **options))
    assert many.to_json() == one.to_json()
    assert many_caught == one_caught
    assert list(many.reference) == list(one.reference)


def test_errors_are_those_of_one_process(corpus):
    shows = sorted(corpus["reference"])[:12]
    reference = {s: corpus["reference"][s] for s in shows}
    hypotheses = {"a": {s: corpus["hypotheses"]["a"][s] for s in shows}}
    bad = dict(hypotheses["a"])
    bad[shows[9]] = _shifted(bad[shows[9]], 36000.0)  # a timecode origin of 10:00:00
    for inputs in ({"a": bad}, {"a": {"elsewhere": bad[shows[0]]}}):
        with pytest.raises(InputError) as one:
            tvseg.evaluate(reference, inputs, settings=tvseg.Settings(bootstrap=0))
        with pytest.raises(InputError) as many:
            evaluate_sharded(reference, inputs, chunk_shows=4, settings=tvseg.Settings(bootstrap=0))
        assert str(many.value) == str(one.value)
    with pytest.raises(UsageError):
        evaluate_sharded(reference, hypotheses, chunk_shows=[5, 5])
    with pytest.raises(UsageError):
        evaluate_sharded(reference, hypotheses, jobs=0)


def _shifted(annotation, seconds):
    out = Annotation(uri=annotation.uri)
    for segment, track, label in annotation.itertracks(yield_label=True):
        out[Segment(segment.start + seconds, segment.end + seconds), track] = label
    return out


def test_dask_missing_names_the_extra(corpus, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name == "dask" or name.startswith("dask."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    shows = sorted(corpus["reference"])[:4]
    with pytest.raises(UsageError, match=r"pip install tvseg\[dask\]"):
        evaluate_sharded({s: corpus["reference"][s] for s in shows}, {"a": corpus["hypotheses"]["a"]}, dask="local")


@pytest.mark.parametrize("convention", ["paper", "chunkseg"])
def test_frames_in_shards(corpus, convention):
    shows = sorted(corpus["reference"])[:40]
    reference = corpus["reference"].select(shows)
    hypotheses = {n: h.select(shows) for n, h in corpus["hypotheses"].items()}
    settings = tvseg.Settings(units="frames", frame=6.0, convention=convention, bootstrap=30)
    one, one_caught = recorded(lambda: tvseg.evaluate(reference, hypotheses, settings=settings))
    many, many_caught = recorded(
        lambda: evaluate_sharded(reference, hypotheses, settings=settings, chunk_shows=[1, 13, 26])
    )
    assert one.to_json()["systems"]["a"]["corpus"]["pk"] is not None
    assert json.dumps(many.to_json()) == json.dumps(one.to_json())
    assert many_caught == one_caught


def test_the_command_scores_in_processes_or_dask_with_the_same_json(tmp_path):
    # tvseg evaluate --jobs 2 (shows scored in 2 processes) and --dask local give the --json of one process
    import json as _json

    from tvseg.cli import main
    from tvseg.samples import demo_folder

    demo = demo_folder()
    base = [
        "evaluate",
        "--reference",
        str(demo / "reference" / "chapters"),
        "--hypothesis",
        f"system_a={demo / 'hypotheses' / 'system_a.rttm'}",
        "--hypothesis",
        f"system_b={demo / 'hypotheses' / 'system_b'}",
        "--units",
        str(demo / "units" / "breath_groups.csv"),
        "--bootstrap",
        "100",
    ]
    outputs = {}
    for name, extra in (("one", []), ("jobs", ["--jobs", "2"]), ("dask", ["--dask", "local", "--jobs", "2"])):
        out = tmp_path / f"{name}.json"
        assert main(base + extra + ["--json", str(out)]) == 0
        outputs[name] = _json.loads(out.read_text(encoding="utf-8"))
        assert len(outputs[name].pop("run_id")) == 16  # each run its own id; the rest is the same
    assert outputs["jobs"] == outputs["one"] and outputs["dask"] == outputs["one"]


# ------------------------------------------------------------------------ from files: each shard reads its own


def _files(folder, **changes):
    options = dict(
        reference=str(folder / "ref"),
        hypotheses={"a": str(folder / "a.rttm"), "b": str(folder / "b.rttm")},
        units=str(folder / "units.csv"),
        metadata=str(folder / "metadata.csv"),
    )
    return Files(**{**options, **changes})


def _one_process(files, settings):
    """What tvseg evaluate without --jobs does: read here, evaluate here."""
    return recorded(lambda: tvseg.evaluate(settings=settings, **read_files(files)))


@pytest.fixture
def in_shards(monkeypatch):
    """``in_shards(function)``: run it (recorded) where the parent must not read the inputs (the shards
    do): reading them here fails the test."""
    import tvseg.scale

    def refuse(*args, **kwargs):
        raise AssertionError("the inputs were read in the parent, not in the shards")

    def run(function):
        with monkeypatch.context() as patch:
            patch.setattr(tvseg.scale, "_read_here", refuse)
            return recorded(function)

    return run


def same_run(one, many, *, segments=True):
    """The same JSON, per-show tables, sweeps and warnings; the same match tables, or (``segments=False``:
    each shard dropped its segments once scored) none."""
    (a, a_caught), (b, b_caught) = one, many
    assert json.dumps(b.to_json()) == json.dumps(a.to_json())
    assert b_caught == a_caught
    for name, sr in a.systems.items():
        pd.testing.assert_frame_equal(b.systems[name].shows, sr.shows)
        pd.testing.assert_frame_equal(b.systems[name].gamma_sweep, sr.gamma_sweep)
        if segments:
            pd.testing.assert_frame_equal(b.systems[name].matches, sr.matches)
        else:
            assert b.systems[name].matches.empty and not hasattr(b.systems[name].scores, "matching")


@pytest.mark.parametrize("shards", [1, 3, 7])
def test_files_read_by_the_shards_in_this_process(corpus, in_shards, shards):
    # a folder of one file per show (cut by file name), b.rttm and units.csv sorted by show (cut by bytes),
    # a.rttm ending with a show that sorts first (its bytes do not fit the cut: read whole by each shard)
    files = _files(corpus["folder"])
    one = _one_process(files, corpus["settings"])
    many = in_shards(lambda: evaluate_files(files, shards=shards, settings=corpus["settings"]))
    same_run(one, many)
    assert "a: show(s) not in the reference, left out: extra_show (from " in " ".join(m for _, m in many[1])


@pytest.mark.parametrize("shards", [1, 3, 7])
def test_files_scored_without_keeping_segments(corpus, in_shards, shards):
    # segments=False (tvseg evaluate without --html): each shard keeps its components and sweep tallies
    # alone, not its segments; the JSON, the per-show tables and the warnings are one process's
    files = _files(corpus["folder"])
    one = _one_process(files, corpus["settings"])
    many = in_shards(lambda: evaluate_files(files, shards=shards, segments=False, settings=corpus["settings"]))
    same_run(one, many, segments=False)


@pytest.mark.parametrize("segments", [True, False])
def test_titles_are_decided_by_the_corpus_not_by_a_shard(corpus, tmp_path, in_shards, segments, monkeypatch):
    # the reference titled in its first 100 shows only, as system a; b never: a shard of the second half
    # has no title on either side, and the corpus scores a's titles there too; b's shards hold reference
    # titles, which the corpus cannot score (b has none). Each shard is scored once, its titles kept or
    # dropped as the corpus decides
    folder = tmp_path / "titles"
    (folder / "ref").mkdir(parents=True)
    for path in sorted((corpus["folder"] / "ref").iterdir()):
        lines = path.read_text().splitlines(keepends=True)
        if int(path.stem[4:]) >= N_SHOWS // 2:
            lines = [" ".join(line.split(" ")[:7] + ["<NA>"] + line.split(" ")[8:]) for line in lines]
        (folder / "ref" / path.name).write_text("".join(lines))
    files = _files(corpus["folder"], reference=str(folder / "ref"))
    one = _one_process(files, corpus["settings"])
    assert one[0].systems["a"].titles and not one[0].systems["b"].titles
    import tvseg.scale

    process, scored = tvseg.scale._process, []

    def counted(task):
        scored.append(task.shows)
        return process(task)

    monkeypatch.setattr(tvseg.scale, "_process", counted)
    many = in_shards(lambda: evaluate_files(files, shards=4, segments=segments, settings=corpus["settings"]))
    same_run(one, many, segments=segments)
    # 4 shards a round (a.rttm ends with a show that sorts first: a second round reads it whole), no shard
    # sent again for its titles
    assert len(scored) == 8 and len(set(scored)) == 4


def test_files_read_by_two_local_processes(corpus, in_shards):
    files = _files(corpus["folder"])
    same_run(
        _one_process(files, corpus["settings"]),
        in_shards(lambda: evaluate_files(files, jobs=2, settings=corpus["settings"])),
    )


def test_files_read_by_dask_workers(corpus, in_shards):
    pytest.importorskip("dask.distributed")
    files = _files(corpus["folder"])
    settings = corpus["settings"]
    same_run(
        _one_process(files, settings), in_shards(lambda: evaluate_files(files, dask="local", jobs=2, settings=settings))
    )


def _sorted_file(folder, name, parts):
    path = folder / name
    path.write_text("".join(part.read_text() for part in sorted(parts)))
    return str(path)


def test_one_reference_file_a_uem_with_gaps_and_unsorted_units(corpus, tmp_path, in_shards):
    folder = corpus["folder"]
    shows = sorted(corpus["reference"])[:60]
    reference = _sorted_file(tmp_path, "ref.rttm", [folder / "ref" / f"{show}.rttm" for show in shows])
    rng = np.random.default_rng(5)
    units = pd.read_csv(folder / "units.csv")
    units = units[units["show"].isin(shows)]
    units.iloc[rng.permutation(len(units))].to_csv(tmp_path / "units.csv", index=False, float_format="%.3f")
    uem = "".join(
        f"{show} 1 10.000 {100 + k}.000\n" + (f"{show} 1 {150 + k}.000 290.000\n" if k % 3 == 0 else "")
        for k, show in enumerate(shows[::2])
    )
    (tmp_path / "some.uem").write_text(uem)
    settings = tvseg.Settings(bootstrap=50)
    for extra in ({}, {"uem": str(tmp_path / "some.uem")}):
        files = _files(folder, reference=reference, units=str(tmp_path / "units.csv"), **extra)
        one = _one_process(files, settings)
        assert one[0].systems["a"].corpus["pk"] is not None
        for shards in (2, 5):
            run = lambda files=files, shards=shards: evaluate_files(files, shards=shards, settings=settings)  # noqa: E731
            same_run(one, in_shards(run))


def test_files_not_named_after_their_shows(corpus, tmp_path, in_shards):
    # a hypothesis folder of files holding several shows each, named after none of them
    folder = corpus["folder"]
    b = tvseg.read_segments(folder / "b.rttm")
    (tmp_path / "b").mkdir()
    lines = (folder / "b.rttm").read_text().splitlines(keepends=True)
    for k in range(3):
        (tmp_path / "b" / f"part{k}.rttm").write_text("".join(x for x in lines if int(x.split()[1][4:]) % 3 == k))
    files = _files(folder, hypotheses={"a": str(folder / "a.rttm"), "b": str(tmp_path / "b")})
    one = _one_process(files, corpus["settings"])
    assert len(one[0].systems["b"].scores.hypothesis) == sum(len(list(a.itersegments())) for a in b.values())
    same_run(one, in_shards(lambda: evaluate_files(files, shards=4, settings=corpus["settings"])))


def test_an_error_in_a_shard_is_raised_as_one_process_raises_it(corpus, tmp_path):
    folder = corpus["folder"]
    text = (folder / "b.rttm").read_text().replace("SEGMENT show0150 1 ", "SEGMENT show0150 1 x", 1)
    (tmp_path / "b.rttm").write_text(text)
    duplicate = tmp_path / "ref"
    duplicate.mkdir()
    for file in (folder / "ref").iterdir():
        (duplicate / file.name).write_bytes(file.read_bytes())
    (duplicate / "another.rttm").write_text((folder / "ref" / "show0003.rttm").read_text())
    for changes in ({"hypotheses": {"b": str(tmp_path / "b.rttm")}}, {"reference": str(duplicate)}):
        files = _files(folder, **changes)
        with pytest.raises(InputError) as one:
            read_files(files)
        with pytest.raises(InputError) as many:
            evaluate_files(files, shards=3, settings=corpus["settings"])
        assert str(many.value) == str(one.value)


def test_a_sorted_file_is_cut_between_the_lines_of_two_shows(tmp_path):
    # the bytes of each piece hold exactly the rows whose show lies in the piece's range (told here by
    # reading every line), whatever the bounds, with blank lines anywhere
    from tvseg.readers.parts import lines_of, pieces

    rng = np.random.default_rng(2)
    shows = sorted({f"s{int(x):03d}" for x in rng.integers(0, 400, 60)})
    rows = ["show,start,end\n", "\n"]
    for show in shows:
        for k in range(int(rng.integers(1, 6))):
            rows.append(f"{show},{k}.000,{k + 1}.000\n" + ("\n" if rng.random() < 0.1 else ""))
    path = tmp_path / "units.csv"
    path.write_text("".join(rows))
    data = path.read_bytes()
    lines = lines_of(str(path), units=True)
    assert lines is not None and lines.header == b"show,start,end\n"
    for _ in range(50):
        bounds = sorted({f"s{int(x):03d}" for x in rng.integers(0, 420, int(rng.integers(1, 6)))})
        edges = [None, *bounds, None]
        for part, lo, hi in zip(pieces(str(path), lines, bounds), edges[:-1], edges[1:]):
            assert part.header == lines.header
            got = [line for line in data[part.start : part.stop].decode().splitlines() if line]
            expected = [
                row.strip()
                for row in rows[1:]
                if row.strip() and (lo is None or row.split(",")[0] >= lo) and (hi is None or row.split(",")[0] < hi)
            ]
            assert got == expected


@pytest.mark.parametrize("chunk_shows", [[5, 9, 16], 1])
def test_a_uem_with_gaps_in_shards(corpus, chunk_shows):
    shows = sorted(corpus["reference"])[:30]
    reference = {s: corpus["reference"][s] for s in shows}
    hypotheses = {n: {s: h[s] for s in shows if s in h} for n, h in corpus["hypotheses"].items()}
    uem = {
        s: Timeline([Segment(5.0, 120.0), Segment(160.0, 280.0)] if k % 4 == 1 else [Segment(0.0, 250.0)])
        for k, s in enumerate(shows)
        if k % 2
    }
    options = dict(uem=uem, units={s: corpus["units"][s] for s in shows if s in corpus["units"]})
    options["settings"] = tvseg.Settings(bootstrap=40)
    one = recorded(lambda: tvseg.evaluate(reference, hypotheses, **options))
    many = recorded(lambda: evaluate_sharded(reference, hypotheses, chunk_shows=chunk_shows, **options))
    assert json.dumps(many[0].to_json()) == json.dumps(one[0].to_json())
    assert many[1] == one[1]


def test_the_sorted_files_and_the_folder_are_read_in_parts(corpus, in_shards, monkeypatch):
    # b.rttm and units.csv are sorted by show and the reference folder has a file per show: each shard reads
    # its bytes and its files; a.rttm, whose last show sorts first, does not fit the cut: its runs of lines
    # by show are found (a second round), and each shard reads its shows' runs; no input is read whole
    import tvseg.scale

    plans = []
    plan = tvseg.scale._plan

    def recording(*args, **kwargs):
        plans.append((set(kwargs.get("whole", ())), set(kwargs.get("indexed") or ())))
        return plan(*args, **kwargs)

    monkeypatch.setattr(tvseg.scale, "_plan", recording)
    files = _files(corpus["folder"])
    same_run(
        _one_process(files, corpus["settings"]),
        in_shards(lambda: evaluate_files(files, shards=3, settings=corpus["settings"])),
    )
    assert plans == [(set(), set()), (set(), {"hypothesis a"})], plans


def test_a_part_is_read_as_the_whole_file(tmp_path):
    # the bytes of show "b" alone, after the header, read by the CSV reader as a file of one show;
    # the folder's part lists one of its two files
    from tvseg import read_segments
    from tvseg.readers.parts import Part, reading_parts

    path = tmp_path / "ref.csv"
    header, a, b = b"show,start,end,label\n", b"a,0,5,x\na,5,9,y\n", b"b,0,3,z\n"
    path.write_bytes(header + a + b)
    start = len(header) + len(a)
    with reading_parts({path: Part(header=header, start=start, stop=start + len(b))}):
        read = read_segments(path)
    assert list(read) == ["b"] and [(s.start, s.end) for s in read["b"].itersegments()] == [(0.0, 3.0)]
    folder = tmp_path / "folder"
    folder.mkdir()
    for show in ("p", "q"):
        (folder / f"{show}.rttm").write_text(f"SPEAKER {show} 1 0.000 2.000 <NA> <NA> t <NA> <NA>\n")
    with reading_parts({folder: Part(names=("q.rttm",))}):
        assert list(read_segments(folder)) == ["q"]
    assert list(read_segments(folder)) == ["p", "q"]


def test_a_file_in_numeric_order_of_shows_is_read_in_runs(tmp_path, monkeypatch):
    # show9 before show10 (numeric order, not the order of the strings: a cut by bisection misfits): the
    # runs of each show are found in one pass, each shard reads its shows' runs; blank lines and an RTTM
    # comment ride with the run before them; the result is one process's
    import tvseg.scale

    (tmp_path / "ref").mkdir()
    hyp, units = [";; a comment first\n"], ["show,start,end\n"]
    for k in range(1, 31):
        show = f"show{k}"
        (tmp_path / "ref" / f"{show}.rttm").write_text(_rttm(show, [0, 40_000, 100_000, 150_000], ["t1", "t2", "t3"]))
        hyp.append(_rttm(show, [0, 42_000 + 100 * k, 150_000], ["t1", "t3"]) + ("\n" if k % 4 == 0 else ""))
        units += [f"{show},{s},{s + 5}\n" for s in range(0, 150, 5)]
    (tmp_path / "a.rttm").write_text("".join(hyp))
    (tmp_path / "units.csv").write_text("".join(units))
    paths = {"hypotheses": {"a": str(tmp_path / "a.rttm")}, "units": str(tmp_path / "units.csv")}
    files = Files(reference=str(tmp_path / "ref"), **paths)
    settings = tvseg.Settings(bootstrap=50)
    one = _one_process(files, settings)
    spans = []
    found = tvseg.scale.show_spans

    def recording(path, lines):
        spans.append(found(path, lines))
        return spans[-1]

    monkeypatch.setattr(tvseg.scale, "show_spans", recording)
    for shards in (1, 4):
        many = recorded(lambda shards=shards: evaluate_files(files, shards=shards, segments=False, settings=settings))
        same_run(one, many, segments=False)
    # shards=4: the two files, each indexed once (shards=1: one range holds every show, any order fits)
    assert len(spans) == 2
    runs = spans[0] if "show1" in spans[0] and len(spans[0]["show1"]) == 1 else spans[1]
    assert sorted(runs, key=lambda s: int(s[4:])) == [f"show{k}" for k in range(1, 31)]
    assert all(len(r) == 1 for r in runs.values())  # each show's lines are together: one run each


def test_a_file_of_runs_sorted_by_show_is_cut_in_each_run(tmp_path):
    # three files sorted by show, one after the other (blank lines anywhere): the runs end where a show sorts
    # before the one above it, found from samples and bisection; the parts of each range hold exactly the rows
    # whose show lies in it (told by reading every line), in file order
    from tvseg.readers.parts import lines_of, run_pieces, sorted_runs

    rng = np.random.default_rng(5)
    rows, starts = ["show,start,end\n"], []
    for _ in range(3):
        shows = sorted({f"s{int(x):03d}" for x in rng.integers(0, 400, 40)})
        starts.append(sum(len(row) for row in rows))
        for show in shows:
            for k in range(int(rng.integers(1, 6))):
                rows.append(f"{show},{k}.000,{k + 1}.000\n" + ("\n" if rng.random() < 0.1 else ""))
    path = tmp_path / "units.csv"
    path.write_text("".join(rows))
    data = path.read_bytes()
    lines = lines_of(str(path), units=True)
    assert lines is not None
    runs = sorted_runs(str(path), lines)  # fewer lines than samples: every line is seen
    assert runs == list(zip(starts, [*starts[1:], len(data)]))
    # a run's last show sorts after the next run's first: a cut between two samples found by bisection
    assert sorted_runs(str(path), lines, samples=7) == runs
    for _ in range(30):
        bounds = sorted({f"s{int(x):03d}" for x in rng.integers(0, 420, int(rng.integers(1, 6)))})
        edges = [None, *bounds, None]
        for part, lo, hi in zip(run_pieces(str(path), lines, runs, bounds), edges[:-1], edges[1:]):
            got = [line for line in part.read(str(path)).decode().splitlines()[1:] if line]
            expected = [
                row.strip()
                for row in rows[1:]
                if row.strip() and (lo is None or row.split(",")[0] >= lo) and (hi is None or row.split(",")[0] < hi)
            ]
            assert got == expected
    # a file in no order of shows: more cuts than allowed
    shuffled = tmp_path / "shuffled.csv"
    body = [row for row in rows[1:] if row.strip()]
    shuffled.write_text(rows[0] + "".join(body[i] for i in rng.permutation(len(body))))
    assert sorted_runs(str(shuffled), lines_of(str(shuffled), units=True), most=8) is None


@pytest.mark.parametrize("samples", [4096, 2])
def test_a_large_file_in_numeric_order_of_shows_is_cut_in_sorted_runs(tmp_path, monkeypatch, samples):
    # a file whose parts cut by bisection are lopsided (every file here, by the patch): its runs sorted by
    # show (show1 to show9, then show10 to show40) found from samples, each shard reads its bytes of each run:
    # no show's runs of lines found line by line; with two samples the cut between the runs is missed, a
    # shard reads a show outside its range, and each show's runs are found (show_spans): one process's result
    import tvseg.scale
    from tvseg.readers import parts

    (tmp_path / "ref").mkdir()
    hyp, units = [], ["show,start,end\n"]
    for k in range(1, 41):
        show = f"show{k}"
        (tmp_path / "ref" / f"{show}.rttm").write_text(_rttm(show, [0, 40_000, 100_000, 150_000], ["t1", "t2", "t3"]))
        hyp.append(_rttm(show, [0, 42_000 + 100 * k, 150_000], ["t1", "t3"]))
        units += [f"{show},{s},{s + 5}\n" for s in range(0, 150, 5)]
    (tmp_path / "a.rttm").write_text("".join(hyp))
    (tmp_path / "units.csv").write_text("".join(units))
    paths = {"hypotheses": {"a": str(tmp_path / "a.rttm")}, "units": str(tmp_path / "units.csv")}
    files = Files(reference=str(tmp_path / "ref"), **paths)
    settings = tvseg.Settings(bootstrap=50)
    one = _one_process(files, settings)
    spans, runs = [], []
    found, sampled = tvseg.scale.show_spans, parts.sorted_runs

    def spans_recorded(path, lines):
        spans.append(path)
        return found(path, lines)

    def runs_recorded(path, lines):
        runs.append(sampled(path, lines, samples=samples))
        return runs[-1]

    monkeypatch.setattr(tvseg.scale, "_lopsided", lambda parts, path: True)
    monkeypatch.setattr(tvseg.scale, "show_spans", spans_recorded)
    monkeypatch.setattr(tvseg.scale, "sorted_runs", runs_recorded)
    many = recorded(lambda: evaluate_files(files, shards=4, segments=False, settings=settings))
    same_run(one, many, segments=False)
    assert len(runs) == 2 and (len(spans) == 0) == (samples > 2)
    if samples > 2:  # a.rttm's runs: show1 to show9, then show10's first byte on
        second = len("".join(hyp[:9]))
        assert runs[0] == [(0, second), (second, len("".join(hyp)))]


@pytest.mark.parametrize("names", [("s2", "s10"), ("programme-2024-0002", "programme-2024-0010")])
@pytest.mark.parametrize("block", [5, 64, 1 << 20])
def test_the_runs_of_each_show_in_a_file(tmp_path, block, names):
    # show_spans against a plain reading, line by line: a line names the show of its field (RTTM: the second
    # word; CSV: the show column), and one that names none (blank, a ";;" comment, too few fields) rides
    # with the run before it (the first run when it comes first); blocks as small as 5 bytes cut lines.
    # The long names are of equal length and differ in their 17th byte only (show names are compared 8
    # bytes at a time).
    from tvseg.readers.parts import lines_of, show_spans

    def named(text):
        return text.replace("s10", names[1]).replace("s2", names[0])

    rttm = tmp_path / "x.rttm"
    rttm.write_text(
        named(
            ";; first\n\nSEGMENT s2 1 0 1 <NA> <NA> a <NA> <NA>\nSEGMENT  s2\t1 1 1 <NA> <NA> b <NA> <NA>\n"
            ";; in between\nSEGMENT s10 1 0 1 <NA> <NA> c <NA> <NA>\n   \nSEGMENT s2 1 5 1 <NA> <NA> d <NA> <NA>\n"
            "SEGMENT s10 1 2 1 <NA> <NA> e <NA> <NA>"  # no line end at the end
        )
    )
    csv = tmp_path / "u.csv"
    csv.write_text(named("start,show,end\n0,s2,1\n1,s2,2\n\n0,s10,1\n5,s2 ,6\n7\n1,s10,2\n"))
    for path in (rttm, csv):
        lines = lines_of(str(path), units=path.suffix == ".csv")
        data = path.read_bytes()
        expected: dict = {}
        offset, current = lines.start, None
        for line in data[lines.start :].splitlines(keepends=True):
            cells = line.split(lines.separator) if lines.separator else line.split()
            named = (
                len(cells) > lines.field
                and line.strip()
                and not (lines.separator is None and line.lstrip().startswith(b";;"))
            )
            show = cells[lines.field].strip().decode() if named else None
            if show is not None and show != current:
                expected.setdefault(show, []).append([offset, None])
                current = show
            elif current is None:  # before the first line naming a show: with the first run
                pass
            offset += len(line)
        starts = sorted(run[0] for runs in expected.values() for run in runs)
        for runs in expected.values():
            for run in runs:
                later = [s for s in starts if s > run[0]]
                run[1] = later[0] if later else len(data)
        first = min(starts)
        expected = {show: [(lines.start if a == first else a, b) for a, b in runs] for show, runs in expected.items()}
        assert show_spans(str(path), lines, block=block) == expected, path.name


def test_a_units_table_with_quotes_is_read_whole(corpus, tmp_path, monkeypatch):
    # a quoted cell may hold a line end, so a CSV file with a quote is not cut by lines: the shards find the
    # quote in their parts (the parent does not search the file first), and every shard then reads the whole
    # table; here one show id is quoted, "show0150" (its cell is the same show once read)
    import tvseg.scale

    text = (corpus["folder"] / "units.csv").read_text().replace("\nshow0150,", '\n"show0150",')
    (tmp_path / "units.csv").write_text(text)
    files = _files(corpus["folder"], units=str(tmp_path / "units.csv"))
    settings = tvseg.Settings(bootstrap=50)
    one = _one_process(files, settings)
    plans = []
    plan = tvseg.scale._plan

    def recording(*args, **kwargs):
        plans.append(set(kwargs.get("whole", ())))
        return plan(*args, **kwargs)

    monkeypatch.setattr(tvseg.scale, "_plan", recording)
    same_run(one, recorded(lambda: evaluate_files(files, shards=4, segments=False, settings=settings)), segments=False)
    assert plans[-1] == {"units"}, plans


def _untitled_in(folder, path, shows, out):
    """``path`` (RTTM) with the title of each segment of ``shows`` replaced by <NA>, written to ``out``."""
    lines = []
    for line in path.read_text().splitlines(keepends=True):
        fields = line.split(" ")
        if fields[1] in shows:
            fields[7] = "<NA>"
        lines.append(" ".join(fields))
    out.write_text("".join(lines))
    return out


@pytest.mark.parametrize("chunk_shows", [1, 10, [25, 15], 40])
def test_titles_on_one_side_per_shard_are_scored_as_the_whole_corpus(corpus, tmp_path, chunk_shows):
    # 40 shows: the reference untitled in shows 0-9, system a in shows 10-19 (b everywhere): with
    # chunk_shows 1 or 10 the first shards hold a title on one side only, yet the corpus scores a's titles
    # (both sides have some, in shows 20-39 together), not b's. Every value of the shards' run is the whole run's, from
    # tvseg.evaluate on the same inputs (one shard: chunk_shows=40), the per-show components and the
    # per-segment title verdicts included
    shows = sorted(corpus["reference"])[:40]
    off_ref, off_a = set(shows[:10]), set(shows[10:20])
    folder = corpus["folder"]
    text = "".join((folder / "ref" / f"{show}.rttm").read_text() for show in shows)
    (tmp_path / "ref_all.rttm").write_text(text)
    reference = tvseg.read_segments(_untitled_in(folder, tmp_path / "ref_all.rttm", off_ref, tmp_path / "ref.rttm"))
    a = tvseg.read_segments(_untitled_in(folder, folder / "a.rttm", off_a, tmp_path / "a.rttm")).select(shows)
    hypotheses = {"a": a, "b": corpus["hypotheses"]["b"].select([s for s in shows if s in corpus["hypotheses"]["b"]])}
    settings = tvseg.Settings(bootstrap=50)
    one, one_caught = recorded(lambda: tvseg.evaluate(reference, hypotheses, settings=settings))
    many, many_caught = recorded(
        lambda: evaluate_sharded(reference, hypotheses, settings=settings, chunk_shows=chunk_shows)
    )
    assert one.systems["a"].titles and not one.systems["b"].titles
    assert one.to_json()["systems"]["a"]["corpus"]["title_f1"] > 0
    assert one.systems["a"].shows["title_f1"].iloc[:20].fillna(0).eq(0).all()
    assert json.dumps(many.to_json()) == json.dumps(one.to_json())
    assert many_caught == one_caught
    for name, sr in one.systems.items():
        other = many.systems[name]
        pd.testing.assert_frame_equal(other.scores.components, sr.scores.components, check_exact=True)
        pd.testing.assert_frame_equal(other.shows, sr.shows, check_exact=True)
        for verdict in ("reference_title_correct", "hypothesis_title_correct", "reference_title_f1"):
            got, want = getattr(other.scores, verdict), getattr(sr.scores, verdict)
            assert (got is None and want is None) or np.array_equal(got, want)


# ------------------------------------------------------------------ overlapping predictions, decided on the corpus


def _predictions(tmp_path, overlapping_shows):
    """A CSV reference of 12 shows of 3 segments, system ``seg`` (a CSV segmentation) and system ``dense``
    (ActivityNet predictions whose segments overlap in ``overlapping_shows`` only; ``x`` is a show the
    reference lacks)."""
    reference, seg, dense = ["show,start,end,label"], ["show,start,end,label"], {}
    for k in range(12):
        show = f"s{k:02d}"
        reference += [f"{show},0,40,headlines", f"{show},40,{90 + k},weather", f"{show},{90 + k},150,sports"]
        seg += [f"{show},0,{35 + k},headlines", f"{show},{35 + k},150,sports"]
        overlapping = [(0, 50, "headlines"), (30, 100 + k, "weather"), (95, 150, "sports")]
        dense[show] = overlapping if show in overlapping_shows else [(0, 45, "headlines"), (45, 150, "sports")]
    dense["x"] = [(0, 50, "a"), (20, 60, "b")] if "x" in overlapping_shows else [(0, 50, "a")]
    results = {show: [{"timestamp": [s, e], "sentence": text} for s, e, text in spans] for show, spans in dense.items()}
    paths = {name: tmp_path / f"{name}.csv" for name in ("ref", "seg")} | {"dense": tmp_path / "dense.json"}
    paths["ref"].write_text("\n".join(reference) + "\n", encoding="utf-8")
    paths["seg"].write_text("\n".join(seg) + "\n", encoding="utf-8")
    paths["dense"].write_text(json.dumps({"version": "VERSION 1.0", "results": results, "external_data": {}}))
    return paths


@pytest.mark.parametrize(
    "overlapping_shows",
    [
        [f"s{k:02d}" for k in range(12)],  # every shard finds the overlaps
        ["s10"],  # the last shard alone: the others score the system again as the corpus has it
        ["x"],  # a show the reference lacks, as one process decides it (on every show of the system)
    ],
)
def test_overlapping_predictions_are_scored_in_the_shards(tmp_path, monkeypatch, overlapping_shows):
    # a system whose segments overlap in some show is scored as dense-captioning predictions in every show, in
    # one process; in shards, each shard scores it so (not one process scoring the whole corpus again)
    import tvseg.scale

    paths = _predictions(tmp_path, overlapping_shows)
    reference = tvseg.read_segments(paths["ref"])
    hypotheses = {name: tvseg.read_segments(paths[name]) for name in ("seg", "dense")}
    settings = tvseg.Settings(bootstrap=100)
    one, one_caught = recorded(lambda: tvseg.evaluate(reference, hypotheses, settings=settings))
    assert "dense" in one.to_json()["systems"] and not one.systems["dense"].traits & {"disjoint"}
    scored = []
    score_shard = tvseg.scale.score_shard
    monkeypatch.setattr(
        tvseg.scale, "score_shard", lambda p, **kw: scored.append((len(p.shows), p.overlapping)) or score_shard(p, **kw)
    )
    monkeypatch.setattr(tvseg.scale, "evaluate", lambda *a, **kw: pytest.fail("scored again in one process"))
    many, many_caught = recorded(
        lambda: evaluate_sharded(reference, hypotheses, chunk_shows=[4, 4, 4], settings=settings)
    )
    assert json.dumps(many.to_json()) == json.dumps(one.to_json())
    assert many_caught == one_caught
    assert scored[-3:] == [(4, ("dense",))] * 3  # the last round: three shards, the system overlapping in each
    assert len(scored) == (3 if overlapping_shows[0] == "s00" else 6)


def test_overlapping_predictions_read_by_the_shards_and_by_processes(tmp_path):
    # tvseg evaluate --jobs 2 over files of overlapping predictions: the JSON bytes of one process
    from tvseg.cli import main

    paths = _predictions(tmp_path, ["s03", "s07"])
    argv = ["evaluate", "--reference", str(paths["ref"]), "--hypothesis", f"seg={paths['seg']}"]
    argv += ["--hypothesis", f"dense={paths['dense']}", "--bootstrap", "100"]
    texts = {}
    for name, extra in (("one", []), ("jobs", ["--jobs", "2"])):
        out = tmp_path / f"{name}.json"
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            assert main([*argv, *extra, "--json", str(out)]) == 0
        text = out.read_text(encoding="utf-8")
        texts[name] = text.replace(json.loads(text)["run_id"], "")
    assert texts["jobs"] == texts["one"]
