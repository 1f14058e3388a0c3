#include "cupti/activity_buffer.h"

#include <cstring>
#include <utility>

namespace strata::cupti {
namespace {

// The first record's offset in a client buffer: records sit at aligned addresses.
size_t first_offset(const uint8_t* data) {
  auto address = reinterpret_cast<uintptr_t>(data);
  return aligned_record_size(address) - address;
}

}  // namespace

void ActivityBuffers::register_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                         CUpti_BuffersCallbackCompleteFunc completed) {
  std::lock_guard lock(mu_);
  requested_ = requested;
  completed_ = completed;
}

bool ActivityBuffers::registered() const {
  std::lock_guard lock(mu_);
  return requested_ != nullptr && completed_ != nullptr;
}

void ActivityBuffers::append(const void* record, size_t size) {
  const size_t step = aligned_record_size(size);
  std::vector<Buffer> full;
  std::unique_lock lock(mu_);
  for (int attempt = 0;; ++attempt) {
    Buffer& b = current_;
    bool room = b.data != nullptr && b.used + size <= b.size &&
                (b.max_records == 0 || b.records < b.max_records);
    if (room) {
      std::memcpy(b.data + b.used, record, size);
      std::memset(b.data + b.used + size, 0, std::min(step, b.size - b.used) - size);
      b.used = std::min(b.used + step, b.size);
      ++b.records;
      break;
    }
    if (b.data != nullptr) {
      if (b.records > 0) full.push_back(b);
      current_ = Buffer{};
    }
    if (requested_ == nullptr || attempt > 0) {
      ++dropped_;
      break;
    }
    // Ask the client for a buffer without holding the lock.
    CUpti_BuffersCallbackRequestFunc requested = requested_;
    lock.unlock();
    Buffer fresh;
    requested(&fresh.data, &fresh.size, &fresh.max_records);
    lock.lock();
    if (fresh.data == nullptr) {
      ++dropped_;
      break;
    }
    fresh.used = first_offset(fresh.data);
    if (fresh.used + size > fresh.size) {
      // Too small for one record: give it straight back, empty.
      fresh.records = 0;
      full.push_back(fresh);
      ++dropped_;
      break;
    }
    if (current_.data != nullptr) {
      // Another thread installed a buffer meanwhile: complete it first (keeps order).
      if (current_.records > 0) full.push_back(current_);
    }
    current_ = fresh;
  }
  lock.unlock();
  deliver(full);
}

void ActivityBuffers::flush() {
  std::vector<Buffer> full;
  {
    std::lock_guard lock(mu_);
    if (current_.data != nullptr && current_.records > 0) {
      full.push_back(current_);
      current_ = Buffer{};
    }
  }
  deliver(full);
}

size_t ActivityBuffers::take_dropped() {
  std::lock_guard lock(mu_);
  return std::exchange(dropped_, 0);
}

void ActivityBuffers::reset() {
  flush();
  std::lock_guard lock(mu_);
  requested_ = nullptr;
  completed_ = nullptr;
}

void ActivityBuffers::deliver(std::vector<Buffer>& full) {
  if (full.empty()) return;
  CUpti_BuffersCallbackCompleteFunc completed;
  {
    std::lock_guard lock(mu_);
    completed = completed_;
  }
  for (Buffer& b : full) {
    size_t valid = b.records > 0 ? b.used : 0;
    if (completed != nullptr) completed(nullptr, 0, b.data, b.size, valid);
  }
}

}  // namespace strata::cupti
