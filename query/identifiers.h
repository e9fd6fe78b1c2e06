// A query that is an identifier: a DOI, arXiv id, PMID, PMCID or ISBN, bare, labelled
// or as a link, or a citation key, as people paste them. Such a query finds
// that paper, not the papers that share its words (docs/query-language.md,
// "Identifiers").
#ifndef ABSTRACTS_QUERY_IDENTIFIERS_H_
#define ABSTRACTS_QUERY_IDENTIFIERS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts::query {

struct IdentifierQuery {
  std::string scheme;  // "doi", "arxiv", "pmid", "pmcid", "isbn" or "key"
  std::string value;   // as the index keeps it (schema::normalise_identifier)
  // A DOI, an arXiv id or a link can be nothing else: when no abstract has it,
  // the search says so. A number (a PMID?) or a word (a citation key?) falls
  // back to a search of its words.
  bool certain = false;
  // "the DOI 10.1016/j.x.2017.07.086", "the arXiv id 0704.0001", ...
  std::string described() const;
};

// Reads `text`, a whole query, as an identifier if it is one: bare
// ("10.1016/J.X.2017", "0704.0001v2", "hep-th/9901001", "PMC5551234", an ISBN-13
// or ISBN-10 with its check digit right, hyphens or not), labelled ("doi:
// 10.1016/...", "arXiv:0704.0001", "PMID 31045810", "PMCID: PMC5551234", "ISBN
// 978-0-262-03384-8"), or a link
// (https://doi.org/..., http://dx.doi.org/..., arxiv.org/abs/ and /pdf/,
// PubMed and PMC article links); a pasted sentence's quotes, brackets and
// trailing punctuation are stripped. A bare number reads as a PMID and a
// single token with a digit as a citation key, both uncertain. nullopt if the
// text is words.
std::optional<IdentifierQuery> read_identifier(std::string_view text);

// The index terms of the abstracts the identifier names: its XI or citation
// key term (a citation key's also as an id, which BEIR's "_id" may be).
std::vector<std::string> identifier_terms(const IdentifierQuery& id);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_IDENTIFIERS_H_
