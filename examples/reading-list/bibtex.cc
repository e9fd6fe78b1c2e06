#include "bibtex.h"

namespace reading_list {

std::string bibtex_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '%':
      case '&':
      case '$':
      case '#':
      case '_':
        out += '\\';
        out += c;
        break;
      case '{':
        out += "\\textbraceleft{}";
        break;
      case '}':
        out += "\\textbraceright{}";
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string bibtex_entry(const abstracts::Abstract& a, std::string_view location) {
  std::string venue = a.venue;
  if (a.year != 0) {
    if (!venue.empty()) venue += ' ';
    venue += std::to_string(a.year);
  }
  std::string out = (a.venue.empty() ? "@misc{" : "@inproceedings{") + a.id + ",\n";
  auto field = [&out](std::string_view name, const std::string& value) {
    out += "  ";
    out += name;
    out += std::string(12 - name.size(), ' ') + "= {" + value + "},\n";
  };
  // Double braces keep the title's capitals (LLMs, BERT) in every style.
  std::string title = "{";
  title += bibtex_escape(a.title);
  title += '}';
  field("title", title);
  if (!a.venue.empty()) {
    field("booktitle", bibtex_escape(venue));
  } else if (!venue.empty()) {
    field("howpublished", bibtex_escape(venue));
  }
  if (a.year != 0) field("year", std::to_string(a.year));
  if (!location.empty()) field("note", bibtex_escape(location));
  field("abstract", bibtex_escape(a.text));
  out.erase(out.size() - 2, 1);  // no comma after the last field
  out += "}\n\n";
  return out;
}

}  // namespace reading_list
