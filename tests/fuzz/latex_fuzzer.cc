// Fuzzes LaTeX cleaning (engine/analysis/latex.h, through display_text()) and
// what the indexer derives from display text: the title, the content id and the
// acronym definitions. Any bytes: the query side cleans what the user typed
// without a UTF-8 check; the readers pass on only UTF-8.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "abstracts/abstract.h"
#include "engine/analysis/acronyms.h"
#include "tests/fuzz/fuzz_check.h"

using abstracts::fuzz::characters;
using abstracts::fuzz::check;
using abstracts::fuzz::is_utf8;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  const bool utf8 = is_utf8(raw);

  const std::string display = abstracts::display_text(raw);
  // Display text is stored and printed on one line: white space collapsed and trimmed.
  check(display.empty() || (display.front() != ' ' && display.back() != ' '),
        "display text is trimmed");
  check(display.find("  ") == std::string::npos, "display text has no runs of spaces");
  for (unsigned char c : display) {
    check(c >= 0x20 && c != 0x7f, "display text has no control characters");
  }
  // The JSON printer (nlohmann::json) refuses invalid UTF-8.
  if (utf8) check(is_utf8(display), "display text of UTF-8 is UTF-8");

  const std::string title = abstracts::derive_title(display);
  check(characters(title) <= 100, "a derived title has at most 100 characters");
  if (utf8) check(is_utf8(title), "a derived title of UTF-8 is UTF-8");

  abstracts::content_id(raw);

  for (const auto& d : abstracts::analysis::find_acronym_definitions(display)) {
    check(!d.short_form.empty() && !d.long_form.empty(), "an acronym definition has both forms");
    if (utf8) {
      check(is_utf8(d.short_form) && is_utf8(d.long_form),
            "acronym definitions of UTF-8 are UTF-8");
    }
  }
  return 0;
}
