#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <ostream>

#include "cli/context.h"
#include "cli/escape.h"
#include "cli/printer.h"

namespace abstracts::cli {
namespace {

// ripgrep's palette: paths magenta, line numbers green, matches bold red.
constexpr const char* kPath = "\x1b[35m";
constexpr const char* kLine = "\x1b[32m";
constexpr const char* kMatch = "\x1b[1;31m";
constexpr const char* kBold = "\x1b[1m";
constexpr const char* kDim = "\x1b[2m";
constexpr const char* kReset = "\x1b[0m";

std::string format_score(double score) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", score);
  return buf;
}

std::string human_size(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

class TextPrinter : public Printer {
 public:
  TextPrinter(std::ostream& out, bool color, bool terminal, bool all_authors)
      : out_(out), color_(color), terminal_(terminal), all_authors_(all_authors) {}

  void query(const std::string& label, const std::string& text) override {
    if (printed_) out_ << '\n';
    printed_ = false;
    out_ << paint(kBold, "query " + escape_controls(label) + ": " + escape_controls(text)) << '\n';
  }

  void matched(std::size_t matches, bool exact, std::size_t indexed, std::size_t shown) override {
    if (!terminal_) return;  // pipes get the hits and nothing else
    std::string line = (exact ? "" : "about ") + std::to_string(matches) + " of " + count_of(indexed, "abstract");
    if (shown < matches) line += ", " + std::to_string(shown) + " shown";
    if (printed_) out_ << '\n';
    out_ << paint(kDim, line) << '\n';
    printed_ = true;
  }

  // Exact up to Lucene's default (track_total_hits), "about" beyond it: an
  // exact count of a common word in a million abstracts costs a pass over them.
  std::size_t count_matches_up_to() const override { return terminal_ ? 10000 : 0; }

  void count(const std::string& label, std::size_t matches) override {
    if (!label.empty()) out_ << escape_controls(label) << '\t';
    out_ << matches << '\n';
  }

  void hit(const Hit& h) override {
    if (printed_) out_ << '\n';
    printed_ = true;
    const Abstract& a = h.abstract;
    out_ << h.rank << "  " << location(a) << "  id " << paint(kDim, escape_controls(a.id)) << "  score "
         << format_score(h.score) << '\n';
    out_ << "   " << paint(kBold, escape_controls(a.title)) << '\n';
    if (!a.authors.empty()) out_ << "   " << paint(kDim, escape_controls(byline(a))) << '\n';
    if (!h.snippet.text.empty()) out_ << "   " << highlighted(h.snippet) << '\n';
    if (!h.explanation.empty()) {
      out_ << "   " << paint(kDim, "why:");
      for (const auto& w : h.explanation) out_ << ' ' << escape_controls(w.term) << ' ' << format_score(w.weight);
      out_ << '\n';
    }
  }

  void acronym(const AcronymEntry& e) override {
    char count[16];
    std::snprintf(count, sizeof count, "%5llu", static_cast<unsigned long long>(e.count));
    out_ << count << "  " << paint(kBold, escape_controls(e.short_form)) << "  " << escape_controls(e.long_form);
    if (!e.used) out_ << paint(kDim, "  (ambiguous: not used)");
    out_ << '\n';
  }

  // "     57  NeurIPS", as `uniq -c` counts; years on a terminal with a bar
  // each, a histogram of when the matches were written.
  void facets(const std::string& by, const std::vector<FacetCount>& counts) override {
    std::uint64_t most = 0;
    for (const auto& c : counts) most = std::max(most, c.abstracts);
    for (const auto& c : counts) {
      char count[24];
      std::snprintf(count, sizeof count, "%7llu", static_cast<unsigned long long>(c.abstracts));
      out_ << count << "  " << escape_controls(c.value);
      if (by == "year" && terminal_ && most > 0) {
        constexpr std::uint64_t kWidth = 50;
        const auto eighths = (c.abstracts * kWidth * 8 + most - 1) / most;  // a bar in eighths of a cell
        std::string bar;
        for (std::uint64_t i = 0; i < eighths / 8; ++i) bar += "\u2588";
        static const char* const kParts[] = {"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589"};
        bar += kParts[eighths % 8];
        out_ << "  " << paint(kDim, bar);
      }
      out_ << '\n';
    }
  }

  void abstract(const Abstract& a) override {
    out_ << paint(kBold, escape_controls(a.title)) << '\n';
    if (!a.authors.empty()) {
      std::string names;
      // A collaboration's thousands of names would bury the abstract.
      const std::size_t shown = all_authors_ ? a.authors.size() : 10;
      for (std::size_t i = 0; i < a.authors.size() && i < shown; ++i) {
        names += (names.empty() ? "" : ", ") + display_name(a.authors[i]);
      }
      const std::size_t all = std::max(a.author_count, a.authors.size());
      // Past the names printed (or past the 10,000 stored), how many more the source names.
      if (const std::size_t printed = std::min(shown, a.authors.size()); all > printed) {
        names += " and " + std::to_string(all - printed) + " others";
      }
      out_ << escape_controls(names) << '\n';
    }
    out_ << "id " << escape_controls(a.id) << "  " << location(a);
    if (!a.venue.empty()) out_ << "  " << escape_controls(a.venue);
    if (a.year != 0) out_ << ' ' << iso_date(a);
    for (const auto& [name, value] : {std::pair<const char*, const std::string&>{"doi", a.doi},
                                      {"arXiv", a.arxiv_id},
                                      {"PMID", a.pmid},
                                      {"key", a.citation_key}}) {
      if (!value.empty()) out_ << "  " << name << ' ' << escape_controls(value);
    }
    if (!a.categories.empty()) {
      std::string list;
      for (const auto& c : a.categories) list += (list.empty() ? "" : ", ") + c;
      out_ << "\n" << escape_controls(list);
    }
    // A Zotero item's editors, tags and collections, a line each.
    const auto line = [&](const char* label, const std::vector<std::string>& values) {
      if (values.empty()) return;
      std::string list;
      for (const auto& v : values) list += (list.empty() ? "" : ", ") + v;
      out_ << '\n' << label << escape_controls(list);
    };
    std::vector<std::string> editors;
    for (const auto& e : a.editors) editors.push_back(display_name(e));
    line("edited by ", editors);
    line("tags: ", a.tags);
    line("collections: ", a.collections);
    out_ << "\n\n" << escape_controls(a.text) << '\n';
  }

  void source(const SourceStatus& s) override {
    char line[64];
    std::snprintf(line, sizeof line, "%-6s %9llu  %s  ", to_string(s.source.kind),
                  static_cast<unsigned long long>(s.abstracts),
                  s.source.last_sync == 0 ? "never synced    " : local_time(s.source.last_sync).c_str());
    out_ << line << escape_controls(s.source.path.string());
    for (const auto& g : s.source.globs) out_ << " -g " << escape_controls(g);
    out_ << (s.present ? "" : "  (gone)") << '\n';
  }

  void stats(const IndexStats& s) override {
    out_ << "index      " << escape_controls(s.path) << '\n'
         << "abstracts  " << s.abstracts << '\n'
         << "files      " << s.files << '\n'
         << "terms      " << s.terms << '\n'
         << "size       " << human_size(s.size_bytes) << '\n';
    if (s.vectors > 0) {
      out_ << "vectors    " << s.vectors << (s.graph > 0 ? "  (graph of " + std::to_string(s.graph) + ")" : "")
           << '\n';
    }
  }

 private:
  std::string paint(const char* style, const std::string& text) const {
    return color_ ? style + text + kReset : text;
  }

  // "Balázs, Berger, Nadolsky 2007", "Balázs, Berger et al. 2007": family names
  // (two and "et al." for more than three), and the year.
  static std::string byline(const Abstract& a) {
    std::string line;
    const std::size_t shown = a.authors.size() > 3 ? 2 : a.authors.size();
    for (std::size_t i = 0; i < shown; ++i) {
      line += (i > 0 ? ", " : "") + (a.authors[i].family.empty() ? a.authors[i].given : a.authors[i].family);
    }
    if (a.authors.size() > shown) line += " et al.";
    if (a.year != 0) line += ' ' + std::to_string(a.year);
    return line;
  }

  std::string location(const Abstract& a) const {
    // A Zotero item has no line: its link opens it in Zotero.
    if (!a.zotero_key.empty()) return paint(kPath, escape_controls(zotero_link(a)));
    if (a.source.empty()) return "-";
    return paint(kPath, escape_controls(display_path(a.source))) + ":" + paint(kLine, std::to_string(a.line));
  }

  std::string highlighted(const Snippet& s) const {
    if (!color_) return escape_controls(s.text);
    const std::string_view text(s.text);
    std::string out;
    std::size_t at = 0;
    for (const auto& h : s.highlights) {
      out += escape_controls(text.substr(at, h.begin - at));
      out += kMatch;
      out += escape_controls(text.substr(h.begin, h.end - h.begin));
      out += kReset;
      at = h.end;
    }
    out += escape_controls(text.substr(at));
    return out;
  }

  std::ostream& out_;
  bool color_;
  bool terminal_;
  bool all_authors_;
  bool printed_ = false;
};

}  // namespace

std::size_t print_hits(Printer& printer, SearchOptions options,
                       const std::function<SearchResults(const SearchOptions&, bool first)>& fetch) {
  // 5,000 hits hold about 11 MB; smaller pages cost more queries (1,000: --limit
  // 100000 on 115k abstracts took 9.5 s, 5,000: 6.1 s, one call: 4.5 s and 216 MB).
  constexpr std::size_t kPage = 5000;
  // --limit 0 is every hit, as for `stats --by`.
  const std::size_t wanted = options.limit == 0 ? SIZE_MAX : options.limit, skipped = options.offset;
  options.count_matches_up_to = std::max(options.count_matches_up_to, printer.count_matches_up_to());
  std::size_t printed = 0, matches = 0, indexed = 0;
  bool exact = false;
  for (bool first = true; printed < wanted; first = false) {
    options.limit = std::min(kPage, wanted - printed);
    const SearchResults page = fetch(options, first);
    if (first) {
      if (options.explain) {
        std::cerr << "query: " << escape_controls(page.parsed) << '\n';
        for (const auto& e : page.expansions) std::cerr << "  " << escape_controls(e) << '\n';
      }
      matches = page.estimated_matches;
      exact = page.exact_matches;
      indexed = page.indexed_abstracts;
    }
    for (const auto& hit : page.hits) printer.hit(hit);
    printed += page.hits.size();
    if (page.hits.size() < options.limit) {
      // The last hit: the count is known, whatever the estimate said.
      if (printed > 0 || skipped == 0) matches = skipped + printed, exact = true;
      break;
    }
    options.offset += page.hits.size();
    options.correct_spelling = false;
  }
  printer.matched(matches, exact, indexed, printed);
  return printed;
}

std::unique_ptr<Printer> make_printer(bool json, const Context& ctx) {
  if (json) return make_json_printer(std::cout);
  return make_text_printer(std::cout, ctx.use_color(), isatty(STDOUT_FILENO) != 0, ctx.all_authors);
}

std::unique_ptr<Printer> make_text_printer(std::ostream& out, bool color, bool terminal, bool all_authors) {
  return std::make_unique<TextPrinter>(out, color, terminal, all_authors);
}

}  // namespace abstracts::cli
