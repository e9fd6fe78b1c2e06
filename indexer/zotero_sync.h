// What an index keeps of a Zotero database it syncs (metadata "zotero:" + the
// database's path): the live files' state at the last sync, and each item's
// version, so that a sync reads only the items that changed.
#ifndef ABSTRACTS_INDEXER_ZOTERO_SYNC_H_
#define ABSTRACTS_INDEXER_ZOTERO_SYNC_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/zotero.h"

namespace abstracts::indexer::zotero {

struct SyncState {
  std::string files_state;   // current_state() when the snapshot was taken
  std::uint64_t records = 0;  // items indexed (those with an abstract)
  struct Item {
    std::int64_t item_id = 0;
    std::int64_t version = 0;
    std::string date_modified;
    std::uint64_t digest = 0;  // ItemState::digest
  };
  std::map<std::string, Item> items;  // every live regular item, by "libraryID/key"
};

std::string state_key(std::string_view database);
std::string encode(const SyncState& state);
// False (and `state` empty) for a value that is no SyncState.
bool decode(std::string_view value, SyncState& state);

// The state of `live`, the items of a snapshot whose files were `files_state`.
SyncState state_of(const std::vector<ItemState>& live, std::string files_state);

// What a sync from `before` to `live` must do.
struct Changes {
  std::vector<std::int64_t> take_out;  // itemIDs indexed before of items gone or changed
  std::vector<std::int64_t> read;      // itemIDs of items new or changed, to read
};
Changes changes(const SyncState& before, const std::vector<ItemState>& live);

}  // namespace abstracts::indexer::zotero

#endif  // ABSTRACTS_INDEXER_ZOTERO_SYNC_H_
