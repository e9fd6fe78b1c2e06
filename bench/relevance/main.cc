// relevance: ranking quality of the abstracts engine against plain Xapian BM25 on
// test collections with relevance judgments. See docs/relevance.md.
// Exit status: 0 on success, 2 on error.
#include <CLI/CLI.hpp>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "abstracts/error.h"
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

// RUN_DIR/scifact-test.engine.run: the ranking of every query, for trec_eval or a
// closer look at single queries.
void write_run_file(const std::filesystem::path& run_dir, const Collection& c, const Run& run) {
  std::filesystem::create_directories(run_dir);
  const std::string name =
      c.name + (c.split.empty() ? "" : "-" + c.split) + "." + slug(run.system) + ".run";
  std::ofstream out(run_dir / name);
  write_trec_run(out, run.rankings, slug(run.system));
  if (!out.flush()) throw std::runtime_error("cannot write " + (run_dir / name).string());
}

CollectionResult measure(const std::filesystem::path& data_dir, const std::string& name,
                         const std::string& split, const std::filesystem::path& run_dir) {
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
  for (auto* run_system : {&run_engine, &run_plain_xapian}) {
    Run run = run_system(c);
    std::cerr << "relevance: " << name << ": " << run.system << ": indexed in " << run.index_seconds
              << " s, searched in " << run.query_seconds << " s\n";
    if (!run_dir.empty()) write_run_file(run_dir, c, run);
    Scores scores = evaluate(run.rankings, c.qrels, c.queries);
    result.systems.push_back({std::move(run), scores});
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
    for (const auto& name : names) results.push_back(measure(data_dir, name, split, run_dir));
    if (json) {
      print_json(std::cout, results);
    } else {
      print_markdown(std::cout, results);
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
