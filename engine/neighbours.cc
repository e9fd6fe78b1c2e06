#include "engine/neighbours.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

// hnswlib's prefetches (USE_SSE) read the word after a list of links, past the
// end of an upper layer's list while building: harmless, but AddressSanitizer
// stops the tests on it. Search with the prefetches wherever it can.
#if defined(__SANITIZE_ADDRESS__)
#define NO_MANUAL_VECTORIZATION
#endif
#include <hnswlib/hnswlib.h>

#include "engine/schema.h"
#include "engine/vectors.h"

namespace fs = std::filesystem;

namespace abstracts::neighbours {
namespace {

// hnswlib's links per abstract (twice as many on the bottom layer) and the
// breadth of its search while building: recall of the exact 100 nearest at
// 115k abstracts is in docs/performance.md.
constexpr std::size_t kLinks = 16;
constexpr std::size_t kBuildDepth = 100;

// The cosine distance of two int8 unit vectors (x127), as hnswlib's metric.
float int8_distance(const void* a, const void* b, const void* dimensions) {
  const auto* x = static_cast<const std::int8_t*>(a);
  const auto* y = static_cast<const std::int8_t*>(b);
  const std::size_t n = *static_cast<const std::size_t*>(dimensions);
  std::int32_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<std::int32_t>(x[i]) * y[i];
  return 1.0f - static_cast<float>(sum) / (127.0f * 127.0f);
}

class Int8Space : public hnswlib::SpaceInterface<float> {
 public:
  explicit Int8Space(std::size_t dimensions) : dimensions_(dimensions) {}
  std::size_t get_data_size() override { return dimensions_; }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &int8_distance; }
  void* get_dist_func_param() override { return &dimensions_; }

 private:
  std::size_t dimensions_;
};

// What follows hnswlib's own file (HierarchicalNSW::saveIndex): our stamp.
struct Trailer {
  char magic[8] = {'a', 'b', 's', 'g', 'r', 'a', 'p', 'h'};
  std::uint32_t version = 1;
  std::uint32_t dimensions = 0;
  std::uint64_t last = 0;
  std::uint64_t size = 0;
  std::uint64_t hnsw_bytes = 0;  // the file before the trailer
};
bool valid(const Trailer& t) { return std::memcmp(t.magic, Trailer{}.magic, sizeof t.magic) == 0 && t.version == 1; }

// The head of hnswlib 0.6's file, field by field as saveIndex writes it.
struct Head {
  std::size_t offset_level0, max_elements, count, size_per_element, label_offset, offset_data;
  int max_level;
  hnswlib::tableint entry;
  std::size_t max_m, max_m0, m;
  double mult;
  std::size_t ef_construction;
};
template <class T>
bool take(const char*& at, const char* end, T& out) {
  if (static_cast<std::size_t>(end - at) < sizeof(T)) return false;
  std::memcpy(&out, at, sizeof(T));
  at += sizeof(T);
  return true;
}
bool read_head(const char*& at, const char* end, Head& h) {
  return take(at, end, h.offset_level0) && take(at, end, h.max_elements) && take(at, end, h.count) &&
         take(at, end, h.size_per_element) && take(at, end, h.label_offset) && take(at, end, h.offset_data) &&
         take(at, end, h.max_level) && take(at, end, h.entry) && take(at, end, h.max_m) && take(at, end, h.max_m0) &&
         take(at, end, h.m) && take(at, end, h.mult) && take(at, end, h.ef_construction);
}

// A file's bytes, mapped read-only.
struct Mapping {
  const char* bytes = nullptr;
  std::size_t size = 0;
  ino_t inode = 0;
  ~Mapping() {
    if (bytes != nullptr) ::munmap(const_cast<char*>(bytes), size);
  }
};
std::unique_ptr<Mapping> map_file(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  auto m = std::make_unique<Mapping>();
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p != MAP_FAILED) {
      m->bytes = static_cast<const char*>(p);
      m->size = static_cast<std::size_t>(st.st_size);
      m->inode = st.st_ino;
    }
  }
  ::close(fd);
  return m->bytes != nullptr ? std::move(m) : nullptr;
}

std::optional<Trailer> trailer_of(const Mapping& m) {
  Trailer t;
  if (m.size < sizeof t) return std::nullopt;
  std::memcpy(&t, m.bytes + m.size - sizeof t, sizeof t);
  if (!valid(t) || t.hnsw_bytes != m.size - sizeof t) return std::nullopt;
  return t;
}

void write_all(int fd, const void* data, std::size_t n, const fs::path& file) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw std::system_error(errno, std::generic_category(), "cannot write " + file.string());
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Counts the abstracts with vectors of `dimensions` bytes from document `from` on.
std::uint64_t vectors_from(const Xapian::Database& db, Xapian::docid from, std::uint32_t dimensions) {
  std::uint64_t n = 0;
  auto v = db.valuestream_begin(schema::kVectorSlot);
  if (v == db.valuestream_end(schema::kVectorSlot)) return 0;
  for (v.skip_to(from); v != db.valuestream_end(schema::kVectorSlot); ++v) n += (*v).size() == dimensions;
  return n;
}

}  // namespace

struct Graph::Impl {
  explicit Impl(std::size_t dimensions) : space(dimensions), hnsw(&space) {
    // hnswlib's constructor for loading leaves these unset; its destructor frees them.
    hnsw.data_level0_memory_ = nullptr;
    hnsw.linkLists_ = nullptr;
    hnsw.visited_list_pool_ = nullptr;
    hnsw.cur_element_count = 0;
  }
  ~Impl() {
    // The memory is the mapping's: hnswlib frees only what it allocated.
    hnsw.data_level0_memory_ = nullptr;
    hnsw.cur_element_count = 0;
  }
  std::unique_ptr<Mapping> mapping;
  Stamp stamp;
  Int8Space space;
  hnswlib::HierarchicalNSW<float> hnsw;  // over the mapping, built by load()

  // Points `hnsw` at the mapped file, checking every link first: hnswlib
  // follows them unchecked. False if the file is not a whole graph.
  bool load(const Trailer& t) {
    const char* at = mapping->bytes;
    const char* const end = mapping->bytes + t.hnsw_bytes;
    Head h{};
    if (!read_head(at, end, h)) return false;
    const std::size_t dims = t.dimensions;
    const std::size_t links0 = h.max_m0 * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint);
    const std::size_t links = h.max_m * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint);
    if (h.offset_level0 != 0 || h.count != t.size || h.count == 0 || h.max_m0 == 0 || h.max_m0 > 4096 ||
        h.max_m == 0 || h.max_m > h.max_m0 || h.offset_data != links0 || h.label_offset != links0 + dims ||
        h.size_per_element != links0 + dims + sizeof(hnswlib::labeltype) || h.max_level < 0 || h.max_level > 64 ||
        h.entry >= h.count || static_cast<std::size_t>(end - at) / h.size_per_element < h.count) {
      return false;
    }
    const char* level0 = at;
    at += h.count * h.size_per_element;
    // Each abstract's upper layers, and its level.
    std::vector<const char*> upper(h.count, nullptr);
    std::vector<std::uint8_t> level(h.count, 0);
    for (std::size_t i = 0; i < h.count; ++i) {
      std::uint32_t bytes = 0;
      if (!take(at, end, bytes) || bytes % links != 0 || bytes / links > static_cast<std::size_t>(h.max_level) ||
          static_cast<std::size_t>(end - at) < bytes) {
        return false;
      }
      if (bytes != 0) upper[i] = at;
      level[i] = static_cast<std::uint8_t>(bytes / links);
      at += bytes;
    }
    if (at != end || level[h.entry] != h.max_level) return false;
    // A link at a layer goes to an abstract that is on it.
    auto list_ok = [&](const char* list, std::size_t most, int layer) {
      hnswlib::linklistsizeint n;
      std::memcpy(&n, list, sizeof n);
      if ((n & 0xffff) > most) return false;
      for (std::size_t j = 0; j < (n & 0xffff); ++j) {
        hnswlib::tableint to;
        std::memcpy(&to, list + sizeof n + j * sizeof to, sizeof to);
        if (to >= h.count || level[to] < layer) return false;
      }
      return true;
    };
    for (std::size_t i = 0; i < h.count; ++i) {
      const char* element = level0 + i * h.size_per_element;
      hnswlib::labeltype label;
      std::memcpy(&label, element + h.label_offset, sizeof label);
      if (label == 0 || label > t.last || !list_ok(element, h.max_m0, 0)) return false;
      for (int layer = 1; layer <= level[i]; ++layer) {
        if (!list_ok(upper[i] + (layer - 1) * links, h.max_m, layer)) return false;
      }
    }

    auto& g = hnsw;
    g.max_elements_ = g.cur_element_count = h.count;
    g.size_data_per_element_ = h.size_per_element;
    g.size_links_per_element_ = links;
    g.size_links_level0_ = links0;
    g.num_deleted_ = 0;
    g.M_ = h.m;
    g.maxM_ = h.max_m;
    g.maxM0_ = h.max_m0;
    g.ef_construction_ = h.ef_construction;
    g.mult_ = h.mult;
    g.revSize_ = 1.0 / h.mult;
    g.maxlevel_ = h.max_level;
    g.enterpoint_node_ = h.entry;
    g.offsetData_ = h.offset_data;
    g.offsetLevel0_ = 0;
    g.label_offset_ = h.label_offset;
    g.data_size_ = space.get_data_size();
    g.fstdistfunc_ = space.get_dist_func();
    g.dist_func_param_ = space.get_dist_func_param();
    g.ef_ = kSearchDepth;
    g.metric_hops = 0;
    g.metric_distance_computations = 0;
    g.visited_list_pool_ = new hnswlib::VisitedListPool(1, h.count);
    // hnswlib frees this array (not what it points to) when it goes.
    g.linkLists_ = static_cast<char**>(std::malloc(sizeof(char*) * h.count));
    if (g.linkLists_ == nullptr) throw std::bad_alloc();
    for (std::size_t i = 0; i < h.count; ++i) g.linkLists_[i] = const_cast<char*>(upper[i]);
    g.data_level0_memory_ = const_cast<char*>(level0);
    return true;
  }
};

Graph::Graph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Graph::~Graph() = default;

const Stamp& Graph::stamp() const { return impl_->stamp; }

std::shared_ptr<const Graph> Graph::open(const fs::path& file, const Xapian::Database& db, std::uint32_t dimensions) {
  auto mapping = map_file(file);
  if (!mapping) return nullptr;
  const auto t = trailer_of(*mapping);
  if (!t || t->dimensions != dimensions || dimensions == 0) return nullptr;
  auto impl = std::make_unique<Impl>(dimensions);
  impl->mapping = std::move(mapping);
  impl->stamp = {t->dimensions, static_cast<Xapian::docid>(t->last), t->size};
  if (!impl->load(*t)) return nullptr;
  // The graph must hold the vectors the database has: compare a sample.
  const auto& g = impl->hnsw;
  const std::size_t step = std::max<std::size_t>(1, g.cur_element_count / 16);
  for (std::size_t i = 0; i < g.cur_element_count; i += step) {
    const Xapian::docid id = static_cast<Xapian::docid>(g.getExternalLabel(static_cast<hnswlib::tableint>(i)));
    auto v = db.valuestream_begin(schema::kVectorSlot);
    if (v == db.valuestream_end(schema::kVectorSlot)) return nullptr;
    v.skip_to(id);
    if (v == db.valuestream_end(schema::kVectorSlot) || v.get_docid() != id) continue;  // deleted since
    const char* data = g.getDataByInternalId(static_cast<hnswlib::tableint>(i));
    if (*v != std::string_view(data, dimensions)) return nullptr;
  }
  return std::shared_ptr<const Graph>(new Graph(std::move(impl)));
}

std::vector<Xapian::docid> Graph::nearest(const std::vector<float>& q, std::size_t k) const {
  if (k == 0 || q.size() != impl_->stamp.dimensions) return {};
  const std::string query = vectors::encode_unit(q);
  auto found = impl_->hnsw.searchKnn(query.data(), std::max(k, kSearchDepth));
  std::vector<Xapian::docid> out(found.size());
  for (std::size_t i = found.size(); i-- > 0; found.pop()) out[i] = static_cast<Xapian::docid>(found.top().second);
  return out;
}

std::optional<Stamp> read_stamp(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  Trailer t;
  struct stat st {};
  const bool read = ::fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) >= sizeof t &&
                    ::pread(fd, &t, sizeof t, st.st_size - static_cast<off_t>(sizeof t)) == sizeof t;
  ::close(fd);
  if (!read || !valid(t) || t.hnsw_bytes != st.st_size - sizeof t) return std::nullopt;
  return Stamp{t.dimensions, static_cast<Xapian::docid>(t.last), t.size};
}

std::uint64_t build_graph(const fs::path& generation, const Xapian::Database& db, std::uint32_t dimensions,
                          unsigned threads) {
  const fs::path building = building_path(generation), final_path = graph_path(generation);
  fs::remove(building);
  std::vector<Xapian::docid> ids;
  std::string data;  // the vectors, one after another
  for (auto v = db.valuestream_begin(schema::kVectorSlot); v != db.valuestream_end(schema::kVectorSlot); ++v) {
    const std::string value = *v;
    if (value.size() != dimensions) continue;
    ids.push_back(v.get_docid());
    data += value;
  }
  if (ids.empty()) {
    fs::remove(final_path);
    return 0;
  }
  {
    Int8Space space(dimensions);
    hnswlib::HierarchicalNSW<float> hnsw(&space, ids.size(), kLinks, kBuildDepth);
    std::atomic<std::size_t> next{0};
    std::exception_ptr failed;
    std::mutex failed_mutex;
    auto work = [&] {
      try {
        for (std::size_t i; (i = next++) < ids.size();) hnsw.addPoint(data.data() + i * dimensions, ids[i]);
      } catch (...) {
        std::lock_guard lock(failed_mutex);
        failed = std::current_exception();
        next = ids.size();
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (failed) std::rethrow_exception(failed);
    hnsw.saveIndex(building.string());
  }
  // hnswlib's write is not checked: the trailer says how long it must be, and
  // open() below reads it all back.
  Trailer t;
  t.dimensions = dimensions;
  t.last = db.get_lastdocid();
  t.size = ids.size();
  t.hnsw_bytes = fs::file_size(building);
  const int fd = ::open(building.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + building.string());
  try {
    write_all(fd, &t, sizeof t, building);
    if (::fsync(fd) != 0) throw std::system_error(errno, std::generic_category(), "cannot sync " + building.string());
  } catch (...) {
    ::close(fd);
    fs::remove(building);
    throw;
  }
  ::close(fd);
  if (!Graph::open(building, db, dimensions)) {
    fs::remove(building);
    throw std::runtime_error("the nearest-neighbour graph written to " + building.string() +
                             " does not read back whole (is the disk full?)");
  }
  fs::rename(building, final_path);
  const int dir = ::open(generation.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return ids.size();
}

bool graph_due(const fs::path& generation, const Xapian::Database& db, std::uint32_t dimensions) {
  if (dimensions == 0) return false;
  const auto stamp = read_stamp(graph_path(generation));
  const std::uint64_t with_vectors = db.get_value_freq(schema::kVectorSlot);
  if (!stamp || stamp->dimensions != dimensions) return with_vectors != 0;
  const std::uint64_t added = vectors_from(db, stamp->last + 1, dimensions);
  const std::uint64_t kept = with_vectors - std::min(with_vectors, added);
  const std::uint64_t deleted = stamp->size - std::min(stamp->size, kept);
  return added + deleted >= std::max<std::uint64_t>(kStaleAbstracts, stamp->size / 10);
}

}  // namespace abstracts::neighbours
