#include "query/identifiers.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "engine/schema.h"

namespace abstracts::query {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "0704.0001", "2101.00001v2": arXiv's ids since 2007.
bool is_new_arxiv(std::string_view s) {
  const auto dot = s.find('.');
  if (dot != 4 || !all_digits(s.substr(0, 4))) return false;
  std::string_view rest = s.substr(5);
  if (const auto v = rest.find('v'); v != std::string_view::npos) {
    if (!all_digits(rest.substr(v + 1))) return false;
    rest = rest.substr(0, v);
  }
  return all_digits(rest) && (rest.size() == 4 || rest.size() == 5);
}

// "hep-th/9901001", "math.CO/0309136v2": before 2007.
bool is_old_arxiv(std::string_view s) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  std::string_view archive = s.substr(0, slash), number = s.substr(slash + 1);
  if (const auto v = number.find('v'); v != std::string_view::npos) {
    if (!all_digits(number.substr(v + 1))) return false;
    number = number.substr(0, v);
  }
  if (number.size() != 7 || !all_digits(number)) return false;
  if (const auto dot = archive.find('.'); dot != std::string_view::npos) archive = archive.substr(0, dot);
  return std::all_of(archive.begin(), archive.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
}

// "10.1016/j.x": a DOI's directory indicator, its registrant's digits, a slash.
bool is_doi(std::string_view s) {
  if (!s.starts_with("10.")) return false;
  const auto slash = s.find('/');
  return slash != std::string_view::npos && slash >= 7 && slash <= 12 && all_digits(s.substr(3, slash - 3)) &&
         slash + 1 < s.size();
}

bool is_pmcid(std::string_view s) { return s.size() > 3 && lower(s.substr(0, 3)) == "pmc" && all_digits(s.substr(3)); }

// %2F -> /, as a link may carry a DOI.
std::string percent_decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// What a pasted sentence leaves around an identifier: quotes and brackets
// before it, and after it punctuation, quotes, and brackets that close nothing
// inside it ("(doi:10.1/x)." -> "doi:10.1/x"; a DOI's own "(SICI)" stays).
std::string_view strip_pasted(std::string_view t) {
  while (!t.empty() && is_blank(t.front())) t.remove_prefix(1);
  while (!t.empty() && is_blank(t.back())) t.remove_suffix(1);
  for (bool changed = true; changed && !t.empty();) {
    changed = false;
    for (std::string_view open : {"\"", "'", "(", "[", "{", "<", "\u201c", "\u2018"}) {
      if (t.starts_with(open)) {
        t.remove_prefix(open.size());
        changed = true;
      }
    }
    for (std::string_view close : {".", ",", ";", ":", "!", "?", "\"", "'", "\u201d", "\u2019"}) {
      if (t.ends_with(close)) {
        t.remove_suffix(close.size());
        changed = true;
      }
    }
    for (const auto& [open, close] : {std::pair{'(', ')'}, {'[', ']'}, {'{', '}'}, {'<', '>'}}) {
      if (!t.empty() && t.back() == close && std::count(t.begin(), t.end(), open) < std::count(t.begin(), t.end(), close)) {
        t.remove_suffix(1);
        changed = true;
      }
    }
  }
  return t;
}

std::optional<IdentifierQuery> make(std::string scheme, std::string_view value, bool certain) {
  IdentifierQuery q;
  q.value = scheme == "key" ? std::string(value) : schema::normalise_identifier(scheme, value);
  if (q.value.empty()) return std::nullopt;
  q.scheme = std::move(scheme);
  q.certain = certain;
  return q;
}

// An identifier in a link, or nullopt.
std::optional<IdentifierQuery> from_link(std::string_view t) {
  const std::string l = lower(t);
  for (std::string_view host : {"doi.org/", "dx.doi.org/"}) {
    for (std::string_view scheme : {"https://", "http://", ""}) {
      const std::string prefix = std::string(scheme) + std::string(host);
      if (l.starts_with(prefix)) return make("doi", percent_decoded(t.substr(prefix.size())), true);
    }
  }
  for (std::string_view path : {"arxiv.org/abs/", "arxiv.org/pdf/"}) {
    if (const auto at = l.find(path); at != std::string::npos) {
      std::string_view id = t.substr(at + path.size());
      if (id.ends_with(".pdf")) id.remove_suffix(4);
      while (id.ends_with('/')) id.remove_suffix(1);
      return make("arxiv", id, true);
    }
  }
  for (std::string_view path : {"pubmed.ncbi.nlm.nih.gov/", "ncbi.nlm.nih.gov/pubmed/"}) {
    if (const auto at = l.find(path); at != std::string::npos) {
      std::string_view id = t.substr(at + path.size());
      while (id.ends_with('/')) id.remove_suffix(1);
      if (all_digits(id)) return make("pmid", id, true);
    }
  }
  for (std::string_view path : {"ncbi.nlm.nih.gov/pmc/articles/", "pmc.ncbi.nlm.nih.gov/articles/"}) {
    if (const auto at = l.find(path); at != std::string::npos) {
      std::string_view id = t.substr(at + path.size());
      while (id.ends_with('/')) id.remove_suffix(1);
      if (is_pmcid(id)) return make("pmcid", id, true);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string IdentifierQuery::described() const {
  if (scheme == "doi") return "the DOI " + value;
  if (scheme == "arxiv") return "the arXiv id " + value;
  if (scheme == "pmid") return "the PMID " + value;
  if (scheme == "pmcid") return "the PMCID " + value;
  if (scheme == "isbn") return "the ISBN " + value;
  return "the citation key or id " + value;
}

std::optional<IdentifierQuery> read_identifier(std::string_view text) {
  std::string_view t = strip_pasted(text);
  if (t.empty() || t.size() > 300) return std::nullopt;
  // A label: "doi: 10.1/x", "arXiv:0704.0001", "PMID 31045810".
  std::string label;
  for (std::string_view l : {"doi", "arxiv", "pmid", "pmcid", "isbn"}) {
    if (t.size() > l.size() && lower(t.substr(0, l.size())) == l && (t[l.size()] == ':' || is_blank(t[l.size()]))) {
      label = l;
      t.remove_prefix(l.size() + 1);
      while (!t.empty() && (is_blank(t.front()) || t.front() == ':')) t.remove_prefix(1);
      break;
    }
  }
  // "ISBN 978 0 262 03384 8": an ISBN may be written with spaces.
  if (label == "isbn") return make("isbn", t, true);
  if (t.empty() || std::any_of(t.begin(), t.end(), is_blank)) return std::nullopt;
  if (label == "doi") return make("doi", t, true);
  if (label == "arxiv") return make("arxiv", t, true);
  if (label == "pmid") return all_digits(t) ? make("pmid", t, true) : std::nullopt;
  if (label == "pmcid") return is_pmcid(t) ? make("pmcid", t, true) : std::nullopt;
  if (auto linked = from_link(t)) return linked;
  if (lower(t).starts_with("http://") || lower(t).starts_with("https://")) return std::nullopt;
  if (is_doi(t)) return make("doi", t, true);
  if (is_new_arxiv(t) || is_old_arxiv(t)) return make("arxiv", t, true);
  if (is_pmcid(t)) return make("pmcid", t, true);
  // An ISBN-13 or ISBN-10 whose check digit is right (a 10-digit number with a
  // wrong one, or any longer number, is no PMID either).
  if (!schema::isbn13(t).empty()) return make("isbn", t, true);
  if (all_digits(t)) return t.size() <= 9 ? make("pmid", t, false) : std::nullopt;
  // A citation key ("Romatschke2018a", "Aaboud:2017tke") or an abstract's id.
  const bool has_digit = std::any_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool key_chars = std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.' || c == '-' || c == '+';
  });
  if (has_digit && key_chars && t.size() >= 3 && t.size() <= 100) return make("key", t, false);
  return std::nullopt;
}

std::vector<std::string> identifier_terms(const IdentifierQuery& id) {
  if (id.scheme == "key") {
    return {schema::citation_key_term(id.value), schema::id_term(id.value),
            schema::id_term(lower(id.value))};
  }
  return {schema::identifier_term(id.scheme, id.value)};
}

}  // namespace abstracts::query
