// Tests of `speed report` (bench/speed/report.h) on a results folder written by
// hand: the end-to-end searches, which scripts/bench-speed times in rounds, the
// tools taking turns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "bench/speed/report.h"
#include "tests/support/test_support.h"

namespace abstracts::speed {
namespace {

namespace fs = std::filesystem;
using abstracts::testing::TempDir;
using nlohmann::json;

void write_json(const fs::path& file, const json& j) { std::ofstream(file) << j.dump(); }

// A `hyperfine --export-json` record of one command's runs, in seconds.
json hyperfine(const std::vector<double>& ms) {
  json times = json::array();
  for (double t : ms) times.push_back(t / 1000);
  return {{"results", {{{"command", "x"}, {"times", times}}}}};
}

TEST(SpeedReport, EndToEndPoolsTheRoundsOfEachWord) {
  TempDir dir;
  fs::create_directories(dir / "e2e");
  write_json(dir / "machine.json", {{"real_abstracts", 57}});
  write_json(dir / "run.json", {{"seconds", 1}});
  write_json(dir / "e2e" / "words.json", {"sparse attention", "diffusion"});
  // Each round alone has another median than the rounds pooled (3 and 6).
  write_json(dir / "e2e" / "abstracts-0-0.json", hyperfine({1, 2, 9}));
  write_json(dir / "e2e" / "abstracts-0-1.json", hyperfine({3, 4}));
  write_json(dir / "e2e" / "abstracts-1-0.json", hyperfine({6, 7}));
  write_json(dir / "e2e" / "abstracts-1-1.json", hyperfine({5, 6}));
  write_json(dir / "e2e" / "quest-0-0.json", hyperfine({1, 1, 1}));
  write_json(dir / "e2e" / "quest-0-1.json", hyperfine({1, 1}));
  write_json(dir / "e2e" / "quest-1-0.json", hyperfine({2, 2}));
  // A results folder from before the rounds: one file a word.
  write_json(dir / "e2e" / "quest-1.json", hyperfine({2, 2}));

  write_report(dir.path());

  json results;
  std::ifstream(dir / "results.json") >> results;
  const json& e2e = results.at("end_to_end");
  EXPECT_DOUBLE_EQ(e2e.at("abstracts").at("sparse attention").at("median"), 3);
  EXPECT_DOUBLE_EQ(e2e.at("abstracts").at("sparse attention").at("max"), 9);
  EXPECT_DOUBLE_EQ(e2e.at("abstracts").at("diffusion").at("median"), 6);
  EXPECT_DOUBLE_EQ(e2e.at("quest").at("diffusion").at("median"), 2);
  EXPECT_DOUBLE_EQ(e2e.at("abstracts").at("all").at("median"), 5);  // 1 2 3 4 5 6 6 7 9
  // The words' ratios to quest are 3 and 3: the median of them.
  bool found = false;
  for (const json& t : results.at("targets_issue20")) {
    if (t.at("figure").get<std::string>().starts_with("Terminal search")) {
      found = true;
      EXPECT_NE(t.at("measured").get<std::string>().find("3.00x quest"), std::string::npos) << t.dump();
    }
  }
  EXPECT_TRUE(found) << results.at("targets_issue20").dump();
}

// One `speed search` record: every pass gives each kind these p50 and p99.
json search_record(const std::string& system, long size, const std::map<std::string, std::pair<double, double>>& kinds) {
  json pass = json::object();
  for (const auto& [kind, p] : kinds) {
    pass[kind] = {{"p50_ms", p.first}, {"p95_ms", p.second}, {"p99_ms", p.second}, {"mean_ms", p.first},
                  {"queries", 10}};
  }
  return {{"system", system}, {"size", size}, {"passes", json::array({pass, pass})}, {"hits", 1},
          {"queries_with_hits", 10}, {"error_count", 0}, {"open_ms", 1}};
}

// Issue 44: each class of query against Xapian's matcher alone on the same index.
TEST(SpeedReport, Issue44EachQueryClassIsSetAgainstTheMatcherFloor) {
  TempDir dir;
  fs::create_directories(dir / "search");
  write_json(dir / "machine.json", {{"real_abstracts", 1000}});
  write_json(dir / "run.json", {{"seconds", 1}});
  write_json(dir / "search" / "engine-1000.json",
             search_record("engine", 1000, {{"all", {2, 12}}, {"keyword", {1.2, 6}}, {"question", {9, 40}}}));
  write_json(dir / "search" / "matcher-1000.json",
             search_record("matcher", 1000, {{"all", {1, 10}}, {"keyword", {1, 5}}, {"question", {3, 20}}}));

  write_report(dir.path());

  json results;
  std::ifstream(dir / "results.json") >> results;
  const json& r = results.at("matcher_ratio").at("1000");
  EXPECT_DOUBLE_EQ(r.at("all").at("p50"), 2);
  EXPECT_DOUBLE_EQ(r.at("all").at("p99"), 1.2);
  EXPECT_DOUBLE_EQ(r.at("keyword").at("p50"), 1.2);
  EXPECT_DOUBLE_EQ(r.at("question").at("p50"), 3);
  EXPECT_DOUBLE_EQ(r.at("question").at("p99"), 2);
  EXPECT_FALSE(r.contains("phrase")) << "no phrase figures were given";
  std::ifstream md(dir / "report.md");
  const std::string report((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(report.find("| question | 3.00x | 2.00x |"), std::string::npos) << report;
}

// The queries people type: in the script's order, each one's median run, the
// slowest flagged against issue 44's bounds (0.25 s top 10, 1 s counted).
TEST(SpeedReport, Issue44TheQueriesPeopleTypeAreEachTimed) {
  TempDir dir;
  fs::create_directories(dir / "extended");
  write_json(dir / "machine.json", {{"real_abstracts", 1000}});
  write_json(dir / "run.json", {{"seconds", 1}});
  const std::vector<std::tuple<int, std::string, std::string, double, int>> runs = {
      {0, "LLM", "top", 0.05, 0},  {0, "LLM", "top", 0.07, 0},    {0, "LLM", "top", 0.30, 0},
      {0, "LLM", "count", 0.4, 0}, {1, "quant*", "top", 0.5, 0}, {1, "quant*", "count", 2.0, 2}};
  int n = 0;
  for (const auto& [order, query, mode, seconds, status] : runs) {
    write_json(dir / "extended" / ("r" + std::to_string(n++) + ".json"),
               {{"size", 1000}, {"order", order}, {"query", query}, {"mode", mode}, {"wall_seconds", seconds},
                {"exit_status", status}});
  }

  write_report(dir.path());

  json results;
  std::ifstream(dir / "results.json") >> results;
  EXPECT_DOUBLE_EQ(results.at("extended").at("1000").at("LLM").at("top_seconds").at("median"), 0.07);
  EXPECT_TRUE(results.at("extended").at("1000").at("quant*").at("error"));
  EXPECT_DOUBLE_EQ(results.at("extended_slowest").at("1000").at("top_seconds"), 0.5);
  std::ifstream md(dir / "report.md");
  const std::string report((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  const auto llm = report.find("| 1000 | `LLM` | 0.070 | 0.400 |");
  const auto quant = report.find("| 1000 | `quant*` (error) | **0.500** | **2.000** |");
  EXPECT_NE(llm, std::string::npos) << report;
  EXPECT_NE(quant, std::string::npos) << report;
  EXPECT_LT(llm, quant);
}

}  // namespace
}  // namespace abstracts::speed
