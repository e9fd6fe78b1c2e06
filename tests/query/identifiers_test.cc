// Queries that are identifiers, as people paste them (issue 43): table-driven.
#include "query/identifiers.h"

#include <gtest/gtest.h>

#include <string>

namespace abstracts::query {
namespace identifiers_test {

struct Case {
  const char* text;
  const char* scheme;  // "" when the text is words
  const char* value;
  bool certain;
};

const Case kCases[] = {
    {"10.1016/j.scitotenv.2017.07.086", "doi", "10.1016/j.scitotenv.2017.07.086", true},
    {"10.1016/J.SCITOTENV.2017.07.086", "doi", "10.1016/j.scitotenv.2017.07.086", true},
    {"  10.1016/j.scitotenv.2017.07.086.", "doi", "10.1016/j.scitotenv.2017.07.086", true},
    {"(doi:10.1016/j.x.2017.07.086).", "doi", "10.1016/j.x.2017.07.086", true},
    {"DOI: 10.1016/j.x", "doi", "10.1016/j.x", true},
    {"https://doi.org/10.1016/j.x", "doi", "10.1016/j.x", true},
    {"http://dx.doi.org/10.1016%2Fj.x", "doi", "10.1016/j.x", true},
    {"doi.org/10.1016/j.x", "doi", "10.1016/j.x", true},
    {"10.1002/(SICI)1097-4636(199709)36:3<398::AID-JBM15>3.0.CO;2-F", "doi",
     "10.1002/(sici)1097-4636(199709)36:3<398::aid-jbm15>3.0.co;2-f", true},
    {"“10.1016/j.x”", "doi", "10.1016/j.x", true},
    {"0704.0001", "arxiv", "0704.0001", true},
    {"2101.00001v3", "arxiv", "2101.00001", true},
    {"arXiv:2101.00001", "arxiv", "2101.00001", true},
    {"hep-th/9901001", "arxiv", "hep-th/9901001", true},
    {"math.CO/0309136v2", "arxiv", "math.co/0309136", true},
    {"https://arxiv.org/abs/0704.0001v2", "arxiv", "0704.0001", true},
    {"http://arxiv.org/pdf/1706.02859v2.pdf", "arxiv", "1706.02859", true},
    {"https://pubmed.ncbi.nlm.nih.gov/31045810/", "pmid", "31045810", true},
    {"https://www.ncbi.nlm.nih.gov/pubmed/31045810", "pmid", "31045810", true},
    {"PMID: 31045810", "pmid", "31045810", true},
    {"31045810", "pmid", "31045810", false},
    {"PMC5551234", "pmcid", "pmc5551234", true},
    {"https://www.ncbi.nlm.nih.gov/pmc/articles/PMC5551234/", "pmcid", "pmc5551234", true},
    {"pmcid: PMC5551234", "pmcid", "pmc5551234", true},
    {"https://pmc.ncbi.nlm.nih.gov/articles/PMC5551234/", "pmcid", "pmc5551234", true},
    {"978-0-262-03384-8", "isbn", "9780262033848", true},
    {"9780262033848", "isbn", "9780262033848", true},
    {"0-262-03384-4", "isbn", "9780262033848", true},
    {"026203384X", "key", "026203384X", false},  // wrong check digit: maybe a key
    {"ISBN 978-3-031-04082-5", "isbn", "9783031040825", true},
    {"isbn:978 1 00 915796 4", "isbn", "9781009157964", true},
    {"0-8044-2957-X", "isbn", "9780804429573", true},
    {"978-0-262-03384-9", "key", "978-0-262-03384-9", false},  // wrong check digit
    {"1234567890123", "", "", false},
    {"Romatschke2018a", "key", "Romatschke2018a", false},
    {"Aaboud:2017tke", "key", "Aaboud:2017tke", false},
    {"sparse attention", "", "", false},
    {"attention", "", "", false},
    {"https://example.org/paper", "", "", false},
    {"10.5 percent", "", "", false},
    {"doi: not a doi at all", "", "", false},
    {"", "", "", false},
};

TEST(Identifiers, PastedFormsReadAsTheirIdentifier) {
  for (const auto& c : kCases) {
    const auto id = read_identifier(c.text);
    if (std::string(c.scheme).empty()) {
      EXPECT_FALSE(id.has_value()) << c.text << " read as " << id->scheme << " " << id->value;
      continue;
    }
    ASSERT_TRUE(id.has_value()) << c.text;
    EXPECT_EQ(id->scheme, c.scheme) << c.text;
    EXPECT_EQ(id->value, c.value) << c.text;
    EXPECT_EQ(id->certain, c.certain) << c.text;
  }
}

}  // namespace identifiers_test
}  // namespace abstracts::query
