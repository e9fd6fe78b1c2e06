#include "engine/compression.h"

#include <xxhash.h>
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>

#include "abstracts/error.h"

namespace abstracts::compression {
namespace {

// zstd's level 3 (its default) with a dictionary: 506 bytes per arXiv abstract
// against 711 with zlib; level 9 saves another 7% but compresses 7x slower
// (`zstd -b3` 160 MB/s, `-b9` 23 MB/s with the dictionary, 1,000 abstracts).
constexpr int kLevel = 3;
constexpr std::size_t kDictionaryBytes = 64 * 1024;

// A zstd frame of raw blocks (RFC 8878, section 3.1.1): `data` as it is, with
// the frame's content size and checksum, which any zstd decoder reads.
std::string raw_frame(std::string_view data) {
  constexpr std::size_t kMaxBlock = 128 * 1024;  // Block_Maximum_Size
  auto put_le = [](std::string& out, std::uint64_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) out += static_cast<char>((v >> (8 * b)) & 0xff);
  };
  std::string out;
  out.reserve(data.size() + 17 + 3 * (data.size() / kMaxBlock));
  put_le(out, ZSTD_MAGICNUMBER, 4);
  // Frame_Header_Descriptor: one segment (no window descriptor), a content
  // checksum, no dictionary id, and the content size in as few bytes as it takes
  // (the two-byte form holds the size less 256).
  const std::uint64_t n = data.size();
  const int size_flag = n < 256 ? 0 : n < 65536 + 256 ? 1 : n <= 0xFFFFFFFFu ? 2 : 3;
  out += static_cast<char>((size_flag << 6) | 0x20 | 0x04);
  put_le(out, size_flag == 1 ? n - 256 : n, 1 << size_flag);
  std::size_t at = 0;
  do {
    const std::size_t size = std::min(kMaxBlock, data.size() - at);
    const bool last = at + size == data.size();
    put_le(out, (size << 3) | (last ? 1u : 0u), 3);  // Block_Type 0: raw
    out.append(data.substr(at, size));
    at += size;
  } while (at < data.size());
  put_le(out, static_cast<std::uint32_t>(XXH64(data.data(), data.size(), 0)), 4);
  return out;
}

}  // namespace

std::string train_dictionary(const std::vector<std::string>& samples) {
  if (samples.size() < kMinSamples) return {};
  std::string joined;
  std::vector<std::size_t> sizes;
  for (const auto& s : samples) {
    joined += s;
    sizes.push_back(s.size());
  }
  std::string dictionary(kDictionaryBytes, '\0');
  std::size_t n = ZDICT_trainFromBuffer(dictionary.data(), dictionary.size(), joined.data(), sizes.data(),
                                        static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(n)) return {};
  dictionary.resize(n);
  return dictionary;
}

struct Compressor::Impl {
  ZSTD_CCtx* context = nullptr;
  ZSTD_CDict* dictionary = nullptr;
};

Compressor::Compressor(std::string_view dictionary) : impl_(std::make_unique<Impl>()) {
  if (dictionary.empty()) return;  // raw frames, written here: see compress()
  impl_->context = ZSTD_createCCtx();
  // No dictionary id: the dictionary is the index's. A checksum (4 bytes), which
  // decompression checks: a damaged abstract is an error, not a garbled hit.
  ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_dictIDFlag, 0);
  ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_compressionLevel, kLevel);
  impl_->dictionary = ZSTD_createCDict(dictionary.data(), dictionary.size(), kLevel);
  ZSTD_CCtx_refCDict(impl_->context, impl_->dictionary);
}

Compressor::~Compressor() {
  ZSTD_freeCDict(impl_->dictionary);
  ZSTD_freeCCtx(impl_->context);
}

std::string Compressor::compress(std::string_view data) const {
  // Without a dictionary (an index too small to train one, such as the bundled
  // corpus) zstd's frame of one abstract costs more to read than its bytes save:
  // a one-shot search reads ten, and decoding took 240,000 of its 4.37 million
  // instructions; raw blocks are copied out, and still checked. The bundled
  // corpus's index is 303 KB so, against 262 KB.
  if (!impl_->dictionary) return raw_frame(data);
  std::string out(ZSTD_compressBound(data.size()), '\0');
  std::size_t n = ZSTD_compress2(impl_->context, out.data(), out.size(), data.data(), data.size());
  if (ZSTD_isError(n)) throw Error(std::string("cannot compress an abstract: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

struct Decompressor::Impl {
  ZSTD_DCtx* context = nullptr;
  // One per database; null for one without a dictionary.
  std::vector<ZSTD_DDict*> dictionaries;

  void add(std::string_view dictionary) {
    dictionaries.push_back(dictionary.empty() ? nullptr : ZSTD_createDDict(dictionary.data(), dictionary.size()));
  }
};

Decompressor::Decompressor(std::string_view dictionary) : impl_(std::make_unique<Impl>()) {
  impl_->context = ZSTD_createDCtx();
  impl_->add(dictionary);
}

Decompressor::Decompressor(const std::vector<std::string>& dictionaries) : impl_(std::make_unique<Impl>()) {
  impl_->context = ZSTD_createDCtx();
  for (const auto& d : dictionaries) impl_->add(d);
}

Decompressor::~Decompressor() {
  for (ZSTD_DDict* d : impl_->dictionaries) ZSTD_freeDDict(d);
  ZSTD_freeDCtx(impl_->context);
}

std::string Decompressor::decompress(std::string_view stored, unsigned docid) const {
  const auto& all = impl_->dictionaries;
  const ZSTD_DDict* dictionary = all.empty() ? nullptr : all[docid == 0 ? 0 : (docid - 1) % all.size()];
  unsigned long long size = ZSTD_getFrameContentSize(stored.data(), stored.size());
  std::size_t n = ZSTD_CONTENTSIZE_ERROR;
  std::string out;
  if (size != ZSTD_CONTENTSIZE_ERROR && size != ZSTD_CONTENTSIZE_UNKNOWN) {
    out.resize(size);
    n = ZSTD_decompress_usingDDict(impl_->context, out.data(), out.size(), stored.data(), stored.size(),
                                   dictionary);
  }
  if (ZSTD_isError(n) || n != size) {
    throw CorruptIndex("a stored abstract cannot be decompressed",
                       "delete the index and build it again with abstracts::Writer");
  }
  return out;
}

}  // namespace abstracts::compression
