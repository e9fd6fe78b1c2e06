#!/usr/bin/env python3
"""Similar abstracts by words, by meaning and both, judged on SciFact (issue 46).

Abstracts judged relevant to the same claim are taken as each other's likes: for
every claim (train and test) with two or more relevant abstracts, each such
abstract is given to `abstracts similar ID --json --limit 100` (lexical, then
--semantic, then --hybrid), and each of its partners' ranks is read. Prints, per
mode, the mean reciprocal rank of the partners, the share found in the top 5 and
top 10, and the pairs. The index must have vectors (`abstracts vectors build`).

    bench/similar/pairs.py ABSTRACTS_BINARY INDEX SCIFACT_DIR
"""
import collections
import json
import subprocess
import sys


def groups(scifact_dir):
    by_claim = collections.defaultdict(set)
    for split in ("train", "test"):
        with open(f"{scifact_dir}/qrels.{split}.tsv") as f:
            next(f)
            for line in f:
                claim, doc, score = line.split("\t")
                if int(score) > 0:
                    by_claim[(split, claim)].add(doc)
    return [docs for docs in by_claim.values() if len(docs) >= 2]


def ranks(binary, index, doc, flags):
    out = subprocess.run([binary, "--index", index, "similar", doc, "--json", "--limit", "100", *flags],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"error: abstracts similar {doc} {' '.join(flags)}: {out.stderr.strip()}")
    return {json.loads(line)["id"]: n for n, line in enumerate(out.stdout.splitlines(), 1)}


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, index, scifact_dir = sys.argv[1:]
    pairs = [(a, b) for docs in groups(scifact_dir) for a in sorted(docs) for b in sorted(docs) if a != b]
    print(f"{len(pairs)} pairs of abstracts judged relevant to the same claim\n")
    print("| similar | MRR | in top 5 | in top 10 |\n|---|---|---|---|")
    for name, flags in (("by words (default)", []), ("--semantic", ["--semantic"]), ("--hybrid", ["--hybrid"])):
        seen = {}
        rr = top5 = top10 = 0
        for a, b in pairs:
            if a not in seen:
                seen[a] = ranks(binary, index, a, flags)
            r = seen[a].get(b)
            if r is not None:
                rr += 1 / r
                top5 += r <= 5
                top10 += r <= 10
        n = len(pairs)
        print(f"| {name} | {rr / n:.3f} | {top5 / n:.3f} | {top10 / n:.3f} |")


if __name__ == "__main__":
    main()
