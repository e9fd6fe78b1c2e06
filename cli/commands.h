// The subcommands. Each registers itself on the app and, when chosen, runs and
// leaves its exit status in `status` (0 found, 1 nothing found, 2 error).
#ifndef ABSTRACTS_CLI_COMMANDS_H_
#define ABSTRACTS_CLI_COMMANDS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/context.h"

namespace abstracts::cli {

// Calls `each` with each of `ids` and its abstract (nullopt if the index has
// none), in order, looking them up 1,000 at a time: one Index::get call each
// would see the index afresh each time, and memory holds a page, not the list.
// For `show`, `export --ids` and `similar`.
void for_each_abstract(const Index& index, const std::vector<std::string>& ids,
                       const std::function<void(const std::string& id, const std::optional<Abstract>& found)>& each);

// The options `search` and `similar` share: --limit, --offset, --json, --explain.
void add_result_options(CLI::App& cmd, SearchOptions& options, bool& json);

// --semantic and --hybrid[=W] (search, similar), and what they set in `options`
// (throws Error for a weight that is no number from 0 to 1).
void add_meaning_options(CLI::App& cmd, bool& semantic, std::string& hybrid);
void set_mode(bool semantic, const std::string& hybrid, SearchOptions& options);

void add_acronyms_command(CLI::App& app, Context& ctx, int& status);
void add_export_command(CLI::App& app, Context& ctx, int& status);
void add_forget_command(CLI::App& app, Context& ctx, int& status);
void add_index_command(CLI::App& app, Context& ctx, int& status);
void add_search_command(CLI::App& app, Context& ctx, int& status);
void add_similar_command(CLI::App& app, Context& ctx, int& status);
void add_sources_command(CLI::App& app, Context& ctx, int& status);
void add_show_command(CLI::App& app, Context& ctx, int& status);
void add_stats_command(CLI::App& app, Context& ctx, int& status);
void add_vectors_command(CLI::App& app, Context& ctx, int& status);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_COMMANDS_H_
