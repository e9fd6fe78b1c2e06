"""Shared fixtures of the Python tests: real on-disk indexes, built by the real
module (abstracts, from PYTHONPATH=build/*/python; ctest sets it, see
tests/CMakeLists.txt)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

import abstracts

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"


def write_text_file(path: Path, lines: list[str], header: str = "NeurIPS 2026 Papers") -> Path:
    """A file in the bundled text format: a header, then one abstract a line."""
    path.write_text(header + "\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def corpus_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of the bundled corpus, built once for the session (read-only)."""
    path = tmp_path_factory.mktemp("corpus") / "index"
    with abstracts.Writer(path) as writer:
        summary = writer.index([CORPUS])
    assert summary.failed == 0 and summary.abstracts > 0
    return path


@pytest.fixture
def index(corpus_index: Path) -> Iterator[abstracts.Index]:
    with abstracts.Index(corpus_index) as ix:
        yield ix


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No ABSTRACTS_* variable, and a home of the test's own."""
    for name in list(os.environ):
        if name.startswith("ABSTRACTS_") or name == "XDG_DATA_HOME":
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home
