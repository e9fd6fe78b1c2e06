// Text from users and sources made safe to print on a terminal.
#ifndef READING_LIST_VISIBLE_H_
#define READING_LIST_VISIBLE_H_

#include <string>
#include <string_view>

namespace reading_list {

// `text` with every character that could act on a terminal or reorder what it
// shows made visible as an escape: C0 controls and DEL as "\x1b" ("\t", "\n"
// and "\r" for those three), C1 controls as "\u{9b}", the line and paragraph
// separators U+2028 and U+2029, and the bidi overrides and isolates
// U+202A-U+202E and U+2066-U+2069 as "\u{202e}", and a byte that is not UTF-8
// as "\xff". Everything else is kept as it is. Every id, title, path, query and
// error message that reading-list prints as text goes through here; JSON output
// and exports escape for their own formats instead.
std::string visible(std::string_view text);

}  // namespace reading_list

#endif  // READING_LIST_VISIBLE_H_
