"""examples/python/reading_list.py, run as a user runs it, on a real index of the
bundled corpus: add, list, search within the list, suggest, export, remove. Its
list file is the C++ example's (examples/reading-list/), which reads it too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import abstracts
from conftest import ROOT

SCRIPT = ROOT / "examples" / "python" / "reading_list.py"


def run(index: Path, listed: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--index", str(index), "--list", str(listed), *args],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip


def test_add_search_suggest_export_remove(corpus_index: Path, tmp_path: Path) -> None:
    listed = tmp_path / "list.txt"
    with abstracts.Index(corpus_index) as ix:
        misaligned = ix.search('"emergent misalignment"', limit=2).hits
        attention = ix.search('"sparse attention"', limit=1).hits[0]
    ids = [h.id for h in misaligned] + [attention.id]

    added = run(corpus_index, listed, "add", *ids)
    assert added.returncode == 0, added.stderr
    text = listed.read_text()
    assert text.startswith("# reading-list:") and f"{ids[0]}  # {misaligned[0].title}" in text

    again = run(corpus_index, listed, "add", ids[0])
    assert again.returncode == 0 and "on the list already" in again.stderr
    unknown = run(corpus_index, listed, "add", "nosuchid")
    assert unknown.returncode == 2 and "error: not in the index: nosuchid" in unknown.stderr
    assert "hint:" in unknown.stderr

    listing = run(corpus_index, listed, "list", "--json")
    assert [json.loads(line)["id"] for line in listing.stdout.splitlines()] == ids

    # Search within the list: only listed abstracts, ranked as in the whole index.
    within = run(corpus_index, listed, "search", "attention", "--json")
    assert within.returncode == 0
    assert [json.loads(line)["id"] for line in within.stdout.splitlines()] == [attention.id]
    nothing = run(corpus_index, listed, "search", "protein")
    assert nothing.returncode == 1 and nothing.stdout == ""
    corrected = run(corpus_index, listed, "search", "atention")
    assert corrected.returncode == 0 and 'showing those of "attention"' in corrected.stderr

    suggested = run(corpus_index, listed, "suggest", "-n", "3", "--json")
    got = [json.loads(line)["id"] for line in suggested.stdout.splitlines()]
    assert len(got) == 3 and not set(got) & set(ids)

    bib = run(corpus_index, listed, "export", "--format", "bibtex")
    assert bib.stdout.count("@inproceedings{") == 3
    assert bib.stdout.index(ids[0]) < bib.stdout.index(ids[2])  # list order
    csl = json.loads(run(corpus_index, listed, "export", "--format", "csl-json").stdout)
    assert [item["id"] for item in csl] == ids and csl[0]["note"].startswith("corpus/")

    removed = run(corpus_index, listed, "remove", ids[1])
    assert removed.returncode == 0 and ids[1] not in listed.read_text()
    assert run(corpus_index, listed, "remove", ids[1]).returncode == 2
    assert [p.name for p in tmp_path.iterdir()] == ["list.txt"]  # no temporary file left


def test_the_cpp_example_reads_the_same_list(corpus_index: Path, tmp_path: Path) -> None:
    cpp = os.environ.get("ABSTRACTS_READING_LIST_BIN")
    if not cpp:
        pytest.skip("ABSTRACTS_READING_LIST_BIN is not set (ctest sets it)")
    listed = tmp_path / "list.txt"
    with abstracts.Index(corpus_index) as ix:
        ids = [h.id for h in ix.search("learning", limit=3).hits]
    assert run(corpus_index, listed, "add", *ids).returncode == 0
    out = subprocess.run([cpp, "--index", str(corpus_index), "--list", str(listed), "list", "--json"],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert [json.loads(line)["id"] for line in out.splitlines()] == ids
    py = run(corpus_index, listed, "export", "--format", "ris").stdout
    cc = subprocess.run([cpp, "--index", str(corpus_index), "--list", str(listed), "export", "--format", "ris"],
                        capture_output=True, text=True, check=True, cwd=ROOT).stdout  # fmt: skip
    assert py == cc
