// Impact tiers: what the indexer writes (indexer/tiers.h) and the query layer
// reads (query/tiers.h) so that a query of common words stops weighing every
// abstract that has them (issue 44).
//
// Xapian 1.4's matcher skips postings only by a word's highest weight over its
// whole list, and a common word's list has some posting of high weight. So each
// word in at least kTieredShare of the abstracts has its postings ranked by
// impact (the term-frequency part of BM25) and its best ones listed again, in
// two tiers, in a side database of the generation (GENERATION/tiers: posting
// lists with their wdf, and the abstracts' lengths). A query's word then walks
// its whole list only while a posting of the rest's impact could still reach the
// top hits, and after that only its tiers. The weights are BM25's, computed as
// Xapian::BM25Weight computes them, so hits and scores are the same bit for bit.
//
// The side database names the index it was built from (stamp(): the indexer
// only adds documents and deletes them, so any change moves its document count
// or last document number) and the k1 and b of its impacts. A reader uses it
// only for that index and those parameters; any other search weighs plain terms.
#ifndef ABSTRACTS_ENGINE_TIERS_H_
#define ABSTRACTS_ENGINE_TIERS_H_

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

namespace abstracts::tiers {

// Below this many abstracts the index has no tiers: on Xapian's matcher at 115k
// they took keywords from 0.57 to 0.36 ms (p50), not worth a build step, and at
// 1M from 5.4 to 2.4 ms (9046f44's `speed tiers`); the engine's keywords at 1M,
// 6.4 to 1.6 ms (docs/performance.md).
inline constexpr Xapian::doccount kMinAbstracts = 250000;
// Words in at least this share of the abstracts are tiered.
inline constexpr double kTieredShare = 0.005;
// The first tier holds this share of a word's postings, the first two this
// share (and any posting of the same impact as the last of them).
inline constexpr double kFirstShare = 0.01;
inline constexpr double kSecondShare = 0.10;

// The side database of the generation `generation`.
inline std::filesystem::path side_path(const std::filesystem::path& generation) { return generation / "tiers"; }
// ... and where it is built, then renamed into place.
inline std::filesystem::path building_path(const std::filesystem::path& generation) {
  return generation / "tiers.new";
}

// Term names of the side database: the tiers' posting lists ...
inline std::string first_term(std::string_view word) { return std::string("1:").append(word); }
inline std::string second_term(std::string_view word) { return std::string("2:").append(word); }
// ... with each posting's wdf; the metadata key of the length of every
// abstract a tiered word has (Xapian reads a length from a list of its own,
// which is most of the cost of weighing a posting out of order) ...
inline constexpr std::string_view kLengthsKey = "lengths";
// ... and the metadata keys of each tiered word's highest impacts: of its first
// tier, of its second, and of the rest.
inline std::string bound_key(char tier, std::string_view word) { return std::string{tier, ':'}.append(word); }
inline constexpr char kFirst = '1', kSecond = '2', kRest = 'r';
// Every digit a double has, so that it reads back the same.
inline std::string exact(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

// The metadata key of what a side database was built for, and that stamp: this
// layout's version, the index's document count and last document number (which
// any change to the index moves), and BM25's k1 and b.
inline constexpr std::string_view kStampKey = "built-for";
inline std::string stamp(const Xapian::Database& db, double k1, double b) {
  return "1 " + std::to_string(db.get_doccount()) + ' ' + std::to_string(db.get_lastdocid()) + ' ' + exact(k1) +
         ' ' + exact(b);
}

// The lengths by document number, as kLengthsKey holds them: 4 bytes each,
// little-endian.
inline std::string encode_lengths(const std::vector<Xapian::termcount>& lengths) {
  std::string out;
  out.reserve(lengths.size() * 4);
  for (const Xapian::termcount n : lengths) {
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((n >> shift) & 0xff));
  }
  return out;
}
inline std::vector<Xapian::termcount> decode_lengths(std::string_view bytes) {
  std::vector<Xapian::termcount> out(bytes.size() / 4);
  for (std::size_t i = 0; i < out.size(); ++i) {
    Xapian::termcount n = 0;
    for (int b = 3; b >= 0; --b) n = n << 8 | static_cast<unsigned char>(bytes[i * 4 + static_cast<std::size_t>(b)]);
    out[i] = n;
  }
  return out;
}

// BM25 as Xapian::BM25Weight computes it (xapian-core 1.4 weight/bm25weight.cc)
// with k2 = 0, k3 = 1, min_normlen 0.5, for a leaf of wqf 1 and factor 1: the
// same operations in the same order, so the same doubles.
struct Bm25 {
  double k1, b, len_factor;
  Xapian::doccount docs;

  Bm25(double k1_, double b_, const Xapian::Database& db)
      : k1(k1_), b(b_), len_factor(db.get_avlength() > 0 ? 1 / db.get_avlength() : 0), docs(db.get_doccount()) {}

  // The term-frequency part, 0 to 1: a posting's impact.
  double impact(Xapian::termcount wdf, Xapian::termcount len) const {
    const double normlen = std::max(len * len_factor, 0.5);
    const double w = wdf;
    return w / (k1 * (normlen * b + (1 - b)) + w);
  }
  // The weight of a word that `tf` abstracts have, per unit of impact.
  double termweight(Xapian::doccount tf) const {
    double tw = (docs - tf + 0.5) / (tf + 0.5);
    if (tw < 2) tw = tw * 0.5 + 1;
    double t = std::log(tw) * 1.0;   // factor 1
    t *= (1 + 1) * 1.0 / (1 + 1.0);  // (k3 + 1) wqf / (k3 + wqf), k3 = wqf = 1
    return t * (k1 + 1);
  }
};

}  // namespace abstracts::tiers

#endif  // ABSTRACTS_ENGINE_TIERS_H_
