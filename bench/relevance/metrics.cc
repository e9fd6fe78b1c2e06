#include "bench/relevance/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <istream>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace abstracts::eval {
namespace {

int grade_of(const Judgments& judgments, const std::string& id) {
  auto it = judgments.find(id);
  return it == judgments.end() ? 0 : it->second;
}

double discount(std::size_t rank) { return std::log2(static_cast<double>(rank) + 1.0); }

std::vector<double> measure(const std::vector<QueryScores>& per_query, double QueryScores::*field) {
  std::vector<double> values;
  values.reserve(per_query.size());
  for (const auto& q : per_query) values.push_back(q.*field);
  return values;
}

}  // namespace

std::size_t relevant_count(const Judgments& judgments) {
  return static_cast<std::size_t>(std::count_if(judgments.begin(), judgments.end(),
                                                [](const auto& j) { return j.second > 0; }));
}

double ndcg_at(const Ranking& ranking, const Judgments& judgments, std::size_t k) {
  std::vector<int> ideal;
  for (const auto& [id, grade] : judgments) {
    if (grade > 0) ideal.push_back(grade);
  }
  if (ideal.empty()) return 0;
  std::sort(ideal.begin(), ideal.end(), std::greater<>());
  double idcg = 0;
  for (std::size_t r = 1; r <= std::min(k, ideal.size()); ++r) idcg += ideal[r - 1] / discount(r);
  double dcg = 0;
  for (std::size_t r = 1; r <= std::min(k, ranking.size()); ++r) {
    int grade = grade_of(judgments, ranking[r - 1]);
    if (grade > 0) dcg += grade / discount(r);
  }
  return dcg / idcg;
}

double recall_at(const Ranking& ranking, const Judgments& judgments, std::size_t k) {
  const std::size_t relevant = relevant_count(judgments);
  if (relevant == 0) return 0;
  std::size_t found = 0;
  for (std::size_t r = 1; r <= std::min(k, ranking.size()); ++r) {
    if (grade_of(judgments, ranking[r - 1]) > 0) ++found;
  }
  return static_cast<double>(found) / static_cast<double>(relevant);
}

double average_precision(const Ranking& ranking, const Judgments& judgments) {
  const std::size_t relevant = relevant_count(judgments);
  if (relevant == 0) return 0;
  std::size_t found = 0;
  double sum = 0;
  for (std::size_t r = 1; r <= std::min(kDepth, ranking.size()); ++r) {
    if (grade_of(judgments, ranking[r - 1]) > 0) {
      ++found;
      sum += static_cast<double>(found) / static_cast<double>(r);
    }
  }
  return sum / static_cast<double>(relevant);
}

std::vector<QueryScores> score_queries(const Rankings& run, const Qrels& qrels,
                                       const std::vector<Query>& queries) {
  std::unordered_set<std::string> asked;
  for (const auto& q : queries) asked.insert(q.id);
  const Ranking none;
  std::vector<QueryScores> scores;
  for (const auto& [qid, judgments] : qrels) {
    if (!asked.contains(qid) || relevant_count(judgments) == 0) continue;
    auto it = run.find(qid);
    const Ranking& ranking = it == run.end() ? none : it->second;
    scores.push_back({qid, ndcg_at(ranking, judgments, 10), recall_at(ranking, judgments, 100),
                      average_precision(ranking, judgments)});
  }
  return scores;
}

Mean mean_of(const std::vector<double>& values) {
  Mean m;
  if (values.empty()) return m;
  const auto n = static_cast<double>(values.size());
  m.value = std::accumulate(values.begin(), values.end(), 0.0) / n;
  if (values.size() < 2) return m;
  double squares = 0;
  for (double v : values) squares += (v - m.value) * (v - m.value);
  m.standard_error = std::sqrt(squares / (n - 1)) / std::sqrt(n);
  return m;
}

Scores summarise(const std::vector<QueryScores>& per_query) {
  Scores s;
  s.queries = per_query.size();
  s.ndcg_at_10 = mean_of(measure(per_query, &QueryScores::ndcg_at_10));
  s.recall_at_100 = mean_of(measure(per_query, &QueryScores::recall_at_100));
  s.map = mean_of(measure(per_query, &QueryScores::average_precision));
  return s;
}

Scores evaluate(const Rankings& run, const Qrels& qrels, const std::vector<Query>& queries) {
  return summarise(score_queries(run, qrels, queries));
}

Comparison compare(const std::vector<QueryScores>& a, const std::vector<QueryScores>& b) {
  std::map<std::string, const QueryScores*> by_id;
  for (const auto& q : a) by_id[q.query_id] = &q;
  if (b.size() != a.size()) {
    throw std::invalid_argument("cannot compare runs that scored " + std::to_string(a.size()) +
                                " and " + std::to_string(b.size()) + " queries");
  }
  auto difference = [&](double QueryScores::*field) {
    std::vector<double> d;
    Difference out;
    for (const auto& q : b) {
      auto it = by_id.find(q.query_id);
      if (it == by_id.end()) {
        throw std::invalid_argument("cannot compare runs: query " + q.query_id +
                                    " is scored in one only");
      }
      d.push_back(q.*field - it->second->*field);
      out.better += d.back() > 0;
      out.worse += d.back() < 0;
    }
    out.mean = mean_of(d);
    return out;
  };
  return {difference(&QueryScores::ndcg_at_10), difference(&QueryScores::recall_at_100),
          difference(&QueryScores::average_precision)};
}

void write_trec_run(std::ostream& out, const Rankings& run, const std::string& tag) {
  for (const auto& [qid, ranking] : run) {
    for (std::size_t r = 0; r < ranking.size(); ++r) {
      out << qid << " Q0 " << ranking[r] << ' ' << r + 1 << ' ' << kDepth - r << ' ' << tag << '\n';
    }
  }
}

Rankings read_trec_run(std::istream& in) {
  struct Hit {
    double score;
    long rank;
    std::string id;
  };
  std::map<std::string, std::vector<Hit>> hits;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::string qid, q0, id, rank, score, tag, extra;
    if (!(fields >> qid >> q0 >> id >> rank >> score >> tag) || (fields >> extra)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      throw std::runtime_error("line " + std::to_string(number) +
                               ": a run line has six fields: query Q0 document rank score tag");
    }
    Hit hit{0, 0, id};
    auto parse = [&](const std::string& text, auto& value) {
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size()) {
        throw std::runtime_error("line " + std::to_string(number) + ": \"" + text +
                                 "\" is not a number");
      }
    };
    parse(rank, hit.rank);
    parse(score, hit.score);
    hits[qid].push_back(std::move(hit));
  }
  Rankings run;
  for (auto& [qid, list] : hits) {
    std::stable_sort(list.begin(), list.end(), [](const Hit& x, const Hit& y) {
      return x.score != y.score ? x.score > y.score : x.rank < y.rank;
    });
    Ranking& ranking = run[qid];
    for (auto& hit : list) ranking.push_back(std::move(hit.id));
  }
  return run;
}

}  // namespace abstracts::eval
