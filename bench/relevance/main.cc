// relevance: ranking quality of the abstracts engine against plain Xapian BM25 on
// test collections with relevance judgments. See docs/relevance.md.
// Exit status: 0 on success, 2 on error.
#include <CLI/CLI.hpp>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "abstracts/error.h"
#include "bench/relevance/cli_run.h"
#include "bench/relevance/collection.h"
#include "bench/relevance/engine_run.h"
#include "bench/relevance/metrics.h"
#include "bench/relevance/published.h"
#include "bench/relevance/report.h"
#include "bench/relevance/xapian_run.h"

namespace {

using namespace abstracts::eval;

// "plain Xapian" -> "plain-xapian": a run file's name and tag.
std::string slug(const std::string& system) {
  std::string s;
  for (char ch : system)
    s += ch == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// DIR/scifact-test.engine.run: the ranking of every query, for trec_eval, a closer
// look at single queries, or --compare-with.
std::filesystem::path run_file(const std::filesystem::path& dir, const Collection& c,
                               const std::string& system) {
  return dir / (c.name + (c.split.empty() ? "" : "-" + c.split) + "." + slug(system) + ".run");
}

void write_run_file(const std::filesystem::path& run_dir, const Collection& c, const Run& run) {
  std::filesystem::create_directories(run_dir);
  const auto path = run_file(run_dir, c, run.system);
  std::ofstream out(path);
  write_trec_run(out, run.rankings, slug(run.system));
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

// The engine's rankings an earlier `--run-dir DIR` wrote for this collection.
Run read_earlier_run(const std::filesystem::path& dir, const Collection& c) {
  const auto path = run_file(dir, c, "engine");
  std::ifstream in(path);
  if (!in) {
    throw abstracts::Error("cannot read " + path.string(),
                           "--compare-with takes a folder an earlier `relevance --run-dir` wrote "
                           "for the same collections and split");
  }
  Run run;
  run.system = "earlier run";
  run.read_from = path.string();
  try {
    run.rankings = read_trec_run(in);
  } catch (const std::runtime_error& e) {
    throw abstracts::Error(path.string() + ": " + e.what());
  }
  return run;
}

SystemResult score(Run run, const Collection& c) {
  SystemResult result{std::move(run), {}, {}};
  result.per_query = score_queries(result.run.rankings, c.qrels, c.queries);
  result.scores = summarise(result.per_query);
  return result;
}

CollectionResult measure(const std::filesystem::path& data_dir, const std::string& name,
                         const std::string& split, const std::filesystem::path& run_dir,
                         const std::filesystem::path& compare_dir, const std::filesystem::path& cli,
                         const std::filesystem::path& python, bool by_meaning, const std::string& hybrid_weight) {
  std::cerr << "relevance: " << name << ": loading\n";
  const auto start = std::chrono::steady_clock::now();
  const Collection c = load_collection(data_dir, name, split);
  std::cerr << "relevance: " << name << ": loaded in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
  CollectionResult result;
  result.name = c.name;
  result.split = c.split;
  result.documents = c.corpus_ids.size();
  result.queries = c.queries.size();
  result.empty_documents = c.empty_ids.size();
  result.renamed_judged_ids = c.renamed_judged_ids.size();
  result.renamed_judgments = c.renamed_judgments;
  if (!c.renamed_judged_ids.empty()) {
    const auto& [from, to] = *c.renamed_judged_ids.begin();
    result.renamed_example = from + " -> " + to;
  }
  result.unknown_judged_ids = c.unknown_judged_ids;
  result.published = published_figures(c.name, c.split);
  // Read first, so a missing file stops the tool before the systems run.
  std::optional<Run> earlier;
  if (!compare_dir.empty()) earlier = read_earlier_run(compare_dir, c);
  // The engine as a user runs it (the query language, as typed), then as plain
  // text, then plain Xapian; with --cli, the real binary; with --python, the
  // Python package last.
  std::vector<std::function<Run(const Collection&)>> systems = {
      [](const Collection& c) { return run_engine(c); },
      [](const Collection& c) { return run_engine(c, abstracts::QuerySyntax::kPlainText); },
      &run_plain_xapian};
  if (!cli.empty()) systems.push_back([&cli](const Collection& c) { return run_cli(c, cli); });
  if (!python.empty())
    systems.push_back([&python](const Collection& c) { return run_python(c, python); });
  std::vector<std::function<std::vector<Run>(const Collection&)>> groups;
  for (const auto& run_system : systems) {
    groups.push_back([&run_system](const Collection& c) { return std::vector{run_system(c)}; });
  }
  if (!cli.empty() && by_meaning) {
    groups.push_back([&](const Collection& c) { return run_cli_by_meaning(c, cli, hybrid_weight); });
  }
  for (const auto& group : groups) {
    for (Run& run : group(c)) {
      std::cerr << "relevance: " << name << ": " << run.system << ": indexed in " << run.index_seconds
                << " s, searched in " << run.query_seconds << " s\n";
      if (!run_dir.empty()) write_run_file(run_dir, c, run);
      result.systems.push_back(score(std::move(run), c));
    }
  }
  if (earlier) result.systems.push_back(score(std::move(*earlier), c));
  // The Python package must give the CLI's answers, hit for hit.
  const SystemResult* by_cli = nullptr;
  const SystemResult* by_python = nullptr;
  for (const auto& s : result.systems) {
    if (s.run.system == "abstracts CLI") by_cli = &s;
    if (s.run.system == "abstracts Python") by_python = &s;
  }
  if (by_cli != nullptr && by_python != nullptr) {
    std::size_t hits = 0;
    for (const auto& [qid, ranking] : by_cli->run.rankings) hits += ranking.size();
    result.python_equals_cli = by_cli->run.rankings == by_python->run.rankings;
    std::cerr << "relevance: " << name << ": the Python run "
              << (*result.python_equals_cli ? "equals" : "DIFFERS from") << " the CLI's ("
              << by_cli->run.rankings.size() << " queries, " << hits << " hits)\n";
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::string data_dir;
  std::string collection = "all";
  std::string split = "test";
  bool json = false;
  std::string run_dir;
  std::string compare_dir;
  std::string cli;
  std::string python;
  bool no_meaning = false;
  std::string hybrid_weight;

  CLI::App app{"relevance: ranking quality of abstracts vs. plain Xapian on judged collections",
               "relevance"};
  app.add_option("DATA_DIR", data_dir, "The shared data folder (holds scifact/, cranfield/, cacm/)")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option("--collection", collection,
                 "Collection to measure: scifact, cranfield, cacm or all")
      ->check(CLI::IsMember({"scifact", "cranfield", "cacm", "all"}))
      ->capture_default_str();
  app.add_option("--split", split, "SciFact query split: test or train (tune only on train)")
      ->check(CLI::IsMember({"test", "train"}))
      ->capture_default_str();
  app.add_flag("--json", json, "Print JSON instead of Markdown");
  app.add_option("--run-dir", run_dir,
                 "Also write each system's rankings in trec_eval's run format to "
                 "DIR/COLLECTION[-SPLIT].SYSTEM.run");
  app.add_option("--compare-with", compare_dir,
                 "Also score the engine rankings an earlier --run-dir wrote to DIR, and compare "
                 "this run's with them query by query")
      ->check(CLI::ExistingDirectory);
  app.add_option(
         "--cli", cli,
         "Also run this abstracts binary, as a user does (index, then search --json --queries), "
         "as the system \"abstracts CLI\"")
      ->check(CLI::ExistingFile);
  app.add_option(
         "--python", python,
         "Also run the Python package in this folder (the one holding abstracts/, such as "
         "build/bench/python) as a user does, as the system \"abstracts Python\"; its run must "
         "equal the CLI's")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--no-meaning", no_meaning,
               "With --cli: leave out the searches by meaning (`vectors build`, then search --semantic and "
               "--hybrid), whose fastText training takes minutes");
  app.add_option("--hybrid", hybrid_weight, "With --cli: the weight of the --hybrid run (default: the CLI's)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << "\nhint: run `relevance --help` for usage\n";
    return 2;
  }

  try {
    std::vector<std::string> names =
        collection == "all" ? collection_names() : std::vector<std::string>{collection};
    std::vector<CollectionResult> results;
    for (const auto& name : names) {
      results.push_back(measure(data_dir, name, split, run_dir, compare_dir, cli, python, !no_meaning, hybrid_weight));
    }
    if (json) {
      print_json(std::cout, results);
    } else {
      print_markdown(std::cout, results);
    }
    // A question the query language refuses is an error a user would see.
    std::size_t refused = 0;
    for (const auto& r : results) {
      for (const auto& s : r.systems) {
        if (s.run.system == "engine" || s.run.system == "abstracts CLI" ||
            s.run.system == "abstracts Python") {
          refused += s.run.query_problems.size();
        }
      }
    }
    for (const auto& r : results) {
      if (r.python_equals_cli == false) {
        std::cerr << "error: " << r.name
                  << ": the Python package's rankings differ from the CLI's\n";
        return 1;
      }
    }
    if (refused > 0) {
      std::cerr << "error: " << refused
                << " questions failed through the query language, as typed\n"
                << "hint: the report lists them under \"queries not run as given\"\n";
      return 1;
    }
  } catch (const abstracts::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    if (!e.hint().empty()) std::cerr << "hint: " << e.hint() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
