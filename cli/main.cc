// abstracts: search scientific abstracts from the terminal.
// Exit status: 0 when something was found, 1 when nothing was, 2 on error.
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  using namespace abstracts::cli;
  std::ios::sync_with_stdio(false);
  Context ctx;
  int status = 0;
  CLI::App app{"abstracts: full-text search for scientific paper abstracts", "abstracts"};
  app.set_version_flag("--version", ABSTRACTS_VERSION);
  app.require_subcommand(1);
  app.add_option("--index", ctx.index_option,
                 "Index directory (default: $ABSTRACTS_INDEX, else ~/.local/share/abstracts/index)");
  app.add_option("--color", ctx.color, "Colour output: auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  add_index_command(app, ctx, status);
  add_search_command(app, ctx, status);
  add_show_command(app, ctx, status);
  add_similar_command(app, ctx, status);
  add_stats_command(app, ctx, status);
  add_acronyms_command(app, ctx, status);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << "\nhint: run `abstracts --help` for usage\n";
    return 2;
  } catch (const std::exception& e) {
    print_error(e);
    return 2;
  }
  std::cout.flush();
  return status;
}
