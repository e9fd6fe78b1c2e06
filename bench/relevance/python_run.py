#!/usr/bin/env python3
"""The Python package on a judged collection, as a user runs it (the relevance
tool's system "abstracts Python", bench/relevance/cli_run.h):

    python_run.py CORPUS INDEX QUESTIONS HITS

indexes CORPUS into INDEX with abstracts.Writer, then runs each line
"ID<TAB>QUESTION" of QUESTIONS, as typed, through Index.search(question,
limit=1000), writing a line {"query": ID, "id": HIT} per hit to HITS, as
`abstracts search --json --queries` does. A question the engine refuses is
reported on stderr as "error: query ID: MESSAGE", as the CLI does, and the
exit status is then 2. Prints {"index_seconds": ..., "query_seconds": ...}.
"""

import json
import sys
import time

import abstracts


def main(corpus: str, index_dir: str, questions: str, hits_file: str) -> int:
    start = time.monotonic()
    with abstracts.Writer(index_dir) as writer:
        writer.index([corpus])
    index_seconds = time.monotonic() - start
    failed = False
    start = time.monotonic()
    with abstracts.Index(index_dir) as index, open(questions, encoding="utf-8") as lines, open(
        hits_file, "w", encoding="utf-8"
    ) as out:
        for line in lines:
            qid, _, question = line.rstrip("\n").partition("\t")
            try:
                result = index.search(question, limit=1000, snippets=False)
            except abstracts.Error as e:
                print(f"error: query {qid}: {e}", file=sys.stderr)
                failed = True
                continue
            for hit in result.hits:
                out.write(json.dumps({"query": qid, "id": hit.id}) + "\n")
    print(json.dumps({"index_seconds": index_seconds, "query_seconds": time.monotonic() - start}))
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
