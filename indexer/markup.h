// Markup inside bibliographic text: HTML in CSL-JSON abstracts ("<p>",
// "<sup>2</sup>"), and the entities that come with it.
#ifndef ABSTRACTS_INDEXER_MARKUP_H_
#define ABSTRACTS_INDEXER_MARKUP_H_

#include <string>
#include <string_view>

namespace abstracts::indexer {

// `text` without its tags ("<p>", "</strong>", "<sup>"), a block tag ("p",
// "br", "div", "li", "h1"-"h6") leaving a space; entities decoded ("&amp;",
// "&lt;", "&#13;", "&#x2013;"). A '<' that starts no tag ("p < 0.05") stays.
std::string strip_markup(std::string_view text);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_MARKUP_H_
