// Fuzzes the readers (indexer/reader.h) through a file, as the indexer uses them:
// the text format and JSON Lines, plain or gzip-compressed. The first byte of
// the input chooses: odd, and the rest is gzip-compressed before it is written,
// so the fuzzer reaches the formats behind the decompressor; even, and the rest
// is written as it is (which may be gzip data of its own, corrupt or cut short).
// Its second bit reads the file strictly (Reader::set_strict): a record left
// out must then fail the file. Every record is read. The readers are what
// stands between files and the engine: whatever they pass on must be UTF-8.
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "abstracts/error.h"
#include "indexer/document.h"
#include "indexer/reader.h"
#include "tests/fuzz/fuzz_check.h"

using abstracts::fuzz::check;
using abstracts::fuzz::is_utf8;

namespace {

std::string gzip(std::string_view data) {
  z_stream z{};
  check(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK,
        "zlib: deflateInit2");
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  check(deflate(&z, Z_FINISH) == Z_STREAM_END, "zlib: deflate");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// The one file of this process, in memory (memfd): rewritten for each input.
const std::string& file_with(std::string_view content) {
  static const int fd = memfd_create("fuzz-reader", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  check(fd >= 0, "memfd_create");
  check(ftruncate(fd, 0) == 0, "ftruncate");
  check(pwrite(fd, content.data(), content.size(), 0) == static_cast<ssize_t>(content.size()),
        "pwrite");
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool compress = (data[0] & 1) != 0;
  const bool strict = (data[0] & 2) != 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string& path = file_with(compress ? gzip(rest) : std::string(rest));
  try {
    auto reader = abstracts::indexer::Reader::open(path);
    reader->set_strict(strict);
    check(is_utf8(reader->venue()), "the venue is UTF-8");
    std::uint32_t line = 0;
    std::size_t records = 0;
    while (auto r = reader->next()) {
      ++records;
      check(r->line >= line, "records come in the order of their lines (two BibTeX entries may share one)");
      line = r->line;
      const abstracts::Abstract& f = r->fields;
      bool utf8 = is_utf8(r->raw_text) && is_utf8(f.title) && is_utf8(f.id) && is_utf8(f.venue) &&
                  is_utf8(f.doi) && is_utf8(f.arxiv_id) && is_utf8(f.pmid) && is_utf8(f.citation_key);
      for (const auto& a : f.authors) utf8 = utf8 && is_utf8(a.family) && is_utf8(a.given);
      for (const auto& c : f.categories) utf8 = utf8 && is_utf8(c);
      check(utf8, "a record is UTF-8");
      check(f.categories.size() <= abstracts::indexer::kMaxCategories, "a record keeps at most kMaxCategories categories");
      check(f.authors.size() <= abstracts::kMaxAuthors && f.author_count >= f.authors.size() &&
                (f.author_count == f.authors.size() || f.authors.size() == abstracts::kMaxAuthors),
            "a record keeps at most kMaxAuthors authors and counts them all");
      if (reader->format() == abstracts::indexer::Format::kJsonLines) {
        check(f.id.size() <= 200, "a JSON Lines id has at most 200 bytes");
        check(!r->raw_text.empty() || !f.title.empty(), "a JSON Lines record has text or a title");
      } else if (reader->format() == abstracts::indexer::Format::kJsonArray) {
        // A BEIR record may be an element of a JSON array too: a title and no text.
        check(!r->raw_text.empty() || !f.title.empty(), "a JSON array's record has text or a title");
      } else {
        check(!r->raw_text.empty(), "a text-format record has text");
      }
      // As the indexer makes it an abstract: an id Xapian can hold, a date that is one.
      const abstracts::Abstract a = abstracts::indexer::make_abstract(*r, path, reader->venue(), reader->year());
      check(!a.id.empty() && a.id.size() <= 200, "an abstract's id has 1 to 200 bytes");
      check(a.month >= 0 && a.month <= 12 && a.day >= 0 && a.day <= 31 && (a.day == 0 || a.month != 0),
            "a date is a date");
    }
    check(!strict || reader->rejected() == 0, "read strictly, a record left out fails the file");
    check(reader->rejected() == 0 || records + reader->skipped() > 0,
          "a file of which no record could be read fails");
    const auto problems = reader->take_problems();
    check(problems.size() <= reader->rejected(), "each record left out is counted");
    for (const auto& p : problems)
      check(p.line >= 1 && is_utf8(p.what) && is_utf8(p.hint), "a record left out is said with its line");
  } catch (const abstracts::Error&) {
    // InputError: bad input, rejected as the readers promise.
  }
  return 0;
}
