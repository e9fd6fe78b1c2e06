#include "bench/relevance/report.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

namespace abstracts::eval {
namespace {

std::string display_name(const std::string& name) {
  if (name == "scifact") return "SciFact";
  if (name == "cranfield") return "Cranfield";
  if (name == "cacm") return "CACM";
  return name;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

// Published figures with the digits they were published with: 0.350, 0.3123.
std::string cell(const std::optional<double>& value) {
  if (!value) return "–";
  const bool three = std::abs(*value * 1000 - std::round(*value * 1000)) < 1e-9;
  return fixed(*value, three ? 3 : 4);
}

// 5183 -> "5,183"
std::string thousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

constexpr std::size_t kMaxProblemsShown = 10;

nlohmann::ordered_json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// 0.6966 with standard error 0.0262 -> "0.697 ± 0.026"
std::string with_error(const Mean& m) {
  return fixed(m.value, 3) + " ± " + fixed(m.standard_error, 3);
}

// "+0.0112 ± 0.0108 (45 / 33)", "-0.0000" for a tiny loss: four places, since the
// differences worth reading are often below 0.005.
std::string difference_cell(const Difference& d) {
  const std::string mean = fixed(d.mean.value, 4);
  return (mean[0] == '-' ? "" : "+") + mean + " ± " + fixed(d.mean.standard_error, 4) + " (" +
         std::to_string(d.better) + " / " + std::to_string(d.worse) + ")";
}

nlohmann::ordered_json difference_json(const Difference& d) {
  return {{"difference", d.mean.value},
          {"standard_error", d.mean.standard_error},
          {"better", d.better},
          {"worse", d.worse}};
}

// The first system against each of the others, by the other's name.
std::vector<std::pair<std::string, Comparison>> comparisons(const CollectionResult& c) {
  std::vector<std::pair<std::string, Comparison>> out;
  for (std::size_t i = 1; i < c.systems.size(); ++i) {
    out.emplace_back(c.systems[i].run.system,
                     compare(c.systems[i].per_query, c.systems[0].per_query));
  }
  return out;
}

}  // namespace

void print_markdown(std::ostream& out, const std::vector<CollectionResult>& results) {
  for (const auto& c : results) {
    out << "## " << display_name(c.name);
    if (!c.split.empty()) out << " (" << c.split << " split)";
    out << "\n\n";
    std::size_t scored = c.systems.empty() ? 0 : c.systems.front().scores.queries;
    out << thousands(c.documents) << " documents; " << thousands(c.queries) << " queries, "
        << thousands(scored) << " of them with relevant judgments (the ones scored).\n\n";
    out << "| system | nDCG@10 | recall@100 | MAP | index (s) | queries (s) | ms/query |\n"
        << "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& s : c.systems) {
      out << "| " << s.run.system << " | " << with_error(s.scores.ndcg_at_10) << " | "
          << with_error(s.scores.recall_at_100) << " | " << with_error(s.scores.map) << " | ";
      if (s.run.read_from.empty()) {
        const double per_query =
            c.queries == 0 ? 0 : 1000 * s.run.query_seconds / static_cast<double>(c.queries);
        out << fixed(s.run.index_seconds, 2) << " | " << fixed(s.run.query_seconds, 2) << " | "
            << fixed(per_query, 2) << " |\n";
      } else {
        out << "– | – | – |\n";
      }
    }
    for (const auto& p : c.published) {
      out << "| *published:* " << p.system << " | " << cell(p.ndcg_at_10) << " | "
          << cell(p.recall_at_100) << " | " << cell(p.map) << " | | | |\n";
    }
    out << "\n";
    const auto compared = comparisons(c);
    if (!compared.empty()) {
      out << c.systems.front().run.system
          << " against each other system, query by query: the mean difference ± its standard "
             "error (queries higher / lower).\n\n"
          << "| " << c.systems.front().run.system << " against | nDCG@10 | recall@100 | MAP |\n"
          << "|---|---:|---:|---:|\n";
      for (const auto& [other, d] : compared) {
        out << "| " << other << " | " << difference_cell(d.ndcg_at_10) << " | "
            << difference_cell(d.recall_at_100) << " | " << difference_cell(d.map) << " |\n";
      }
      out << "\n";
    }
    std::vector<std::string> notes;
    if (c.empty_documents > 0) {
      notes.push_back(std::to_string(c.empty_documents) +
                      " corpus records have neither title nor text.");
    }
    if (c.renamed_judged_ids > 0) {
      notes.push_back(std::to_string(c.renamed_judgments) + " judgments (" +
                      std::to_string(c.renamed_judged_ids) +
                      " distinct ids) lack the zero padding of the corpus ids and were matched "
                      "to them (" +
                      c.renamed_example + ").");
    }
    if (c.unknown_judged_ids > 0) {
      notes.push_back(std::to_string(c.unknown_judged_ids) + " judgments name no corpus document.");
    }
    for (const auto& s : c.systems) {
      if (!s.run.read_from.empty()) {
        notes.push_back(s.run.system + ": read from " + s.run.read_from + ".");
      }
      if (s.run.unknown_ids > 0) {
        notes.push_back(s.run.system + ": " + std::to_string(s.run.unknown_ids) +
                        " returned ids are not corpus ids.");
      }
      for (const auto& note : s.run.notes) notes.push_back(s.run.system + ": " + note + ".");
      const auto& problems = s.run.query_problems;
      if (problems.empty()) continue;
      std::string list =
          s.run.system + ": " + std::to_string(problems.size()) + " queries not run as given:";
      for (std::size_t i = 0; i < problems.size() && i < kMaxProblemsShown; ++i) {
        list += "\n  - query " + problems[i];
      }
      if (problems.size() > kMaxProblemsShown) {
        list += "\n  - and " + std::to_string(problems.size() - kMaxProblemsShown) + " more";
      }
      notes.push_back(std::move(list));
    }
    if (c.python_equals_cli) {
      notes.push_back(*c.python_equals_cli
                          ? "abstracts Python: the same rankings as abstracts CLI, hit for hit."
                          : "abstracts Python: rankings DIFFER from abstracts CLI's.");
    }
    for (const auto& note : notes) out << "- " << note << "\n";
    if (!notes.empty()) out << "\n";
  }
}

void print_json(std::ostream& out, const std::vector<CollectionResult>& results) {
  nlohmann::ordered_json collections = nlohmann::ordered_json::array();
  for (const auto& c : results) {
    nlohmann::ordered_json systems = nlohmann::ordered_json::array();
    for (const auto& s : c.systems) {
      systems.push_back({{"system", s.run.system},
                         {"ndcg@10", s.scores.ndcg_at_10.value},
                         {"recall@100", s.scores.recall_at_100.value},
                         {"map", s.scores.map.value},
                         {"standard_errors",
                          {{"ndcg@10", s.scores.ndcg_at_10.standard_error},
                           {"recall@100", s.scores.recall_at_100.standard_error},
                           {"map", s.scores.map.standard_error}}},
                         {"queries_scored", s.scores.queries},
                         {"read_from", s.run.read_from},
                         {"index_seconds", s.run.index_seconds},
                         {"query_seconds", s.run.query_seconds},
                         {"unknown_ids", s.run.unknown_ids},
                         {"notes", s.run.notes},
                         {"query_problems", s.run.query_problems}});
    }
    nlohmann::ordered_json compared = nlohmann::ordered_json::array();
    for (const auto& [other, d] : comparisons(c)) {
      compared.push_back({{"system", c.systems.front().run.system},
                          {"against", other},
                          {"ndcg@10", difference_json(d.ndcg_at_10)},
                          {"recall@100", difference_json(d.recall_at_100)},
                          {"map", difference_json(d.map)}});
    }
    nlohmann::ordered_json published = nlohmann::ordered_json::array();
    for (const auto& p : c.published) {
      published.push_back({{"system", p.system},
                           {"ndcg@10", optional_json(p.ndcg_at_10)},
                           {"recall@100", optional_json(p.recall_at_100)},
                           {"map", optional_json(p.map)}});
    }
    collections.push_back(
        {{"python_equals_cli", c.python_equals_cli ? nlohmann::ordered_json(*c.python_equals_cli)
                                                   : nlohmann::ordered_json()},
         {"name", c.name},
         {"split", c.split},
         {"documents", c.documents},
         {"queries", c.queries},
         {"empty_documents", c.empty_documents},
         {"renamed_judged_ids", c.renamed_judged_ids},
         {"renamed_judgments", c.renamed_judgments},
         {"unknown_judged_ids", c.unknown_judged_ids},
         {"systems", std::move(systems)},
         {"comparisons", std::move(compared)},
         {"published", std::move(published)}});
  }
  out << nlohmann::ordered_json{{"depth", kDepth}, {"collections", std::move(collections)}}.dump(2)
      << "\n";
}

}  // namespace abstracts::eval
