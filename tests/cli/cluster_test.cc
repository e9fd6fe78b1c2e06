// Issue 19 end to end: an index built as shards (`index --shard K/N`), each
// served by Xapian's stock xapian-tcpsrv or read from disk, and searched through
// a cluster file (`--index CLUSTERFILE`), answers every reading command as one
// local index of the same abstracts does: the same hits in the same order, ties
// included, with the same scores. A shard that is down or never answers is an
// error naming it, within about the cluster's timeout and never a hang; with
// --allow-partial, a warning naming it and the other shards' hits.
//
// The corpus is a slice of SciFact from the shared data when it is there, else
// the bundled corpus; a quarter of its abstracts are rewritten as Semantic
// Scholar records with authors, years and venues, so that field queries find
// something. The queries are drawn from the corpus text with a fixed seed.

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::cluster_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Every run of the binary here may take this long: far beyond what any needs,
// so that a hang fails its test rather than blocking the suite.
constexpr auto kRunLimit = 300s;
// How long a command facing a dead or silent shard may take before the test
// calls it a hang (the cluster's timeout is 1 s or the default 10 s): a bound on
// hanging, not a measure of speed.
constexpr auto kHangBound = 20s;
// SciFact abstracts indexed: all 5,183 take 26 s to index once in the debug
// build, and the equivalence tests index them three times (one index, then 2
// and 3 shards).
constexpr std::size_t kSciFactAbstracts = 1500;
// Hits compared per query, and how far their scores may differ.
constexpr int kTopHits = 20;
constexpr double kScoreTolerance = 1e-6;
// A word no abstract has: `-kNoSuchWord` alone matches every abstract.
const std::string kNoSuchWord = "zzyzxqjv";

// docs/query-language.md's stop words: never indexed, so never a query's keyword.
const std::set<std::string> kStopWords = {
    "a",   "an",    "and",  "are",   "as",    "at",   "be",   "but", "by",  "for",  "if",
    "in",  "into",  "is",   "it",    "no",    "not",  "of",   "on",  "or",  "such", "that",
    "the", "their", "then", "there", "these", "they", "this", "to",  "was", "will", "with"};
// An acronym spelled as one of these would be read as an operator.
const std::set<std::string> kOperators = {"AND", "OR", "NOT", "XOR", "NEAR", "ADJ"};

// ---------------------------------------------------------------------------
// Running the binary.

// `args` on the index or cluster file `index`, in `cwd`, with `global` options
// (such as --allow-partial) first.
RunResult run_on(const fs::path& index, std::vector<std::string> args, const fs::path& cwd,
                 const std::vector<std::string>& global = {}) {
  args.insert(args.begin(), {"--index", index.string()});
  args.insert(args.begin(), global.begin(), global.end());
  return run_with_limit(kRunLimit, ABSTRACTS_BIN, args, sandbox_env(cwd), cwd);
}

// What a run did, for failure messages.
std::string said(const RunResult& r) {
  auto cut = [](const std::string& s) { return s.size() > 3000 ? s.substr(0, 3000) + "…" : s; };
  return "exit " + std::to_string(r.status) + (r.timed_out ? " (killed: it ran too long)" : "") +
         "\n--- stdout\n" + cut(r.out) + "--- stderr\n" + cut(r.err);
}

// Builds an index of `files` in `index` (shard `shard` when not empty).
RunResult build_index(const fs::path& index, const std::vector<fs::path>& files,
                      const fs::path& cwd, const std::string& shard = {}) {
  std::vector<std::string> args{"index", "--quiet"};
  if (!shard.empty()) args.insert(args.end(), {"--shard", shard});
  for (const auto& f : files) args.push_back(f.string());
  return run_on(index, args, cwd);
}

std::vector<json> json_lines(const std::string& out) {
  std::vector<json> result;
  for (const auto& l : lines(out)) result.push_back(json::parse(l));
  return result;
}

std::set<std::string> ids_of(const std::string& json_out) {
  std::set<std::string> ids;
  for (const auto& hit : json_lines(json_out)) ids.insert(hit.at("id").get<std::string>());
  return ids;
}

// The arguments that list every abstract of an index: a query of one exclusion.
std::vector<std::string> list_everything() {
  return {"search", "--json", "--limit", "100000", "--", "-" + kNoSuchWord};
}

// The ids of every abstract `index` holds; throws when it cannot say.
std::set<std::string> all_ids(const fs::path& index, const fs::path& cwd) {
  auto r = run_on(index, list_everything(), cwd);
  if (r.status != 0) throw std::runtime_error("cannot list " + index.string() + ": " + said(r));
  return ids_of(r.out);
}

bool names_in_a_line(const std::string& err, const std::string& what, const std::string& prefix) {
  for (const auto& l : lines(err)) {
    if (l.starts_with(prefix) && contains(l, what)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Shard servers.

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    auto candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

sockaddr_in loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  return addr;
}

// A socket bound to 127.0.0.1: `port` 0 lets the kernel pick a free one.
int bound_socket(int port, int& bound_port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  auto addr = loopback(port);
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    int e = errno;
    close(fd);
    throw std::runtime_error(std::string("bind: ") + std::strerror(e));
  }
  bound_port = ntohs(addr.sin_port);
  return fd;
}

// A port that nobody listens on now. Another process may take it before the
// server does: ShardServer then tries another.
int free_port() {
  int port = 0;
  close(bound_socket(0, port));
  return port;
}

bool accepts_connections(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  auto addr = loopback(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

std::string loopback_address(int port) { return "127.0.0.1:" + std::to_string(port); }

// xapian-tcpsrv serving one index on 127.0.0.1, on a port of its own, in a
// process group of its own (it forks a process per connection). The destructor
// kills the group and reaps the server, however the test ends.
class ShardServer {
 public:
  // Starts the server and waits until it accepts connections (at most 15 s);
  // throws std::runtime_error, with the server's output, when it cannot.
  ShardServer(const fs::path& index, const fs::path& log_dir) {
    static const std::string program = find_program("xapian-tcpsrv");
    if (program.empty()) {
      throw std::runtime_error(
          "xapian-tcpsrv is not on PATH: install xapian-tools (scripts/install-deps)");
    }
    std::string why;
    for (int attempt = 0; attempt < 5; ++attempt) {
      int port = free_port();
      auto log = log_dir / ("xapian-tcpsrv-" + std::to_string(port) + ".log");
      if (start(program, port, index, log, why)) return;
    }
    throw std::runtime_error("xapian-tcpsrv did not start for " + index.string() + ": " + why);
  }
  ~ShardServer() { stop(); }
  ShardServer(const ShardServer&) = delete;
  ShardServer& operator=(const ShardServer&) = delete;

  int port() const { return port_; }
  std::string address() const { return loopback_address(port_); }

  // Kills the server and the processes serving its connections; the port then
  // refuses connections.
  void stop() {
    if (pid_ <= 0) return;
    kill(-pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

 private:
  bool start(const std::string& program, int port, const fs::path& index, const fs::path& log,
             std::string& why) {
    SpawnArgs args(
        program, {"--port", std::to_string(port), "--interface", "127.0.0.1", index.string()}, {});
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, args.argv(), args.envp());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
      why = std::string("cannot run xapian-tcpsrv: ") + std::strerror(rc);
      return false;
    }
    pid_ = pid;
    port_ = port;
    const auto deadline = Clock::now() + 15s;
    while (Clock::now() < deadline) {
      if (accepts_connections(port)) return true;
      if (waitpid(pid, nullptr, WNOHANG) == pid) {  // e.g. the port was taken meanwhile
        pid_ = -1;
        why = "it exited: " + read_file(log);
        return false;
      }
      std::this_thread::sleep_for(20ms);
    }
    stop();
    why = "no connection accepted on port " + std::to_string(port) + " in 15 s: " + read_file(log);
    return false;
  }

  pid_t pid_ = -1;
  int port_ = 0;
};

// A socket on 127.0.0.1 that listens and never accepts: a client's connect
// succeeds (the kernel completes it into the backlog) and then hears nothing,
// as from a shard whose machine is overloaded or whose server is stuck.
class SilentListener {
 public:
  SilentListener() {
    fd_ = bound_socket(0, port_);
    if (listen(fd_, 64) != 0)
      throw std::runtime_error(std::string("listen: ") + std::strerror(errno));
  }
  ~SilentListener() { close(fd_); }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  std::string address() const { return loopback_address(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// Xapian's remote protocol as 1.4 speaks it (common/remoteprotocol.h and
// net/length.h in its source): each message is a type byte, the body's length
// (one byte below 255, else 255 and then 7 bits a byte, the last byte with its
// top bit set), and the body. The server's first message, the greeting, starts
// with the protocol's major version. The requests that set off a fault:
constexpr int kProtocolMajor = 39;         // Xapian 1.4
constexpr int kRequestAllTerms = 0;        // MSG_ALLTERMS: stats counts the terms
constexpr int kRequestDocument = 2;        // MSG_DOCUMENT: a hit's stored abstract
constexpr int kRequestQuery = 8;           // MSG_QUERY: the match starts
constexpr int kRequestGetMetadata = 22;    // MSG_GETMETADATA: the first request after the greeting

enum class Fault { kNone, kClose, kGarbage, kStall };

std::string fault_name(Fault f) {
  switch (f) {
    case Fault::kNone: return "none";
    case Fault::kClose: return "the connection closes";
    case Fault::kGarbage: return "garbage is sent";
    case Fault::kStall: return "the shard goes silent";
  }
  return "?";
}

// Sends all of `data`, false if the connection is gone (no SIGPIPE).
bool send_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t sent = ::send(fd, data, n, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    data += sent;
    n -= static_cast<std::size_t>(sent);
  }
  return true;
}

// A shard that fails past the handshake (issue 40): a proxy on 127.0.0.1 in
// front of a real xapian-tcpsrv, relaying each connection as it is, greeting
// included, until the client sends its `nth` request of type `trigger`. Then, instead
// of passing it on, it closes the connection (kClose), sends bytes that frame a
// reply of no known type and closes it (kGarbage), or goes silent and keeps the
// connection open (kStall). Every connection fails so, a client's new ones too.
// kNone relays everything (to see which requests a command sends). One thread
// polls every connection; the destructor stops it and closes them.
class FaultyShard {
 public:
  FaultyShard(int upstream_port, Fault fault, int trigger, int nth = 1)
      : upstream_port_(upstream_port), fault_(fault), trigger_(trigger), nth_(nth) {
    listen_fd_ = bound_socket(0, port_);
    if (listen(listen_fd_, 64) != 0 || pipe2(wake_, O_CLOEXEC) != 0) {
      throw std::runtime_error(std::string("listen: ") + std::strerror(errno));
    }
    thread_ = std::thread([this] { run(); });
  }
  ~FaultyShard() {
    char stop = 's';
    while (write(wake_[1], &stop, 1) < 0 && errno == EINTR) {
    }
    thread_.join();
    for (auto& c : conns_) close_conn(c);
    close(listen_fd_);
    close(wake_[0]);
    close(wake_[1]);
  }
  FaultyShard(const FaultyShard&) = delete;
  FaultyShard& operator=(const FaultyShard&) = delete;

  std::string address() const { return loopback_address(port_); }
  // The types of the requests clients sent, and how many times the fault struck.
  std::set<int> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  int faults() const {
    std::lock_guard lock(mutex_);
    return faults_;
  }
  // The protocol version the real server's greeting gave (0 before one came).
  int protocol_major() const {
    std::lock_guard lock(mutex_);
    return protocol_major_;
  }

 private:
  struct Conn {
    int client = -1, server = -1;
    std::string from_client;  // bytes of a request not yet complete
    std::string greeting;     // the server's first bytes, until the version is read
    int triggers = 0;         // requests of the trigger's type so far
    bool stalled = false;
  };

  static void close_conn(Conn& c) {
    if (c.client >= 0) close(c.client);
    if (c.server >= 0) close(c.server);
    c.client = c.server = -1;
  }

  // The length of the first complete message in `b`, or 0 if none yet.
  static std::size_t message_length(const std::string& b) {
    if (b.size() < 2) return 0;
    std::size_t at = 1, len = static_cast<unsigned char>(b[at++]);
    if (len == 0xff) {
      len = 0;
      for (unsigned shift = 0;; shift += 7) {
        if (at == b.size()) return 0;
        const auto ch = static_cast<unsigned char>(b[at++]);
        len |= static_cast<std::size_t>(ch & 0x7f) << shift;
        if ((ch & 0x80) != 0) break;
      }
      len += 255;
    }
    return b.size() - at >= len ? at + len : 0;
  }

  // Passes the complete requests on, or strikes; false when the connection is done.
  bool from_client(Conn& c) {
    while (std::size_t n = message_length(c.from_client)) {
      const int type = static_cast<unsigned char>(c.from_client[0]);
      const bool strike = fault_ != Fault::kNone && type == trigger_ && ++c.triggers == nth_;
      {
        std::lock_guard lock(mutex_);
        requests_.insert(type);
        if (strike) ++faults_;
      }
      if (strike) {
        if (fault_ == Fault::kGarbage) {
          const std::string garbage(200, 'R');  // type 82, 82 bytes of body, and more
          send_all(c.client, garbage.data(), garbage.size());
        }
        if (fault_ == Fault::kStall) {
          c.stalled = true;
          return true;
        }
        return false;
      }
      if (!send_all(c.server, c.from_client.data(), n)) return false;
      c.from_client.erase(0, n);
    }
    return true;
  }

  void from_server(Conn& c, const char* data, std::size_t n) {
    if (c.greeting.size() < 3) {
      c.greeting.append(data, std::min<std::size_t>(n, 3 - c.greeting.size()));
      if (c.greeting.size() == 3 && static_cast<unsigned char>(c.greeting[1]) != 0xff) {
        std::lock_guard lock(mutex_);
        protocol_major_ = static_cast<unsigned char>(c.greeting[2]);
      }
    }
  }

  void run() {
    char buf[65536];
    while (true) {
      std::vector<pollfd> fds{{wake_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
      for (const auto& c : conns_) {
        fds.push_back({c.client, static_cast<short>(c.stalled ? 0 : POLLIN), 0});
        fds.push_back({c.server, static_cast<short>(c.stalled ? 0 : POLLIN), 0});
      }
      if (poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[0].revents != 0) return;
      for (std::size_t i = 0; i < conns_.size(); ++i) {
        Conn& c = conns_[i];
        const short client_events = fds[2 + 2 * i].revents, server_events = fds[3 + 2 * i].revents;
        bool open = true;
        if (client_events != 0) {  // for a stalled connection, only its end (POLLHUP)
          ssize_t got = read(c.client, buf, sizeof buf);
          open = got > 0;
          if (open && !c.stalled) {
            c.from_client.append(buf, static_cast<std::size_t>(got));
            open = from_client(c);
          }
        }
        if (open && !c.stalled && server_events != 0) {
          ssize_t got = read(c.server, buf, sizeof buf);
          open = got > 0;
          if (open) {
            from_server(c, buf, static_cast<std::size_t>(got));
            open = send_all(c.client, buf, static_cast<std::size_t>(got));
          }
        }
        if (!open) close_conn(c);
      }
      conns_.erase(std::remove_if(conns_.begin(), conns_.end(), [](const Conn& c) { return c.client < 0; }),
                   conns_.end());
      if (fds[1].revents != 0) {
        int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        int server = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        auto addr = loopback(upstream_port_);
        if (server < 0 || connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
          close(client);
          if (server >= 0) close(server);
          continue;
        }
        conns_.push_back({client, server, {}, {}, 0, false});
      }
    }
  }

  int upstream_port_;
  Fault fault_;
  int trigger_;
  int nth_;
  int listen_fd_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};
  std::vector<Conn> conns_;  // the thread's, until it is joined
  mutable std::mutex mutex_;
  std::set<int> requests_;
  int faults_ = 0;
  int protocol_major_ = 0;
  std::thread thread_;
};

// ---------------------------------------------------------------------------
// Shards.

struct Shards {
  std::vector<fs::path> dirs;              // shard K of N in dirs[K - 1]
  std::vector<std::set<std::string>> ids;  // the abstracts each holds
};

// Builds the `n` shards of `files` into dir/shard-K, and checks that they split
// `everything` (the abstracts of one index of the same files): none empty, no
// abstract in two, none left out.
Shards build_shards(const fs::path& dir, int n, const std::vector<fs::path>& files,
                    const fs::path& cwd, const std::set<std::string>& everything) {
  Shards s;
  std::set<std::string> together;
  std::size_t total = 0;
  for (int k = 1; k <= n; ++k) {
    auto shard = dir / ("shard-" + std::to_string(k));
    auto spec = std::to_string(k) + "/" + std::to_string(n);
    auto r = build_index(shard, files, cwd, spec);
    if (r.status != 0) throw std::runtime_error("index --shard " + spec + ": " + said(r));
    s.dirs.push_back(shard);
    s.ids.push_back(all_ids(shard, cwd));
    EXPECT_FALSE(s.ids.back().empty()) << "shard " << spec << " holds no abstract";
    total += s.ids.back().size();
    together.insert(s.ids.back().begin(), s.ids.back().end());
  }
  EXPECT_EQ(total, together.size()) << "an abstract is in two of the " << n << " shards";
  EXPECT_EQ(together, everything) << "the " << n
                                  << " shards do not hold the abstracts of one index";
  return s;
}

// ---------------------------------------------------------------------------
// The corpus.

struct Author {
  std::string given, family;
};

// An abstract of the test corpus, as the queries are drawn from it.
struct Paper {
  std::string title;  // the source's, else the first sentence
  std::string text;
  // Metadata records only:
  std::vector<Author> authors;
  int year = 0;
  std::string venue;
  std::string doi;
};

struct TestCorpus {
  std::string name;  // which corpus: said in the test's output
  std::vector<fs::path> files;
  std::vector<Paper> papers;
  std::vector<std::string> claims;  // SciFact's test claims, when it is SciFact
};

// Family names with a space, an accent and one of two letters: each is a case
// the author: field must get right on every shard.
const std::vector<Author> kAuthors = {
    {"Ada", "Lovelace"},        {"Alan", "Turing"},      {"Grace", "Hopper"},
    {"Csaba", "Balázs"},        {"Jan", "van der Berg"}, {"Marie", "Curie"},
    {"Rosalind", "Franklin"},   {"Niels", "Bohr"},       {"Emmy", "Noether"},
    {"Srinivasa", "Ramanujan"}, {"Kurt", "Gödel"},       {"Barbara", "McClintock"},
    {"Dorothy", "Hodgkin"},     {"Chien-Shiung", "Wu"},  {"Tu", "Youyou"},
    {"Katalin", "Karikó"}};
const std::vector<std::string> kVenues = {"Nature",  "Cell",  "Lancet", "JAMA",
                                          "Science", "eLife", "BMJ",    "PLoS Medicine"};

// The `n`th metadata paper's authors (one to three), year, venue and, for every
// other one, a DOI: what a Semantic Scholar record gives and BEIR does not.
void add_metadata(Paper& p, std::size_t n) {
  for (std::size_t k = 0; k < 1 + n % 3; ++k) {
    p.authors.push_back(kAuthors[(n * 7 + k * 5) % kAuthors.size()]);
  }
  p.year = 2008 + static_cast<int>((n * 7) % 15);
  p.venue = kVenues[(n * 3) % kVenues.size()];
  if (n % 2 == 0) p.doi = "10.5555/issue19." + std::to_string(n);
}

json semantic_scholar_record(const Paper& p, std::size_t n) {
  json authors = json::array();
  for (const auto& a : p.authors) authors.push_back({{"name", a.given + " " + a.family}});
  json r = {{"id", "s2-" + std::to_string(n)},
            {"title", p.title},
            {"paperAbstract", p.text},
            {"authors", authors},
            {"year", p.year},
            {"journalName", p.venue}};
  if (!p.doi.empty()) r["doi"] = p.doi;
  return r;
}

std::string first_sentence(const std::string& text) {
  auto end = text.find(". ");
  return text.substr(0, std::min<std::size_t>(end == std::string::npos ? text.size() : end, 200));
}

// SciFact's file `name` (corpus.jsonl, queries.test.jsonl), as it is or from its
// gzip-compressed copy; "" when the shared data does not have it.
std::string scifact_file(const std::string& name) {
  const fs::path dir = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "scifact";
  if (fs::exists(dir / name)) return read_file(dir / name);
  if (fs::exists(dir / (name + ".gz"))) {
    auto r = run("/bin/sh", {"-c", "exec gzip -dc < \"$0\"", (dir / (name + ".gz")).string()});
    if (r.status == 0) return r.out;
  }
  return {};
}

// Writes the test corpus into `dir`: SciFact's first kSciFactAbstracts
// abstracts when `scifact` and the shared data has them, else the bundled
// corpus; every fourth abstract goes to metadata.jsonl as a Semantic Scholar
// record with authors, a year and a venue, the others stay in their format.
TestCorpus make_corpus(const fs::path& dir, bool scifact) {
  TestCorpus c;
  std::string kept, metadata;
  std::size_t metadata_count = 0;
  auto add = [&](Paper p, const std::string& as_written) {
    if (c.papers.size() % 4 == 3) {
      add_metadata(p, metadata_count);
      metadata += semantic_scholar_record(p, metadata_count).dump() + "\n";
      ++metadata_count;
    } else {
      kept += as_written;
    }
    c.papers.push_back(std::move(p));
  };
  const std::string corpus = scifact ? scifact_file("corpus.jsonl") : std::string();
  if (!corpus.empty()) {
    std::size_t available = 0;
    for (const auto& line : lines(corpus)) {
      if (trim(line).empty()) continue;
      ++available;
      if (c.papers.size() == kSciFactAbstracts) continue;
      auto record = json::parse(line);
      Paper p;
      p.title = record.value("title", "");
      p.text = record.at("text").get<std::string>();
      if (p.title.empty()) p.title = first_sentence(p.text);
      add(std::move(p), line + "\n");
    }
    write_file(dir / "scifact.jsonl", kept);
    c.files.push_back(dir / "scifact.jsonl");
    for (const auto& line : lines(scifact_file("queries.test.jsonl"))) {
      auto claim = json::parse(line).at("text").get<std::string>();
      std::replace(claim.begin(), claim.end(), '\t', ' ');
      c.claims.push_back(claim);
    }
    c.name = "SciFact from the shared data: its first " + std::to_string(c.papers.size()) + " of " +
             std::to_string(available) + " abstracts";
  } else {
    const auto bundled = corpus_abstracts();
    kept = raw_lines(corpus_files().front()).at(0) + "\n\n";  // the header: venue and year
    for (const auto& a : bundled) {
      Paper p;
      p.text = a.raw;
      p.title = first_sentence(a.raw);
      add(std::move(p), a.raw + "\n\n");
    }
    write_file(dir / "bundled.txt", kept);
    c.files.push_back(dir / "bundled.txt");
    c.name = "the bundled corpus (" + std::to_string(c.papers.size()) + " abstracts)" +
             (scifact ? "; SciFact is not in " + std::string(ABSTRACTS_SHARED_DATA_DIR) : "");
  }
  write_file(dir / "metadata.jsonl", metadata);
  c.files.push_back(dir / "metadata.jsonl");
  c.name += ", " + std::to_string(metadata_count) +
            " of them as Semantic Scholar records with authors, years and venues";
  return c;
}

// ---------------------------------------------------------------------------
// The queries.

struct Query {
  std::string id;    // kind-N
  std::string kind;  // word, phrase, near, ...
  std::string text;
};

// A piece of text between spaces, lower-cased; `clean` when it is ASCII letters
// only, so one term at one position of the index.
struct Piece {
  std::string word;
  bool clean = false;
};

std::vector<Piece> pieces(const std::string& text) {
  std::vector<Piece> out;
  std::stringstream in(text);
  for (std::string w; in >> w;) {
    Piece p{w, true};
    for (auto& ch : p.word) {
      auto u = static_cast<unsigned char>(ch);
      if (u >= 0x80 || !std::isalpha(u)) p.clean = false;
      if (u < 0x80) ch = static_cast<char>(std::tolower(u));
    }
    out.push_back(std::move(p));
  }
  return out;
}

// A word that says what an abstract is about: one term, four letters or more,
// not a stop word.
bool is_keyword(const Piece& p) {
  return p.clean && p.word.size() >= 4 && kStopWords.count(p.word) == 0;
}

std::string join(const std::vector<std::string>& words, const std::string& sep = " ") {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

std::string quoted_if_spaced(const std::string& value) {
  return value.find(' ') == std::string::npos ? value : "\"" + value + "\"";
}

// Draws queries of every kind the query language has from the corpus text,
// deterministically (a fixed seed), so that most of them find something.
class QueryMaker {
 public:
  QueryMaker(const TestCorpus& corpus, const std::vector<json>& acronyms) : corpus_(corpus) {
    for (std::size_t i = 0; i < corpus.papers.size(); ++i) {
      text_.push_back(pieces(corpus.papers[i].text));
      title_.push_back(pieces(corpus.papers[i].title));
      if (!corpus.papers[i].authors.empty()) with_metadata_.push_back(i);
      for (const auto& p : text_.back()) {
        if (p.clean) vocabulary_.insert(p.word);
      }
      for (const auto& p : title_.back()) {
        if (p.clean) vocabulary_.insert(p.word);
      }
    }
    // Acronyms the engine expands: used, at least two capitals, one word.
    for (const auto& a : acronyms) {
      const auto sf = a.at("short_form").get<std::string>();
      int capitals = 0;
      bool word = true;
      for (unsigned char ch : sf) {
        if (std::isupper(ch)) ++capitals;
        if (ch >= 0x80 || !std::isalnum(ch)) word = false;
      }
      if (!a.at("used").get<bool>() || capitals < 2 || !word || kOperators.count(sf) != 0) continue;
      acronyms_.push_back(a);
    }
    std::stable_sort(acronyms_.begin(), acronyms_.end(), [](const json& a, const json& b) {
      return a.at("count").get<int>() > b.at("count").get<int>();
    });
  }

  std::vector<Query> make() {
    add("word", 70, [&] { return keyword(text_[any()]); });
    add("words", 40, [&] {
      const auto& t = text_[any()];
      std::vector<std::string> words;
      for (int k = 0; k < 2 + pick(2); ++k) words.push_back(keyword(t));
      return std::count(words.begin(), words.end(), "") ? "" : join(words);
    });
    add("question", 60, [&] { return question(text_[any()]); });
    for (const auto& claim : corpus_.claims) {
      if (count("claim") < 30) add_one("claim", claim);
    }
    add("phrase", 60, [&] {
      auto words = run_of(text_[any()], 2 + static_cast<std::size_t>(pick(2)));
      return words.empty() ? "" : "\"" + join(words) + "\"";
    });
    add("near", 30, [&] { return proximity(" NEAR/", false); });
    add("adj", 30, [&] { return proximity(" ADJ/", false); });
    add("near-reversed", 10, [&] { return proximity(" NEAR/", true); });
    add("adj-reversed", 10, [&] { return proximity(" ADJ/", true); });
    add("near-phrase", 10, [&] {
      const auto& t = text_[any()];
      std::size_t i = pick(t.size()), d = 1 + pick(4);
      if (i + 1 + d >= t.size() || !all_clean(t, i, i + 1 + d) || !is_keyword(t[i]) ||
          !is_keyword(t[i + 1]) || !is_keyword(t[i + 1 + d])) {
        return std::string();
      }
      return "\"" + t[i].word + " " + t[i + 1].word + "\" NEAR/" + std::to_string(d + 1) + " " +
             t[i + 1 + d].word;
    });
    add("wildcard", 35, [&] {
      auto w = keyword(text_[any()]);
      return w.size() < 7 ? "" : w.substr(0, 5 + pick(2)) + "*";
    });
    add("title", 20, [&] {
      auto w = keyword(title_[any()]);
      return w.empty() ? "" : "title:" + w;
    });
    add("title-words", 10, [&] {
      auto i = any();
      auto w = keyword(text_[i]), t = keyword(title_[i]);
      return w.empty() || t.empty() ? "" : w + " title:" + t;
    });
    add("title-phrase", 10, [&] {
      auto words = run_of(title_[any()], 2);
      return words.empty() ? "" : "title:\"" + join(words) + "\"";
    });
    add("title-wildcard", 10, [&] {
      auto w = keyword(title_[any()]);
      return w.size() < 6 ? "" : "title:" + w.substr(0, 4 + pick(2)) + "*";
    });
    add("author", 12, [&] { return author(meta()); });
    add("author-word", 12, [&] {
      const auto& p = meta();
      auto w = keyword(text_[index_of(p)]);
      return w.empty() ? "" : w + " " + author(p);
    });
    add("year", 8, [&] { return "year:" + std::to_string(2008 + pick(15)); });
    add("year-range", 8, [&] {
      int from = 2008 + pick(15), to = from + pick(5);
      switch (pick(3)) {
        case 0:
          return "year:" + std::to_string(from) + ".." + std::to_string(to);
        case 1:
          return "year:.." + std::to_string(to);
        default:
          return "year:" + std::to_string(from) + "..";
      }
    });
    add("year-word", 12, [&] {
      const auto& p = meta();
      auto w = keyword(text_[index_of(p)]);
      return w.empty() ? "" : w + " year:" + std::to_string(p.year);
    });
    add("venue", 8, [&] { return "venue:" + quoted_if_spaced(meta().venue); });
    add("venue-word", 10, [&] {
      const auto& p = meta();
      auto w = keyword(text_[index_of(p)]);
      return w.empty() ? "" : w + " venue:" + quoted_if_spaced(p.venue);
    });
    add("fields", 16, [&] {
      const auto& p = meta();
      auto w = keyword(text_[index_of(p)]);
      auto venue = "venue:" + quoted_if_spaced(p.venue);
      auto year = "year:" + std::to_string(p.year);
      switch (pick(4)) {
        case 0:
          return author(p) + " " + year;
        case 1:
          return venue + " year:" + std::to_string(p.year - 2) + ".." + std::to_string(p.year + 2);
        case 2:
          return w.empty() ? "" : w + " " + author(p) + " " + venue;
        default:
          return w.empty() ? "" : w + " -" + year;
      }
    });
    add("doi", 6, [&] {
      const auto& p = meta();
      if (p.doi.empty()) return std::string();
      auto w = keyword(text_[index_of(p)]);
      return pick(2) == 0 || w.empty() ? "doi:" + p.doi : w + " doi:" + p.doi;
    });
    for (std::size_t i = 0; i < acronyms_.size() && count("acronym") < 30; ++i) {
      // The commonest first, then every third one: rare acronyms too.
      if (i < 20 || i % 3 == 0)
        add_one("acronym", acronyms_[i].at("short_form").get<std::string>());
    }
    add("acronym-word", 10, [&] {
      if (acronyms_.empty()) return std::string();
      auto w = keyword(text_[any()]);
      return w.empty()
                 ? ""
                 : acronyms_[pick(acronyms_.size())].at("short_form").get<std::string>() + " " + w;
    });
    for (std::size_t i = 0; i < acronyms_.size() && count("long-form") < 15; ++i) {
      auto long_form = acronyms_[i].at("long_form").get<std::string>();
      if (long_form.find_first_of("\"\t()*:") == std::string::npos) {
        add_one("long-form", "\"" + long_form + "\"");
      }
    }
    add("misspelled", 25, [&] { return misspelled(keyword(text_[any()])); });
    add("misspelled-pair", 20, [&] {
      const auto& t = text_[any()];
      auto bad = misspelled(keyword(t)), good = keyword(t);
      return bad.empty() || good.empty() ? "" : bad + " " + good;
    });
    add("boolean", 30, [&] {
      const auto& t = text_[any()];
      auto a = keyword(t), b = keyword(t), c = keyword(t), other = keyword(text_[any()]);
      if (a.empty() || b.empty() || c.empty() || other.empty() || a == b) return std::string();
      switch (pick(6)) {
        case 0:
          return a + " AND " + b;
        case 1:
          return a + " OR " + other;
        case 2:
          return a + " NOT " + other;
        case 3:
          return "(" + a + " OR " + other + ") AND " + c;
        case 4:
          return "+" + a + " " + b;
        default:
          return a + " XOR " + b;
      }
    });
    return queries_;
  }

 private:
  int pick(std::size_t n) { return n == 0 ? 0 : static_cast<int>(rng_() % n); }
  std::size_t any() { return static_cast<std::size_t>(pick(corpus_.papers.size())); }
  const Paper& meta() {
    if (with_metadata_.empty()) throw std::logic_error("the corpus has no metadata records");
    return corpus_.papers[with_metadata_[static_cast<std::size_t>(pick(with_metadata_.size()))]];
  }
  std::size_t index_of(const Paper& p) const {
    return static_cast<std::size_t>(&p - corpus_.papers.data());
  }
  int count(const std::string& kind) const { return made_.count(kind) ? made_.at(kind) : 0; }

  // Adds `count` queries of `kind`, each from `make_one`, which returns "" when
  // what it drew does not fit; it is tried again, within a bound.
  void add(const std::string& kind, int wanted, const std::function<std::string()>& make_one) {
    for (int tries = 0; count(kind) < wanted && tries < wanted * 100; ++tries) {
      add_one(kind, make_one());
    }
  }
  void add_one(const std::string& kind, const std::string& text) {
    if (text.empty() || !seen_.insert(text).second) return;
    queries_.push_back({kind + "-" + std::to_string(count(kind)), kind, text});
    ++made_[kind];
  }

  // A keyword of `t` at a random place, or "".
  std::string keyword(const std::vector<Piece>& t) {
    if (t.empty()) return {};
    const auto& p = t[static_cast<std::size_t>(pick(t.size()))];
    return is_keyword(p) ? p.word : std::string();
  }
  static bool all_clean(const std::vector<Piece>& t, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i <= to; ++i) {
      if (!t[i].clean) return false;
    }
    return true;
  }
  // `len` words in a row of `t` that start and end with a keyword (stop words
  // may come between), or none.
  std::vector<std::string> run_of(const std::vector<Piece>& t, std::size_t len) {
    if (t.size() < len) return {};
    std::size_t i = static_cast<std::size_t>(pick(t.size() - len + 1));
    if (!all_clean(t, i, i + len - 1) || !is_keyword(t[i]) || !is_keyword(t[i + len - 1]))
      return {};
    std::vector<std::string> words;
    for (std::size_t k = i; k < i + len; ++k) words.push_back(t[k].word);
    return words;
  }
  // Two keywords of one abstract, d words apart with no punctuation between:
  // `a NEAR/n b` with n from d, or the other way round.
  std::string proximity(const std::string& op, bool reversed) {
    const auto& t = text_[any()];
    if (t.empty()) return {};
    std::size_t i = static_cast<std::size_t>(pick(t.size())),
                d = 1 + static_cast<std::size_t>(pick(6));
    if (i + d >= t.size() || !all_clean(t, i, i + d) || !is_keyword(t[i]) ||
        !is_keyword(t[i + d])) {
      return {};
    }
    auto n = std::to_string(d + static_cast<std::size_t>(pick(2)));
    return reversed ? t[i + d].word + op + n + " " + t[i].word
                    : t[i].word + op + n + " " + t[i + d].word;
  }
  // Eight words of an abstract from a random place, as someone would type a
  // question: lower case, punctuation dropped; "" if fewer than four keywords.
  std::string question(const std::vector<Piece>& t) {
    if (t.size() < 8) return {};
    std::size_t start = static_cast<std::size_t>(pick(t.size() - 7));
    std::string text;
    for (std::size_t i = start; i < start + 8; ++i) {
      for (char ch : t[i].word) {
        auto u = static_cast<unsigned char>(ch);
        text += u < 0x80 && std::isalnum(u) ? ch : ' ';
      }
      text += ' ';
    }
    std::set<std::string> keywords;
    std::vector<std::string> words;
    std::stringstream in(text);
    for (std::string w; in >> w;) {
      words.push_back(w);
      if (w.size() >= 3 && kStopWords.count(w) == 0 &&
          std::isalpha(static_cast<unsigned char>(w[0]))) {
        keywords.insert(w);
      }
    }
    return keywords.size() >= 4 ? join(words) : std::string();
  }
  std::string author(const Paper& p) {
    const auto& a = p.authors[static_cast<std::size_t>(pick(p.authors.size()))];
    return pick(4) == 0 ? "author:\"" + a.given + " " + a.family + "\""
                        : "author:" + quoted_if_spaced(a.family);
  }
  // `word` with two letters swapped, when that is no word of the corpus.
  std::string misspelled(const std::string& word) {
    if (word.size() < 7 || word[2] == word[3]) return {};
    std::string bad = word;
    std::swap(bad[2], bad[3]);
    return vocabulary_.count(bad) ? std::string() : bad;
  }

  const TestCorpus& corpus_;
  std::vector<std::vector<Piece>> text_, title_;
  std::vector<std::size_t> with_metadata_;
  std::set<std::string> vocabulary_;
  std::vector<json> acronyms_;
  std::mt19937 rng_{19};
  std::vector<Query> queries_;
  std::set<std::string> seen_;
  std::map<std::string, int> made_;
};

// Kinds of query of which at least half must find something on the local
// index, so that the comparison cannot pass on empty answers. (Reversed ADJ,
// XOR and the rest may well find nothing.)
const std::set<std::string> kMustFind = {
    "word",  "words",      "question", "claim",     "phrase",      "near",
    "adj",   "wildcard",   "title",    "author",    "author-word", "year",
    "venue", "venue-word", "acronym",  "long-form", "misspelled",  "misspelled-pair"};

// ---------------------------------------------------------------------------
// Comparing answers.

// The hits of a `search --json` or `similar --json` run, by query id ("" without
// --queries), best first.
std::map<std::string, std::vector<json>> hits_by_query(const std::string& out) {
  std::map<std::string, std::vector<json>> hits;
  for (auto& hit : json_lines(out)) {
    auto query = hit.value("query", std::string());
    hits[query].push_back(std::move(hit));
  }
  return hits;
}

std::string ranking(const std::vector<json>& hits) {
  std::ostringstream out;
  out.precision(9);
  for (const auto& h : hits)
    out << " " << h.at("id").get<std::string>() << " " << h.at("score").get<double>() << ";";
  return hits.empty() ? " (none)" : out.str();
}

// How `got` (the cluster's hits) differs from `want` (the local index's): ""
// when they are the same hits in the same order, scores within
// kScoreTolerance, every other key equal.
std::string hits_difference(const std::vector<json>& want, const std::vector<json>& got) {
  std::string both = "\n      local:  " + ranking(want) + "\n      cluster:" + ranking(got);
  for (std::size_t i = 0; i < std::min(want.size(), got.size()); ++i) {
    if (want[i].at("id") != got[i].at("id")) {
      return "hit " + std::to_string(i + 1) + " differs" + both;
    }
    double dw = want[i].at("score").get<double>(), dg = got[i].at("score").get<double>();
    if (std::abs(dw - dg) > kScoreTolerance) {
      std::ostringstream s;
      s.precision(12);
      s << "hit " << i + 1 << " scores " << dw << " locally, " << dg << " in the cluster" << both;
      return s.str();
    }
    json w = want[i], g = got[i];
    w.erase("score");
    g.erase("score");
    if (w != g) {
      for (const auto& [key, value] : w.items()) {
        if (!g.contains(key) || g.at(key) != value) {
          return "hit " + std::to_string(i + 1) + " has another " + key + ": " +
                 value.dump().substr(0, 200) + " locally, " +
                 (g.contains(key) ? g.at(key).dump().substr(0, 200) : "none") + " in the cluster";
        }
      }
      return "hit " + std::to_string(i + 1) +
             " has keys the local hit has not: " + g.dump().substr(0, 300);
    }
  }
  if (want.size() != got.size()) {
    return std::to_string(want.size()) + " hits locally, " + std::to_string(got.size()) +
           " in the cluster" + both;
  }
  return {};
}

// A wildcard is the OP_SYNONYM of the words it expands to, and Xapian 1.4
// estimates a synonym's frequency, which BM25 weighs it by, on each database
// from the words that database has: on a shard that lacks one of the words the
// synonym weighs a little more (docs/scale-out.md, "Known gaps"). So for a
// wildcard the cluster must find as many hits, and mostly the same ones, not
// in the same order.
std::string synonym_difference(const std::vector<json>& want, const std::vector<json>& got) {
  if (want.size() != got.size()) {
    return std::to_string(want.size()) + " hits locally, " + std::to_string(got.size()) + " in the cluster";
  }
  std::set<std::string> local;
  for (const auto& h : want) local.insert(h.at("id").get<std::string>());
  std::size_t common = 0;
  for (const auto& h : got) common += local.count(h.at("id").get<std::string>());
  if (4 * common < 3 * want.size()) {
    return "only " + std::to_string(common) + " of " + std::to_string(want.size()) + " hits in common" +
           "\n      local:  " + ranking(want) + "\n      cluster:" + ranking(got);
  }
  return {};
}

// The first line where `got` and `want` differ, for a message.
std::string first_difference(const std::string& want, const std::string& got) {
  auto w = lines(want), g = lines(got);
  for (std::size_t i = 0; i < std::max(w.size(), g.size()); ++i) {
    std::string a = i < w.size() ? w[i] : "(nothing)", b = i < g.size() ? g[i] : "(nothing)";
    if (a != b) {
      return "line " + std::to_string(i + 1) + ":\n      local:   " + a.substr(0, 300) +
             "\n      cluster: " + b.substr(0, 300);
    }
  }
  return {};
}

// A command whose answer from a cluster must be the local index's.
struct Check {
  enum class Compare {
    kHits,   // JSON hits, query by query (hits_difference)
    kText,   // the whole of stdout
    kCount,  // stats --json: the number of abstracts
  };
  std::string what;               // for messages
  std::vector<std::string> args;  // after --index
  Compare compare = Compare::kText;
  RunResult local;  // the local index's answer
  double local_seconds = 0;
};

// What the cluster's answer `got` does otherwise than `check.local`: one
// description per difference, none when they agree.
std::vector<std::string> differences(const Check& check, RunResult got,
                                     const std::map<std::string, Query>& queries, bool xor_refused) {
  std::vector<std::string> out;
  if (got.timed_out)
    return {"it ran past " + std::to_string(kRunLimit.count()) + " s: " + said(got)};
  // On a cluster of local shards XOR is refused (Xapian 1.4 crashes on it;
  // docs/scale-out.md): each query with XOR, and only those, must say so, and
  // the others must answer as the local index does.
  std::set<std::string> refused;
  if (xor_refused) {
    std::string kept;
    bool skip_hint = false;
    for (const auto& line : lines(got.err)) {
      const auto colon = line.find(": XOR at column ");
      if (line.rfind("error: query ", 0) == 0 && colon != std::string::npos &&
          contains(line, "cannot run on a cluster of two or more local shards")) {
        refused.insert(line.substr(13, colon - 13));
        skip_hint = true;
        continue;
      }
      if (skip_hint && line.rfind("hint: ", 0) == 0) {
        skip_hint = false;
        continue;
      }
      skip_hint = false;
      kept += line + "\n";
    }
    got.err = kept;
    for (const auto& [id, q] : queries) {
      const bool has_xor = contains(q.text, " XOR ");
      if (has_xor != (refused.count(id) != 0) && contains(check.local.out + check.local.err, "\"" + id + "\"")) {
        out.push_back(id + " [" + q.text + "]: " + (has_xor ? "not refused" : "refused"));
      }
    }
    if (!refused.empty() && got.status == 2 && check.local.status != 2) got.status = check.local.status;
  }
  if (got.status != check.local.status) {
    out.push_back("exit " + std::to_string(check.local.status) + " locally, " +
                  std::to_string(got.status) + " in the cluster: " + said(got));
  }
  if (got.err != check.local.err) {
    out.push_back("stderr differs at " + first_difference(check.local.err, got.err));
  }
  switch (check.compare) {
    case Check::Compare::kHits: {
      std::map<std::string, std::vector<json>> want = hits_by_query(check.local.out), have;
      try {
        have = hits_by_query(got.out);
      } catch (const json::exception& e) {
        out.push_back(std::string("stdout is not JSON Lines (") + e.what() + "): " + said(got));
        break;
      }
      std::set<std::string> ids;
      for (const auto& [id, hits] : want) ids.insert(id);
      for (const auto& [id, hits] : have) ids.insert(id);
      for (const auto& id : ids) {
        if (refused.count(id) != 0) continue;
        const bool wildcard = id.rfind("wildcard", 0) == 0 || id.rfind("title-wildcard", 0) == 0;
        auto diff = wildcard ? synonym_difference(want[id], have[id]) : hits_difference(want[id], have[id]);
        if (diff.empty()) continue;
        auto q = queries.find(id);
        out.push_back((q == queries.end() ? id : id + " [" + q->second.text + "]") + ": " + diff);
      }
      break;
    }
    case Check::Compare::kText: {
      std::string want = check.local.out;
      if (!refused.empty()) {  // --count: "ID<TAB>N" lines
        want.clear();
        for (const auto& line : lines(check.local.out)) {
          if (refused.count(line.substr(0, line.find('\t'))) == 0) want += line + "\n";
        }
      }
      if (got.out != want) out.push_back("stdout differs at " + first_difference(want, got.out));
      break;
    }
    case Check::Compare::kCount: {
      auto want = json::parse(check.local.out).at("abstracts");
      auto parsed = json::parse(got.out, nullptr, false);  // no exception: discarded if not JSON
      auto have = parsed.is_object() ? parsed.value("abstracts", json()) : json();
      if (want != have)
        out.push_back(want.dump() + " abstracts locally, " + have.dump() + " in the cluster");
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// The local index and its answers, to hold clusters against.

struct Baseline {
  TempDir dir;  // the corpus files, the index, the query files; the runs' cwd
  TestCorpus corpus;
  fs::path local;
  std::set<std::string> ids;  // every abstract of the local index
  std::vector<Query> queries;
  std::map<std::string, Query> by_id;
  std::map<std::string, std::pair<int, int>> found;  // kind -> queries with hits, queries
  std::vector<Check> checks;
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void write_queries(const fs::path& file, const std::vector<Query>& queries,
                   const std::function<bool(const Query&)>& which) {
  std::string text;
  for (const auto& q : queries) {
    if (which(q)) text += q.id + "\t" + q.text + "\n";
  }
  write_file(file, text);
}

// Indexes the corpus in one local index, draws the queries and runs every
// check on the local index. Throws std::runtime_error when that fails.
std::unique_ptr<Baseline> make_baseline(bool scifact) {
  auto start = Clock::now();
  auto b = std::make_unique<Baseline>();
  const fs::path& cwd = b->dir.path();
  b->corpus = make_corpus(cwd, scifact);
  b->local = cwd / "local";
  auto r = build_index(b->local, b->corpus.files, cwd);
  if (r.status != 0) throw std::runtime_error("indexing the corpus failed: " + said(r));
  b->ids = all_ids(b->local, cwd);
  std::cout << "[ issue 19 ] corpus: " << b->corpus.name << "; one local index of " << b->ids.size()
            << " abstracts in " << seconds_since(start) << " s\n";

  r = run_on(b->local, {"acronyms", "--json"}, cwd);
  if (r.status != 0) throw std::runtime_error("acronyms failed: " + said(r));
  b->queries = QueryMaker(b->corpus, json_lines(r.out)).make();
  for (const auto& q : b->queries) b->by_id[q.id] = q;
  write_queries(cwd / "queries.tsv", b->queries, [](const Query&) { return true; });
  write_queries(cwd / "fields.tsv", b->queries, [](const Query& q) {
    return q.kind.starts_with("author") || q.kind.starts_with("year") ||
           q.kind.starts_with("venue") || q.kind == "fields" || q.kind == "doi";
  });
  // Counting and paging go through every shard's matches: the operators and
  // filters, and plain words, without the questions' costlier second pass.
  write_queries(cwd / "counting.tsv", b->queries, [](const Query& q) {
    return q.kind != "question" && q.kind != "claim" && !q.kind.starts_with("misspelled");
  });
  write_queries(cwd / "paging.tsv", b->queries,
                [](const Query& q) { return q.kind == "word" || q.kind == "words"; });

  auto add = [&](std::string what, std::vector<std::string> args, Check::Compare compare) {
    Check c{std::move(what), std::move(args), compare, {}};
    auto started = Clock::now();
    c.local = run_on(b->local, c.args, cwd);
    c.local_seconds = seconds_since(started);
    if (c.local.timed_out || c.local.status > 2) {
      throw std::runtime_error(c.what + " on the local index: " + said(c.local));
    }
    b->checks.push_back(std::move(c));
    return b->checks.back().local;
  };
  const auto top = std::to_string(kTopHits);
  auto batch =
      add("search --queries (every query)",
          {"search", "--queries", (cwd / "queries.tsv").string(), "--json", "--limit", top},
          Check::Compare::kHits);
  add("search --queries --count (all but questions and misspellings)",
      {"search", "--queries", (cwd / "counting.tsv").string(), "--count"}, Check::Compare::kText);
  add("search --queries --sort date (field queries)",
      {"search", "--queries", (cwd / "fields.tsv").string(), "--json", "--limit", top, "--sort",
       "date"},
      Check::Compare::kHits);
  add("search --queries --offset 10 (words)",
      {"search", "--queries", (cwd / "paging.tsv").string(), "--json", "--limit", "10", "--offset",
       "10"},
      Check::Compare::kHits);

  // How many queries of each kind find something, and ids for similar.
  auto hits = hits_by_query(batch.out);
  std::vector<std::string> similar_ids;
  for (const auto& q : b->queries) {
    auto& [with_hits, all] = b->found[q.kind];
    ++all;
    if (hits.count(q.id) == 0) continue;
    ++with_hits;
    auto id = hits[q.id].front().at("id").get<std::string>();
    if (q.kind == "word" && similar_ids.size() < 30 &&
        std::find(similar_ids.begin(), similar_ids.end(), id) == similar_ids.end()) {
      similar_ids.push_back(id);
    }
  }
  for (const auto& id : similar_ids) {
    add("similar " + id, {"similar", id, "--json", "--limit", top}, Check::Compare::kHits);
  }
  for (std::size_t i = 0; i + 2 < similar_ids.size() && i < 12; i += 2) {
    add("similar " + similar_ids[i] + " " + similar_ids[i + 1] + " " + similar_ids[i + 2],
        {"similar", similar_ids[i], similar_ids[i + 1], similar_ids[i + 2], "--json", "--limit",
         top},
        Check::Compare::kHits);
  }

  // show: forty abstracts spread over the index, metadata records among them.
  std::vector<std::string> show_json{"show", "--json"}, show_text{"show"};
  std::size_t step = std::max<std::size_t>(1, b->ids.size() / 40), i = 0;
  for (const auto& id : b->ids) {
    if (i++ % step != 0) continue;
    show_json.push_back(id);
    show_text.push_back(id);
  }
  add("show --json (40 abstracts)", show_json, Check::Compare::kText);
  add("show (40 abstracts)", show_text, Check::Compare::kText);
  add("show of an unknown id", {"show", "no-such-id-" + kNoSuchWord, *b->ids.begin()},
      Check::Compare::kText);
  add("stats --json", {"stats", "--json"}, Check::Compare::kCount);
  for (std::string field : {"author", "year", "venue"}) {
    add("stats --by " + field, {"stats", "--by", field, "--limit", "0", "--json"},
        Check::Compare::kText);
  }
  add("acronyms --json", {"acronyms", "--json"}, Check::Compare::kText);
  add("acronyms", {"acronyms"}, Check::Compare::kText);
  add("every abstract", list_everything(), Check::Compare::kHits);

  std::cout << "[ issue 19 ] " << b->queries.size() << " queries and " << b->checks.size()
            << " commands answered by the local index; ready in " << seconds_since(start)
            << " s\n[ issue 19 ] queries with hits, by kind:";
  for (const auto& [kind, n] : b->found)
    std::cout << " " << kind << " " << n.first << "/" << n.second;
  std::cout << "\n";
  return b;
}

// The checks on a cluster: each answer must be the local index's.
void expect_same_answers(const Baseline& b, const fs::path& cluster, const std::string& name,
                         bool xor_refused = false) {
  auto start = Clock::now();
  std::ostringstream slow;  // where the time goes, for whoever must make the test faster
  slow.precision(2);
  for (const auto& check : b.checks) {
    auto started = Clock::now();
    auto got = run_on(cluster, check.args, b.dir.path());
    if (double took = seconds_since(started); took > 1 || check.local_seconds > 1) {
      slow << "\n  " << check.what << ": " << check.local_seconds << " s locally, " << took
           << " s in the cluster";
    }
    auto diffs = differences(check, got, b.by_id, xor_refused);
    std::string shown;
    for (std::size_t i = 0; i < diffs.size() && i < 15; ++i) shown += "  " + diffs[i] + "\n";
    EXPECT_TRUE(diffs.empty()) << name << ", " << check.what << ": " << diffs.size()
                               << " differences from the local index; the first:\n"
                               << shown;
  }
  std::cout << "[ issue 19 ] " << name << ": " << b.checks.size() << " commands compared in "
            << seconds_since(start) << " s; those over a second:" << slow.str() << "\n";
}

// Enough queries, of every kind, and most of them find something.
void expect_queries_find_things(const Baseline& b, std::size_t at_least) {
  EXPECT_GE(b.queries.size(), at_least);
  int with_hits = 0;
  for (const auto& [kind, n] : b.found) {
    with_hits += n.first;
    if (kMustFind.count(kind) != 0) {
      EXPECT_GE(2 * n.first, n.second) << "only " << n.first << " of " << n.second << " " << kind
                                       << " queries find something on the local index";
    }
  }
  for (const auto& kind : kMustFind) {
    if (kind != "claim") {
      EXPECT_GT(b.found.count(kind), 0u) << "no " << kind << " query was made";
    }
  }
  EXPECT_GE(10 * with_hits, 7 * static_cast<int>(b.queries.size()))
      << "only " << with_hits << " of " << b.queries.size() << " queries find something";
}

class Issue19Cluster : public ::testing::Test {
 protected:
  // SciFact's baseline, built on first use.
  static const Baseline& scifact_baseline() {
    static std::unique_ptr<Baseline> baseline;
    if (!baseline) baseline = make_baseline(true);
    return *baseline;
  }

  // Builds `n` shards of the baseline's corpus, serves each with xapian-tcpsrv
  // and checks that the cluster answers as the local index.
  void expect_cluster_answers_as_local(int n) {
    const Baseline& b = scifact_baseline();
    RecordProperty("corpus", b.corpus.name);
    expect_queries_find_things(b, 500);
    TempDir dir;
    auto start = Clock::now();
    auto shards = build_shards(dir.path(), n, b.corpus.files, b.dir.path(), b.ids);
    std::string sizes;
    for (const auto& ids : shards.ids)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(ids.size());
    std::cout << "[ issue 19 ] " << n << " shards built in " << seconds_since(start) << " s ("
              << sizes << " abstracts)\n";
    std::vector<std::unique_ptr<ShardServer>> servers;
    std::string cluster = "# Issue 19: " + std::to_string(n) + " shards on xapian-tcpsrv\n";
    for (const auto& shard : shards.dirs) {
      servers.push_back(std::make_unique<ShardServer>(shard, dir.path()));
      cluster += "remote " + servers.back()->address() + "\n";
    }
    write_file(dir / "cluster", cluster);
    expect_same_answers(b, dir / "cluster", std::to_string(n) + " remote shards");
  }
};

// Three shards: splits of unequal size, hits merged from more than two. Two
// shards are LocalShardsEquivalence's (two local, and a local and a remote).
TEST_F(Issue19Cluster, ThreeRemoteShardsEquivalence) { expect_cluster_answers_as_local(3); }

// `auto PATH` lines, relative to the cluster file's folder (the commands run
// elsewhere), and a cluster of one local and one remote shard.
TEST_F(Issue19Cluster, LocalShardsEquivalence) {
  auto b = make_baseline(false);
  expect_queries_find_things(*b, 500);
  TempDir dir;
  auto shards =
      build_shards(dir / "clusters" / "shards", 2, b->corpus.files, b->dir.path(), b->ids);
  write_file(dir / "clusters" / "local", "auto shards/shard-1\nauto shards/shard-2\n");
  expect_same_answers(*b, dir / "clusters" / "local", "2 auto shards", true);

  ShardServer server(shards.dirs[1], dir.path());
  write_file(dir / "clusters" / "mixed", "auto shards/shard-1\nremote " + server.address() + "\n");
  b->checks.erase(b->checks.begin() + 1, b->checks.end());  // the batch of every query
  expect_same_answers(*b, dir / "clusters" / "mixed", "an auto and a remote shard");
}

// ---------------------------------------------------------------------------
// Faults.

// Two shards of the bundled corpus, in a directory of their own.
struct SmallCluster {
  TempDir dir;
  Shards shards;
  SmallCluster() {
    std::vector<fs::path> files = corpus_files();
    auto r = build_index(dir / "local", files, dir.path());
    if (r.status != 0) throw std::runtime_error("indexing the bundled corpus failed: " + said(r));
    shards = build_shards(dir.path(), 2, files, dir.path(), all_ids(dir / "local", dir.path()));
  }
  RunResult search(const std::vector<std::string>& args,
                   const std::vector<std::string>& global = {}) {
    std::vector<std::string> all{"search"};
    all.insert(all.end(), args.begin(), args.end());
    return run_on(dir / "cluster", all, dir.path(), global);
  }
};

TEST_F(Issue19Cluster, KilledShardFault) {
  SmallCluster c;
  ShardServer live(c.shards.dirs[0], c.dir.path()), dying(c.shards.dirs[1], c.dir.path());
  write_file(c.dir / "cluster", "remote " + live.address() + "\nremote " + dying.address() + "\n");
  auto r = c.search({"--json", "--limit", "1000", "--", "-" + kNoSuchWord});
  ASSERT_EQ(r.status, 0) << "both shards up: " << said(r);
  std::set<std::string> everything = c.shards.ids[0];
  everything.insert(c.shards.ids[1].begin(), c.shards.ids[1].end());
  EXPECT_EQ(ids_of(r.out), everything);

  dying.stop();
  auto start = Clock::now();
  r = c.search({"learning"});
  auto took = Clock::now() - start;
  EXPECT_FALSE(r.timed_out) << said(r);
  EXPECT_LT(took, kHangBound) << said(r);
  EXPECT_EQ(r.status, 2) << said(r);
  EXPECT_TRUE(names_in_a_line(r.err, dying.address(), "error:"))
      << "no error names the dead shard " << dying.address() << ": " << said(r);
  EXPECT_EQ(r.out, "");

  start = Clock::now();
  r = c.search({"--json", "--limit", "1000", "--", "-" + kNoSuchWord}, {"--allow-partial"});
  took = Clock::now() - start;
  EXPECT_LT(took, kHangBound) << said(r);
  EXPECT_TRUE(r.status == 0 || r.status == 1) << said(r);
  EXPECT_TRUE(names_in_a_line(r.err, dying.address(), ""))
      << "stderr does not name the dead shard " << dying.address() << ": " << said(r);
  EXPECT_FALSE(names_in_a_line(r.err, live.address(), ""))
      << "the live shard is named: " << said(r);
  EXPECT_EQ(ids_of(r.out), c.shards.ids[0]) << "not the live shard's abstracts, all of them";

  r = c.search({"--json", "learning"}, {"--allow-partial"});
  EXPECT_TRUE(r.status == 0 || r.status == 1) << said(r);
  for (const auto& id : ids_of(r.out)) {
    EXPECT_EQ(c.shards.ids[0].count(id), 1u) << id << " is not from the live shard";
  }
}

// Issue 46: xapian-tcpsrv serves no vectors, so a search by meaning on a cluster
// with remote shards is a clear error, while a search by words, and similar's
// default (by words there), answer as before.
TEST_F(Issue19Cluster, Issue46SearchByMeaningOnRemoteShardsIsAClearError) {
  SmallCluster c;
  ShardServer one(c.shards.dirs[0], c.dir.path()), two(c.shards.dirs[1], c.dir.path());
  write_file(c.dir / "cluster", "remote " + one.address() + "\nremote " + two.address() + "\n");
  for (const char* mode : {"--semantic", "--hybrid"}) {
    auto r = c.search({mode, "sparse attention"});
    EXPECT_EQ(r.status, 2) << mode << ": " << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, "remote shards", "error:")) << mode << ": " << said(r);
    EXPECT_EQ(r.out, "");
  }
  auto r = c.search({"--json", "sparse attention"});
  ASSERT_EQ(r.status, 0) << said(r);
  const std::string first = *ids_of(r.out).begin();
  auto similar = run_on(c.dir / "cluster", {"similar", first}, c.dir.path());
  EXPECT_EQ(similar.status, 0) << said(similar);
}

TEST_F(Issue19Cluster, SilentShardFault) {
  SmallCluster c;
  ShardServer live(c.shards.dirs[0], c.dir.path());
  SilentListener silent;
  write_file(c.dir / "cluster", "# abstracts: timeout 1\nremote " + live.address() + "\nremote " +
                                    silent.address() + "\n");

  for (const auto& args :
       std::vector<std::vector<std::string>>{{"search", "learning"}, {"stats"}}) {
    SCOPED_TRACE(join(args));
    auto start = Clock::now();
    auto r = run_on(c.dir / "cluster", args, c.dir.path());
    auto took = Clock::now() - start;
    EXPECT_FALSE(r.timed_out) << said(r);
    EXPECT_LT(took, kHangBound) << "a hang: " << said(r);
    EXPECT_EQ(r.status, 2) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, silent.address(), "error:"))
        << "no error names the silent shard " << silent.address() << ": " << said(r);
    EXPECT_EQ(r.out, "");
  }

  auto start = Clock::now();
  auto r = c.search({"--json", "--limit", "1000", "--", "-" + kNoSuchWord}, {"--allow-partial"});
  auto took = Clock::now() - start;
  EXPECT_FALSE(r.timed_out) << said(r);
  EXPECT_LT(took, kHangBound) << "a hang: " << said(r);
  EXPECT_TRUE(r.status == 0 || r.status == 1) << said(r);
  EXPECT_TRUE(names_in_a_line(r.err, silent.address(), ""))
      << "stderr does not name the silent shard " << silent.address() << ": " << said(r);
  EXPECT_EQ(ids_of(r.out), c.shards.ids[0]) << "not the live shard's abstracts, all of them";
}

// ---------------------------------------------------------------------------
// Issue 40: shards that fail past the handshake. A connection that closes, a
// shard that sends garbage or goes silent once the greeting is done, at the
// first request, at the match, or when a hit's abstract is read: exit 2 with
// an error naming the shard; with --allow-partial, the other shard's answers
// and a warning naming it. Xapian said "Connection closed unexpectedly" or
// "Expecting reply type 16 or 2, got 82", naming no shard, and nothing was
// left out.

class Issue40Cluster : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = new SmallCluster; }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  // Writes the cluster file: shard 1 served as it is, shard 2 at `second`.
  static void use_cluster(const std::string& live, const std::string& second) {
    write_file(cluster_->dir / "cluster", "# abstracts: timeout 1\nremote " + live + "\nremote " + second + "\n");
  }

  static SmallCluster* cluster_;
};
SmallCluster* Issue40Cluster::cluster_ = nullptr;

// The requests the faults are set off by are the ones the commands send, in
// the protocol version the tests read (if Xapian changed its numbering, every
// fault test would pass without a fault).
TEST_F(Issue40Cluster, TheFaultsTriggersAreRequestsTheCommandsSend) {
  SmallCluster& c = *cluster_;
  ShardServer live(c.shards.dirs[0], c.dir.path()), real(c.shards.dirs[1], c.dir.path());
  FaultyShard relay(real.port(), Fault::kNone, -1);
  use_cluster(live.address(), relay.address());
  auto r = c.search({"--json", "--limit", "1000", "--", "-" + kNoSuchWord});
  ASSERT_EQ(r.status, 0) << said(r);
  std::set<std::string> everything = c.shards.ids[0];
  everything.insert(c.shards.ids[1].begin(), c.shards.ids[1].end());
  EXPECT_EQ(ids_of(r.out), everything) << "the relay changed an answer";
  r = run_on(c.dir / "cluster", {"stats", "--json"}, c.dir.path());
  ASSERT_EQ(r.status, 0) << said(r);
  EXPECT_EQ(relay.protocol_major(), kProtocolMajor);
  for (int request : {kRequestAllTerms, kRequestDocument, kRequestQuery, kRequestGetMetadata}) {
    EXPECT_EQ(relay.requests().count(request), 1u) << "no request of type " << request;
  }
}

struct FaultCase {
  Fault fault;
  int trigger;
  int nth;
  const char* when;
};

const FaultCase kFaultCases[] = {
    {Fault::kClose, kRequestGetMetadata, 1, "right after the greeting"},
    {Fault::kGarbage, kRequestGetMetadata, 1, "right after the greeting"},
    {Fault::kStall, kRequestGetMetadata, 1, "right after the greeting"},
    {Fault::kClose, kRequestGetMetadata, 2, "when its shard setting is read"},
    {Fault::kGarbage, kRequestGetMetadata, 2, "when its shard setting is read"},
    {Fault::kStall, kRequestGetMetadata, 2, "when its shard setting is read"},
    {Fault::kClose, kRequestQuery, 1, "at the match"},
    {Fault::kGarbage, kRequestQuery, 1, "at the match"},
    {Fault::kStall, kRequestQuery, 1, "at the match"},
    {Fault::kClose, kRequestDocument, 1, "when a hit's abstract is read"},
    {Fault::kGarbage, kRequestDocument, 1, "when a hit's abstract is read"},
    {Fault::kStall, kRequestDocument, 1, "when a hit's abstract is read"},
};

TEST_F(Issue40Cluster, AShardFailingPastTheHandshakeIsNamedAndLeftOut) {
  SmallCluster& c = *cluster_;
  ShardServer live(c.shards.dirs[0], c.dir.path()), real(c.shards.dirs[1], c.dir.path());
  for (const auto& f : kFaultCases) {
    SCOPED_TRACE(fault_name(f.fault) + " " + f.when);
    FaultyShard failing(real.port(), f.fault, f.trigger, f.nth);
    use_cluster(live.address(), failing.address());
    auto start = Clock::now();
    auto r = c.search({"--json", "--limit", "1000", "--", "-" + kNoSuchWord});
    EXPECT_FALSE(r.timed_out) << said(r);
    EXPECT_LT(Clock::now() - start, kHangBound) << "a hang: " << said(r);
    EXPECT_EQ(r.status, 2) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, failing.address(), "error:"))
        << "no error names the failing shard " << failing.address() << ": " << said(r);
    EXPECT_FALSE(names_in_a_line(r.err, live.address(), "")) << "the live shard is named: " << said(r);
    EXPECT_EQ(r.out, "");

    start = Clock::now();
    r = c.search({"--json", "--limit", "1000", "--", "-" + kNoSuchWord}, {"--allow-partial"});
    EXPECT_FALSE(r.timed_out) << said(r);
    EXPECT_LT(Clock::now() - start, kHangBound) << "a hang: " << said(r);
    EXPECT_EQ(r.status, 0) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, failing.address(), "warning:"))
        << "no warning names the failing shard " << failing.address() << ": " << said(r);
    EXPECT_FALSE(names_in_a_line(r.err, live.address(), "")) << "the live shard is named: " << said(r);
    EXPECT_EQ(ids_of(r.out), c.shards.ids[0]) << "not the live shard's abstracts, all of them";
    EXPECT_GT(failing.faults(), 0) << "the fault never struck";
  }
}

// A ranked search whose best hits come from both shards: the other shard's
// hits, ranked, when one fails as its abstracts are read.
TEST_F(Issue40Cluster, ARankedSearchGoesOnWithoutTheShardThatFailed) {
  SmallCluster& c = *cluster_;
  ShardServer live(c.shards.dirs[0], c.dir.path()), real(c.shards.dirs[1], c.dir.path());
  for (Fault fault : {Fault::kClose, Fault::kGarbage}) {
    SCOPED_TRACE(fault_name(fault));
    FaultyShard failing(real.port(), fault, kRequestDocument);
    use_cluster(live.address(), failing.address());
    auto r = c.search({"--json", "learning"}, {"--allow-partial"});
    EXPECT_EQ(r.status, 0) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, failing.address(), "warning:")) << said(r);
    std::vector<std::string> ids;
    for (const auto& hit : json_lines(r.out)) {
      ids.push_back(hit.at("id").get<std::string>());
      EXPECT_EQ(c.shards.ids[0].count(ids.back()), 1u) << ids.back() << " is not from the live shard";
    }
    EXPECT_FALSE(ids.empty()) << said(r);
    EXPECT_GT(failing.faults(), 0) << "no hit of the failing shard was read";
  }
}

// Issue 40: stats did not take --allow-partial.
TEST_F(Issue40Cluster, StatsLeavesOutAShardThatFailsUnderAllowPartial) {
  SmallCluster& c = *cluster_;
  ShardServer live(c.shards.dirs[0], c.dir.path()), real(c.shards.dirs[1], c.dir.path());
  SilentListener silent;
  FaultyShard closing(real.port(), Fault::kClose, kRequestGetMetadata);
  FaultyShard counting(real.port(), Fault::kGarbage, kRequestAllTerms);
  for (const std::string& down : {silent.address(), closing.address(), counting.address()}) {
    SCOPED_TRACE(down);
    use_cluster(live.address(), down);
    auto r = run_on(c.dir / "cluster", {"stats", "--json"}, c.dir.path());
    EXPECT_EQ(r.status, 2) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, down, "error:")) << said(r);
    r = run_on(c.dir / "cluster", {"stats", "--json"}, c.dir.path(), {"--allow-partial"});
    ASSERT_EQ(r.status, 0) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, down, "warning:")) << said(r);
    EXPECT_EQ(json::parse(r.out).at("abstracts").get<std::size_t>(), c.shards.ids[0].size()) << said(r);
    r = run_on(c.dir / "cluster", {"stats", "--by", "year", "--json"}, c.dir.path(), {"--allow-partial"});
    EXPECT_EQ(r.status, 0) << said(r);
    EXPECT_TRUE(names_in_a_line(r.err, down, "warning:")) << said(r);
  }
}

// ---------------------------------------------------------------------------
// Cluster files and shards built wrong.

TEST_F(Issue19Cluster, BadClusterFileLineIsAnErrorNamingFileAndLine) {
  TempDir dir;
  auto r = build_index(dir / "shard", corpus_files(), dir.path(), "1/1");
  ASSERT_EQ(r.status, 0) << said(r);
  // Xapian's stub syntax runs `remote :PROGRAM` as a shard: a cluster file must
  // never start a program.
  const auto marker = dir / "program-ran";
  write_file(dir / "some-program", "#!/bin/sh\ntouch '" + marker.string() + "'\n");
  fs::permissions(dir / "some-program", fs::perms::owner_all);
  const std::vector<std::string> bad = {"nonsense",
                                        "remote :" + (dir / "some-program").string(),
                                        "remote :" + (dir / "some-program").string() + " arg",
                                        "remote 127.0.0.1",
                                        "remote 127.0.0.1:notaport",
                                        "auto"};
  // The bad line third, after a comment and a good shard, and alone on line 1.
  for (const auto& line : bad) {
    for (const auto& [text, at] :
         {std::pair{"# one good shard, then a bad line\nauto shard\n" + line + "\n", 3},
          std::pair{line + "\n", 1}}) {
      SCOPED_TRACE(text);
      write_file(dir / "cluster.txt", text);
      r = run_on(dir / "cluster.txt", {"search", "learning"}, dir.path());
      EXPECT_FALSE(r.timed_out) << said(r);
      EXPECT_EQ(r.status, 2) << said(r);
      EXPECT_TRUE(r.err.starts_with("error:")) << said(r);
      EXPECT_TRUE(contains(r.err, "cluster.txt")) << "the file is not named: " << said(r);
      const auto n = std::to_string(at);
      EXPECT_TRUE(
          std::regex_search(r.err, std::regex("cluster\\.txt:" + n + "\\b|line " + n + "\\b")))
          << "line " << n << " is not named: " << said(r);
      EXPECT_EQ(r.out, "");
    }
  }
  EXPECT_FALSE(fs::exists(marker)) << "a cluster file line ran a program";
  // The same file with its good lines only is a cluster of one shard.
  write_file(dir / "cluster.txt", "# one good shard\nauto shard\n");
  r = run_on(dir / "cluster.txt", {"search", "learning"}, dir.path());
  EXPECT_EQ(r.status, 0) << said(r);
}

TEST_F(Issue19Cluster, ReindexingAShardAnotherWayIsRefused) {
  TempDir dir;
  const auto files = corpus_files();
  auto r = build_index(dir / "shard", files, dir.path(), "1/2");
  ASSERT_EQ(r.status, 0) << said(r);
  const auto ids = all_ids(dir / "shard", dir.path());
  for (const std::string other : {"2/2", "1/3", ""}) {
    SCOPED_TRACE(other.empty() ? "no --shard" : "--shard " + other);
    r = build_index(dir / "shard", files, dir.path(), other);
    EXPECT_EQ(r.status, 2) << said(r);
    EXPECT_TRUE(r.err.starts_with("error:")) << said(r);
    EXPECT_EQ(all_ids(dir / "shard", dir.path()), ids) << "the refused run changed the shard";
  }
  r = build_index(dir / "shard", files, dir.path(), "1/2");
  EXPECT_EQ(r.status, 0) << "the same shard again: " << said(r);
  EXPECT_EQ(all_ids(dir / "shard", dir.path()), ids);

  // A whole index is not made a shard either.
  r = build_index(dir / "whole", files, dir.path());
  ASSERT_EQ(r.status, 0) << said(r);
  r = build_index(dir / "whole", files, dir.path(), "1/2");
  EXPECT_EQ(r.status, 2) << "a whole index re-indexed as shard 1/2: " << said(r);

  int n = 0;
  for (const std::string spec : {"0/2", "3/2", "1/0", "2", "x/2", "1/2/3", "-1/2"}) {
    r = build_index(dir / ("bad-" + std::to_string(++n)), files, dir.path(), spec);
    EXPECT_EQ(r.status, 2) << "--shard " << spec << ": " << said(r);
  }
}

}  // namespace
}  // namespace abstracts::testing::cluster_test
