#!/usr/bin/env python3
"""Queries per second of Python threads sharing one abstracts.Index: the Python
twin of `speed throughput` (bench/speed/throughput.h), run by scripts/bench-python.

    throughput.py INDEX QUERIES --threads T --passes P

QUERIES is a query file of `speed queries`. As the C++ tool does: the index is
opened once, the query set run once to warm up, then T threads take the queries
of P whole passes in order from one counter, each query asked as `abstracts
search` asks it (limit 10, snippets), its hits' ids and snippets read. Prints
one JSON object: threads, passes, queries, seconds, qps, cpu_seconds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import threading
import time
from typing import Any

import abstracts


def query_text(q: dict[str, Any]) -> str:
    """The query as the C++ tool writes it (xapian_syntax, bench/speed/query_set.h)."""
    words = [str(w) for w in q["words"]]
    if q["kind"] == "phrase":
        return '"' + " ".join(words) + '"'
    if q["kind"] == "boolean":
        return f"{words[0]} {q['op']} {words[1]}"
    return " ".join(words)


def cpu_seconds() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("index")
    parser.add_argument("queries")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--passes", type=int, default=1)
    args = parser.parse_args()
    with open(args.queries, encoding="utf-8") as f:
        texts = [query_text(json.loads(line)) for line in f if line.strip()]
    index = abstracts.Index(args.index)
    sink = 0

    def run(text: str) -> int:
        result = index.search(text, limit=10, snippets=True)
        return sum(len(hit.id) + len(hit.snippet) for hit in result.hits)

    for text in texts:  # warm-up pass
        sink += run(text)
    total = args.passes * len(texts)
    counter = itertools.count()  # next() on it is atomic under the GIL
    done = [0] * args.threads
    go = threading.Barrier(args.threads + 1)

    def worker(t: int) -> None:
        local = 0
        go.wait()
        while (i := next(counter)) < total:
            local += run(texts[i % len(texts)])
            done[t] += 1

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(args.threads)]
    for th in threads:
        th.start()
    cpu_start = cpu_seconds()
    go.wait()
    start = time.perf_counter()
    for th in threads:
        th.join()
    seconds = time.perf_counter() - start
    print(json.dumps({
        "threads": args.threads, "passes": args.passes, "queries": sum(done), "seconds": seconds,
        "qps": sum(done) / seconds, "cpu_seconds": cpu_seconds() - cpu_start, "per_thread": done,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
