// What reading-list prints: list entries and hits, as text or JSON Lines.
#ifndef READING_LIST_OUTPUT_H_
#define READING_LIST_OUTPUT_H_

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "abstracts/abstracts.h"

namespace reading_list {

// `source:line` of an abstract, with the source relative to the current
// directory when it lies below it; "-" for an abstract added without a file.
std::string location(const abstracts::Abstract& abstract);

class Printer {
 public:
  virtual ~Printer() = default;
  // One entry of the list; `abstract` is empty when the index lacks the id.
  virtual void entry(const std::string& id, const std::optional<abstracts::Abstract>& abstract) = 0;
  // One hit of a search or suggestion.
  virtual void hit(const abstracts::Hit& hit) = 0;
};

// Text for people: an entry per line ("id  title  source:line"), hits as
// `abstracts search` prints them; every string through visible().
std::unique_ptr<Printer> make_text_printer(std::ostream& out);

// JSON Lines for programs: one object per entry or hit, with the fields of
// `abstracts search --json`.
std::unique_ptr<Printer> make_json_printer(std::ostream& out);

}  // namespace reading_list

#endif  // READING_LIST_OUTPUT_H_
