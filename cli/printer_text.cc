#include <cstdio>
#include <iostream>
#include <ostream>

#include "cli/context.h"
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
  TextPrinter(std::ostream& out, bool color) : out_(out), color_(color) {}

  void hit(const Hit& h) override {
    if (printed_) out_ << '\n';
    printed_ = true;
    const Abstract& a = h.abstract;
    out_ << h.rank << "  " << location(a) << "  id " << paint(kDim, a.id) << "  score "
         << format_score(h.score) << '\n';
    out_ << "   " << paint(kBold, a.title) << '\n';
    if (!h.snippet.text.empty()) out_ << "   " << highlighted(h.snippet) << '\n';
    if (!h.explanation.empty()) {
      out_ << "   " << paint(kDim, "why:");
      for (const auto& w : h.explanation) out_ << ' ' << w.term << ' ' << format_score(w.weight);
      out_ << '\n';
    }
  }

  void acronym(const AcronymEntry& e) override {
    char count[16];
    std::snprintf(count, sizeof count, "%5llu", static_cast<unsigned long long>(e.count));
    out_ << count << "  " << paint(kBold, e.short_form) << "  " << e.long_form;
    if (!e.used) out_ << paint(kDim, "  (ambiguous: not used)");
    out_ << '\n';
  }

  void abstract(const Abstract& a) override {
    out_ << paint(kBold, a.title) << '\n';
    out_ << "id " << a.id << "  " << location(a);
    if (!a.venue.empty()) out_ << "  " << a.venue;
    if (a.year != 0) out_ << ' ' << a.year;
    out_ << "\n\n" << a.text << '\n';
  }

  void stats(const IndexStats& s) override {
    out_ << "index      " << s.path << '\n'
         << "abstracts  " << s.abstracts << '\n'
         << "files      " << s.files << '\n'
         << "terms      " << s.terms << '\n'
         << "size       " << human_size(s.size_bytes) << '\n';
  }

 private:
  std::string paint(const char* style, const std::string& text) const {
    return color_ ? style + text + kReset : text;
  }

  std::string location(const Abstract& a) const {
    if (a.source.empty()) return "-";
    return paint(kPath, display_path(a.source)) + ":" + paint(kLine, std::to_string(a.line));
  }

  std::string highlighted(const Snippet& s) const {
    if (!color_) return s.text;
    std::string out;
    std::size_t at = 0;
    for (const auto& h : s.highlights) {
      out.append(s.text, at, h.begin - at);
      out += kMatch;
      out.append(s.text, h.begin, h.end - h.begin);
      out += kReset;
      at = h.end;
    }
    out.append(s.text, at, std::string::npos);
    return out;
  }

  std::ostream& out_;
  bool color_;
  bool printed_ = false;
};

}  // namespace

void print_results(const SearchResults& results, bool explain, bool json, bool color) {
  if (explain) {
    std::cerr << "query: " << results.parsed << '\n';
    for (const auto& e : results.expansions) std::cerr << "  " << e << '\n';
  }
  auto printer = json ? make_json_printer(std::cout) : make_text_printer(std::cout, color);
  for (const auto& hit : results.hits) printer->hit(hit);
}

std::unique_ptr<Printer> make_text_printer(std::ostream& out, bool color) {
  return std::make_unique<TextPrinter>(out, color);
}

}  // namespace abstracts::cli
