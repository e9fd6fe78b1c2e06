#include "bench/speed/synth.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "bench/relevance/collection.h"

namespace abstracts::speed {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// FNV-1a: a hash of our own, so that which new words count as taken (and so the
// output) does not depend on the standard library's std::hash.
std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Uniform draws from the generator's raw output: std::uniform_*_distribution
// may differ between standard libraries, the generator's sequence may not.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  std::size_t pick(std::size_t n) {
    return static_cast<std::size_t>(gen_() % n);
  }                                                                          // bias < n / 2^64
  double chance() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  std::mt19937_64 gen_;
};

// A word of the real corpus that synthetic abstracts rewrite into a new one.
struct RareSpan {
  std::uint32_t begin = 0;  // byte offset in the field
  std::uint32_t length = 0;
};

// A sentence of a real abstract's text: [begin, begin + length) of docs[doc].text.
struct Sentence {
  std::uint32_t doc = 0;
  std::uint32_t begin = 0;
  std::uint32_t length = 0;
};

// Sentences end at '.', '!' or '?' followed by a space and a character that is
// not a lower-case letter ("e.g. the" and "et al. and" stay whole).
std::vector<std::pair<std::size_t, std::size_t>> split_sentences(std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    const char c = text[i], next = text[i + 2];
    if ((c == '.' || c == '!' || c == '?') && text[i + 1] == ' ' && !(next >= 'a' && next <= 'z')) {
      out.emplace_back(start, i + 1 - start);
      start = i + 2;
    }
  }
  if (start < text.size()) out.emplace_back(start, text.size() - start);
  return out;
}

// The letters of a new word's suffix: `n` in base 26, at least two letters.
std::string suffix_letters(std::uint64_t n, bool upper) {
  std::string s;
  do {
    s += static_cast<char>((upper ? 'A' : 'a') + n % 26);
    n /= 26;
  } while (n > 0 || s.size() < 2);
  return s;
}

bool all_upper(std::string_view word) {
  bool any = false;
  for (unsigned char c : word) {
    if (c >= 'a' && c <= 'z') return false;
    any |= c >= 'A' && c <= 'Z';
  }
  return any;
}

json vocabulary_point(std::size_t n, std::size_t v) {
  return {{"abstracts", n}, {"vocabulary", v}};
}

}  // namespace

void for_each_word(std::string_view text,
                   const std::function<void(std::size_t, std::string_view)>& visit) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t begin = i;
    while (i < text.size() && is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    if (i > begin) visit(begin, text.substr(begin, i - begin));
  }
}

std::string lower_ascii(std::string_view word) {
  std::string s(word);
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

double HeapsFit::predict(double n) const { return k * std::pow(n, b); }

HeapsFit fit_heaps(const std::vector<std::pair<double, double>>& n_and_v) {
  if (n_and_v.size() < 2) throw std::invalid_argument("Heaps' law needs two or more points");
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [n, v] : n_and_v) {
    const double x = std::log(n), y = std::log(v);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double m = static_cast<double>(n_and_v.size());
  const double det = m * sxx - sx * sx;
  if (det <= 0) throw std::invalid_argument("Heaps' law needs points at different sizes");
  const double b = (m * sxy - sx * sy) / det;
  return {std::exp((sy - b * sx) / m), b};
}

json synthesize(const fs::path& corpus, const fs::path& out_file, const SynthOptions& options) {
  // ---- the real corpus, held once, and its vocabulary as it grows
  std::vector<eval::CorpusDocument> docs;
  std::unordered_map<std::string, std::uint32_t> frequency;  // lower-cased word -> occurrences
  std::vector<std::pair<double, double>> fit_points;
  json fitted_on = json::array();
  std::map<std::size_t, std::size_t> real_vocabulary;  // prefix size -> distinct words
  auto count_words = [&](std::string_view field) {
    for_each_word(field, [&](std::size_t, std::string_view w) { ++frequency[lower_ascii(w)]; });
  };
  eval::for_each_document(corpus, [&](const eval::CorpusDocument& d) {
    count_words(d.title);
    count_words(d.text);
    docs.push_back(d);
    const std::size_t n = docs.size();
    if (n == options.count ||
        std::find(options.fit_at.begin(), options.fit_at.end(), n) != options.fit_at.end() ||
        std::find(options.report_at.begin(), options.report_at.end(), n) !=
            options.report_at.end()) {
      real_vocabulary[n] = frequency.size();
    }
  });
  const std::size_t real = docs.size();
  if (real == 0) throw std::runtime_error(corpus.string() + ": no abstracts");
  if (real > std::numeric_limits<std::uint32_t>::max())
    throw std::runtime_error(corpus.string() + ": too many abstracts");
  real_vocabulary[real] = frequency.size();
  for (std::size_t n : options.fit_at) {
    if (n < real && real_vocabulary.contains(n)) {
      fit_points.emplace_back(static_cast<double>(n), static_cast<double>(real_vocabulary[n]));
      fitted_on.push_back(vocabulary_point(n, real_vocabulary[n]));
    }
  }
  fit_points.emplace_back(static_cast<double>(real), static_cast<double>(frequency.size()));
  fitted_on.push_back(vocabulary_point(real, frequency.size()));
  const HeapsFit fit = fit_heaps(fit_points);
  // Past the real corpus the curve goes on from the vocabulary measured at its
  // end with the fitted exponent: V(n) = V(real) (n / real)^b.
  const double real_v = static_cast<double>(frequency.size());
  const HeapsFit anchored{real_v / std::pow(static_cast<double>(real), fit.b), fit.b};

  // ---- the pieces synthetic abstracts are made of
  std::vector<Sentence> sentences;
  std::vector<std::uint32_t> sentence_count(real);
  std::vector<std::vector<RareSpan>> rare_in_title(real), rare_in_text(real);
  std::size_t rare_occurrences = 0, rare_words = 0;
  for (const auto& [w, f] : frequency) rare_words += f <= options.rare_max;
  auto rare_spans = [&](std::string_view field, std::vector<RareSpan>& out) {
    for_each_word(field, [&](std::size_t begin, std::string_view w) {
      // Three letters or more, and no LaTeX macro name ("\varkappa").
      if (w.size() < 3 || (begin > 0 && field[begin - 1] == '\\')) return;
      if (frequency.at(lower_ascii(w)) > options.rare_max) return;
      out.push_back({static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(w.size())});
    });
    rare_occurrences += out.size();
  };
  for (std::size_t d = 0; d < real; ++d) {
    const std::size_t before = sentences.size();
    for (const auto& [begin, length] : split_sentences(docs[d].text)) {
      sentences.push_back({static_cast<std::uint32_t>(d), static_cast<std::uint32_t>(begin),
                           static_cast<std::uint32_t>(length)});
    }
    sentence_count[d] = static_cast<std::uint32_t>(sentences.size() - before);
    rare_spans(docs[d].title, rare_in_title[d]);
    rare_spans(docs[d].text, rare_in_text[d]);
  }
  if (sentences.empty()) throw std::runtime_error(corpus.string() + ": no sentences to recombine");
  std::unordered_set<std::uint64_t> taken;  // hashes of every lower-cased word written
  taken.reserve(frequency.size() * 4);
  for (const auto& [w, f] : frequency) taken.insert(fnv1a(w));
  frequency.clear();

  // ---- writing
  std::ofstream out(out_file, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + out_file.string());
  Rng rng(options.seed);
  std::size_t text_bytes = 0, new_words = 0;
  std::uint64_t next_suffix = 0;
  json vocabulary = json::array();
  auto report = [&](std::size_t n, std::size_t v, const HeapsFit& heaps) {
    vocabulary.push_back({{"abstracts", n},
                          {"vocabulary", v},
                          {"heaps", std::llround(heaps.predict(static_cast<double>(n)))}});
  };
  auto write = [&](const std::string& id, const std::string& title, const std::string& text) {
    out << json{{"_id", id}, {"title", title}, {"text", text}}.dump() << '\n';
    text_bytes += title.size() + text.size();
  };
  // A rare word of `field` between `from` and `to`, rewritten with probability
  // `p` into a word no abstract has yet: the word and a suffix of letters.
  std::string piece;
  auto append_rewritten = [&](std::string& dst, std::string_view field, std::size_t from,
                              std::size_t to, const std::vector<RareSpan>& spans, double p) {
    auto it = std::lower_bound(spans.begin(), spans.end(), from,
                               [](const RareSpan& s, std::size_t at) { return s.begin < at; });
    std::size_t at = from;
    for (; it != spans.end() && it->begin < to; ++it) {
      if (rng.chance() >= p) continue;
      const std::string_view w = field.substr(it->begin, it->length);
      dst.append(field.substr(at, it->begin + it->length - at));
      const bool upper = all_upper(w);
      std::string lowered = lower_ascii(w);
      while (true) {
        piece = suffix_letters(next_suffix++, upper);
        if (taken.insert(fnv1a(lowered + lower_ascii(piece))).second) break;
      }
      dst.append(piece);
      ++new_words;
      at = it->begin + it->length;
    }
    dst.append(field.substr(at, to - at));
  };
  auto count_rare = [](const std::vector<RareSpan>& spans, std::size_t from, std::size_t to) {
    std::size_t n = 0;
    for (const auto& s : spans) n += s.begin >= from && s.begin < to;
    return n;
  };

  std::vector<std::size_t> picked;
  std::string title, text;
  for (std::size_t i = 0; i < options.count; ++i) {
    const std::size_t n = i + 1;
    if (i < real) {
      write(docs[i].id, docs[i].title, docs[i].text);
    } else {
      // The title and the number of sentences of a random real abstract; each
      // sentence from a random one.
      const std::size_t donor = rng.pick(real);
      picked.clear();
      for (std::uint32_t s = 0; s < std::max<std::uint32_t>(1, sentence_count[donor]); ++s) {
        picked.push_back(rng.pick(sentences.size()));
      }
      std::size_t rare = rare_in_title[donor].size();
      for (std::size_t s : picked) {
        const Sentence& st = sentences[s];
        rare += count_rare(rare_in_text[st.doc], st.begin, st.begin + st.length);
      }
      // As many new words as keep the vocabulary on Heaps' curve, spread over
      // this abstract's rare words; a shortfall carries to the next abstract.
      const double deficit =
          anchored.predict(static_cast<double>(n)) - (real_v + static_cast<double>(new_words));
      const double p =
          rare == 0 || deficit <= 0 ? 0 : std::min(1.0, deficit / static_cast<double>(rare));
      title.clear();
      text.clear();
      const auto& d = docs[donor];
      append_rewritten(title, d.title, 0, d.title.size(), rare_in_title[donor], p);
      for (std::size_t s : picked) {
        const Sentence& st = sentences[s];
        if (!text.empty()) text += ' ';
        append_rewritten(text, docs[st.doc].text, st.begin, st.begin + st.length,
                         rare_in_text[st.doc], p);
      }
      write("synth-" + std::to_string(n), title, text);
    }
    const bool reported =
        std::find(options.report_at.begin(), options.report_at.end(), n) != options.report_at.end();
    if (reported || n == options.count) {
      if (n <= real) {
        if (real_vocabulary.contains(n)) report(n, real_vocabulary[n], fit);
      } else {
        report(n, real_v + new_words, anchored);
      }
    }
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write " + out_file.string());
  return {
      {"abstracts", options.count},
      {"text_bytes", text_bytes},
      {"file_bytes", fs::file_size(out_file)},
      {"real_abstracts", real},
      {"synthetic_abstracts", options.count > real ? options.count - real : 0},
      {"seed", options.seed},
      {"sentences", sentences.size()},
      {"rare_words",
       {{"max_occurrences", options.rare_max},
        {"distinct", rare_words},
        {"occurrences_per_abstract",
         static_cast<double>(rare_occurrences) / static_cast<double>(real)}}},
      {"new_words", new_words},
      {"heaps", {{"k", fit.k}, {"b", fit.b}, {"fitted_on", fitted_on}, {"anchored_k", anchored.k}}},
      {"vocabulary", vocabulary}};
}

json vocabulary(const fs::path& corpus, const std::vector<std::size_t>& at) {
  std::unordered_set<std::string> words;
  json points = json::array();
  std::size_t n = 0;
  eval::for_each_document(corpus, [&](const eval::CorpusDocument& d) {
    for_each_word(d.title, [&](std::size_t, std::string_view w) { words.insert(lower_ascii(w)); });
    for_each_word(d.text, [&](std::size_t, std::string_view w) { words.insert(lower_ascii(w)); });
    ++n;
    if (std::find(at.begin(), at.end(), n) != at.end())
      points.push_back(vocabulary_point(n, words.size()));
  });
  if (points.empty() || points.back().at("abstracts") != n)
    points.push_back(vocabulary_point(n, words.size()));
  return {{"file", corpus.string()}, {"abstracts", n}, {"vocabulary", points}};
}

}  // namespace abstracts::speed
