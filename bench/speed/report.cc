#include "bench/speed/report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bench/speed/stats.h"

namespace abstracts::speed {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Index and search records name systems by key; tables by these names.
const std::vector<std::pair<std::string, std::string>> kSystems = {
    {"engine", "abstracts (library)"},
    {"engine-cli", "abstracts (CLI)"},
    {"xapian", "plain Xapian"},
    {"fts5", "SQLite FTS5"},
    {"matcher", "Xapian's matcher alone (engine's index)"},
};
const std::vector<std::pair<std::string, std::string>> kTools = {
    {"abstracts", "abstracts search"}, {"rg", "rg -i -n"}, {"quest", "quest"}};

std::string display(const std::string& key) {
  for (const auto& [k, name] : kSystems) {
    if (k == key) return name;
  }
  for (const auto& [k, name] : kTools) {
    if (k == key) return name;
  }
  return key;
}

json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

std::vector<json> read_folder(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir)) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".json") files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<json> out;
  for (const auto& f : files) out.push_back(read_json(f));
  return out;
}

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Enough significant digits for a table, whatever the magnitude.
std::string num(double v) {
  const double a = std::abs(v);
  return fmt(v, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

std::string range(const Spread& s) { return num(s.min) + " / **" + num(s.median) + "** / " + num(s.max); }

std::string ratio(double a, double b) { return b > 0 ? fmt(a / b, 2) + "x" : "n/a"; }

json spread_json(const Spread& s) { return {{"min", s.min}, {"median", s.median}, {"max", s.max}}; }

struct IndexFigures {
  Spread seconds, docs_per_s, mb_per_s, disk_mb, rss_mb;
  std::size_t runs = 0;
};

struct LatencyFigures {  // per kind: p50/p95/p99 over passes
  std::map<std::string, std::array<Spread, 3>> kinds;
  std::size_t hits = 0, queries_with_hits = 0, errors = 0, queries = 0;
};

}  // namespace

void write_report(const fs::path& dir) {
  const json machine = fs::exists(dir / "machine.json") ? read_json(dir / "machine.json") : json::object();
  std::map<long, json> subsets;  // size -> {abstracts, text_bytes}
  for (auto& s : read_folder(dir / "subsets")) subsets[s.at("abstracts").get<long>()] = s;

  // size -> system -> figures
  std::map<long, std::map<std::string, IndexFigures>> indexing;
  {
    std::map<std::pair<long, std::string>, std::vector<json>> runs;
    for (auto& r : read_folder(dir / "index")) {
      runs[{r.at("size").get<long>(), r.at("system").get<std::string>()}].push_back(r);
    }
    for (auto& [key, records] : runs) {
      const auto& [size, system] = key;
      const double text_mb = subsets.contains(size) ? subsets[size].at("text_bytes").get<double>() / 1e6 : 0;
      std::vector<double> secs, dps, mbps, disk, rss;
      for (auto& r : records) {
        const double s = r.at("wall_seconds").get<double>();
        secs.push_back(s);
        dps.push_back(static_cast<double>(size) / s);
        mbps.push_back(text_mb / s);
        disk.push_back(r.value("disk_bytes", 0.0) / 1e6);
        rss.push_back(r.at("max_rss_kb").get<double>() / 1024);
      }
      indexing[size][system] = {spread(secs), spread(dps), spread(mbps), spread(disk), spread(rss), records.size()};
    }
  }

  std::map<long, std::map<std::string, LatencyFigures>> latency;
  for (auto& r : read_folder(dir / "search")) {
    LatencyFigures f;
    std::map<std::string, std::array<std::vector<double>, 3>> values;
    for (auto& pass : r.at("passes")) {
      for (auto& [kind, s] : pass.items()) {
        values[kind][0].push_back(s.at("p50_ms"));
        values[kind][1].push_back(s.at("p95_ms"));
        values[kind][2].push_back(s.at("p99_ms"));
      }
      f.queries = pass.at("all").at("queries").get<std::size_t>() +
                  (pass.contains("question") ? pass.at("question").at("queries").get<std::size_t>() : 0);
    }
    for (auto& [kind, v] : values) f.kinds[kind] = {spread(v[0]), spread(v[1]), spread(v[2])};
    f.hits = r.at("hits");
    f.queries_with_hits = r.at("queries_with_hits");
    f.errors = r.at("error_count");
    latency[r.at("size").get<long>()][r.at("system").get<std::string>()] = f;
  }

  // tool -> query index -> run times (ms)
  std::map<std::string, std::map<int, Spread>> e2e;
  std::map<std::string, std::vector<double>> e2e_all;
  std::vector<std::string> e2e_words;
  if (fs::exists(dir / "e2e" / "words.json")) e2e_words = read_json(dir / "e2e" / "words.json");
  if (fs::is_directory(dir / "e2e")) {
    // TOOL-WORD-ROUND.json (TOOL-WORD.json before the tools took turns): a
    // word's rounds pool into one spread.
    std::map<std::string, std::map<int, std::vector<double>>> times;
    for (const auto& e : fs::directory_iterator(dir / "e2e")) {
      const std::string stem = e.path().stem().string();
      const auto dash = stem.find('-');
      if (e.path().extension() != ".json" || dash == std::string::npos) continue;
      const json h = read_json(e.path());
      std::vector<double>& ms = times[stem.substr(0, dash)][std::stoi(stem.substr(dash + 1))];
      for (double t : h.at("results").at(0).at("times")) ms.push_back(t * 1000);
    }
    for (const auto& [tool, per_word] : times) {
      for (const auto& [word, ms] : per_word) {
        e2e[tool][word] = spread(ms);
        e2e_all[tool].insert(e2e_all[tool].end(), ms.begin(), ms.end());
      }
    }
  }
  // The median over the words of `a`'s median time over `b`'s for that word.
  // Not the ratio of medians pooled over all words: each tool runs a word's
  // searches in a row, so a slower minute pools into one tool's figure (in the
  // run of 2026-12-03 every word's ratio to quest was 1.21x to 1.32x, the pooled
  // one 1.13x).
  auto word_ratio = [&](const std::string& a, const std::string& b) {
    std::vector<double> ratios;
    for (const auto& [word, sa] : e2e[a]) {
      if (e2e[b].contains(word) && e2e[b][word].median > 0) ratios.push_back(sa.median / e2e[b][word].median);
    }
    return ratios.empty() ? 0.0 : spread(ratios).median;
  };

  json reindex = json::object();
  for (auto& r : read_folder(dir / "reindex")) reindex = r;

  // Facets of a query (issue 43): size -> "author"/"year" -> wall seconds of each run, and
  // the query timed with its matches.
  std::map<long, std::map<std::string, std::vector<double>>> facet_seconds;
  std::map<long, std::pair<std::string, long>> facet_query;
  for (auto& r : read_folder(dir / "facet")) {
    const long size = r.at("size").get<long>();
    facet_seconds[size][r.at("by").get<std::string>()].push_back(r.at("wall_seconds").get<double>());
    facet_query[size] = {r.at("query").get<std::string>(), r.at("matches").get<long>()};
  }

  // The queries people type (issue 44): size -> query -> "top"/"count" -> wall seconds of each
  // run; the queries in the script's order; and which exited with an error (2).
  std::map<long, std::map<long, std::string>> extended_order;
  std::map<long, std::map<std::string, std::map<std::string, std::vector<double>>>> extended;
  std::map<long, std::set<std::string>> extended_failed;
  for (auto& r : read_folder(dir / "extended")) {
    const long size = r.at("size").get<long>();
    const std::string q = r.at("query").get<std::string>();
    extended_order[size][r.at("order").get<long>()] = q;
    extended[size][q][r.at("mode").get<std::string>()].push_back(r.at("wall_seconds").get<double>());
    if (r.at("exit_status").get<int>() == 2) extended_failed[size].insert(q);
  }

  // size -> threads -> throughput record
  std::map<long, std::map<long, json>> throughput;
  for (auto& r : read_folder(dir / "throughput")) throughput[r.at("size").get<long>()][r.at("threads").get<long>()] = r;
  // system -> sizes it was not run at, and why
  std::map<std::string, std::pair<std::vector<long>, std::string>> skipped;
  for (auto& r : read_folder(dir / "skipped")) {
    auto& [sizes, reason] = skipped[r.at("system").get<std::string>()];
    sizes.push_back(r.at("size").get<long>());
    reason = r.at("reason").get<std::string>();
  }
  for (auto& [system, s] : skipped) std::sort(s.first.begin(), s.first.end());
  const json run = fs::exists(dir / "run.json") ? read_json(dir / "run.json") : json::object();
  // The real corpus's size: the issue-6 targets are at the largest size not past it.
  const long real = machine.value("real_abstracts", 0L);
  auto largest_real = [&](const auto& by_size) {
    long best = by_size.empty() ? 0 : by_size.begin()->first;
    for (const auto& [size, v] : by_size) {
      if (real == 0 || size <= real) best = size;
    }
    return best;
  };

  // ---- results.json
  json results{{"machine", machine}, {"subsets", json::object()}, {"indexing", json::object()},
               {"latency", json::object()}, {"end_to_end", json::object()}, {"reindex", reindex}};
  for (auto& [size, s] : subsets) results["subsets"][std::to_string(size)] = s;
  for (auto& [size, systems] : indexing) {
    for (auto& [system, f] : systems) {
      results["indexing"][std::to_string(size)][system] = {
          {"runs", f.runs}, {"seconds", spread_json(f.seconds)}, {"abstracts_per_s", spread_json(f.docs_per_s)},
          {"mb_per_s", spread_json(f.mb_per_s)}, {"index_mb", spread_json(f.disk_mb)},
          {"peak_rss_mb", spread_json(f.rss_mb)}};
    }
  }
  for (auto& [size, systems] : latency) {
    for (auto& [system, f] : systems) {
      json j{{"hits", f.hits}, {"queries_with_hits", f.queries_with_hits}, {"errors", f.errors}};
      for (auto& [kind, p] : f.kinds) {
        j[kind] = {{"p50_ms", spread_json(p[0])}, {"p95_ms", spread_json(p[1])}, {"p99_ms", spread_json(p[2])}};
      }
      results["latency"][std::to_string(size)][system] = j;
    }
  }
  for (auto& [tool, per_query] : e2e) {
    for (auto& [qi, s] : per_query) {
      const std::string words = qi < static_cast<int>(e2e_words.size()) ? e2e_words[qi] : std::to_string(qi);
      results["end_to_end"][tool][words] = spread_json(s);
    }
    results["end_to_end"][tool]["all"] = spread_json(spread(e2e_all[tool]));
  }
  for (auto& [size, by_threads] : throughput) {
    for (auto& [threads, r] : by_threads) results["throughput"][std::to_string(size)][std::to_string(threads)] = r;
  }
  for (auto& [system, s] : skipped) results["skipped"][system] = {{"sizes", s.first}, {"reason", s.second}};
  results["run"] = run;

  // ---- report.md
  std::ostringstream md;
  if (run.contains("seconds")) {
    md << "The run took " << fmt(run.at("seconds").get<double>() / 60, 0) << " minutes (estimated at its start: "
       << run.value("estimated_minutes", 0) << ").\n\n";
  }
  md << "Cells with three numbers are min / **median** / max over the repeated runs; ratios use medians.\n\n";
  auto skipped_note = [&] {
    for (auto& [system, sk] : skipped) {
      md << "\n**" << display(system) << " was not run at";
      for (std::size_t i = 0; i < sk.first.size(); ++i) md << (i ? ", " : " ") << sk.first[i];
      md << " abstracts**: " << sk.second << ".\n";
    }
  };
  md << "### Indexing\n\n";
  md << "Each indexer runs as a child process; time is process start to exit (commit included), memory is its "
        "peak resident set (`ru_maxrss`), size is the disk usage of the index (`du`). MB/s counts the title and "
        "text bytes of the input.\n\n";
  md << "| abstracts | system | runs | time (s) | abstracts/s | MB/s | index (MB) | peak memory (MB) |\n";
  md << "|---:|---|---:|---|---|---:|---:|---:|\n";
  for (auto& [size, systems] : indexing) {
    for (auto& [key, name] : kSystems) {
      if (!systems.contains(key)) continue;
      const auto& f = systems[key];
      md << "| " << size << " | " << name << " | " << f.runs << " | " << range(f.seconds) << " | "
         << range(f.docs_per_s) << " | " << num(f.mb_per_s.median) << " | " << num(f.disk_mb.median) << " | "
         << num(f.rss_mb.max) << " |\n";
    }
  }
  skipped_note();
  md << "\nRatios of the engine to each peer (throughput: higher is better for the engine; size and memory: "
        "lower is better):\n\n";
  md << "| abstracts | engine | vs | throughput | index size | peak memory |\n|---:|---|---|---:|---:|---:|\n";
  for (auto& [size, systems] : indexing) {
    for (const std::string engine : {"engine", "engine-cli"}) {
      for (const std::string peer : {"xapian", "fts5"}) {
        if (!systems.contains(engine) || !systems.contains(peer)) continue;
        const auto &e = systems[engine], &p = systems[peer];
        md << "| " << size << " | " << display(engine) << " | " << display(peer) << " | "
           << ratio(e.docs_per_s.median, p.docs_per_s.median) << " | " << ratio(e.disk_mb.median, p.disk_mb.median)
           << " | " << ratio(e.rss_mb.max, p.rss_mb.max) << " |\n";
      }
    }
  }
  if (!reindex.empty()) {
    const long size = reindex.at("size").get<long>();
    const double full = indexing[size]["engine-cli"].seconds.median;
    md << "\nRe-running `abstracts index` on the unchanged " << size << "-abstract corpus: "
       << fmt(reindex.at("wall_seconds").get<double>(), 3) << " s, " << fmt(100 * reindex.at("wall_seconds").get<double>() / full, 1)
       << "% of the full build (median " << num(full) << " s).\n";
  }

  if (!facet_seconds.empty()) {
    md << "\nFacets of a query, through the CLI as typed (`abstracts stats --by FIELD QUERY`: open the index, "
          "count the field over every match, print the top 20), wall seconds min / **median** / max:\n\n"
          "| abstracts | query | matches | `--by author` | `--by year` |\n|---:|---|---:|---|---|\n";
    for (auto& [size, by] : facet_seconds) {
      md << "| " << size << " | `" << facet_query[size].first << "` | " << facet_query[size].second << " | "
         << (by.contains("author") ? range(spread(by["author"])) : "n/a") << " | "
         << (by.contains("year") ? range(spread(by["year"])) : "n/a") << " |\n";
      for (auto& [field, seconds] : by) {
        results["facets"][std::to_string(size)][field] = {{"query", facet_query[size].first},
                                                          {"matches", facet_query[size].second},
                                                          {"seconds", spread_json(spread(seconds))}};
      }
    }
  }

  if (!extended.empty()) {
    md << "\nThe queries people in the field type (issue 44), through the CLI as typed on the same index "
          "(`abstracts search QUERY`, top 10 with snippets, and `search --count QUERY`; process start to exit), "
          "wall seconds, median of the runs; over 0.25 s (top 10) or 1 s (count) in bold:\n\n"
          "| abstracts | query | top 10 | `--count` |\n|---:|---|---:|---:|\n";
    for (auto& [size, queries] : extended) {
      double slowest_top = 0, slowest_count = 0;
      for (const auto& [order, q] : extended_order[size]) {
        auto& modes = queries[q];
        const double top = spread(modes["top"]).median, count = spread(modes["count"]).median;
        slowest_top = std::max(slowest_top, top);
        slowest_count = std::max(slowest_count, count);
        auto cell = [](double v, double bound) { return v > bound ? "**" + fmt(v, 3) + "**" : fmt(v, 3); };
        md << "| " << size << " | `" << q << "`" << (extended_failed[size].contains(q) ? " (error)" : "") << " | "
           << cell(top, 0.25) << " | " << cell(count, 1.0) << " |\n";
        results["extended"][std::to_string(size)][q] = {{"top_seconds", spread_json(spread(modes["top"]))},
                                                       {"count_seconds", spread_json(spread(modes["count"]))},
                                                       {"error", extended_failed[size].contains(q)}};
      }
      results["extended_slowest"][std::to_string(size)] = {{"top_seconds", slowest_top},
                                                           {"count_seconds", slowest_count}};
    }
  }

  md << "\n### Query latency\n\n";
  md << "One process per system opens the index, runs every query once to warm up, then times each query "
        "(parse, rank top 10, snippets for the 10 hits) in " << "repeated passes; p50/p95/p99 are per pass.\n";
  skipped_note();
  md << "\n";
  for (auto& [size, systems] : latency) {
    md << "**" << size << " abstracts** (milliseconds)\n\n";
    md << "| system | all p50 | all p95 | all p99 | keyword p50 / p99 | phrase p50 / p99 | boolean p50 / p99 | "
          "question p50 / p99 | queries with hits | errors |\n|---|---|---|---|---|---|---|---|---:|---:|\n";
    for (auto& [key, name] : kSystems) {
      if (!systems.contains(key)) continue;
      auto& f = systems[key];
      auto kind = [&](const char* k) {
        return f.kinds.contains(k) ? fmt(f.kinds[k][0].median, 3) + " / " + fmt(f.kinds[k][2].median, 3) : "";
      };
      md << "| " << name << " | " << range(f.kinds["all"][0]) << " | " << range(f.kinds["all"][1]) << " | "
         << range(f.kinds["all"][2]) << " | " << kind("keyword") << " | " << kind("phrase") << " | "
         << kind("boolean") << " | " << kind("question") << " | " << f.queries_with_hits << " / " << f.queries
         << " | " << f.errors << " |\n";
    }
    // Issue 44: each class of query against the floor under it, Xapian's
    // matcher alone over the same index (target: within 1.3x, p50 and p99).
    if (systems.contains("engine") && systems.contains("matcher")) {
      md << "| engine ÷ Xapian's matcher alone | p50 | p99 |\n|---|---:|---:|\n";
      auto& e = systems["engine"].kinds;
      auto& m = systems["matcher"].kinds;
      for (const std::string kind : {"all", "keyword", "phrase", "boolean", "question"}) {
        if (!e.contains(kind) || !m.contains(kind)) continue;
        const double p50 = e[kind][0].median / m[kind][0].median, p99 = e[kind][2].median / m[kind][2].median;
        md << "| " << kind << " | " << fmt(p50, 2) << "x | " << fmt(p99, 2) << "x |\n";
        results["matcher_ratio"][std::to_string(size)][kind] = {{"p50", p50}, {"p99", p99}};
      }
      md << "\n";
    }
    md << "\n| engine vs | p50 ratio | p95 ratio | p99 ratio | peer p99 ÷ engine p99 |\n|---|---:|---:|---:|---:|\n";
    for (const std::string peer : {"xapian", "fts5"}) {
      if (!systems.contains("engine") || !systems.contains(peer)) continue;
      auto &e = systems["engine"].kinds["all"], &p = systems[peer].kinds["all"];
      md << "| " << display(peer) << " | " << ratio(e[0].median, p[0].median) << " | "
         << ratio(e[1].median, p[1].median) << " | " << ratio(e[2].median, p[2].median) << " | "
         << ratio(p[2].median, e[2].median) << " |\n";
    }
    md << "\n";
  }

  if (!e2e.empty()) {
    md << "### End-to-end search of the bundled corpus\n\n";
    md << "Process start to exit, output to a pipe, measured by `hyperfine -N` in rounds, the tools taking "
          "turns (milliseconds); the last row's ratios are the median of the words' ratios:\n\n";
    md << "| words |";
    for (auto& [key, name] : kTools) {
      if (e2e.contains(key)) md << " " << name << " |";
    }
    md << " abstracts ÷ rg | abstracts ÷ quest |\n|---|";
    for (auto& [key, name] : kTools) {
      if (e2e.contains(key)) md << "---|";
    }
    md << "---:|---:|\n";
    const std::size_t nq = e2e.begin()->second.size();
    for (std::size_t qi = 0; qi <= nq; ++qi) {
      const bool all = qi == nq;
      md << "| " << (all ? std::string("all runs") : qi < e2e_words.size() ? "`" + e2e_words[qi] + "`" : "") << " |";
      std::map<std::string, double> med;
      for (auto& [key, name] : kTools) {
        if (!e2e.contains(key)) continue;
        const Spread s = all ? spread(e2e_all[key]) : e2e[key][static_cast<int>(qi)];
        med[key] = s.median;
        md << " " << range(s) << " |";
      }
      if (all) {  // the words' ratios, not the pooled runs'
        md << " " << fmt(word_ratio("abstracts", "rg"), 2) << "x | " << fmt(word_ratio("abstracts", "quest"), 2) << "x |\n";
      } else {
        md << " " << ratio(med["abstracts"], med["rg"]) << " | " << ratio(med["abstracts"], med["quest"]) << " |\n";
      }
    }
    md << "\n";
  }

  // ---- throughput: one process, one Index, 1 and 2 threads
  if (!throughput.empty()) {
    md << "### Throughput\n\n";
    md << "One process opens the engine's index once (`Index::open`) and shares it between the "
          "threads, which take the queries in order from one counter (limit 10, snippets on), "
          "after one warm-up pass; the timed part is the same whole passes over the set for every "
          "thread count; queries per second over it. CPU cores used is the process's CPU time over "
          "the timed part ÷ its wall time: below the thread count, the threads waited (for a CPU "
          "the machine gave to others, or for each other).\n\n";
    md << "| abstracts | threads | seconds | queries | queries/s | p50 (ms) | p99 (ms) | CPU cores used | CPU ms a "
          "query | vs 1 thread | errors |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (auto& [size, by_threads] : throughput) {
      const double one = by_threads.contains(1) ? by_threads[1].at("qps").get<double>() : 0;
      for (auto& [threads, r] : by_threads) {
        md << "| " << size << " | " << threads << " | " << num(r.at("seconds")) << " | " << r.at("queries") << " | "
           << num(r.at("qps")) << " | " << fmt(r.at("p50_ms"), 3) << " | " << fmt(r.at("p99_ms"), 3) << " | "
           << fmt(r.value("cpu_seconds", 0.0) / r.at("seconds").get<double>(), 2) << " | "
           << fmt(1000 * r.value("cpu_seconds", 0.0) / std::max(1.0, r.at("queries").get<double>()), 3) << " | "
           << ratio(r.at("qps").get<double>(), one) << " | " << r.at("errors") << " |\n";
      }
    }
    md << "\n";
  }

  // ---- the synthetic corpora: their vocabulary against Heaps' law
  bool any_synthetic = false;
  for (auto& [size, sub] : subsets) any_synthetic |= sub.value("synthetic_abstracts", 0L) > 0;
  if (any_synthetic) {
    md << "### Synthetic corpora\n\n";
    md << "Sizes past the real corpus are written by `speed synth`: the real abstracts, then abstracts "
          "recombined from their titles and sentences, rare words rewritten into new ones at the rate Heaps' law "
          "predicts. Vocabulary: distinct lower-cased words (runs of letters).\n\n";
    md << "| abstracts | synthetic | Heaps K | Heaps b | vocabulary written | Heaps' prediction | new words |\n"
          "|---:|---:|---:|---:|---:|---:|---:|\n";
    for (auto& [size, sub] : subsets) {
      if (sub.value("synthetic_abstracts", 0L) <= 0) continue;
      const json& last = sub.at("vocabulary").back();
      md << "| " << size << " | " << sub.at("synthetic_abstracts") << " | " << num(sub.at("heaps").at("k")) << " | "
         << fmt(sub.at("heaps").at("b"), 3) << " | " << last.at("vocabulary") << " | " << last.at("heaps") << " | "
         << sub.at("new_words") << " |\n";
    }
    md << "\n";
  }

  // ---- targets (issue 20), every figure from this run
  json targets20 = json::array();
  {
    const long big = indexing.empty() ? 0 : indexing.rbegin()->first;
    const long mid = largest_real(indexing);
    const std::string at_big = std::to_string(big) + (big == 1000000 ? "" : " (the issue asks 1000000)");
    md << "### Targets (issue 20)\n\n| figure | measured | target | met |\n|---|---|---|---|\n";
    auto row = [&](const std::string& figure, const std::string& measured, const std::string& target,
                   std::optional<bool> met) {
      const std::string verdict = !met ? "not measured" : *met ? "met" : "**not met**";
      md << "| " << figure << " | " << measured << " | " << target << " | " << verdict << " |\n";
      targets20.push_back({{"figure", figure}, {"measured", measured}, {"target", target},
                           {"met", met ? json(*met) : json(nullptr)}});
    };
    auto index_figures = [&](long size, const char* system) -> const IndexFigures* {
      if (!indexing.contains(size) || !indexing[size].contains(system)) return nullptr;
      return &indexing[size][system];
    };
    const IndexFigures *cli_mid = index_figures(mid, "engine-cli"), *fts_mid = index_figures(mid, "fts5");
    const IndexFigures *cli_big = index_figures(big, "engine-cli"), *fts_big = index_figures(big, "fts5");
    if (cli_mid && fts_mid) {
      const double r = cli_mid->docs_per_s.median / fts_mid->docs_per_s.median;
      row("Indexing rate at " + std::to_string(mid) + (mid == real ? "" : " (the issue asks 115k)") + ", CLI",
          num(cli_mid->docs_per_s.median) + " vs " + num(fts_mid->docs_per_s.median) + " abstracts/s = " + fmt(r, 2) +
              "x SQLite FTS5",
          ">= 0.5x SQLite FTS5", r >= 0.5);
    } else {
      row("Indexing rate at 115k, CLI", "", ">= 0.5x SQLite FTS5", std::nullopt);
    }
    if (cli_mid && cli_big && big > mid) {
      const double r = cli_big->docs_per_s.median / cli_mid->docs_per_s.median;
      row("Indexing rate at " + at_big + ", CLI",
          num(cli_big->docs_per_s.median) + " vs " + num(cli_mid->docs_per_s.median) + " abstracts/s at " +
              std::to_string(mid) + " = " + fmt(100 * r, 0) + "%",
          ">= 80% of the rate at " + std::to_string(mid), r >= 0.8);
    } else {
      row("Indexing rate at 1M, CLI", "", ">= 80% of the rate at 115k", std::nullopt);
    }
    if (cli_big) {
      row("Peak memory indexing " + at_big + ", CLI", num(cli_big->rss_mb.max) + " MB (max over runs)", "< 250 MB",
          cli_big->rss_mb.max < 250);
    }
    const LatencyFigures* lat_big =
        latency.contains(big) && latency[big].contains("engine") ? &latency[big]["engine"] : nullptr;
    if (lat_big) {
      const auto& e = lat_big->kinds.at("all");
      // The floor under it: Xapian's matcher alone over the same index.
      auto floor = [&](int at) {
        if (!latency[big].contains("matcher")) return std::string();
        return " (Xapian's matcher alone: " + fmt(latency[big]["matcher"].kinds.at("all")[at].median, 3) + " ms)";
      };
      row("Query p50 at " + at_big + ", top 10 with snippets", fmt(e[0].median, 3) + " ms" + floor(0), "<= 2 ms",
          e[0].median <= 2);
      row("Query p99 at " + at_big + ", top 10 with snippets", fmt(e[2].median, 3) + " ms" + floor(2), "<= 20 ms",
          e[2].median <= 20);
      if (latency[big].contains("fts5")) {
        const double f = latency[big]["fts5"].kinds["all"][2].median, r = f / e[2].median;
        row("Query p99 at " + at_big + " against SQLite FTS5",
            fmt(f, 3) + " vs " + fmt(e[2].median, 3) + " ms = " + fmt(r, 2) + "x faster", ">= 3x faster", r >= 3);
      }
    } else {
      row("Query p50 / p99 at 1M", "", "<= 2 ms / <= 20 ms", std::nullopt);
    }
    if (cli_big && fts_big) {
      const double r = cli_big->disk_mb.median / fts_big->disk_mb.median;
      row("Index size at " + at_big + ", CLI",
          num(cli_big->disk_mb.median) + " vs " + num(fts_big->disk_mb.median) + " MB = " + fmt(r, 2) + "x SQLite FTS5",
          "<= 1.0x SQLite FTS5", r <= 1.0);
    }
    if (e2e.contains("abstracts") && e2e.contains("quest")) {
      const double r = word_ratio("abstracts", "quest");
      row("Terminal search of the bundled corpus",
          fmt(r, 2) + "x quest (median over the words of the ratio of medians)", "<= 1.2x quest's wall time",
          r <= 1.2);
    } else {
      row("Terminal search of the bundled corpus", "", "<= 1.2x quest's wall time", std::nullopt);
    }
    const long tsize = throughput.empty() ? 0 : throughput.rbegin()->first;
    if (tsize > 0 && throughput[tsize].contains(1) && throughput[tsize].contains(2)) {
      const json &r1 = throughput[tsize][1], &r2 = throughput[tsize][2];
      const double one = r1.at("qps"), two = r2.at("qps");
      const double cores = r2.value("cpu_seconds", 0.0) / r2.at("seconds").get<double>();
      row("Throughput with 2 threads at " + std::to_string(tsize),
          num(two) + " vs " + num(one) + " queries/s = " + fmt(two / one, 2) + "x (2 threads used " +
              fmt(cores, 2) + " CPU cores)",
          ">= 1.7x one thread", two / one >= 1.7);
    } else {
      row("Throughput with 2 threads", "", ">= 1.7x one thread", std::nullopt);
    }
    md << "\n";
  }
  results["targets_issue20"] = targets20;
  std::ofstream(dir / "results.json") << results.dump(2) << '\n';

  // ---- targets (issue 6) at the largest size of the real corpus
  md << "### Targets (issue 6)\n\n| target | measured | met |\n|---|---|---|\n";
  auto row = [&](const std::string& target, const std::string& measured, bool met) {
    md << "| " << target << " | " << measured << " | " << (met ? "met" : "**not met**") << " |\n";
  };
  if (!indexing.empty()) {
    const long size = largest_real(indexing);
    auto& sys = indexing[size];
    for (const std::string engine : {"engine", "engine-cli"}) {
      if (!sys.contains(engine) || !sys.contains("xapian")) continue;
      const double r = sys[engine].docs_per_s.median / sys["xapian"].docs_per_s.median;
      row("Indexing " + std::to_string(size) + ": >= 4x plain Xapian's throughput (" + display(engine) + ")",
          num(sys[engine].docs_per_s.median) + " vs " + num(sys["xapian"].docs_per_s.median) + " abstracts/s = " +
              fmt(r, 2) + "x; vs SQLite FTS5 " + ratio(sys[engine].docs_per_s.median, sys["fts5"].docs_per_s.median),
          r >= 4);
    }
    if (sys.contains("engine") && sys.contains("fts5")) {
      const double r = sys["engine"].disk_mb.median / sys["fts5"].disk_mb.median;
      row("Index size <= 1.2x SQLite FTS5's", num(sys["engine"].disk_mb.median) + " vs " +
          num(sys["fts5"].disk_mb.median) + " MB = " + fmt(r, 2) + "x", r <= 1.2);
    }
    if (sys.contains("engine") && indexing.begin()->first < size) {
      const auto& first = indexing.begin()->second;
      if (first.contains("engine")) {
        const double a = first.at("engine").rss_mb.max, b = sys["engine"].rss_mb.max;
        const double growth = b / a, corpus_growth = static_cast<double>(size) / indexing.begin()->first;
        row("Peak indexing memory bounded as the corpus grows", num(a) + " MB at " +
            std::to_string(indexing.begin()->first) + ", " + num(b) + " MB at " + std::to_string(size) + " (" +
            fmt(growth, 1) + "x for " + fmt(corpus_growth, 1) + "x the abstracts)", growth < 1.5);
      }
    }
  }
  if (!latency.empty()) {
    auto& sys = latency[largest_real(latency)];
    const std::string at = " at " + std::to_string(largest_real(latency));
    if (sys.contains("engine")) {
      auto& e = sys["engine"].kinds["all"];
      row("Query p50 <= 1 ms" + at, fmt(e[0].median, 3) + " ms", e[0].median <= 1);
      row("Query p99 <= 10 ms" + at, fmt(e[2].median, 3) + " ms", e[2].median <= 10);
      if (sys.contains("fts5")) {
        const double r = sys["fts5"].kinds["all"][2].median / e[2].median;
        row("Query p99 >= 3x faster than SQLite FTS5" + at,
            fmt(sys["fts5"].kinds["all"][2].median, 3) + " vs " + fmt(e[2].median, 3) + " ms = " + fmt(r, 2) + "x", r >= 3);
      }
    }
  }
  if (e2e.contains("abstracts")) {
    if (e2e.contains("rg")) {
      const double r = word_ratio("abstracts", "rg");
      row("End-to-end search faster than ripgrep", fmt(r, 2) + "x ripgrep's time (median over the words)", r < 1);
    }
    if (e2e.contains("quest")) {
      const double r = word_ratio("abstracts", "quest");
      row("End-to-end search within 1.5x of quest", fmt(r, 2) + "x (median over the words)", r <= 1.5);
    }
  }
  if (!reindex.empty()) {
    const long size = reindex.at("size").get<long>();
    const double pct = 100 * reindex.at("wall_seconds").get<double>() / indexing[size]["engine-cli"].seconds.median;
    row("Re-index of the unchanged " + std::to_string(size) + " corpus < 5% of the full build", fmt(pct, 1) + "%", pct < 5);
  }
  std::ofstream(dir / "report.md") << md.str();

  // ---- plot data: one row per size, median per system ("?" where missing)
  auto write_dat = [&](const char* file, auto value) {
    std::ofstream dat(dir / file);
    dat << "abstracts";
    for (auto& [key, name] : kSystems) {
      if (key != "matcher") dat << " \"" << name << "\"";  // it builds no index
    }
    dat << "\n";
    for (auto& [size, systems] : indexing) {
      dat << size;
      for (auto& [key, name] : kSystems) {
        if (key != "matcher") dat << ' ' << (systems.contains(key) ? fmt(value(systems[key]), 3) : "?");
      }
      dat << '\n';
    }
  };
  write_dat("indexing.dat", [](const IndexFigures& f) { return f.docs_per_s.median; });
  write_dat("size.dat", [](const IndexFigures& f) { return f.disk_mb.median; });
  std::ofstream lat(dir / "latency.dat");
  lat << "# abstracts, then p50 and p99 (ms) per system:";
  for (auto& [key, name] : kSystems) {
    if (key != "engine-cli") lat << " \"" << name << "\"";
  }
  lat << "\n";
  for (auto& [size, systems] : latency) {
    lat << size;
    for (auto& [key, name] : kSystems) {
      if (key == "engine-cli") continue;
      if (systems.contains(key)) {
        lat << ' ' << fmt(systems[key].kinds["all"][0].median, 4) << ' ' << fmt(systems[key].kinds["all"][2].median, 4);
      } else {
        lat << " ? ?";
      }
    }
    lat << '\n';
  }
}

}  // namespace abstracts::speed
