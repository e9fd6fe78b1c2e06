"""The library's errors as Python exceptions: every class of the tree, raised by
the real engine, with the library's message and hint."""

from __future__ import annotations

import socket
import traceback
from pathlib import Path

import pytest

import abstracts
from conftest import CORPUS, write_text_file


def test_the_tree() -> None:
    for cls in (abstracts.IndexNotFound, abstracts.IndexLocked, abstracts.CorruptIndex, abstracts.QueryError,
                abstracts.InputError, abstracts.ShardUnavailable):  # fmt: skip
        assert issubclass(cls, abstracts.Error) and cls.__module__ == "abstracts"
    assert issubclass(abstracts.Error, Exception) and issubclass(abstracts.QueryError, ValueError)


def test_query_error_has_the_column_and_hint(index: abstracts.Index) -> None:
    with pytest.raises(abstracts.QueryError) as raised:
        index.search("attention year:20x6")
    e = raised.value
    assert str(e) == "year:20x6 at column 11 is not a year or a range of years"
    assert e.column == 11 and e.hint.startswith("write year:2026")
    # The hint is shown under the traceback, as the CLI's "hint:" line.
    assert f"hint: {e.hint}" in "".join(traceback.format_exception(e))


def test_index_not_found(tmp_path: Path) -> None:
    with pytest.raises(abstracts.IndexNotFound) as raised:
        abstracts.Index(tmp_path / "none")
    assert str(raised.value) == f"no index at {tmp_path / 'none'}" and "Writer" in raised.value.hint


def test_index_locked(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix"):
        with pytest.raises(abstracts.IndexLocked) as raised:
            abstracts.Writer(tmp_path / "ix")
    assert "lock" in str(raised.value)


def test_corrupt_index(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "ix") as w:
        w.add({"text": "Dark matter halos."})
    (tmp_path / "ix" / "XAPIANDB").write_text("remote :rm -rf /\n")
    with pytest.raises(abstracts.CorruptIndex) as raised:
        abstracts.Index(tmp_path / "ix")
    assert "remote :rm -rf /" in str(raised.value)


def test_input_error_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"NeurIPS 2026\n\nfine\n\x00\n")
    with abstracts.Writer(tmp_path / "ix") as w:
        with pytest.raises(abstracts.InputError) as raised:
            w.index([bad])
    e = raised.value
    assert e.file == str(bad) and e.line == 4 and "NUL" in str(e)


def test_shard_unavailable_and_allow_partial(tmp_path: Path) -> None:
    with abstracts.Writer(tmp_path / "shard1", shard="1/2") as w:
        w.index([CORPUS])
    with pytest.raises(ValueError, match="K/N"):
        abstracts.Writer(tmp_path / "shard9", shard="9/2")
    with pytest.raises(abstracts.Error, match="shard"):
        abstracts.Writer(tmp_path / "shard1")  # a shard opened as a whole index
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cluster = tmp_path / "two.cluster"
    cluster.write_text(f"# abstracts: timeout 5\nauto shard1\nremote 127.0.0.1:{port}\n")
    with pytest.raises(abstracts.ShardUnavailable) as raised:
        abstracts.Index(cluster)
    assert raised.value.shard == f"127.0.0.1:{port}" and str(port) in str(raised.value)
    with abstracts.Index(cluster, allow_partial=True) as ix:
        hits = ix.search("learning", exact_total=True)
        assert 0 < hits.total < 57


def test_writer_errors_are_python_objects_in_the_summary(tmp_path: Path) -> None:
    good = write_text_file(tmp_path / "good.txt", ["Graphene conducts heat remarkably well."])
    with abstracts.Writer(tmp_path / "ix") as w:
        summary = w.index([tmp_path / "missing.txt", good], keep_going=True)
    assert summary.failed == 1 and isinstance(summary.errors[0], abstracts.InputError)
    assert "missing.txt" in str(summary.errors[0])


def test_errors_made_in_python_carry_the_same_fields() -> None:
    e = abstracts.QueryError("bad query", 3, "quote it")
    assert (str(e), e.column, e.hint) == ("bad query", 3, "quote it") and e.__notes__ == ["hint: quote it"]
    i = abstracts.InputError("bad file", "a.txt", 7)
    assert (i.file, i.line, i.hint) == ("a.txt", 7, "") and not hasattr(i, "__notes__")
    assert abstracts.ShardUnavailable("down", "h:1").shard == "h:1" and abstracts.Error("x").hint == ""
