#include "indexer/zotero_sync.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace abstracts::indexer::zotero {
namespace {

std::string item_name(const ItemState& item) { return std::to_string(item.library_id) + "/" + item.key; }

template <class T>
bool number(std::string_view s, T& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// A field as encode() writes it: a tab, a line break or a backslash escaped
// (a key or a date is Zotero's text, which may hold any of them).
std::string escaped(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '\t' || c == '\n') {
      out += '\\';
      out += c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescaped(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char c = s[++i];
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::string state_key(std::string_view database) { return "zotero:" + std::string(database); }

// A line a field, tab-separated: the files' state, the records, then one line
// per item: name, itemID, version, digest (in hex), dateModified (the text ones
// escaped). A state kept before digests has no digest: its items are all read
// again at the next sync.
std::string encode(const SyncState& state) {
  std::string out = state.files_state + "\n" + std::to_string(state.records) + "\n";
  char digest[17];
  for (const auto& [name, item] : state.items) {
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(item.digest));
    out += escaped(name) + '\t' + std::to_string(item.item_id) + '\t' + std::to_string(item.version) + '\t' +
           digest + '\t' + escaped(item.date_modified) + '\n';
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
    std::string_view fields[5];
    int n = 0;
    for (; n < 4; ++n) {
      const auto tab = item.find('\t');
      if (tab == std::string_view::npos) break;
      fields[n] = item.substr(0, tab);
      item.remove_prefix(tab + 1);
    }
    if (n < 3) return false;
    fields[n] = item;
    // encode() wrote the names in order: each goes at the end.
    SyncState::Item& it = state.items.emplace_hint(state.items.end(), unescaped(fields[0]), SyncState::Item{})->second;
    if (!number(fields[1], it.item_id) || !number(fields[2], it.version)) return false;
    if (n == 4) {  // with a digest
      const auto [end, ec] = std::from_chars(fields[3].data(), fields[3].data() + fields[3].size(), it.digest, 16);
      if (ec != std::errc() || end != fields[3].data() + fields[3].size()) return false;
    }
    it.date_modified = unescaped(fields[n]);
  }
  return true;
}

namespace {

// The live items by name, in name order (as SyncState::items keeps them).
std::vector<std::pair<std::string, const ItemState*>> by_name(const std::vector<ItemState>& live) {
  std::vector<std::pair<std::string, const ItemState*>> out;
  out.reserve(live.size());
  for (const auto& item : live) out.emplace_back(item_name(item), &item);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace

SyncState state_of(const std::vector<ItemState>& live, std::string files_state) {
  SyncState out;
  out.files_state = std::move(files_state);
  for (auto& [name, item] : by_name(live)) {
    out.items.emplace_hint(out.items.end(), std::move(name),
                           SyncState::Item{item->item_id, item->version, item->date_modified, item->digest});
  }
  return out;
}

// Both sides in name order, merged: at 100,000 items, a map of the live ones
// and a lookup per item took a quarter of a re-sync.
Changes changes(const SyncState& before, const std::vector<ItemState>& live) {
  Changes out;
  const auto now = by_name(live);
  auto b = before.items.begin();
  auto n = now.begin();
  while (b != before.items.end() || n != now.end()) {
    if (n == now.end() || (b != before.items.end() && b->first < n->first)) {
      out.take_out.push_back((b++)->second.item_id);  // gone
    } else if (b == before.items.end() || n->first < b->first) {
      out.read.push_back((n++)->second->item_id);  // new
    } else {
      const ItemState& item = *n->second;
      if (b->second.item_id != item.item_id || b->second.version != item.version ||
          b->second.date_modified != item.date_modified || b->second.digest != item.digest) {
        out.take_out.push_back(b->second.item_id);
        out.read.push_back(item.item_id);
      }
      ++b;
      ++n;
    }
  }
  return out;
}

}  // namespace abstracts::indexer::zotero
