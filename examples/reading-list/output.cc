#include "output.h"

#include <cstdio>
#include <filesystem>
#include <ostream>

#include "visible.h"

namespace reading_list {
namespace fs = std::filesystem;

namespace {

std::string display_path(const std::string& path) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec) return path;
  fs::path rel = fs::path(path).lexically_relative(cwd);
  if (rel.empty() || *rel.begin() == "..") return path;
  return rel.string();
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// The fields `abstracts search --json` gives an abstract (after "id").
std::string json_abstract_fields(const abstracts::Abstract& a) {
  auto or_null = [](bool known, const std::string& v) { return known ? v : std::string("null"); };
  return ",\"source\":" + or_null(!a.source.empty(), json_string(display_path(a.source))) +
         ",\"path\":" + or_null(!a.source.empty(), json_string(a.source)) +
         ",\"line\":" + or_null(a.line != 0, std::to_string(a.line)) +
         ",\"venue\":" + or_null(!a.venue.empty(), json_string(a.venue)) +
         ",\"year\":" + or_null(a.year != 0, std::to_string(a.year)) +
         ",\"title\":" + json_string(a.title);
}

class TextPrinter : public Printer {
 public:
  explicit TextPrinter(std::ostream& out) : out_(out) {}

  void entry(const std::string& id, const std::optional<abstracts::Abstract>& a) override {
    if (a) {
      out_ << visible(id) << "  " << visible(a->title) << "  " << visible(location(*a)) << '\n';
    } else {
      out_ << visible(id) << "  (not in the index)\n";
    }
  }

  void hit(const abstracts::Hit& h) override {
    if (printed_) out_ << '\n';
    printed_ = true;
    char score[32];
    std::snprintf(score, sizeof score, "%.2f", h.score);
    out_ << h.rank << "  " << visible(location(h.abstract)) << "  id " << visible(h.abstract.id)
         << "  score " << score << '\n';
    out_ << "   " << visible(h.abstract.title) << '\n';
    if (!h.snippet.text.empty()) out_ << "   " << visible(h.snippet.text) << '\n';
  }

 private:
  std::ostream& out_;
  bool printed_ = false;
};

class JsonPrinter : public Printer {
 public:
  explicit JsonPrinter(std::ostream& out) : out_(out) {}

  void entry(const std::string& id, const std::optional<abstracts::Abstract>& a) override {
    out_ << "{\"id\":" << json_string(id);
    if (a) {
      out_ << json_abstract_fields(*a) << ",\"in_index\":true}\n";
    } else {
      out_ << ",\"source\":null,\"path\":null,\"line\":null,\"venue\":null,\"year\":null,\"title\":"
              "null"
           << ",\"in_index\":false}\n";
    }
  }

  void hit(const abstracts::Hit& h) override {
    char score[32];
    std::snprintf(score, sizeof score, "%.17g", h.score);
    out_ << "{\"rank\":" << h.rank << ",\"id\":" << json_string(h.abstract.id)
         << json_abstract_fields(h.abstract) << ",\"score\":" << score
         << ",\"snippet\":" << json_string(h.snippet.text) << ",\"highlights\":[";
    for (std::size_t i = 0; i < h.snippet.highlights.size(); ++i) {
      const auto& r = h.snippet.highlights[i];
      out_ << (i == 0 ? "" : ",") << '[' << r.begin << ',' << r.end << ']';
    }
    out_ << "]}\n";
  }

 private:
  std::ostream& out_;
};

}  // namespace

std::string location(const abstracts::Abstract& a) {
  if (a.source.empty()) return "-";
  return display_path(a.source) + ":" + std::to_string(a.line);
}

std::unique_ptr<Printer> make_text_printer(std::ostream& out) {
  return std::make_unique<TextPrinter>(out);
}

std::unique_ptr<Printer> make_json_printer(std::ostream& out) {
  return std::make_unique<JsonPrinter>(out);
}

}  // namespace reading_list
