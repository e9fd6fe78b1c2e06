// A synthetic corpus larger than the real one, for measuring at 500k and 1M
// abstracts: the real abstracts first, then abstracts recombined from their
// sentences and titles, with new words made at the rate Heaps' law predicts
// (docs/performance.md, "Corpora past the real one").
#ifndef ABSTRACTS_BENCH_SPEED_SYNTH_H_
#define ABSTRACTS_BENCH_SPEED_SYNTH_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts::speed {

// Calls `visit` with each word of `text`: a maximal run of ASCII letters and
// non-ASCII bytes (UTF-8 letters), so digits and punctuation split words as the
// engine's analyzer splits them. `begin` is the byte offset of the word.
void for_each_word(std::string_view text,
                   const std::function<void(std::size_t begin, std::string_view word)>& visit);

// `word` with its ASCII letters lower-cased.
std::string lower_ascii(std::string_view word);

// Heaps' law V = K n^b (V distinct words in the first n abstracts), fitted by
// least squares on log V = log K + b log n.
struct HeapsFit {
  double k = 0;
  double b = 0;
  double predict(double n) const;
};
// Throws std::invalid_argument for fewer than two points or equal n's.
HeapsFit fit_heaps(const std::vector<std::pair<double, double>>& n_and_v);

struct SynthOptions {
  std::size_t count = 0;
  std::uint64_t seed = 20260;
  // Vocabulary sizes in the real corpus at these prefixes fit Heaps' law (the
  // real corpus's own size is added if it is not there).
  std::vector<std::size_t> fit_at = {10000, 30000};
  // Words seen at most this often in the real corpus are the ones rewritten
  // into new words (hapax and dis legomena: names, acronyms, typos).
  std::size_t rare_max = 2;
  // Output sizes at which the summary reports the vocabulary written.
  std::vector<std::size_t> report_at = {10000, 30000, 100000, 200000, 500000, 1000000, 2000000};
};

// Writes options.count abstracts as BEIR JSON Lines to `out_file`: the real
// ones of `corpus` in order, then (past them) synthetic ones. Deterministic for
// a seed (std::mt19937_64, no library distributions). Holds the real corpus in
// memory once; the output streams. Returns the summary: abstracts, text_bytes,
// file_bytes, real_abstracts, new_words, heaps {k, b, fitted on}, and the
// vocabulary written at each report size with Heaps' prediction. Throws
// std::runtime_error on unreadable input or an unwritable output.
nlohmann::json synthesize(const std::filesystem::path& corpus,
                          const std::filesystem::path& out_file, const SynthOptions& options);

// The vocabulary (distinct lower-cased words, as for_each_word splits them, of
// titles and texts) of the first n abstracts of a BEIR JSON Lines file, at
// each n of `at` that the file reaches, and at its end. Counts from the file
// alone, so it checks what synthesize() says it wrote.
nlohmann::json vocabulary(const std::filesystem::path& corpus, const std::vector<std::size_t>& at);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_SYNTH_H_
