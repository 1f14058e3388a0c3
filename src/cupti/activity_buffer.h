// The client's activity buffers: CUPTI's buffer requested / completed protocol
// (cuptiActivityRegisterCallbacks).
//
// Records are packed one after another into the buffer the client handed out, each at an
// offset aligned to ACTIVITY_RECORD_ALIGNMENT (8) bytes, as cuptiActivityGetNextRecord
// walks them. A buffer is completed (handed back with its valid size) when the next
// record does not fit or it holds the client's maxNumRecords, and on flush(). A record
// that finds no buffer (no callbacks registered, the client declined, or its buffer is
// too small for one record) is dropped and counted.
//
// Thread-safe. The client's callbacks are called without any lock held, so they may call
// back into CUPTI (Kineto calls cuptiActivityGetNumDroppedRecords from bufferCompleted);
// completed callbacks may run on several threads at once.
#pragma once

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace strata::cupti {

class ActivityBuffers {
 public:
  void register_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                          CUpti_BuffersCallbackCompleteFunc completed);
  bool registered() const;
  // Copies `size` bytes of `record` (starting with its CUpti_ActivityKind) into the
  // current buffer, asking the client for one when needed.
  void append(const void* record, size_t size);
  // Hands every buffer holding records back to the client.
  void flush();
  // Records dropped since the last call, and resets the count.
  size_t take_dropped();
  // Forgets the callbacks (cuptiFinalize) after flushing.
  void reset();

 private:
  struct Buffer {
    uint8_t* data = nullptr;
    size_t size = 0;
    size_t used = 0;
    size_t max_records = 0;  // 0: as many as fit
    size_t records = 0;
  };
  void deliver(std::vector<Buffer>& full);

  mutable std::mutex mu_;
  CUpti_BuffersCallbackRequestFunc requested_ = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed_ = nullptr;
  Buffer current_;
  size_t dropped_ = 0;
};

// The aligned size a record of `size` bytes takes in a buffer.
inline size_t aligned_record_size(size_t size) {
  return (size + ACTIVITY_RECORD_ALIGNMENT - 1) & ~size_t{ACTIVITY_RECORD_ALIGNMENT - 1};
}

}  // namespace strata::cupti
