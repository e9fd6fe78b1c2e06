// Output of the subcommands, as text for people or JSON for programs.
#ifndef ABSTRACTS_CLI_PRINTER_H_
#define ABSTRACTS_CLI_PRINTER_H_

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "abstracts/abstracts.h"
#include "cli/context.h"

namespace abstracts::cli {

class Printer {
 public:
  virtual ~Printer() = default;
  virtual void hit(const Hit& hit) = 0;
  virtual void abstract(const Abstract& abstract) = 0;
  virtual void stats(const IndexStats& stats) = 0;
  // The values of `stats --by FACET` ("year", "venue", ...) and their counts.
  virtual void facets(const std::string& by, const std::vector<FacetCount>& counts) = 0;
  virtual void acronym(const AcronymEntry& entry) = 0;
  // One source of the index (`abstracts sources`).
  virtual void source(const SourceStatus& source) = 0;
  // Heads the hits of one query of a batch (search --queries): `label` is its
  // id, or its line number in the file.
  virtual void query(const std::string& label, const std::string& text) = 0;
  // After a search's hits: how many abstracts matched (exactly, or Xapian's
  // estimate), of how many, and how many were shown. Text on a terminal only.
  virtual void matched(std::size_t matches, bool exact, std::size_t indexed, std::size_t shown) = 0;
  // Up to how many matches Printer::matched wants counted exactly (0: it
  // prints nothing).
  virtual std::size_t count_matches_up_to() const { return 0; }
  // The number of matches alone (search --count), for the query `label` of a
  // batch ("" for a single query).
  virtual void count(const std::string& label, std::size_t matches) = 0;
};

// Prints options.limit hits (0: all) from options.offset with `printer`, fetched from
// `fetch` a page at a time, so that --limit 100000 holds one page of abstracts in
// memory, not all of them; then Printer::matched. With options.explain, how the
// query was understood goes to stderr, once. `fetch` is told whether it fetches
// the first page; later pages are fetched without spelling correction (a page
// past the last hit must not search for another query). Returns the number of
// hits printed.
std::size_t print_hits(Printer& printer, SearchOptions options,
                       const std::function<SearchResults(const SearchOptions&, bool first)>& fetch);

// The printer a subcommand's output goes to stdout with: JSON Lines if `json`,
// else text, coloured as `ctx` says, with Printer::matched if stdout is a
// terminal.
std::unique_ptr<Printer> make_printer(bool json, const Context& ctx);

// Text for people: colour only if `color`; Printer::matched only if `terminal`;
// an abstract's every author with `all_authors`, else the first ten.
std::unique_ptr<Printer> make_text_printer(std::ostream& out, bool color, bool terminal, bool all_authors = false);

// JSON Lines: one object per hit, abstract or stats; a batch's hits carry
// "query" (Printer::query's label).
std::unique_ptr<Printer> make_json_printer(std::ostream& out);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_PRINTER_H_
