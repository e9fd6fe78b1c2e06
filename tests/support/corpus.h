// The bundled corpus as the tests read it straight from its files, to check what
// the index makes of it: every abstract's file, line and id.
#ifndef ABSTRACTS_TESTS_SUPPORT_CORPUS_H_
#define ABSTRACTS_TESTS_SUPPORT_CORPUS_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/search.h"

namespace abstracts::testing {

// One abstract line of a corpus file, as the text format defines it: every
// non-blank line after the header line.
struct CorpusLine {
  std::filesystem::path file;
  std::uint32_t line = 0;  // 1-based
  std::string raw;         // trimmed
  std::string id() const { return content_id(raw); }
};

// `s` without the white space around it, as the text format reads a line.
std::string trim(const std::string& s);

// The lines of `file`, as they are (no line end).
std::vector<std::string> raw_lines(const std::filesystem::path& file);

// The abstracts of the text-format `file`.
std::vector<CorpusLine> abstracts_of(const std::filesystem::path& file);

// The files of the bundled corpus (ABSTRACTS_CORPUS_DIR), in name order.
std::vector<std::filesystem::path> corpus_files();

// Every abstract of the bundled corpus, file by file.
std::vector<CorpusLine> corpus_abstracts();

// An index of the bundled corpus, built by Writer::index on first use and removed
// when the test program exits; for tests that only read it.
const std::filesystem::path& corpus_index();

// Copies the corpus files into `dir` and returns the copies, in name order.
std::vector<std::filesystem::path> copy_corpus(const std::filesystem::path& dir);

// Search options for the literal query: no acronym expansion ("LLM" <->
// "large language model"), no spelling correction.
SearchOptions literal(std::size_t limit = 1000);

}  // namespace abstracts::testing

#endif  // ABSTRACTS_TESTS_SUPPORT_CORPUS_H_
