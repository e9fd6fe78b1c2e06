// What the fuzzers (tests/fuzz/) share: a broken promise of the code under test
// is a finding, reported like a crash.
#ifndef ABSTRACTS_TESTS_FUZZ_FUZZ_CHECK_H_
#define ABSTRACTS_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "engine/analysis/unicode_text.h"

namespace abstracts::fuzz {

// Aborts with `promise` on stderr unless `kept`: libFuzzer then saves the input
// as a crash artifact, as it does for a sanitizer report.
inline void check(bool kept, const char* promise) {
  if (kept) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", promise);
  std::abort();
}

inline bool is_utf8(std::string_view s) {
  return analysis::find_invalid_utf8(s) == std::string_view::npos;
}

// Characters (code points) of UTF-8 text, counted as the engine counts them: the
// bytes that are not continuation bytes.
inline std::size_t characters(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace abstracts::fuzz

#endif  // ABSTRACTS_TESTS_FUZZ_FUZZ_CHECK_H_
