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
#include <queue>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

// hnswlib's prefetches (USE_SSE) read the word after a list of links, past the
// end of an upper layer's list while building: harmless, but AddressSanitizer
// stops the tests on it. Build with them everywhere else.
#if defined(__SANITIZE_ADDRESS__)
#define NO_MANUAL_VECTORIZATION
#endif
#include <hnswlib/hnswlib.h>

#include "engine/schema.h"
#include "engine/scratch.h"
#include "engine/vectors.h"

namespace fs = std::filesystem;

namespace abstracts::neighbours {
namespace {

// hnswlib's links per abstract (twice as many on the bottom layer) and the
// breadth of its search while building: the recall they give, at 115k and 1M
// abstracts, is in docs/performance.md.
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
// Whether `t`, read from the end of a file of `file_bytes`, is our trailer of that file.
bool valid(const Trailer& t, std::uint64_t file_bytes) {
  return std::memcmp(t.magic, Trailer{}.magic, sizeof t.magic) == 0 && t.version == 1 &&
         t.hnsw_bytes == file_bytes - sizeof t;
}

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
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
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
  if (!valid(t, m.size)) return std::nullopt;
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

// hnswlib's graph as its file holds it, searched in place. hnswlib's own
// search (HierarchicalNSW::searchKnn) follows links unchecked, so it would
// need every link of the file checked before the first search: at a million
// abstracts, a pass over 250 MB on each start of the command line. Here each
// link is checked as it is followed, and a damaged one is not followed.
struct Graph::Impl {
  std::unique_ptr<Mapping> mapping;
  Stamp stamp;
  Head head{};
  std::size_t dimensions = 0;
  const char* level0 = nullptr;  // count x size_per_element: links, vector, label
  std::size_t links_bytes = 0;   // of an upper layer's list
  // The abstracts on the upper layers (by number): where their lists start, and how many.
  std::vector<std::pair<hnswlib::tableint, std::pair<const char*, std::uint32_t>>> upper;

  // The file's parts, checked for size and bounds (not each link). False if
  // it is not a whole graph of `t.dimensions`.
  bool load(const Trailer& t) {
    const char* at = mapping->bytes;
    const char* const end = mapping->bytes + t.hnsw_bytes;
    Head& h = head;
    if (!read_head(at, end, h)) return false;
    dimensions = t.dimensions;
    const std::size_t links0 = h.max_m0 * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint);
    links_bytes = h.max_m * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint);
    if (h.offset_level0 != 0 || h.count != t.size || h.count == 0 || h.count > 0xfffffffeu || h.max_m0 == 0 ||
        h.max_m0 > 4096 || h.max_m == 0 || h.max_m > h.max_m0 || h.offset_data != links0 ||
        h.label_offset != links0 + dimensions || h.size_per_element != links0 + dimensions + sizeof(hnswlib::labeltype) ||
        h.max_level < 0 || h.max_level > 64 || h.entry >= h.count ||
        static_cast<std::size_t>(end - at) / h.size_per_element < h.count) {
      return false;
    }
    level0 = at;
    at += h.count * h.size_per_element;
    for (std::size_t i = 0; i < h.count; ++i) {
      std::uint32_t bytes = 0;
      if (!take(at, end, bytes) || bytes % links_bytes != 0 || bytes / links_bytes > static_cast<std::size_t>(h.max_level) ||
          static_cast<std::size_t>(end - at) < bytes) {
        return false;
      }
      if (bytes != 0) upper.push_back({static_cast<hnswlib::tableint>(i), {at, bytes / links_bytes}});
      at += bytes;
    }
    return at == end && level_of(h.entry) == static_cast<std::uint32_t>(h.max_level);
  }

  // Abstract `i`'s upper layers: where their lists start, and how many (none: 0).
  std::pair<const char*, std::uint32_t> upper_of(hnswlib::tableint i) const {
    auto u = std::lower_bound(upper.begin(), upper.end(), i, [](const auto& e, hnswlib::tableint x) { return e.first < x; });
    return u != upper.end() && u->first == i ? u->second : std::pair<const char*, std::uint32_t>{nullptr, 0};
  }
  std::uint32_t level_of(hnswlib::tableint i) const { return upper_of(i).second; }
  // f(link) for each link of abstract `i` on `layer` that is in range and to
  // an abstract on the layer (none if `i` is not on it).
  template <class F>
  void for_each_link(hnswlib::tableint i, std::uint32_t layer, F&& f) const {
    const char* list = nullptr;
    std::size_t most = head.max_m0;
    if (layer == 0) {
      list = level0 + i * head.size_per_element;
    } else {
      const auto [lists, levels] = upper_of(i);
      if (levels < layer) return;
      list = lists + (layer - 1) * links_bytes;
      most = head.max_m;
    }
    hnswlib::linklistsizeint n;
    std::memcpy(&n, list, sizeof n);
    n = std::min<hnswlib::linklistsizeint>(n & 0xffff, static_cast<hnswlib::linklistsizeint>(most));
    for (std::size_t j = 0; j < n; ++j) {
      hnswlib::tableint to;
      std::memcpy(&to, list + sizeof n + j * sizeof to, sizeof to);
      if (to < head.count && (layer == 0 || level_of(to) >= layer)) f(to);
    }
  }
  const char* vector_of(hnswlib::tableint i) const { return level0 + i * head.size_per_element + head.offset_data; }
  Xapian::docid label_of(hnswlib::tableint i) const {
    hnswlib::labeltype label;
    std::memcpy(&label, level0 + i * head.size_per_element + head.label_offset, sizeof label);
    return label <= stamp.last ? static_cast<Xapian::docid>(label) : 0;  // 0: damaged
  }
  float distance(const std::string& q, hnswlib::tableint i) const {
    return int8_distance(q.data(), vector_of(i), &dimensions);
  }

  // hnswlib's search: down the upper layers greedily, then the `ef` nearest
  // found on the bottom one, nearest first.
  std::vector<hnswlib::tableint> search(const std::string& q, std::size_t ef) const {
    hnswlib::tableint at = head.entry;
    float d = distance(q, at);
    for (auto layer = static_cast<std::uint32_t>(head.max_level); layer > 0; --layer) {
      for (bool moved = true; moved;) {
        moved = false;
        for_each_link(at, layer, [&](hnswlib::tableint to) {
          if (const float dt = distance(q, to); dt < d) d = dt, at = to, moved = true;
        });
      }
    }
    using Scored = std::pair<float, hnswlib::tableint>;
    std::priority_queue<Scored, std::vector<Scored>, std::greater<>> next;  // nearest on top
    std::priority_queue<Scored> best;                                       // farthest on top
    std::vector<bool> seen(head.count);
    seen[at] = true;
    next.push({d, at});
    best.push({d, at});
    while (!next.empty()) {
      const auto [dn, n] = next.top();
      if (dn > best.top().first && best.size() >= ef) break;
      next.pop();
      for_each_link(n, 0, [&](hnswlib::tableint to) {
        if (seen[to]) return;
        seen[to] = true;
        const float dt = distance(q, to);
        if (best.size() < ef || dt < best.top().first) {
          next.push({dt, to});
          best.push({dt, to});
          if (best.size() > ef) best.pop();
        }
      });
    }
    std::vector<hnswlib::tableint> out(best.size());
    for (std::size_t i = best.size(); i-- > 0; best.pop()) out[i] = best.top().second;
    return out;
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
  auto impl = std::make_unique<Impl>();
  impl->mapping = std::move(mapping);
  impl->stamp = {t->dimensions, static_cast<Xapian::docid>(t->last), t->size};
  if (!impl->load(*t)) return nullptr;
  // The graph must hold the vectors the database has: compare a sample.
  const std::size_t count = impl->head.count, step = std::max<std::size_t>(1, count / 16);
  for (std::size_t i = 0; i < count; i += step) {
    const Xapian::docid id = impl->label_of(static_cast<hnswlib::tableint>(i));
    if (id == 0) return nullptr;
    auto v = db.valuestream_begin(schema::kVectorSlot);
    if (v == db.valuestream_end(schema::kVectorSlot)) return nullptr;
    v.skip_to(id);
    if (v == db.valuestream_end(schema::kVectorSlot) || v.get_docid() != id) continue;  // deleted since
    if (*v != std::string_view(impl->vector_of(static_cast<hnswlib::tableint>(i)), dimensions)) return nullptr;
  }
  return std::shared_ptr<const Graph>(new Graph(std::move(impl)));
}

std::vector<Xapian::docid> Graph::nearest(const std::vector<float>& q, std::size_t k) const {
  if (k == 0 || q.size() != impl_->stamp.dimensions) return {};
  std::vector<Xapian::docid> out;
  for (auto i : impl_->search(vectors::encode_unit(q), std::max(k, kSearchDepth))) {
    if (const Xapian::docid id = impl_->label_of(i); id != 0) out.push_back(id);
  }
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
  if (!read || !valid(t, static_cast<std::uint64_t>(st.st_size))) return std::nullopt;
  return Stamp{t.dimensions, static_cast<Xapian::docid>(t.last), t.size};
}

std::uint64_t build_graph(const fs::path& generation, const Xapian::Database& db, std::uint32_t dimensions,
                          unsigned threads) {
  const fs::path building = building_path(generation), final_path = graph_path(generation);
  fs::remove(building);
  scratch::Folder scratch(building);  // the file, until it is renamed into place
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
  scratch.release();
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
