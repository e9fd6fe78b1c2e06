#include "indexer/zotero_sync.h"

#include <charconv>

namespace abstracts::indexer::zotero {
namespace {

std::string item_name(const ItemState& item) { return std::to_string(item.library_id) + "/" + item.key; }

template <class T>
bool number(std::string_view s, T& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string state_key(std::string_view database) { return "zotero:" + std::string(database); }

// A line a field, tab-separated: the files' state, the records, then one line
// per item: name, itemID, version, dateModified (none of them holds a tab).
std::string encode(const SyncState& state) {
  std::string out = state.files_state + "\n" + std::to_string(state.records) + "\n";
  for (const auto& [name, item] : state.items) {
    out += name + '\t' + std::to_string(item.item_id) + '\t' + std::to_string(item.version) + '\t' +
           item.date_modified + '\n';
  }
  return out;
}

bool decode(std::string_view value, SyncState& state) {
  state = {};
  auto line = [&](std::string_view& out) {
    const auto end = value.find('\n');
    if (end == std::string_view::npos) return false;
    out = value.substr(0, end);
    value.remove_prefix(end + 1);
    return true;
  };
  std::string_view files, records, item;
  if (!line(files) || !line(records) || !number(records, state.records)) return false;
  state.files_state = files;
  while (line(item)) {
    std::string_view fields[4];
    for (int i = 0; i < 3; ++i) {
      const auto tab = item.find('\t');
      if (tab == std::string_view::npos) return false;
      fields[i] = item.substr(0, tab);
      item.remove_prefix(tab + 1);
    }
    fields[3] = item;
    SyncState::Item& it = state.items[std::string(fields[0])];
    if (!number(fields[1], it.item_id) || !number(fields[2], it.version)) return false;
    it.date_modified = fields[3];
  }
  return true;
}

SyncState state_of(const std::vector<ItemState>& live, std::string files_state) {
  SyncState out;
  out.files_state = std::move(files_state);
  for (const auto& item : live) out.items[item_name(item)] = {item.item_id, item.version, item.date_modified};
  return out;
}

Changes changes(const SyncState& before, const std::vector<ItemState>& live) {
  Changes out;
  std::map<std::string, const ItemState*> now;
  for (const auto& item : live) now.emplace(item_name(item), &item);
  for (const auto& [name, item] : before.items) {
    const auto it = now.find(name);
    if (it == now.end() || it->second->item_id != item.item_id || it->second->version != item.version ||
        it->second->date_modified != item.date_modified) {
      out.take_out.push_back(item.item_id);
    }
  }
  for (const auto& [name, item] : now) {
    const auto it = before.items.find(name);
    if (it == before.items.end() || it->second.item_id != item->item_id || it->second.version != item->version ||
        it->second.date_modified != item->date_modified) {
      out.read.push_back(item->item_id);
    }
  }
  return out;
}

}  // namespace abstracts::indexer::zotero
