#include "engine/schema.h"

#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <vector>

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
  throw CorruptIndex(
      "the index at " + dir.string() + " was written by another version of abstracts",
      "delete " + dir.string() + " and build it again with abstracts::Writer");
}

Abstract stored_abstract(const Xapian::Document& doc, Xapian::docid docid,
                         const compression::Decompressor& stored, bool* title_in_text) {
  return decode(stored.decompress(doc.get_value(kStoredSlot), docid), title_in_text);
}

std::string normalise_identifier(std::string_view scheme, std::string_view id) {
  std::string value;
  for (char c : id) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    value += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  for (std::string_view prefix :
       {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/",
        "doi:", "arxiv:", "https://arxiv.org/abs/", "http://arxiv.org/abs/", "pmid:", "pmcid:", "isbn:"}) {
    if (std::string_view(value).starts_with(prefix)) value.erase(0, prefix.size());
  }
  if (scheme == "isbn") return isbn13(value);
  if (scheme == "pmcid") {
    // "https://www.ncbi.nlm.nih.gov/pmc/articles/5584645" (OpenAlex), "PMC5584645/".
    while (value.ends_with('/')) value.pop_back();
    value.erase(0, value.find_last_of('/') + 1);
    if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) value.insert(0, "pmc");
    return value;
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

std::string isbn13(std::string_view text) {
  std::string digits;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '-' || c == ' ') continue;
    if (text.substr(i, 3) == "\u2010") {  // Cochrane's hyphen
      i += 2;
      continue;
    }
    if ((c >= '0' && c <= '9') || ((c == 'X' || c == 'x') && digits.size() == 9 && i + 1 == text.size())) {
      digits += c == 'x' ? 'X' : c;
    } else {
      return "";
    }
  }
  auto digit = [](char c) { return c == 'X' ? 10 : c - '0'; };
  if (digits.size() == 10) {
    int sum = 0;
    for (int i = 0; i < 10; ++i) sum += (10 - i) * digit(digits[i]);
    if (sum % 11 != 0) return "";
    digits = "978" + digits.substr(0, 9);
  } else if (digits.size() == 13 && (digits.starts_with("978") || digits.starts_with("979"))) {
    int sum = 0;
    for (int i = 0; i < 13; ++i) sum += (i % 2 == 0 ? 1 : 3) * digit(digits[i]);
    return sum % 10 == 0 ? digits : "";
  } else {
    return "";
  }
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (i % 2 == 0 ? 1 : 3) * digit(digits[i]);
  digits += static_cast<char>('0' + (10 - sum % 10) % 10);
  return digits;
}

std::string citation_key_term(std::string_view key) {
  std::string lower(key);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return field_term(kCitationKeyPrefix, lower);
}

std::string identifier_term(std::string_view scheme, std::string_view id) {
  std::string prefixed(scheme);
  prefixed += ':';
  prefixed += normalise_identifier(scheme, id);
  return field_term(kIdentifierPrefix, prefixed);
}

std::string file_term(std::string_view absolute_path) {
  char hex[17];
  std::snprintf(
      hex, sizeof hex, "%016llx",
      static_cast<unsigned long long>(XXH3_64bits(absolute_path.data(), absolute_path.size())));
  return std::string(kFilePrefix) + hex;
}

std::string record_term(std::string_view absolute_path, std::uint32_t line) {
  char hex[17];
  std::snprintf(
      hex, sizeof hex, "%016llx",
      static_cast<unsigned long long>(XXH3_64bits(absolute_path.data(), absolute_path.size())));
  return std::string(kRecordPrefix) + hex + ":" + std::to_string(line);
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
  auto names = [&](const std::vector<Author>& list) {
    std::string out;
    for (const auto& author : list) {
      if (!out.empty()) out += kListSep;
      out += clean(author.family) + kPairSep + clean(author.given);
    }
    return out;
  };
  auto items = [&](const std::vector<std::string>& list) {
    std::string out;
    for (const auto& item : list) {
      if (!out.empty()) out += kListSep;
      out += clean(item);
    }
    return out;
  };
  const std::string authors = names(a.authors), categories = items(a.categories);
  const std::string fields[] = {clean(a.id),
                                clean(a.source),
                                std::to_string(a.line),
                                clean(a.venue),
                                std::to_string(a.year),
                                clean(a.title),
                                clean(a.text),
                                authors,
                                std::to_string(a.month),
                                std::to_string(a.day),
                                categories,
                                clean(a.doi),
                                clean(a.arxiv_id),
                                clean(a.pmid),
                                clean(a.citation_key),
                                title_in_text ? "1" : "0",
                                std::to_string(a.author_count),
                                names(a.editors),
                                clean(a.item_type),
                                items(a.tags),
                                items(a.collections),
                                clean(a.zotero_key),
                                std::to_string(a.zotero_group),
                                clean(a.volume),
                                clean(a.issue),
                                clean(a.pages),
                                clean(a.publisher),
                                clean(a.url),
                                clean(a.issn),
                                clean(a.isbn),
                                clean(a.pmcid)};
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
  if (f.size() != 31) return a;
  auto names = [](std::string_view list) {
    std::vector<Author> out;
    if (list.empty()) return out;
    for (auto author : split(list, kListSep)) {
      auto parts = split(author, kPairSep);
      out.push_back(
          {std::string(parts[0]), parts.size() > 1 ? std::string(parts[1]) : std::string()});
    }
    return out;
  };
  auto items = [](std::string_view list) {
    std::vector<std::string> out;
    if (list.empty()) return out;
    for (auto item : split(list, kListSep)) out.emplace_back(item);
    return out;
  };
  a.id = f[0];
  a.source = f[1];
  a.line = to_number<std::uint32_t>(f[2]);
  a.venue = f[3];
  a.year = to_number<int>(f[4]);
  a.title = f[5];
  a.text = f[6];
  a.authors = names(f[7]);
  a.month = to_number<int>(f[8]);
  a.day = to_number<int>(f[9]);
  a.categories = items(f[10]);
  a.doi = f[11];
  a.arxiv_id = f[12];
  a.pmid = f[13];
  a.citation_key = f[14];
  if (title_in_text != nullptr) *title_in_text = f[15] == "1";
  a.author_count = to_number<std::size_t>(f[16]);
  a.editors = names(f[17]);
  a.item_type = f[18];
  a.tags = items(f[19]);
  a.collections = items(f[20]);
  a.zotero_key = f[21];
  a.zotero_group = to_number<std::int64_t>(f[22]);
  a.volume = f[23];
  a.issue = f[24];
  a.pages = f[25];
  a.publisher = f[26];
  a.url = f[27];
  a.issn = f[28];
  a.isbn = f[29];
  a.pmcid = f[30];
  return a;
}

std::string encode(const FileState& s) {
  std::string out = std::to_string(s.size) + " " + std::to_string(s.mtime_ns) + " " +
                    std::to_string(s.hash) + " " + std::to_string(s.abstracts) + " " + std::to_string(s.rejected);
  for (const auto& source : s.sources) out += kSep + source;
  return out;
}

bool decode(std::string_view data, FileState& s) {
  const auto fields = split(data, kSep);
  s.sources.assign(fields.begin() + 1, fields.end());
  s.rejected = 0;  // a state written before it was kept: none
  const int read = std::sscanf(std::string(fields[0]).c_str(), "%llu %lld %llu %llu %llu", &s.size, &s.mtime_ns,
                               &s.hash, &s.abstracts, &s.rejected);
  return read == 4 || read == 5;
}

}  // namespace abstracts::schema
