// Vectors of meaning (issue 46): what `abstracts vectors build` stores with the
// index (indexer/vectors.h), the indexer adds to each new abstract and the query
// layer reads (query/meaning.h).
//
// Word vectors are learned with fastText from the index's own abstracts (no
// pretrained model can be had). An abstract's vector is SIF (Arora et al. 2017):
// the average of its words' vectors, each weighted a / (a + p(word)), p the
// word's share of the training text, less the projection on the first principal
// component of the corpus's averages, made unit length. Everything lives in the
// Xapian database of the generation, so one commit publishes text and vectors
// together:
//   metadata kModelKey                 the Model (dimensions, a, principal component)
//   metadata kWordKeyPrefix + term     a word's weight and vector (WordVector)
//   value schema::kVectorSlot          an abstract's unit vector, int8 (encode_unit())
// Words are the index's word terms (folded and stemmed, as the analyzer makes
// them), numbers left out: they made CACM's vectors collapse.
#ifndef ABSTRACTS_ENGINE_VECTORS_H_
#define ABSTRACTS_ENGINE_VECTORS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <xapian.h>

namespace abstracts::vectors {

inline constexpr std::string_view kModelKey = "abstracts:vectors";
inline constexpr std::string_view kWordKeyPrefix = "abstracts:vector:";

// What the vectors were made with.
struct Model {
  std::uint32_t dimensions = 0;
  float a = 1e-4f;          // SIF's smoothing
  std::vector<float> pc;    // the principal component removed (unit length)
  std::uint64_t words = 0;  // with a vector
  std::uint64_t training_abstracts = 0;  // the texts fastText learned from
  std::uint64_t training_tokens = 0;
};
std::string encode(const Model& model);
// False if `bytes` is no Model.
bool decode(std::string_view bytes, Model& model);

// A word's SIF weight and its vector (int8 with a scale: a quarter of the floats' size).
struct WordVector {
  float weight = 0;
  std::vector<float> v;
};
std::string encode(const WordVector& word);
bool decode(std::string_view bytes, std::uint32_t dimensions, WordVector& word);

inline std::string word_key(std::string_view term) {
  std::string key(kWordKeyPrefix);
  key.append(term);
  return key;
}

// Whether a term has a vector: a word term that is no number.
bool is_vector_word(std::string_view term);

// sum += times x weight x v.
void accumulate(std::vector<float>& sum, const WordVector& word, double times);

// `sum` less its projection on `pc` (if any), made unit length; false (and `sum`
// left as it is) if nothing is left of it.
bool finish(std::vector<float>& sum, const std::vector<float>& pc);

// A unit vector as a value (int8, x127), and its dot product with a unit `query`:
// the cosine, to within about 1%.
std::string encode_unit(const std::vector<float>& unit);
float dot(std::string_view value, const std::vector<float>& query);
// sum += the unit vector `value` holds.
void add_unit(std::string_view value, std::vector<float>& sum);

// The vectors of an index, words read from its metadata as needed and kept.
// Not thread-safe; `db` must outlive it.
class Embedder {
 public:
  // nullopt if `db` has no vectors.
  static std::optional<Embedder> load(const Xapian::Database& db);

  const Model& model() const { return model_; }

  // The unit vector of `doc` (its word terms, counted by wdf), as a value; ""
  // if none of its words has a vector.
  std::string value_of(const Xapian::Document& doc);
  // Its SIF sum, before the common component goes (model().pc) and it is made
  // unit length; false if none of its words has a vector.
  bool sum_of(const Xapian::Document& doc, std::vector<float>& sum);

  // The unit vector of these words (terms, each counted as often as it comes);
  // empty if none has a vector.
  std::vector<float> of_terms(const std::vector<std::string>& terms);

 private:
  Embedder(const Xapian::Database& db, Model model) : db_(&db), model_(std::move(model)) {}
  // sum += times x `term`'s weighted vector; false if it has none.
  bool add(const std::string& term, double times, std::vector<float>& sum);

  const Xapian::Database* db_;
  Model model_;
  std::unordered_map<std::string, std::optional<WordVector>> words_;
};

}  // namespace abstracts::vectors

#endif  // ABSTRACTS_ENGINE_VECTORS_H_
