// Names and dates as bibliographic sources write them (indexer/names.h).
#include "indexer/names.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace abstracts::indexer {
namespace {

TEST(Names, EachWayOfWritingOne) {
  const struct {
    const char* written;
    const char* family;
    const char* given;
  } cases[] = {
      {"Berger, E. L.", "Berger", "E. L."},
      {"E. L. Berger", "Berger", "E. L."},
      {"Kate Jack", "Jack", "Kate"},
      {"Jan van der Berg", "van der Berg", "Jan"},
      {"van der Berg, Jan", "van der Berg", "Jan"},
      {"Ludwig von Beethoven", "von Beethoven", "Ludwig"},
      {"Martin Luther King Jr.", "King", "Martin Luther, Jr."},
      {"  Aristotle ", "Aristotle", ""},
      {"C.-P. Yuan", "Yuan", "C.-P."},
      {"Bal\\'azs, C.", "Bal\\'azs", "C."},
  };
  for (const auto& c : cases) {
    const Author a = parse_name(c.written);
    EXPECT_EQ(a.family, c.family) << c.written;
    EXPECT_EQ(a.given, c.given) << c.written;
  }
}

// Issue 43: an organisation's name is one name, never given and family names.
TEST(Issue43Names, OrganisationsAreOneName) {
  for (const char* written : {"Xshootu collaboration", "World Health Organization", "Particle Data Group"}) {
    const Author a = parse_name(written);
    EXPECT_EQ(a.family, written);
    EXPECT_EQ(a.given, "");
  }
  EXPECT_EQ(parse_name("on behalf of the ALICE Collaboration").family, "ALICE Collaboration");
  EXPECT_EQ(parse_name("The ATLAS Collaboration,").family, "The ATLAS Collaboration");
  EXPECT_EQ(parse_name("Collaboration, ALICE").family, "ALICE Collaboration");
  const auto names = split_bibtex_names("Hellbar, Ernst and {collaboration}, on behalf of the ALICE and "
                                        "ATLAS Collaboration and {{World Health Organization}}");
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0].family, "Hellbar");
  EXPECT_EQ(names[1].family, "ALICE {collaboration}");
  EXPECT_EQ(names[1].given, "");
  EXPECT_EQ(names[2].family, "ATLAS Collaboration");
  EXPECT_EQ(names[2].given, "");
  EXPECT_EQ(names[3].family, "{{World Health Organization}}");
  EXPECT_EQ(names[3].given, "");
}

TEST(Names, Lists) {
  auto names = parse_name_list("C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan");
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0].family, "Bal\\'azs");
  EXPECT_EQ(names[3].given, "C.-P.");
  names = parse_name_list("Knuth, Donald E. and Plass, Michael F.");  // BibTeX
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].family, "Knuth");
  EXPECT_EQ(names[0].given, "Donald E.");
  EXPECT_EQ(names[1].family, "Plass");
  names = parse_name_list("van der Berg, Jan and Smith, A.");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].family, "van der Berg");
  names = parse_name_list("A. Smith, B. Jones and C. Wu");
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[2].family, "Wu");
  names = parse_name_list("Donald Knuth and Michael Plass");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[1].family, "Plass");
  names = parse_name_list("A. Smith, Jr., B. Jones");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].given, "A., Jr.");
  EXPECT_TRUE(parse_name_list("").empty());
}

// BibTeX's own rules ("Tame the BeaST", section 11) and biblatex's extended form,
// which btparse, the splitter before, read as one garbled name. btparse read
// memory it had not set on "C, , b" and on a name of only a comma.
TEST(Names, BibtexListsSplitAsBibtexDoes) {
  const struct {
    const char* written;
    std::vector<std::pair<std::string, std::string>> names;  // family, given
  } cases[] = {
      {"Jean de la Fontaine", {{"de la Fontaine", "Jean"}}},
      {"de la Fontaine, Jean", {{"de la Fontaine", "Jean"}}},
      {R"(Charles Louis Xavier Joseph de la Vall{\'e}e Poussin)",
       {{R"(de la Vall{\'e}e Poussin)", "Charles Louis Xavier Joseph"}}},
      {"Smith, Jr., John", {{"Smith", "John, Jr."}}},
      {"{Barnes and Noble, Inc.} and B. Jones",
       {{"{Barnes and Noble, Inc.}", ""}, {"Jones", "B."}}},
      {"A. Smith AND B. Jones And C. Wu", {{"Smith", "A."}, {"Jones", "B."}, {"Wu", "C."}}},
      {R"(Ludwig~van~Beethoven and Pe\~na, Jos{\'e})",
       {{"van Beethoven", "Ludwig"}, {R"(Pe\~na)", R"(Jos{\'e})"}}},
      {R"({\'E}mile Zola and Per {\o}ster Dal and {\v{C}}ern{\'y}, Jan)",
       {{"Zola", R"({\'E}mile)"}, {R"({\o}ster Dal)", "Per"}, {R"({\v{C}}ern{\'y})", "Jan"}}},
      {R"(\'Angel de la Pe\~na and Ángel de la Peña and Élan élan Vital)",
       {{R"(de la Pe\~na)", R"(\'Angel)"}, {"de la Peña", "Ángel"}, {"élan Vital", "Élan"}}},
      {"jean dupont and Aristotle and A. Smith and others",
       {{"jean dupont", ""}, {"Aristotle", ""}, {"Smith", "A."}}},
      {"A, B", {{"A", "B"}}},
      {"A, B, C, D", {{"A", "C D, B"}}},
      {"C, , b and , and D", {{"C", "b"}, {"D", ""}}},
      {"Smith, Jr., and , John and and", {{"Smith", "Jr."}, {"", "John"}}},
      {", John", {{"", "John"}}},
      {"{Open brace and B. Jones", {{"{Open brace and B. Jones", ""}}},
      {"Close} brace and} B. Jones", {{"brace and} B. Jones", "Close}"}}},
      {"family=Jong, given=P., prefix=de, useprefix=true and Busza, Wit",
       {{"de Jong", "P."}, {"Busza", "Wit"}}},
      {R"(family=Enterria, given=David, prefix=d' , useprefix=true)", {{"d'Enterria", "David"}}},
      {R"(family=Enterria, given=David, prefix={d'})", {{"{d'}Enterria", "David"}}},
      {R"(given = "Jean Pierre", family={van der Berg}, suffix=Jr.)",
       {{"{van der Berg}", "Jean Pierre, Jr."}}},
      {"useprefix=true, x=y", {{"useprefix=true", "x=y"}}},
      {"", {}},
      {" , ,, ", {}},
  };
  for (const auto& c : cases) {
    std::vector<std::pair<std::string, std::string>> got;
    for (const Author& a : split_bibtex_names(c.written)) got.emplace_back(a.family, a.given);
    EXPECT_EQ(got, c.names) << c.written;
  }
}

TEST(Dates, EachWayOfWritingOne) {
  const struct {
    const char* written;
    int year, month, day;
  } cases[] = {
      {"2007-04-02", 2007, 4, 2},
      {"2007-04", 2007, 4, 0},
      {"2007", 2007, 0, 0},
      {"2007/04/02/", 2007, 4, 2},
      {"2007///", 2007, 0, 0},
      {"Mon, 2 Apr 2007 19:18:42 GMT", 2007, 4, 2},
      {"2 Apr 2007", 2007, 4, 2},
      {"Apr 2007", 2007, 4, 0},
      {"2007 Apr", 2007, 4, 0},
      {"2007-13-40", 2007, 0, 0},
  };
  for (const auto& c : cases) {
    int y = -1, m = -1, d = -1;
    EXPECT_TRUE(parse_date(c.written, y, m, d)) << c.written;
    EXPECT_EQ(y, c.year) << c.written;
    EXPECT_EQ(m, c.month) << c.written;
    EXPECT_EQ(d, c.day) << c.written;
  }
  int y = 0, m = 0, d = 0;
  EXPECT_FALSE(parse_date("", y, m, d));
  EXPECT_FALSE(parse_date("n.d.", y, m, d));
  EXPECT_FALSE(parse_date("12345", y, m, d));
}

}  // namespace
}  // namespace abstracts::indexer
