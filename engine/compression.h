// Compression of the stored abstracts with a zstd dictionary trained on the
// index's own abstracts. One abstract is a kilobyte or two, too little for a
// compressor to learn from; the dictionary holds what abstracts share (words,
// phrasing, the source path): 506 bytes per arXiv abstract against 711 with
// zlib alone (docs/performance.md).
#ifndef ABSTRACTS_ENGINE_COMPRESSION_H_
#define ABSTRACTS_ENGINE_COMPRESSION_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts::compression {

// Trains a dictionary on `samples` (encoded abstracts, schema::encode); empty when
// there are too few to learn from (kMinSamples) or training fails.
inline constexpr std::size_t kMinSamples = 1000;
std::string train_dictionary(const std::vector<std::string>& samples);

// Compresses with zstd and a dictionary. With none (`dictionary` empty) it
// writes zstd frames of raw blocks: the bytes as they are, with zstd's checksum,
// which read faster than zstd's own frames of one abstract. Throws Error if zstd
// fails. Thread-compatible: one per thread.
class Compressor {
 public:
  explicit Compressor(std::string_view dictionary);
  ~Compressor();
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;

  std::string compress(std::string_view data) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads what a Compressor with the same dictionary wrote. Throws CorruptIndex when
// the data cannot be read. Thread-compatible.
class Decompressor {
 public:
  explicit Decompressor(std::string_view dictionary);
  // Reads the stored abstracts of a Xapian database made of several (the
  // shards of a cluster), each compressed with its own dictionary: the
  // dictionaries of the databases in the order they were added. Xapian numbers
  // such a database's documents in turn, so document d is in database
  // (d - 1) % dictionaries.size().
  explicit Decompressor(const std::vector<std::string>& dictionaries);
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  // `stored` is the value of document `docid` (which only a Decompressor of
  // several dictionaries needs).
  std::string decompress(std::string_view stored, unsigned docid = 0) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace abstracts::compression

#endif  // ABSTRACTS_ENGINE_COMPRESSION_H_
