"""One Index shared by Python threads: the same answers as one thread gives.
(That they run in parallel, the GIL let go, is measured by scripts/bench-python.)"""

from __future__ import annotations

import threading
from pathlib import Path

import abstracts

QUERIES = [
    "sparse attention", "\"large language models\"", "reinforcement learning AND reward",
    "diffusion NOT image", "graph neural networks for molecules", "LLM", "agent*", "benchmark",
    "quantum", "how do transformers generalize beyond their training data",
]  # fmt: skip


def answers(index: abstracts.Index) -> list[list[tuple[str, float, str]]]:
    return [[(h.id, h.score, h.snippet) for h in index.search(q, limit=20).hits] for q in QUERIES]


def test_two_threads_get_the_answers_of_one(corpus_index: Path) -> None:
    with abstracts.Index(corpus_index) as index:
        expected = answers(index)
        assert all(expected) and len({str(a) for a in expected}) >= 8  # different answers to compare
        got: dict[int, list[list[list[tuple[str, float, str]]]]] = {0: [], 1: []}
        errors: list[BaseException] = []
        start = threading.Barrier(2)

        def run(n: int) -> None:
            try:
                start.wait()
                for _ in range(10):
                    got[n].append(answers(index))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=run, args=(n,)) for n in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        for n in (0, 1):
            assert len(got[n]) == 10 and all(a == expected for a in got[n])


def test_a_writer_and_readers_in_threads(tmp_path: Path) -> None:
    path = tmp_path / "ix"
    with abstracts.Writer(path) as w:
        w.add({"id": "seed", "text": "Seed abstract about photonic crystals."})
    seen: list[int] = []
    errors: list[BaseException] = []

    def read() -> None:
        try:
            with abstracts.Index(path) as ix:
                for _ in range(50):
                    seen.append(len(ix.search("photonic", limit=100).hits))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    reader = threading.Thread(target=read)
    with abstracts.Writer(path) as w:
        reader.start()
        for i in range(30):
            w.add({"id": f"p{i}", "text": f"Photonic crystal number {i} guides light."})
            w.commit()
    reader.join()
    assert errors == [] and len(seen) == 50
    assert seen == sorted(seen) and 1 <= seen[0] and seen[-1] <= 31
    with abstracts.Index(path) as ix:
        assert len(ix.search("photonic", limit=100).hits) == 31
