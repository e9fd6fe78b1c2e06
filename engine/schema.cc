#include "engine/schema.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <vector>

#include <xxhash.h>

#include "abstracts/error.h"

namespace abstracts::schema {
namespace {

// Fields are separated by U+001F (unit separator), which display text never
// holds; the items of a list (authors, categories) by U+001E, an author's family
// and given names by U+001D.
constexpr char kSep = '\x1f';
constexpr char kListSep = '\x1e';
constexpr char kPairSep = '\x1d';

std::vector<std::string_view> split(std::string_view data, char sep) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    auto at = data.find(sep, start);
    if (at == std::string_view::npos) {
      fields.push_back(data.substr(start));
      return fields;
    }
    fields.push_back(data.substr(start, at - start));
    start = at + 1;
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
                     "delete " + dir.string() + " and build it again with abstracts::Writer");
}

Abstract stored_abstract(const Xapian::Document& doc, Xapian::docid docid, const compression::Decompressor& stored) {
  return decode(stored.decompress(doc.get_value(kStoredSlot), docid));
}

std::string normalise_identifier(std::string_view scheme, std::string_view id) {
  std::string value;
  for (char c : id) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    value += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  for (std::string_view prefix : {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/",
                                  "doi:", "arxiv:", "https://arxiv.org/abs/", "http://arxiv.org/abs/", "pmid:"}) {
    if (std::string_view(value).starts_with(prefix)) value.erase(0, prefix.size());
  }
  if (scheme == "arxiv") {
    const auto v = value.rfind('v');
    if (v != std::string::npos && v + 1 < value.size() &&
        value.find_first_not_of("0123456789", v + 1) == std::string::npos) {
      value.erase(v);
    }
  } else if (scheme == "pmid") {
    value.erase(std::min(value.size(), value.find_first_not_of("0123456789")));  // "24568020v1"
  }
  return value;
}

std::string identifier_term(std::string_view scheme, std::string_view id) {
  std::string prefixed(scheme);
  prefixed += ':';
  prefixed += normalise_identifier(scheme, id);
  return field_term(kIdentifierPrefix, prefixed);
}

std::string file_term(std::string_view absolute_path) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(absolute_path.data(), absolute_path.size())));
  return std::string(kFilePrefix) + hex;
}

std::string encode(const Abstract& a, bool title_in_text) {
  // A separator inside a value (from a source's metadata) would split it.
  auto clean = [](std::string_view value) {
    std::string out(value);
    for (char& c : out) {
      if (c == kSep || c == kListSep || c == kPairSep) c = ' ';
    }
    return out;
  };
  std::string authors, categories;
  for (const auto& author : a.authors) {
    if (!authors.empty()) authors += kListSep;
    authors += clean(author.family) + kPairSep + clean(author.given);
  }
  for (const auto& category : a.categories) {
    if (!categories.empty()) categories += kListSep;
    categories += clean(category);
  }
  const std::string fields[] = {clean(a.id),     clean(a.source),         std::to_string(a.line),
                                clean(a.venue),  std::to_string(a.year),  clean(a.title),
                                clean(a.text),   authors,                 std::to_string(a.month),
                                std::to_string(a.day), categories,        clean(a.doi),
                                clean(a.arxiv_id), clean(a.pmid),         clean(a.citation_key),
                                title_in_text ? "1" : "0", std::to_string(a.author_count)};
  std::string out;
  out.reserve(a.text.size() + a.title.size() + a.source.size() + 64);
  for (const auto& f : fields) {
    if (&f != fields) out += kSep;
    out += f;
  }
  return out;
}

Abstract decode(std::string_view data, bool* title_in_text) {
  auto f = split(data, kSep);
  Abstract a;
  if (f.size() != 17) return a;
  a.id = f[0];
  a.source = f[1];
  a.line = to_number<std::uint32_t>(f[2]);
  a.venue = f[3];
  a.year = to_number<int>(f[4]);
  a.title = f[5];
  a.text = f[6];
  if (!f[7].empty()) {
    for (auto author : split(f[7], kListSep)) {
      auto names = split(author, kPairSep);
      a.authors.push_back({std::string(names[0]), names.size() > 1 ? std::string(names[1]) : std::string()});
    }
  }
  a.month = to_number<int>(f[8]);
  a.day = to_number<int>(f[9]);
  if (!f[10].empty()) {
    for (auto c : split(f[10], kListSep)) a.categories.emplace_back(c);
  }
  a.doi = f[11];
  a.arxiv_id = f[12];
  a.pmid = f[13];
  a.citation_key = f[14];
  if (title_in_text != nullptr) *title_in_text = f[15] == "1";
  a.author_count = to_number<std::size_t>(f[16]);
  return a;
}

std::string encode(const FileState& s) {
  std::string out = std::to_string(s.size) + " " + std::to_string(s.mtime_ns) + " " + std::to_string(s.hash) + " " +
                    std::to_string(s.abstracts);
  for (const auto& source : s.sources) out += kSep + source;
  return out;
}

bool decode(std::string_view data, FileState& s) {
  const auto fields = split(data, kSep);
  s.sources.assign(fields.begin() + 1, fields.end());
  return std::sscanf(std::string(fields[0]).c_str(), "%llu %lld %llu %llu", &s.size, &s.mtime_ns, &s.hash,
                     &s.abstracts) == 4;
}

}  // namespace abstracts::schema
