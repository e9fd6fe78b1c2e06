// A file letting go of its abstracts: one transaction by default, committed as
// it goes when asked (a bulk build's scratch shards).
#include "indexer/file_documents.h"

#include <gtest/gtest.h>

#include <string>

#include <xapian.h>

#include "engine/compression.h"
#include "engine/schema.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace {

using abstracts::testing::TempDir;

const std::string kFile = "/data/half-read.jsonl";

// A database of `n` abstracts that only kFile has, committed.
Xapian::WritableDatabase abstracts_of_one_file(const std::string& path, int n) {
  Xapian::WritableDatabase db(path, Xapian::DB_CREATE);
  for (int i = 0; i < n; ++i) {
    Xapian::Document doc;
    doc.add_boolean_term(schema::file_term(kFile));
    doc.add_term("word" + std::to_string(i % 7));
    db.add_document(doc);
  }
  db.commit();
  return db;
}

TEST(FileDocuments, AReleaseIsOneTransactionByDefault) {
  TempDir dir;
  const std::string path = (dir / "db").string();
  auto db = abstracts_of_one_file(path, 1200);
  const FileRelease released = release_file_documents(db, kFile, {}, compression::Decompressor(""));
  EXPECT_EQ(released.removed, 1200u);
  EXPECT_EQ(db.get_doccount(), 0u);
  EXPECT_EQ(Xapian::Database(path).get_doccount(), 1200u);  // a reader sees nothing of it yet
}

TEST(FileDocuments, AReleaseCommittedAsItGoesRemovesTheSame) {
  TempDir dir;
  const std::string path = (dir / "db").string();
  auto db = abstracts_of_one_file(path, 1200);
  const FileRelease released = release_file_documents(db, kFile, {}, compression::Decompressor(""), 500);
  EXPECT_EQ(released.removed, 1200u);
  EXPECT_EQ(db.get_doccount(), 0u);
  EXPECT_EQ(Xapian::Database(path).get_doccount(), 200u);  // committed after 500 and 1,000
  db.commit();
  Xapian::Database after(path);
  EXPECT_EQ(after.get_doccount(), 0u);
  EXPECT_EQ(after.get_termfreq(schema::file_term(kFile)), 0u);
  EXPECT_EQ(after.get_termfreq("word0"), 0u);
}

}  // namespace
}  // namespace abstracts::indexer
