// abstracts: search scientific abstracts from the terminal.
// Exit status: 0 when something was found, 1 when nothing was, 2 on error.
#include <algorithm>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "cli/escape.h"

namespace {

// Levenshtein distance, for "did you mean" on a mistyped subcommand.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

const CLI::App* find_subcommand(const CLI::App& app, std::string_view name) {
  const auto found = app.get_subcommands([&](const CLI::App* sub) { return sub->get_name() == name; });
  return found.empty() ? nullptr : found.front();
}

// The word where a subcommand should be: the first argument that is neither a
// global option nor its value ("" if none).
std::string command_word(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") return {};
    if (arg.starts_with("-")) {
      const auto* option = app.get_option_no_throw(std::string(arg.substr(0, arg.find('='))));
      if (option != nullptr && option->get_expected_min() > 0 && arg.find('=') == std::string_view::npos) ++i;
      continue;
    }
    return std::string(arg);
  }
  return {};
}

// The command_word(), if it names no subcommand.
std::string unknown_command(const CLI::App& app, int argc, char** argv) {
  std::string word = command_word(app, argc, argv);
  return find_subcommand(app, word) == nullptr ? word : std::string();
}

// Says what is wrong with the command line, as "error: ..." and "hint: ..."
// lines: the subcommand meant, or how to search for a word that starts with '-'.
void report(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  std::string error = e.what(), hint = "run `abstracts --help` for usage";
  const auto* search = find_subcommand(app, "search");
  if (const std::string typed = unknown_command(app, argc, argv); !typed.empty()) {
    std::string best, all;
    std::size_t best_distance = 3;  // at most two edits away
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      const std::string& name = sub->get_name();
      all += (all.empty() ? "" : ", ") + name;
      if (const auto d = edit_distance(typed, name); d < best_distance) best = name, best_distance = d;
    }
    error = "'" + typed + "' is not an abstracts command";
    hint = best.empty() ? "the commands are " + all : "did you mean '" + best + "'?";
  } else if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && search != nullptr && search->parsed()) {
    hint = "a query word that starts with '-' (an exclusion, -survey) is read as an option unless `--` "
           "comes before the query: abstracts search -- attention -survey";
  }
  std::cerr << "error: " << abstracts::cli::escape_controls(error) << "\nhint: "
            << abstracts::cli::escape_controls(hint) << '\n';
}

// `--version`: ours, then what the index depends on, one `name version` a line.
std::string version_text() {
  const abstracts::VersionInfo v = abstracts::version_info();
  return "abstracts " + v.library + "\nXapian " + v.xapian + "\nICU " + v.icu + "\nindex schema " + v.schema;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace abstracts::cli;
  std::ios::sync_with_stdio(false);
  Context ctx;
  int status = 0;
  CLI::App app{"abstracts: full-text search for scientific paper abstracts", "abstracts"};
  // A repeated option takes its last value (`--limit 3 --limit 5` is 5), so an
  // alias or a script's defaults can be overridden on the command line.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_version_flag("--version", version_text,
                       "Print the version, those of Xapian and ICU and the index schema's, and exit");
  app.require_subcommand(1);
  app.add_option("--index", ctx.index_option,
                 "Index directory, or a cluster file listing shards (docs/scale-out.md) "
                 "(default: $ABSTRACTS_INDEX, else ~/.local/share/abstracts/index)");
  app.add_flag("--allow-partial", ctx.allow_partial,
               "On a cluster, search the shards that answer when some do not (each is named on stderr)");
  app.add_option("--color", ctx.color, "Colour output: auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  // Only the command asked for is built (the others' options cost a one-shot
  // search a tenth of its instructions); all of them for help or a typo.
  struct Command {
    std::string_view name;
    void (*add)(CLI::App&, Context&, int&);
  };
  constexpr Command kCommands[] = {{"index", add_index_command},     {"search", add_search_command},
                                   {"show", add_show_command},       {"similar", add_similar_command},
                                   {"stats", add_stats_command},     {"acronyms", add_acronyms_command},
                                   {"sources", add_sources_command}, {"forget", add_forget_command},
                                   {"export", add_export_command},   {"vectors", add_vectors_command}};
  const std::string word = command_word(app, argc, argv);
  const bool known = std::any_of(std::begin(kCommands), std::end(kCommands),
                                 [&](const Command& c) { return c.name == word; });
  for (const auto& c : kCommands) {
    if (!known || c.name == word) c.add(app, ctx, status);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    report(app, e, argc, argv);
    return 2;
  } catch (const std::exception& e) {
    print_error(e, ctx);
    return 2;
  }
  std::cout.flush();
  return status;
}
