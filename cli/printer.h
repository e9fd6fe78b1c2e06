// Output of the subcommands, as text for people or JSON for programs.
#ifndef ABSTRACTS_CLI_PRINTER_H_
#define ABSTRACTS_CLI_PRINTER_H_

#include <iosfwd>
#include <memory>

#include "abstracts/abstracts.h"

namespace abstracts::cli {

class Printer {
 public:
  virtual ~Printer() = default;
  virtual void hit(const Hit& hit) = 0;
  virtual void abstract(const Abstract& abstract) = 0;
  virtual void stats(const IndexStats& stats) = 0;
  virtual void acronym(const AcronymEntry& entry) = 0;
};

// Prints the hits of a search to stdout, and with `explain` how the query was
// understood to stderr.
void print_results(const SearchResults& results, bool explain, bool json, bool color);

// Text for a terminal: colour only if `color`.
std::unique_ptr<Printer> make_text_printer(std::ostream& out, bool color);

// JSON Lines: one object per hit, abstract or stats.
std::unique_ptr<Printer> make_json_printer(std::ostream& out);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_PRINTER_H_
