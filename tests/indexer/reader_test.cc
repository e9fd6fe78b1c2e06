// Tests for the input readers: the abstracts text format and BEIR JSON Lines,
// plain or gzip-compressed.
#include "indexer/reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace {

using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// Expected fields of one record.
struct Expected {
  std::string id;
  std::string title;
  std::string raw_text;
  std::uint32_t line;
};

void ExpectRecords(const std::vector<Record>& got, const std::vector<Expected>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "record " << i);
    EXPECT_EQ(got[i].fields.id, want[i].id);
    EXPECT_EQ(got[i].fields.title, want[i].title);
    EXPECT_EQ(got[i].raw_text, want[i].raw_text);
    EXPECT_EQ(got[i].line, want[i].line);
  }
}

// Compresses `content` with the system gzip.
std::string Gzip(const TempDir& dir, const std::string& content) {
  auto plain = dir / "to-compress.bin";
  write_file(plain, content);
  std::string gzip = std::filesystem::exists("/bin/gzip") ? "/bin/gzip" : "/usr/bin/gzip";
  auto result = abstracts::testing::run(gzip, {"-c", "-n", plain.string()});
  EXPECT_EQ(result.status, 0) << result.err;
  std::filesystem::remove(plain);
  return result.out;
}

// Runs read_all and returns the InputError it throws, or nullopt (after
// reporting a failure) when it throws none.
std::optional<InputError> ReadAllError(const std::filesystem::path& file) {
  try {
    auto records = read_all(file);
    ADD_FAILURE() << "no InputError for " << file << " (" << records.size() << " records)";
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

const std::string kHeader = "NeurIPS 2026 Papers\n";

// ---------------------------------------------------------------------------
// Text format

TEST(TextReader, ReadsHeaderAndAbstractsWithFileLineNumbers) {
  TempDir dir;
  auto file = dir / "neurips.txt";
  write_file(file, kHeader + "\nFirst abstract.\n\nSecond \\emph{abstract}.\n\n\nThird.\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kAbstractsText);
  EXPECT_EQ(reader->venue(), "NeurIPS");
  EXPECT_EQ(reader->year(), 2026);
  std::vector<Record> records;
  while (auto record = reader->next()) records.push_back(*record);
  EXPECT_FALSE(reader->next().has_value()) << "next() after the end";
  ExpectRecords(records, {
                             {"", "", "First abstract.", 3},
                             {"", "", "Second \\emph{abstract}.", 5},
                             {"", "", "Third.", 8},
                         });
  ExpectRecords(read_all(file), {
                                    {"", "", "First abstract.", 3},
                                    {"", "", "Second \\emph{abstract}.", 5},
                                    {"", "", "Third.", 8},
                                });
}

TEST(TextReader, HeaderNamesVenueAndYear) {
  struct Case {
    std::string header;
    std::string venue;
    int year;
  };
  const std::vector<Case> table = {
      {"NeurIPS 2026 Papers", "NeurIPS", 2026},
      {"ICLR 2025 Papers", "ICLR", 2025},
      {"ICML 2024 Papers", "ICML", 2024},
  };
  for (const auto& c : table) {
    SCOPED_TRACE(c.header);
    TempDir dir;
    auto file = dir / "venue.txt";
    write_file(file, c.header + "\n\nAn abstract.\n");
    auto reader = Reader::open(file);
    EXPECT_EQ(reader->venue(), c.venue);
    EXPECT_EQ(reader->year(), c.year);
    auto record = reader->next();
    ASSERT_TRUE(record.has_value());
    EXPECT_EQ(record->raw_text, "An abstract.");
    EXPECT_EQ(record->line, 3u);
  }
}

TEST(TextReader, NoTrailingNewline) {
  TempDir dir;
  auto file = dir / "a.txt";
  write_file(file, kHeader + "\nOnly abstract, no newline at the end.");
  ExpectRecords(read_all(file), {{"", "", "Only abstract, no newline at the end.", 3}});
}

TEST(TextReader, HeaderOnlyFileHasNoRecords) {
  TempDir dir;
  auto file = dir / "empty-venue.txt";
  write_file(file, kHeader);
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->venue(), "NeurIPS");
  EXPECT_EQ(reader->year(), 2026);
  EXPECT_FALSE(reader->next().has_value());
}

TEST(TextReader, StripsCarriageReturns) {
  TempDir dir;
  auto file = dir / "crlf.txt";
  write_file(file, "NeurIPS 2026 Papers\r\n\r\nFirst abstract.\r\n\r\nSecond one.\r\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->venue(), "NeurIPS");
  EXPECT_EQ(reader->year(), 2026);
  ExpectRecords(read_all(file), {
                                    {"", "", "First abstract.", 3},
                                    {"", "", "Second one.", 5},
                                });
}

TEST(TextReader, IgnoresByteOrderMark) {
  TempDir dir;
  auto file = dir / "bom.txt";
  write_file(file, "\xEF\xBB\xBF" + kHeader + "\nPokémon abstract.\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kAbstractsText);
  EXPECT_EQ(reader->venue(), "NeurIPS");
  EXPECT_EQ(reader->year(), 2026);
  ExpectRecords(read_all(file), {{"", "", "Pokémon abstract.", 3}});
}

TEST(TextReader, MissingHeaderIsAnErrorOnLineOne) {
  TempDir dir;
  auto file = dir / "no-header.txt";
  write_file(file,
             "Large language models hallucinate; we study why and how to detect it.\n\n"
             "Another abstract.\n");
  auto e = ReadAllError(file);
  if (!e) return;
  EXPECT_EQ(e->line(), 1u);
  EXPECT_NE(e->file().find("no-header.txt"), std::string::npos) << e->file();
}

// A first line that is an abstract is not a header even when it mentions a
// year; otherwise the first abstract is silently lost.
TEST(TextReader, MissingHeaderWhenFirstAbstractMentionsAYear) {
  const std::vector<std::string> first_lines = {
      "Since 2017, transformers have dominated language modeling.",
      "We revisit the ImageNet 2012 benchmark and find label errors.",
  };
  for (const auto& first : first_lines) {
    SCOPED_TRACE(first);
    TempDir dir;
    auto file = dir / "no-header.txt";
    write_file(file, first + "\n\nAnother abstract.\n");
    auto e = ReadAllError(file);
    if (!e) continue;
    EXPECT_EQ(e->line(), 1u);
  }
}

TEST(TextReader, InvalidUtf8IsAnErrorOnItsLine) {
  // Each is not UTF-8: stray byte, truncated sequence, overlong encoding,
  // surrogate, beyond U+10FFFF.
  const std::vector<std::string> bad_bytes = {
      "\xFF", "\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
  };
  for (const auto& bad : bad_bytes) {
    SCOPED_TRACE(::testing::Message() << "bytes of size " << bad.size());
    TempDir dir;
    auto file = dir / "bad-utf8.txt";
    write_file(file, kHeader + "\nA fine abstract.\nA bad " + bad + " abstract.\nAfter.\n");
    auto e = ReadAllError(file);
    if (!e) continue;
    EXPECT_EQ(e->line(), 4u);
    EXPECT_NE(e->file().find("bad-utf8.txt"), std::string::npos) << e->file();
  }
}

// Streaming: the error may come from open() or from next(), but it names line 4
// and only the good record before it is returned.
TEST(TextReader, InvalidUtf8AfterGoodRecordsViaNext) {
  TempDir dir;
  auto file = dir / "bad-later.txt";
  write_file(file, kHeader + "\nA fine abstract.\nA bad \xFF abstract.\n");
  std::vector<Record> records;
  try {
    auto reader = Reader::open(file);
    while (auto record = reader->next()) records.push_back(*record);
    ADD_FAILURE() << "no InputError for invalid UTF-8";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 4u);
  }
  ASSERT_LE(records.size(), 1u);
  if (!records.empty()) {
    EXPECT_EQ(records[0].line, 3u);
  }
}

TEST(TextReader, EmptyFileIsAnError) {
  TempDir dir;
  auto file = dir / "empty.txt";
  write_file(file, "");
  auto e = ReadAllError(file);
  if (!e) return;
  EXPECT_NE(e->file().find("empty.txt"), std::string::npos) << e->file();
}

// An empty file has no format: its hint names none (it once asked a .jsonl file
// for the text format's header line).
TEST(Reader, EmptyFileOfAnyFormatGetsTheSameHint) {
  TempDir dir;
  for (const char* name : {"empty.txt", "empty.jsonl", "empty.bib", "blank.ris"}) {
    auto file = dir / name;
    write_file(file, name[0] == 'b' ? "\n  \n\n" : "");
    auto e = ReadAllError(file);
    if (!e) continue;
    EXPECT_NE(std::string(e->what()).find("empty file"), std::string::npos) << name << ": " << e->what();
    EXPECT_EQ(e->hint().find("header line"), std::string::npos) << name << ": " << e->hint();
    EXPECT_NE(e->hint().find("nothing in it to index"), std::string::npos) << name << ": " << e->hint();
  }
}

TEST(TextReader, MissingOrUnreadableFileIsAnError) {
  TempDir dir;
  if (auto missing = ReadAllError(dir / "does-not-exist.txt")) {
    EXPECT_NE(missing->file().find("does-not-exist.txt"), std::string::npos) << missing->file();
    EXPECT_EQ(missing->line(), 0u);
  }
  EXPECT_THROW(Reader::open(dir / "does-not-exist.txt"), InputError);

  auto subdir = dir / "a-directory";
  std::filesystem::create_directory(subdir);
  if (auto is_dir = ReadAllError(subdir)) {
    EXPECT_NE(is_dir->file().find("a-directory"), std::string::npos) << is_dir->file();
  }
}

// Issue 40: a line over 1 MiB, a record over its cap, is left out, said with its
// line, and the lines after it read (it was an error on the whole file).
TEST(Issue40, ALineOverOneMebibyteIsLeftOutAndTheFileReadOn) {
  TempDir dir;
  const std::string long_line((1u << 20) + 10, 'a');
  const struct {
    std::string name, content;
    std::uint32_t line;
  } files[] = {
      {"long.txt", kHeader + "\nshort\n" + long_line + "\nafter\n", 4},
      {"long.jsonl",
       "{\"_id\": \"1\", \"text\": \"short\"}\n{\"_id\": \"2\", \"text\": \"" + long_line +
           "\"}\n{\"_id\": \"3\", \"text\": \"after\"}\n",
       2},
  };
  for (const auto& f : files) {
    SCOPED_TRACE(f.name);
    write_file(dir / f.name, f.content);
    auto reader = Reader::open(dir / f.name);
    std::vector<std::string> texts;
    while (auto r = reader->next()) texts.push_back(r->raw_text);
    EXPECT_EQ(texts, (std::vector<std::string>{"short", "after"}));
    EXPECT_EQ(reader->skipped(), 0u);
    EXPECT_EQ(reader->rejected(), 1u);
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, f.line);
    EXPECT_EQ(problems[0].what, "a line over 1 MiB");
    EXPECT_TRUE(reader->take_problems().empty()) << "each said once";
    const InputError warning = skipped_record(dir / f.name, problems[0]);
    EXPECT_EQ(std::string(warning.what()), (dir / f.name).string() + ":" + std::to_string(f.line) +
                                               ": a line over 1 MiB; record skipped");
    EXPECT_EQ(warning.line(), f.line);
  }
}

TEST(TextReader, FormatChosenByContentNotExtension) {
  TempDir dir;
  auto file = dir / "looks-like.jsonl";
  write_file(file, kHeader + "\nA text-format abstract.\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kAbstractsText);
  EXPECT_EQ(reader->venue(), "NeurIPS");
  ExpectRecords(read_all(file), {{"", "", "A text-format abstract.", 3}});
}

TEST(TextReader, GzipReadsTheSame) {
  TempDir dir;
  const std::string content = kHeader + "\nFirst \\emph{abstract}.\n\nPokémon second.\n";
  auto plain = dir / "plain.txt";
  auto packed = dir / "packed.txt.gz";
  write_file(plain, content);
  write_file(packed, Gzip(dir, content));
  auto reader = Reader::open(packed);
  EXPECT_EQ(reader->format(), Format::kAbstractsText);
  EXPECT_EQ(reader->venue(), "NeurIPS");
  EXPECT_EQ(reader->year(), 2026);
  const std::vector<Expected> want = {
      {"", "", "First \\emph{abstract}.", 3},
      {"", "", "Pokémon second.", 5},
  };
  ExpectRecords(read_all(plain), want);
  ExpectRecords(read_all(packed), want);
  // Detected by content, not by the ".gz" extension.
  auto no_ext = dir / "packed-no-extension";
  write_file(no_ext, Gzip(dir, content));
  ExpectRecords(read_all(no_ext), want);
}

// A gzip file cut short (an interrupted download) must not pass for a shorter
// file: the abstracts after the cut would be silently missing from the index.
TEST(TextReader, TruncatedGzipIsAnError) {
  TempDir dir;
  std::mt19937 random(2026);
  std::string content = kHeader + "\n";
  for (int i = 0; i < 2000; ++i) {
    content += "Abstract " + std::to_string(i) + " reports " + std::to_string(random()) + " and " +
               std::to_string(random()) + ".\n";
  }
  std::string packed = Gzip(dir, content);
  ASSERT_GT(packed.size(), 20000u);
  auto file = dir / "truncated.txt.gz";
  write_file(file, packed.substr(0, packed.size() / 2));
  auto e = ReadAllError(file);
  if (!e) return;
  EXPECT_NE(e->file().find("truncated.txt.gz"), std::string::npos) << e->file();
}

// ---------------------------------------------------------------------------
// JSON Lines (BEIR)

TEST(JsonLinesReader, ReadsBeirRecords) {
  TempDir dir;
  auto file = dir / "corpus.jsonl";
  write_file(
      file,
      R"({"_id": "doc1", "title": "A Title", "text": "Pok\\'emon body.", "metadata": {"url": "x", "n": [1, 2]}})"
      "\n"
      R"({"_id": 42, "text": "Numeric id, no title."})"
      "\n"
      R"({"text": "Fields in any order", "extra": null, "title": "", "_id": "d-3"})"
      "\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kJsonLines);
  EXPECT_EQ(reader->venue(), "");
  EXPECT_EQ(reader->year(), 0);
  ExpectRecords(read_all(file), {
                                    {"doc1", "A Title", "Pok\\'emon body.", 1},
                                    {"42", "", "Numeric id, no title.", 2},
                                    {"d-3", "", "Fields in any order", 3},
                                });
}

TEST(JsonLinesReader, UnescapesJsonStrings) {
  TempDir dir;
  auto file = dir / "escapes.jsonl";
  write_file(file, R"({"_id": "e", "text": "Pok\u00e9mon \"quoted\" tab\there"})"
                   "\n");
  ExpectRecords(read_all(file), {{"e", "", "Pokémon \"quoted\" tab\there", 1}});
}

TEST(JsonLinesReader, BlankLinesSkippedButCounted) {
  TempDir dir;
  auto file = dir / "blanks.jsonl";
  write_file(file,
             "\n"
             R"({"_id": "a", "text": "first"})"
             "\n\n   \n"
             R"({"_id": "b", "text": "second"})"
             "\n\n");
  EXPECT_EQ(Reader::open(file)->format(), Format::kJsonLines);
  ExpectRecords(read_all(file), {{"a", "", "first", 2}, {"b", "", "second", 5}});
}

TEST(JsonLinesReader, CrlfAndBom) {
  TempDir dir;
  auto file = dir / "crlf.jsonl";
  write_file(file,
             "\xEF\xBB\xBF"
             R"({"_id": "a", "text": "first"})"
             "\r\n"
             R"({"_id": "b", "text": "second"})"
             "\r\n");
  EXPECT_EQ(Reader::open(file)->format(), Format::kJsonLines);
  ExpectRecords(read_all(file), {{"a", "", "first", 1}, {"b", "", "second", 2}});
}

TEST(JsonLinesReader, DetectedByContentWithTxtExtension) {
  TempDir dir;
  auto file = dir / "beir-corpus.txt";
  write_file(file, R"({"_id": "x1", "title": "T", "text": "Body."})"
                   "\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kJsonLines);
  ExpectRecords(read_all(file), {{"x1", "T", "Body.", 1}});
}

TEST(JsonLinesReader, GzipReadsTheSame) {
  TempDir dir;
  const std::string content = R"({"_id": "doc1", "title": "A Title", "text": "First body."})"
                              "\n"
                              R"({"_id": 7, "text": "Second body."})"
                              "\n";
  auto packed = dir / "corpus.jsonl.gz";
  write_file(packed, Gzip(dir, content));
  auto reader = Reader::open(packed);
  EXPECT_EQ(reader->format(), Format::kJsonLines);
  ExpectRecords(read_all(packed), {
                                      {"doc1", "A Title", "First body.", 1},
                                      {"7", "", "Second body.", 2},
                                  });
}

// Issue 41: a line that is not JSON, or not an object of a known kind, was an
// error on the whole file. It is left out, said on its line, and the next line
// read.
TEST(Issue41, ABadJsonLineIsLeftOutAndTheNextRead) {
  const std::vector<std::pair<std::string, std::string>> bad_lines = {
      {R"({"_id": "c", "text": )", "not valid JSON"},
      {R"({"_id": "c", "text": "unterminated})", "not valid JSON"},
      {R"(not json at all)", "not valid JSON"},
      {R"({"_id": "c", "text": "x"} trailing)", "not valid JSON"},
      {R"([1, 2])", "not a JSON object"},
      {R"({"_id": ["c"], "text": "x"})", "\"_id\" is neither a string nor an integer"},
      {R"({"name": "no abstract anywhere"})", "an object of no known kind"},
  };
  for (const auto& [bad, says] : bad_lines) {
    SCOPED_TRACE(bad);
    TempDir dir;
    auto file = dir / "bad.jsonl";
    write_file(file, R"({"_id": "a", "text": "x"})"
                     "\n"
                     R"({"_id": "b", "text": "y"})"
                     "\n" +
                         bad + "\n" + R"({"_id": "d", "text": "z"})" + "\n");
    auto reader = Reader::open(file);
    std::vector<std::string> ids;
    while (auto r = reader->next()) ids.push_back(r->fields.id);
    EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "d"}));
    EXPECT_EQ(reader->rejected(), 1u);
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, 3u);
    EXPECT_NE(problems[0].what.find(says), std::string::npos) << problems[0].what;
    EXPECT_NE(problems[0].hint.find("JSON Lines"), std::string::npos) << problems[0].hint;
  }
}

TEST(JsonLinesReader, InvalidUtf8IsAnErrorOnItsLine) {
  TempDir dir;
  auto file = dir / "bad-utf8.jsonl";
  write_file(file, R"({"_id": "a", "text": "x"})"
                   "\n"
                   "{\"_id\": \"b\", \"text\": \"bad \xFF byte\"}\n");
  auto e = ReadAllError(file);
  if (!e) return;
  EXPECT_EQ(e->line(), 2u);
}

// ---------------------------------------------------------------------------
// The bundled corpus

TEST(BundledCorpus, EveryFileReadsWithVenueAndAllAbstracts) {
  // Measured with `grep -c . corpus/FILE` minus the header line.
  const std::vector<std::pair<std::string, std::size_t>> files = {
      {"000_c5f1a2025e9d36b7.txt", 19},
      {"002_0fab93f7e4d483e8.txt", 19},
      {"003_89f3acb712f61da4.txt", 19},
  };
  for (const auto& [name, count] : files) {
    SCOPED_TRACE(name);
    auto path = std::filesystem::path(ABSTRACTS_CORPUS_DIR) / name;
    auto reader = Reader::open(path);
    EXPECT_EQ(reader->format(), Format::kAbstractsText);
    EXPECT_EQ(reader->venue(), "NeurIPS");
    EXPECT_EQ(reader->year(), 2026);

    auto records = read_all(path);
    ASSERT_EQ(records.size(), count);
    auto file_lines = abstracts::testing::lines(abstracts::testing::read_file(path));
    std::uint32_t previous = 1;  // the header
    for (const auto& record : records) {
      SCOPED_TRACE(::testing::Message() << "line " << record.line);
      EXPECT_GT(record.line, previous);
      previous = record.line;
      ASSERT_GE(record.line, 2u);
      ASSERT_LE(record.line, file_lines.size());
      EXPECT_EQ(record.raw_text, file_lines[record.line - 1]);
      EXPECT_EQ(record.fields.id, "");
      EXPECT_EQ(record.fields.title, "");
    }
    // In these files the abstracts sit on every other line after the header.
    EXPECT_EQ(records.front().line, 3u);
    EXPECT_EQ(records.back().line, 39u);
  }
}

// ---------------------------------------------------------------------------
// Issue 40: RIS records do not merge and are bounded; authors are bounded in
// every format; "id" and "abstract" make an arXiv record.

// A TY line after a record without ER made the two one record ("First Second").
TEST(Issue40, RisTyWithoutErEndsTheRecordBefore) {
  TempDir dir;
  write_file(dir / "merged.ris",
             "TY  - JOUR\nTI  - First\nAB  - First text.\n"
             "TY  - JOUR\nTI  - Second\nAB  - Second text.\nER  - \n"
             "TY  - JOUR\nAB  - Third, the last, without ER.\n");
  const auto records = read_all(dir / "merged.ris");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].fields.title, "First");
  EXPECT_EQ(records[0].raw_text, "First text.");
  EXPECT_EQ(records[0].line, 1u);
  EXPECT_EQ(records[1].fields.title, "Second");
  EXPECT_EQ(records[1].raw_text, "Second text.");
  EXPECT_EQ(records[1].line, 4u);
  EXPECT_EQ(records[2].raw_text, "Third, the last, without ER.");
  EXPECT_EQ(records[2].line, 8u);
}

// A RIS line may be longer than 1 MiB (a record is bounded, not its lines); a
// record over 16 MiB, of many lines or of one, is left out and the next read.
TEST(Issue40, ARisRecordIsBoundedNotItsLines) {
  TempDir dir;
  const std::string long_abstract(3u << 20, 'w');
  std::string ris = "TY  - JOUR\nAB  - " + long_abstract + "\nER  - \n";  // lines 1-3
  ris += "TY  - JOUR\nAB  - start\n";                                     // line 4
  const std::string more = "   more words of an abstract too long to keep\n";
  while (ris.size() < (20u << 20)) ris += more;
  const auto after_many = static_cast<std::uint32_t>(std::count(ris.begin(), ris.end(), '\n')) + 1;
  ris += "ER  - \nTY  - JOUR\nAB  - " + std::string(17u << 20, 'x') + "\nER  - \n";
  ris += "TY  - JOUR\nAB  - After.\nER  - \n";
  write_file(dir / "big.ris", ris);
  auto reader = Reader::open(dir / "big.ris");
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].raw_text, long_abstract);
  EXPECT_EQ(records[1].raw_text, "After.");
  EXPECT_EQ(reader->rejected(), 2u);
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].line, 4u);
  EXPECT_EQ(problems[0].what, "a RIS record over 16 MiB");
  EXPECT_EQ(problems[1].line, after_many + 1) << "the record of one line over 16 MiB";
}

TEST(Issue40, RisKeepsTheFirstTenThousandAuthorsAndCountsThemAll) {
  TempDir dir;
  std::string ris = "TY  - JOUR\n";
  for (std::size_t i = 0; i < kMaxAuthors + 3; ++i)
    ris += "AU  - Family" + std::to_string(i) + ", Given\n";
  ris += "   a continuation of the last name, not kept\nAB  - Many.\nER  - \n";
  ris += "TY  - JOUR\nAU  - Wells, L\nAB  - One.\nER  - \n";
  write_file(dir / "authors.ris", ris);
  const auto records = read_all(dir / "authors.ris");
  ASSERT_EQ(records.size(), 2u);
  const Abstract& many = records[0].fields;
  ASSERT_EQ(many.authors.size(), kMaxAuthors);
  EXPECT_EQ(many.author_count, kMaxAuthors + 3);
  EXPECT_EQ(many.authors.back().family, "Family9999");
  EXPECT_EQ(many.authors.back().given, "Given");
  ASSERT_EQ(records[1].fields.authors.size(), 1u);
  EXPECT_EQ(records[1].fields.author_count, 1u);
}

// Each kind of JSON record with kMaxAuthors + 3 authors, and one with one author.
TEST(Issue40, JsonRecordsKeepTheFirstTenThousandAuthorsAndCountThemAll) {
  using nlohmann::json;
  const std::size_t n = kMaxAuthors + 3;
  json parsed = json::array(), s2 = json::array(), csl = json::array(), openalex = json::array();
  std::string names;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string family = "Family" + std::to_string(i);
    parsed.push_back({family, "Given", ""});
    names += (i == 0 ? "" : ", ") + ("Given " + family);
    s2.push_back({{"name", "Given " + family}});
    csl.push_back({{"family", family}, {"given", "Given"}});
    openalex.push_back({{"author", {{"display_name", "Given " + family}}}});
  }
  const json lines[] = {
      {{"id", "1"}, {"abstract", "arXiv, authors_parsed"}, {"authors_parsed", parsed}},
      {{"id", "2"}, {"abstract", "arXiv, authors"}, {"authors", names}},
      {{"paperAbstract", "Semantic Scholar"}, {"authors", s2}},
      {{"type", "article"}, {"abstract", "CSL-JSON"}, {"author", csl}},
      {{"abstract_inverted_index", {{"OpenAlex", {0}}}}, {"authorships", openalex}},
      {{"id", "3"}, {"abstract", "One author"}, {"authors", "Given Family"}},
  };
  std::string jsonl;
  for (const auto& line : lines) jsonl += line.dump() + "\n";
  TempDir dir;
  write_file(dir / "authors.jsonl", jsonl);
  const auto records = read_all(dir / "authors.jsonl");
  ASSERT_EQ(records.size(), 6u);
  for (std::size_t k = 0; k < 5; ++k) {
    SCOPED_TRACE(records[k].raw_text);
    const Abstract& f = records[k].fields;
    ASSERT_EQ(f.authors.size(), kMaxAuthors);
    EXPECT_EQ(f.author_count, n);
    EXPECT_EQ(f.authors.back().family, "Family9999");
    EXPECT_EQ(f.authors.back().given, "Given");
  }
  EXPECT_EQ(records[5].fields.authors.size(), 1u);
  EXPECT_EQ(records[5].fields.author_count, 1u);
}

// docs/formats.md and the error of an object of no known kind say "id" and
// "abstract" make an arXiv record; such a record was refused. A CSL-JSON item
// with an "id" stays CSL-JSON.
TEST(Issue40, IdAndAbstractMakeAnArxivRecord) {
  TempDir dir;
  write_file(dir / "records.jsonl",
             "{\"id\": \"2101.00001\", \"abstract\": \"Okapis.\"}\n"
             "{\"id\": \"smith2020\", \"type\": \"article-journal\", \"abstract\": \"Tapirs.\", "
             "\"container-title\": \"Zoology\"}\n");
  const auto records = read_all(dir / "records.jsonl");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].fields.arxiv_id, "2101.00001");
  EXPECT_EQ(records[0].fields.venue, "arXiv");
  EXPECT_EQ(records[1].fields.arxiv_id, "");
  EXPECT_EQ(records[1].fields.venue, "Zoology");
  EXPECT_EQ(records[1].fields.citation_key, "smith2020");
}


// ---------------------------------------------------------------------------
// Issue 41: one bad record never refuses a file.

// A RIS record without its TY line (tag lines outside a record) was dropped
// without a word; it is a malformed record, up to its ER or the next TY.
TEST(Issue41, ARisRecordWithoutItsTyLineIsLeftOutAndSaid) {
  TempDir dir;
  const struct {
    std::string content;
    std::uint32_t line;
    std::string first_tag;
  } cases[] = {
      {"TY  - JOUR\nAB  - First.\nER  - \nAU  - Smith\nAB  - Lost.\nER  - \nTY  - JOUR\nAB  - Third.\nER  - \n", 4,
       "AU"},
      // A TY line mistyped ("TY - "): the record has none; the next TY ends it.
      {"TY  - JOUR\nAB  - First.\nER  - \nTY - JOUR\nTI  - Lost\nAB  - Lost.\nTY  - JOUR\nAB  - Third.\nER  - \n",
       5, "TI"},
      // Cochrane's lines between records are no tags; one record without TY at the end.
      {"Record #1 of 2\nTY  - JOUR\nAB  - First.\nER  - \nRecord #2 of 2\nTY  - JOUR\nAB  - Third.\nER  - \n"
       "AB  - Lost.\n",
       9, "AB"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.content);
    write_file(dir / "bad.ris", c.content);
    auto reader = Reader::open(dir / "bad.ris");
    std::vector<std::string> texts;
    while (auto r = reader->next()) texts.push_back(r->raw_text);
    EXPECT_EQ(texts, (std::vector<std::string>{"First.", "Third."}));
    EXPECT_EQ(reader->rejected(), 1u);
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, c.line);
    EXPECT_EQ(problems[0].what, "a RIS record without its TY line (its first tag is " + c.first_tag + ")");
  }
}

// A file of each format with one record left out between two good ones: the
// file without its good records, and the file read strictly.
struct BrokenFile {
  std::string name;
  std::string head, good1, bad, good2, tail;
  std::string says;  // of the bad record
  // The bad record's line in the file, and in the file of it alone.
  std::uint32_t line() const { return lines_of(head + good1) + 1; }
  std::uint32_t line_alone() const { return lines_of(head) + 1; }
  std::string content() const { return head + good1 + bad + good2 + tail; }
  std::string alone() const { return head + bad + tail; }
  static std::uint32_t lines_of(const std::string& s) {
    return static_cast<std::uint32_t>(std::count(s.begin(), s.end(), '\n'));
  }
};

std::vector<BrokenFile> broken_files() {
  const std::string pubmed_article =
      "<PubmedArticle><MedlineCitation><PMID>N</PMID><Article><Abstract><AbstractText>TEXT</AbstractText>"
      "</Abstract></Article></MedlineCitation></PubmedArticle>\n";
  auto article = [&](const std::string& pmid, const std::string& text) {
    std::string a = pubmed_article;
    a.replace(a.find('N'), 1, pmid);
    a.replace(a.find("TEXT"), 4, text);
    return a;
  };
  auto entry = [](const std::string& id, const std::string& text) {
    return "<entry><id>http://arxiv.org/abs/" + id + "v1</id><title>T</title><summary>" + text +
           "</summary></entry>\n";
  };
  return {
      {"long.txt", kHeader, "First okapi.\n", std::string((1u << 20) + 1, 'x') + "\n", "Last okapi.\n", "",
       "a line over 1 MiB"},
      {"bad.jsonl", "", R"({"_id": "1", "text": "First okapi."})" "\n", R"({"_id": "2", "text": })" "\n",
       R"({"_id": "3", "text": "Last okapi."})" "\n", "", "not valid JSON"},
      {"bad.json", "[\n", R"({"type": "article", "abstract": "First okapi."},)" "\n",
       R"({"name": "no kind"},)" "\n", R"({"type": "article", "abstract": "Last okapi."})" "\n", "]\n",
       "an object of no known kind"},
      {"bad.ris", "", "TY  - JOUR\nAB  - First okapi.\nER  - \n", "AB  - Lost.\nER  - \n",
       "TY  - JOUR\nAB  - Last okapi.\nER  - \n", "", "a RIS record without its TY line"},
      {"bad.bib", "", "@article{a, abstract = {First okapi.}}\n", "@article{b, title = {T} abstract = {y}}\n",
       "@article{c, abstract = {Last okapi.}}\n", "", "syntax error: found \"abstract\""},
      {"bad.xml", "<PubmedArticleSet>\n", article("1", "First okapi."), article("2", "Bad &nbsp; okapi."),
       article("3", "Last okapi."), "</PubmedArticleSet>\n", "not well-formed XML (undefined entity)"},
      {"bad.atom", "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n", entry("2101.00001", "First okapi."),
       entry("2101.00002", "Bad < okapi."), entry("2101.00003", "Last okapi."), "</feed>\n",
       "not well-formed XML (not well-formed (invalid token))"},
  };
}

// Each format leaves out its bad record and reads the rest; strictly read, the
// bad record fails the file, as a malformed record did before; a file of the
// bad record alone fails either way, as today.
TEST(Issue41, EachFormatReadsOnPastABadRecordUnlessStrict) {
  TempDir dir;
  for (const BrokenFile& f : broken_files()) {
    SCOPED_TRACE(f.name);
    const auto file = dir / f.name;
    write_file(file, f.content());
    auto reader = Reader::open(file);
    std::vector<std::string> texts;
    while (auto r = reader->next()) texts.push_back(r->raw_text);
    EXPECT_EQ(texts, (std::vector<std::string>{"First okapi.", "Last okapi."}));
    EXPECT_EQ(reader->rejected(), 1u);
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, f.line());
    EXPECT_NE(problems[0].what.find(f.says), std::string::npos) << problems[0].what;
    EXPECT_EQ(skipped_record(file, problems[0]).what(),
              file.string() + ":" + std::to_string(f.line()) + ": " + problems[0].what + "; record skipped");

    reader = Reader::open(file);
    reader->set_strict(true);
    try {
      while (reader->next()) {
      }
      ADD_FAILURE() << "read strictly";
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), f.line());
      EXPECT_EQ(std::string(e.what()), file.string() + ":" + std::to_string(f.line()) + ": " + problems[0].what);
      EXPECT_EQ(e.hint(), problems[0].hint);
    }

    if (f.name == "bad.ris") continue;  // without a TY line, no file is RIS
    write_file(file, f.alone());
    auto e = ReadAllError(file);
    if (!e) continue;
    EXPECT_EQ(e->line(), f.line_alone());
    EXPECT_EQ(std::string(e->what()), file.string() + ":" + std::to_string(f.line_alone()) + ": " + problems[0].what);
  }
}

// A file of many bad records and no good one says how many it lost; one that
// has a record without an abstract besides has records that could be read.
TEST(Issue41, AFileOfWhichNoRecordCanBeReadIsAnError) {
  TempDir dir;
  write_file(dir / "bad.jsonl", "{not json\n{\"name\": \"x\"}\n[3]\n");
  auto e = ReadAllError(dir / "bad.jsonl");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), 1u);
  EXPECT_EQ(std::string(e->what()),
            (dir / "bad.jsonl").string() + ":1: not valid JSON; nor could the file's 2 other records be read");

  write_file(dir / "bad.jsonl", "{not json\n{\"_id\": \"1\", \"text\": \"\"}\n");
  auto reader = Reader::open(dir / "bad.jsonl");
  EXPECT_FALSE(reader->next());
  EXPECT_EQ(reader->skipped(), 1u);
  EXPECT_EQ(reader->rejected(), 1u);
}

}  // namespace
}  // namespace abstracts::indexer
