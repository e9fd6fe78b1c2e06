// The database handles of one index, pooled so that one Index can serve many
// threads: a Xapian::Database is not safe to share between threads, so each call
// borrows a handle of its own. The index is a directory, or a cluster file
// (engine/cluster.h) whose shards each handle opens together, as one database.
#ifndef ABSTRACTS_QUERY_DATABASE_POOL_H_
#define ABSTRACTS_QUERY_DATABASE_POOL_H_

#include <chrono>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "engine/cluster.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/xapian_errors.h"

namespace abstracts::query {

// What a pool does about the shards of a cluster that do not answer.
struct ShardPolicy {
  // Leave them out and go on with the others, instead of throwing ShardUnavailable.
  bool allow_partial = false;
  // Told about each shard left out, once, on the thread that found it down.
  std::function<void(const ShardUnavailable&)> on_left_out;
};

class DatabasePool {
 public:
  // Opens one handle on the index in `dir` (a directory, or a cluster file) now,
  // so that a missing or unreadable index fails here: IndexNotFound,
  // CorruptIndex (another schema version, a bad cluster file, a database that
  // is no shard, shards of different clusters), ShardUnavailable.
  explicit DatabasePool(std::filesystem::path dir, ShardPolicy policy = {});

  const std::filesystem::path& dir() const { return dir_; }
  // True for a cluster: its queries run phrases on Xapian's positions.
  bool is_cluster() const { return cluster_.has_value(); }
  // The cluster file's shards (none for an index directory), and how many of
  // them are local.
  const std::vector<cluster::Member>& shards() const;
  std::size_t local_shards() const { return local_shards_; }

  // Runs `f(Xapian::Database&, const compression::Decompressor&)` with a handle
  // of its own and the decompressor of its stored abstracts, and returns what `f`
  // returns. Translates Xapian's errors (engine/xapian_errors.h). A writer's
  // commits can discard the revision `f` is reading, or a bulk build the whole
  // generation: then `f` runs again on the index as it now is, for up to
  // kRetryFor, which is what Xapian documents for DatabaseModifiedError.
  //
  // On a cluster, a shard that fails while `f` runs (its connection breaks, it
  // sends what is no answer, or it does not answer within the timeout) is that
  // shard's failure: ShardUnavailable naming it, or, when the policy allows,
  // the shard is left out and `f` runs again on the others. Xapian 1.4 names
  // the shard of a timeout, but not that of a closed connection or a garbled
  // answer ("Connection closed unexpectedly"), nor does it say which of the
  // databases it combines failed. So the pool first connects again once
  // (xapian-tcpsrv closes a connection idle for a minute), and if `f` fails
  // again runs `f` on each remote shard alone, on a connection of its own:
  // the shards that fail alone are the ones at fault. That costs a call per
  // shard, only when one fails, and finds a shard that answers a keep-alive but
  // fails the query, which probing its connection would not. Thread-safe.
  template <class F>
  auto with_db(F&& f) {
    return xapian_try(dir_, [&] {
      Lease db(*this);
      const auto deadline = std::chrono::steady_clock::now() + kRetryFor;
      auto past_deadline = [&] { return std::chrono::steady_clock::now() >= deadline; };
      bool reopen_whole = false, reconnected = false;
      // What a shard's failure costs: the handle is opened again, and the
      // shards that fail are found (left out, or ShardUnavailable).
      auto shard_failed = [&](const Xapian::Error& e) {
        if (!cluster_) throw;  // NOLINT: rethrows the Xapian error being handled
        const bool timeout = std::string_view(e.get_type()) == "NetworkTimeoutError";
        if (!reconnected && !timeout) {
          reconnected = true;
        } else {
          find_failed_shards(e, [&](Xapian::Database& one, const compression::Decompressor& stored) {
            f(one, stored);
          });
        }
        reopen_whole = true;
      };
      while (true) {
        std::exception_ptr damage;
        try {
          db.catch_up(reopen_whole);
          return f(*db, db.stored());
        } catch (const Xapian::NetworkError& e) {
          shard_failed(e);
          continue;
        } catch (const Xapian::SerialisationError& e) {
          shard_failed(e);
          continue;
        } catch (const Xapian::DatabaseModifiedError&) {
          if (past_deadline()) throw;
          reopen_whole = false;
          continue;
        } catch (const Xapian::DatabaseOpeningError&) {
          if (past_deadline()) throw;
          reopen_whole = true;  // a bulk build replaced the generation this handle had open
          continue;
        } catch (const Xapian::DatabaseCorruptError&) {
          damage = std::current_exception();
        } catch (const Xapian::DocNotFoundError&) {
          damage = std::current_exception();
        } catch (const CorruptIndex&) {
          damage = std::current_exception();
        }
        // A read of a revision whose blocks a commit reused can also look damaged,
        // to Xapian ("Expected block 15 to be level 1", a document not found) or
        // to the checksums of the stored abstracts and positions. Damage that no
        // newer revision explains is real.
        bool newer = false;
        try {
          newer = db->reopen();
        } catch (const Xapian::Error&) {
          newer = true;  // a shard that fails now is found on the next try
          reopen_whole = true;
        }
        if (!newer || past_deadline()) std::rethrow_exception(damage);
      }
    });
  }

  // How long a call goes on retrying while writers change the index under it.
  static constexpr std::chrono::seconds kRetryFor{10};

  class Twin;
  // A second handle, for a helper thread of a call that runs on `db` (the call's
  // own, from with_db()), at the revision `db` reads; none on a cluster, or when
  // the index has moved on since (the helper would see other abstracts). It goes
  // back to the pool when the Twin is destroyed, so whatever reads through it
  // (an MSet it gave) must be gone by then. Thread-safe.
  std::unique_ptr<Twin> twin(const Xapian::Database& db);

 private:
  // A database handle, and the version of the stub it was opened through: a
  // bulk build publishes a new generation, which reopen() alone would not see.
  struct Handle {
    std::unique_ptr<Xapian::Database> db;
    layout::StubVersion version;
    std::size_t left_out = 0;  // shards left out when it was opened
    // Reads the stored abstracts; a generation's dictionary never changes.
    std::unique_ptr<compression::Decompressor> stored;
  };

  // A handle borrowed from the pool for one call (none yet if the pool had none
  // idle), given back when the call is done.
  class Lease {
   public:
    explicit Lease(DatabasePool& pool);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    // Brings the handle up to the index's latest commit: reopens it, or opens a
    // new one if there is none, if `whole` is set, or if a new generation was
    // published since it was opened.
    void catch_up(bool whole);
    Xapian::Database& operator*() { return *h_.db; }
    Xapian::Database* operator->() { return h_.db.get(); }
    const compression::Decompressor& stored() const { return *h_.stored; }

   private:
    DatabasePool& pool_;
    Handle h_;
  };

  // Opens a handle on the current generation. A writer that publishes a new
  // generation meanwhile removes the one the stub named: then the stub has
  // changed, and the new one is opened.
  Handle open_handle();
  // Opens a handle on every shard of the cluster not left out.
  Handle open_cluster_handle();
  // The version of what dir_ names now (a cluster file's is constant).
  layout::StubVersion version_now() const;
  // The shards `e`, raised by a call on the whole cluster, is the failure of:
  // the one its context names ("remote:tcp(HOST:PORT)"), else each remote shard
  // on which `probe` fails alone. Leaves them out, or throws ShardUnavailable
  // for the first when the policy does not allow it; throws an Error saying
  // what failed when no shard fails alone.
  void find_failed_shards(const Xapian::Error& e,
                          const std::function<void(Xapian::Database&, const compression::Decompressor&)>& probe);
  // Leaves out `member`, or throws ShardUnavailable (saying `why`).
  void leave_out(const cluster::Member& member, const std::string& why);
  std::size_t left_out_count();

  std::filesystem::path dir_;
  std::optional<cluster::ClusterFile> cluster_;
  std::size_t local_shards_ = 0;  // of cluster_
  ShardPolicy policy_;
  std::mutex mutex_;
  std::vector<Handle> idle_;
  std::set<std::string> left_out_;  // names of shards left out
};

class DatabasePool::Twin {
 public:
  explicit Twin(DatabasePool& pool) : lease_(pool) {}
  Xapian::Database& db() { return *lease_; }

 private:
  friend class DatabasePool;
  Lease lease_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_DATABASE_POOL_H_
