#include "query/database_pool.h"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/schema.h"

namespace abstracts::query {
namespace fs = std::filesystem;

namespace {

Xapian::Database open_database(const fs::path& dir) {
  layout::reject_flat_layout(dir);
  if (!layout::has_index(dir)) {
    throw IndexNotFound("no index at " + dir.string(),
                        "build one with abstracts::Writer (Writer::open creates it)");
  }
  // The generation the stub names, opened as what it must be: Xapian would follow
  // the stub to any database it named, a remote one included.
  Xapian::Database db(layout::current_generation(dir).string(), Xapian::DB_BACKEND_GLASS);
  schema::require_version(db, dir);
  return db;
}

// How a shard failed, for its ShardUnavailable: "did not answer within 1.5 s"
// for a timeout, else what Xapian says, after `doing` ("cannot be reached",
// "failed during the search").
std::string what_went_wrong(const Xapian::Error& e, std::chrono::milliseconds timeout, const std::string& doing) {
  if (std::string(e.get_type()) == "NetworkTimeoutError") {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", static_cast<double>(timeout.count()) / 1000);
    return std::string("did not answer within ") + seconds + " s (the cluster file's timeout)";
  }
  std::string why = e.get_msg();
  if (const char* detail = e.get_error_string(); detail != nullptr && *detail != '\0') why += std::string(" (") + detail + ")";
  if (std::string_view(e.get_type()) != "NetworkError") why = e.get_type() + (": " + why);
  return doing + ": " + why;
}

// True for the errors of a shard's connection and of what it sent: a shard's
// failure, not the index's.
bool is_shard_failure(const Xapian::Error& e) {
  const std::string_view type = e.get_type();
  return type == "NetworkError" || type == "NetworkTimeoutError" || type == "SerialisationError";
}

// Connects to the one shard `m` alone (reads a remote shard's greeting).
Xapian::Database connect(const cluster::Member& m, std::chrono::milliseconds timeout) {
  const auto t = static_cast<unsigned>(timeout.count());
  return m.kind == cluster::Member::Kind::kRemote ? Xapian::Remote::open(m.host, m.port, t, t) : open_database(m.path);
}

}  // namespace

DatabasePool::DatabasePool(fs::path dir, ShardPolicy policy) : dir_(std::move(dir)), policy_(std::move(policy)) {
  if (cluster::is_cluster_file(dir_)) {
    cluster_ = cluster::read_cluster_file(dir_);
    for (const auto& m : cluster_->shards) local_shards_ += m.kind == cluster::Member::Kind::kLocal;
  }
  xapian_try(dir_, [&] { idle_.push_back(open_handle()); });
}

const std::vector<cluster::Member>& DatabasePool::shards() const {
  static const std::vector<cluster::Member> kNone;
  return cluster_ ? cluster_->shards : kNone;
}

layout::StubVersion DatabasePool::version_now() const {
  return cluster_ ? layout::StubVersion{} : layout::stub_version(dir_);
}

std::size_t DatabasePool::left_out_count() {
  std::lock_guard lock(mutex_);
  return left_out_.size();
}

void DatabasePool::leave_out(const cluster::Member& member, const std::string& why) {
  const std::string name = member.name();
  ShardUnavailable error("shard " + name + " of the cluster " + dir_.string() + " " + why, name);
  if (!policy_.allow_partial) throw error;
  {
    std::lock_guard lock(mutex_);
    if (!left_out_.insert(name).second) return;
    if (left_out_.size() == cluster_->shards.size()) {
      throw ShardUnavailable("no shard of the cluster " + dir_.string() + " answers (the last: " + name + " " + why + ")", name);
    }
  }
  if (policy_.on_left_out) policy_.on_left_out(error);
}

void DatabasePool::find_failed_shards(
    const Xapian::Error& e, const std::function<void(Xapian::Database&, const compression::Decompressor&)>& probe) {
  const std::string context = e.get_context();  // "remote:tcp(HOST:PORT)", when Xapian says
  for (const auto& m : cluster_->shards) {
    const bool named = context == "remote:tcp(" + m.host + ":" + std::to_string(m.port) + ")";
    if (m.kind == cluster::Member::Kind::kRemote && named) {
      leave_out(m, what_went_wrong(e, cluster_->timeout, "failed during the search"));
      return;
    }
  }
  // Each remote shard still in, alone, on a connection of its own (local
  // shards have no connection to fail).
  std::vector<std::pair<const cluster::Member*, std::string>> failed;
  for (const auto& m : cluster_->shards) {
    if (m.kind != cluster::Member::Kind::kRemote) continue;
    {
      std::lock_guard lock(mutex_);
      if (left_out_.count(m.name()) != 0) continue;
    }
    try {
      Xapian::Database one = connect(m, cluster_->timeout);
      schema::require_version(one, m.name());
      const compression::Decompressor stored(std::vector<std::string>{schema::dictionary_of(one)});
      probe(one, stored);
    } catch (const Xapian::Error& alone) {
      if (!is_shard_failure(alone)) continue;
      failed.emplace_back(&m, what_went_wrong(alone, cluster_->timeout, "failed during the search"));
    } catch (const Error&) {
      // Not the shard's failure: a query error, say, which the whole cluster gives too.
    }
  }
  if (failed.empty()) {
    throw Error("a shard of the cluster " + dir_.string() + " failed during the search (" + e.get_description() +
                    "), and each answered when asked alone",
                "try again; if it happens again, look at each shard's xapian-tcpsrv");
  }
  for (const auto& [m, why] : failed) leave_out(*m, why);
}

DatabasePool::Handle DatabasePool::open_cluster_handle() {
  Handle h;
  h.left_out = left_out_count();
  h.db = std::make_unique<Xapian::Database>();
  std::vector<std::string> dictionaries;
  std::set<unsigned> found;  // shard numbers
  Shard first;
  for (const auto& m : cluster_->shards) {
    {
      std::lock_guard lock(mutex_);
      if (left_out_.count(m.name()) != 0) continue;
    }
    Xapian::Database one;
    std::optional<Shard> setting;
    std::string dictionary;
    // Every request to the shard while opening it: its greeting, and those
    // after it (a connection can close, or a server send garbage, past the
    // handshake).
    const char* doing = "cannot be reached";
    try {
      one = connect(m, cluster_->timeout);
      doing = "failed as it was opened";
      schema::require_version(one, m.name());
      setting = Shard::parse(one.get_metadata(std::string(cluster::kShardKey)));
      dictionary = schema::dictionary_of(one);
    } catch (const Xapian::Error& e) {
      if (!is_shard_failure(e)) throw;
      leave_out(m, what_went_wrong(e, cluster_->timeout, doing));
      continue;
    }
    auto refuse = [&](const std::string& why) {
      return CorruptIndex(dir_.string() + ":" + std::to_string(m.line) + ": " + m.name() + " " + why,
                          "each line of a cluster file names a shard, an index built with "
                          "WriterOptions{Shard{K, N}}, one for each K");
    };
    if (!setting) throw refuse("is not a shard: it holds a whole corpus");
    if (first.count == 0) first = *setting;
    if (setting->count != first.count) {
      throw refuse("is shard " + cluster::to_string(*setting) + ", of another cluster than shard " + cluster::to_string(first));
    }
    if (!found.insert(setting->index).second) throw refuse("is shard " + cluster::to_string(*setting) + " again");
    dictionaries.push_back(std::move(dictionary));
    h.db->add_database(one);
  }
  if (found.size() + left_out_count() < first.count && !policy_.allow_partial) {
    std::string missing;
    for (unsigned k = 1; k <= first.count; ++k) {
      if (found.count(k) == 0) missing += (missing.empty() ? "" : ", ") + cluster::to_string({k, first.count});
    }
    throw CorruptIndex("the cluster " + dir_.string() + " lacks shard " + missing,
                       "add a line for each shard to the cluster file");
  }
  h.stored = std::make_unique<compression::Decompressor>(dictionaries);
  return h;
}

DatabasePool::Handle DatabasePool::open_handle() {
  if (cluster_) return open_cluster_handle();
  constexpr int kAttempts = 100;
  for (int attempt = 1;; ++attempt) {
    Handle h;
    h.version = layout::stub_version(dir_);
    try {
      h.db = std::make_unique<Xapian::Database>(open_database(dir_));
      h.stored = std::make_unique<compression::Decompressor>(schema::dictionary_of(*h.db));
      return h;
    } catch (const Xapian::DatabaseOpeningError&) {
      if (attempt == kAttempts || layout::stub_version(dir_) == h.version) throw;
    } catch (const CorruptIndex&) {
      if (attempt == kAttempts || layout::stub_version(dir_) == h.version) throw;
    }
  }
}

DatabasePool::Lease::Lease(DatabasePool& pool) : pool_(pool) {
  std::lock_guard lock(pool_.mutex_);
  if (!pool_.idle_.empty()) {
    h_ = std::move(pool_.idle_.back());
    pool_.idle_.pop_back();
  }
}

DatabasePool::Lease::~Lease() {
  if (!h_.db) return;
  std::lock_guard lock(pool_.mutex_);
  pool_.idle_.push_back(std::move(h_));
}

void DatabasePool::Lease::catch_up(bool whole) {
  if (h_.db && !whole && h_.version == pool_.version_now() && h_.left_out == pool_.left_out_count()) {
    h_.db->reopen();  // see what the writer committed since this handle last looked
  } else {
    h_ = pool_.open_handle();  // first use, or a new generation was published
  }
}

std::unique_ptr<DatabasePool::Twin> DatabasePool::twin(const Xapian::Database& db) {
  if (cluster_) return nullptr;
  try {
    auto twin = std::make_unique<Twin>(*this);
    twin->lease_.catch_up(false);
    // A new generation (a bulk build) numbers its revisions afresh.
    if (twin->db().get_revision() != db.get_revision() || twin->db().get_uuid() != db.get_uuid()) return nullptr;
    return twin;
  } catch (const Xapian::Error&) {
    return nullptr;  // the call goes on with its own handle alone
  }
}

}  // namespace abstracts::query
