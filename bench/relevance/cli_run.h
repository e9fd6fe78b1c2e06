// The abstracts command-line tool and the Python package on a collection: the
// real binary and the real module, as a user runs them.
#ifndef ABSTRACTS_BENCH_RELEVANCE_CLI_RUN_H_
#define ABSTRACTS_BENCH_RELEVANCE_CLI_RUN_H_

#include <filesystem>
#include <string>
#include <vector>

#include "bench/relevance/collection.h"
#include "bench/relevance/run.h"

namespace abstracts::eval {

// Runs `binary` (an `abstracts` executable) as a user would: `abstracts --index
// DIR index -q CORPUS` into a temporary directory, then every question, as typed,
// through `abstracts search --json --limit 1000 --queries FILE` (FILE holding
// "ID<TAB>QUESTION" lines; a tab or line break inside a question becomes a space).
// System "abstracts CLI". A question the CLI refuses ("error: query ID: ...")
// gets an empty ranking and a line in Run::query_problems. Throws
// abstracts::Error if the binary cannot be run, the index cannot be built, or
// its output is not the JSON Lines of docs/cli.md.
Run run_cli(const Collection& collection, const std::filesystem::path& binary);

// As run_cli(), with `abstracts vectors build -q` after indexing (its time counts
// as indexing), then the questions searched by meaning: the systems "abstracts
// CLI --semantic" and "abstracts CLI --hybrid" (--hybrid=`hybrid_weight` if not
// empty: then the system's name says it).
std::vector<Run> run_cli_by_meaning(const Collection& collection, const std::filesystem::path& binary,
                                    const std::string& hybrid_weight);

// The Python package as a user runs it: bench/relevance/python_run.py, under the
// python3 the bindings were built for with PYTHONPATH=`python_dir` (the folder
// holding the package `abstracts`), indexes the corpus with abstracts.Writer and
// runs every question, as typed, through Index.search(question, limit=1000),
// writing the hits as `search --json --queries` does. System "abstracts
// Python"; its rankings must be the CLI's. Throws abstracts::Error as run_cli().
Run run_python(const Collection& collection, const std::filesystem::path& python_dir);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_CLI_RUN_H_
