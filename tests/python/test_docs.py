"""Every ```python block of docs/python.md and README.md runs, in order, as the
notebook it is, on the bundled corpus; what the walk-through makes is checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from docs_code import as_script, python_blocks

PAGES = [ROOT / "docs" / "python.md", ROOT / "README.md"]


def run_page(page: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ABSTRACTS_") and k != "XDG_DATA_HOME"}
    env["HOME"] = str(home)
    env.pop("MPLBACKEND", None)  # the page chooses Agg itself
    env["MPLCONFIGDIR"] = str(tmp_path / "mpl")
    script = tmp_path / "page.py"
    script.write_text(as_script(page), encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True)


def test_every_page_has_examples() -> None:
    assert len(python_blocks(PAGES[0])) >= 5 and python_blocks(PAGES[1])


def test_the_walk_through_runs_and_makes_its_files(tmp_path: Path) -> None:
    done = run_page(PAGES[0], tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "59 abstracts from 3 files" not in out and "57 abstracts from 3 files" in out
    assert "showing hits of: sparse attention" in out
    assert "('2017', 1)" in out and "('2026', 57)" in out and "Ashish Vaswani" in out
    png = (tmp_path / "years.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000
    bib = (tmp_path / "hits.bib").read_text()
    assert bib.count("@") == 5 and "eprint      = {1904.10509}" in bib
    assert len(json.loads((tmp_path / "hits.json").read_text())) == 5
    csv = (tmp_path / "hits.csv").read_text().splitlines()
    assert csv[0].startswith("rank,score,id,title") and len(csv) >= 6
    # The default index: built in the home, from the bundled corpus.
    assert (tmp_path / "home" / ".local" / "share" / "abstracts" / "index").is_dir()
    assert out.rstrip().splitlines()[-1].startswith("Sparse attention is becoming")


def test_the_readme_examples_run(tmp_path: Path) -> None:
    done = run_page(PAGES[1], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
