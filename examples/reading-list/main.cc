// reading-list: keep a personal list of papers, search it, and find more like it.
// Built only on the public API of the abstracts library (and CLI11).
// Exit status: 0 when something was done or found, 1 when nothing was found,
// 2 on error (with "error: ..." and "hint: ..." on stderr).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "abstracts/abstracts.h"
#include "list_search.h"
#include "output.h"
#include "reading_list.h"
#include "visible.h"

namespace {

namespace fs = std::filesystem;
using abstracts::Abstract;
using abstracts::Error;
using abstracts::Index;
using reading_list::ListLock;
using reading_list::ReadingList;
using reading_list::visible;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// What every command shares: where the list and the index are.
struct Context {
  std::string list_option;   // --list, "" if not given
  std::string index_option;  // --index, "" if not given

  // --list, else $READING_LIST, else $XDG_DATA_HOME/abstracts/reading-list.txt,
  // else ~/.local/share/abstracts/reading-list.txt.
  fs::path list_file() const {
    if (!list_option.empty()) return list_option;
    if (auto v = env("READING_LIST"); !v.empty()) return v;
    if (auto v = env("XDG_DATA_HOME"); !v.empty())
      return fs::path(v) / "abstracts" / "reading-list.txt";
    if (auto v = env("HOME"); !v.empty())
      return fs::path(v) / ".local" / "share" / "abstracts" / "reading-list.txt";
    throw Error("no place for the reading list: READING_LIST, XDG_DATA_HOME and HOME are all unset",
                "give the list file with --list FILE");
  }

  // As the abstracts command finds it: --index, else $ABSTRACTS_INDEX, else
  // $XDG_DATA_HOME/abstracts/index, else ~/.local/share/abstracts/index.
  fs::path index_dir() const {
    if (!index_option.empty()) return index_option;
    if (auto v = env("ABSTRACTS_INDEX"); !v.empty()) return v;
    if (auto v = env("XDG_DATA_HOME"); !v.empty()) return fs::path(v) / "abstracts" / "index";
    if (auto v = env("HOME"); !v.empty())
      return fs::path(v) / ".local" / "share" / "abstracts" / "index";
    return ".abstracts-index";
  }

  Index open_index() const { return Index::open(index_dir()); }
};

// Messages quote ids, paths and queries as given: each line goes through
// visible(), so nothing in them acts on the terminal.
void print_error(const std::exception& e) {
  std::cerr << "error: " << visible(e.what()) << '\n';
  if (const auto* ae = dynamic_cast<const Error*>(&e); ae != nullptr && !ae->hint().empty()) {
    std::cerr << "hint: " << visible(ae->hint()) << '\n';
  }
}

// A message on stderr: what was done, or what was found amiss but not fatal.
void say(const std::string& message) { std::cerr << "reading-list: " << visible(message) << '\n'; }

std::string ascii_lower(std::string s) {
  for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return s;
}

std::string quoted_list(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "'" : ", '") + id + "'";
  return out;
}

std::unique_ptr<reading_list::Printer> printer(bool json) {
  return json ? reading_list::make_json_printer(std::cout)
              : reading_list::make_text_printer(std::cout);
}

// Says on stderr that the list is empty; the command then found nothing.
int empty_list(const ReadingList& list) {
  say("the list " + list.file().string() +
      " is empty; add abstracts with `reading-list add ID...`");
  return 1;
}

// Calls f(id, abstract or nullopt) for each of `ids`, in order, looking them up
// a thousand a call: a call each would see the index afresh each time, and
// the whole list at once would be in memory at once.
template <class F>
void for_each_listed(const Index& index, const std::vector<std::string>& ids, F&& f) {
  constexpr std::size_t kPage = 1000;
  for (std::size_t from = 0; from < ids.size(); from += kPage) {
    const std::vector<std::string> page(ids.begin() + static_cast<long>(from),
                                        ids.begin() + static_cast<long>(std::min(ids.size(), from + kPage)));
    const auto found = index.get(page);
    for (std::size_t i = 0; i < page.size(); ++i) f(page[i], found[i]);
  }
}

void warn_missing(const Index& index, const std::vector<std::string>& ids) {
  for_each_listed(index, ids, [&](const std::string& id, const std::optional<Abstract>& a) {
    if (!a) say(id + " is on the list but not in the index " + index.path().string());
  });
}

int add(const Context& ctx, const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    if (!reading_list::is_valid_id(id)) {
      throw Error(
          "'" + id + "' is not an abstract id",
          "ids are what `abstracts search` prints after \"id\"; nothing was added to the list");
    }
  }
  // Every id must be known before anything is written.
  Index index = ctx.open_index();
  std::vector<Abstract> found;
  std::vector<std::string> missing;
  for_each_listed(index, ids, [&](const std::string& id, std::optional<Abstract> a) {
    // A DOI as written ("10.1002/(SICI)..."): the index keeps DOIs, and so
    // the ids made of them, in lower case.
    if (!a && id.rfind("10.", 0) == 0) a = index.get(ascii_lower(id));
    if (a) {
      found.push_back(std::move(*a));
    } else {
      missing.push_back(id);
    }
  });
  if (!missing.empty()) {
    throw Error(
        std::string(missing.size() == 1 ? "no abstract with id " : "no abstracts with ids ") +
            quoted_list(missing) + " in the index " + index.path().string(),
        "ids are what `abstracts search` prints after \"id\"; nothing was added to the list");
  }
  const fs::path file = ctx.list_file();
  ListLock lock(file);
  ReadingList list = ReadingList::load(file);
  std::size_t added = 0;
  for (const auto& a : found) {
    if (list.add(a.id, a.title)) {
      ++added;
    } else {
      say(a.id + " is already on the list");
    }
  }
  if (added > 0) {
    list.save();
    say("added " + std::to_string(added) + (added == 1 ? " abstract" : " abstracts") + " to " +
        file.string());
  }
  return 0;
}

int remove(const Context& ctx, const std::vector<std::string>& ids) {
  const fs::path file = ctx.list_file();
  // Check before locking, which would create the directory.
  ReadingList unlocked = ReadingList::load(file);
  for (const auto& id : ids) {
    if (!unlocked.contains(id)) {
      throw Error("'" + id + "' is not on the reading list " + file.string(),
                  "`reading-list list` shows the ids on it; nothing was removed");
    }
  }
  ListLock lock(file);
  ReadingList list = ReadingList::load(file);
  std::size_t removed = 0;
  for (const auto& id : ids) removed += list.remove(id) ? 1 : 0;
  if (removed > 0) list.save();
  say("removed " + std::to_string(removed) + (removed == 1 ? " abstract" : " abstracts") +
      " from " + file.string());
  return 0;
}

int list_command(const Context& ctx, bool json) {
  ReadingList list = ReadingList::load(ctx.list_file());
  if (list.ids().empty()) return empty_list(list);
  Index index = ctx.open_index();
  warn_missing(index, list.ids());
  auto out = printer(json);
  for_each_listed(index, list.ids(),
                  [&](const std::string& id, const std::optional<Abstract>& a) { out->entry(id, a); });
  return 0;
}

int search(const Context& ctx, const std::vector<std::string>& words,
           abstracts::SearchOptions options, bool json) {
  std::string query;
  for (const auto& w : words) query += (query.empty() ? "" : " ") + w;
  ReadingList list = ReadingList::load(ctx.list_file());
  if (list.ids().empty()) return empty_list(list);
  Index index = ctx.open_index();
  abstracts::SearchResults results = reading_list::search_list(index, query, list.ids(), options);
  if (results.corrected) {
    say("nothing on the list found for \"" + query + "\"; showing results for \"" +
        results.suggestion + "\"");
  } else if (!results.suggestion.empty()) {
    say("did you mean \"" + results.suggestion + "\"?");
  }
  auto out = printer(json);
  for (const auto& hit : results.hits) out->hit(hit);
  return results.hits.empty() ? 1 : 0;
}

int suggest(const Context& ctx, const abstracts::SearchOptions& options, bool json) {
  ReadingList list = ReadingList::load(ctx.list_file());
  if (list.ids().empty()) return empty_list(list);
  Index index = ctx.open_index();
  warn_missing(index, list.ids());
  // similar() leaves out the given abstracts, so nothing listed comes back.
  abstracts::SearchResults results = index.similar(list.ids(), options);
  auto out = printer(json);
  for (const auto& hit : results.hits) out->hit(hit);
  return results.hits.empty() ? 1 : 0;
}

// Prints the listed abstracts as citations in `format` ("bibtex", "biblatex",
// "ris" or "csl-json": one JSON array), in list order, with the library's
// export (abstracts/export.h), as `abstracts export` does.
int export_command(const Context& ctx, const std::string& format) {
  if (format.empty()) {
    throw Error("export needs a format",
                "use `reading-list export --format bibtex` (or biblatex, ris, csl-json)");
  }
  ReadingList list = ReadingList::load(ctx.list_file());
  if (list.ids().empty()) return empty_list(list);
  Index index = ctx.open_index();
  // A source below the current directory is written relative to it; another is left out.
  abstracts::ExportOptions options;
  std::error_code error;
  options.relative_to = fs::current_path(error);
  abstracts::CitationWriter writer(std::cout, *abstracts::citation_format(format), options);
  for_each_listed(index, list.ids(), [&](const std::string& id, const std::optional<Abstract>& a) {
    if (a) {
      writer.write(*a);
    } else {
      say(id + " is on the list but not in the index " + index.path().string() + "; left out");
    }
  });
  writer.finish();
  return writer.written() > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Context ctx;
  int status = 0;
  CLI::App app{"reading-list: a personal list of papers, searchable, with suggestions",
               "reading-list"};
  app.require_subcommand(1);
  app.add_option(
      "--list", ctx.list_option,
      "List file (default: $READING_LIST, else ~/.local/share/abstracts/reading-list.txt)");
  app.add_option(
      "--index", ctx.index_option,
      "Index directory (default: $ABSTRACTS_INDEX, else ~/.local/share/abstracts/index)");

  std::vector<std::string> add_ids;
  auto* add_cmd = app.add_subcommand(
      "add", "Add abstracts to the list, by id (as printed by `abstracts search`)");
  add_cmd->add_option("ids", add_ids, "Ids of abstracts in the index")->required();
  add_cmd->callback([&] { status = add(ctx, add_ids); });

  std::vector<std::string> remove_ids;
  auto* remove_cmd = app.add_subcommand("remove", "Remove abstracts from the list");
  remove_cmd->add_option("ids", remove_ids, "Ids on the list")->required();
  remove_cmd->callback([&] { status = remove(ctx, remove_ids); });

  bool json = false;
  auto* list_cmd =
      app.add_subcommand("list", "Show the list, in the order added: id, title, source:line");
  list_cmd->add_flag("--json", json, "Print JSON Lines, one object per abstract");
  list_cmd->callback([&] { status = list_command(ctx, json); });

  std::vector<std::string> words;
  abstracts::SearchOptions search_options;
  bool no_correct = false;
  auto* search_cmd =
      app.add_subcommand("search", "Search the abstracts on the list; see docs/query-language.md");
  search_cmd->add_option("query", words, "The query (several arguments are joined with spaces)")
      ->required();
  search_cmd->add_option("-n,--limit", search_options.limit, "Show at most this many hits")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  search_cmd->add_flag("--json", json, "Print JSON Lines, one object per hit");
  search_cmd->add_flag("--no-correct", no_correct,
                       "Do not search for a spelling correction when the query finds nothing");
  search_cmd->callback([&] {
    search_options.correct_spelling = !no_correct;
    status = search(ctx, words, search_options, json);
  });

  abstracts::SearchOptions suggest_options;
  auto* suggest_cmd = app.add_subcommand(
      "suggest", "Abstracts like the ones on the list, and not on it, best first");
  suggest_cmd->add_option("-n,--limit", suggest_options.limit, "Show at most this many")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  suggest_cmd->add_flag("--json", json, "Print JSON Lines, one object per hit");
  suggest_cmd->callback([&] { status = suggest(ctx, suggest_options, json); });

  std::string export_format;
  auto* export_cmd =
      app.add_subcommand("export", "Print the list as citations for a reference manager");
  export_cmd
      ->add_option("--format", export_format, "bibtex, biblatex, ris or csl-json (a JSON array)")
      ->check(CLI::IsMember({"bibtex", "biblatex", "ris", "csl-json"}));
  export_cmd->add_flag_callback(
      "--bibtex", [&] { export_format = "bibtex"; }, "Short for --format bibtex");
  export_cmd->callback([&] { status = export_command(ctx, export_format); });

  for (auto* cmd : {add_cmd, remove_cmd, list_cmd, search_cmd, suggest_cmd, export_cmd})
    cmd->fallthrough();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << visible(e.what()) << "\nhint: run `reading-list --help` for usage\n";
    return 2;
  } catch (const std::exception& e) {
    print_error(e);
    return 2;
  }
  std::cout.flush();
  return std::cout ? status : 2;
}
