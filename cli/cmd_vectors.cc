#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"

namespace abstracts::cli {

void add_vectors_command(CLI::App& app, Context& ctx, int& status) {
  struct Args {
    VectorsOptions options;
    bool json = false;
    bool quiet = false;
  };
  auto args = std::make_shared<Args>();
  auto* vectors = app.add_subcommand("vectors", "Vectors of meaning, for search --semantic and --hybrid");
  vectors->require_subcommand(1);
  auto* build = vectors->add_subcommand(
      "build", "Learn word vectors (fastText) from the index's abstracts and give every abstract its vector");
  build->add_option("--train-on", args->options.train_on,
                    "Learn from these files' abstracts instead (any format `index` reads)")
      ->check(CLI::ExistingFile);
  build->add_option("--max-training", args->options.max_training_abstracts,
                    "Learn from at most this many abstracts, spread over the index (0: all)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  build->add_option("--epochs", args->options.epochs, "fastText's passes over the text")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  build->add_option("--dimensions", args->options.dimensions, "The vectors' dimensions")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  build->add_option("--buckets", args->options.buckets,
                    "fastText's buckets of word pieces (0: whole words only); memory while learning is "
                    "about (words + buckets) x dimensions x 4 bytes")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000000));
  build->add_flag("--json", args->json, "Print what was done as one JSON object");
  build->add_flag("-q,--quiet", args->quiet, "Say nothing on stderr while working");
  build->fallthrough();
  build->callback([&ctx, &status, args] {
    ctx.open_index();  // the bundled corpus's index is built first, a missing index named
    if (!args->quiet) {
      args->options.on_progress = [](const std::string& what) { std::cerr << "abstracts: " << what << '\n'; };
    }
    Writer writer = Writer::open(ctx.index_dir());
    const VectorsReport r = writer.build_vectors(args->options);
    if (args->json) {
      std::cout << nlohmann::json{{"abstracts", r.abstracts},
                                  {"words", r.words},
                                  {"training_abstracts", r.training_abstracts},
                                  {"training_tokens", r.training_tokens},
                                  {"learn_seconds", r.learn_seconds},
                                  {"store_seconds", r.store_seconds},
                                  {"graph_seconds", r.graph_seconds}}
                       .dump()
                << '\n';
    } else {
      std::cout << count_of(r.abstracts, "abstract") << " with vectors; " << count_of(r.words, "word")
                << " learned from " << count_of(r.training_abstracts, "abstract") << " ("
                << r.training_tokens << " words of text) in " << std::fixed << std::setprecision(1)
                << r.learn_seconds << " s, stored in " << r.store_seconds << " s, linked to their nearest in "
                << r.graph_seconds << " s\n";
    }
    status = 0;
  });
}

}  // namespace abstracts::cli
