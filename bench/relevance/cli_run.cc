#include "bench/relevance/cli_run.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>

#include "abstracts/error.h"
#include "bench/relevance/temp_dir.h"

namespace abstracts::eval {
namespace {

// The python3 the bindings are built for, and the script that runs them.
constexpr const char* kPython = ABSTRACTS_PYTHON_EXECUTABLE;
constexpr const char* kPythonRunScript = ABSTRACTS_PYTHON_RUN_SCRIPT;

// 'text' for /bin/sh, whatever it holds.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `command` under /bin/sh; returns its exit status (-1 if it did not exit).
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// "ID<TAB>QUESTION" lines, a tab or line break inside a question made a space.
void write_questions(const Collection& collection, const std::filesystem::path& file) {
  std::ofstream out(file, std::ios::binary);
  for (const auto& q : collection.queries) {
    std::string text = q.text;
    for (char& c : text) {
      if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    }
    out << q.id << '\t' << text << '\n';
  }
}

// The rankings of `hits` (JSON Lines with "query" and "id", as `search --json
// --queries` prints them), and the questions `err` says were refused ("error:
// query ID: MESSAGE"). `program` names what wrote them, for errors.
void read_hits(const Collection& collection, const std::filesystem::path& hits,
               const std::filesystem::path& err, const std::string& program, Run& run) {
  for (const auto& q : collection.queries) run.rankings[q.id];
  std::ifstream in(hits, std::ios::binary);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    try {
      const auto j = nlohmann::json::parse(line);
      run.rankings[j.at("query").get<std::string>()].push_back(j.at("id").get<std::string>());
    } catch (const nlohmann::json::exception& e) {
      throw Error(hits.string() + ":" + std::to_string(n) + ": not a hit of " + program + ": " +
                  e.what());
    }
  }
  std::istringstream errors(read_all(err));
  const std::string kPrefix = "error: query ";
  while (std::getline(errors, line)) {
    if (line.rfind(kPrefix, 0) == 0)
      run.query_problems.push_back(line.substr(kPrefix.size()) + " (no hits)");
  }
  run.unknown_ids = count_unknown_ids(run.rankings, collection.corpus_ids);
}

// Every question through `abstracts search --json --limit 1000 --queries` with
// `flags`, into `run`.
void search_cli(const Collection& collection, const std::filesystem::path& binary, const std::string& abstracts,
                const std::string& flags, const TempDir& dir, Run& run) {
  const auto err = dir.path() / "stderr.txt";
  const auto questions = dir.path() / "questions.tsv";
  write_questions(collection, questions);
  const auto hits = dir.path() / "hits.jsonl";
  const auto start = std::chrono::steady_clock::now();
  const int status = shell(abstracts + " search " + flags + " --json --limit 1000 --queries " +
                           quoted(questions.string()) + " >" + quoted(hits.string()) + " 2>" + quoted(err.string()));
  run.query_seconds = seconds_since(start);
  if (status < 0 || status > 2) throw Error(binary.string() + " search exited with " + std::to_string(status));
  read_hits(collection, hits, err, "`search --json --queries`", run);
  if (status == 2 && run.query_problems.empty()) throw Error(binary.string() + " search failed: " + read_all(err));
}

// `abstracts index -q CORPUS` (and `vectors build -q`, if `vectors`) into `dir`:
// the command line for the index, and the seconds it took.
std::string index_cli(const Collection& collection, const std::filesystem::path& binary, const TempDir& dir,
                      bool vectors, double& seconds) {
  const auto err = dir.path() / "stderr.txt";
  const std::string abstracts = quoted(binary.string()) + " --index " + quoted((dir.path() / "index").string());
  const auto start = std::chrono::steady_clock::now();
  if (shell(abstracts + " index -q " + quoted(collection.corpus.string()) + " 2>" + quoted(err.string())) != 0) {
    throw Error(binary.string() + " could not index " + collection.corpus.string() + ": " + read_all(err));
  }
  if (vectors && shell(abstracts + " vectors build -q >/dev/null 2>" + quoted(err.string())) != 0) {
    throw Error(binary.string() + " could not build vectors for " + collection.corpus.string() + ": " +
                read_all(err));
  }
  seconds = seconds_since(start);
  return abstracts;
}

}  // namespace

Run run_cli(const Collection& collection, const std::filesystem::path& binary) {
  Run run;
  run.system = "abstracts CLI";
  TempDir dir;
  const std::string abstracts = index_cli(collection, binary, dir, false, run.index_seconds);
  search_cli(collection, binary, abstracts, "", dir, run);
  return run;
}

std::vector<Run> run_cli_by_meaning(const Collection& collection, const std::filesystem::path& binary,
                                    const std::string& hybrid_weight) {
  TempDir dir;
  double seconds = 0;
  const std::string abstracts = index_cli(collection, binary, dir, true, seconds);
  const std::string hybrid = hybrid_weight.empty() ? "--hybrid" : "--hybrid=" + hybrid_weight;
  std::vector<Run> runs;
  for (const std::string& flags : {std::string("--semantic"), hybrid}) {
    Run& run = runs.emplace_back();
    run.system = "abstracts CLI " + flags;
    run.index_seconds = seconds;
    search_cli(collection, binary, abstracts, flags, dir, run);
  }
  return runs;
}

Run run_python(const Collection& collection, const std::filesystem::path& python_dir) {
  Run run;
  run.system = "abstracts Python";
  TempDir dir;
  const auto questions = dir.path() / "questions.tsv";
  write_questions(collection, questions);
  const auto hits = dir.path() / "hits.jsonl";
  const auto times = dir.path() / "times.json";
  const auto err = dir.path() / "stderr.txt";
  const std::string command =
      "PYTHONPATH=" + quoted(python_dir.string()) + " " + quoted(kPython) + " " +
      quoted(kPythonRunScript) + " " + quoted(collection.corpus.string()) + " " +
      quoted((dir.path() / "index").string()) + " " + quoted(questions.string()) + " " +
      quoted(hits.string()) + " >" + quoted(times.string()) + " 2>" + quoted(err.string());
  const int status = shell(command);
  if (status != 0 && status != 2) {
    throw Error(std::string(kPythonRunScript) + " exited with " + std::to_string(status) + ": " +
                read_all(err));
  }
  try {
    const auto t = nlohmann::json::parse(read_all(times));
    run.index_seconds = t.at("index_seconds").get<double>();
    run.query_seconds = t.at("query_seconds").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(times.string() + ": not the times of " + kPythonRunScript + ": " + e.what());
  }
  read_hits(collection, hits, err, kPythonRunScript, run);
  return run;
}

}  // namespace abstracts::eval
