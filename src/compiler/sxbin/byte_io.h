// Little-endian byte writer and bounds-checked reader for the sxbin record format.
// The reader never reads past its span: every get_* reports failure instead, and the
// first failure sticks (ok() turns false) so callers may check once at the end.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace strata::sxbin {

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void i64(int64_t v) { put(static_cast<uint64_t>(v), 8); }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  // u32 length, then the bytes.
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void pad_to(size_t align) {
    while (out_.size() % align) out_.push_back(0);
  }
  size_t size() const { return out_.size(); }
  std::vector<uint8_t>& data() { return out_; }

 private:
  void put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t> out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }
  size_t remaining() const { return in_.size() - pos_; }

  uint8_t u8() { return static_cast<uint8_t>(get(1)); }
  uint16_t u16() { return static_cast<uint16_t>(get(2)); }
  uint32_t u32() { return static_cast<uint32_t>(get(4)); }
  uint64_t u64() { return get(8); }
  int64_t i64() { return static_cast<int64_t>(get(8)); }
  // A u32-length-prefixed string of at most max_len bytes.
  std::string str(size_t max_len = 4096) {
    uint32_t n = u32();
    if (!ok_ || n > max_len || n > remaining()) {
      ok_ = false;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(in_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  std::vector<uint8_t> bytes(uint64_t n) {
    if (!ok_ || n > remaining()) {
      ok_ = false;
      return {};
    }
    std::vector<uint8_t> v(in_.begin() + static_cast<ptrdiff_t>(pos_),
                           in_.begin() + static_cast<ptrdiff_t>(pos_ + n));
    pos_ += n;
    return v;
  }

 private:
  uint64_t get(int n) {
    if (!ok_ || remaining() < static_cast<size_t>(n)) {
      ok_ = false;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += n;
    return v;
  }
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace strata::sxbin
