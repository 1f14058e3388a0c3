#include "prof/api_ids.h"

#include <algorithm>

namespace strata::prof {
namespace {

struct ApiKey {
  const char* key;
  uint32_t index;  // into the domain's kXIds
};

#include "prof/api_ids_table.inc"

template <size_t N, size_t M>
const ApiId* find_key(const ApiKey (&keys)[N], const ApiId (&ids)[M], std::string_view key) {
  const ApiKey* it = std::lower_bound(
      std::begin(keys), std::end(keys), key,
      [](const ApiKey& k, std::string_view v) { return std::string_view(k.key) < v; });
  if (it == std::end(keys) || std::string_view(it->key) != key) return nullptr;
  return &ids[it->index];
}

template <size_t M>
const ApiId* find_cbid(const ApiId (&ids)[M], uint32_t cbid) {
  const ApiId* it = std::lower_bound(std::begin(ids), std::end(ids), cbid,
                                     [](const ApiId& id, uint32_t v) { return id.cbid < v; });
  return it != std::end(ids) && it->cbid == cbid ? it : nullptr;
}

}  // namespace

const ApiId* runtime_api_id(std::string_view function) {
  return find_key(kRuntimeKeys, kRuntimeIds, function);
}
const ApiId* driver_api_id(std::string_view function) {
  return find_key(kDriverKeys, kDriverIds, function);
}
const ApiId* runtime_api_id_per_thread(std::string_view function) {
  return find_key(kRuntimePerThreadKeys, kRuntimeIds, function);
}
const ApiId* driver_api_id_per_thread(std::string_view function) {
  return find_key(kDriverPerThreadKeys, kDriverIds, function);
}

const ApiId* runtime_api_by_name(std::string_view name) {
  return find_key(kRuntimeExactKeys, kRuntimeIds, name);
}
const ApiId* driver_api_by_name(std::string_view name) {
  return find_key(kDriverExactKeys, kDriverIds, name);
}

const ApiId* runtime_api_by_cbid(uint32_t cbid) {
  return find_cbid(kRuntimeIds, cbid);
}
const ApiId* driver_api_by_cbid(uint32_t cbid) {
  return find_cbid(kDriverIds, cbid);
}

std::span<const ApiId> runtime_api_ids() {
  return kRuntimeIds;
}
std::span<const ApiId> driver_api_ids() {
  return kDriverIds;
}

}  // namespace strata::prof
