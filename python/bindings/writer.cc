// abstracts.Writer: the one writer of an index, with Ctrl-C and the progress
// callback served while the engine indexes without the GIL.
#include "abstracts/writer.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/errors.h"
#include "bindings/records.h"
#include "bindings/values.h"

namespace py = pybind11;

namespace abstracts::python {
namespace {

// What Writer.index() returns.
struct IndexSummary {
  std::vector<FileReport> files;  // every file's report, in the order indexed
  py::list errors;                // abstracts.Error of each file that failed (keep_going)
  std::vector<std::string> warnings;
  std::size_t failed = 0;
};

// Thrown from a callback to stop Writer::index when Python code raised (the
// progress callback, or KeyboardInterrupt from Ctrl-C). The library unwinds
// through it as through any error: the shards of a bulk build are dropped, and
// what was committed stays. Not a std::exception, so no handler of the library
// takes it for an error of a file.
struct StopIndexing {};

const char* status_name(FileReport::Status s) {
  switch (s) {
    case FileReport::Status::kIndexed:
      return "indexed";
    case FileReport::Status::kUnchanged:
      return "unchanged";
    case FileReport::Status::kRemoved:
      return "removed";
    case FileReport::Status::kSkipped:
      return "skipped";
  }
  return "indexed";
}

// `record` as a dict: a dict, or what dict() makes one of (pairs). TypeError
// for anything else.
py::dict record_dict(const py::object& record) {
  if (py::isinstance<py::dict>(record)) return py::reinterpret_borrow<py::dict>(record);
  try {
    return py::dict(record);
  } catch (const py::error_already_set&) {
    throw py::type_error("record is a dict with the keys of Abstract.to_dict(), not " + type_name(record));
  }
}

// The C++ Writer, its calls serialised (the Writer is not thread-safe, and a
// call lets the GIL go). The mutex is taken only without the GIL, so a thread
// waiting for it never holds up the others.
class PyWriter {
 public:
  PyWriter(const std::filesystem::path& path, const std::optional<std::string>& shard) {
    WriterOptions options;
    if (shard) {
      std::optional<Shard> parsed = Shard::parse(*shard);
      if (!parsed)
        throw py::value_error("shard is \"K/N\" with 1 <= K <= N <= 4096, not \"" + *shard + "\"");
      options.shard = *parsed;
    }
    py::gil_scoped_release release;
    writer_.emplace(Writer::open(path, options));
  }

  IndexSummary index(const std::vector<std::filesystem::path>& paths, const py::object& progress,
                     bool keep_going, bool strict, unsigned threads,
                     const std::vector<std::string>& globs, bool demo) {
    IndexSummary summary;
    std::exception_ptr stopped;  // what Python raised in a callback
    // Runs `fn` with the GIL, then lets Python's signal handlers run (Ctrl-C
    // raises KeyboardInterrupt there); anything raised stops the run.
    auto with_python = [&stopped](auto&& fn) {
      py::gil_scoped_acquire gil;
      try {
        fn();
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      } catch (...) {
        stopped = std::current_exception();
        throw StopIndexing{};
      }
    };
    IndexOptions options;
    options.strict = strict;
    options.threads = threads;
    options.globs = globs;
    options.demo = demo;
    options.on_file = [&](const FileReport& r) {
      summary.files.push_back(r);
      with_python([] {});
    };
    options.on_progress = [&](const IndexProgress& p) {
      with_python([&] {
        if (!progress.is_none()) progress(p);
      });
    };
    options.on_warning = [&](const std::exception& e) { summary.warnings.emplace_back(e.what()); };
    if (keep_going) {
      options.on_error = [&](const std::exception& e) {
        py::gil_scoped_acquire gil;
        summary.errors.append(error_object(e));
      };
    }
    {
      py::gil_scoped_release release;
      Hold hold(*this);
      try {
        summary.failed = get().index(paths, options);
      } catch (const StopIndexing&) {
      }
    }
    if (stopped) std::rethrow_exception(stopped);
    return summary;
  }

  std::string add(const py::object& record) {
    Abstract abstract = abstract_from_dict(record_dict(record));
    py::gil_scoped_release release;
    Hold hold(*this);
    return get().add(std::move(abstract));
  }

  bool remove(const std::string& id) {
    py::gil_scoped_release release;
    Hold hold(*this);
    return get().remove(id);
  }

  void commit() {
    py::gil_scoped_release release;
    Hold hold(*this);
    get().commit();
  }

  py::dict build_vectors(unsigned epochs, unsigned dimensions, std::size_t max_training,
                         const std::vector<std::filesystem::path>& train_on) {
    VectorsOptions options;
    options.epochs = epochs;
    options.dimensions = dimensions;
    options.max_training_abstracts = max_training;
    options.train_on = train_on;
    VectorsReport r;
    {
      py::gil_scoped_release release;
      Hold hold(*this);
      r = get().build_vectors(options);
    }
    py::dict out;
    out["abstracts"] = r.abstracts;
    out["words"] = r.words;
    out["training_abstracts"] = r.training_abstracts;
    out["training_tokens"] = r.training_tokens;
    out["learn_seconds"] = r.learn_seconds;
    out["store_seconds"] = r.store_seconds;
    out["graph_seconds"] = r.graph_seconds;
    return out;
  }

  std::size_t count() {
    py::gil_scoped_release release;
    Hold hold(*this);
    return get().abstracts();
  }

  // Commits and lets the write lock go.
  void close() {
    py::gil_scoped_release release;
    Hold hold(*this);
    if (!writer_) return;
    writer_->commit();
    writer_.reset();
  }

 private:
  // Holds the Writer for one call. A call from a callback of index() on the
  // thread running it would wait for itself: it is refused instead.
  class Hold {
   public:
    explicit Hold(PyWriter& writer) : writer_(writer) {
      if (writer_.owner_.load() == std::this_thread::get_id()) {
        throw py::value_error("the Writer is busy: a callback of Writer.index() cannot use it");
      }
      lock_ = std::unique_lock(writer_.mutex_);
      writer_.owner_ = std::this_thread::get_id();
    }
    ~Hold() { writer_.owner_ = std::thread::id(); }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    PyWriter& writer_;
    std::unique_lock<std::mutex> lock_;
  };

  Writer& get() {
    if (!writer_) throw py::value_error("the Writer is closed");
    return *writer_;
  }

  std::mutex mutex_;
  std::atomic<std::thread::id> owner_;  // the thread in a call, while it is
  std::optional<Writer> writer_;
};

}  // namespace

void bind_writer(py::module_& m) {
  py::class_<IndexProgress>(m, "Progress",
                            "How far Writer.index() has got (given to its progress callback).")
      .def_readonly("bytes_done", &IndexProgress::bytes_done, "Of the input files as stored.")
      .def_readonly("bytes_total", &IndexProgress::bytes_total)
      .def_readonly("abstracts", &IndexProgress::abstracts, "Read so far.")
      .def("__repr__", [](const IndexProgress& p) {
        return "<abstracts.Progress " + std::to_string(p.abstracts) + " abstracts, " +
               std::to_string(p.bytes_done) + "/" + std::to_string(p.bytes_total) + " bytes>";
      });

  py::class_<FileReport>(m, "FileReport", "What indexing did with one file. Plain value.")
      .def_property_readonly("path", [](const FileReport& r) { return r.path.string(); })
      .def_property_readonly(
          "status", [](const FileReport& r) { return status_name(r.status); },
          "\"indexed\", \"unchanged\", \"removed\" or \"skipped\".")
      .def_readonly("abstracts", &FileReport::abstracts, "Records of abstracts in the file.")
      .def_readonly("same_paper", &FileReport::same_paper,
                    "Of those, records of a paper already indexed.")
      .def_readonly("removed", &FileReport::removed, "Abstracts that left the index.")
      .def_readonly("skipped", &FileReport::skipped, "Records without an abstract.")
      .def_readonly("rejected", &FileReport::rejected,
                    "Records that could not be read (see warnings).")
      .def_readonly("kind", &FileReport::kind, "For a skipped file, what it seems to be (\"PDF\").")
      .def("__repr__", [](const FileReport& r) {
        return "<abstracts.FileReport " + r.path.filename().string() + ": " +
               status_name(r.status) + ", " + std::to_string(r.abstracts) + " abstracts>";
      });

  py::class_<IndexSummary>(m, "IndexSummary", "What Writer.index() did.")
      .def_readonly("files", &IndexSummary::files,
                    "list[FileReport], in the order the files were done.")
      .def_readonly("errors", &IndexSummary::errors,
                    "The abstracts.Error of each file that failed (keep_going).")
      .def_readonly("warnings", &IndexSummary::warnings,
                    "\"FILE:LINE: ...; record skipped\", one a record.")
      .def_readonly("failed", &IndexSummary::failed, "Files that failed.")
      .def_property_readonly(
          "abstracts",
          [](const IndexSummary& s) {
            std::size_t n = 0;
            for (const FileReport& r : s.files) n += r.abstracts;
            return n;
          },
          "Records of abstracts in the files indexed.")
      .def("__repr__", [](const IndexSummary& s) {
        return "<abstracts.IndexSummary " + std::to_string(s.files.size()) + " files, " +
               std::to_string(s.failed) + " failed>";
      });

  py::class_<PyWriter>(
      m, "Writer",
      "The one writer of an index (it holds the index's write lock until closed). Use it as "
      "a context manager: leaving the block commits and closes. Calls from several threads "
      "are serialised.")
      .def(py::init<const std::filesystem::path&, const std::optional<std::string>&>(),
           py::arg("path"), py::arg("shard") = py::none(),
           "Opens (creating if needed) the index at path; with shard=\"K/N\", shard K of a cluster "
           "of N "
           "(docs/scale-out.md). Raises IndexLocked if another writer holds it, CorruptIndex if it "
           "cannot be read, Error if shard is not the index's setting.")
      .def("index", &PyWriter::index, py::arg("paths"), py::arg("progress") = py::none(),
           py::kw_only(), py::arg("keep_going") = false, py::arg("strict") = false,
           py::arg("threads") = 0u, py::arg("globs") = std::vector<std::string>{},
           py::arg("demo") = false,
           "Indexes files and folders (folders recursively) and remembers them as the index's "
           "sources; into an empty index, in bulk on `threads` threads (0: one per core). Commits "
           "as "
           "it goes and at the end. progress(Progress) is called every few thousand abstracts. A "
           "file "
           "that fails raises its InputError, after the files before it were indexed; "
           "keep_going=True "
           "goes on and lists it in the summary's errors. strict: a bad record fails its file. "
           "Ctrl-C "
           "(or an exception from progress) stops the run with KeyboardInterrupt (or that "
           "exception): "
           "what was committed stays, a bulk build leaves the index as it was. Returns an "
           "IndexSummary.")
      .def("add", &PyWriter::add, py::arg("record"),
           "Adds an abstract from a dict with the keys of Abstract.to_dict() (\"text\" required), "
           "replacing one with the same id; returns its id. Visible to readers after commit(). As "
           "a file's record: raises InputError for one with no text, over 16 MiB, or a date that is "
           "none, and keeps a text over 1 MiB cut. TypeError for a value of the wrong type.")
      .def("remove", &PyWriter::remove, py::arg("id"),
           "Removes the abstract with this id; returns False if there was none.")
      .def("commit", &PyWriter::commit, "Makes the changes visible to readers, atomically.")
      .def("build_vectors", &PyWriter::build_vectors, py::kw_only(), py::arg("epochs") = 20u,
           py::arg("dimensions") = 100u, py::arg("max_training") = std::size_t{20000},
           py::arg("train_on") = std::vector<std::filesystem::path>{},
           "Learns word vectors (fastText) from the index's abstracts (or the files train_on) and "
           "gives every abstract a vector of meaning, for search(mode=\"semantic\" or \"hybrid\"); "
           "published whole, like a commit. Returns a dict: abstracts, words, training_abstracts, "
           "training_tokens, learn_seconds, store_seconds, graph_seconds. Raises Error if the index is empty.")
      .def("__len__", &PyWriter::count,
           "The abstracts in the index, changes not yet committed included.")
      .def("close", &PyWriter::close,
           "Commits and lets the write lock go; later calls raise ValueError.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyWriter& self, const py::args&) { self.close(); });
}

}  // namespace abstracts::python
