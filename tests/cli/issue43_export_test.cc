// Issue 43, item 4: `abstracts export` round trips. Every record of every real
// file in ../shared/data/formats is exported in each of the four formats and
// read back by an independent reader from Debian (pandoc 2.17, python3-
// bibtexparser, bibutils' ris2xml; tests/cli/export_readback.py runs them):
// every field written is read back equal to what the index holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "abstracts/export.h"
#include "abstracts/index.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::issue43_export_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* const kFiles[] = {
    "arxiv-atom/ReadArxiV4mENow--arxiv_results.xml",
    "arxiv-atom/di-proposal--arxiv.xml",
    "arxiv-snapshot-jsonl/arxivSpider_mnbvc--arxiv-metadata-oai-snapshot.json",
    "bibtex/Parasite-Ecology--savedrecs-wos.bib",
    "bibtex/ftoralesacosta-Thesis--Zotero.bib",
    "csl-json/deep-review--references.csl.json",
    "csl-json/gayashiva-Thesis--zotero_lib.csl.json",
    "openalex-s2/Topic_Modeling_NLP--sample-S2-records.jsonl",
    "openalex-s2/bibliographer--openalex.json",
    "pubmed-xml/main_finding_recognition--pubmed_result.xml",
    "pubmed-xml/mokztk-pubmed-parser--CPFE.xml",
    "ris/EstrogenSR--citation-exports-CochraneTrials.ris",
    "ris/Research-paper--savedrecs-wos.ris",
    "ris/SLR-automatic-screening--Exported_Items-zotero.ris",
};

// The readers, by the format each reads.
enum class Reader { kPandocBibtex, kPandocBiblatex, kPandocCsl, kBibtexparser, kRis2xml };

struct ReaderRun {
  Reader reader;
  const char* name;  // export_readback.py's
};

// White space collapsed and trimmed: readers may fold a value's line breaks.
std::string squeezed(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// pandoc's typography undone: it turns quotation marks (' " ` '' ``) into
// curly ones as it sees fit, in every format (compared, they are left out), and
// puts a narrow no-break space before a " ;".
std::string plain_typography(std::string s) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"\u202f", " "},
                                 {"\u2019", ""},
                                 {"\u2018", ""},
                                 {"\u201c", ""},
                                 {"\u201d", ""},
                                 {"'", ""},
                                 {"\"", ""},
                                 {"`", ""}}) {
    for (std::size_t at; (at = s.find(from)) != std::string::npos;) s.replace(at, from.size(), to);
  }
  return s;
}

// A page range's dash as one hyphen: BibTeX writes "--", which pandoc reads as an en dash.
std::string pages_read(std::string s) {
  for (std::size_t at; (at = s.find("\u2013")) != std::string::npos;) s.replace(at, 3, "-");
  for (std::size_t at; (at = s.find("--")) != std::string::npos;) s.erase(at, 1);
  return s;
}

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == ':' || c == '.' || c == '-';
}

// The key export.h promises for `a`, given the keys before it.
std::string expected_key(const Abstract& a, std::unordered_set<std::string>& given) {
  std::string key;
  if (is_safe_citation_key(a.citation_key)) {
    key = a.citation_key;
  } else {
    for (char c : a.id) {
      if (is_key_char(c)) {
        key += c;
      } else if (key.empty() || key.back() != '_') {
        key += '_';
      }
    }
    if (key.size() > 200) key.resize(200);
  }
  std::string unique = key;
  for (int n = 2; given.count(unique) != 0; ++n) unique = key + "-" + std::to_string(n);
  given.insert(unique);
  return unique;
}

std::string two(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string date_of(const Abstract& a, bool with_day) {
  if (a.year == 0) return {};
  std::string out = std::to_string(a.year);
  if (a.month != 0) out += "-" + two(a.month);
  if (a.month != 0 && a.day != 0 && with_day) out += "-" + two(a.day);
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string arxiv_link(const Abstract& a) {
  return a.arxiv_id.empty() ? std::string() : "https://arxiv.org/abs/" + a.arxiv_id;
}

// The link each format writes: the source's, else the arXiv page, else the DOI's.
std::string link_of(const Abstract& a) {
  if (!a.url.empty()) return a.url;
  if (!a.arxiv_id.empty()) return arxiv_link(a);
  if (!a.doi.empty()) return "https://doi.org/" + a.doi;
  return {};
}

// What RIS carries of a text: abstracts reads LaTeX in every format, so `{ } $`
// get a backslash and "--" is written "-{}-" (export.cc's latex_safe), which
// bibutils, for which RIS is no LaTeX, reads as written.
std::string ris_text(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' || text[i] == '}' || text[i] == '$') out += '\\';
    out += text[i];
    if (text[i] == '-' && i + 1 < text.size() && text[i + 1] == '-') out += "{}";
  }
  return out;
}

std::string ascii_lower(std::string s) {
  for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return s;
}

// What the export of `a` says, field by field, as `reader` should read it back
// ("" for a field not written, which the reader must not give either), where
// the reader reads a field its own way (each case says how).
std::map<std::string, std::string> expected_fields(const Abstract& a, const std::string& key,
                                                   Reader reader) {
  const WorkKind kind = work_kind(a);
  const bool bibtex = reader == Reader::kPandocBibtex || reader == Reader::kBibtexparser ||
                      reader == Reader::kPandocBiblatex;
  const bool ris = reader == Reader::kRis2xml;
  const bool arxiv_preprint = kind == WorkKind::kPreprint && !a.arxiv_id.empty();
  const bool self_contained =
      kind == WorkKind::kBook || kind == WorkKind::kThesis || kind == WorkKind::kReport;
  const bool latex_escaped = ris || reader == Reader::kPandocCsl;
  auto text = [latex_escaped](const std::string& t) { return latex_escaped ? ris_text(t) : t; };
  std::map<std::string, std::string> f;
  f["key"] = key;
  std::string title = text(a.title);
  if (ris) {
    // bibutils splits a title after "?" or "!", and MODS does not keep how.
    for (const char* mark : {"?: ", "!: "}) {
      for (std::size_t at; (at = title.find(mark)) != std::string::npos;) title.erase(at + 1, 1);
    }
  }
  f["title"] = title;
  f["abstract"] = text(a.text);
  f["volume"] = a.volume;
  // BibTeX's `number` is an article's issue; pandoc reads it as CSL's number for other types.
  f[bibtex && kind != WorkKind::kArticle ? "number" : "issue"] = a.issue;
  f["page"] = a.pages;
  std::vector<std::string> keywords = a.categories;
  if (ris) {
    // bibutils keeps a keyword once, whatever its case.
    std::set<std::string> seen;
    std::erase_if(keywords,
                  [&](const std::string& k) { return !seen.insert(ascii_lower(k)).second; });
    for (auto& k : keywords) k = ris_text(k);
  }
  f["keyword"] = joined(keywords);
  f["issued"] = date_of(a, reader != Reader::kPandocBibtex && reader != Reader::kBibtexparser);
  std::string container = a.venue, publisher = a.publisher;
  if (self_contained || (arxiv_preprint && !ris)) container.clear();
  // pandoc reads a @misc's howpublished as CSL's publisher.
  if (bibtex && (kind == WorkKind::kOther || (kind == WorkKind::kPreprint && !arxiv_preprint))) {
    if (reader != Reader::kBibtexparser && !container.empty()) {
      publisher = publisher.empty() ? container : container + "; " + publisher;
    }
    container.clear();
  }
  if (arxiv_preprint && publisher.empty() && reader == Reader::kPandocCsl) publisher = "arXiv";
  f["container"] = text(container);
  f["publisher"] = text(publisher);
  std::string url = ris && !a.arxiv_id.empty() ? arxiv_link(a) : link_of(a);
  std::string doi = a.doi;
  if (ris) {
    // bibutils reads a DO line only with a four-digit registrant (10.1007/...,
    // not 10.21248/...), a doi.org link in UR as the DOI, and an http (not
    // https) arXiv link as the arXiv id.
    if (doi.size() < 8 || doi[7] != '/') doi.clear();
    for (const std::string doi_org :
         {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/"}) {
      if (url.rfind(doi_org, 0) == 0) {
        doi = url.substr(doi_org.size());
        url.clear();
      }
    }
    if (const std::string arxiv = "http://arxiv.org/abs/"; url.rfind(arxiv, 0) == 0) {
      f["arxiv"] = url.substr(arxiv.size());
      url.clear();
    }
  }
  f["URL"] = url;
  f["DOI"] = doi;
  f["ISSN"] = a.issn;
  f["ISBN"] = a.isbn;
  if (reader == Reader::kPandocCsl) {
    f["PMID"] = a.pmid;
    f["PMCID"] = a.pmcid;
    f["arxiv"] = arxiv_preprint ? a.arxiv_id : "";
  }
  if (reader == Reader::kBibtexparser) {
    // Raw fields of what pandoc has no CSL variable for.
    f["eprint"] = a.arxiv_id;
    f["archiveprefix"] = a.arxiv_id.empty() ? "" : "arXiv";
    f["pmid"] = a.pmid;
    f["pmcid"] = a.pmcid;
  }
  return f;
}

// The entry type each reader should see for `kind`.
std::string expected_type(WorkKind kind, Reader reader) {
  static const std::map<WorkKind, std::vector<std::string>> kTypes = {
      // CSL, BibTeX, BibLaTeX, MODS genre (part of)
      {WorkKind::kArticle, {"article-journal", "article", "article", "journal article"}},
      {WorkKind::kConference,
       {"paper-conference", "inproceedings", "inproceedings", "conference publication"}},
      {WorkKind::kBook, {"book", "book", "book", "book"}},
      {WorkKind::kChapter, {"chapter", "incollection", "incollection", "book chapter"}},
      {WorkKind::kThesis, {"thesis", "phdthesis", "thesis", "thesis"}},
      {WorkKind::kReport, {"report", "techreport", "report", "report"}},
      {WorkKind::kPreprint, {"article", "misc", "misc", "unpublished"}},
      {WorkKind::kOther, {"document", "misc", "misc", ""}},
  };
  const auto& t = kTypes.at(kind);
  switch (reader) {
    case Reader::kPandocCsl:
      return t[0];
    case Reader::kBibtexparser:
      return t[1];
    case Reader::kRis2xml:
      return t[3];
    default:
      return {};  // pandoc's mapping of BibTeX types is pandoc's: not checked here
  }
}

std::vector<std::string> split_names(const std::string& names) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < names.size()) {
    std::size_t to = names.find("; ", from);
    if (to == std::string::npos) to = names.size();
    out.push_back(names.substr(from, to - from));
    from = to + 2;
  }
  return out;
}

std::string read_names(const json& names) {
  std::string out;
  for (const auto& n : names) {
    out += (out.empty() ? "" : "; ") + n[0].get<std::string>() + "|" + n[1].get<std::string>();
  }
  return out;
}

std::string names_of(const std::vector<Author>& list) {
  std::string out;
  for (const auto& n : list) out += (out.empty() ? "" : "; ") + n.family + "|" + n.given;
  return out;
}

// RIS cannot mark a name of one part (an organisation's, a CSL literal) for
// bibutils, which splits "The BABAR Collaboration" into given and family names:
// they are compared joined.
json joined_organisations(json read, const std::vector<Author>& list) {
  if (read.size() != list.size()) return read;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].given.empty()) continue;
    const std::string given = read[i][1].get<std::string>(), family = read[i][0].get<std::string>();
    std::string name = given.empty() ? family : given + " " + family;
    // All capitals are initials to bibutils ("PHENIX" -> "P H E N I X"), and it
    // drops an initial's dot (a CSL literal "David M. Blei" -> "David M" "Blei").
    auto no_spaces = [](std::string t) {
      std::erase_if(t, [](char c) { return c == ' ' || c == '.'; });
      return t;
    };
    if (no_spaces(name) == no_spaces(list[i].family)) name = list[i].family;
    read[i] = json::array({name, ""});
  }
  return read;
}

// bibutils splits run-together initials ("DK" -> "D K") and BibTeX readers
// keep the dots as written: given names compared without spaces and dots.
// `whole`: each name as its given names and family name run together.
std::string loose_names(const std::string& names, bool whole) {
  std::string out;
  for (const auto& name : split_names(names)) {
    const auto bar = name.find('|');
    std::string family = name.substr(0, bar),
                given = bar == std::string::npos ? "" : name.substr(bar + 1);
    std::erase_if(given, [](char c) { return c == ' ' || c == '.'; });
    if (whole) {
      std::string all = given + family;
      std::erase_if(all, [](char c) { return c == ' ' || c == '.'; });
      out += all + "; ";
    } else {
      out += family + "|" + given + "; ";
    }
  }
  return out;
}

// One fixture file, indexed alone in a directory of its own.
class RoundTrip {
 public:
  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", (dir_ / "index").string(), "--color", "never"});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path());
  }

  // Exports `file` (indexed alone) in every format and checks each reader's
  // reading of it; returns the mismatches, a line each (at most a few per field).
  std::vector<std::string> run_all(const fs::path& file) {
    auto r = abstracts({"index", file.string()});
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string query = "source:" + file.filename().string();
    // The hits in the order export writes them: best first, as a search gives them.
    std::vector<Abstract> expected;
    {
      const Index index = Index::open(dir_ / "index");
      SearchOptions options;
      options.limit = 1000;
      options.snippets = false;
      options.correct_spelling = false;
      for (;;) {
        const SearchResults page = index.search(query, options);
        for (const auto& hit : page.hits) expected.push_back(hit.abstract);
        if (page.hits.size() < options.limit) break;
        options.offset += page.hits.size();
      }
    }
    EXPECT_GT(expected.size(), 0u) << file;
    std::vector<std::string> problems;
    std::map<std::string, int> per_field;
    auto mismatch = [&](const std::string& where, const std::string& field, const std::string& want,
                        const std::string& got) {
      if (++per_field[where + " " + field] > 3) return;
      // From a little before the first difference.
      std::size_t at = 0;
      while (at < want.size() && at < got.size() && want[at] == got[at]) ++at;
      at = at > 40 ? at - 40 : 0;
      problems.push_back(where + " " + field + ":\n    exported: " + want.substr(at, 160) +
                         "\n    read:     " + got.substr(at, 160));
    };
    const std::vector<std::pair<std::string, std::vector<ReaderRun>>> formats = {
        {"bibtex",
         {{Reader::kPandocBibtex, "pandoc-bibtex"}, {Reader::kBibtexparser, "bibtexparser"}}},
        {"biblatex", {{Reader::kPandocBiblatex, "pandoc-biblatex"}}},
        {"ris", {{Reader::kRis2xml, "ris2xml"}}},
        {"csl-json", {{Reader::kPandocCsl, "pandoc-csljson"}}},
    };
    for (const auto& [format, readers] : formats) {
      r = abstracts({"export", "--format", format, query});
      EXPECT_EQ(r.status, 0) << format << ": " << r.err;
      const fs::path out = dir_ / ("export." + format);
      write_file(out, r.out);
      std::unordered_set<std::string> given;
      std::vector<std::string> keys;
      for (const auto& a : expected) keys.push_back(expected_key(a, given));
      for (const auto& [reader, name] : readers) {
        auto back = run(
            "/usr/bin/python3",
            {fs::path(ABSTRACTS_SOURCE_DIR) / "tests/cli/export_readback.py", name, out.string()});
        EXPECT_EQ(back.status, 0) << name << ": " << back.err;
        if (back.status != 0) continue;
        const json records = json::parse(back.out);
        EXPECT_EQ(records.size(), expected.size()) << name << " read a different number of records";
        if (records.size() != expected.size()) continue;
        for (std::size_t i = 0; i < expected.size(); ++i) {
          const Abstract& a = expected[i];
          const json& got = records[i];
          const std::string where = std::string(name) + " " + keys[i];
          auto text = [&](const std::string& field) {
            return got.contains(field) ? got[field].get<std::string>() : std::string();
          };
          for (auto [field, want] : expected_fields(a, keys[i], reader)) {
            std::string read =
                text(field == "page" && reader == Reader::kBibtexparser ? "pages" : field);
            if (reader == Reader::kBibtexparser) {
              // Raw BibTeX: only the fields pandoc's CSL has no variable for, and the type and key.
              static const std::set<std::string> kRaw = {"key",  "eprint", "archiveprefix",
                                                         "pmid", "pmcid",  "volume",
                                                         "DOI",  "ISSN",   "ISBN"};
              if (!kRaw.count(field)) continue;
              read = text(field == "DOI"    ? "doi"
                          : field == "ISSN" ? "issn"
                          : field == "ISBN" ? "isbn"
                                            : field);
            }
            if (field == "DOI") {  // a DOI is not case-sensitive; bibutils writes it in lower case
              read = ascii_lower(read);
              want = ascii_lower(want);
            }
            if (field == "page") {
              read = pages_read(read);
              want = pages_read(want);
            }
            if (field == "ISSN" || field == "ISBN") {  // a list: "a, b" (one SN line each) or "a b"
              for (std::string* list : {&read, &want}) std::replace(list->begin(), list->end(), ',', ' ');
            }
            if (reader != Reader::kBibtexparser && reader != Reader::kRis2xml) {
              read = plain_typography(read);
              want = plain_typography(want);
            }
            if (squeezed(read) != squeezed(want)) mismatch(where, field, want, read);
          }
          const std::string type = expected_type(work_kind(a), reader);
          if (!type.empty() && text("type").find(type) == std::string::npos) {
            mismatch(where, "type", type, text("type"));
          }
          if (reader != Reader::kBibtexparser) {
            auto as_written = [&](std::vector<Author> list) {
              if (reader == Reader::kRis2xml || reader == Reader::kPandocCsl) {
                for (auto& n : list) {
                  n.family = ris_text(n.family);
                  n.given = ris_text(n.given);
                }
              }
              if (reader == Reader::kRis2xml) {
                // bibutils keeps a name once (two "Li, X." of a collaboration are one).
                std::set<std::pair<std::string, std::string>> seen;
                std::erase_if(list, [&](const Author& n) {
                  return !seen.insert({n.family, n.given}).second;
                });
              }
              return list;
            };
            const std::vector<Author> authors_written = as_written(a.authors),
                                      editors_written = as_written(a.editors);
            auto names = [&](const char* field, const std::vector<Author>& list) {
              if (!got.contains(field)) return std::string();
              return read_names(reader == Reader::kRis2xml ? joined_organisations(got[field], list)
                                                           : got[field]);
            };
            // pandoc moves a lower-case word of a name to a particle as it sees fit
            // ("Ahmad ali" -> "Ahmad" and "ali"): its names are compared whole.
            const bool whole = reader != Reader::kRis2xml;
            for (const auto& [field, list] :
                 {std::pair{"author", &authors_written}, std::pair{"editor", &editors_written}}) {
              const std::string want =
                                    loose_names(squeezed(plain_typography(names_of(*list))), whole),
                                got_names = loose_names(
                                    squeezed(plain_typography(names(field, *list))), whole);
              if (got_names != want) mismatch(where, field, want, got_names);
            }
          }
        }
      }
    }
    return problems;
  }

  TempDir dir_;
};

TEST(Issue43Export, EveryRecordOfEveryRealFileReadsBackFieldByField) {
  const fs::path data = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";
  if (!fs::exists(data)) GTEST_SKIP() << "no shared data at " << data;
  for (const char* tool : {"/usr/bin/pandoc", "/usr/bin/ris2xml"}) {
    if (!fs::exists(tool)) GTEST_SKIP() << tool << " is missing: run scripts/install-deps";
  }
  for (const char* name : kFiles) {
    SCOPED_TRACE(name);
    const fs::path file = data / name;
    ASSERT_TRUE(fs::exists(file)) << file;
    const auto problems = RoundTrip().run_all(file);
    std::string all;
    for (const auto& p : problems) all += "  " + p + "\n";
    EXPECT_TRUE(problems.empty()) << name << ": " << problems.size() << " mismatches\n" << all;
  }
}

// Issue 40's injection, through `abstracts export`: a citation key that would
// end the entry and add a @preamble and another paper. Each format's export,
// indexed again, is exactly the one paper exported.
TEST(Issue43Export, AHostileKeyExportsAsOnePaperInEveryFormat) {
  TempDir dir;
  write_file(dir / "h.ris",
             "TY  - JOUR\nTI  - Real title\nDO  - 10.9/real\nID  - k1, abstract = {INJECTED "
             "abstract about "
             "zebras}, doi = {10.9/evil}}@preamble{\"\\\\immediate\\\\write18{touch "
             "/tmp/pwned}\"}@comment{\n"
             "AB  - The real abstract about numbats.\nER  - \n");
  auto abstracts = [&](std::vector<std::string> args) {
    return run(ABSTRACTS_BIN, args, sandbox_env(dir.path()), dir.path());
  };
  ASSERT_EQ(abstracts({"--index", "index", "index", "h.ris"}).status, 0);
  for (const std::string format : {"bibtex", "biblatex", "ris", "csl-json"}) {
    SCOPED_TRACE(format);
    auto r = abstracts({"--index", "index", "export", "--format", format, "--ids", "10.9/real"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(contains(r.out, "@preamble")) << r.out;
    const std::string file = "out-" + format +
                             (format == "ris"        ? ".ris"
                              : format == "csl-json" ? ".json"
                                                     : ".bib");
    write_file(dir / file, r.out);
    r = abstracts({"--index", "back-" + format, "index", file});
    ASSERT_EQ(r.status, 0) << r.err;
    r = abstracts(
        {"--index", "back-" + format, "search", "--json", "--limit", "0", "numbats OR zebras"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto hits = lines(r.out);
    ASSERT_EQ(hits.size(), 1u) << r.out;
    const json hit = json::parse(hits[0]);
    EXPECT_EQ(hit.value("doi", ""), "10.9/real");
    EXPECT_FALSE(contains(r.out, "zebras")) << r.out;
  }
}

// Exit status as search's: 0 exported, 1 nothing, 2 an error.
TEST(Issue43Export, ExitsZeroWhenExportedOneForNothingTwoOnError) {
  TempDir dir;
  write_file(dir / "a.ris", "TY  - JOUR\nTI  - T\nDO  - 10.9/a\nAB  - About numbats.\nER  - \n");
  auto abstracts = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--index", "index"});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir.path()), dir.path());
  };
  ASSERT_EQ(abstracts({"index", "a.ris"}).status, 0);
  EXPECT_EQ(abstracts({"export", "--format", "ris", "numbats"}).status, 0);
  EXPECT_EQ(abstracts({"export", "--format", "ris", "--ids", "10.9/a", "nosuchid"}).status, 0);
  auto r = abstracts({"export", "--format", "csl-json", "pangolins"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "[\n]\n") << "an empty array is still CSL-JSON";
  r = abstracts({"export", "--format", "bibtex", "--ids", "nosuchid"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, "nosuchid")) << r.err;
  r = abstracts({"export", "--format", "bibtex"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "error: export needs a query or --ids")) << r.err;
  EXPECT_EQ(abstracts({"export", "--format", "endnote", "numbats"}).status, 2);
  EXPECT_EQ(abstracts({"export", "numbats"}).status, 2) << "--format is required";
}

}  // namespace
}  // namespace abstracts::testing::issue43_export_test
