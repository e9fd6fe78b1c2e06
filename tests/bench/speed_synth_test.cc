// Tests of `speed synth` (bench/speed/synth.h): the word splitting, the Heaps
// fit, and a synthetic corpus written from a small real one: the real abstracts
// first and unchanged, unique ids, the same file for the same seed, and a
// vocabulary on the fitted curve, as `speed vocabulary` counts it from the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/speed/synth.h"

namespace abstracts::speed {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> out;
  for_each_word(text, [&](std::size_t, std::string_view w) { out.emplace_back(w); });
  return out;
}

TEST(SynthWords, DigitsAndPunctuationSplitWords) {
  EXPECT_EQ(words_of("GPT-4o mini, Qwen3 $\\alpha$ Pokémon."),
            (std::vector<std::string>{"GPT", "o", "mini", "Qwen", "alpha", "Pokémon"}));
  EXPECT_EQ(lower_ascii("ActFER Pokémon"), "actfer pokémon");
}

TEST(SynthHeaps, FitRecoversAnExactPowerLaw) {
  const HeapsFit fit = fit_heaps({{1000, 30 * std::pow(1000, 0.6)},
                                  {5000, 30 * std::pow(5000, 0.6)},
                                  {20000, 30 * std::pow(20000, 0.6)}});
  EXPECT_NEAR(fit.b, 0.6, 1e-9);
  EXPECT_NEAR(fit.k, 30, 1e-6);
  EXPECT_THROW(fit_heaps({{1000, 50}}), std::invalid_argument);
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<json> read_lines(const fs::path& file) {
  std::vector<json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

class SynthCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("speed-synth-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    // 400 abstracts of common words, each with a word of its own (seen once: a
    // rare word) and one of 300 shared by a pair (seen twice), so the
    // vocabulary grows with the corpus as a real one's does.
    std::ofstream out(corpus());
    const char* common[] = {"model",   "data",   "learning", "network",
                            "results", "method", "graph",    "quantum"};
    for (int i = 0; i < 400; ++i) {
      std::string text;
      for (int s = 0; s < 4; ++s) {
        text += std::string(s ? " " : "") + "The " + common[(i + s) % 8] + " and " +
                common[(i * 3 + s) % 8] + " improve " +
                (s == 1 ? "Zeta" + letters(i) : "the " + std::string(common[s])) +
                (s == 2 ? " with Pair" + letters(i / 2 + 1000) : "") + ".";
      }
      out << json{{"_id", std::to_string(i)},
                  {"title", std::string("On ") + common[i % 8]},
                  {"text", text}}
                 .dump()
          << '\n';
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A run of letters naming `n`, so that no two numbers give one word.
  static std::string letters(int n) {
    std::string s;
    do {
      s += static_cast<char>('a' + n % 26);
      n /= 26;
    } while (n > 0);
    return s;
  }
  fs::path corpus() const { return dir_ / "corpus.jsonl"; }

  SynthOptions options(std::size_t count, std::uint64_t seed = 7) const {
    SynthOptions o;
    o.count = count;
    o.seed = seed;
    o.fit_at = {100, 200};
    o.report_at = {100, 200, 800, 1600};
    return o;
  }

  fs::path dir_;
};

TEST_F(SynthCorpus, RealAbstractsFirstThenSyntheticOnesWithUniqueIds) {
  const json summary = synthesize(corpus(), dir_ / "out.jsonl", options(1600));
  EXPECT_EQ(summary.at("abstracts"), 1600);
  EXPECT_EQ(summary.at("real_abstracts"), 400);
  EXPECT_EQ(summary.at("synthetic_abstracts"), 1200);
  EXPECT_EQ(summary.at("file_bytes"), fs::file_size(dir_ / "out.jsonl"));

  const auto real = read_lines(corpus()), out = read_lines(dir_ / "out.jsonl");
  ASSERT_EQ(out.size(), 1600u);
  for (std::size_t i = 0; i < real.size(); ++i) EXPECT_EQ(out[i], real[i]) << "abstract " << i;
  std::set<std::string> ids;
  for (const auto& r : out) ids.insert(r.at("_id").get<std::string>());
  EXPECT_EQ(ids.size(), out.size());
  EXPECT_FALSE(out[400].at("text").get<std::string>().empty());
}

TEST_F(SynthCorpus, TheSameSeedWritesTheSameFileAndAnotherSeedAnother) {
  synthesize(corpus(), dir_ / "a.jsonl", options(900, 7));
  synthesize(corpus(), dir_ / "b.jsonl", options(900, 7));
  synthesize(corpus(), dir_ / "c.jsonl", options(900, 8));
  EXPECT_EQ(read_all(dir_ / "a.jsonl"), read_all(dir_ / "b.jsonl"));
  EXPECT_NE(read_all(dir_ / "a.jsonl"), read_all(dir_ / "c.jsonl"));
  // A smaller count writes the larger one's first lines.
  synthesize(corpus(), dir_ / "d.jsonl", options(600, 7));
  EXPECT_EQ(read_all(dir_ / "a.jsonl").substr(0, fs::file_size(dir_ / "d.jsonl")),
            read_all(dir_ / "d.jsonl"));
}

TEST_F(SynthCorpus, VocabularyFollowsHeapsLawPastTheRealCorpus) {
  const json summary = synthesize(corpus(), dir_ / "out.jsonl", options(1600));
  const double b = summary.at("heaps").at("b");
  EXPECT_GT(b, 0.1);
  EXPECT_LT(b, 1.0);
  EXPECT_GT(summary.at("new_words").get<std::size_t>(), 0u);
  // What the file holds, counted from it alone, is what the summary says and
  // what the curve continued from the real corpus's end predicts.
  const json counted = vocabulary(dir_ / "out.jsonl", {400, 800, 1600});
  const auto& points = counted.at("vocabulary");
  ASSERT_EQ(points.size(), 3u);
  const double real_v = points[0].at("vocabulary");
  for (const auto& p : points) {
    const double n = p.at("abstracts"), v = p.at("vocabulary");
    EXPECT_NEAR(v, real_v * std::pow(n / 400, b), 0.01 * v + 2) << n << " abstracts";
  }
  EXPECT_EQ(summary.at("vocabulary").back().at("vocabulary"), points[2].at("vocabulary"));
}

}  // namespace
}  // namespace abstracts::speed
