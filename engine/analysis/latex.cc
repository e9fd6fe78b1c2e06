#include "engine/analysis/latex.h"

#include "engine/analysis/unicode_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace abstracts::analysis {
namespace {

// Combining mark for a LaTeX accent macro: \'e -> e + U+0301 -> é (after NFC).
const char* accent_mark(std::string_view accent) {
  static const std::unordered_map<std::string_view, const char*> kMarks = {
      {"'", "\u0301"}, {"`", "\u0300"}, {"^", "\u0302"}, {"\"", "\u0308"}, {"~", "\u0303"},
      {"=", "\u0304"}, {".", "\u0307"}, {"u", "\u0306"}, {"v", "\u030C"}, {"H", "\u030B"},
      {"c", "\u0327"}, {"k", "\u0328"}, {"r", "\u030A"}, {"d", "\u0323"}, {"b", "\u0331"},
  };
  auto it = kMarks.find(accent);
  return it == kMarks.end() ? nullptr : it->second;
}

// Letters and symbols written as control words.
const std::unordered_map<std::string_view, std::string_view>& symbols() {
  static const std::unordered_map<std::string_view, std::string_view> kSymbols = {
      // Letters that are macros in text mode: \ss -> ß, \o -> ø.
      {"ss", "ß"}, {"o", "ø"}, {"O", "Ø"}, {"ae", "æ"}, {"AE", "Æ"}, {"oe", "œ"},
      {"OE", "Œ"}, {"aa", "å"}, {"AA", "Å"}, {"l", "ł"}, {"L", "Ł"}, {"i", "ı"},
      {"j", "ȷ"},
      // Greek.
      {"sqrt", "√"},
      {"alpha", "α"}, {"beta", "β"}, {"gamma", "γ"}, {"delta", "δ"}, {"epsilon", "ε"},
      {"varepsilon", "ε"}, {"zeta", "ζ"}, {"eta", "η"}, {"theta", "θ"}, {"vartheta", "ϑ"},
      {"iota", "ι"}, {"kappa", "κ"}, {"lambda", "λ"}, {"mu", "μ"}, {"nu", "ν"}, {"xi", "ξ"},
      {"pi", "π"}, {"varpi", "ϖ"}, {"rho", "ρ"}, {"varrho", "ϱ"}, {"sigma", "σ"},
      {"varsigma", "ς"}, {"tau", "τ"}, {"upsilon", "υ"}, {"phi", "φ"}, {"varphi", "φ"},
      {"chi", "χ"}, {"psi", "ψ"}, {"omega", "ω"}, {"Gamma", "Γ"}, {"Delta", "Δ"},
      {"Theta", "Θ"}, {"Lambda", "Λ"}, {"Xi", "Ξ"}, {"Pi", "Π"}, {"Sigma", "Σ"},
      {"Upsilon", "Υ"}, {"Phi", "Φ"}, {"Psi", "Ψ"}, {"Omega", "Ω"},
      // Symbols.
      {"rightarrow", "→"}, {"to", "→"}, {"leftarrow", "←"}, {"gets", "←"},
      {"Rightarrow", "⇒"}, {"Leftarrow", "⇐"}, {"leftrightarrow", "↔"},
      {"Leftrightarrow", "⇔"}, {"mapsto", "↦"}, {"uparrow", "↑"}, {"downarrow", "↓"},
      {"leq", "≤"}, {"le", "≤"}, {"geq", "≥"}, {"ge", "≥"}, {"neq", "≠"}, {"ne", "≠"},
      {"approx", "≈"}, {"sim", "∼"}, {"simeq", "≃"}, {"equiv", "≡"}, {"propto", "∝"},
      {"ll", "≪"}, {"gg", "≫"}, {"times", "×"}, {"cdot", "·"}, {"cdots", "⋯"},
      {"ldots", "…"}, {"dots", "…"}, {"pm", "±"}, {"mp", "∓"}, {"infty", "∞"},
      {"partial", "∂"}, {"nabla", "∇"}, {"sum", "∑"}, {"prod", "∏"}, {"int", "∫"},
      {"in", "∈"}, {"notin", "∉"}, {"subset", "⊂"}, {"subseteq", "⊆"}, {"cup", "∪"},
      {"cap", "∩"}, {"forall", "∀"}, {"exists", "∃"}, {"emptyset", "∅"}, {"ell", "ℓ"},
      {"circ", "∘"}, {"star", "⋆"}, {"ast", "∗"}, {"dagger", "†"}, {"top", "⊤"},
      {"mid", "|"}, {"vert", "|"}, {"Vert", "‖"}, {"lvert", "|"}, {"rvert", "|"},
      {"lVert", "‖"}, {"rVert", "‖"}, {"langle", "⟨"}, {"rangle", "⟩"}, {"prime", "′"},
      {"textendash", "–"}, {"textemdash", "—"}, {"S", "§"}, {"P", "¶"},
      {"checkmark", "✓"}, {"degree", "°"}, {"textdegree", "°"},
      // What an export escapes (abstracts::bibtex_escape): ~ and ^ are LaTeX's tie and superscript.
      {"textasciitilde", "~"}, {"textasciicircum", "^"}, {"textbackslash", "\\"},
      // Named functions are words.
      {"log", "log"}, {"ln", "ln"}, {"exp", "exp"}, {"sin", "sin"}, {"cos", "cos"},
      {"tan", "tan"}, {"max", "max"}, {"min", "min"}, {"arg", "arg"}, {"argmax", "argmax"},
      {"argmin", "argmin"}, {"sup", "sup"}, {"inf", "inf"}, {"lim", "lim"}, {"det", "det"},
      {"Pr", "Pr"}, {"tanh", "tanh"}, {"deg", "deg"}, {"dim", "dim"}, {"ker", "ker"},
      // Spacing.
      {"quad", " "}, {"qquad", " "}, {"enspace", " "}, {"space", " "}, {"newline", " "},
      {"par", " "}, {"noindent", ""}, {"LaTeX", "LaTeX"}, {"TeX", "TeX"},
  };
  return kSymbols;
}

// Text-mode letters written as macros: \ss -> ß, \o -> ø.
bool is_text_letter(std::string_view name) {
  static const std::unordered_set<std::string_view> kLetters = {
      "ss", "o", "O", "ae", "AE", "oe",
      "OE", "aa", "AA", "l", "L", "i",
      "j",
  };
  return kLetters.count(name) != 0;
}

// Commands whose argument is not text: dropped with it.
bool drops_argument(std::string_view name) {
  static const std::unordered_set<std::string_view> kDrop = {
      "cite", "citep", "citet", "ref", "eqref",
      "label", "begin", "end", "vspace", "hspace",
      "includegraphics", "bibliography", "footnotemark",
  };
  return kDrop.count(name) != 0;
}

// Letters that take a control-word accent, "\v{c}" or "\v c".
bool is_letter_accent(std::string_view name) {
  return name.size() == 1 && std::string_view("uvHckrdb").find(name[0]) != std::string_view::npos;
}

// The bytes step() treats specially; every other byte is copied as it is.
constexpr std::array<bool, 256> kMayStartMarkup = [] {
  std::array<bool, 256> table{};
  for (unsigned char c : std::string_view("\\$-{}^_")) table[c] = true;
  return table;
}();

bool may_start_markup(char c) { return kMayStartMarkup[static_cast<unsigned char>(c)]; }

// The superscript and subscript forms Unicode has of digits and signs: "x^2" in
// math is shown "x²" ("$\sqrt{s}=7$ TeV" is "√s=7 TeV"); NFKC folds them back
// for search, so the terms are those of "x 2".
std::string_view script_form(char c, bool super) {
  static const char* const kSuper[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  static const char* const kSub[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  if (c >= '0' && c <= '9') return super ? kSuper[c - '0'] : kSub[c - '0'];
  switch (c) {
    case '+': return super ? "⁺" : "₊";
    case '-': return super ? "⁻" : "₋";
    case '=': return super ? "⁼" : "₌";
    case '(': return super ? "⁽" : "₍";
    case ')': return super ? "⁾" : "₎";
  }
  return {};
}

class Converter {
 public:
  explicit Converter(std::string_view s) : s_(s) { find_math_delimiters(); }

  std::string run() {
    out_.reserve(s_.size());
    while (i_ < s_.size()) {
      // Most of an abstract is plain text: copied in runs up to the next byte
      // that may start markup.
      std::size_t end = i_;
      while (end < s_.size() && !may_start_markup(s_[end])) ++end;
      out_.append(s_.substr(i_, end - i_));
      i_ = end;
      if (i_ < s_.size()) step();
    }
    return std::move(out_);
  }

 private:
  // Marks the '$' and '$$' that open or close math; a lone unpaired '$' (a price)
  // is text. Escaped "\$" is never a delimiter: a backslash takes the character
  // after it, so a '$' is escaped when an odd run of backslashes comes before it.
  void find_math_delimiters() {
    std::vector<std::size_t> dollars;
    for (std::size_t i = s_.find('$'); i != std::string_view::npos; i = s_.find('$', i)) {
      std::size_t backslashes = 0;
      while (backslashes < i && s_[i - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 1) {
        ++i;
        continue;
      }
      dollars.push_back(i);
      i += (i + 1 < s_.size() && s_[i + 1] == '$') ? 2 : 1;
    }
    if (dollars.size() % 2 == 1) dollars.pop_back();
    math_dollars_.assign(dollars.begin(), dollars.end());
  }

  // math_dollars_ is in text order: a search, not a scan (a text of many '$',
  // as BibTeX macros doubled over and over make, was quadratic).
  bool is_math_dollar(std::size_t i) const {
    return std::binary_search(math_dollars_.begin(), math_dollars_.end(), i);
  }

  void step() {
    char c = s_[i_];
    if (c == '\\') {
      command();
    } else if (c == '$') {
      if (is_math_dollar(i_)) {
        i_ += (i_ + 1 < s_.size() && s_[i_ + 1] == '$') ? 2 : 1;
        in_math_ = !in_math_;
      } else {
        out_ += c;
        ++i_;
      }
    } else if (c == '-' && s_.substr(i_, 2) == "--") {
      // TeX ligatures: "input--output" -> "input–output", "---" -> "—".
      bool em = s_.substr(i_, 3) == "---";
      out_ += em ? "—" : "–";
      i_ += em ? 3 : 2;
    } else if ((c == '^' || c == '_') && in_math_) {
      script(c == '^');
    } else if (c == '{' || c == '}') {
      // Grouping braces go; "}{" between two arguments (\frac{a}{b}) keeps them
      // apart, but not a letter from the next: BibTeX names are written
      // "{\L}{\'o}d{\'z}" and "Wa{\l}{\k{e}}sa".
      if (c == '}' && i_ + 1 < s_.size() && s_[i_ + 1] == '{' && !opens_special_letter(i_ + 1)) out_ += ' ';
      ++i_;
    } else {
      out_ += c;
      ++i_;
    }
  }

  // In math, "^2", "^{10}", "_{+1}": a superscript or subscript, shown as
  // Unicode writes it when it has a form of every character; else as written.
  void script(bool super) {
    const std::size_t at = i_ + 1;
    std::string_view arg;
    std::size_t next = at;
    if (at < s_.size() && s_[at] == '{') {
      const auto close = s_.find('}', at);
      if (close != std::string_view::npos) {
        arg = s_.substr(at + 1, close - at - 1);
        next = close + 1;
      }
    } else if (at < s_.size()) {
      arg = s_.substr(at, 1);
      next = at + 1;
    }
    std::string shown;
    for (char ch : arg) {
      const auto form = script_form(ch, super);
      if (form.empty()) {
        shown.clear();
        break;
      }
      shown += form;
    }
    if (shown.empty()) {
      out_ += s_[i_];
      ++i_;
      return;
    }
    out_ += shown;
    i_ = next;
  }

  // True if the group at `j` is one letter written as a BibTeX special
  // character: "{\'o}", "{\k{e}}", "{\ss}".
  bool opens_special_letter(std::size_t j) const {
    if (j + 2 >= s_.size() || s_[j] != '{' || s_[j + 1] != '\\') return false;
    if (std::string_view("'`^\"~=.").find(s_[j + 2]) != std::string_view::npos) return true;
    std::size_t end = j + 2;
    while (end < s_.size() && is_ascii_letter(s_[end])) ++end;
    const std::string_view name = s_.substr(j + 2, end - j - 2);
    return is_letter_accent(name) || is_text_letter(name);
  }

  // Reads one accent argument: "{e}", "{\i}", "e", "\i", or a whole UTF-8 letter.
  std::string accent_argument() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
    if (i_ >= s_.size()) return {};
    if (s_[i_] == '{') {
      auto close = s_.find('}', i_);
      if (close == std::string_view::npos) close = s_.size();
      std::string inner(s_.substr(i_ + 1, close - i_ - 1));
      i_ = close + 1;
      return dotless_to_plain(inner);
    }
    if (s_[i_] == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == 'i' || s_[i_ + 1] == 'j') &&
        (i_ + 2 >= s_.size() || !is_ascii_letter(s_[i_ + 2]))) {
      std::string letter(1, s_[i_ + 1]);
      i_ += 2;
      return letter;
    }
    std::size_t len = 1;
    auto lead = static_cast<unsigned char>(s_[i_]);
    if (lead >= 0xF0) {
      len = 4;
    } else if (lead >= 0xE0) {
      len = 3;
    } else if (lead >= 0xC0) {
      len = 2;
    }
    std::string letter(s_.substr(i_, len));
    i_ += len;
    return letter;
  }

  // "\i" inside an accent is the dotless i that takes the accent: \'{\i} -> í.
  static std::string dotless_to_plain(std::string inner) {
    if (inner == "\\i") return "i";
    if (inner == "\\j") return "j";
    return inner;
  }

  void apply_accent(std::string_view accent) {
    std::string base = accent_argument();
    if (base.empty()) return;
    out_ += base;
    out_ += accent_mark(accent);
  }

  // Skips one balanced brace group at i_ (after optional spaces), if there is one.
  void skip_group() {
    std::size_t j = i_;
    while (j < s_.size() && s_[j] == ' ') ++j;
    if (j >= s_.size() || s_[j] != '{') return;
    int depth = 0;
    for (; j < s_.size(); ++j) {
      if (s_[j] == '\\') {
        ++j;
      } else if (s_[j] == '{') {
        ++depth;
      } else if (s_[j] == '}' && --depth == 0) {
        i_ = j + 1;
        return;
      }
    }
    i_ = s_.size();
  }

  void command() {
    ++i_;  // the backslash
    if (i_ >= s_.size()) return;
    char c = s_[i_];
    if (!is_ascii_letter(c)) {
      ++i_;
      control_symbol(c);
      return;
    }
    std::size_t start = i_;
    while (i_ < s_.size() && is_ascii_letter(s_[i_])) ++i_;
    std::string_view name = s_.substr(start, i_ - start);
    if (is_letter_accent(name) && i_ < s_.size() && (s_[i_] == '{' || s_[i_] == ' ')) {
      apply_accent(name);
      return;
    }
    const auto& table = symbols();
    if (auto it = table.find(name); it != table.end()) {
      out_ += it->second;
      // "\ss{}" and "\o rsted": the empty group or the space that ends a text-mode
      // letter macro is not text.
      if (is_text_letter(name)) {
        if (s_.substr(i_, 2) == "{}") {
          i_ += 2;
        } else if (i_ < s_.size() && s_[i_] == ' ') {
          ++i_;
        }
      }
      return;
    }
    if (drops_argument(name)) {
      skip_group();
      return;
    }
    if (name == "href") {
      skip_group();  // the URL; the link text stays
      return;
    }
    // Text and font commands (\emph, \textbf, \mathbf, ...) and any other command:
    // the name goes, an argument in braces stays as text.
    if (i_ < s_.size() && s_[i_] != '{' && s_[i_] != ' ' && !out_.empty() && out_.back() != ' ') {
      out_ += ' ';
    }
  }

  // A backslash followed by a non-letter.
  void control_symbol(char c) {
    switch (c) {
      case '\'': case '`': case '^': case '"': case '~': case '=': case '.':
        if (i_ < s_.size() && (s_[i_] == '{' || is_ascii_letter(s_[i_]) ||
                               static_cast<unsigned char>(s_[i_]) >= 0x80 || s_[i_] == '\\')) {
          apply_accent(std::string_view(&c, 1));
        } else {
          out_ += c;
        }
        return;
      case '%': case '&': case '_': case '#': case '$': case '{': case '}':
        out_ += c;
        return;
      case '\\': case ',': case ';': case ':': case '>': case ' ':
        out_ += ' ';
        return;
      case '(': case '[':  // math delimiters \( \) \[ \]: "Top-\(K\)" -> "Top-K"
        in_math_ = true;
        return;
      case ')': case ']':
        in_math_ = false;
        return;
      case '!': case '/': case '@': case '-':  // negative space, italic correction, hyphenation
        return;
      default:
        out_ += c;
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string out_;
  std::vector<std::size_t> math_dollars_;
  bool in_math_ = false;
};

}  // namespace

std::string latex_to_text(std::string_view raw) {
  return collapse_spaces(to_nfc(Converter(raw).run()));
}

}  // namespace abstracts::analysis
