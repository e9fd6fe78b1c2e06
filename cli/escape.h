// What the CLI prints of text it did not write (titles, snippets, paths, ids,
// queries, messages), made safe for a terminal: the one place that decides
// which characters are shown as escapes, for the text output, stderr and JSON.
#ifndef ABSTRACTS_CLI_ESCAPE_H_
#define ABSTRACTS_CLI_ESCAPE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace abstracts::cli {

// `text` with what could drive a terminal written as a visible escape: the C0
// controls (tab and newline too) and DEL as `\x1b`, bytes that are not UTF-8 as
// `\xff`, the C1 controls (U+0080-U+009F, which some terminals obey as ESC
// sequences) and the bidi embeddings, overrides and isolates (U+202A-U+202E,
// U+2066-U+2069, which reorder what follows them) as `\u{9b}`, `\u{202e}`.
// So a file's name, an abstract or an argument cannot move the cursor, forge a
// line of output or disguise what it says. Everything else is copied as is.
std::string escape_controls(std::string_view text);

// `json`, a JSON text (as nlohmann::json::dump writes it: valid UTF-8, with the
// C0 controls already escaped), with DEL, the C1 controls and the bidi controls
// of escape_controls() written as \u escapes (\u007f, \u009b, \u202e): the
// document means the same to a parser, and a terminal showing it is safe.
std::string escape_json_controls(std::string json);

// The offset of the first byte of `text` that is not part of well-formed UTF-8
// (no overlong forms, surrogates or code points past U+10FFFF), or npos.
std::size_t find_invalid_utf8(std::string_view text);

// `bytes` in base64 (RFC 4648, with padding).
std::string base64(std::string_view bytes);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_ESCAPE_H_
