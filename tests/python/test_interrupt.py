"""Stopping a long index run: Ctrl-C (SIGINT) and an exception from the progress
callback stop Writer.index() cleanly, keeping what was committed."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import abstracts
from conftest import write_text_file

WORDS = ("graphene lattice boson fermion protein kinase neural network galaxy halo quantum spin glass "
         "catalyst enzyme polymer topology manifold entropy plasma tokamak genome sequencing").split()  # fmt: skip


def make_files(folder: Path, files: int, per_file: int) -> None:
    """`files` files of `per_file` distinct abstracts each, in the bundled text format."""
    folder.mkdir()
    rng = random.Random(45)
    for f in range(files):
        lines = [f"Paper {f}-{i}: " + " ".join(rng.choice(WORDS) for _ in range(40)) for i in range(per_file)]
        write_text_file(folder / f"part-{f:03d}.txt", lines)


def test_an_exception_from_progress_stops_a_bulk_build(tmp_path: Path) -> None:
    make_files(tmp_path / "in", 3, 2500)  # progress comes every 2,000 abstracts

    class Stop(Exception):
        pass

    def progress(p: abstracts.Progress) -> None:
        raise Stop(p.abstracts)

    with abstracts.Writer(tmp_path / "ix") as w:
        with pytest.raises(Stop) as raised:
            w.index([tmp_path / "in"], progress=progress)
        assert 0 < raised.value.args[0] < 7500
        # A bulk build publishes nothing until it is whole, and the writer goes on.
        assert len(w) == 0
        w.add({"text": "The writer still works."})
    with abstracts.Index(tmp_path / "ix") as ix:
        assert ix.stats().abstracts == 1
    assert [p.name for p in (tmp_path / "ix").iterdir() if p.name.startswith("tmp-")] == []


def test_sigint_in_the_process_raises_keyboard_interrupt(tmp_path: Path) -> None:
    make_files(tmp_path / "in", 20, 20)
    calls = []

    def progress(p: abstracts.Progress) -> None:
        calls.append(p.abstracts)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)

    with abstracts.Writer(tmp_path / "ix") as w:
        w.add({"id": "first", "text": "Committed before the run."})
        w.commit()
        with pytest.raises(KeyboardInterrupt):
            w.index([tmp_path / "in"], progress=progress)
    assert len(calls) == 2  # stopped at once
    with abstracts.Index(tmp_path / "ix") as ix:
        # Whole files only: the one committed before, and two files of 20.
        assert ix.stats().abstracts == 1 + 2 * 20


CHILD = textwrap.dedent("""
    import sys
    import abstracts

    index, folder = sys.argv[1], sys.argv[2]
    with abstracts.Writer(index) as w:
        w.add({"id": "first", "text": "Committed before the run."})
        w.commit()
        told = False

        def progress(p):
            global told
            if not told:
                print("indexing", flush=True)
                told = True

        try:
            w.index([folder], progress=progress)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
    with abstracts.Index(index) as ix:
        print(ix.stats().abstracts, flush=True)
""")


def test_ctrl_c_stops_a_long_run_keeping_whole_files(tmp_path: Path) -> None:
    make_files(tmp_path / "in", 300, 100)  # indexed file by file: the index has an abstract
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path / "ix"), str(tmp_path / "in")],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "indexing\n"
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    lines = out.split()
    assert child.returncode == 0 and lines[0] == "interrupted", out
    count = int(lines[1])
    assert 1 <= count < 1 + 300 * 100 and (count - 1) % 100 == 0
    with abstracts.Writer(tmp_path / "ix") as w:  # the lock was let go
        assert len(w) == count
