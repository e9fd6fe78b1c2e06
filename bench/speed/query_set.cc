#include "bench/speed/query_set.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "bench/relevance/collection.h"

namespace abstracts::speed {
namespace {

// Short English function words: a query made of them measures nothing.
const std::unordered_set<std::string_view>& stop_words() {
  static const std::unordered_set<std::string_view> words = {
      "a",     "about", "above", "after", "again", "all",   "also",  "am",    "an",    "and",
      "any",   "are",   "as",    "at",    "be",    "been",  "being", "both",  "but",   "by",
      "can",   "could", "did",   "do",    "does",  "for",   "from",  "had",   "has",   "have",
      "here",  "how",   "if",    "in",    "into",  "is",    "it",    "its",   "more",  "most",
      "near",  "no",    "nor",   "not",   "of",    "on",    "only",  "or",    "other", "our",
      "out",   "over",  "same",  "so",    "some",  "such",  "than",  "that",  "the",   "their",
      "them",  "then",  "there", "these", "they",  "this",  "those", "through", "to",  "too",
      "under", "up",    "very",  "via",   "was",   "we",    "were",  "what",  "when",  "where",
      "which", "while", "who",   "why",   "will",  "with",  "within", "without", "would", "you",
      "using", "based", "between", "towards", "toward", "new", "show", "study", "paper"};
  return words;
}

// A run of text split at white space; `plain` when the piece is 3-20 ASCII
// letters, possibly followed by one punctuation mark that ends a phrase.
struct Piece {
  std::string word;   // lower case
  bool plain = false;
  bool ends_phrase = false;  // followed by punctuation: no phrase runs across it
};

std::vector<Piece> pieces(std::string_view text) {
  std::vector<Piece> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    if (j == i) break;
    std::string_view raw = text.substr(i, j - i);
    Piece p;
    if (!raw.empty() && (raw.back() == ',' || raw.back() == '.' || raw.back() == ';' ||
                         raw.back() == ':')) {
      p.ends_phrase = true;
      raw.remove_suffix(1);
    }
    p.plain = raw.size() >= 3 && raw.size() <= 20;
    for (char c : raw) {
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) p.plain = false;
      p.word += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    out.push_back(std::move(p));
    i = j;
  }
  return out;
}

bool usable(const Piece& p) { return p.plain && !stop_words().contains(p.word); }

std::vector<std::string> usable_words(std::string_view text) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (auto& p : pieces(text)) {
    if (usable(p) && seen.insert(p.word).second) out.push_back(p.word);
  }
  return out;
}

}  // namespace

std::vector<BenchQuery> generate_queries(const std::filesystem::path& corpus, std::size_t pool,
                                         std::uint64_t seed, const QuerySetSizes& sizes) {
  std::vector<eval::CorpusDocument> docs;
  docs.reserve(pool);
  try {
    eval::for_each_document(corpus, [&](const eval::CorpusDocument& d) {
      if (docs.size() == pool) throw std::out_of_range("pool full");
      docs.push_back(d);
    });
  } catch (const std::out_of_range&) {
    // Read just the pool, not the whole file.
  }
  if (docs.size() < 10) throw std::runtime_error(corpus.string() + ": too few abstracts for queries");

  std::mt19937_64 rng(seed);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  std::vector<BenchQuery> out;
  const std::size_t max_attempts =
      100 * (sizes.keyword + sizes.phrase + sizes.boolean + sizes.question) + 1000;
  std::size_t attempts = 0;
  auto guard = [&] {
    if (++attempts > max_attempts) throw std::runtime_error("cannot draw enough queries from " + corpus.string());
  };

  for (std::size_t n = 0; n < sizes.keyword;) {
    guard();
    auto words = usable_words(docs[pick(docs.size())].title);
    if (words.empty()) continue;
    std::shuffle(words.begin(), words.end(), rng);
    words.resize(std::min<std::size_t>(words.size(), 1 + pick(3)));
    out.push_back({BenchQuery::Kind::kKeyword, std::move(words), ""});
    ++n;
  }
  for (std::size_t n = 0; n < sizes.phrase;) {
    guard();
    auto ps = pieces(docs[pick(docs.size())].text);
    const std::size_t len = 2 + pick(2);
    if (ps.size() < len) continue;
    const std::size_t start = pick(ps.size() - len + 1);
    bool ok = usable(ps[start]) && usable(ps[start + len - 1]);
    for (std::size_t k = start; ok && k < start + len; ++k) {
      ok = ps[k].plain && (k + 1 == start + len || !ps[k].ends_phrase);
    }
    if (!ok) continue;
    BenchQuery q{BenchQuery::Kind::kPhrase, {}, ""};
    for (std::size_t k = start; k < start + len; ++k) q.words.push_back(ps[k].word);
    out.push_back(std::move(q));
    ++n;
  }
  static const char* kOps[] = {"AND", "OR", "NOT"};
  for (std::size_t n = 0; n < sizes.boolean;) {
    guard();
    auto words = usable_words(docs[pick(docs.size())].text);
    if (words.size() < 2) continue;
    std::shuffle(words.begin(), words.end(), rng);
    words.resize(2);
    out.push_back({BenchQuery::Kind::kBoolean, std::move(words), kOps[n % 3]});
    ++n;
  }
  // Drawn last, so the other kinds are the same queries as before questions were added.
  for (std::size_t n = 0; n < sizes.question;) {
    guard();
    auto words = usable_words(docs[pick(docs.size())].text);
    const std::size_t len = 4 + pick(5);
    if (words.size() < len) continue;
    const std::size_t start = pick(words.size() - len + 1);
    out.push_back({BenchQuery::Kind::kQuestion, {words.begin() + static_cast<long>(start),
                                                 words.begin() + static_cast<long>(start + len)}, ""});
    ++n;
  }
  return out;
}

const char* kind_name(BenchQuery::Kind kind) {
  switch (kind) {
    case BenchQuery::Kind::kKeyword: return "keyword";
    case BenchQuery::Kind::kPhrase: return "phrase";
    case BenchQuery::Kind::kBoolean: return "boolean";
    case BenchQuery::Kind::kQuestion: return "question";
  }
  return "?";
}

void save_queries(const std::vector<BenchQuery>& queries, const std::filesystem::path& file) {
  std::ofstream out(file);
  for (const auto& q : queries) {
    nlohmann::json j{{"kind", kind_name(q.kind)}, {"words", q.words}};
    if (!q.op.empty()) j["op"] = q.op;
    out << j.dump() << '\n';
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::vector<BenchQuery> load_queries(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<BenchQuery> out;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    try {
      auto j = nlohmann::json::parse(line);
      BenchQuery q;
      const std::string kind = j.at("kind");
      q.kind = kind == "phrase"     ? BenchQuery::Kind::kPhrase
               : kind == "boolean"  ? BenchQuery::Kind::kBoolean
               : kind == "question" ? BenchQuery::Kind::kQuestion
                                    : BenchQuery::Kind::kKeyword;
      q.words = j.at("words").get<std::vector<std::string>>();
      q.op = j.value("op", "");
      if (q.words.empty() || (q.kind == BenchQuery::Kind::kBoolean && q.words.size() != 2)) {
        throw std::runtime_error("bad query");
      }
      out.push_back(std::move(q));
    } catch (const std::exception& e) {
      throw std::runtime_error(file.string() + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return out;
}

std::string xapian_syntax(const BenchQuery& q) {
  std::string s;
  auto join = [&](const char* sep) {
    for (std::size_t i = 0; i < q.words.size(); ++i) s += (i ? sep : "") + q.words[i];
  };
  switch (q.kind) {
    case BenchQuery::Kind::kKeyword:
    case BenchQuery::Kind::kQuestion: join(" "); break;
    case BenchQuery::Kind::kPhrase: s = "\""; join(" "); s += "\""; break;
    case BenchQuery::Kind::kBoolean: s = q.words[0] + " " + q.op + " " + q.words[1]; break;
  }
  return s;
}

std::string fts5_syntax(const BenchQuery& q) {
  std::string s;
  switch (q.kind) {
    case BenchQuery::Kind::kKeyword:
    case BenchQuery::Kind::kQuestion:
      for (std::size_t i = 0; i < q.words.size(); ++i) s += (i ? " OR \"" : "\"") + q.words[i] + "\"";
      break;
    case BenchQuery::Kind::kPhrase:
      s = "\"";
      for (std::size_t i = 0; i < q.words.size(); ++i) s += (i ? " " : "") + q.words[i];
      s += "\"";
      break;
    case BenchQuery::Kind::kBoolean:
      s = "\"" + q.words[0] + "\" " + q.op + " \"" + q.words[1] + "\"";
      break;
  }
  return s;
}

}  // namespace abstracts::speed
