// Issue 21: the library's hints speak of its API (tests/api/public_api_test.cc);
// the CLI gives its own, naming the `abstracts index` command to run. And
// `--version` names what an index depends on.
#include <gtest/gtest.h>
#include <xapian.h>

#include <filesystem>
#include <string>
#include <vector>

#include "abstracts/writer.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::hints_test {
namespace {

namespace fs = std::filesystem;

class Issue21Hints : public ::testing::Test {
 protected:
  // abstracts ARGS... in a sandbox below dir_ (its own HOME, no ABSTRACTS_INDEX).
  RunResult abstracts(const std::vector<std::string>& args) {
    return run_abstracts(args, sandbox_env(dir_.path()), dir_.path());
  }
  // Only the hint line of stderr (without "hint: "), or "" if there is none.
  static std::string hint(const RunResult& r) {
    for (const auto& line : lines(r.err)) {
      if (line.starts_with("hint: ")) return line.substr(6);
    }
    return {};
  }

  TempDir dir_;
};

TEST_F(Issue21Hints, MissingIndexNamesTheIndexCommand) {
  const std::string index = (dir_ / "missing").string();
  auto r = abstracts({"--index", index, "search", "attention"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(hint(r), "create it with `abstracts index --index " + index + " [PATH...]`") << r.err;
  // The default index needs no --index.
  r = abstracts({"stats"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(hint(r), "create it with `abstracts index`") << r.err;
}

TEST_F(Issue21Hints, LockedIndexNamesTheOtherIndexCommand) {
  const fs::path index = dir_ / "index";
  auto writer = Writer::open(index);  // holds the write lock
  auto r = abstracts({"--index", index.string(), "index", ABSTRACTS_CORPUS_DIR});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(hint(r),
            "wait for the other `abstracts index` (or program writing the index) to finish")
      << r.err;
}

TEST_F(Issue21Hints, IndexOfAnotherSchemaNamesTheCommandThatRebuildsIt) {
  const fs::path index = dir_ / "index";
  auto r = abstracts({"--index", index.string(), "index", "-q", ABSTRACTS_CORPUS_DIR});
  ASSERT_EQ(r.status, 0) << r.err;
  {
    Xapian::WritableDatabase db(layout::current_generation(index).string(), Xapian::DB_OPEN);
    db.set_metadata("abstracts:schema", "6");
    db.commit();
  }
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"search", "attention"}, {"index", ABSTRACTS_CORPUS_DIR}}) {
    std::vector<std::string> args{"--index", index.string()};
    args.insert(args.end(), command.begin(), command.end());
    r = abstracts(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(hint(r), "delete " + index.string() + " and run `abstracts index --index " +
                           index.string() + " [PATH...]` to rebuild it")
        << r.err;
  }
}

TEST_F(Issue21Hints, IndexingIntoAFileAsksForADirectory) {
  write_file(dir_ / "cluster", "remote 127.0.0.1:1\n");
  auto r = abstracts({"--index", (dir_ / "cluster").string(), "index", ABSTRACTS_CORPUS_DIR});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(hint(r).starts_with("give --index a directory")) << r.err;
}

TEST_F(Issue21Hints, VersionNamesXapianIcuAndTheSchema) {
  auto r = abstracts({"--version"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), 4u) << r.out;
  EXPECT_TRUE(out[0].starts_with("abstracts 0.")) << r.out;
  EXPECT_TRUE(out[1].starts_with("Xapian 1.4.")) << r.out;
  EXPECT_TRUE(out[2].starts_with("ICU ")) << r.out;
  EXPECT_EQ(out[3], "index schema " + std::string(schema::kSchemaVersion)) << r.out;
}

}  // namespace
}  // namespace abstracts::testing::hints_test
