#include <iostream>

#include "cli/commands.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_sources_command(CLI::App& app, Context& ctx, int& status) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("sources", "List the files and folders the index keeps in step with");
  cmd->add_flag("--json", *json, "Print one JSON object per source (JSON Lines)");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, json] {
    const Index index = ctx.open_index();
    auto printer = make_printer(*json, ctx);
    const auto sources = index.sources();
    for (const auto& s : sources) printer->source(s);
    // As for a search: 1 when there is nothing to show.
    status = sources.empty() ? 1 : 0;
  });
}

void add_forget_command(CLI::App& app, Context& ctx, int& status) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("forget", "Forget sources of the index: their abstracts leave it");
  cmd->add_option("paths", *paths, "Sources to forget, as `abstracts sources` lists them")->required();
  cmd->add_flag("-q,--quiet", *quiet, "Print only errors");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, paths, quiet] {
    const auto dir = ctx.index_dir();
    std::error_code ec;
    if (!std::filesystem::exists(dir, ec)) throw IndexNotFound("no index at " + dir.string());
    Writer writer = Writer::open(dir);
    std::vector<std::filesystem::path> given(paths->begin(), paths->end());
    std::size_t left = 0;
    try {
      left = writer.forget(given);
    } catch (const InputError& e) {  // a path that is no source; the library's hint names its API
      throw Error(e.what(), "`abstracts" + std::string(ctx.index_is_default() ? "" : " --index " + dir.string()) +
                                " sources` lists them");
    }
    if (!*quiet) {
      std::cerr << "forgot " << count_of(given.size(), "source") << ": " << count_of(left, "abstract")
                << " left the index; the index holds " << count_of(writer.abstracts(), "abstract") << '\n';
    }
    status = 0;
  });
}

}  // namespace abstracts::cli
