#include "engine/schema.h"

#include <charconv>
#include <cstdio>
#include <vector>

#include <xxhash.h>

#include "abstracts/error.h"

namespace abstracts::schema {
namespace {

// Fields are separated by U+001F (unit separator), which display text never holds.
constexpr char kSep = '\x1f';

std::vector<std::string_view> split(std::string_view data) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    auto sep = data.find(kSep, start);
    if (sep == std::string_view::npos) {
      fields.push_back(data.substr(start));
      return fields;
    }
    fields.push_back(data.substr(start, sep - start));
    start = sep + 1;
  }
}

template <class T>
T to_number(std::string_view s) {
  T value{};
  std::from_chars(s.data(), s.data() + s.size(), value);
  return value;
}

}  // namespace

void require_version(const Xapian::Database& db, const std::filesystem::path& dir) {
  if (db.get_metadata(std::string(kSchemaKey)) == kSchemaVersion) return;
  throw CorruptIndex("the index at " + dir.string() + " was written by another version of abstracts",
                     "delete " + dir.string() + " and run `abstracts index` to rebuild it");
}

Abstract stored_abstract(const Xapian::Document& doc, const compression::Decompressor& stored) {
  return decode(stored.decompress(doc.get_value(kStoredSlot)));
}

std::string file_term(std::string_view absolute_path) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(absolute_path.data(), absolute_path.size())));
  return std::string(kFilePrefix) + hex;
}

std::string encode(const Abstract& a) {
  std::string out;
  out.reserve(a.text.size() + a.title.size() + a.source.size() + 64);
  for (std::string_view field : {std::string_view(a.id), std::string_view(a.source)}) {
    out += field;
    out += kSep;
  }
  out += std::to_string(a.line);
  out += kSep;
  out += a.venue;
  out += kSep;
  out += std::to_string(a.year);
  out += kSep;
  out += a.title;
  out += kSep;
  out += a.text;
  return out;
}

Abstract decode(std::string_view data) {
  auto f = split(data);
  Abstract a;
  if (f.size() != 7) return a;
  a.id = f[0];
  a.source = f[1];
  a.line = to_number<std::uint32_t>(f[2]);
  a.venue = f[3];
  a.year = to_number<int>(f[4]);
  a.title = f[5];
  a.text = f[6];
  return a;
}

std::string encode(const FileState& s) {
  return std::to_string(s.size) + " " + std::to_string(s.mtime_ns) + " " + std::to_string(s.hash) +
         " " + std::to_string(s.abstracts);
}

bool decode(std::string_view data, FileState& s) {
  return std::sscanf(std::string(data).c_str(), "%llu %lld %llu %llu", &s.size, &s.mtime_ns,
                     &s.hash, &s.abstracts) == 4;
}

}  // namespace abstracts::schema
