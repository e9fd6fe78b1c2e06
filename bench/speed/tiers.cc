#include "bench/speed/tiers.h"

#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "abstracts/search.h"
#include "bench/speed/stats.h"
#include "bench/speed/system.h"

namespace abstracts::speed {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr double kMinNormlen = 0.5;  // Xapian's BM25 default, as the engine's
const std::string kFirst = "1:", kSecond = "2:";

// BM25 as Xapian::BM25Weight computes it (bm25weight.cc, 1.4), k2 = 0, k3 = 1,
// one leaf per word: the same operations in the same order, so the same doubles.
struct Bm25 {
  double k1, b, len_factor;
  Xapian::doccount docs;

  explicit Bm25(const Xapian::Database& db)
      : k1(RankingOptions{}.k1), b(RankingOptions{}.b), len_factor(1 / db.get_avlength()), docs(db.get_doccount()) {}

  // The term-frequency part, 0 to 1: a posting's impact.
  double impact(Xapian::termcount wdf, Xapian::termcount len) const {
    const double normlen = std::max(len * len_factor, kMinNormlen);
    const double w = wdf;
    return w / (k1 * (normlen * b + (1 - b)) + w);
  }
  double termweight(Xapian::doccount tf) const {
    double tw = (docs - tf + 0.5) / (tf + 0.5);
    if (tw < 2) tw = tw * 0.5 + 1;
    double t = std::log(tw) * 1.0;  // factor 1
    t *= (1 + 1) * 1.0 / (1 + 1.0);  // k3 = 1, wqf = 1
    return t * (k1 + 1);
  }
};

// A tiered word: while the matcher may still need a posting of the rest's
// impact, its whole list; then only its first two tiers, merged; then only the
// first. The matcher's min_wt only grows during a match, so a tier once left
// out stays out, and the maximum weight falls with it.
class TieredWord : public Xapian::PostingSource {
 public:
  struct Bounds {
    double first, second, rest;  // weights: the term weight times each one's highest impact
  };
  TieredWord(Xapian::Database main, Xapian::Database side, std::string term, const Bm25& bm25, Bounds bounds)
      : main_(std::move(main)), side_(std::move(side)), term_(std::move(term)), bm25_(bm25),
        termweight_(bm25.termweight(main_.get_termfreq(term_))), bounds_(bounds) {}

  TieredWord* clone() const override { return new TieredWord(main_, side_, term_, bm25_, bounds_); }
  void init(const Xapian::Database&) override {
    all_ = main_.postlist_begin(term_);
    first_ = side_.postlist_begin(kFirst + term_);
    second_ = side_.postlist_begin(kSecond + term_);
    at_ = 0;
    done_ = false;
    tiers_ = 3;
    set_maxweight(bounds_.first);
  }
  Xapian::doccount get_termfreq_min() const override { return 0; }
  Xapian::doccount get_termfreq_est() const override { return main_.get_termfreq(term_); }
  Xapian::doccount get_termfreq_max() const override { return main_.get_termfreq(term_); }
  void next(double min_wt) override {
    leave_out(min_wt);
    advance(at_ + 1);
  }
  void skip_to(Xapian::docid did, double min_wt) override {
    leave_out(min_wt);
    if (did > at_) advance(did);
  }
  bool at_end() const override { return done_; }
  Xapian::docid get_docid() const override { return at_; }
  double get_weight() const override { return termweight_ * bm25_.impact(all_.get_wdf(), all_.get_doclength()); }
  std::string get_description() const override { return "TieredWord(" + term_ + ")"; }

 private:
  void leave_out(double min_wt) {
    if (tiers_ == 3 && min_wt > bounds_.rest) tiers_ = 2;
    if (tiers_ == 2 && min_wt > bounds_.second) tiers_ = 1;
  }
  // Moves to the first posting at or after `did` in the tiers still walked; the
  // whole list's iterator is kept on it, for its wdf and length.
  void advance(Xapian::docid did) {
    const Xapian::PostingIterator end;
    if (tiers_ == 3) {
      if (all_ != end && *all_ < did) all_.skip_to(did);
      done_ = all_ == end;
      if (!done_) at_ = *all_;
      return;
    }
    Xapian::docid next = 0;
    if (first_ != end && *first_ < did) first_.skip_to(did);
    if (first_ != end) next = *first_;
    if (tiers_ == 2) {
      if (second_ != end && *second_ < did) second_.skip_to(did);
      if (second_ != end && (next == 0 || *second_ < next)) next = *second_;
    }
    done_ = next == 0;
    if (done_) return;
    at_ = next;
    if (*all_ < at_) all_.skip_to(at_);
  }

  Xapian::Database main_, side_;
  std::string term_;
  Bm25 bm25_;
  double termweight_;
  Bounds bounds_;
  Xapian::PostingIterator all_, first_, second_;
  Xapian::docid at_ = 0;
  bool done_ = false;
  int tiers_ = 3;
};

// The matcher's query of `q` (as matcher_system.cc builds it), its words tiered
// when `side` has tiers for them.
Xapian::Query matcher_query(const BenchQuery& q, const Xapian::Database& db, const Xapian::Database* side,
                            const Bm25& bm25) {
  static const Xapian::Stem stem("english");
  std::vector<Xapian::Query> words;
  for (const auto& w : q.words) {
    const std::string term = stem(w);
    const std::string first = side == nullptr ? "" : side->get_metadata(kFirst + term);
    if (first.empty()) {
      words.emplace_back(term);
      continue;
    }
    const double tw = bm25.termweight(db.get_termfreq(term));
    // The stored impacts are printed with 17 digits; the bound is padded by a
    // part in 10^9 so that rounding cannot put it below a posting's weight.
    auto bound = [&](const std::string& key) { return tw * std::stod(side->get_metadata(key + term)) * (1 + 1e-9); };
    words.emplace_back(new TieredWord(db, *side, term, bm25, {bound(kFirst), bound(kSecond), bound("rest:")}));
  }
  auto op = Xapian::Query::OP_OR;
  if (q.kind == BenchQuery::Kind::kPhrase || q.op == "AND") op = Xapian::Query::OP_AND;
  if (q.op == "NOT") op = Xapian::Query::OP_AND_NOT;
  return Xapian::Query(op, words.begin(), words.end());
}

std::string exact(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

}  // namespace

json build_tiers(const fs::path& index, const fs::path& side_path, const TierOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Xapian::Database db(index.string());
  const Bm25 bm25(db);
  const auto min_tf = static_cast<Xapian::doccount>(std::ceil(options.min_share * db.get_doccount()));
  std::map<Xapian::docid, Xapian::Document> tiered;  // one document of tier terms per abstract
  Xapian::WritableDatabase side(side_path.string(), Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_NO_TERMLIST);
  std::size_t words = 0, postings = 0, in_tiers = 0;
  std::vector<std::pair<double, Xapian::docid>> by_impact;
  for (auto t = db.allterms_begin(); t != db.allterms_end(); ++t) {
    const std::string term = *t;
    if (term.empty() || (term[0] >= 'A' && term[0] <= 'Z') || t.get_termfreq() < min_tf) continue;  // words only
    by_impact.clear();
    for (auto p = db.postlist_begin(term); p != db.postlist_end(term); ++p)
      by_impact.emplace_back(bm25.impact(p.get_wdf(), p.get_doclength()), *p);
    std::sort(by_impact.begin(), by_impact.end(), std::greater<>());
    // The first `share` of the postings, and any of equal impact after them.
    auto cut = [&](double share, std::size_t from) {
      std::size_t k = std::max(from, std::min(by_impact.size(), static_cast<std::size_t>(by_impact.size() * share)));
      if (k == 0) return k;
      while (k < by_impact.size() && by_impact[k].first >= by_impact[k - 1].first) ++k;
      return k;
    };
    const std::size_t first = cut(options.top, 1), second = cut(options.second, first);
    auto impact_at = [&](std::size_t i) { return i < by_impact.size() ? by_impact[i].first : 0.0; };
    side.set_metadata(kFirst + term, exact(impact_at(0)));
    side.set_metadata(kSecond + term, exact(impact_at(first)));
    side.set_metadata("rest:" + term, exact(impact_at(second)));
    for (std::size_t i = 0; i < second; ++i)
      tiered[by_impact[i].second].add_boolean_term((i < first ? kFirst : kSecond) + term);
    ++words;
    postings += by_impact.size();
    in_tiers += second;
  }
  for (auto& [docid, doc] : tiered) side.replace_document(docid, doc);
  side.commit();
  side.close();
  std::uintmax_t bytes = 0;
  for (const auto& f : fs::recursive_directory_iterator(side_path))
    if (f.is_regular_file()) bytes += f.file_size();
  return {{"min_share", options.min_share},
          {"top", options.top},
          {"second", options.second},
          {"words", words},
          {"postings", postings},
          {"tiered_postings", in_tiers},
          {"side_bytes", bytes},
          {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
}

json compare_tiers(const fs::path& index, const fs::path& side_path, const std::vector<BenchQuery>& queries,
                   std::size_t passes) {
  const Xapian::Database db(index.string()), side(side_path.string());
  const Bm25 bm25(db);
  Xapian::Enquire enquire(db);
  enquire.set_weighting_scheme(Xapian::BM25Weight(bm25.k1, 0, 1, bm25.b, kMinNormlen));
  struct Times {
    std::vector<double> plain, tiered;
    std::size_t identical = 0;
  };
  std::map<std::string, Times> by_kind;
  std::vector<std::pair<double, double>> best(queries.size(), {1e300, 1e300});
  std::vector<bool> same(queries.size(), true);
  for (std::size_t pass = 0; pass <= passes; ++pass) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      Xapian::MSet mset[2];
      for (int tiered = 0; tiered < 2; ++tiered) {
        enquire.set_query(matcher_query(queries[i], db, tiered ? &side : nullptr, bm25));
        const auto t0 = std::chrono::steady_clock::now();
        mset[tiered] = enquire.get_mset(0, kTopK);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (pass == 0) continue;  // the warm-up
        double& b = tiered ? best[i].second : best[i].first;
        b = std::min(b, ms);
      }
      if (pass != 0) continue;
      same[i] = mset[0].size() == mset[1].size();
      for (Xapian::doccount r = 0; same[i] && r < mset[0].size(); ++r)
        same[i] = *mset[0][r] == *mset[1][r] && mset[0][r].get_weight() == mset[1][r].get_weight();
    }
  }
  for (std::size_t i = 0; i < queries.size(); ++i) {
    for (const char* kind : {kind_name(queries[i].kind), "every"}) {
      Times& t = by_kind[kind];
      t.plain.push_back(best[i].first);
      t.tiered.push_back(best[i].second);
      t.identical += same[i] ? 1 : 0;
    }
  }
  json out = json::object();
  for (const auto& [kind, t] : by_kind) {
    auto summary = [](const std::vector<double>& v) {
      return json{{"p50_ms", percentile(v, 50)},
                  {"p99_ms", percentile(v, 99)},
                  {"mean_ms", std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size())}};
    };
    out[kind] = {{"queries", t.plain.size()},
                 {"identical_top10", t.identical},
                 {"plain", summary(t.plain)},
                 {"tiered", summary(t.tiered)}};
  }
  return out;
}

}  // namespace abstracts::speed
