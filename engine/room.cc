#include "engine/room.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <string>

#include "abstracts/error.h"
#include "engine/scratch.h"

namespace abstracts::room {
namespace fs = std::filesystem;

namespace {

std::terminate_handler previous_handler = nullptr;

// The end of a process whose commit failed where Xapian cannot throw: its
// error said as the command line says errors, the scratch folders removed,
// exit status 2. The index is as of its last commit: glass publishes a commit
// with its version file, last. Anything else goes to the handler before.
[[noreturn]] void on_terminate() {
  if (const std::exception_ptr thrown = std::current_exception()) {
    try {
      std::rethrow_exception(thrown);
    } catch (const Xapian::Error& e) {
      scratch::remove_all();
      const std::string said = "error: cannot write the index: " + e.get_description() +
                               "\nhint: the index is as it was at its last commit; make room on its disk and run "
                               "again\n";
      [[maybe_unused]] const auto written = ::write(STDERR_FILENO, said.data(), said.size());
      std::_Exit(2);
    } catch (...) {
    }
  }
  if (previous_handler != nullptr) previous_handler();
  std::abort();
}

void install_terminate_handler() {
  static std::once_flag once;
  std::call_once(once, [] { previous_handler = std::set_terminate(on_terminate); });
}

std::string megabytes(std::uint64_t bytes) {
  char out[32];
  std::snprintf(out, sizeof out, "%.1f MB", static_cast<double>(bytes) / (1 << 20));
  return out;
}

}  // namespace

std::uint64_t document_bytes(const Xapian::Document& doc) {
  std::uint64_t bytes = doc.get_data().size();
  for (auto v = doc.values_begin(); v != doc.values_end(); ++v) bytes += (*v).size() + 8;
  // A term is a posting (a few bytes in a chunk) and a termlist entry.
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) bytes += (*t).size() + 8;
  return bytes;
}

std::uint64_t free_bytes(const fs::path& dir) {
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
}

void discard(Xapian::WritableDatabase& db) noexcept {
  // A transaction cancelled takes with it every change since the last commit
  // (glass's cancel()), not only its own; one open at destruction is cancelled,
  // not committed.
  try {
    db.begin_transaction(false);
    db.cancel_transaction();
  } catch (const Xapian::Error&) {
    // A transaction is open already (which the destructor cancels), or the database is closed.
  }
}

void commit(Xapian::WritableDatabase& db, Pending& pending) {
  install_terminate_handler();
  const std::uint64_t wanted = 2 * pending.bytes + kReserve;
  pending.bytes = 0;
  if (const std::uint64_t free = free_bytes(pending.dir); free < wanted) {
    discard(db);
    throw Error("no room on the disk of " + pending.dir.string() + " for the index: " + megabytes(free) +
                    " free, about " + megabytes(wanted) + " wanted to commit",
                "make room on that disk and run again: the index is as it was at its last commit");
  }
  db.commit();
}

}  // namespace abstracts::room
