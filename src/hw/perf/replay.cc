// Record and replay (replay.h): config overrides for `strata sweep`, the recording
// config's fields, the cache replay of SM 0's sector streams and the timing replay.
#include "hw/perf/replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "base/log.h"
#include "hw/config/arch_fields.h"
#include "hw/perf/cache.h"
#include "hw/perf/detailed/params.h"

namespace strata::hw::perf {
namespace {

const ArchFieldInfo* find_field(std::string_view key) {
  for (const ArchFieldInfo& f : arch_fields()) {
    if (key.size() == f.section.size() + 1 + f.name.size() && key.starts_with(f.section) &&
        key[f.section.size()] == '.' && key.substr(f.section.size() + 1) == f.name)
      return &f;
  }
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The value as a TOML literal for `field`: strings quoted (escaping '"' and '\'), numbers
// as given (the parser checks them) when they use only number characters.
StatusOr<std::string> toml_literal(const ArchFieldInfo& field, std::string_view value) {
  if (field.type == ArchFieldType::kString) {
    std::string out = "\"";
    for (char c : value) {
      if (c == '\n' || c == '\r')
        return error(Code::kInvalidValue, "a line break in a string value");
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }
  for (char c : value) {
    const bool ok = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' ||
                    c == 'E' || c == '_';
    if (!ok) return error(Code::kInvalidValue, fmt::format("'{}' is not a number", value));
  }
  return std::string(value);
}

uint32_t sm_count_of(const ArchConfig& c) {
  return c.sm_count > 0 ? static_cast<uint32_t>(c.sm_count) : 1;
}

uint64_t ceil_div(uint64_t a, uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

uint64_t smem_per_cta(const ArchConfig& c, const KernelTrace& t) {
  return t.shared_bytes_per_cta +
         static_cast<uint64_t>(std::max<int64_t>(c.reserved_shared_bytes_per_block, 0));
}

// One warp memory instruction's sectors through SM 0's L1 and the L2 slice, with
// record_memory_access's policies (hw/sim/sm/mem_model.cc, hw/perf/cache.h).
class CacheSim {
 public:
  CacheSim(uint64_t l1_bytes, uint32_t l1_ways, uint64_t l2_bytes, uint32_t l2_ways)
      : l1_(l1_bytes, l1_ways), l2_(l2_bytes, l2_ways) {}

  void access(const WarpTrace& w, const TraceAccess& a) {
    if (a.kind == TraceAccessKind::kShared) return;
    const uint64_t* s = w.sectors.data() + a.first;
    sectors_ += a.count;
    uint32_t i = 0;
    while (i < a.count) {
      const uint64_t line = s[i] & ~uint64_t{kLineBytes - 1};
      uint32_t mask = 0;
      for (; i < a.count && (s[i] & ~uint64_t{kLineBytes - 1}) == line; ++i)
        mask |= 1u << ((s[i] / kSectorBytes) % kSectorsPerLine);
      line_access(a.kind, line, mask);
    }
  }

  CacheReplay result(uint64_t ctas) const {
    CacheReplay r;
    r.ctas = ctas;
    r.l1_sectors = sectors_;
    r.l1_hits = st_.l1_hits, r.l1_misses = st_.l1_misses;
    r.l2_hits = st_.l2_hits, r.l2_misses = st_.l2_misses;
    r.dram_read_sectors = st_.dram_read_sectors, r.dram_write_sectors = st_.dram_write_sectors;
    r.l2_sectors = l2_sectors_;
    return r;
  }

 private:
  void count_l1(uint32_t accessed, uint32_t hits) {
    const uint32_t h = static_cast<uint32_t>(std::popcount(hits));
    st_.l1_hits += h;
    st_.l1_misses += static_cast<uint32_t>(std::popcount(accessed)) - h;
  }
  void to_l2(uint64_t line, uint32_t sectors, L2Op op) {
    if (sectors == 0) return;
    l2_sectors_ += static_cast<uint64_t>(std::popcount(sectors));
    l2_.apply({line, static_cast<uint8_t>(sectors), op}, st_);
  }
  void line_access(TraceAccessKind kind, uint64_t line, uint32_t mask) {
    SectorCache::Result r;
    switch (kind) {
      case TraceAccessKind::kLoad:
      case TraceAccessKind::kTexture:
      case TraceAccessKind::kLocalLoad:
        r = l1_.access(line, mask, SectorCache::Fill::kClean);
        count_l1(mask, r.hits);
        to_l2(r.evicted_line, r.evicted_dirty, L2Op::kWrite);
        to_l2(line, mask & ~r.hits, L2Op::kRead);
        return;
      case TraceAccessKind::kStore:
        r = l1_.access(line, mask, SectorCache::Fill::kNone);
        count_l1(mask, r.hits);
        to_l2(line, mask, L2Op::kWrite);
        return;
      case TraceAccessKind::kLocalStore:
        if (l1_.sets() == 0) {
          count_l1(mask, 0);
          to_l2(line, mask, L2Op::kWrite);
          return;
        }
        r = l1_.access(line, mask, SectorCache::Fill::kDirty);
        count_l1(mask, r.hits);
        to_l2(r.evicted_line, r.evicted_dirty, L2Op::kWrite);
        return;
      case TraceAccessKind::kAtomic:
        l1_.invalidate(line, mask);
        to_l2(line, mask, L2Op::kAtomic);
        return;
      case TraceAccessKind::kLoadL2:  // the L1 is not involved
        to_l2(line, mask, L2Op::kRead);
        return;
      case TraceAccessKind::kShared:
        return;
    }
  }

  SectorCache l1_;
  CacheState l2_;
  KernelStats st_;
  uint64_t sectors_ = 0;
  uint64_t l2_sectors_ = 0;
};

// c_recorded scaled by the change of the replayed rate per L1-visible sector (replay.h).
uint64_t rescale(uint64_t recorded, uint64_t grid_sectors, uint64_t rec_count, uint64_t rec_sectors,
                 uint64_t new_count, uint64_t new_sectors) {
  if (new_count == rec_count && new_sectors == rec_sectors) return recorded;
  if (new_sectors == 0) return recorded;
  const long double rate_new = static_cast<long double>(new_count) / new_sectors;
  if (rec_count > 0 && rec_sectors > 0) {
    const long double rate_rec = static_cast<long double>(rec_count) / rec_sectors;
    return static_cast<uint64_t>(
        std::llround(static_cast<long double>(recorded) * rate_new / rate_rec));
  }
  return static_cast<uint64_t>(std::llround(rate_new * static_cast<long double>(grid_sectors)));
}

// Whether the recorded statistics carry per-SM counts for every one of `n` SMs, each SM
// with CTAs.
bool has_per_sm_counts(const KernelStats& s, uint32_t n) {
  if (s.sm_warp_instructions.size() != n || s.sm_ctas.size() != n) return false;
  for (uint32_t i = 0; i < n && i < s.ctas; ++i)
    if (s.sm_ctas[i] == 0) return false;
  return true;
}

}  // namespace

StatusOr<ConfigOverride> parse_override(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    return error(Code::kInvalidValue,
                 fmt::format("--set '{}': expected section.field=value[,value...]", text));
  ConfigOverride o;
  o.key = std::string(trim(text.substr(0, eq)));
  if (find_field(o.key) == nullptr)
    return error(Code::kInvalidValue,
                 fmt::format("--set '{}': '{}' is not an architecture config field "
                             "(section.field, see `strata info --arch NAME`)",
                             text, o.key));
  std::string_view rest = text.substr(eq + 1);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view v = trim(rest.substr(0, comma));
    if (v.empty())
      return error(Code::kInvalidValue, fmt::format("--set '{}': empty value for {}", text, o.key));
    o.values.emplace_back(v);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return o;
}

std::vector<Assignment> override_product(const std::vector<ConfigOverride>& overrides) {
  std::vector<Assignment> out(1);
  for (const ConfigOverride& o : overrides) {
    std::vector<Assignment> next;
    for (const Assignment& a : out) {
      for (const std::string& v : o.values) {
        Assignment b = a;
        b.emplace_back(o.key, v);
        next.push_back(std::move(b));
      }
    }
    out = std::move(next);
  }
  return out;
}

StatusOr<ArchConfig> apply_overrides(std::string_view toml_text, std::string_view path,
                                     const Assignment& assignment) {
  std::vector<std::string> lines;
  for (size_t start = 0; start <= toml_text.size();) {
    size_t end = toml_text.find('\n', start);
    if (end == std::string_view::npos) end = toml_text.size();
    lines.emplace_back(toml_text.substr(start, end - start));
    start = end + 1;
  }
  std::string label;
  for (const auto& [key, value] : assignment) {
    const std::string what = fmt::format("{}={}", key, value);
    label += (label.empty() ? "" : " ") + what;
    const ArchFieldInfo* field = find_field(key);
    if (field == nullptr)
      return error(Code::kInvalidValue, fmt::format("{}: not an architecture config field", what));
    StatusOr<std::string> literal = toml_literal(*field, value);
    if (!literal.ok())
      return error(Code::kInvalidValue, fmt::format("{}: {}", what, literal.status().message()));
    // The field's line in its [section]: `name = value   # source: ...`.
    std::string_view section;
    bool replaced = false;
    for (std::string& line : lines) {
      const std::string_view t = trim(line);
      if (t.starts_with('[')) {
        section = t.substr(1, t.find(']') == std::string_view::npos ? 0 : t.find(']') - 1);
        continue;
      }
      if (section != field->section || !t.starts_with(field->name)) continue;
      const std::string_view after = trim(t.substr(field->name.size()));
      if (!after.starts_with('=')) continue;
      const size_t eq = line.find('=');
      // The comment: the first '#' after the value (outside a string).
      bool quoted = false;
      size_t hash = std::string::npos;
      for (size_t i = eq + 1; i < line.size(); ++i) {
        if (line[i] == '"' && line[i - 1] != '\\') quoted = !quoted;
        if (line[i] == '#' && !quoted) {
          hash = i;
          break;
        }
      }
      const std::string comment = hash == std::string::npos ? "" : line.substr(hash);
      line = fmt::format("{} = {}    {}", field->name, *literal, comment);
      replaced = true;
      break;
    }
    if (!replaced)
      return error(Code::kInvalidValue, fmt::format("{}: the field is not in {}", what, path));
  }
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i) text += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  StatusOr<ArchConfig> config = parse_arch_config(text, path);
  if (!config.ok())
    return error(config.status().code(),
                 fmt::format("{}: {}", label.empty() ? std::string(path) : label,
                             config.status().message()));
  return config;
}

std::vector<std::pair<std::string, std::string>> config_fields(const ArchConfig& config) {
  ArchConfig& c = const_cast<ArchConfig&>(config);  // the accessors take non-const; read only
  std::vector<std::pair<std::string, std::string>> out;
  for (const ArchFieldInfo& f : arch_fields()) {
    std::string value;
    switch (f.type) {
      case ArchFieldType::kInt64:
        value = fmt::format("{}", *f.int64_field(c));
        break;
      case ArchFieldType::kDouble:
        value = fmt::format("{}", *f.double_field(c));
        break;
      case ArchFieldType::kString:
        value = *f.string_field(c);
        break;
    }
    out.emplace_back(fmt::format("{}.{}", f.section, f.name), std::move(value));
  }
  return out;
}

const char* record_dir() {
  static const char* dir = [] {
    const char* env = std::getenv("STRATA_RECORD_DIR");
    return env != nullptr && *env != '\0' ? env : nullptr;
  }();
  return dir;
}

void record_kernel(const ArchConfig& config, uint32_t device, uint64_t kernel_id, uint64_t grid_id,
                   const uint32_t grid[3], const uint32_t block[3], const KernelStats& stats,
                   KernelTrace* trace) {
  const char* dir = record_dir();
  if (dir == nullptr || trace == nullptr) return;
  static std::mutex mutex;
  static std::map<uint32_t, uint64_t> next_seq;  // per device
  uint64_t seq = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    seq = next_seq[device]++;
  }
  RecordInfo& r = trace->record;
  r.present = true;
  r.device = device;
  r.seq = seq;
  r.kernel_id = kernel_id;
  r.grid_id = grid_id;
  for (int i = 0; i < 3; ++i) r.grid[i] = grid[i], r.block[i] = block[i];
  r.config_name = config.name;
  r.config_hash = config.content_hash;
  r.config_path = config.source_path;
  r.config_fields = config_fields(config);
  r.stats = stats;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = fmt::format("{}/{}-{:06}-k{}.strace", dir, device, seq, kernel_id);
  if (Status s = write_trace(*trace, path); !s.ok())
    STRATA_LOG_WARN("STRATA_RECORD_DIR: kernel {} not recorded: {}", kernel_id, s.message());
}

StatusOr<ArchConfig> recorded_config(const KernelTrace& trace) {
  if (!trace.record.present)
    return error(Code::kInvalidValue, "trace: no recording (record with STRATA_RECORD_DIR)");
  ArchConfig c;
  for (const auto& [key, value] : trace.record.config_fields) {
    const ArchFieldInfo* f = find_field(key);
    if (f == nullptr) continue;  // a field this build no longer has
    switch (f->type) {
      case ArchFieldType::kInt64:
        *f->int64_field(c) = std::strtoll(value.c_str(), nullptr, 10);
        break;
      case ArchFieldType::kDouble:
        *f->double_field(c) = std::strtod(value.c_str(), nullptr);
        break;
      case ArchFieldType::kString:
        *f->string_field(c) = value;
        break;
    }
  }
  c.source_path = trace.record.config_path;
  c.content_hash = trace.record.config_hash;
  return c;
}

uint32_t resident_ctas(const ArchConfig& cfg, const KernelTrace& t, KernelStats::Limiter* limiter) {
  // The rules of hw/sim/sm/grid.cc's occupancy().
  using Limiter = KernelStats::Limiter;
  const uint64_t warps = std::max<uint32_t>(t.warps_per_cta, 1);
  uint64_t ctas = 32;
  Limiter why = Limiter::kNone;
  if (cfg.max_blocks_per_sm > 0)
    ctas = static_cast<uint64_t>(cfg.max_blocks_per_sm), why = Limiter::kBlocks;
  auto limit = [&](uint64_t n, Limiter w) {
    if (n < ctas) ctas = n, why = w;
  };
  if (cfg.max_threads_per_sm > 0)
    limit(static_cast<uint64_t>(cfg.max_threads_per_sm) / (warps * 32), Limiter::kWarps);
  if (cfg.registers_per_sm > 0 && t.regs_per_thread > 0) {
    const uint64_t unit = cfg.register_alloc_unit > 0 ? cfg.register_alloc_unit : 1;
    const uint64_t per_warp = (t.regs_per_thread * 32ull + unit - 1) / unit * unit;
    limit(static_cast<uint64_t>(cfg.registers_per_sm) / (per_warp * warps), Limiter::kRegisters);
  }
  const uint64_t smem = smem_per_cta(cfg, t);
  if (smem > 0)
    limit(static_cast<uint64_t>(std::max<int64_t>(cfg.shared_bytes_per_sm, 0)) / smem,
          Limiter::kShared);
  if (limiter != nullptr) *limiter = why;
  return static_cast<uint32_t>(ctas);
}

CacheReplay replay_caches(const KernelTrace& t, const ArchConfig& c) {
  const uint32_t n = sm_count_of(c);
  const uint64_t sm0 = ceil_div(t.total_ctas, n);
  const uint64_t per_sm = std::max<uint32_t>(resident_ctas(c, t), 1);
  const uint64_t resident = std::min(per_sm, sm0);
  CacheSim sim(l1_capacity(c, resident * smem_per_cta(c, t)), l1_ways(c),
               c.l2_bytes > 0 ? static_cast<uint64_t>(c.l2_bytes) / n : 0, l2_ways(c));
  const size_t count = static_cast<size_t>(std::min<uint64_t>(t.ctas.size(), sm0));

  // Resident CTAs' warps take turns, one memory instruction each; a finished CTA's slot
  // takes the next CTA.
  struct Cursor {
    const WarpTrace* warp;
    size_t next;
    uint64_t slot;
  };
  std::vector<Cursor> turn;
  std::vector<uint32_t> live(resident, 0);
  size_t next_cta = 0;
  const auto admit = [&](uint64_t slot) {
    while (next_cta < count) {
      const CtaTrace& cta = t.ctas[next_cta++];
      uint32_t k = 0;
      for (const WarpTrace& w : cta.warps)
        if (!w.accesses.empty()) turn.push_back({&w, 0, slot}), ++k;
      if (k > 0) {
        live[slot] = k;
        return;
      }
    }
  };
  for (uint64_t s = 0; s < resident; ++s) admit(s);
  while (!turn.empty()) {
    for (size_t i = 0; i < turn.size();) {
      Cursor& k = turn[i];
      sim.access(*k.warp, k.warp->accesses[k.next++]);
      if (k.next < k.warp->accesses.size()) {
        ++i;
        continue;
      }
      const uint64_t slot = k.slot;
      turn.erase(turn.begin() + static_cast<ptrdiff_t>(i));
      if (--live[slot] == 0) admit(slot);
    }
  }
  return sim.result(count);
}

StatusOr<KernelReplay> replay_kernel(const KernelTrace& t, const ArchConfig& config,
                                     ReplayTiming timing, CacheState* l2) {
  StatusOr<ArchConfig> recorded = recorded_config(t);
  if (!recorded.ok()) return recorded.status();
  KernelReplay out;
  KernelStats& s = out.stats;
  s = t.record.stats;
  KernelStats::Limiter limiter = KernelStats::Limiter::kNone;
  const uint32_t per_sm = resident_ctas(config, t, &limiter);
  if (per_sm == 0)
    return error(Code::kInvalidValue,
                 fmt::format("kernel {}: a CTA ({} threads, {} registers per thread, {} bytes of "
                             "shared memory) does not fit on an SM of {}",
                             t.record.kernel_id, t.threads_per_cta, t.regs_per_thread,
                             t.shared_bytes_per_cta, config.name));
  const uint32_t n = sm_count_of(config);
  s.ctas = t.total_ctas;
  s.ctas_per_sm = per_sm;
  s.max_warps_per_sm =
      config.max_threads_per_sm > 0 ? static_cast<uint32_t>(config.max_threads_per_sm / 32) : 64;
  s.occupancy_limiter = limiter;
  const uint32_t n_rec = std::max<uint32_t>(t.sm_count, 1);
  if (n != n_rec && has_per_sm_counts(s, n_rec)) {
    // Another SM count: each CTA is taken to cost its recording SM's average, and the
    // CTAs are dealt to the N' SMs as the simulator deals them (CTA c on SM c % N').
    std::vector<long double> cost(n, 0);
    std::vector<uint32_t> ctas(n, 0);
    for (uint64_t c = 0; c < t.total_ctas; ++c) {
      const uint32_t from = static_cast<uint32_t>(c % n_rec);
      const uint32_t to = static_cast<uint32_t>(c % n);
      cost[to] += static_cast<long double>(s.sm_warp_instructions[from]) / s.sm_ctas[from];
      ++ctas[to];
    }
    s.sm_warp_instructions.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
      s.sm_warp_instructions[i] = static_cast<uint64_t>(std::llround(cost[i]));
    s.sm_ctas = std::move(ctas);
  } else if (n != n_rec || s.sm_warp_instructions.size() != n) {
    // No usable per-SM counts: the fast model spreads the CTAs evenly (fast_model.cc).
    s.sm_warp_instructions.clear();
    s.sm_ctas.clear();
  }
  out.sm0_ctas = static_cast<uint32_t>(ceil_div(t.total_ctas, n));

  // Cache counters: the recorded ones, rescaled by the replayed rates (replay.h).
  const CacheReplay rec = replay_caches(t, *recorded);
  const CacheReplay now = replay_caches(t, config);
  const KernelStats& r = t.record.stats;
  const uint64_t grid_sectors = r.global_loads.sectors + r.global_stores.sectors +
                                r.global_atomics.sectors + r.local_loads.sectors +
                                r.local_stores.sectors + r.texture_loads.sectors;
  const auto scale = [&](uint64_t recorded_count, uint64_t CacheReplay::*field) {
    return rescale(recorded_count, grid_sectors, rec.*field, rec.l1_sectors, now.*field,
                   now.l1_sectors);
  };
  const uint64_t l1_lookups = r.l1_hits + r.l1_misses;
  s.l1_misses = std::min(l1_lookups, scale(r.l1_misses, &CacheReplay::l1_misses));
  s.l1_hits = l1_lookups - s.l1_misses;
  if (t.l2_recorded) {
    // The device's recorded L2 stream through this config's L2, scaled by how much the
    // L1s' traffic to the L2 per L1-visible sector changed in SM 0's replay (1 when the
    // L1 and SM count are the recording's).
    std::unique_ptr<CacheState> own;
    if (l2 == nullptr) own = std::make_unique<CacheState>(config), l2 = own.get();
    KernelStats l2s;
    for (const TraceL2Request& q : t.l2_requests)
      l2->apply({q.line, q.sectors, static_cast<L2Op>(q.op)}, l2s);
    const long double rec_rate =
        rec.l1_sectors > 0 ? static_cast<long double>(rec.l2_sectors) / rec.l1_sectors : 0;
    const long double now_rate =
        now.l1_sectors > 0 ? static_cast<long double>(now.l2_sectors) / now.l1_sectors : 0;
    const auto traffic = [&](uint64_t n) {
      if (now_rate == rec_rate || rec_rate == 0) return n;
      return static_cast<uint64_t>(std::llround(static_cast<long double>(n) * now_rate / rec_rate));
    };
    s.l2_hits = traffic(l2s.l2_hits);
    s.l2_misses = traffic(l2s.l2_misses);
    s.dram_read_sectors = traffic(l2s.dram_read_sectors);
    s.dram_write_sectors = traffic(l2s.dram_write_sectors);
  } else {
    s.l2_hits = scale(r.l2_hits, &CacheReplay::l2_hits);
    s.l2_misses = scale(r.l2_misses, &CacheReplay::l2_misses);
    s.dram_read_sectors = scale(r.dram_read_sectors, &CacheReplay::dram_read_sectors);
    s.dram_write_sectors = scale(r.dram_write_sectors, &CacheReplay::dram_write_sectors);
  }

  if (timing != ReplayTiming::kDetailed) out.fast = model_kernel(config, s);
  if (timing != ReplayTiming::kFast) {
    KernelTrace sm0;
    sm0.sm_count = n;
    sm0.warps_per_cta = t.warps_per_cta;
    sm0.threads_per_cta = t.threads_per_cta;
    sm0.regs_per_thread = t.regs_per_thread;
    sm0.shared_bytes_per_cta = t.shared_bytes_per_cta;
    sm0.total_ctas = t.total_ctas;
    sm0.code = t.code;
    if (!t.ctas.empty()) {
      sm0.ctas.reserve(out.sm0_ctas);
      for (uint64_t k = 0; k < out.sm0_ctas; ++k) {
        sm0.ctas.push_back(t.ctas[k % t.ctas.size()]);
        sm0.ctas.back().linear = k * n;
      }
    }
    const DetailedParams params = detailed_params(config);
    out.detailed = model_kernel_detailed(params, sm0, s);
    out.detailed_time = detailed_kernel_time(out.detailed, params);
  }
  return out;
}

}  // namespace strata::hw::perf
