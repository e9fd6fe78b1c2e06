// speed: the pieces of the speed benchmark (docs/performance.md), run in turn by
// scripts/bench-speed. Each subcommand does one step and writes JSON:
//   subset   the first N abstracts of a corpus, as JSON Lines (BEIR's or arXiv's snapshot layout)
//   synth    N abstracts: the real ones, then ones recombined from them, with new words (Heaps' law)
//   zotero-synth  a Zotero database of N items made of real abstracts, in a real database's schema
//   vocabulary  distinct words of the first n abstracts of a file, at several n
//   queries  the fixed query set, drawn from the corpus with a seed
//   index    build one system's index (run under `measure`)
//   measure  run a command as a child: wall time, CPU, peak memory, disk size
//   search   per-query latency of one system over the query set
//   throughput  queries per second of T threads sharing one engine Index
//   report   aggregate a results folder into results.json, report.md and plot data
// Exit status: 0 on success, 2 on error.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "abstracts/error.h"
#include "bench/relevance/collection.h"
#include "bench/speed/child_process.h"
#include "bench/speed/query_set.h"
#include "bench/speed/query_timing.h"
#include "bench/speed/report.h"
#include "bench/speed/synth.h"
#include "bench/speed/system.h"
#include "bench/speed/throughput.h"
#include "bench/speed/zotero_synth.h"

namespace {

using namespace abstracts::speed;
using nlohmann::json;
namespace fs = std::filesystem;

void write_json(const json& j, const std::string& file) {
  if (file.empty() || file == "-") {
    std::cout << j.dump(2) << '\n';
    return;
  }
  std::ofstream out(file);
  out << j.dump(2) << '\n';
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file);
}

// "key=value" -> {key: value}, the value as a number when it reads as one.
json fields(const std::vector<std::string>& pairs) {
  json j = json::object();
  for (const auto& p : pairs) {
    const auto eq = p.find('=');
    if (eq == std::string::npos) throw std::runtime_error("--set wants key=value, got " + p);
    const std::string key = p.substr(0, eq), value = p.substr(eq + 1);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (!value.empty() && end == value.c_str() + value.size()) {
      j[key] = number;
    } else {
      j[key] = value;
    }
  }
  return j;
}

// One abstract as a line of arXiv's metadata snapshot (the Kaggle file): its
// id, title and text, and the other keys from `donor` (a real snapshot record:
// authors, categories, dates, comments), so the reader parses what it would in
// the real file; its DOI is left out, since a DOI would become the id. Past the
// first round of donors (`round` > 0), each author's family name gets a
// suffix drawn from about round / 4 + 1 (deterministic, as in "Nadolskybq"), so
// the number of people grows with the corpus, as on arXiv, rather than staying
// the donors' few hundred: what a facet by author has to count and merge.
json arxiv_snapshot_record(const abstracts::eval::CorpusDocument& d, json donor, std::size_t n, std::size_t round) {
  donor["id"] = d.id;
  donor["title"] = d.title;
  donor["abstract"] = d.text;
  donor["doi"] = nullptr;
  auto parsed = donor.find("authors_parsed");
  if (round > 0 && parsed != donor.end() && parsed->is_array()) {
    std::string names;
    for (std::size_t j = 0; j < parsed->size(); ++j) {
      json& author = (*parsed)[j];
      if (!author.is_array() || author.empty() || !author[0].is_string()) continue;
      std::uint64_t x = (static_cast<std::uint64_t>(n) << 8) + j + 0x9e3779b97f4a7c15ULL;  // splitmix64
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
      x ^= x >> 31;
      std::string family = author[0].get<std::string>();
      for (std::uint64_t v = x % (round / 4 + 1); v > 0; v /= 26) family += static_cast<char>('a' + v % 26);
      author[0] = family;
      if (!names.empty()) names += ", ";
      names += (author.size() > 1 && author[1].is_string() ? author[1].get<std::string>() + " " : "") + family;
    }
    donor["authors"] = names;
  }
  return donor;
}

// The records of a JSON Lines file of arXiv's snapshot.
std::vector<json> read_snapshot(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<json> records;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) records.push_back(json::parse(line));
  }
  if (records.empty()) throw std::runtime_error(file.string() + ": no records");
  return records;
}

// The first `count` abstracts of `corpus`, as BEIR JSON Lines, or (with
// `donors`, records of arXiv's snapshot) in the snapshot's layout, the metadata
// of donor i % donors.size() on abstract i.
json subset(const fs::path& corpus, const fs::path& out_file, std::size_t count, const std::vector<json>& donors) {
  std::ofstream out(out_file, std::ios::binary);
  std::size_t n = 0, text_bytes = 0;
  try {
    abstracts::eval::for_each_document(corpus, [&](const abstracts::eval::CorpusDocument& d) {
      if (n == count) throw std::out_of_range("enough");
      const json record = !donors.empty() ? arxiv_snapshot_record(d, donors[n % donors.size()], n, n / donors.size())
                                          : json{{"_id", d.id}, {"title", d.title}, {"text", d.text}};
      out << record.dump() << '\n';
      text_bytes += d.title.size() + d.text.size();
      ++n;
    });
  } catch (const std::out_of_range&) {
    // The first `count` are written.
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write " + out_file.string());
  return {{"abstracts", n}, {"text_bytes", text_bytes}, {"file_bytes", fs::file_size(out_file)}};
}

json search_record(const std::string& system, const QueryTiming& t) {
  json passes = json::array();
  for (const auto& pass : t.passes) {
    json p = json::object();
    for (const auto& [kind, s] : pass) {
      p[kind] = {{"p50_ms", s.p50}, {"p95_ms", s.p95}, {"p99_ms", s.p99}, {"mean_ms", s.mean},
                 {"queries", s.queries}};
    }
    passes.push_back(p);
  }
  json errors = json::array();
  for (std::size_t i = 0; i < t.errors.size() && i < 5; ++i) errors.push_back(t.errors[i]);
  return {{"system", system},          {"open_ms", t.open_ms},
          {"passes", passes},          {"hits", t.hits},
          {"queries_with_hits", t.queries_with_hits},
          {"error_count", t.errors.size()}, {"errors", errors}};
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  CLI::App app{"speed: indexing and query speed of abstracts vs. plain Xapian and SQLite FTS5",
               "speed"};
  app.require_subcommand(1);
  std::vector<std::string> system_names;
  for (const auto& s : systems()) system_names.push_back(s.name);

  std::string corpus, out, index_path, system, queries_file, results_dir;
  std::size_t count = 0, pool = 10000, passes = 3;
  std::uint64_t seed = 20260;
  QuerySetSizes sizes;
  std::vector<std::string> set_fields, command;
  std::string disk;

  auto* sub = app.add_subcommand("subset", "Write the first --count abstracts of CORPUS to OUT as JSON Lines; print counts");
  sub->add_option("CORPUS", corpus, "BEIR JSON Lines, plain or gzip")->required()->check(CLI::ExistingFile);
  sub->add_option("OUT", out, "The JSON Lines file to write")->required();
  sub->add_option("--count", count, "How many abstracts")->required();
  std::string snapshot;
  sub->add_option("--arxiv-snapshot", snapshot,
                  "Write arXiv's snapshot layout instead of BEIR's, with the authors, categories and dates of "
                  "this snapshot file's records, in turn")
      ->check(CLI::ExistingFile);

  SynthOptions synth_options;
  auto* syn = app.add_subcommand(
      "synth", "Write --count abstracts to OUT as BEIR JSON Lines: CORPUS's, then ones recombined from its sentences "
               "and titles, with new words at the rate Heaps' law fitted on CORPUS predicts; print a summary");
  syn->add_option("CORPUS", corpus, "BEIR JSON Lines, plain or gzip")->required()->check(CLI::ExistingFile);
  syn->add_option("OUT", out, "The JSON Lines file to write")->required();
  syn->add_option("--count", synth_options.count, "How many abstracts")->required();
  syn->add_option("--seed", synth_options.seed, "Random seed (std::mt19937_64)")->capture_default_str();
  syn->add_option("--rare-max", synth_options.rare_max,
                  "Words seen at most this often in CORPUS are the ones rewritten into new words")
      ->capture_default_str();

  ZoteroSynthOptions zotero_options;
  auto* zot = app.add_subcommand(
      "zotero-synth", "Write a Zotero database of --count regular items to OUT: the schema and lookup tables of "
                      "--from, items made of the abstracts of --abstracts; print a summary");
  zot->add_option("OUT", zotero_options.out, "The database to write (replaced if there)")->required();
  zot->add_option("--from", zotero_options.from, "A real zotero.sqlite, only read")
      ->required()
      ->check(CLI::ExistingFile);
  zot->add_option("--abstracts", zotero_options.abstracts,
                  "JSON Lines, plain or gzip, in BEIR's or arXiv's snapshot layout; read again from its start "
                  "for more items than it has")
      ->required()
      ->check(CLI::ExistingFile);
  zot->add_option("--count", zotero_options.count, "How many items")->required()->check(CLI::PositiveNumber);
  zot->add_option("--seed", zotero_options.seed, "Random seed (std::mt19937_64)")->capture_default_str();

  std::vector<std::size_t> vocabulary_at = {10000, 30000, 115239, 500000, 1000000};
  auto* voc = app.add_subcommand("vocabulary", "Count the distinct lower-cased words of the first n abstracts of CORPUS");
  voc->add_option("CORPUS", corpus, "BEIR JSON Lines, plain or gzip")->required()->check(CLI::ExistingFile);
  voc->add_option("--at", vocabulary_at, "The n's (and the whole file)")->delimiter(',')->capture_default_str();

  ThroughputOptions throughput_options;
  auto* thr = app.add_subcommand("throughput",
                                 "Queries per second of --threads threads sharing one engine Index opened once");
  thr->add_option("INDEX", index_path, "The engine's index directory")->required()->check(CLI::ExistingPath);
  thr->add_option("QUERIES", queries_file, "Query file from `speed queries`")->required()->check(CLI::ExistingFile);
  thr->add_option("--threads", throughput_options.threads, "Threads")->capture_default_str()->check(CLI::PositiveNumber);
  auto* thr_seconds = thr->add_option("--seconds", throughput_options.seconds,
                                      "Timed part: as many whole passes over the query set as fill "
                                      "this long by the warm-up pass")
                          ->capture_default_str()
                          ->check(CLI::PositiveNumber);
  thr->add_option("--passes", throughput_options.passes,
                  "Timed part: this many passes over the query set, shared by the threads")
      ->check(CLI::PositiveNumber)
      ->excludes(thr_seconds);
  thr->add_option("--out", out, "JSON file to write (default: stdout)");
  thr->add_option("--set", set_fields, "key=value to add to the record (repeatable)")->allow_extra_args(false);

  auto* qry = app.add_subcommand("queries", "Draw the query set from the first --pool abstracts of CORPUS");
  qry->add_option("CORPUS", corpus, "BEIR JSON Lines, plain or gzip")->required()->check(CLI::ExistingFile);
  qry->add_option("OUT", out, "The query file to write (JSON Lines)")->required();
  qry->add_option("--pool", pool, "Draw from this many abstracts")->capture_default_str();
  qry->add_option("--seed", seed, "Random seed")->capture_default_str();
  qry->add_option("--keyword", sizes.keyword, "Keyword queries")->capture_default_str();
  qry->add_option("--phrase", sizes.phrase, "Phrase queries")->capture_default_str();
  qry->add_option("--boolean", sizes.boolean, "Boolean queries")->capture_default_str();
  qry->add_option("--question", sizes.question, "Question queries (4-8 words)")->capture_default_str();

  auto* idx = app.add_subcommand("index", "Build SYSTEM's index of CORPUS at INDEX");
  idx->add_option("--system", system, "engine, xapian or fts5")->required()->check(CLI::IsMember(system_names));
  idx->add_option("CORPUS", corpus, "BEIR JSON Lines (or, for xapian, a folder of bundled .txt files)")
      ->required()->check(CLI::ExistingPath);
  idx->add_option("INDEX", index_path, "Index directory (fts5: database file)")->required();

  auto* mes = app.add_subcommand("measure", "Run COMMAND as a child and write its wall time, CPU time and peak memory");
  mes->add_option("--out", out, "JSON file to write (default: stdout)");
  mes->add_option("--set", set_fields, "key=value to add to the record (repeatable)")
      ->allow_extra_args(false);
  mes->add_option("--disk", disk, "Also record the disk usage of this path after the command");
  mes->add_option("COMMAND", command, "The command, after --")->required();

  auto* sea = app.add_subcommand("search", "Time SYSTEM on every query of QUERIES over INDEX");
  sea->add_option("--system", system, "engine, xapian or fts5")->required()->check(CLI::IsMember(system_names));
  sea->add_option("INDEX", index_path, "Index directory (fts5: database file)")->required()->check(CLI::ExistingPath);
  sea->add_option("QUERIES", queries_file, "Query file from `speed queries`")->required()->check(CLI::ExistingFile);
  sea->add_option("--passes", passes, "Timed passes after one warm-up pass")->capture_default_str()->check(CLI::PositiveNumber);
  sea->add_option("--out", out, "JSON file to write (default: stdout)");
  sea->add_option("--set", set_fields, "key=value to add to the record (repeatable)")
      ->allow_extra_args(false);

  auto* rep = app.add_subcommand("report", "Aggregate RESULTS_DIR into results.json, report.md and plot data");
  rep->add_option("RESULTS_DIR", results_dir, "The folder scripts/bench-speed fills")->required()->check(CLI::ExistingDirectory);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << "\nhint: run `speed --help` for usage\n";
    return 2;
  }

  try {
    if (sub->parsed()) {
      write_json(subset(corpus, out, count, snapshot.empty() ? std::vector<json>{} : read_snapshot(snapshot)), "-");
    } else if (syn->parsed()) {
      write_json(synthesize(corpus, out, synth_options), "-");
    } else if (zot->parsed()) {
      write_json(synthesize_zotero(zotero_options), "-");
    } else if (voc->parsed()) {
      write_json(vocabulary(corpus, vocabulary_at), "-");
    } else if (thr->parsed()) {
      const ThroughputResult r = measure_throughput(index_path, load_queries(queries_file), throughput_options);
      json j{{"system", "engine"},          {"threads", r.threads},     {"seconds", r.seconds},
             {"queries", r.queries},        {"qps", r.qps},             {"per_thread", r.per_thread},
             {"p50_ms", r.p50_ms},          {"p99_ms", r.p99_ms},       {"cpu_seconds", r.cpu_seconds},
             {"warmup_seconds", r.warmup_seconds},
             {"open_ms", r.open_ms},        {"errors", r.errors},       {"first_error", r.first_error},
             {"passes", r.passes}};
      j.update(fields(set_fields));
      write_json(j, out);
    } else if (qry->parsed()) {
      save_queries(generate_queries(corpus, pool, seed, sizes), out);
    } else if (idx->parsed()) {
      find_system(system).index(corpus, index_path);
    } else if (mes->parsed()) {
      const ChildUsage u = run_child(command);
      json j = fields(set_fields);
      j["wall_seconds"] = u.wall_seconds;
      j["user_seconds"] = u.user_seconds;
      j["sys_seconds"] = u.sys_seconds;
      j["max_rss_kb"] = u.max_rss_kb;
      j["exit_status"] = u.exit_status;
      if (!disk.empty()) j["disk_bytes"] = disk_usage(disk);
      write_json(j, out);
      if (u.exit_status != 0) {
        std::cerr << "error: `" << command.front() << "` exited with status " << u.exit_status << '\n';
        return 2;
      }
    } else if (sea->parsed()) {
      const auto queries = load_queries(queries_file);
      json j = search_record(system, time_queries(find_system(system), index_path, queries, passes));
      j.update(fields(set_fields));
      write_json(j, out);
    } else if (rep->parsed()) {
      write_report(results_dir);
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
