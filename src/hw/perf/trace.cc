#include "hw/perf/trace.h"

#include <zstd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/check.h"

namespace strata::hw::perf {
namespace {

constexpr char kMagic[8] = {'S', 'T', 'R', 'T', 'R', 'A', 'C', 'E'};
constexpr size_t kHeaderBytes = 24;

class Writer {
 public:
  template <typename T>
  void put(T v) {
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i)
      b[i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
    out.insert(out.end(), b, b + sizeof(T));
  }
  void str(const std::string& v) {
    put<uint32_t>(static_cast<uint32_t>(v.size()));
    out.insert(out.end(), v.begin(), v.end());
  }
  std::vector<uint8_t> out;
};

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> in) : in_(in) {}
  template <typename T>
  bool get(T* v) {
    if (in_.size() - pos_ < sizeof(T)) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof(T); ++i) x |= static_cast<uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += sizeof(T);
    *v = static_cast<T>(x);
    return true;
  }
  // A count of items of `item_bytes` each that the remaining input can hold.
  bool get_count(uint64_t* n, uint64_t item_bytes) {
    return get(n) && *n <= (in_.size() - pos_) / item_bytes;
  }
  bool bytes(uint8_t* dst, uint64_t n) {
    if (in_.size() - pos_ < n) return false;
    std::memcpy(dst, in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool str(std::string* v) {
    uint32_t n = 0;
    if (!get(&n)) return false;
    if (in_.size() - pos_ < n) return false;
    v->assign(reinterpret_cast<const char*>(in_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  bool done() const { return pos_ == in_.size(); }

 private:
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
};

Status bad(const std::string& what) {
  return error(Code::kInvalidValue, "trace: " + what);
}

// KernelStats in declaration order (the file format's "KernelStats"). `F` is called with
// a reference to every scalar counter; the per-SM vectors are handled by the callers.
template <typename S, typename F>
void for_each_stat(S& k, F&& f) {
  f(k.ctas), f(k.threads_per_cta), f(k.warps_per_cta), f(k.regs_per_thread);
  f(k.shared_bytes_per_cta), f(k.ctas_per_sm), f(k.max_warps_per_sm);
  f(k.occupancy_limiter);
  f(k.warp_instructions), f(k.thread_instructions);
  for (auto& v : k.pipe_warp_instructions) f(v);
  for (auto& v : k.pipe_thread_instructions) f(v);
  for (auto& v : k.tensor_fmas) f(v);
  for (auto* m : {&k.global_loads, &k.global_stores, &k.global_atomics, &k.local_loads,
                  &k.local_stores, &k.texture_loads})
    f(m->requests), f(m->sectors);
  f(k.constant_requests), f(k.constant_wavefronts);
  f(k.shared_requests), f(k.shared_wavefronts), f(k.shared_bank_conflicts);
  f(k.barrier_arrivals), f(k.barrier_waits);
  f(k.l1_hits), f(k.l1_misses), f(k.l2_hits), f(k.l2_misses);
  f(k.dram_read_sectors), f(k.dram_write_sectors);
}

void put_record(Writer& w, const RecordInfo& r) {
  w.put<uint8_t>(r.present ? 1 : 0);
  if (!r.present) return;
  w.put<uint32_t>(r.device);
  w.put<uint64_t>(r.seq);
  w.put<uint64_t>(r.kernel_id);
  w.put<uint64_t>(r.grid_id);
  for (uint32_t v : r.grid) w.put<uint32_t>(v);
  for (uint32_t v : r.block) w.put<uint32_t>(v);
  w.str(r.config_name);
  w.str(r.config_hash);
  w.str(r.config_path);
  w.put<uint32_t>(static_cast<uint32_t>(r.config_fields.size()));
  for (const auto& [key, value] : r.config_fields) w.str(key), w.str(value);
  for_each_stat(r.stats, [&](const auto& v) { w.put(v); });
  w.put<uint64_t>(r.stats.sm_warp_instructions.size());
  for (uint64_t v : r.stats.sm_warp_instructions) w.put<uint64_t>(v);
  w.put<uint64_t>(r.stats.sm_ctas.size());
  for (uint32_t v : r.stats.sm_ctas) w.put<uint32_t>(v);
}

bool get_record(Reader& r, RecordInfo* out) {
  uint8_t present = 0;
  if (!r.get(&present) || present > 1) return false;
  out->present = present == 1;
  if (!out->present) return true;
  bool ok =
      r.get(&out->device) && r.get(&out->seq) && r.get(&out->kernel_id) && r.get(&out->grid_id);
  for (uint32_t& v : out->grid) ok = ok && r.get(&v);
  for (uint32_t& v : out->block) ok = ok && r.get(&v);
  ok = ok && r.str(&out->config_name) && r.str(&out->config_hash) && r.str(&out->config_path);
  uint32_t fields = 0;
  if (!ok || !r.get(&fields) || fields > (1u << 16)) return false;
  out->config_fields.resize(fields);
  for (auto& [key, value] : out->config_fields)
    if (!r.str(&key) || !r.str(&value)) return false;
  for_each_stat(out->stats, [&](auto& v) { ok = ok && r.get(&v); });
  uint64_t n = 0;
  if (!ok || !r.get_count(&n, 8)) return false;
  out->stats.sm_warp_instructions.resize(n);
  for (uint64_t& v : out->stats.sm_warp_instructions) (void)r.get(&v);
  if (!r.get_count(&n, 4)) return false;
  out->stats.sm_ctas.resize(n);
  for (uint32_t& v : out->stats.sm_ctas) (void)r.get(&v);
  return true;
}

}  // namespace

uint64_t KernelTrace::warp_instructions() const {
  uint64_t n = 0;
  for (const CtaTrace& c : ctas)
    for (const WarpTrace& w : c.warps) n += w.issues.size();
  return n;
}

uint64_t KernelTrace::thread_instructions() const {
  uint64_t n = 0;
  for (const CtaTrace& c : ctas)
    for (const WarpTrace& w : c.warps)
      for (const TraceIssue& i : w.issues) n += static_cast<uint64_t>(__builtin_popcount(i.active));
  return n;
}

TraceRecorder::TraceRecorder(KernelTrace header) : header_(std::move(header)) {
  header_.ctas.clear();
  if (header_.sm_count == 0) header_.sm_count = 1;
  const char* dir = std::getenv("STRATA_RECORD_DIR");  // recordings for `strata sweep`
  record_l2_ = dir != nullptr && *dir != '\0';
}

WarpTrace* TraceRecorder::warp(uint64_t linear, uint32_t warp) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<CtaTrace>& c = ctas_[linear];
  if (c == nullptr) {
    c = std::make_unique<CtaTrace>();
    c->linear = linear;
    c->warps.resize(header_.warps_per_cta);
  }
  CHECK_MSG(warp < c->warps.size(), "trace: warp index beyond the CTA's warps");
  return &c->warps[warp];
}

KernelTrace TraceRecorder::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  KernelTrace t = header_;
  t.ctas.reserve(ctas_.size());
  for (auto& [linear, c] : ctas_) t.ctas.push_back(std::move(*c));
  ctas_.clear();
  t.l2_recorded = record_l2_;
  t.l2_requests = std::move(l2_);
  l2_.clear();
  return t;
}

std::vector<uint8_t> serialize_trace(const KernelTrace& t) {
  Writer w;
  w.put<uint32_t>(t.sm_count);
  w.put<uint32_t>(t.warps_per_cta);
  w.put<uint32_t>(t.threads_per_cta);
  w.put<uint32_t>(t.regs_per_thread);
  w.put<uint32_t>(t.shared_bytes_per_cta);
  w.put<uint64_t>(t.total_ctas);
  w.put<uint64_t>(t.code.size());
  w.out.insert(w.out.end(), t.code.begin(), t.code.end());
  w.put<uint64_t>(t.ctas.size());
  for (const CtaTrace& c : t.ctas) {
    w.put<uint64_t>(c.linear);
    w.put<uint32_t>(static_cast<uint32_t>(c.warps.size()));
    for (const WarpTrace& wt : c.warps) {
      w.put<uint64_t>(wt.issues.size());
      for (const TraceIssue& i : wt.issues) {
        w.put<uint32_t>(i.pc);
        w.put<uint32_t>(i.active);
        w.put<uint32_t>(i.exec);
      }
      w.put<uint64_t>(wt.accesses.size());
      for (const TraceAccess& a : wt.accesses) {
        w.put<uint32_t>(a.issue);
        w.put<uint8_t>(static_cast<uint8_t>(a.kind));
        w.put<uint8_t>(0);
        w.put<uint16_t>(0);
        w.put<uint32_t>(a.first);
        w.put<uint32_t>(a.count);
      }
      w.put<uint64_t>(wt.sectors.size());
      for (uint64_t s : wt.sectors) w.put<uint64_t>(s);
    }
  }
  put_record(w, t.record);
  w.put<uint8_t>(t.l2_recorded ? 1 : 0);
  if (t.l2_recorded) {
    w.put<uint64_t>(t.l2_requests.size());
    for (const TraceL2Request& q : t.l2_requests) {
      w.put<uint64_t>(q.line);
      w.put<uint8_t>(q.sectors);
      w.put<uint8_t>(q.op);
    }
  }
  const std::vector<uint8_t>& raw = w.out;
  std::vector<uint8_t> out(kHeaderBytes + ZSTD_compressBound(raw.size()));
  std::memcpy(out.data(), kMagic, 8);
  Writer h;
  h.put<uint32_t>(kTraceVersion);
  h.put<uint32_t>(0);
  h.put<uint64_t>(raw.size());
  std::memcpy(out.data() + 8, h.out.data(), 16);
  const size_t n =
      ZSTD_compress(out.data() + kHeaderBytes, out.size() - kHeaderBytes, raw.data(), raw.size(),
                    /*compressionLevel=*/3);
  out.resize(kHeaderBytes + (ZSTD_isError(n) ? 0 : n));
  return out;
}

StatusOr<KernelTrace> parse_trace(std::span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, 8) != 0)
    return bad("not a Strata trace");
  Reader h(bytes.subspan(8, 16));
  uint32_t version = 0, reserved = 0;
  uint64_t raw_size = 0;
  (void)h.get(&version), (void)h.get(&reserved), (void)h.get(&raw_size);
  if (version != kTraceVersion && version != 1)
    return bad("version " + std::to_string(version) + " (this build reads 1 to " +
               std::to_string(kTraceVersion) + ")");
  const std::span<const uint8_t> frame = bytes.subspan(kHeaderBytes);
  const unsigned long long content = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN ||
      content != raw_size)
    return bad("corrupt compressed payload");
  std::vector<uint8_t> raw(raw_size);
  const size_t n = ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(n) || n != raw_size) return bad("corrupt compressed payload");

  Reader r(raw);
  KernelTrace t;
  uint64_t code_bytes = 0, ctas = 0;
  if (!r.get(&t.sm_count) || !r.get(&t.warps_per_cta) || !r.get(&t.threads_per_cta) ||
      !r.get(&t.regs_per_thread) || !r.get(&t.shared_bytes_per_cta) || !r.get(&t.total_ctas) ||
      !r.get_count(&code_bytes, 1))
    return bad("truncated header");
  if (code_bytes % 16 != 0) return bad("code is not a whole number of 16-byte instructions");
  t.code.resize(code_bytes);
  if (!r.bytes(t.code.data(), code_bytes) || !r.get_count(&ctas, 12)) return bad("truncated code");
  const uint64_t instructions = code_bytes / 16;
  t.ctas.resize(ctas);
  for (CtaTrace& c : t.ctas) {
    uint32_t warps = 0;
    if (!r.get(&c.linear) || !r.get(&warps) || warps > (1u << 16)) return bad("truncated CTA");
    c.warps.resize(warps);
    for (WarpTrace& w : c.warps) {
      uint64_t n_issues = 0, n_accesses = 0, n_sectors = 0;
      if (!r.get_count(&n_issues, 12)) return bad("truncated warp");
      w.issues.resize(n_issues);
      for (TraceIssue& i : w.issues) {
        (void)r.get(&i.pc), (void)r.get(&i.active), (void)r.get(&i.exec);
        if (i.pc >= instructions) return bad("pc " + std::to_string(i.pc) + " outside the code");
      }
      if (!r.get_count(&n_accesses, 16)) return bad("truncated warp");
      w.accesses.resize(n_accesses);
      for (TraceAccess& a : w.accesses) {
        uint8_t kind = 0, pad8 = 0;
        uint16_t pad16 = 0;
        (void)r.get(&a.issue), (void)r.get(&kind), (void)r.get(&pad8), (void)r.get(&pad16);
        (void)r.get(&a.first), (void)r.get(&a.count);
        if (kind >= kNumTraceAccessKinds) return bad("unknown access kind " + std::to_string(kind));
        a.kind = static_cast<TraceAccessKind>(kind);
        if (a.issue >= n_issues) return bad("access of a missing instruction");
      }
      if (!r.get_count(&n_sectors, 8)) return bad("truncated warp");
      w.sectors.resize(n_sectors);
      for (uint64_t& s : w.sectors) (void)r.get(&s);
      for (const TraceAccess& a : w.accesses)
        if (a.kind != TraceAccessKind::kShared &&
            static_cast<uint64_t>(a.first) + a.count > n_sectors)
          return bad("access sectors out of range");
    }
  }
  if (version >= 2) {
    if (!get_record(r, &t.record)) return bad("truncated recording");
    uint8_t l2 = 0;
    uint64_t n = 0;
    if (!r.get(&l2) || l2 > 1) return bad("truncated L2 stream");
    t.l2_recorded = l2 == 1;
    if (t.l2_recorded) {
      if (!r.get_count(&n, 10)) return bad("truncated L2 stream");
      t.l2_requests.resize(n);
      for (TraceL2Request& q : t.l2_requests) {
        (void)r.get(&q.line), (void)r.get(&q.sectors), (void)r.get(&q.op);
        if (q.op > 2) return bad("unknown L2 operation " + std::to_string(q.op));
      }
    }
  }
  if (!r.done()) return bad("trailing bytes");
  return t;
}

Status write_trace(const KernelTrace& trace, const std::string& path) {
  const std::vector<uint8_t> bytes = serialize_trace(trace);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return error(Code::kUnknown, "trace: cannot write " + path);
  return ok_status();
}

StatusOr<KernelTrace> read_trace(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return error(Code::kFileNotFound, "trace: cannot read " + path);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
  StatusOr<KernelTrace> t = parse_trace(bytes);
  if (!t.ok()) return error(t.status().code(), path + ": " + t.status().message());
  return t;
}

}  // namespace strata::hw::perf
