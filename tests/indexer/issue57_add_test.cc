// Issue 57, finding 14: Writer::add refuses, with an InputError and a hint, an
// abstract a file's record would not give either: one of no text, one over a
// record's 16 MiB, one whose date is none. It used to cut a 100 MB text to
// 1 MiB, index an empty one, and keep the date 99999-99-99. A text between
// 1 MiB and 16 MiB is kept cut, as a file's record is.
#include <gtest/gtest.h>

#include <string>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer::issue57_add_test {
namespace {

using abstracts::testing::make_abstract;
using abstracts::testing::TempDir;

Abstract dated(int year, int month, int day) {
  Abstract a = make_abstract("Okapis browse at dusk.");
  a.year = year;
  a.month = month;
  a.day = day;
  return a;
}

class Issue57Add : public ::testing::Test {
 protected:
  // Whether add() refuses `a` with an InputError of a hint, changing nothing.
  ::testing::AssertionResult refused(Abstract a) {
    Writer w = Writer::open(dir_.path());
    const std::size_t before = w.abstracts();
    try {
      w.add(std::move(a));
    } catch (const InputError& e) {
      if (e.hint().empty()) return ::testing::AssertionFailure() << "no hint: " << e.what();
      if (w.abstracts() != before) return ::testing::AssertionFailure() << "added anyway: " << e.what();
      return ::testing::AssertionSuccess() << e.what();
    }
    return ::testing::AssertionFailure() << "added";
  }
  TempDir dir_;
};

TEST_F(Issue57Add, ATextOverARecordsCapIsRefused) {
  EXPECT_TRUE(refused(make_abstract(std::string(100 << 20, 'x'))));
  EXPECT_TRUE(refused(make_abstract(std::string((16 << 20) + 1, 'x'))));
  // The cap is the record's, whatever field holds the bytes.
  Abstract many = make_abstract("Okapis browse at dusk.");
  for (int i = 0; i < 20000; ++i) many.authors.push_back({std::string(1000, 'a'), "B."});
  EXPECT_TRUE(refused(std::move(many)));
}

TEST_F(Issue57Add, ATextUnderTheCapIsKeptCutAsAFilesRecordIs) {
  std::string text = "Okapis browse at dusk.";
  while (text.size() < (2 << 20)) text += " Okapis browse at dusk.";
  std::string id;
  {
    Writer w = Writer::open(dir_.path());
    id = w.add(make_abstract(text));
    w.commit();
  }
  const auto stored = Index::open(dir_.path()).get(id);
  ASSERT_TRUE(stored);
  EXPECT_LE(stored->text.size(), std::size_t{1} << 20);
  EXPECT_GT(stored->text.size(), std::size_t{1000000});
  EXPECT_TRUE(stored->text.ends_with("\u2026"));
}

TEST_F(Issue57Add, ATextThatShowsNothingIsRefused) {
  EXPECT_TRUE(refused(make_abstract("")));
  EXPECT_TRUE(refused(make_abstract(" \t\r\n ")));
  EXPECT_TRUE(refused(make_abstract("{}", "", "A title is no abstract")));
}

TEST_F(Issue57Add, ADateThatIsNoneIsRefused) {
  EXPECT_TRUE(refused(dated(99999, 99, 99)));
  EXPECT_TRUE(refused(dated(99999, 0, 0)));
  EXPECT_TRUE(refused(dated(999, 0, 0)));
  EXPECT_TRUE(refused(dated(-2020, 0, 0)));
  EXPECT_TRUE(refused(dated(2020, 13, 0)));
  EXPECT_TRUE(refused(dated(2020, 5, 32)));
  EXPECT_TRUE(refused(dated(2020, 0, 5)));   // a day without its month
  EXPECT_TRUE(refused(dated(0, 5, 0)));      // a month without its year
}

TEST_F(Issue57Add, DatesAndTextsThatAreSomeAreAdded) {
  Writer w = Writer::open(dir_.path());
  for (const Abstract& a : {dated(0, 0, 0), dated(1000, 0, 0), dated(2999, 12, 31), dated(2020, 2, 29)}) {
    EXPECT_NO_THROW(w.add(a)) << a.year << "-" << a.month << "-" << a.day;
  }
  EXPECT_NO_THROW(w.add(make_abstract("  Okapis browse at dusk.  ")));
}

}  // namespace
}  // namespace abstracts::indexer::issue57_add_test
