#include "engine/cluster.h"

#include <xxhash.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <system_error>

#include "abstracts/error.h"
#include "engine/layout.h"

namespace abstracts::cluster {
namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

template <class T>
bool parse_number(std::string_view s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

}  // namespace

}  // namespace abstracts::cluster

namespace abstracts {

std::optional<Shard> Shard::parse(std::string_view text) {
  using cluster::parse_number;
  const auto slash = text.find('/');
  Shard s;
  if (slash == std::string_view::npos || !parse_number(text.substr(0, slash), s.index) ||
      !parse_number(text.substr(slash + 1), s.count)) {
    return std::nullopt;
  }
  if (!cluster::is_shard(s)) return std::nullopt;
  return s;
}

}  // namespace abstracts

namespace abstracts::cluster {

std::string to_string(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

unsigned shard_of(std::string_view id, unsigned count) {
  return static_cast<unsigned>(XXH3_64bits(id.data(), id.size()) % count) + 1;
}

std::string Member::name() const {
  if (kind == Kind::kLocal) return path.string();
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool is_cluster_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

ClusterFile read_cluster_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IndexNotFound("cannot read the cluster file " + path.string());
  ClusterFile cluster;
  const fs::path folder = fs::absolute(path).parent_path();
  std::string raw;
  for (std::size_t number = 1; std::getline(in, raw); ++number) {
    const std::string_view line = trim(raw);
    auto bad = [&](const std::string& why) {
      return CorruptIndex(path.string() + ":" + std::to_string(number) + ": " + why,
                          "a cluster file has lines `remote HOST:PORT` or `auto PATH` (docs/scale-out.md)");
    };
    if (line.empty()) continue;
    if (line[0] == '#') {
      // "# abstracts: timeout 5" is a setting; any other comment is Xapian's.
      std::string_view rest = trim(line.substr(1));
      constexpr std::string_view kOurs = "abstracts:";
      if (rest.substr(0, kOurs.size()) != kOurs) continue;
      rest = trim(rest.substr(kOurs.size()));
      const auto space = rest.find_first_of(" \t");
      const std::string_view name = rest.substr(0, space);
      const std::string_view value = space == std::string_view::npos ? "" : trim(rest.substr(space));
      if (name != "timeout") throw bad("unknown setting " + layout::shown(name) + " (known: timeout)");
      double seconds = 0;
      if (!parse_number(value, seconds) || !std::isfinite(seconds) || seconds <= 0 || seconds > 3600) {
        throw bad("timeout wants seconds, more than 0 and at most 3600, not " + layout::shown(value));
      }
      cluster.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(seconds * 1000)));
      continue;
    }
    const auto space = line.find_first_of(" \t");
    const std::string_view type = line.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? "" : trim(line.substr(space));
    Member shard;
    shard.line = number;
    if (type == "remote") {
      if (!rest.empty() && rest[0] == ':') throw bad("a shard that runs a program is not allowed: " + layout::shown(line));
      const auto colon = rest.rfind(':');
      if (colon == std::string_view::npos || colon == 0) throw bad("'remote' wants HOST:PORT, not " + layout::shown(rest));
      std::string_view host = rest.substr(0, colon);
      if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
      if (!parse_number(rest.substr(colon + 1), shard.port) || shard.port == 0 || shard.port > 65535) {
        throw bad(layout::shown(rest.substr(colon + 1)) + " is no port (1 to 65535)");
      }
      // A DNS name has at most 253 characters; a longer one would only make
      // errors that quote it long.
      if (host.size() > 253) throw bad("a host name has at most 253 characters, not " + std::to_string(host.size()));
      shard.host = std::string(host);
    } else if (type == "auto" || type == "glass") {
      if (rest.empty()) throw bad("'" + std::string(type) + "' wants the path of a shard's index");
      shard.kind = Member::Kind::kLocal;
      shard.path = (folder / fs::path(std::string(rest))).lexically_normal();
    } else {
      throw bad(layout::shown(line) + " is not a shard: write `remote HOST:PORT` or `auto PATH`");
    }
    cluster.shards.push_back(std::move(shard));
  }
  if (in.bad()) throw IndexNotFound("cannot read the cluster file " + path.string());
  if (cluster.shards.empty()) {
    throw CorruptIndex("the cluster file " + path.string() + " lists no shard",
                       "a cluster file has lines `remote HOST:PORT` or `auto PATH` (docs/scale-out.md)");
  }
  return cluster;
}

}  // namespace abstracts::cluster
