// Vectors of meaning (issue 46) through the real binary: `abstracts vectors
// build`, `search --semantic` and `--hybrid[=W]`, their errors; `kill -9` of a
// build at points of its run, which must leave the index with its old vectors or
// the new ones, never a mix; and a reader that searches while a build replaces
// the vectors, which must never fail. The kill points are fractions of an
// uninterrupted run's time, each phase's own (as in crash_test.cc), so the test
// does not depend on the machine's speed.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/layout.h"
#include "engine/neighbours.h"
#include "engine/schema.h"
#include "engine/vectors.h"
#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::issue46_vectors_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Env = std::map<std::string, std::string>;

// An index of the bundled corpus in `dir`, written with the library (quicker).
void index_corpus(const fs::path& dir) { ASSERT_EQ(Writer::open(dir).index(corpus_files()), 0u); }

// The vectors the index in `dir` holds, read with Xapian through the stub file.
struct VectorState {
  std::size_t abstracts = 0;     // documents
  std::size_t with_vector = 0;   // of them, with a kVectorSlot value
  std::size_t word_keys = 0;     // metadata abstracts:vector:*
  bool model = false;            // metadata abstracts:vectors decodes
  std::uint32_t dimensions = 0;  // the model's
};

VectorState vector_state(const fs::path& dir) {
  Xapian::Database db(dir.string());
  VectorState s;
  s.abstracts = db.get_doccount();
  for (auto v = db.valuestream_begin(schema::kVectorSlot);
       v != db.valuestream_end(schema::kVectorSlot); ++v) {
    ++s.with_vector;
  }
  const std::string prefix(vectors::kWordKeyPrefix);
  for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k)
    ++s.word_keys;
  vectors::Model model;
  s.model = vectors::decode(db.get_metadata(std::string(vectors::kModelKey)), model);
  s.dimensions = model.dimensions;
  return s;
}

// What is in the index directory besides the stub and the lock: "gen-000003 tmp-123".
std::string entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) {
    if (n != "XAPIANDB" && n != "writer.lock") out += (out.empty() ? "" : " ") + n;
  }
  return out;
}

// Hits as (id, score), to compare two searches whole.
std::vector<std::pair<std::string, double>> ranked(const SearchResults& results) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& h : results.hits) out.emplace_back(h.abstract.id, h.score);
  return out;
}

// The words' ranking of a few queries: a build of vectors must not change it.
const std::vector<std::string> kQueries = {"sparse attention", "\"large language models\"",
                                           "how do language models reason over long documents"};
std::vector<std::vector<std::pair<std::string, double>>> lexical_rankings(const Index& index) {
  std::vector<std::vector<std::pair<std::string, double>>> out;
  for (const auto& q : kQueries) out.push_back(ranked(index.search(q, {.limit = 20})));
  return out;
}

// The ids of a `search --json` run's hits, each line checked to be a hit.
std::vector<std::string> json_ids(const RunResult& r) {
  std::vector<std::string> ids;
  double last = 0;
  for (const auto& line : lines(r.out)) {
    const json hit = json::parse(line);
    EXPECT_EQ(hit.at("rank").get<std::size_t>(), ids.size() + 1) << line;
    const double score = hit.at("score").get<double>();
    if (!ids.empty()) {
      EXPECT_GE(last, score) << "not sorted by score: " << line;
    }
    last = score;
    ids.push_back(hit.at("id").get<std::string>());
  }
  return ids;
}

// Waits for the child; its exit status, 128 + signal if killed.
int wait_for(pid_t pid) {
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

// `abstracts ARGS` started, stdout thrown away, stderr thrown away or readable
// from `err`. Unless waited for, it is killed and reaped by its pid when it goes
// out of scope, so a test that fails half-way leaves no process running.
struct Child {
  Child() = default;
  Child(Child&& other) noexcept : pid(std::exchange(other.pid, 0)), err(std::exchange(other.err, -1)) {}
  Child& operator=(Child&&) = delete;
  ~Child() {
    close_err();
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      wait();
    }
  }
  void close_err() {
    if (err >= 0) close(std::exchange(err, -1));
  }
  // Its exit status, 128 + signal if killed.
  int wait() { return wait_for(std::exchange(pid, 0)); }

  pid_t pid = 0;
  int err = -1;
};

Child start(const std::vector<std::string>& args, const Env& env, bool read_stderr) {
  SpawnArgs spawn_args(ABSTRACTS_BIN, args, env);
  int pipe_fds[2] = {-1, -1};
  if (read_stderr && pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (read_stderr) {
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  }
  Child child;
  const int rc = posix_spawn(&child.pid, ABSTRACTS_BIN, &actions, nullptr, spawn_args.argv(),
                             spawn_args.envp());
  posix_spawn_file_actions_destroy(&actions);
  if (read_stderr) close(pipe_fds[1]);
  if (rc != 0) {
    if (read_stderr) close(pipe_fds[0]);
    throw std::runtime_error("cannot run " + std::string(ABSTRACTS_BIN));
  }
  child.err = pipe_fds[0];
  return child;
}

// Reads `fd` until what was read holds `text` (true) or the file ends (false).
bool read_until(int fd, const std::string& text, std::string& read_so_far) {
  char buf[4096];
  while (!contains(read_so_far, text)) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n == 0) return false;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    read_so_far.append(buf, static_cast<std::size_t>(n));
  }
  return true;
}


// The progress line `vectors build` prints before it writes anything.
constexpr const char* kStoring = "storing the abstracts' vectors";

TEST(Issue46VectorsCli, BuildThenSearchByMeaningAndItsErrors) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  const Env env = sandbox_env(dir.path());
  auto abstracts = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--index", index.string()});
    return run_abstracts(args, env);
  };
  const std::string query = "language models that reason step by step";

  // No vectors yet.
  for (const char* mode : {"--semantic", "--hybrid"}) {
    SCOPED_TRACE(mode);
    auto r = abstracts({"search", mode, query});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "hint: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "vectors build")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }

  auto r = abstracts({"vectors", "build", "-q", "--json", "--epochs", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << "-q, yet: " << r.err;
  ASSERT_EQ(lines(r.out).size(), 1u) << r.out;
  const json report = json::parse(r.out);
  EXPECT_EQ(report.at("abstracts").get<std::size_t>(), 57u);
  EXPECT_GT(report.at("words").get<std::size_t>(), 0u);
  EXPECT_EQ(report.at("training_abstracts").get<std::size_t>(), 57u);
  EXPECT_GE(report.at("graph_seconds").get<double>(), 0.0);
  r = abstracts({"stats"});
  EXPECT_TRUE(contains(r.out, "\nvectors    57  (graph of 57)\n")) << r.out;

  r = abstracts({"search", "--semantic", "--json", query});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto semantic = json_ids(r);
  EXPECT_EQ(semantic.size(), 10u);
  SearchOptions by_meaning;
  by_meaning.mode = SearchMode::kSemantic;
  EXPECT_EQ(semantic, hit_ids(Index::open(index).search(query, by_meaning)))
      << "the CLI and the library differ";

  r = abstracts({"search", "--hybrid=0.5", "--json", query});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(r).size(), 10u);
  r = abstracts({"search", "--hybrid", "--json", query});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(r).size(), 10u);
  // All the words' share: the words' ranking.
  r = abstracts({"search", "--hybrid=1", "--json", "sparse attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto words_only = json_ids(r);
  r = abstracts({"search", "--json", "sparse attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(words_only, json_ids(r));

  for (const char* weight : {"--hybrid=2", "--hybrid=x", "--hybrid=-0.5", "--hybrid=0.5x"}) {
    SCOPED_TRACE(weight);
    r = abstracts({"search", weight, query});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "from 0 to 1")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"search", "--semantic", "--hybrid", query},
        std::vector<std::string>{"search", "--sort", "date", "--semantic", query},
        std::vector<std::string>{"search", "--sort", "date", "--hybrid=0.5", query}}) {
    SCOPED_TRACE(args[1] + " " + args[2]);
    r = abstracts(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_FALSE(r.err.empty());
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// How long an uninterrupted `vectors build` takes to print kStoring, and from
// there to its end.
struct Phases {
  Clock::duration learning{}, storing{};
};

Phases time_a_build(const std::vector<std::string>& args, const Env& env) {
  const auto t0 = Clock::now();
  Child child = start(args, env, true);
  std::string err;
  const bool storing = read_until(child.err, kStoring, err);
  const auto t1 = Clock::now();
  read_until(child.err, "\x01never", err);  // to its end
  child.close_err();
  const int status = child.wait();
  EXPECT_TRUE(storing) << err;
  EXPECT_EQ(status, 0) << err;
  return {t1 - t0, Clock::now() - t1};
}

// `index --vectors`: the abstracts, then their vectors, in one command (with the
// defaults of `vectors build`); not with --watch, which would wait for them.
TEST(Issue46VectorsCli, IndexWithVectorsLearnsThemAfterIndexing) {
  TempDir dir;
  const fs::path index = dir / "index";
  const Env env = sandbox_env(dir.path());
  auto r = run_abstracts({"--index", index.string(), "index", "--quiet", "--vectors", ABSTRACTS_CORPUS_DIR}, env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << "--quiet, yet: " << r.err;
  const VectorState s = vector_state(index);
  EXPECT_EQ(s.abstracts, 57u);
  EXPECT_EQ(s.with_vector, 57u);
  EXPECT_TRUE(s.model);
  r = run_abstracts({"--index", index.string(), "search", "--semantic", "--json", "sparse attention"}, env);
  EXPECT_EQ(r.status, 0) << r.err;
  r = run_abstracts({"--index", (dir / "other").string(), "index", "--vectors", "--watch", ABSTRACTS_CORPUS_DIR}, env);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--watch")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "other" / "XAPIANDB"));
}

TEST(Issue46VectorsCli, KilledBuildLeavesTheOldVectorsOrTheNewOnes) {
  TempDir dir;
  const Env env = sandbox_env(dir.path());
  auto build = [](const fs::path& index) {
    return std::vector<std::string>{"--index", index.string(), "vectors", "build", "--epochs", "5"};
  };
  const fs::path timed = dir / "timed";
  index_corpus(timed);
  const auto before = lexical_rankings(Index::open(timed));
  const Phases took = time_a_build(build(timed), env);
  ASSERT_EQ(vector_state(timed).with_vector, 57u);

  // Where to kill: a point while it learns, then after kStoring was printed
  // (it then copies the index, writes the vectors and publishes the copy).
  struct Point {
    bool after_storing;
    double fraction;  // of the phase's uninterrupted time
  };
  const std::vector<Point> points = {{false, 0.5}, {true, 0.0}, {true, 0.4}, {true, 0.8}};
  for (std::size_t k = 0; k < points.size(); ++k) {
    const Point& p = points[k];
    SCOPED_TRACE(
        std::string("killed ") + (p.after_storing ? "after it said it stores" : "as it learns") +
        ", at " + std::to_string(p.fraction) + " of the phase's " +
        std::to_string(
            std::chrono::duration<double>(p.after_storing ? took.storing : took.learning).count()) +
        " s");
    const fs::path index = dir / ("index" + std::to_string(k));
    index_corpus(index);
    Child child = start(build(index), env, true);
    std::string err;
    if (p.after_storing) {
      ASSERT_TRUE(read_until(child.err, kStoring, err)) << err;
      std::this_thread::sleep_for(took.storing * p.fraction);
    } else {
      std::this_thread::sleep_for(took.learning * p.fraction);
    }
    ::kill(child.pid, SIGKILL);
    child.close_err();
    child.wait();

    const std::string left = entries(index);
    {
      SCOPED_TRACE("left in the index directory: " + left);
      EXPECT_EQ(lexical_rankings(Index::open(index)), before);
      const VectorState s = vector_state(index);
      EXPECT_EQ(s.abstracts, 57u);
      const bool old_state = s.with_vector == 0 && !s.model && s.word_keys == 0;
      const bool new_state = s.with_vector == 57 && s.model && s.word_keys > 0;
      EXPECT_TRUE(old_state || new_state)
          << s.with_vector << " abstracts with a vector, " << s.word_keys << " word vectors, model "
          << (s.model ? "there" : "missing");
      // A search by meaning works exactly when the vectors are there.
      SearchOptions by_meaning;
      by_meaning.mode = SearchMode::kSemantic;
      // The graph comes with the vectors, whole and fit for them.
      const fs::path graph = neighbours::graph_path(layout::current_generation(index));
      EXPECT_EQ(fs::exists(graph), new_state);
      if (new_state) {
        EXPECT_TRUE(neighbours::Graph::open(graph, Xapian::Database(index.string()), 100));
        EXPECT_EQ(Index::open(index).search("sparse attention", by_meaning).hits.size(), 10u);
      } else {
        EXPECT_THROW(Index::open(index).search("sparse attention", by_meaning), Error);
      }
    }

    auto again = build(index);
    again.push_back("-q");
    const auto r = run_abstracts(again, env);
    EXPECT_EQ(r.status, 0) << "the build again: " << r.err;
    const VectorState s = vector_state(index);
    EXPECT_EQ(s.with_vector, 57u);
    EXPECT_TRUE(s.model);
    EXPECT_EQ(lexical_rankings(Index::open(index)), before);
    // The writer's run removed what the killed one left: one generation, no tmp-*.
    const std::string now = entries(index);
    EXPECT_TRUE(now.starts_with("gen-") && now.find(' ') == std::string::npos)
        << "after the build again: " << now << " (after the kill: " << left << ")";
    fs::remove_all(index);
  }
}

// One Index object searching in a loop, by words and by meaning, while
// `vectors build` replaces the vectors (of another size) in another process.
TEST(Issue46VectorsCli, ReaderNeverFailsWhileTheVectorsAreRebuilt) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  VectorsOptions first;
  first.epochs = 5;
  first.buckets = 20000;
  Writer::open(index).build_vectors(first);
  ASSERT_EQ(vector_state(index).dimensions, 100u);

  auto reader = Index::open(index);
  SearchOptions by_meaning;
  by_meaning.mode = SearchMode::kSemantic;
  const std::string query = "sparse attention";
  const auto by_words = ranked(reader.search(query, {.limit = 20}));
  ASSERT_FALSE(by_words.empty());
  ASSERT_EQ(reader.search(query, by_meaning).hits.size(), 10u);

  Child child = start(
      {"--index", index.string(), "vectors", "build", "-q", "--epochs", "5", "--dimensions", "16"},
      sandbox_env(dir.path()), false);
  int searches = 0, failures = 0, wstatus = 0;
  std::string failure;
  while (waitpid(child.pid, &wstatus, WNOHANG) == 0) {
    ++searches;
    try {
      const SearchResults words = reader.search(query, {.limit = 20});
      const SearchResults meaning = reader.search(query, by_meaning);
      if (ranked(words) != by_words) {
        ++failures;
        failure = "the words' ranking changed";
      } else if (meaning.hits.size() != 10u) {
        ++failures;
        failure = "a search by meaning found " + std::to_string(meaning.hits.size()) + " hits";
      }
    } catch (const std::exception& e) {
      ++failures;
      failure = e.what();
    }
  }
  child.pid = 0;  // reaped by the loop's waitpid
  ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) << "the build failed";
  EXPECT_GT(searches, 0);
  EXPECT_EQ(failures, 0) << "of " << searches << " searches; the last: " << failure;

  // The reader went on to the new vectors.
  ASSERT_EQ(vector_state(index).dimensions, 16u);
  EXPECT_EQ(ranked(reader.search(query, by_meaning)),
            ranked(Index::open(index).search(query, by_meaning)));
  EXPECT_EQ(entries(index).find(' '), std::string::npos) << entries(index);
}

}  // namespace
}  // namespace abstracts::testing::issue46_vectors_test
