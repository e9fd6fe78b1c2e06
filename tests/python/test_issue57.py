"""Issue 57. Finding 14: a value of the wrong type, or one C++ cannot hold, is a
TypeError wherever the package takes one (it was RuntimeError "Unable to
cast"), and Writer.add() refuses an abstract a file's record would not give
(no text, over 16 MiB, a date that is none). Finding 9: a search within
100,000 ids keeps the whole index's ranking of those listed (its time, linear
in the ids, is measured by scripts/bench-memory)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import pytest

import abstracts
from conftest import write_text_file

ABSTRACTS = 3000


@pytest.fixture(scope="module")
def okapis(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of 3,000 abstracts weighing "okapis" differently."""
    folder = tmp_path_factory.mktemp("okapis")
    lines = [
        "Okapis" + " browse" * (1 + i % 7) + " okapis" * (i % 3) + f" in study number {i}."
        for i in range(ABSTRACTS)
    ]
    write_text_file(folder / "okapis.txt", lines)
    with abstracts.Writer(folder / "index") as w:
        assert w.index([folder / "okapis.txt"]).failed == 0
    return folder / "index"


def test_within_100000_ids_keeps_their_hits_ranked_as_in_the_whole_index(okapis: Path) -> None:
    with abstracts.Index(okapis) as ix:
        whole = ix.search("okapis", limit=ABSTRACTS, snippets=False)
        assert len(whole.hits) == ABSTRACTS
        listed = [h.id for h in whole.hits[1::2]]
        ids = listed + listed[:500] + [f"unknown-{i}" for i in range(100_000 - len(listed) - 500)]
        random.Random(57).shuffle(ids)
        assert len(ids) == 100_000
        keep = set(listed)
        expected = [(h.id, h.score) for h in whole.hits if h.id in keep]
        got = ix.search("okapis", limit=ABSTRACTS, within=ids, snippets=False, exact_total=True)
        assert [h.id for h in got.hits] == [i for i, _ in expected]
        assert [h.score for h in got.hits] == pytest.approx([s for _, s in expected])
        assert got.total == len(expected) and got.total_is_exact
        # A tuple or a generator does as well as a list; none listed, no hits.
        assert [h.id for h in ix.search("okapis", within=tuple(ids), limit=5).hits] == [i for i, _ in expected[:5]]
        assert [h.id for h in ix.search("okapis", within=(i for i in ids), limit=5).hits] == [
            i for i, _ in expected[:5]
        ]
        assert ix.search("okapis", within=[f"unknown-{i}" for i in range(100_000)]).hits == []
        assert ix.search("okapis", within=[]).hits == []


def test_get_many_gives_each_ids_abstract_in_order(okapis: Path) -> None:
    with abstracts.Index(okapis) as ix:
        ids = [h.id for h in ix.search("okapis", limit=5).hits]
        got = ix.get_many(ids[:2] + ["no-such-id"] + ids[2:])
        assert [a.id if a else None for a in got] == ids[:2] + [None] + ids[2:]
        assert [a.id for a in ix.get_many(ids[0]) if a] == [ids[0]]  # a lone str is one id
        assert ix.get_many([]) == []


SURROGATE = "\ud800"  # a lone surrogate: a str UTF-8 cannot encode


@pytest.mark.parametrize(
    "record",
    [
        {"text": 5},
        {"text": SURROGATE},
        {"text": b"bytes"},
        {"text": "ok", "title": None},
        {"text": "ok", "year": 2**70},
        {"text": "ok", "year": -(2**40)},
        {"text": "ok", "year": 2020.0},
        {"text": "ok", "year": "2020"},
        {"text": "ok", "date": 20200101},
        {"text": "ok", "date": SURROGATE},
        {"text": "ok", "line": -1},
        {"text": "ok", "line": 2**32},
        {"text": "ok", "categories": [5]},
        {"text": "ok", "categories": 5},
        {"text": "ok", "tags": [SURROGATE]},
        {"text": "ok", "authors": [5]},
        {"text": "ok", "authors": [("Family", 5)]},
        {"text": "ok", "authors": [{"family": SURROGATE}]},
        {"text": "ok", "authors": 5},
        {"text": "ok", SURROGATE: "x"},
        {"text": "ok", 5: "x"},
        5,
        "text",
        None,
    ],
    ids=repr,
)
def test_a_record_value_of_another_type_is_a_type_error(tmp_path: Path, record: Any) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        with pytest.raises(TypeError):
            w.add(record)
        assert len(w) == 0


def calls(ix: abstracts.Index, index_path: Path) -> list[Callable[[], object]]:
    """Every call that takes the user's values, given one of another type or
    one C++ cannot hold."""
    hit = ix.search("okapis", limit=1).hits[0]
    return [
        lambda: ix.search(SURROGATE),
        lambda: ix.search(5),
        lambda: ix.search("okapis", limit=2**70),
        lambda: ix.search("okapis", limit=-1),
        lambda: ix.search("okapis", within=[5]),
        lambda: ix.search("okapis", within=[SURROGATE]),
        lambda: ix.search("okapis", within=SURROGATE),
        lambda: ix.search("okapis", within=5),
        lambda: ix.search("okapis", time_limit="1"),
        lambda: ix.similar([5]),
        lambda: ix.similar(SURROGATE),
        lambda: ix.similar(5),
        lambda: ix.get(5),
        lambda: ix.get(SURROGATE),
        lambda: ix.get_many([5]),
        lambda: ix.get_many(SURROGATE),
        lambda: ix.get_many(5),
        lambda: ix.facets("year", query=SURROGATE),
        lambda: ix.facets("year", limit=2**70),
        lambda: ix.facets(5),
        lambda: abstracts.export([hit, 5]),
        lambda: abstracts.export([hit], format=SURROGATE),
        lambda: abstracts.export([hit], relative_to=5),
        lambda: abstracts.Index(5),
        lambda: abstracts.Writer(index_path.parent / "w", shard=5),
    ]


def test_every_call_given_a_value_of_another_type_raises_type_error(okapis: Path) -> None:
    with abstracts.Index(okapis) as ix:
        for i, call in enumerate(calls(ix, okapis)):
            with pytest.raises(TypeError):
                call()
                pytest.fail(f"call {i} raised nothing")


def test_writer_calls_given_values_of_another_type_raise_type_error(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        for call in [
            lambda: w.remove(SURROGATE),
            lambda: w.remove(5),
            lambda: w.index([5]),
            lambda: w.index(["x"], globs=[SURROGATE]),
            lambda: w.build_vectors(epochs=-1),
            lambda: w.build_vectors(train_on=[5]),
        ]:
            with pytest.raises(TypeError):
                call()


@pytest.mark.parametrize(
    "record, says",
    [
        ({"text": "x" * (100 << 20)}, "MiB"),
        ({"text": "okapis", "authors": ["A" * 1000 + ", B."] * 20000}, "MiB"),
        ({"text": ""}, "no text"),
        ({"text": " \n\t "}, "no text"),
        ({"text": "{}", "title": "A title alone"}, "no text"),
        ({"text": "okapis", "date": "99999-99-99"}, "99999-99-99"),
        ({"text": "okapis", "date": "2020-13"}, "2020-13"),
        ({"text": "okapis", "date": "2020-02-32"}, "2020-2-32"),
        ({"text": "okapis", "year": 99999}, "99999"),
        ({"text": "okapis", "year": 999}, "999"),
    ],
    ids=lambda v: repr(v)[:40] if isinstance(v, dict) else str(v),
)
def test_add_refuses_what_a_file_would_not_give(tmp_path: Path, record: dict[str, Any], says: str) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        with pytest.raises(abstracts.InputError) as refused:
            w.add(record)
        assert says in str(refused.value)
        assert refused.value.hint
        assert len(w) == 0


def test_add_keeps_a_text_over_1_mib_cut_as_a_files_record(tmp_path: Path) -> None:
    text = "Okapis browse at dusk. " * 100_000  # 2.3 MB
    with abstracts.Writer(tmp_path / "ix") as w:
        added = w.add({"text": text, "date": "2020-02-29"})
    with abstracts.Index(tmp_path / "ix") as ix:
        stored = ix.get(added)
    assert stored is not None and stored.date == "2020-02-29"
    assert 1_000_000 < len(stored.text.encode()) <= 1 << 20 and stored.text.endswith("\u2026")
