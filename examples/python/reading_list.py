#!/usr/bin/env python3
"""reading_list.py: a personal list of papers, searchable, with suggestions.

The Python twin of examples/reading-list/ (the C++ program), on the Python
package `abstracts` only, and reading and writing the same list file: one
abstract id a line, in the order added, with the title as a `# note`; `#`
lines are comments. Commands:

    reading_list.py add ID...            add abstracts (every id must be in the index)
    reading_list.py remove ID...         take them off the list
    reading_list.py list [--json]        the list: id, title, source:line
    reading_list.py search QUERY... [-n N] [--json]   search only the listed abstracts
    reading_list.py suggest [-n N] [--json]           abstracts like the listed ones
    reading_list.py export --format bibtex|biblatex|ris|csl-json

Options: --list FILE (default $READING_LIST, else
$XDG_DATA_HOME/abstracts/reading-list.txt, else
~/.local/share/abstracts/reading-list.txt) and --index DIR (as the abstracts
tool finds it). Exit status: 0 when something was done or found, 1 when
nothing was found, 2 on an error ("error: ..." and "hint: ..." on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Sequence

import abstracts

HEADER = (
    "# reading-list: one abstract id per line, in the order added.\n"
    "# Lines starting with '#' are comments; text after an id and '#' is a note.\n"
    "# Edit by hand or with `reading-list add` and `reading-list remove`.\n"
)


def list_file(option: Optional[str]) -> Path:
    if option:
        return Path(option)
    if os.environ.get("READING_LIST"):
        return Path(os.environ["READING_LIST"])
    if os.environ.get("XDG_DATA_HOME"):
        return Path(os.environ["XDG_DATA_HOME"]) / "abstracts" / "reading-list.txt"
    return Path.home() / ".local" / "share" / "abstracts" / "reading-list.txt"


class ReadingList:
    """The list file in memory: its lines kept as they are, ids in order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[str] = []
        self.ids: list[str] = []
        self._listed: set[str] = set()  # the ids, to tell what is listed in one step
        if path.exists():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                self.lines.append(line)
                entry = line.strip()
                if not entry or entry.startswith("#"):
                    continue
                id_, _, rest = entry.partition(" ")
                if rest.strip() and not rest.strip().startswith("#"):
                    raise abstracts.InputError(f"{path}:{number}: expected one id per line, found '{entry}'")
                if id_ in self._listed:
                    raise abstracts.InputError(f"{path}:{number}: {id_} stands on the list twice")
                self.ids.append(id_)
                self._listed.add(id_)

    def __contains__(self, id_: str) -> bool:
        return id_ in self._listed

    def add(self, id_: str, title: str) -> bool:
        if id_ in self._listed:
            return False
        if not self.lines:
            self.lines = HEADER.splitlines()
        note = " ".join(title.split())
        self.lines.append(f"{id_}  # {note}")
        self.ids.append(id_)
        self._listed.add(id_)
        return True

    def remove(self, ids: Sequence[str]) -> None:
        gone = set(ids)
        self.ids = [i for i in self.ids if i not in gone]
        self._listed -= gone
        self.lines = [line for line in self.lines if line.strip().partition(" ")[0] not in gone]

    def save(self) -> None:
        """Atomically: a temporary file in the same folder, renamed over the list."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.tmp-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write("".join(line + "\n" for line in self.lines))
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            os.unlink(tmp)
            raise


def location(a: abstracts.Abstract) -> str:
    source = a.source
    try:
        source = str(Path(source).relative_to(Path.cwd()))
    except ValueError:
        pass
    return f"{source}:{a.line}" if source else ""


def print_hits(hits: Iterable[abstracts.Hit], as_json: bool) -> None:
    for hit in hits:
        if as_json:
            print(json.dumps({k: v for k, v in hit.to_dict().items() if k != "text"}, ensure_ascii=False))
        else:
            print(f"{hit.rank}  {location(hit.abstract)}  id {hit.id}  score {hit.score:.2f}\n   {hit.title}")


def run(args: argparse.Namespace) -> int:
    the_list = ReadingList(list_file(args.list))
    index_dir = Path(args.index) if args.index else abstracts.default_index_dir()
    with abstracts.Index(index_dir) as index:
        if args.command == "add":
            found = [a or b for a, b in zip(index.get_many(args.ids), index.get_many([i.lower() for i in args.ids]))]
            unknown = [i for i, a in zip(args.ids, found) if a is None]
            if unknown:
                raise abstracts.Error(
                    "not in the index: " + " ".join(unknown), "ids are what `abstracts search` prints after `id`"
                )
            for a in found:
                assert a is not None
                if not the_list.add(a.id, a.title):
                    print(f"reading-list: {a.id} is on the list already", file=sys.stderr)
            the_list.save()
            print(f"reading-list: {len(the_list.ids)} abstracts on {the_list.path}", file=sys.stderr)
            return 0
        if args.command == "remove":
            missing = [i for i in args.ids if i not in the_list]
            if missing:
                raise abstracts.Error("not on the list: " + " ".join(missing))
            the_list.remove(args.ids)
            the_list.save()
            return 0
        if args.command == "list":
            for id_, a in zip(the_list.ids, index.get_many(the_list.ids)):
                if args.json:
                    print(json.dumps({"id": id_, "in_index": a is not None, "title": a.title if a else ""}))
                else:
                    print(f"{id_}  {a.title}  {location(a)}" if a else f"{id_}  (not in the index)")
            return 0 if the_list.ids else 1
        listed = [i for i, a in zip(the_list.ids, index.get_many(the_list.ids)) if a is not None]
        if args.command == "search":
            result = index.search(" ".join(args.query), limit=args.limit, within=listed)
            if result.corrected:
                print(f'reading-list: no hits; showing those of "{result.suggestion}"', file=sys.stderr)
            print_hits(result.hits, args.json)
            return 0 if result.hits else 1
        if args.command == "suggest":
            if not listed:
                return 1
            result = index.similar(listed, limit=args.limit)
            print_hits(result.hits, args.json)
            return 0 if result.hits else 1
        # export: the library's citations, in list order, notes relative to here.
        entries = [a for a in index.get_many(listed) if a is not None]
        sys.stdout.write(abstracts.export(entries, args.format, relative_to=Path.cwd()))
        return 0 if listed else 1


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="reading_list.py", description=__doc__.splitlines()[0])
    parser.add_argument("--list", help="the list file")
    parser.add_argument("--index", help="the index directory")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("add").add_argument("ids", nargs="+")
    commands.add_parser("remove").add_argument("ids", nargs="+")
    commands.add_parser("list").add_argument("--json", action="store_true")
    search = commands.add_parser("search")
    search.add_argument("query", nargs="+")
    suggest = commands.add_parser("suggest")
    for p in (search, suggest):
        p.add_argument("-n", "--limit", type=int, default=10)
        p.add_argument("--json", action="store_true")
    export = commands.add_parser("export")
    export.add_argument("--format", choices=["bibtex", "biblatex", "ris", "csl-json"], required=True)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except abstracts.Error as e:
        print(f"error: {e}", file=sys.stderr)
        if e.hint:
            print(f"hint: {e.hint}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
