// Learned acronyms: the corpus-wide table, and the on-demand lookups queries use.
#ifndef ABSTRACTS_QUERY_ACRONYM_TABLE_H_
#define ABSTRACTS_QUERY_ACRONYM_TABLE_H_

#include <map>
#include <string>
#include <vector>

#include <xapian.h>

#include "engine/analysis/analyzer.h"

namespace abstracts::query {

// One acronym and its long forms, from the index's XD terms (engine/schema.h):
// one per distinct definition in a document, so a definition's count is the
// number of abstracts making it and re-indexing never double-counts.
//
// Ambiguity: an acronym with several long forms expands only to those that make
// up at least kMinShare of its definitions, at most kMaxLongForms of them, most
// frequent first; the others are listed but never used.
struct Acronym {
  static constexpr double kMinShare = 0.25;
  static constexpr std::size_t kMaxLongForms = 3;

  struct LongForm {
    std::string surface;             // most frequent spelling, lower case
    std::vector<std::string> terms;  // analysed: what a phrase query needs
    unsigned count = 0;              // abstracts defining it
    bool used = false;               // passes the ambiguity rule
  };
  std::string surface;  // as most often written: "LLMs"
  std::string term;     // its index term: "llm"
  std::vector<LongForm> long_forms;  // most frequent first
};

// What the parser asks about acronyms.
class AcronymSource {
 public:
  virtual ~AcronymSource() = default;
  // The acronym with this index term, or null.
  virtual const Acronym* find_short(const std::string& term) const = 0;
  // The acronyms that use a long form with these terms (may be empty).
  virtual std::vector<const Acronym*> find_long(const std::vector<std::string>& terms) const = 0;
};

// The whole table, read at once (for listing it).
class AcronymTable : public AcronymSource {
 public:
  // Kept for callers that name them on the table.
  static constexpr double kMinShare = Acronym::kMinShare;
  static constexpr std::size_t kMaxLongForms = Acronym::kMaxLongForms;

  AcronymTable() = default;
  static AcronymTable load(const Xapian::Database& db, const analysis::Analyzer& analyzer);

  const Acronym* find_short(const std::string& term) const override;
  std::vector<const Acronym*> find_long(const std::vector<std::string>& terms) const override;

  const std::map<std::string, Acronym>& all() const { return by_term_; }

 private:
  std::map<std::string, Acronym> by_term_;
};

// Looks acronyms up in the index as a query needs them: a prefix scan of the XD
// or XL terms per word, so a search never reads the whole table. One per search
// (it memoises, and is not thread-safe).
class AcronymLookup : public AcronymSource {
 public:
  AcronymLookup(const Xapian::Database& db, const analysis::Analyzer& analyzer)
      : db_(db), analyzer_(analyzer) {}

  const Acronym* find_short(const std::string& term) const override;
  std::vector<const Acronym*> find_long(const std::vector<std::string>& terms) const override;

 private:
  const Xapian::Database& db_;
  const analysis::Analyzer& analyzer_;
  mutable std::map<std::string, Acronym> found_;  // looked up: "" surface if unknown
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_ACRONYM_TABLE_H_
