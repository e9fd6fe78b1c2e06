// Published reference figures for the collections, to read our numbers against
// (sources in ../shared/data/README.md and docs/relevance.md).
#ifndef ABSTRACTS_BENCH_RELEVANCE_PUBLISHED_H_
#define ABSTRACTS_BENCH_RELEVANCE_PUBLISHED_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts::eval {

// One published system's figures; a measure it did not report is empty.
struct Published {
  std::string system;  // e.g. "Anserini BM25 flat"
  std::optional<double> ndcg_at_10;
  std::optional<double> recall_at_100;
  std::optional<double> map;
};

// The figures published for `collection` on `split` ("" for collections with one
// split); empty when there are none (e.g. SciFact train).
std::vector<Published> published_figures(std::string_view collection, std::string_view split);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_PUBLISHED_H_
