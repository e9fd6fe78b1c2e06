"""Full-text search of scientific abstracts: the abstracts engine from Python.

    import abstracts
    with abstracts.Index("~/papers/index") as index:
        for hit in index.search('"sparse attention"', limit=5).hits:
            print(hit.rank, hit.title, hit.doi)

docs/python.md is the guide. Index (read-only, thread-safe) and Writer (the
one writer of an index) are the engine's; every error is an abstracts.Error
with a .hint.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from abstracts._abstracts import (
    Abstract,
    Acronym,
    CorruptIndex,
    Error,
    FileReport,
    Hit,
    Index,
    IndexLocked,
    IndexNotFound,
    IndexSummary,
    InputError,
    Progress,
    QueryError,
    SearchResult,
    ShardUnavailable,
    Stats,
    Writer,
    export,
    source_corpus_dir,
    version_info,
)

if TYPE_CHECKING:
    import pandas

__all__ = [
    "Abstract",
    "Acronym",
    "CorruptIndex",
    "Error",
    "FileReport",
    "Hit",
    "Index",
    "IndexLocked",
    "IndexNotFound",
    "IndexSummary",
    "InputError",
    "Progress",
    "QueryError",
    "SearchResult",
    "ShardUnavailable",
    "Stats",
    "Writer",
    "corpus_dir",
    "default_index_dir",
    "export",
    "version_info",
]

__version__: str = version_info()["library"]


def default_index_dir() -> Path:
    """The index the abstracts tool uses: $ABSTRACTS_INDEX, else
    $XDG_DATA_HOME/abstracts/index, else ~/.local/share/abstracts/index."""
    if os.environ.get("ABSTRACTS_INDEX"):
        return Path(os.environ["ABSTRACTS_INDEX"])
    if os.environ.get("XDG_DATA_HOME"):
        return Path(os.environ["XDG_DATA_HOME"]) / "abstracts" / "index"
    return Path.home() / ".local" / "share" / "abstracts" / "index"


def corpus_dir() -> Path:
    """The bundled corpus: $ABSTRACTS_CORPUS, else the installed one
    (PREFIX/share/abstracts/corpus, for a package in
    PREFIX/lib/python3/dist-packages), else the source tree's."""
    if os.environ.get("ABSTRACTS_CORPUS"):
        return Path(os.environ["ABSTRACTS_CORPUS"])
    parents = Path(__file__).resolve().parents  # PREFIX/lib/python3/dist-packages/abstracts
    if len(parents) > 4:
        installed = parents[4] / "share" / "abstracts" / "corpus"
        if installed.is_dir():
            return installed
    return Path(source_corpus_dir)


def _default(allow_partial: bool = False) -> Index:
    """Opens the index the abstracts tool searches (default_index_dir()).
    When neither $ABSTRACTS_INDEX names it nor it exists yet, it is first built
    from the bundled corpus, as `abstracts search` does (said on stderr)."""
    path = default_index_dir()
    if not os.environ.get("ABSTRACTS_INDEX") and not path.exists():
        corpus = corpus_dir()
        print(
            f"abstracts: no index yet at {path}; indexing the bundled corpus ({corpus}) first",
            file=sys.stderr,
        )
        with Writer(path) as writer:
            writer.index([corpus], demo=True)
    return Index(path, allow_partial=allow_partial)


def _to_pandas(self: SearchResult) -> "pandas.DataFrame":
    """The hits as a pandas DataFrame, a row per hit with the columns of
    Hit.to_dict(). Needs pandas (Debian: python3-pandas)."""
    import pandas

    return pandas.DataFrame(self.to_dicts(), columns=_HIT_COLUMNS)


def _export(
    self: SearchResult,
    format: str = "bibtex",
    relative_to: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> str:
    """The hits as citations: abstracts.export(self.hits, format, relative_to)."""
    return export(self.hits, format, relative_to)


_HIT_COLUMNS = [
    "rank", "score", "id", "title", "text", "authors", "date", "year", "venue", "doi", "arxiv",
    "pmid", "pmcid", "categories", "citation_key", "item_type", "url", "volume", "issue", "pages",
    "publisher", "issn", "isbn", "tags", "collections", "editors", "source", "line", "snippet",
]  # fmt: skip

setattr(Index, "default", staticmethod(_default))
setattr(SearchResult, "to_pandas", _to_pandas)
setattr(SearchResult, "export", _export)
