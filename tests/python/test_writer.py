"""abstracts.Writer: indexing files and folders, adding from dicts, removing,
committing, the summary and the progress callback, on real indexes."""

from __future__ import annotations

from pathlib import Path

import pytest

import abstracts
from conftest import CORPUS, write_text_file

RECORD = {
    "title": "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies",
    "text": "A fully differential calculation in perturbative quantum chromodynamics is presented.",
    "authors": ["Bal\\'azs, C.", ("Berger", "E. L."), {"family": "Nadolsky", "given": "P. M."}],
    "date": "2007-04-02",
    "venue": "Physical Review D",
    "doi": "10.1103/PhysRevD.76.013009",
    "arxiv": "0704.0001v2",
    "categories": ["hep-ph"],
    "volume": "76",
    "pages": "013009",
}


def test_index_a_folder_returns_the_summary(tmp_path: Path) -> None:
    seen: list[abstracts.Progress] = []
    with abstracts.Writer(tmp_path / "ix") as w:
        summary = w.index([CORPUS], progress=seen.append)
        assert len(w) == 57
    assert summary.failed == 0 and summary.errors == [] and summary.abstracts == 57
    assert [Path(f.path).parent for f in summary.files] == [CORPUS] * 3
    assert {f.status for f in summary.files} == {"indexed"} and sum(f.abstracts for f in summary.files) == 57
    assert seen and seen[-1].bytes_done == seen[-1].bytes_total > 0 and seen[-1].abstracts == 57
    assert "3 files" in repr(summary) and "indexed" in repr(summary.files[0]) and "57" in repr(seen[-1])
    # Again: every file unchanged.
    with abstracts.Writer(tmp_path / "ix") as w:
        again = w.index([str(CORPUS)], threads=1)
    assert {f.status for f in again.files} == {"unchanged"} and again.abstracts == 57


def test_a_bad_file_raises_or_is_listed_with_keep_going(tmp_path: Path) -> None:
    good = write_text_file(tmp_path / "good.txt", ["Graphene conducts heat remarkably well."])
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"NeurIPS 2026\n\nAn abstract with a bad byte \xff here.\n")
    with abstracts.Writer(tmp_path / "ix") as w:
        with pytest.raises(abstracts.InputError) as raised:
            w.index([good, bad])
        assert raised.value.file.endswith("bad.txt") and raised.value.line == 3
    with abstracts.Writer(tmp_path / "ix2") as w:
        summary = w.index([bad, good], keep_going=True)
    assert summary.failed == 1 and len(summary.errors) == 1
    error = summary.errors[0]
    assert isinstance(error, abstracts.InputError) and "UTF-8" in str(error) and error.line == 3
    with abstracts.Index(tmp_path / "ix2") as ix:
        assert ix.search("graphene").hits


def test_rejected_records_are_warnings_unless_strict(tmp_path: Path) -> None:
    jsonl = tmp_path / "records.jsonl"
    jsonl.write_text('{"_id": "a", "title": "T", "text": "Perovskite solar cells."}\n{"_id": "b", oops\n')
    with abstracts.Writer(tmp_path / "ix") as w:
        summary = w.index([jsonl])
    assert summary.files[0].rejected == 1 and len(summary.warnings) == 1
    assert "records.jsonl:2" in summary.warnings[0]
    with abstracts.Writer(tmp_path / "strict") as w:
        with pytest.raises(abstracts.InputError):
            w.index([jsonl], strict=True)


def test_globs_choose_the_files_of_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    write_text_file(folder / "keep.txt", ["Superconductivity in twisted bilayer graphene."])
    write_text_file(folder / "drop.txt", ["Protein folding with deep networks."])
    with abstracts.Writer(tmp_path / "ix") as w:
        summary = w.index([folder], globs=["keep*"])
    assert [Path(f.path).name for f in summary.files] == ["keep.txt"]


def test_add_from_a_dict_and_get_it_back(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        added = w.add(RECORD)
        assert added == "10.1103/physrevd.76.013009"
    with abstracts.Index(tmp_path / "ix") as ix:
        a = ix.get(added)
        assert a is not None
        assert a.authors == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky"] and a.author_count == 3
        assert a.date == "2007-04-02" and (a.year, a.month, a.day) == (2007, 4, 2)
        assert a.doi == added and a.arxiv == "0704.0001" and a.categories == ["hep-ph"]
        assert a.venue == "Physical Review D" and a.volume == "76" and a.pages == "013009"
        assert a.source == "" and a.line == 0
        assert ix.search("diphoton").hits[0].id == added
        assert ix.facets("author", limit=1) == [("C. Balázs", 1)]
        # to_dict() goes back in as it came out.
        d = a.to_dict()
        d["id"] = "copy"
        d["doi"] = ""
        d["arxiv"] = ""
    with abstracts.Writer(tmp_path / "ix") as w:
        assert w.add(d) == "copy"
    with abstracts.Index(tmp_path / "ix") as ix:
        copy = ix.get("copy")
        assert copy is not None and copy.authors == a.authors and copy.date == a.date and copy.title == a.title


def test_add_derives_id_and_title(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        added = w.add({"text": "Pok\\'emon cards as a toy model of trading. More follows."})
    assert len(added) == 12
    with abstracts.Index(tmp_path / "ix") as ix:
        a = ix.get(added)
        assert a is not None and a.title == "Pokémon cards as a toy model of trading"


def test_add_refuses_a_bad_record(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        with pytest.raises(ValueError, match="text"):
            w.add({"title": "No text"})
        with pytest.raises(TypeError, match="titel"):
            w.add({"text": "x", "titel": "typo"})
        with pytest.raises(TypeError, match="list"):
            w.add({"text": "x", "authors": "Parisi, Giorgio"})
        with pytest.raises(ValueError, match="date"):
            w.add({"text": "x", "date": "April 2007"})
        with pytest.raises(TypeError):
            w.add({"text": "x", "authors": [42]})
        assert len(w) == 0


def test_remove_and_commit_make_changes_visible(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        w.add({"id": "one", "text": "Topological insulators."})
        w.commit()
        with abstracts.Index(tmp_path / "ix") as ix:
            assert [h.id for h in ix.search("topological").hits] == ["one"]
            w.add({"id": "two", "text": "Topological order in spin liquids."})
            assert len(ix.search("topological").hits) == 1  # not committed yet
            w.commit()
            assert len(ix.search("topological").hits) == 2
            assert w.remove("one") and not w.remove("one")
            assert len(w) == 1
            w.commit()
            assert [h.id for h in ix.search("topological").hits] == ["two"]


def test_close_commits_and_lets_the_lock_go(tmp_path: Path) -> None:
    w = abstracts.Writer(tmp_path / "ix")
    w.add({"id": "one", "text": "Quantum error correction."})
    with pytest.raises(abstracts.IndexLocked):
        abstracts.Writer(tmp_path / "ix")
    w.close()
    w.close()  # idempotent
    with pytest.raises(ValueError, match="closed"):
        w.add({"text": "x"})
    with abstracts.Writer(tmp_path / "ix") as again:  # the lock is free
        assert len(again) == 1
    with abstracts.Index(tmp_path / "ix") as ix:
        assert ix.get("one") is not None


def test_a_callback_of_index_cannot_use_the_writer(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:

        def progress(p: abstracts.Progress) -> None:
            w.add({"text": "From inside the run."})  # would wait for itself

        with pytest.raises(ValueError, match="busy"):
            w.index([CORPUS], progress=progress)
        w.add({"id": "after", "text": "After the run, the writer is free."})
        assert len(w) == 1


def test_file_reports_say_what_became_of_each_file(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    write_text_file(folder / "a.txt", ["Magnetic skyrmions in thin films.", "Quantum Hall effect in graphene."])
    write_text_file(folder / "b.txt", ["Quantum Hall effect in graphene."])  # the same paper again
    (folder / "paper.pdf").write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    with abstracts.Writer(tmp_path / "ix") as w:
        first = {Path(f.path).name: f for f in w.index([folder]).files}
    assert first["paper.pdf"].status == "skipped" and first["paper.pdf"].kind == "PDF"
    assert first["a.txt"].abstracts == 2 and first["a.txt"].skipped == 0 and first["a.txt"].rejected == 0
    assert first["a.txt"].same_paper + first["b.txt"].same_paper == 1
    (folder / "a.txt").unlink()
    with abstracts.Writer(tmp_path / "ix") as w:
        again = {Path(f.path).name: f for f in w.index([folder]).files}
        assert again["a.txt"].status == "removed" and again["a.txt"].removed == 1
        assert again["b.txt"].status == "unchanged" and len(w) == 1
