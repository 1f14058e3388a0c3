// NVTX events as profiler records: the state behind Strata's NVTX injection
// (nvtx_injection.h). Independent of the NVTX ABI: the injection converts NVTX's
// arguments (event attributes, wide strings, handles) and calls these.
//
// Every record goes to the driver's profiler table (prof/abi.h) through table.emit(),
// with times from table.now_ns() and threads from table.this_tid():
//  * marks: one prof::Nvtx (kMark) at once;
//  * push/pop ranges: one prof::Nvtx (kPushPop) at the pop; stacks are per thread and
//    per domain;
//  * start/end ranges: one prof::Nvtx (kStartEnd) at the end, which may come from another
//    thread (end_tid); ids are unique in the process;
//  * ranges still open at finish() (process exit): delivered without `end`;
//  * domains: one prof::NvtxDomain when created (ids from 1; a name created twice is the
//    same domain); category names: a prof::Nvtx of kind kCategory; thread names: a
//    prof::Thread.
// Thread-safe. The recorder lives as long as the process (never destroyed).
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "prof/abi.h"
#include "prof/trace.h"

namespace strata::cupti {

// What one NVTX event carries besides its time and thread (prof::Nvtx's event fields).
struct NvtxEvent {
  std::string text;
  uint32_t category = 0;
  std::optional<uint32_t> color;  // ARGB
  prof::Nvtx::Payload payload = prof::Nvtx::kNone;
  double payload_value = 0;
  uint64_t payload_bits = 0;
};

// A domain (nvtxDomainHandle_t points to one). The default domain has id 0.
struct NvtxDomainState {
  uint64_t id = 0;
  std::string name;
};

// An NVTX capture range (like nsys --capture-range=nvtx --nvtx-capture=RANGE@DOMAIN):
// `begin` runs when a push/pop or start/end range with message `text` in `domain` starts
// while no other such range is open, `end` when the last of them ends (after its record
// is delivered).
struct NvtxCapture {
  std::string text;
  std::string domain;  // a domain's name; "" the default domain; "*" any domain
  void (*begin)() = nullptr;
  void (*end)() = nullptr;
  // Parses "RANGE", "RANGE@DOMAIN" or "RANGE@*" (split at the last '@').
  static NvtxCapture parse(const std::string& spec);
};

// A registered string (nvtxStringHandle_t points to one).
struct NvtxRegisteredString {
  uint64_t domain_id = 0;
  std::string text;
};

class NvtxRecorder {
 public:
  // `table` must outlive the recorder (it is the driver's, alive until exit).
  explicit NvtxRecorder(const prof::ProfilerTable& table);
  NvtxRecorder(const NvtxRecorder&) = delete;
  NvtxRecorder& operator=(const NvtxRecorder&) = delete;

  // Makes ranges matching `capture` capture ranges. Call before any NVTX event.
  void set_capture(NvtxCapture capture) { capture_ = std::move(capture); }

  // The default domain (id 0, unnamed); a null domain handle means it.
  NvtxDomainState* default_domain() { return &default_domain_; }

  void mark(const NvtxDomainState& domain, const NvtxEvent& event);

  // Push returns the zero-based nesting level of the new range in this thread's stack
  // for `domain`; pop returns the level of the range it ended, or -1 when the stack is
  // empty (nothing is recorded then).
  int push(const NvtxDomainState& domain, NvtxEvent event);
  int pop(const NvtxDomainState& domain);

  // Start returns the range's id (> 0, unique in the process). End of an unknown or
  // already ended id is ignored.
  uint64_t start(const NvtxDomainState& domain, NvtxEvent event);
  void end(uint64_t range_id);

  // Creates (or finds, by name) a domain and records its NvtxDomain on creation. The
  // returned pointer stays valid for the process' life (destroy_domain keeps it).
  NvtxDomainState* create_domain(const std::string& name);
  void destroy_domain(NvtxDomainState*) {}  // kept: a stale handle stays harmless
  // The same (domain, text) gives the same handle; valid for the process' life.
  const NvtxRegisteredString* register_string(const NvtxDomainState& domain,
                                              const std::string& text);

  void name_category(const NvtxDomainState& domain, uint32_t category, const std::string& name);
  void name_os_thread(uint32_t tid, const std::string& name);
  void name_stream(CUstream stream, const std::string& name);
  void name_device(int device, const std::string& name);

  // Delivers every range still open (push/pop ranges of every thread, start/end ranges)
  // without an `end`, and forgets them. Called at process exit; events after it are
  // recorded as usual.
  void finish();

 private:
  struct Open {
    uint64_t domain_id = 0;
    uint64_t start = 0;
    uint32_t tid = 0;
    NvtxEvent event;
    bool capture = false;  // a capture range (set_capture)
  };
  // One thread's push/pop stacks, by domain id. Owned by threads_ (never freed: a thread
  // may exit with ranges open, which finish() still delivers).
  struct ThreadStacks {
    std::mutex mutex;
    std::map<uint64_t, std::vector<Open>> stacks;
  };

  ThreadStacks& this_thread_stacks();
  // Capture ranges: whether a range starting now matches (and then begins the capture
  // if it is the first open one); ends it after the last one.
  bool capture_begins(const NvtxDomainState& domain, const NvtxEvent& event);
  void capture_ends();
  prof::Nvtx record(prof::Nvtx::Kind kind, const Open& open) const;

  const prof::ProfilerTable& table_;
  NvtxDomainState default_domain_;
  NvtxCapture capture_;
  std::atomic<int> capture_depth_{0};

  std::mutex mutex_;  // guards everything below
  std::vector<std::unique_ptr<ThreadStacks>> threads_;
  std::map<uint64_t, Open> started_;  // start/end ranges by id
  uint64_t next_range_id_ = 1;
  std::deque<NvtxDomainState> domains_;
  std::map<std::string, NvtxDomainState*> domains_by_name_;
  std::deque<NvtxRegisteredString> strings_;
  std::map<std::pair<uint64_t, std::string>, const NvtxRegisteredString*> strings_by_text_;
};

}  // namespace strata::cupti
