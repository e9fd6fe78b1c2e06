// abstracts.Index: a read-only view of an index, shared by Python threads.
#include "abstracts/index.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/records.h"
#include "bindings/values.h"

namespace py = pybind11;

namespace abstracts::python {
namespace {

// The C++ Index behind a shared_ptr: a call takes its own reference (with the
// GIL held) before letting the GIL go, so close() on one thread never frees
// the Index under a search on another.
class PyIndex {
 public:
  PyIndex(const std::filesystem::path& path, bool allow_partial) {
    OpenOptions options;
    options.allow_partial = allow_partial;
    py::gil_scoped_release release;
    index_ = std::make_shared<const Index>(Index::open(path, options));
  }

  std::shared_ptr<const Index> get() const {
    if (!index_) throw py::value_error("the Index is closed");
    return index_;
  }

  void close() { index_.reset(); }

 private:
  std::shared_ptr<const Index> index_;
};

// Calls f(index) without the GIL, on the Index's own reference; what it returns
// becomes Python's after, with the GIL.
template <typename F>
auto without_gil(const PyIndex& self, F&& f) {
  std::shared_ptr<const Index> index = self.get();
  py::gil_scoped_release release;
  return f(*index);
}

SortOrder sort_order(const std::string& sort) {
  if (sort == "relevance") return SortOrder::kRelevance;
  if (sort == "date") return SortOrder::kDate;
  if (sort == "oldest") return SortOrder::kOldest;
  throw py::value_error("sort is \"relevance\", \"date\" or \"oldest\", not \"" + sort + "\"");
}

SearchMode search_mode(const std::string& mode) {
  if (mode == "auto") return SearchMode::kAuto;
  if (mode == "lexical") return SearchMode::kLexical;
  if (mode == "semantic") return SearchMode::kSemantic;
  if (mode == "hybrid") return SearchMode::kHybrid;
  throw py::value_error("mode is \"auto\", \"lexical\", \"semantic\" or \"hybrid\", not \"" + mode + "\"");
}

Facet facet_of(const std::string& field) {
  if (field == "year") return Facet::kYear;
  if (field == "venue") return Facet::kVenue;
  if (field == "category") return Facet::kCategory;
  if (field == "author") return Facet::kAuthor;
  if (field == "tag") return Facet::kTag;
  if (field == "collection") return Facet::kCollection;
  throw py::value_error(
      "field is \"year\", \"venue\", \"category\", \"author\", \"tag\" or \"collection\", not \"" +
      field + "\"");
}

PySearchResult search(const PyIndex& self, const std::string& query, std::size_t limit,
                      std::size_t offset, const std::string& sort, const py::object& within,
                      bool snippets, bool plain, bool correct_spelling, bool expand_acronyms,
                      bool exact_total, double time_limit, const std::string& mode, double hybrid_weight) {
  SearchOptions options;
  options.mode = search_mode(mode);
  options.hybrid_weight = hybrid_weight;
  options.limit = limit;
  options.offset = offset;
  options.sort = sort_order(sort);
  options.snippets = snippets;
  options.syntax = plain ? QuerySyntax::kPlainText : QuerySyntax::kQueryLanguage;
  options.correct_spelling = correct_spelling;
  options.expand_acronyms = expand_acronyms;
  options.count_matches_up_to = exact_total ? SIZE_MAX : 0;
  options.time_limit = time_limit;
  if (!within.is_none()) {
    options.within_ids = ids_of(within, "within");
    // An empty list means no abstract at all, where the library's empty list means every one.
    if (options.within_ids.empty()) options.within_ids.push_back(std::string());
  }
  return to_python(
      without_gil(self, [&](const Index& index) { return index.search(query, options); }));
}

PySearchResult similar(const PyIndex& self, const py::object& ids, std::size_t limit,
                       std::size_t offset, bool snippets, const std::string& mode, double hybrid_weight) {
  SearchOptions options;
  options.mode = search_mode(mode);
  options.hybrid_weight = hybrid_weight;
  options.limit = limit;
  options.offset = offset;
  options.snippets = snippets;
  const std::vector<std::string> given = ids_of(ids, "ids");
  return to_python(
      without_gil(self, [&](const Index& index) { return index.similar(given, options); }));
}

}  // namespace

void bind_index(py::module_& m) {
  py::class_<IndexStats>(m, "Stats", "What Index.stats() counts. Plain value.")
      .def_readonly("path", &IndexStats::path)
      .def_readonly("abstracts", &IndexStats::abstracts)
      .def_readonly("files", &IndexStats::files)
      .def_readonly("terms", &IndexStats::terms)
      .def_readonly("size_bytes", &IndexStats::size_bytes)
      .def_readonly("average_length", &IndexStats::average_length)
      .def_readonly("vectors", &IndexStats::vectors, "Abstracts with a vector, for search by meaning.")
      .def_readonly("graph", &IndexStats::graph,
                    "Abstracts in the nearest-neighbour graph searches by meaning go through (0: none).")
      .def("__repr__", [](const IndexStats& s) {
        return "<abstracts.Stats " + std::to_string(s.abstracts) + " abstracts, " +
               std::to_string(s.files) + " files>";
      });

  py::class_<AcronymEntry>(m, "Acronym", "One acronym the index learned. Plain value.")
      .def_readonly("short_form", &AcronymEntry::short_form, "\"LLMs\", as most often written.")
      .def_readonly("long_form", &AcronymEntry::long_form, "\"large language models\", lower case.")
      .def_readonly("count", &AcronymEntry::count, "Abstracts that define it so.")
      .def_readonly("used", &AcronymEntry::used,
                    "Whether searches expand the acronym to this long form.")
      .def("__repr__", [](const AcronymEntry& a) {
        return "<abstracts.Acronym " + a.short_form + " = " + a.long_form + " (" +
               std::to_string(a.count) + ")>";
      });

  py::class_<PyIndex>(
      m, "Index",
      "A read-only view of an on-disk index (or a cluster file). Thread-safe: one Index "
      "serves many Python threads at once, which search in parallel (the GIL is let go "
      "while the engine works). Each call sees the index as last committed.")
      .def(py::init<const std::filesystem::path&, bool>(), py::arg("path"),
           py::arg("allow_partial") = false,
           "Opens the index at path. Raises IndexNotFound, CorruptIndex, ShardUnavailable.")
      .def("search", &search, py::arg("query"), py::arg("limit") = 10, py::arg("offset") = 0,
           py::arg("sort") = "relevance", py::arg("within") = py::none(),
           py::arg("snippets") = true, py::kw_only(), py::arg("plain") = false,
           py::arg("correct_spelling") = true, py::arg("expand_acronyms") = true,
           py::arg("exact_total") = false, py::arg("time_limit") = 10.0, py::arg("mode") = "auto",
           py::arg("hybrid_weight") = SearchOptions{}.hybrid_weight,
           "Searches with the query language of the abstracts tool (plain=True: every word, no "
           "syntax). sort: \"relevance\", \"date\" (newest first) or \"oldest\". within: ids the "
           "hits "
           "must be among (ranked as in the whole index). exact_total: count every match. mode: "
           "\"auto\" (by words), \"lexical\" (by words), \"semantic\" (by meaning) or \"hybrid\" (both, hybrid_weight "
           "the words' share); the last two need Writer.build_vectors(), else Error. Raises "
           "QueryError (with .column) for a query it cannot parse or that runs past time_limit "
           "seconds.")
      .def(
          "similar", &similar, py::arg("ids"), py::arg("limit") = 10, py::arg("offset") = 0,
          py::arg("snippets") = true, py::kw_only(), py::arg("mode") = "auto",
          py::arg("hybrid_weight") = SearchOptions{}.hybrid_weight,
          "Abstracts like the given ones (an id or a list of ids; those are left out), best first. "
          "Unknown ids are ignored. mode and hybrid_weight as for search(); mode=\"auto\" mixes in "
          "meaning (\"hybrid\") when the index has vectors.")
      .def(
          "get",
          [](const PyIndex& self, const std::string& id) {
            return without_gil(self, [&](const Index& index) { return index.get(id); });
          },
          py::arg("id"), "The Abstract with this id, or None.")
      .def(
          "get_many",
          [](const PyIndex& self, const py::object& ids) {
            const std::vector<std::string> given = ids_of(ids, "ids");
            return without_gil(self, [&](const Index& index) { return index.get(given); });
          },
          py::arg("ids"),
          "The Abstract of each id (an id or a list of ids), in order, None for one the index does "
          "not have: one call, where get() for each would see the index afresh each time.")
      .def(
          "stats",
          [](const PyIndex& self) {
            return without_gil(self, [](const Index& index) { return index.stats(); });
          },
          "Counts of the index: abstracts, files, terms, size on disk.")
      .def(
          "facets",
          [](const PyIndex& self, const std::string& field, const std::optional<std::string>& query,
             std::size_t limit) {
            const Facet by = facet_of(field);
            const std::vector<FacetCount> counts = without_gil(self, [&](const Index& index) {
              return query ? index.facet_counts(by, *query, limit) : index.facet_counts(by, limit);
            });
            py::list out;
            for (const FacetCount& c : counts) out.append(py::make_tuple(c.value, c.abstracts));
            return out;
          },
          py::arg("field"), py::arg("query") = py::none(), py::arg("limit") = 20,
          "How many abstracts have each value of field (\"year\", \"venue\", \"category\", "
          "\"author\", "
          "\"tag\", \"collection\") as (value, count) pairs: years newest first, the others most "
          "first. With query, over its matches only (raises QueryError as search does). limit=0: "
          "all.")
      .def(
          "acronyms",
          [](const PyIndex& self) {
            return without_gil(self, [](const Index& index) { return index.acronyms(); });
          },
          "The acronyms learned from the abstracts, by short form, most frequent long form first.")
      .def_property_readonly("path",
                             [](const PyIndex& self) { return self.get()->path().string(); })
      .def("close", &PyIndex::close, "Lets the index go; later calls raise ValueError. Idempotent.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyIndex& self, const py::args&) { self.close(); });
}

}  // namespace abstracts::python
