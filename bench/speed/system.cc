#include "bench/speed/system.h"

#include <stdexcept>

namespace abstracts::speed {

const std::vector<System>& systems() {
  static const std::vector<System> all = {
      {"engine", &index_engine, &open_engine},
      {"xapian", &index_xapian, &open_xapian},
      {"fts5", &index_fts5, &open_fts5},
      {"matcher", &index_engine, &open_matcher},  // searches the engine's index
      {"engine-hybrid", &index_engine, &open_engine_hybrid},  // the engine's index, with vectors built
  };
  return all;
}

const System& find_system(const std::string& name) {
  for (const auto& s : systems()) {
    if (s.name == name) return s;
  }
  throw std::invalid_argument("unknown system: " + name);
}

}  // namespace abstracts::speed
