#include "engine/compression.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_c_literalCompressionMode
#include <zdict.h>
#include <zstd.h>

#include "abstracts/error.h"

namespace abstracts::compression {
namespace {

// zstd's level 3 (its default) with a dictionary: 506 bytes per arXiv abstract
// against 711 with zlib; level 9 saves another 7% but compresses 7x slower
// (`zstd -b3` 160 MB/s, `-b9` 23 MB/s with the dictionary, 1,000 abstracts).
constexpr int kLevel = 3;
constexpr std::size_t kDictionaryBytes = 64 * 1024;

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
  impl_->context = ZSTD_createCCtx();
  // No dictionary id: the dictionary is the index's. A checksum (4 bytes), which
  // decompression checks: a damaged abstract is an error, not a garbled hit.
  ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_dictIDFlag, 0);
  ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_compressionLevel, kLevel);
  if (dictionary.empty()) {
    // Without a dictionary (an index of fewer than kMinSamples abstracts, such as
    // the bundled corpus) each abstract would carry its own Huffman table, which
    // costs more to read than it saves: a one-shot search decodes ten of them.
    ZSTD_CCtx_setParameter(impl_->context, ZSTD_c_literalCompressionMode, ZSTD_ps_disable);
    return;
  }
  impl_->dictionary = ZSTD_createCDict(dictionary.data(), dictionary.size(), kLevel);
  ZSTD_CCtx_refCDict(impl_->context, impl_->dictionary);
}

Compressor::~Compressor() {
  ZSTD_freeCDict(impl_->dictionary);
  ZSTD_freeCCtx(impl_->context);
}

std::string Compressor::compress(std::string_view data) const {
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
