#include "engine/vectors.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/schema.h"

namespace abstracts::vectors {
namespace {

constexpr std::string_view kModelVersion = "v1";

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T>
bool get(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

}  // namespace

std::string encode(const Model& model) {
  std::string out(kModelVersion);
  put(out, model.dimensions);
  put(out, model.a);
  put(out, model.words);
  put(out, model.training_abstracts);
  put(out, model.training_tokens);
  put(out, static_cast<std::uint32_t>(model.pc.size()));
  for (float x : model.pc) put(out, x);
  return out;
}

bool decode(std::string_view bytes, Model& model) {
  if (!bytes.starts_with(kModelVersion)) return false;
  bytes.remove_prefix(kModelVersion.size());
  std::uint32_t pc = 0;
  if (!get(bytes, model.dimensions) || !get(bytes, model.a) || !get(bytes, model.words) ||
      !get(bytes, model.training_abstracts) || !get(bytes, model.training_tokens) || !get(bytes, pc)) {
    return false;
  }
  if ((pc != 0 && pc != model.dimensions) || bytes.size() != pc * sizeof(float) || model.dimensions == 0) return false;
  model.pc.resize(pc);
  for (float& x : model.pc) get(bytes, x);
  return true;
}

std::string encode(const WordVector& word) {
  float largest = 0;
  for (float x : word.v) largest = std::max(largest, std::fabs(x));
  const float scale = largest > 0 ? largest / 127 : 1;
  std::string out;
  put(out, word.weight);
  put(out, scale);
  for (float x : word.v) out.push_back(static_cast<char>(static_cast<std::int8_t>(std::lround(x / scale))));
  return out;
}

bool decode(std::string_view bytes, std::uint32_t dimensions, WordVector& word) {
  float scale = 0;
  if (!get(bytes, word.weight) || !get(bytes, scale) || bytes.size() != dimensions) return false;
  word.v.resize(dimensions);
  for (std::uint32_t i = 0; i < dimensions; ++i) word.v[i] = static_cast<std::int8_t>(bytes[i]) * scale;
  return true;
}

bool is_vector_word(std::string_view term) {
  return schema::is_word_term(term) && !(term[0] >= '0' && term[0] <= '9');
}

void accumulate(std::vector<float>& sum, const WordVector& word, double times) {
  const float f = static_cast<float>(times * word.weight);
  for (std::size_t i = 0; i < sum.size() && i < word.v.size(); ++i) sum[i] += f * word.v[i];
}

bool finish(std::vector<float>& sum, const std::vector<float>& pc) {
  std::vector<float> v = sum;
  if (pc.size() == v.size()) {
    double along = 0;
    for (std::size_t i = 0; i < v.size(); ++i) along += double(v[i]) * pc[i];
    for (std::size_t i = 0; i < v.size(); ++i) v[i] -= static_cast<float>(along * pc[i]);
  }
  double norm = 0;
  for (float x : v) norm += double(x) * x;
  if (!(norm > 1e-20)) return false;
  const float inv = static_cast<float>(1 / std::sqrt(norm));
  for (float& x : v) x *= inv;
  sum = std::move(v);
  return true;
}

std::string encode_unit(const std::vector<float>& unit) {
  std::string out(unit.size(), '\0');
  for (std::size_t i = 0; i < unit.size(); ++i) {
    out[i] = static_cast<char>(static_cast<std::int8_t>(std::lround(std::clamp(unit[i], -1.0f, 1.0f) * 127)));
  }
  return out;
}

float dot(std::string_view value, const std::vector<float>& query) {
  const std::size_t n = std::min(value.size(), query.size());
  float sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<std::int8_t>(value[i]) * query[i];
  return sum / 127;
}

void add_unit(std::string_view value, std::vector<float>& sum) {
  for (std::size_t i = 0; i < sum.size() && i < value.size(); ++i) sum[i] += static_cast<std::int8_t>(value[i]) / 127.0f;
}

std::optional<Embedder> Embedder::load(const Xapian::Database& db) {
  Model model;
  if (!decode(db.get_metadata(std::string(kModelKey)), model)) return std::nullopt;
  return Embedder(db, std::move(model));
}

bool Embedder::add(const std::string& term, double times, std::vector<float>& sum) {
  if (!is_vector_word(term)) return false;
  auto [at, added] = words_.try_emplace(term);
  if (added) {
    WordVector w;
    if (decode(db_->get_metadata(word_key(term)), model_.dimensions, w)) at->second = std::move(w);
  }
  if (!at->second) return false;
  accumulate(sum, *at->second, times);
  return true;
}

bool Embedder::sum_of(const Xapian::Document& doc, std::vector<float>& sum) {
  sum.assign(model_.dimensions, 0.0f);
  bool any = false;
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) any = add(*t, t.get_wdf(), sum) || any;
  return any;
}

std::string Embedder::value_of(const Xapian::Document& doc) {
  std::vector<float> sum;
  if (!sum_of(doc, sum) || !finish(sum, model_.pc)) return {};
  return encode_unit(sum);
}

std::vector<float> Embedder::of_terms(const std::vector<std::string>& terms) {
  std::vector<float> sum(model_.dimensions, 0.0f);
  bool any = false;
  for (const auto& term : terms) any = add(term, 1, sum) || any;
  if (!any || !finish(sum, model_.pc)) return {};
  return sum;
}

}  // namespace abstracts::vectors
