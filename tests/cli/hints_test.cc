// Issue 21: the library's hints speak of its API (tests/api/public_api_test.cc);
// the CLI gives its own, naming the `abstracts index` command to run. And
// `--version` names what an index depends on. Issue 40: no hint the CLI prints
// names a C++ type.
#include <gtest/gtest.h>
#include <xapian.h>

#include <filesystem>
#include <map>
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

// Issue 40: a CLI user has no abstracts::Writer nor WriterOptions{Shard{K, N}}
// to call. Every error the library gives a hint for, and the CLI's own, run
// through the binary: each prints a hint, and none speaks C++.
class Issue40Hints : public Issue21Hints {};

TEST_F(Issue40Hints, NoHintNamesALibraryType) {
  const fs::path index = dir_ / "index", shard = dir_ / "shard", other = dir_ / "other-schema";
  auto r = abstracts({"--index", index.string(), "index", "-q", ABSTRACTS_CORPUS_DIR});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const auto& [dir, spec] : {std::pair{shard, "1/2"}, std::pair{other, "2/2"}}) {
    r = abstracts({"--index", dir.string(), "index", "-q", "--shard", spec, ABSTRACTS_CORPUS_DIR});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  {
    Xapian::WritableDatabase db(layout::current_generation(other).string(), Xapian::DB_OPEN);
    db.set_metadata("abstracts:schema", "6");
    db.commit();
  }
  // An index whose stub names no generation of its own (but a program to run),
  // and one whose stored abstracts are damaged.
  const fs::path stub = dir_ / "bad-stub", damaged = dir_ / "damaged";
  for (const auto& dir : {stub, damaged}) {
    r = abstracts({"--index", dir.string(), "index", "-q", ABSTRACTS_CORPUS_DIR});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  write_file(stub / "XAPIANDB", "remote :some-program\n");
  {
    Xapian::WritableDatabase db(layout::current_generation(damaged).string(), Xapian::DB_OPEN);
    for (Xapian::docid id = 1; id <= db.get_lastdocid(); ++id) {
      Xapian::Document doc = db.get_document(id);
      std::string value = doc.get_value(schema::kStoredSlot);
      value[value.size() / 2] ^= 0x20;
      doc.add_value(schema::kStoredSlot, value);
      db.replace_document(id, doc);
    }
    db.commit();
  }
  auto cluster = [&](const std::string& name, const std::string& lines) {
    write_file(dir_ / name, lines);
    return (dir_ / name).string();
  };
  write_file(dir_ / "nul.txt", std::string("NeurIPS 2026\nAn abstract") + '\0' + " with a NUL.\n");
  write_file(dir_ / "unknown.txt", "no header line here\n");
  fs::create_directories(dir_ / "folder");

  const std::map<std::string, std::vector<std::string>> runs = {
      {"missing index", {"--index", (dir_ / "missing").string(), "search", "attention"}},
      {"missing index, show", {"--index", (dir_ / "missing").string(), "show", "x"}},
      {"missing index, similar", {"--index", (dir_ / "missing").string(), "similar", "x"}},
      {"missing index, acronyms", {"--index", (dir_ / "missing").string(), "acronyms"}},
      {"missing default index, stats", {"stats"}},
      {"other schema", {"--index", other.string(), "search", "attention"}},
      {"other schema, index", {"--index", other.string(), "index", ABSTRACTS_CORPUS_DIR}},
      {"damaged stub", {"--index", stub.string(), "search", "attention"}},
      {"damaged stored abstract", {"--index", damaged.string(), "search", "attention"}},
      {"index into a cluster file", {"--index", cluster("c0", "auto " + shard.string() + "\n"), "index"}},
      {"cluster: a whole index as a shard",
       {"--index", cluster("c1", "auto " + index.string() + "\n"), "search", "attention"}},
      {"cluster: a shard of another schema",
       {"--index", cluster("c2", "auto " + shard.string() + "\nauto " + other.string() + "\n"), "search", "a"}},
      {"cluster: no such shard",
       {"--index", cluster("c3", "auto " + (dir_ / "nowhere").string() + "\n"), "search", "a"}},
      {"cluster: a shard missing", {"--index", cluster("c4", "auto " + shard.string() + "\n"), "search", "a"}},
      {"cluster: a shard twice",
       {"--index", cluster("c5", "auto " + shard.string() + "\nauto " + shard.string() + "\n"), "search", "a"}},
      {"cluster: no shard", {"--index", cluster("c6", "# nothing\n"), "search", "a"}},
      {"cluster: a bad line", {"--index", cluster("c7", "nonsense\n"), "search", "a"}},
      {"cluster: an unknown setting", {"--index", cluster("c8", "# abstracts: speed 3\nauto x\n"), "search", "a"}},
      {"shard indexed as another", {"--index", shard.string(), "index", "--shard", "2/2", ABSTRACTS_CORPUS_DIR}},
      {"a bad --shard", {"--index", (dir_ / "new").string(), "index", "--shard", "0/2"}},
      {"locked index", {"--index", index.string(), "index", ABSTRACTS_CORPUS_DIR}},
      {"query: bad year", {"--index", index.string(), "search", "attention year:20x6"}},
      {"query: stop words only", {"--index", index.string(), "search", "the of"}},
      {"query: a field without a value", {"--index", index.string(), "search", "title:"}},
      {"input: a NUL byte", {"--index", index.string(), "index", (dir_ / "nul.txt").string()}},
      {"input: no known format", {"--index", index.string(), "index", (dir_ / "unknown.txt").string()}},
      {"input: a device", {"--index", index.string(), "index", "/dev/null"}},
      {"queries: a folder", {"--index", index.string(), "search", "--queries", (dir_ / "folder").string()}},
      {"queries: a device", {"--index", index.string(), "search", "--queries", "/dev/null"}},
      {"usage: no query", {"--index", index.string(), "search"}},
      {"usage: a mistyped command", {"serach", "attention"}},
      {"usage: an exclusion read as an option", {"search", "attention", "-survey"}},
  };
  std::map<std::string, RunResult> results;
  {
    auto writer = Writer::open(index);  // for "locked index"
    results["locked index"] = abstracts(runs.at("locked index"));
  }
  for (const auto& [name, args] : runs) {
    if (name != "locked index") results[name] = abstracts(args);
  }
  for (const auto& [name, r] : results) {
    SCOPED_TRACE(name);
    EXPECT_EQ(r.status, 2) << r.err;
    const std::string h = hint(r);
    EXPECT_FALSE(h.empty()) << "no hint: " << r.err;
    for (const std::string cxx : {"::", "{", "}", "Writer", "Options", "Index::"}) {
      EXPECT_EQ(h.find(cxx), std::string::npos) << "the hint names C++ (" << cxx << "): " << h;
    }
  }
}

}  // namespace
}  // namespace abstracts::testing::hints_test
