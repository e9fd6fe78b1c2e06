// Output of the subcommands, as text for people or JSON for programs.
#ifndef ABSTRACTS_CLI_PRINTER_H_
#define ABSTRACTS_CLI_PRINTER_H_

#include <cstddef>
#include <functional>
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

// Prints options.limit hits from options.offset to stdout, fetched from `fetch` a
// page at a time, so that --limit 100000 holds one page of abstracts in memory,
// not all of them. With options.explain, how the query was understood goes to
// stderr, once. `fetch` is told whether it fetches the first page; later pages
// are fetched without spelling correction (a page past the last hit must not
// search for another query). Returns the number of hits printed.
std::size_t print_hits(SearchOptions options, bool json, bool color,
                       const std::function<SearchResults(const SearchOptions&, bool first)>& fetch);

// Text for a terminal: colour only if `color`.
std::unique_ptr<Printer> make_text_printer(std::ostream& out, bool color);

// JSON Lines: one object per hit, abstract or stats.
std::unique_ptr<Printer> make_json_printer(std::ostream& out);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_PRINTER_H_
