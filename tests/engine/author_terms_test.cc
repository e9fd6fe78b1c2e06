// Authors' names as terms (engine/author_terms.h): a typed `author:` value
// matches an author when the query's terms and the author's share one.
#include "engine/author_terms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace abstracts::author_terms {
namespace {

bool matches(const std::string& typed, const Author& author) {
  const auto asked = query_terms(typed);
  const auto has = index_terms(author);
  return std::any_of(asked.begin(), asked.end(), [&](const std::string& t) {
    return std::find(has.begin(), has.end(), t) != has.end();
  });
}

TEST(Issue43AuthorTerms, NamesAsPeopleWriteThem) {
  const struct {
    const char* typed;
    Author author;
    bool found;
  } cases[] = {
      {"Romatschke, Paul", {"Romatschke", "Paul"}, true},
      {"Romatschke, Paul", {"Romatschke", "P."}, true},
      {"Romatschke, Paul", {"Romatschke", "Peter"}, false},
      {"Paul Romatschke", {"Romatschke", "P"}, true},
      {"P. Romatschke", {"Romatschke", "Paul"}, true},
      {"P. Romatschke", {"Romatschke", "Q."}, false},
      {"Romatschke PM", {"Romatschke", "Paul M."}, true},
      {"gils", {"van Gils", "Marc"}, true},
      {"van gils", {"van Gils", "Marc"}, true},
      {"van", {"van Gils", "Marc"}, false},
      {"van der Berg", {"Berg", "V."}, false},  // a particle is no given name
      {"M. Gils", {"van Gils", "Marc"}, true},
      {"sayed", {"El-Sayed", "Shimaa"}, true},
      {"el sayed", {"El-Sayed", "Shimaa"}, true},
      {"elsayed", {"El-Sayed", "Shimaa"}, true},
      {"el", {"El-Sayed", "Shimaa"}, false},
      {"le", {"Tran Le", "Minh"}, true},  // a particle's word that ends a name is a name
      {"Finger", {"Finger Jr.", "M."}, true},
      {"M. Finger", {"Finger Jr.", "M."}, true},
      {"muller", {"Müller", "Klaus-Robert"}, true},
      {"Klaus Müller", {"Muller", "Klaus-Robert"}, true},
      {"R. Müller", {"Müller", "Klaus-Robert"}, false},
      {"K. Müller", {"Müller", "KR"}, true},  // Web of Science's initials
      {"enterria", {"d'Enterria", "David"}, true},
      {"van Gils", {"Gils", "Marc van"}, true},  // CSL's particle with the given names
      {"organization", {"World Health Organization", ""}, true},
      {"Health Organization", {"World Health Organization", ""}, false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(matches(c.typed, c.author), c.found)
        << c.typed << " / " << c.author.given << " | " << c.author.family;
  }
}

TEST(Issue43AuthorTerms, CompatibleGivenNames) {
  auto ok = [](const char* a, const char* b) { return compatible(given_parts(a), given_parts(b)); };
  EXPECT_TRUE(ok("Paul", "P."));
  EXPECT_TRUE(ok("P. M.", "Paul"));
  EXPECT_TRUE(ok("Paul Michael", "P. M."));
  EXPECT_TRUE(ok("KR", "Klaus-Robert"));
  EXPECT_TRUE(ok("José", "Jose"));
  EXPECT_FALSE(ok("Paul", "Peter"));
  EXPECT_FALSE(ok("P. M.", "P. Q."));
  EXPECT_FALSE(ok("", "P."));
}

TEST(Issue43AuthorTerms, FacetTermKeepsTheNameAsWritten) {
  const Author a{"Granier de Cassagnac", "R."};
  const std::string term = facet_term(a);
  const auto name = parse_facet_value(std::string_view(term).substr(3));
  EXPECT_EQ(name.key, "cassagnac");
  EXPECT_EQ(name.author.family, a.family);
  EXPECT_EQ(name.author.given, a.given);
  // "de Cassagnac, R. Granier" has the same key: the merge sees both.
  EXPECT_EQ(parse_facet_value(facet_term({"de Cassagnac", "R. Granier"}).substr(3)).key,
            "cassagnac");
}

}  // namespace
}  // namespace abstracts::author_terms
