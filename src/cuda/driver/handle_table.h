// HandleTable<T>: the live objects behind one kind of CUDA handle (CUmodule, CUstream,
// ...). A handle is the object's address; lookups of handles that were never issued or
// were destroyed fail instead of touching freed memory, and a looked-up object stays
// alive (shared ownership) for the duration of the API call that uses it.
// Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace strata::cuda::driver {

template <typename T>
class HandleTable {
 public:
  void insert(const std::shared_ptr<T>& object) {
    std::lock_guard<std::mutex> lock(mutex_);
    objects_[object.get()] = object;
  }
  // The object for `handle`, or nullptr.
  std::shared_ptr<T> find(const void* handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(static_cast<const T*>(handle));
    return it == objects_.end() ? nullptr : it->second;
  }
  // Removes and returns the object for `handle` (nullptr if it is not live).
  std::shared_ptr<T> erase(const void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(static_cast<const T*>(handle));
    if (it == objects_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(it->second);
    objects_.erase(it);
    return object;
  }
  // Removes and returns every object matching `pred`.
  template <typename Pred>
  std::vector<std::shared_ptr<T>> erase_if(Pred pred) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::shared_ptr<T>> out;
    for (auto it = objects_.begin(); it != objects_.end();) {
      if (pred(*it->second)) {
        out.push_back(std::move(it->second));
        it = objects_.erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const T*, std::shared_ptr<T>> objects_;
};

}  // namespace strata::cuda::driver
