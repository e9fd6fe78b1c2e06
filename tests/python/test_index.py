"""abstracts.Index and what it returns: every method and parameter, on a real
index of the bundled corpus."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import abstracts
from conftest import CORPUS


def test_search_returns_ranked_hits_with_every_field(index: abstracts.Index) -> None:
    result = index.search("sparse attention", limit=3)
    assert len(result) == len(result.hits) == 3
    assert [h.rank for h in result.hits] == [1, 2, 3]
    assert result.hits[0].score >= result.hits[1].score >= result.hits[2].score > 0
    hit = result.hits[0]
    assert "sparse attention" in hit.text.lower()
    assert hit.title and hit.text.startswith(hit.title.rstrip("…")[:40])
    assert hit.venue == "NeurIPS" and hit.year == 2026 and hit.date == "2026"
    assert Path(hit.source).parent == CORPUS and hit.line > 0
    assert hit.authors == [] and hit.doi == "" and hit.arxiv == "" and hit.pmid == ""
    assert hit.abstract.id == hit.id and hit.abstract.title == hit.title
    # The line is the abstract's own in its file.
    lines = Path(hit.source).read_text(encoding="utf-8").split("\n")
    assert lines[hit.line - 1].startswith(hit.text[:30])
    assert result.indexed == 57 and result.total >= 3 and not result.corrected and result.notes == []
    assert list(result) == result.hits and result[0] is result.hits[0]
    assert "3 hits" in repr(result) and hit.id in repr(hit)


def test_highlights_are_str_indices_of_the_snippet(index: abstracts.Index) -> None:
    hit = index.search("attention", limit=1).hits[0]
    assert hit.highlights
    for begin, end in hit.highlights:
        assert hit.snippet[begin:end].lower().startswith("attention")
    # A snippet with a character of several bytes before a match still lines up.
    hits = index.search("tomorrow", limit=5).hits
    hit = next(h for h in hits if "’" in h.snippet or "…" in h.snippet or "*" in h.snippet)
    for begin, end in hit.highlights:
        assert hit.snippet[begin:end].lower().startswith("tomorrow")


def test_offset_limit_and_snippets(index: abstracts.Index) -> None:
    first = index.search("learning", limit=4)
    second = index.search("learning", limit=2, offset=2)
    assert [h.id for h in second.hits] == [h.id for h in first.hits[2:4]]
    assert [h.rank for h in second.hits] == [3, 4]
    plain = index.search("learning", limit=1, snippets=False)
    assert plain.hits[0].snippet == "" and plain.hits[0].highlights == []


def test_total_exact_or_estimated(index: abstracts.Index) -> None:
    exact = index.search("learning", limit=1, exact_total=True)
    assert exact.total_is_exact
    every = index.search("learning", limit=100, snippets=False)
    assert exact.total == len(every.hits)
    estimated = index.search("learning", limit=1)
    assert 1 <= estimated.total <= estimated.indexed


def test_sort_by_date(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        for year, word in [(2001, "old"), (2024, "new"), (2012, "middle")]:
            w.add({"id": word, "text": f"A study of graphene, the {word} one.", "date": str(year)})
    with abstracts.Index(tmp_path / "ix") as ix:
        assert [h.id for h in ix.search("graphene", sort="date").hits] == ["new", "middle", "old"]
        assert [h.id for h in ix.search("graphene", sort="oldest").hits] == ["old", "middle", "new"]
        with pytest.raises(ValueError, match="relevance"):
            ix.search("graphene", sort="newest")  # type: ignore[arg-type]


def test_within_keeps_hits_to_the_ids_given(index: abstracts.Index) -> None:
    everything = index.search("learning", limit=10)
    keep = [everything.hits[3].id, everything.hits[1].id]
    within = index.search("learning", within=keep)
    assert [h.id for h in within.hits] == [everything.hits[1].id, everything.hits[3].id]
    # Ranked as in the whole index: the same scores.
    assert within.hits[0].score == pytest.approx(everything.hits[1].score)
    assert [h.id for h in index.search("learning", within=keep[0]).hits] == [keep[0]]
    assert index.search("learning", within=[]).hits == []


def test_spelling_correction_and_notes(index: abstracts.Index) -> None:
    result = index.search("sparce atention", limit=2)
    assert result.corrected and result.suggestion == "sparse attention" and result.hits
    uncorrected = index.search("sparce atention", correct_spelling=False)
    assert not uncorrected.corrected and uncorrected.hits == [] and uncorrected.suggestion == "sparse attention"
    noted = index.search("examples: attention")
    assert noted.notes and "examples:" in noted.notes[0]


def test_plain_text_reads_no_syntax(index: abstracts.Index) -> None:
    with pytest.raises(abstracts.QueryError):
        index.search("attention year:20x6")
    assert index.search("attention year:20x6", plain=True).hits


def test_acronyms_expand_unless_told_not_to(index: abstracts.Index) -> None:
    acronyms = index.acronyms()
    assert acronyms and all(a.count >= 1 and a.short_form and a.long_form for a in acronyms)
    llm = [a for a in acronyms if a.short_form.rstrip("s") == "LLM"]
    assert llm and llm[0].long_form.startswith("large language model") and llm[0].used
    assert "LLM" in repr(llm[0])
    expanded = index.search("LLM", exact_total=True).total
    literal = index.search("LLM", exact_total=True, expand_acronyms=False).total
    assert expanded > literal


def test_similar_leaves_the_given_out(index: abstracts.Index) -> None:
    given = index.search("sparse attention", limit=1).hits[0]
    like = index.similar(given.id, limit=5)
    assert len(like.hits) == 5 and given.id not in [h.id for h in like.hits]
    assert [h.id for h in index.similar([given.id], limit=5).hits] == [h.id for h in like.hits]
    assert index.similar(["no-such-id"]).hits == []
    assert index.similar(given.id, limit=2, offset=1, snippets=False).hits[0].id == like.hits[1].id


def test_get_returns_the_abstract_or_none(index: abstracts.Index) -> None:
    hit = index.search("emergent misalignment", limit=1).hits[0]
    got = index.get(hit.id)
    assert got is not None and got.id == hit.id and got.text == hit.text and got.source == hit.source
    assert index.get("no-such-id") is None
    d = got.to_dict()
    assert d["id"] == hit.id and d["year"] == 2026 and d["authors"] == [] and d["line"] == hit.line
    assert hit.id in repr(got)


def test_stats(index: abstracts.Index, corpus_index: Path) -> None:
    stats = index.stats()
    assert stats.abstracts == 57 and stats.files == 3 and stats.terms > 1000
    assert stats.size_bytes > 0 and stats.average_length > 50 and stats.path == str(corpus_index)
    assert stats.vectors == 0 and stats.graph == 0  # none built
    assert index.path == str(corpus_index) and "57 abstracts" in repr(stats)


def test_facets_over_the_index_and_over_a_query(index: abstracts.Index) -> None:
    assert index.facets("year") == [("2026", 57)]
    assert index.facets("venue") == [("NeurIPS", 57)]
    matching = index.search("attention", exact_total=True).total
    assert index.facets("venue", "attention") == [("NeurIPS", matching)]
    assert index.facets("author") == [] and index.facets("category", limit=5) == []
    assert index.facets("tag") == [] and index.facets("collection") == []
    with pytest.raises(ValueError, match="field"):
        index.facets("colour")  # type: ignore[arg-type]
    with pytest.raises(abstracts.QueryError):
        index.facets("year", "attention year:20x6")


def test_facets_of_authors_and_limit(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        w.add({"text": "Spin glasses at low temperature.", "authors": ["Parisi, Giorgio", "Mézard, Marc"]})
        w.add({"text": "Replica symmetry breaking in spin glasses.", "authors": [("Parisi", "Giorgio")]})
    with abstracts.Index(tmp_path / "ix") as ix:
        assert ix.facets("author") == [("Giorgio Parisi", 2), ("Marc Mézard", 1)]
        assert ix.facets("author", limit=1) == [("Giorgio Parisi", 2)]
        assert ix.facets("author", "replica") == [("Giorgio Parisi", 1)]


def test_to_dict_to_dicts_and_to_pandas(index: abstracts.Index) -> None:
    result = index.search("attention", limit=5)
    dicts = result.to_dicts()
    assert dicts == [h.to_dict() for h in result.hits]
    d = dicts[0]
    assert d["rank"] == 1 and d["id"] == result.hits[0].id and d["snippet"] == result.hits[0].snippet
    json.dumps(dicts)  # plain data
    frame = result.to_pandas()
    assert list(frame["id"]) == [h.id for h in result.hits]
    assert list(frame.columns) == list(d)
    empty = index.search("zzzzqqqq", correct_spelling=False).to_pandas()
    assert len(empty) == 0 and list(empty.columns) == list(d)


def test_export_as_citations(index: abstracts.Index) -> None:
    result = index.search("emergent misalignment", limit=2)
    bib = result.export("bibtex")
    assert bib.count("@inproceedings{") == 2 and result.hits[0].id in bib
    assert abstracts.export(result.hits, "bibtex") == bib
    abstract = index.get(result.hits[0].id)
    assert abstract is not None
    csl = json.loads(abstracts.export([abstract], format="csl-json"))
    assert csl[0]["id"] == abstract.id and csl[0]["container-title"] == "NeurIPS"
    assert "TY  - CONF" in abstracts.export(result.hits, "ris")
    assert "@inproceedings" in abstracts.export(result.hits, "biblatex")
    assert json.loads(abstracts.export([], "csl-json")) == []
    # A note names the source relative to relative_to, and no absolute path is written.
    noted = json.loads(abstracts.export(result.hits[:1], "csl-json", relative_to=CORPUS.parent))
    assert noted[0]["note"] == f"corpus/{Path(result.hits[0].source).name}:{result.hits[0].line}"
    assert "note" not in csl[0]
    assert str(CORPUS) not in bib
    with pytest.raises(ValueError, match="bibtex"):
        abstracts.export(result.hits, "endnote")
    with pytest.raises(TypeError, match="str"):
        abstracts.export(["an id"])  # type: ignore[list-item]


def test_index_as_context_manager_and_close(corpus_index: Path) -> None:
    with abstracts.Index(corpus_index) as ix:
        assert ix.search("attention").hits
    with pytest.raises(ValueError, match="closed"):
        ix.search("attention")
    ix.close()  # idempotent
    other = abstracts.Index(str(corpus_index))
    other.close()
    with pytest.raises(ValueError, match="closed"):
        other.stats()


def test_default_builds_the_bundled_corpus_on_first_use(
    clean_env: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    ix = abstracts.Index.default()
    assert ix.path == str(clean_env / ".local" / "share" / "abstracts" / "index")
    assert ix.search("sparse attention").hits[0].title.startswith("Sparse attention")
    assert "indexing the bundled corpus" in capfd.readouterr().err
    ix.close()
    again = abstracts.Index.default()  # built once
    assert "indexing" not in capfd.readouterr().err and again.stats().abstracts == 57


def test_default_follows_the_cli_variables(clean_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert abstracts.default_index_dir() == tmp_path / "data" / "abstracts" / "index"
    monkeypatch.setenv("ABSTRACTS_INDEX", str(tmp_path / "named"))
    assert abstracts.default_index_dir() == tmp_path / "named"
    # A named index is never built: it is an error to miss it, as for the CLI.
    with pytest.raises(abstracts.IndexNotFound):
        abstracts.Index.default()
    assert abstracts.corpus_dir() == CORPUS
    monkeypatch.setenv("ABSTRACTS_CORPUS", "/elsewhere")
    assert abstracts.corpus_dir() == Path("/elsewhere")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    info = abstracts.version_info()
    assert abstracts.__version__ == info["library"] and info["xapian"].startswith("1.4")
    assert set(info) == {"library", "xapian", "icu", "schema"}
    assert sys.modules["abstracts"].__all__
