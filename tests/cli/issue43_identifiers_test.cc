// Issue 43, items 1 and 3, end to end on the real exports of
// ../shared/data/formats, all indexed into one index: every record found by
// each of its identifiers in every form people paste them, by `search` (hit 1)
// and by `show`; and facets of a query counted as its hits say. The
// identifiers are read from the raw files here, by simple parsing of each
// format, not taken from the engine's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue43_identifiers_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kFormats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}
bool blank(const std::string& s) { return trimmed(s).empty(); }

// "1212.0901v2" -> "1212.0901".
std::string without_version(const std::string& id) {
  static const std::regex version("v[0-9]+$");
  return std::regex_replace(id, version, "");
}

// An ISBN's 13 digits, or "" if its check digit is wrong: the test's own
// reading, to check that ISBN-10 and ISBN-13 of a book are one identifier.
std::string isbn13(const std::string& text) {
  std::string d;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == 'X' || c == 'x') d += static_cast<char>(std::toupper(c));
  }
  auto v = [](char c) { return c == 'X' ? 10 : c - '0'; };
  if (d.size() == 10) {
    int sum = 0;
    for (int i = 0; i < 10; ++i) sum += (10 - i) * v(d[i]);
    if (sum % 11 != 0) return "";
    d = "978" + d.substr(0, 9);
    sum = 0;
    for (int i = 0; i < 12; ++i) sum += (i % 2 ? 3 : 1) * v(d[i]);
    return d + static_cast<char>('0' + (10 - sum % 10) % 10);
  }
  if (d.size() != 13 || d.find('X') != std::string::npos) return "";
  int sum = 0;
  for (int i = 0; i < 13; ++i) sum += (i % 2 ? 3 : 1) * v(d[i]);
  return sum % 10 == 0 ? d : "";
}

// The ISBN-10 of an ISBN-13 that begins 978, "" for others.
std::string isbn10(const std::string& thirteen) {
  if (!thirteen.starts_with("978")) return "";
  std::string d = thirteen.substr(3, 9);
  int sum = 0;
  for (int i = 0; i < 9; ++i) sum += (10 - i) * (d[i] - '0');
  const int check = (11 - sum % 11) % 11;
  return d + (check == 10 ? 'X' : static_cast<char>('0' + check));
}

// One identifier of one record that has an abstract: scheme and value as the
// source writes it.
struct Identifier {
  std::string file, scheme, value;
  std::size_t record = 0;  // the identifiers of one record have one number
};

// Counts the records read; each reader below bumps it at a record's start.
std::size_t g_record = 0;

void add(std::vector<Identifier>& out, const fs::path& file, const std::string& scheme, std::string value) {
  value = trimmed(value);
  if (!value.empty()) out.push_back({file.filename().string(), scheme, value, g_record});
}

// A line-oriented "key: value" read of Manubot's note ("standard_id: arxiv:1106.5730").
std::string note_value(const std::string& note, const std::string& key) {
  const auto at = note.find(key + ": ");
  if (at == std::string::npos) return "";
  const auto begin = at + key.size() + 2;
  return note.substr(begin, note.find_first_of(" \n", begin) - begin);
}

void read_json_lines(const fs::path& file, std::vector<Identifier>& out) {
  std::istringstream in(read_file(file));
  for (std::string line; std::getline(in, line);) {
    if (blank(line)) continue;
    const json j = json::parse(line);
    ++g_record;
    auto text = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; };
    if (j.contains("paperAbstract")) {  // Semantic Scholar
      if (blank(text("paperAbstract"))) continue;
      add(out, file, "doi", text("doi"));
      std::string pmid = text("pmid");
      add(out, file, "pmid", pmid.substr(0, pmid.find_first_not_of("0123456789")));  // "24568020v1"
    } else {  // arXiv's snapshot
      if (blank(text("abstract"))) continue;
      add(out, file, "arxiv", text("id"));
      std::istringstream dois(text("doi"));  // a few give two DOIs: the first is the paper's
      std::string doi;
      dois >> doi;
      add(out, file, "doi", doi);
    }
  }
}

void read_csl(const fs::path& file, std::vector<Identifier>& out) {
  for (const json& j : json::parse(read_file(file))) {
    ++g_record;
    auto text = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; };
    if (blank(text("abstract"))) continue;
    add(out, file, "doi", text("DOI"));
    add(out, file, "pmid", text("PMID"));
    add(out, file, "pmcid", text("PMCID"));
    std::istringstream isbns(text("ISBN"));  // Zotero lists a book's ISBNs with spaces
    for (std::string isbn; isbns >> isbn;) add(out, file, "isbn", isbn);
    const std::string standard = note_value(text("note"), "standard_id");
    if (standard.starts_with("arxiv:")) add(out, file, "arxiv", standard.substr(6));
    if (text("number").starts_with("arXiv:")) add(out, file, "arxiv", text("number").substr(6));
    std::string key = text("citation-key");
    if (key.empty() && text("id").find_first_of("/: ") == std::string::npos) key = text("id");
    add(out, file, "key", key);
  }
}

void read_openalex(const fs::path& file, std::vector<Identifier>& out) {
  const json response = json::parse(read_file(file));
  for (const json& w : response.at("results")) {
    ++g_record;
    if (!w.contains("abstract_inverted_index") || !w["abstract_inverted_index"].is_object() ||
        w["abstract_inverted_index"].empty()) {
      continue;
    }
    if (w.contains("doi") && w["doi"].is_string()) add(out, file, "doi", w["doi"].get<std::string>().substr(16));
    const json& ids = w.at("ids");
    for (const char* k : {"pmid", "pmcid"}) {
      if (ids.contains(k)) {
        const std::string link = ids[k].get<std::string>();
        std::string id = link.substr(link.find_last_of('/') + 1);
        add(out, file, k, std::string(k) == "pmcid" && !id.starts_with("PMC") ? "PMC" + id : id);
      }
    }
  }
}

// The text of each element of `text` whose start tag begins with `open`
// ("<PMID", "<ArticleId IdType=\"doi\">"), up to the next tag. (No std::regex:
// its matcher recurses per character and overflows the stack on a long record.)
std::vector<std::string> all(const std::string& text, const std::string& open) {
  std::vector<std::string> found;
  for (auto at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
    const auto gt = text.find('>', at);
    if (gt == std::string::npos) break;
    found.push_back(text.substr(gt + 1, text.find('<', gt) - gt - 1));
  }
  return found;
}
std::string first(const std::string& text, const std::string& open) {
  auto found = all(text, open);
  return found.empty() ? "" : found[0];
}

// The pieces of `text` that begin with `start` (the text before the first is dropped).
std::vector<std::string> pieces(const std::string& text, const std::string& start) {
  std::vector<std::string> out;
  for (auto at = text.find(start); at != std::string::npos;) {
    const auto next = text.find(start, at + start.size());
    out.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  return out;
}

void read_pubmed(const fs::path& file, std::vector<Identifier>& out) {
  for (const std::string& article : pieces(read_file(file), "<PubmedArticle>")) {
    ++g_record;
    bool has_abstract = false;
    for (const auto& t : all(article, "<AbstractText")) has_abstract = has_abstract || !blank(t);
    if (!has_abstract) continue;
    add(out, file, "pmid", first(article, "<PMID"));
    // The article's own ids, not those of its references.
    std::string own = article.substr(std::min(article.size(), article.find("<PubmedData>")));
    own = own.substr(0, own.find("<ReferenceList"));
    std::string d = first(own, "<ArticleId IdType=\"doi\">");
    add(out, file, "doi", d.empty() ? first(article, "<ELocationID EIdType=\"doi\"") : d);
    add(out, file, "pmcid", first(own, "<ArticleId IdType=\"pmc\">"));
  }
}

void read_atom(const fs::path& file, std::vector<Identifier>& out) {
  for (const std::string& entry : pieces(read_file(file), "<entry")) {
    ++g_record;
    if (blank(first(entry, "<summary"))) continue;
    for (const auto& id : all(entry, "<id>")) {
      if (const auto at = id.find("arxiv.org/abs/"); at != std::string::npos) add(out, file, "arxiv", id.substr(at + 14));
    }
    add(out, file, "doi", first(entry, "<arxiv:doi"));
  }
}

void read_ris(const fs::path& file, std::vector<Identifier>& out) {
  std::istringstream in(read_file(file));
  std::map<std::string, std::vector<std::string>> record;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // the BOM
    auto is_tag_char = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
    if (line.size() < 5 || !(line[0] >= 'A' && line[0] <= 'Z') || !is_tag_char(line[1]) ||
        line.substr(2, 3) != "  -") {
      continue;
    }
    const std::string t = line.substr(0, 2);
    if (t == "TY") record.clear();
    record[t].push_back(trimmed(line.substr(5)));
    if (t != "ER") continue;
    ++g_record;
    bool has_abstract = false;
    for (const char* t : {"AB", "N2"}) {
      for (const auto& v : record[t]) has_abstract = has_abstract || !blank(v);
    }
    if (!has_abstract) continue;
    for (const auto& v : record["DO"]) add(out, file, "doi", v);
    for (const auto& v : record["ID"]) add(out, file, "key", v);
    for (const auto& v : record["SN"]) {
      if (!isbn13(v).empty()) add(out, file, "isbn", v);  // an ISSN otherwise
    }
    for (const auto& v : record["UR"]) {
      if (const auto at = v.find("arxiv.org/abs/"); at != std::string::npos) add(out, file, "arxiv", v.substr(at + 14));
    }
  }
}

// BibTeX: each entry's fields, a value's braces matched.
void read_bibtex(const fs::path& file, std::vector<Identifier>& out) {
  std::string text = "\n" + read_file(file);
  if (text.substr(1, 3) == "\xEF\xBB\xBF") text.erase(1, 3);  // the BOM
  for (const std::string& entry : pieces(text, "\n@")) {
    ++g_record;
    const std::string body = entry.substr(2);
    const auto brace = body.find('{'), comma = body.find(',');
    if (brace == std::string::npos || comma == std::string::npos || comma < brace) continue;
    const std::string key = trimmed(body.substr(brace + 1, comma - brace - 1));
    std::map<std::string, std::string> fields;
    // Each "name = {": a name after a comma or white space.
    for (auto eq = body.find('=', comma); eq != std::string::npos; eq = body.find('=', eq + 1)) {
      std::size_t end = eq;
      while (end > comma && std::isspace(static_cast<unsigned char>(body[end - 1]))) --end;
      std::size_t begin = end;
      while (begin > comma && (std::isalpha(static_cast<unsigned char>(body[begin - 1])) || body[begin - 1] == '-')) --begin;
      if (begin == end || !(body[begin - 1] == ',' || std::isspace(static_cast<unsigned char>(body[begin - 1])))) continue;
      std::size_t at = body.find_first_not_of(" \t\r\n", eq + 1);
      if (at == std::string::npos || body[at] != '{') continue;
      std::string value;
      int depth = 1;
      for (++at; at < body.size() && depth > 0; ++at) {
        if (body[at] == '{') ++depth;
        if (body[at] == '}') --depth;
        if (depth > 0 && body[at] != '{' && body[at] != '}') value += body[at];
      }
      fields.emplace(lower(body.substr(begin, end - begin)), value);
      eq = at - 1;
    }
    if (blank(fields["abstract"])) continue;
    std::string doi = fields["doi"];
    for (auto at = doi.find("\\_"); at != std::string::npos; at = doi.find("\\_")) doi.erase(at, 1);
    add(out, file, "doi", doi);
    add(out, file, "pmid", fields["pmid"]);
    add(out, file, "isbn", fields["isbn"]);
    if (lower(fields["eprinttype"]) == "arxiv" || lower(fields["archiveprefix"]) == "arxiv") {
      add(out, file, "arxiv", fields["eprint"]);
    }
    add(out, file, "key", key);
  }
}

std::vector<Identifier> identifiers_of(const fs::path& file) {
  std::vector<Identifier> out;
  const std::string name = file.filename().string(), folder = file.parent_path().filename().string();
  if (file.extension() == ".jsonl" || folder == "arxiv-snapshot-jsonl") {
    read_json_lines(file, out);
  } else if (folder == "csl-json") {
    read_csl(file, out);
  } else if (name.find("openalex") != std::string::npos) {
    read_openalex(file, out);
  } else if (folder == "pubmed-xml") {
    read_pubmed(file, out);
  } else if (folder == "arxiv-atom") {
    read_atom(file, out);
  } else if (folder == "ris") {
    read_ris(file, out);
  } else if (folder == "bibtex") {
    read_bibtex(file, out);
  } else {
    ADD_FAILURE() << "no reading of " << file << " in the test";
  }
  return out;
}

// The forms a person pastes the identifier in.
std::vector<std::string> forms(const Identifier& id) {
  const std::string& v = id.value;
  if (id.scheme == "doi") return {v, "https://doi.org/" + v, upper(v)};
  if (id.scheme == "arxiv") {
    const std::string base = without_version(v);
    return {v, base, "https://arxiv.org/abs/" + base + "v1", "https://arxiv.org/pdf/" + base + "v1"};
  }
  if (id.scheme == "pmid") return {v, "https://pubmed.ncbi.nlm.nih.gov/" + v + "/"};
  if (id.scheme == "pmcid") return {v, "https://www.ncbi.nlm.nih.gov/pmc/articles/" + v + "/", "pmcid:" + v};
  if (id.scheme == "isbn") {
    const std::string thirteen = isbn13(v), ten = isbn10(thirteen);
    std::vector<std::string> out{v, thirteen, "isbn:" + v};
    if (!ten.empty()) out.push_back(ten);
    return out;
  }
  // A key: the `key:` field always; alone when it has a digit (a word else).
  std::vector<std::string> out{"key:" + v};
  if (std::any_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    out.push_back(v);
  }
  return out;
}

// The forms `show` takes: all but the `key:` field of the query language.
bool show_takes(const std::string& form) { return !form.starts_with("key:"); }

// True if `hit` (a JSON object of search or show) is the record that has `id`.
bool has(const json& hit, const Identifier& id) {
  auto text = [&](const char* k) { return hit.contains(k) && hit[k].is_string() ? hit[k].get<std::string>() : ""; };
  if (id.scheme == "doi") return text("doi") == lower(id.value);
  if (id.scheme == "arxiv") return text("arxiv") == lower(without_version(id.value));
  if (id.scheme == "pmid") return text("pmid") == id.value;
  if (id.scheme == "pmcid") return upper(text("pmcid")) == upper(id.value);
  if (id.scheme == "isbn") {
    std::istringstream isbns(text("isbn"));
    for (std::string isbn; isbns >> isbn;) {
      if (isbn13(isbn) == isbn13(id.value)) return true;
    }
    return false;
  }
  return lower(text("citation_key")) == lower(id.value);
}

class Issue43 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::is_directory(kFormats)) return;
    dir_ = std::make_unique<TempDir>();
    std::vector<std::string> args{"index"};
    for (const auto& e : fs::recursive_directory_iterator(kFormats)) {
      if (e.is_regular_file() && e.path().filename() != "README.md") {
        args.push_back(e.path().string());
        files_.push_back(e.path());
      }
    }
    std::sort(files_.begin(), files_.end());
    index_ = abstracts(args);
  }
  static void TearDownTestSuite() { dir_.reset(); }

  void SetUp() override {
    if (!fs::is_directory(kFormats)) GTEST_SKIP() << "the real exports are not in " << kFormats;
    ASSERT_EQ(index_.status, 0) << index_.err;
  }

  static RunResult abstracts(std::vector<std::string> args, const std::string& input = {}) {
    args.insert(args.begin(), {"--index", (dir_->path() / "index").string(), "--color", "never"});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_->path()), dir_->path(), input);
  }

  static std::vector<json> json_lines(const std::string& out) {
    std::vector<json> v;
    for (const auto& line : lines(out)) v.push_back(json::parse(line));
    return v;
  }

  static inline std::unique_ptr<TempDir> dir_;
  static inline std::vector<fs::path> files_;
  static inline RunResult index_;
};

TEST_F(Issue43, EveryRecordIsHitOneForEachOfItsIdentifiersInEveryForm) {
  std::vector<Identifier> ids;
  for (const auto& file : files_) {
    const auto of_file = identifiers_of(file);
    EXPECT_FALSE(of_file.empty()) << file;
    ids.insert(ids.end(), of_file.begin(), of_file.end());
  }
  std::map<std::string, int> per_scheme;
  for (const auto& id : ids) ++per_scheme[id.scheme];
  // The real files have each kind (PMCIDs in PubMed and Manubot's CSL-JSON,
  // ISBNs in Web of Science's RIS and Zotero's exports).
  for (const char* scheme : {"doi", "arxiv", "pmid", "pmcid", "isbn", "key"}) EXPECT_GT(per_scheme[scheme], 0) << scheme;

  // One batch of queries: query i is forms(ids[k])[j].
  std::string queries;
  std::vector<std::pair<std::size_t, std::string>> asked;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    for (const auto& form : forms(ids[k])) {
      queries += std::to_string(asked.size()) + "\t" + form + "\n";
      asked.emplace_back(k, form);
    }
  }
  const auto r = abstracts({"search", "--queries", "-", "--json", "--limit", "1"}, queries);
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::size_t, json> first_hit;
  for (const auto& hit : json_lines(r.out)) first_hit.emplace(std::stoul(hit.at("query").get<std::string>()), hit);
  // A record that is the same paper as another (two entries of one DOI, a
  // preprint and its article) is hit 1 as that paper, which shows one record:
  // the hit is the record's when it has the identifier asked or another of the
  // record's own.
  std::multimap<std::size_t, const Identifier*> of_record;
  for (const auto& id : ids) of_record.emplace(id.record, &id);
  auto is_record = [&](const json& hit, const Identifier& id) {
    if (has(hit, id)) return true;
    const auto [begin, end] = of_record.equal_range(id.record);
    return std::any_of(begin, end, [&](const auto& other) { return other.second->scheme != "key" && has(hit, *other.second); });
  };
  std::size_t failures = 0;
  for (std::size_t q = 0; q < asked.size(); ++q) {
    const Identifier& id = ids[asked[q].first];
    const auto hit = first_hit.find(q);
    const bool ok = hit != first_hit.end() && is_record(hit->second, id);
    if (!ok && ++failures <= 100) {
      ADD_FAILURE() << id.file << ": " << id.scheme << " " << id.value << " as '" << asked[q].second << "': "
                    << (hit == first_hit.end() ? "no hit" : "hit 1 is " + hit->second.dump().substr(0, 300));
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << asked.size() << " queries";

  // show takes the same forms, a few hundred to a process.
  std::vector<std::pair<std::size_t, std::string>> shown;
  for (const auto& a : asked) {
    if (show_takes(a.second)) shown.push_back(a);
  }
  failures = 0;
  for (std::size_t begin = 0; begin < shown.size(); begin += 400) {
    const std::size_t end = std::min(shown.size(), begin + 400);
    std::vector<std::string> args{"show", "--json", "--"};
    for (std::size_t i = begin; i < end; ++i) args.push_back(shown[i].second);
    const auto s = abstracts(args);
    EXPECT_EQ(s.status, 0) << s.err.substr(0, 2000);
    const auto objects = json_lines(s.out);
    ASSERT_EQ(objects.size(), end - begin) << s.err.substr(0, 2000);
    for (std::size_t i = begin; i < end; ++i) {
      const Identifier& id = ids[shown[i].first];
      if (!is_record(objects[i - begin], id) && ++failures <= 20) {
        ADD_FAILURE() << "show " << shown[i].second << " (" << id.file << "): " << objects[i - begin].dump().substr(0, 300);
      }
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << shown.size() << " shows";
}

TEST_F(Issue43, AnIdentifierNoAbstractHasIsSaidSoAndFindsNothing) {
  for (const char* q : {"PMC1", "978-0-262-03384-8", "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC1/"}) {
    const auto r = abstracts({"search", q});
    EXPECT_EQ(r.status, 1) << q << "\n" << r.out;
    EXPECT_TRUE(r.out.empty()) << q << "\n" << r.out;
    EXPECT_TRUE(contains(r.err, "no abstract has")) << q << "\n" << r.err;
  }
}

// Facets of a query: `stats --by author|year QUERY` counts what the query's
// hits (every one, --limit 0) say, abstract by abstract. Years exactly. Authors
// as forms of one person may be merged, and shown in their fullest form, which
// may be another abstract's (query-language.md, "Authors"; the names test
// checks the merge): each form of the hits shown counts at least its hits, none
// more than the hits, and no more people are shown than the hits have forms.
TEST_F(Issue43, FacetsOfAQueryCountItsHits) {
  for (const std::string query : {"malaria", "glacier OR glaciers", "\"neural network\"", "year:2015..2020 learning",
                                  "parasite* -malaria"}) {
    const auto hits = json_lines(abstracts({"search", "--json", "--limit", "0", "--", query}).out);
    EXPECT_GE(hits.size(), 3u) << query;
    std::map<std::string, std::size_t> by_form, by_year;
    for (const auto& h : hits) {
      std::set<std::string> forms;
      for (const auto& a : h.at("authors")) {
        const std::string given = a.at("given"), family = a.at("family");
        forms.insert(given.empty() ? family : given + " " + family);
      }
      for (const auto& f : forms) ++by_form[f];
      if (h.at("year").is_number()) ++by_year[std::to_string(h.at("year").get<int>())];
    }
    auto counted = [&](const char* field, bool any) {
      const auto r = abstracts({"stats", "--by", field, "--limit", "0", "--json", "--", query});
      EXPECT_EQ(r.status, any ? 0 : 1) << query << " " << r.err;
      std::map<std::string, std::size_t> out;
      for (const auto& j : json_lines(r.out)) out[j.at("value")] = j.at("abstracts");
      return out;
    };
    EXPECT_EQ(counted("year", !by_year.empty()), by_year) << "stats --by year " << query;
    const auto authors = counted("author", !by_form.empty());
    EXPECT_FALSE(authors.empty()) << query;
    EXPECT_LE(authors.size(), by_form.size()) << query;
    for (const auto& [form, n] : authors) {
      EXPECT_LE(n, hits.size()) << form << " in " << query;
      if (const auto own = by_form.find(form); own != by_form.end()) {
        EXPECT_GE(n, own->second) << form << " in " << query;
      }
    }
  }
}

}  // namespace
}  // namespace abstracts::testing::issue43_identifiers_test
