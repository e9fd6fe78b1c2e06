// The corpus-wide table of learned acronyms, and how queries use it.
#ifndef ABSTRACTS_QUERY_ACRONYM_TABLE_H_
#define ABSTRACTS_QUERY_ACRONYM_TABLE_H_

#include <map>
#include <string>
#include <vector>

#include <xapian.h>

#include "engine/analysis/analyzer.h"

namespace abstracts::query {

// Built from the index's XD terms (engine/schema.h): one per distinct definition
// in a document, so a definition's count is the number of abstracts making it
// and re-indexing never double-counts.
//
// Ambiguity: an acronym with several long forms expands only to those that make
// up at least kMinShare of its definitions, at most kMaxLongForms of them, most
// frequent first; the others are listed but never used.
class AcronymTable {
 public:
  static constexpr double kMinShare = 0.25;
  static constexpr std::size_t kMaxLongForms = 3;

  struct LongForm {
    std::string surface;             // most frequent spelling, lower case
    std::vector<std::string> terms;  // analysed: what a phrase query needs
    unsigned count = 0;              // abstracts defining it
    bool used = false;               // passes the ambiguity rule
  };
  struct Acronym {
    std::string surface;  // as most often written: "LLMs"
    std::string term;     // its index term: "llm"
    std::vector<LongForm> long_forms;  // most frequent first
  };

  AcronymTable() = default;
  static AcronymTable load(const Xapian::Database& db, const analysis::Analyzer& analyzer);

  // The acronym with this index term, or null.
  const Acronym* find_short(const std::string& term) const;
  // The acronyms that a long form with these terms is used for (may be empty).
  std::vector<const Acronym*> find_long(const std::vector<std::string>& terms) const;

  const std::map<std::string, Acronym>& all() const { return by_term_; }

 private:
  std::map<std::string, Acronym> by_term_;
  std::map<std::vector<std::string>, std::vector<std::string>> short_by_long_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_ACRONYM_TABLE_H_
