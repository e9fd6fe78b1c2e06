#include "bench/relevance/published.h"

namespace abstracts::eval {

std::vector<Published> published_figures(std::string_view collection, std::string_view split) {
  if (collection == "scifact" && split == "test") {
    return {
        {"BEIR BM25 (paper)", 0.665, std::nullopt, std::nullopt},
        {"Anserini BM25 flat", 0.679, 0.925, std::nullopt},
        {"Anserini BM25 multifield", 0.665, std::nullopt, std::nullopt},
    };
  }
  if (collection == "cranfield") {
    return {{"plain Xapian BM25 (k1 0.9, b 0.4)", 0.350, std::nullopt, 0.286}};
  }
  if (collection == "cacm") {
    return {
        {"Anserini BM25", std::nullopt, std::nullopt, 0.3123},
        {"Anserini BM25+RM3", std::nullopt, std::nullopt, 0.3648},
    };
  }
  return {};
}

}  // namespace abstracts::eval
