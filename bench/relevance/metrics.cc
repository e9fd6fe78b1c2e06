#include "bench/relevance/metrics.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <ostream>
#include <unordered_set>

namespace abstracts::eval {
namespace {

int grade_of(const Judgments& judgments, const std::string& id) {
  auto it = judgments.find(id);
  return it == judgments.end() ? 0 : it->second;
}

double discount(std::size_t rank) { return std::log2(static_cast<double>(rank) + 1.0); }

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

Scores evaluate(const Rankings& run, const Qrels& qrels, const std::vector<Query>& queries) {
  std::unordered_set<std::string> asked;
  for (const auto& q : queries) asked.insert(q.id);
  const Ranking none;
  Scores s;
  for (const auto& [qid, judgments] : qrels) {
    if (!asked.contains(qid) || relevant_count(judgments) == 0) continue;
    auto it = run.find(qid);
    const Ranking& ranking = it == run.end() ? none : it->second;
    s.ndcg_at_10 += ndcg_at(ranking, judgments, 10);
    s.recall_at_100 += recall_at(ranking, judgments, 100);
    s.map += average_precision(ranking, judgments);
    ++s.queries;
  }
  if (s.queries > 0) {
    const auto n = static_cast<double>(s.queries);
    s.ndcg_at_10 /= n;
    s.recall_at_100 /= n;
    s.map /= n;
  }
  return s;
}

void write_trec_run(std::ostream& out, const Rankings& run, const std::string& tag) {
  for (const auto& [qid, ranking] : run) {
    for (std::size_t r = 0; r < ranking.size(); ++r) {
      out << qid << " Q0 " << ranking[r] << ' ' << r + 1 << ' ' << kDepth - r << ' ' << tag << '\n';
    }
  }
}

}  // namespace abstracts::eval
