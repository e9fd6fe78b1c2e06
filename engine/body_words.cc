#include "engine/body_words.h"

#include <algorithm>

#include "engine/analysis/stop_words.h"

namespace abstracts::body_words {

void read(const analysis::Analyzer& analyzer, std::string_view title, std::string_view text, bool title_in_text,
          std::vector<Occurrence>& body, std::vector<std::string_view>& title_words) {
  std::vector<analysis::IndexWord> in_title, in_text;
  in_text.reserve(text.size() / 6 + 1);  // about one word per 6-7 bytes of English
  analyzer.index_words(title, in_title);
  analyzer.index_words(text, in_text);
  body.reserve(body.size() + in_title.size() + in_text.size());
  Xapian::termpos offset = 0;
  for (const auto& t : in_title) {
    if (!title_in_text) offset = t.position + kTitleGap;
    if (analysis::is_stop_word(t.term)) continue;
    title_words.push_back(t.term);
    // The body term: once for the word (unless the text, which then starts with
    // the title, counts it) and kTitleExtraWdf times more for being in the title.
    body.push_back({t.term, title_in_text ? kNoPosition : t.position, (title_in_text ? 0 : 1) + kTitleExtraWdf});
  }
  for (const auto& t : in_text) {
    if (analysis::is_stop_word(t.term)) continue;
    body.push_back({t.term, offset + t.position, 1});
  }
}

std::vector<std::pair<std::string, Xapian::termcount>> counts(const analysis::Analyzer& analyzer,
                                                               std::string_view title, std::string_view text,
                                                               bool title_in_text) {
  const analysis::DocumentScope document{analyzer};
  std::vector<Occurrence> body;
  std::vector<std::string_view> title_words;
  read(analyzer, title, text, title_in_text, body, title_words);
  std::sort(body.begin(), body.end());
  std::vector<std::pair<std::string, Xapian::termcount>> out;
  for (std::size_t i = 0, j; i < body.size(); i = j) {
    Xapian::termcount wdf = 0;
    for (j = i; j < body.size() && body[j].term == body[i].term; ++j) wdf += body[j].wdf;
    out.emplace_back(body[i].term, wdf);
  }
  return out;
}

}  // namespace abstracts::body_words
