// Kernel conformance cases: texture and surface instructions (tex, tld4, txq, suld, sust,
// sured, suq) on objects whose TextureDescriptors (hw/contract/texture.h) and texels
// the test writes into device memory itself, as the driver would.
//
// Buffer 0 holds the descriptors (one per 256 bytes, at the start) and the texels; the
// descriptors' base_va fields hold offsets into buffer 0, which thread 0 turns into
// addresses before a barrier. Buffer 1 receives 4 words per thread (%r20-%r23); buffer 2
// gives each thread 4 input words (%r10-%r13, also as %f10-%f13).
//
// The expected values are computed here from the CUDA Programming Guide ("Texture
// Fetching": point and linear filtering with x_B = x - 0.5 and 8-bit fractional
// weights; addressing modes; the cubemap face table) and the PTX ISA (tex, tld4, txq,
// suld/sust/sured coordinate rules), independently of the simulator.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>

#include "hw/contract/texture.h"
#include "kernel_cases.h"

namespace strata::ptx_conformance {
namespace {

using hw::TextureDescriptor;
using Words = std::array<uint32_t, 4>;

constexpr uint64_t kDescRegion = 8 * 256;  // descriptors 0-7, then texels

uint32_t fbits(float f) {
  return std::bit_cast<uint32_t>(f);
}
float bitsf(uint32_t u) {
  return std::bit_cast<float>(u);
}

// Buffer 0: descriptors and texels.
struct TexMemory {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kDescRegion, 0);
  int descs = 0;

  // Appends `data` at a 512-byte boundary; returns its offset.
  uint64_t add_data(const std::vector<uint8_t>& data) {
    const uint64_t at = (bytes.size() + 511) / 512 * 512;
    bytes.resize(at + data.size(), 0);
    std::memcpy(bytes.data() + at, data.data(), data.size());
    return at;
  }
  // Stores `d` (base_va = offset of its texels in this buffer) as descriptor `descs`.
  int add_desc(const TextureDescriptor& d) {
    std::memcpy(bytes.data() + 256 * descs, &d, sizeof d);
    return descs++;
  }
};

TextureDescriptor make_desc(uint8_t kind, uint8_t format, uint8_t channels, uint32_t w,
                            uint32_t h = 1, uint32_t depth = 1, uint32_t layers = 1,
                            uint8_t levels = 1) {
  TextureDescriptor d{};
  d.magic = hw::kTextureDescriptorMagic;
  d.kind = kind;
  d.format = format;
  d.channels = channels;
  d.levels = levels;
  d.width = w;
  d.height = h;
  d.depth = depth;
  d.layers = layers;
  d.row_pitch =
      hw::array_level_layout(w, h, depth, layers, channels * hw::texel_format_bytes(format), 0)
          .row_pitch;
  for (auto& m : d.address_mode) m = hw::kAddressClamp;
  d.filter_mode = hw::kFilterPoint;
  d.max_mip_clamp = static_cast<float>(levels - 1);
  return d;
}

// An array image in the contract's layout: texel(level, x, y, z, layer, channel) gives
// each channel's raw bits (the low texel_format_bytes bytes are stored).
std::vector<uint8_t> array_image(
    const TextureDescriptor& d,
    const std::function<uint32_t(int, int, int, int, int, int)>& texel) {
  const uint32_t cb = hw::texel_format_bytes(d.format), e = cb * d.channels;
  std::vector<uint8_t> out(hw::array_total_bytes(d.width, d.height, d.depth, d.layers, e, d.levels),
                           0);
  for (int l = 0; l < d.levels; ++l) {
    const hw::ArrayLevelLayout a =
        hw::array_level_layout(d.width, d.height, d.depth, d.layers, e, l);
    for (uint32_t layer = 0; layer < d.layers; ++layer)
      for (uint32_t z = 0; z < a.depth; ++z)
        for (uint32_t y = 0; y < a.height; ++y)
          for (uint32_t x = 0; x < a.width; ++x)
            for (int c = 0; c < d.channels; ++c) {
              const uint32_t v = texel(l, x, y, z, layer, c);
              std::memcpy(out.data() + a.offset + layer * a.layer_pitch + z * a.slice_pitch +
                              y * a.row_pitch + x * e + c * cb,
                          &v, cb);
            }
  }
  return out;
}

// One case: `body` reads the thread's inputs (%r10-%r13 / %f10-%f13), the texture memory
// base %rd1 and leaves 4 result words in %r20-%r23.
struct TexCase {
  std::string name, family;
  std::vector<std::string> forms;
  TexMemory mem;
  std::vector<Words> inputs;  // one per thread
  std::string body;
  std::function<Words(int thread)> expect;
  float tolerance = 0;  // absolute, for float results of filtering
  std::vector<bool> float_word = {true, true, true, true};
  hw::FaultKind fault = hw::FaultKind::kNone;
  // Optional extra check of buffer 0 after the run.
  std::function<std::string(const std::vector<uint8_t>&)> check_memory;
};

std::string module_text(const TexCase& c) {
  std::ostringstream p;
  p << ".version 8.0\n.target sm_80\n.address_size 64\n\n"
    << ".visible .entry conf(.param .u64 p0, .param .u64 p1, .param .u64 p2)\n{\n"
    << "  .reg .pred %p<8>;\n  .reg .b32 %r<64>;\n  .reg .f32 %f<64>;\n  .reg .b64 %rd<32>;\n"
    << "  ld.param.u64 %rd1, [p0];\n  ld.param.u64 %rd2, [p1];\n  ld.param.u64 %rd3, [p2];\n"
    << "  mov.u32 %r1, %tid.x;\n"
    << "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $L_patched;\n";
  for (int k = 0; k < c.mem.descs; ++k)
    p << "  ld.global.u64 %rd4, [%rd1+" << 256 * k + 8 << "];\n  add.s64 %rd4, %rd4, %rd1;\n"
      << "  st.global.u64 [%rd1+" << 256 * k + 8 << "], %rd4;\n";
  p << "$L_patched:\n  bar.sync 0;\n"
    << "  mul.wide.u32 %rd5, %r1, 16;\n  add.s64 %rd6, %rd2, %rd5;\n  add.s64 %rd5, %rd3, %rd5;\n"
    << "  ld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%rd5];\n"
    << "  mov.b32 %f10, %r10;\n  mov.b32 %f11, %r11;\n  mov.b32 %f12, %r12;\n  mov.b32 %f13, "
       "%r13;\n"
    << "  mov.u32 %r20, 0;\n  mov.u32 %r21, 0;\n  mov.u32 %r22, 0;\n  mov.u32 %r23, 0;\n"
    << c.body << "  st.global.v4.b32 [%rd6], {%r20, %r21, %r22, %r23};\n  ret;\n}\n";
  return p.str();
}

KernelCase to_kernel_case(TexCase c) {
  KernelCase kc;
  kc.name = c.name;
  kc.family = c.family;
  kc.forms = c.forms;
  kc.ptx = module_text(c);
  const uint32_t threads = static_cast<uint32_t>(c.inputs.size());
  kc.launch.block[0] = threads;
  std::vector<uint32_t> in;
  for (const Words& w : c.inputs) in.insert(in.end(), w.begin(), w.end());
  kc.buffers = {c.mem.bytes, std::vector<uint8_t>(threads * 16, 0), bytes_of(in)};
  kc.expect_fault = c.fault;
  if (c.fault != hw::FaultKind::kNone) return kc;
  kc.check = [c = std::move(c), threads](const Buffers& after) -> std::string {
    const std::vector<uint32_t> got = values_of<uint32_t>(after[1]);
    for (uint32_t t = 0; t < threads; ++t) {
      const Words want = c.expect(static_cast<int>(t));
      for (int k = 0; k < 4; ++k) {
        const uint32_t g = got[t * 4 + k];
        bool ok = g == want[k];
        if (!ok && c.tolerance > 0 && c.float_word[k])
          ok = std::fabs(bitsf(g) - bitsf(want[k])) <= c.tolerance;
        if (ok) continue;
        char s[200];
        std::snprintf(s, sizeof s, "thread %u word %d: expected 0x%08x (%g) got 0x%08x (%g)", t, k,
                      want[k], bitsf(want[k]), g, bitsf(g));
        return s;
      }
    }
    return c.check_memory ? c.check_memory(after[0]) : "";
  };
  return kc;
}

// The result words of a .v4.f32 tex in %f20-%f23, moved to %r20-%r23.
const char* kMoveF =
    "  mov.b32 %r20, %f20;\n  mov.b32 %r21, %f21;\n  mov.b32 %r22, %f22;\n  mov.b32 %r23, %f23;\n";

std::string handle(int desc) {
  return "  add.s64 %rd7, %rd1, " + std::to_string(256 * desc) + ";\n";
}

// ---- host references (CUDA Programming Guide, "Texture Fetching") ----

// The addressed texel index of coordinate index i in [0, n) under `mode` for normalized
// coordinates given as the guide defines the modes on the coordinate: returns -1 for border.
int64_t ref_index(double x_norm, int n, uint8_t mode) {
  double x = x_norm;
  switch (mode) {
    case hw::kAddressWrap:
      x = x - std::floor(x);
      break;
    case hw::kAddressMirror: {
      const double f = x - std::floor(x);
      x = (static_cast<int64_t>(std::floor(x)) % 2 == 0) ? f : 1.0 - f;
      break;
    }
    case hw::kAddressBorder:
      if (x < 0 || x >= 1) return -1;
      break;
    default:
      x = std::clamp(x, 0.0, 1.0 - 1.0 / n);
  }
  return std::min<int64_t>(static_cast<int64_t>(std::floor(x * n)), n - 1);
}

// The guide's 8-bit fractional weight of x_B.
double ref_weight(double xb) {
  return std::round((xb - std::floor(xb)) * 256.0) / 256.0;
}

// ---- cases ----

// tex.2d point sampling of an RGBA f32 texture, unnormalized coordinates, clamp.
TexCase tex2d_point() {
  TexCase c;
  c.name = "tex.2d.point-rgba-f32";
  c.family = "tex";
  c.forms = {"tex.2d.v4.f32.f32"};
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 4, 5, 3);
  auto T = [](int x, int y, int ch) { return static_cast<float>(ch * 100 + x + 10 * y); };
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int y, int, int, int ch) { return fbits(T(x, y, ch)); }));
  c.mem.add_desc(d);
  const float coords[][2] = {{0.5f, 0.5f}, {4.5f, 2.5f},  {1.0f, 1.0f},    {2.99f, 0.01f},
                             {-3.f, 9.f},  {7.f, -0.5f},  {3.5f, 1.5f},    {0.f, 2.99f},
                             {4.99f, 3.f}, {-0.01f, 1.f}, {2.5f, 1.9999f}, {1e9f, -1e9f}};
  for (auto& xy : coords) c.inputs.push_back({fbits(xy[0]), fbits(xy[1]), 0, 0});
  c.body =
      handle(0) + "  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" + kMoveF;
  c.expect = [=](int t) {
    const int x =
        static_cast<int>(std::clamp(std::floor(static_cast<double>(coords[t][0])), 0.0, 4.0));
    const int y =
        static_cast<int>(std::clamp(std::floor(static_cast<double>(coords[t][1])), 0.0, 2.0));
    return Words{fbits(T(x, y, 0)), fbits(T(x, y, 1)), fbits(T(x, y, 2)), fbits(T(x, y, 3))};
  };
  return c;
}

// tex.2d bilinear filtering at fractional coordinates: the guide's formula with 8-bit weights.
TexCase tex2d_linear() {
  TexCase c;
  c.name = "tex.2d.linear-weights";
  c.family = "tex";
  c.forms = {"tex.2d.v4.f32.f32"};
  const int W = 4, H = 4;
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 1, W, H);
  d.filter_mode = hw::kFilterLinear;
  auto T = [](int x, int y) { return static_cast<float>(x * x * 3 + 7 * y + (x ^ y)); };
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int y, int, int, int) { return fbits(T(x, y)); }));
  c.mem.add_desc(d);
  const float coords[][2] = {{1.3f, 2.71f}, {0.25f, 0.25f}, {2.0f, 2.0f},         {1.5f, 1.5f},
                             {3.9f, 0.6f},  {0.5f, 3.5f},   {1.01f, 1.99f},       {2.123f, 1.37f},
                             {4.2f, -1.f},  {0.75f, 2.5f},  {1.0f / 3, 2.0f / 3}, {3.3f, 3.3f}};
  for (auto& xy : coords) c.inputs.push_back({fbits(xy[0]), fbits(xy[1]), 0, 0});
  c.body =
      handle(0) + "  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" + kMoveF;
  c.tolerance = 1e-4f;
  c.expect = [=](int t) {
    const double xb = coords[t][0] - 0.5, yb = coords[t][1] - 0.5;
    const int i = static_cast<int>(std::floor(xb)), j = static_cast<int>(std::floor(yb));
    const double a = ref_weight(xb), b = ref_weight(yb);
    auto at = [&](int x, int y) {
      return static_cast<double>(T(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1)));
    };
    const double v = (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
                     (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1);
    return Words{fbits(static_cast<float>(v)), 0, 0, fbits(1.0f)};
  };
  return c;
}

// Address modes with normalized coordinates: wrap, clamp, mirror, border (point), and
// wrap with linear filtering across the edge.
TexCase tex2d_address_modes() {
  TexCase c;
  c.name = "tex.2d.address-modes";
  c.family = "tex";
  c.forms = {"tex.2d.v4.f32.f32"};
  const int N = 4;
  auto T = [](int x, int y) { return static_cast<float>(1 + x + 4 * y); };
  const uint8_t modes[] = {hw::kAddressWrap, hw::kAddressClamp, hw::kAddressMirror,
                           hw::kAddressBorder};
  uint64_t data = 0;
  for (int k = 0; k < 5; ++k) {
    TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 1, N, N);
    if (k == 0)
      data = c.mem.add_data(
          array_image(d, [&](int, int x, int y, int, int, int) { return fbits(T(x, y)); }));
    d.base_va = data;
    d.flags = hw::kFlagNormalizedCoords;
    const uint8_t mode = k < 4 ? modes[k] : static_cast<uint8_t>(hw::kAddressWrap);
    d.address_mode[0] = d.address_mode[1] = mode;
    if (k == 4) d.filter_mode = hw::kFilterLinear;
    d.border_color[0] = fbits(99.0f);
    d.border_color[3] = fbits(7.0f);
    c.mem.add_desc(d);
  }
  const float coords[][2] = {{1.3f, 0.1f},   {-0.2f, 0.6f}, {2.6f, -1.3f}, {0.4f, 0.9f},
                             {-1.1f, 1.55f}, {0.05f, 0.3f}, {1.9f, 2.2f},  {-0.6f, -0.9f}};
  for (int k = 0; k < 5; ++k)
    for (auto& xy : coords)
      c.inputs.push_back({fbits(xy[0]), fbits(xy[1]), static_cast<uint32_t>(256 * k), 0});
  c.body =
      "  cvt.u64.u32 %rd8, %r12;\n  add.s64 %rd7, %rd1, %rd8;\n"
      "  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" +
      std::string(kMoveF);
  c.tolerance = 1e-4f;
  c.expect = [=](int t) {
    const int k = t / 8;
    const float x = coords[t % 8][0], y = coords[t % 8][1];
    if (k < 4) {
      const int64_t i = ref_index(x, N, modes[k]), j = ref_index(y, N, modes[k]);
      if (i < 0 || j < 0) return Words{fbits(99.0f), 0, 0, fbits(7.0f)};
      return Words{fbits(T(static_cast<int>(i), static_cast<int>(j))), 0, 0, fbits(1.0f)};
    }
    // Linear + wrap: x_B = x N - 0.5 over the wrapped texel indices.
    const double xb = static_cast<double>(x) * N - 0.5, yb = static_cast<double>(y) * N - 0.5;
    const int i = static_cast<int>(std::floor(xb)), j = static_cast<int>(std::floor(yb));
    const double a = ref_weight(xb), b = ref_weight(yb);
    auto wrap = [&](int v) { return ((v % N) + N) % N; };
    auto at = [&](int xx, int yy) { return static_cast<double>(T(wrap(xx), wrap(yy))); };
    const double v = (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
                     (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1);
    return Words{fbits(static_cast<float>(v)), 0, 0, fbits(1.0f)};
  };
  return c;
}

// tex.1d with integer coordinates: a linear buffer (tex1Dfetch: zeros outside) and a 1D
// array of normalized 8-bit texels (unsigned / 255; missing channels 0, alpha 1).
TexCase tex1d_int() {
  TexCase c;
  c.name = "tex.1d.s32-buffer-and-u8-array";
  c.family = "tex";
  c.forms = {"tex.1d.v4.f32.s32"};
  const int n = 10;
  TextureDescriptor buf = make_desc(hw::kKindBuffer, hw::kFormatF32, 2, n);
  std::vector<float> lin;
  for (int i = 0; i < n; ++i) {
    lin.push_back(0.5f * i);
    lin.push_back(-3.0f * i);
  }
  buf.base_va = c.mem.add_data(bytes_of(lin));
  buf.row_pitch = n * 8;
  c.mem.add_desc(buf);
  TextureDescriptor arr = make_desc(hw::kKind1D, hw::kFormatU8, 2, 6);
  auto U = [](int x, int ch) { return static_cast<uint32_t>((x * 51 + ch * 200) & 0xff); };
  arr.base_va =
      c.mem.add_data(array_image(arr, [&](int, int x, int, int, int, int ch) { return U(x, ch); }));
  c.mem.add_desc(arr);
  const int xs[] = {0, 1, 5, 9, 10, -1, 3, 100};
  for (int k = 0; k < 2; ++k)
    for (int x : xs)
      c.inputs.push_back({static_cast<uint32_t>(x), 0, static_cast<uint32_t>(256 * k), 0});
  c.body =
      "  cvt.u64.u32 %rd8, %r12;\n  add.s64 %rd7, %rd1, %rd8;\n"
      "  tex.1d.v4.f32.s32 {%f20, %f21, %f22, %f23}, [%rd7, {%r10}];\n" +
      std::string(kMoveF);
  c.expect = [=](int t) {
    const int x = xs[t % 8];
    if (t < 8) {
      if (x < 0 || x >= n) return Words{0, 0, 0, 0};
      return Words{fbits(0.5f * x), fbits(-3.0f * x), 0, fbits(1.0f)};
    }
    const int xc = std::clamp(x, 0, 5);
    return Words{fbits(static_cast<float>(U(xc, 0)) / 255.0f),
                 fbits(static_cast<float>(U(xc, 1)) / 255.0f), 0, fbits(1.0f)};
  };
  return c;
}

// tex.a2d: the layer index is a u32, clamped to the layer count.
TexCase tex_a2d() {
  TexCase c;
  c.name = "tex.a2d.layers";
  c.family = "tex";
  c.forms = {"tex.a2d.v4.f32.f32"};
  TextureDescriptor d = make_desc(hw::kKind2DLayered, hw::kFormatF32, 1, 3, 3, 1, 4);
  auto T = [](int x, int y, int layer) { return static_cast<float>(100 * layer + x + 3 * y); };
  d.base_va = c.mem.add_data(array_image(
      d, [&](int, int x, int y, int, int layer, int) { return fbits(T(x, y, layer)); }));
  c.mem.add_desc(d);
  const struct {
    uint32_t layer;
    float x, y;
  } in[] = {{0, 0.5f, 0.5f}, {1, 2.5f, 1.5f}, {3, 1.2f, 2.9f},
            {7, 0.1f, 0.1f}, {2, -1.f, 5.f},  {0xffffffff, 1.5f, 1.5f}};
  for (auto& v : in) c.inputs.push_back({v.layer, fbits(v.x), fbits(v.y), 0});
  c.body = handle(0) +
           "  tex.a2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%r10, %f11, %f12, %f12}];\n" +
           kMoveF;
  c.expect = [=](int t) {
    const int layer = static_cast<int>(std::min<uint32_t>(in[t].layer, 3));
    const int x = std::clamp(static_cast<int>(std::floor(in[t].x)), 0, 2);
    const int y = std::clamp(static_cast<int>(std::floor(in[t].y)), 0, 2);
    return Words{fbits(T(x, y, layer)), 0, 0, fbits(1.0f)};
  };
  return c;
}

// Cubemap face selection and face coordinates (the guide's cubemap fetch table).
struct CubeRef {
  int face;
  double s, t;  // normalized face coordinates
};
CubeRef ref_cube(double x, double y, double z) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  CubeRef r{};
  double m, sc, tc;
  if (ax >= ay && ax >= az) {
    m = ax;
    r.face = x >= 0 ? 0 : 1;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    m = ay;
    r.face = y >= 0 ? 2 : 3;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    m = az;
    r.face = z >= 0 ? 4 : 5;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  r.s = (sc / m + 1) / 2;
  r.t = (tc / m + 1) / 2;
  return r;
}

TexCase tex_cube(bool layered) {
  TexCase c;
  c.name = layered ? "tex.acube.faces" : "tex.cube.faces";
  c.family = "tex";
  c.forms = {layered ? "tex.acube.v4.f32.f32" : "tex.cube.v4.f32.f32"};
  const int S = 4, cubes = layered ? 2 : 1;
  TextureDescriptor d = make_desc(layered ? hw::kKindCubeLayered : hw::kKindCube, hw::kFormatF32, 1,
                                  S, S, 1, 6 * cubes);
  d.flags = hw::kFlagNormalizedCoords;
  auto T = [](int layer, int x, int y) {
    return static_cast<float>(1000 * (layer / 6) + 100 * (layer % 6) + x + 10 * y);
  };
  d.base_va = c.mem.add_data(array_image(
      d, [&](int, int x, int y, int, int layer, int) { return fbits(T(layer, x, y)); }));
  c.mem.add_desc(d);
  const float dirs[][3] = {{1, 0.3f, -0.6f},  {-1, 0.7f, 0.2f},     {0.2f, 1, 0.9f},
                           {-0.5f, -1, 0.1f}, {0.3f, 0.4f, 1},      {-0.8f, 0.1f, -1},
                           {2, -1.5f, 1.1f},  {0.1f, -0.2f, -3},    {-4, -3.9f, 3.9f},
                           {0.5f, 5, -4.4f},  {0.01f, 0.02f, 0.9f}, {-0.9f, 0.05f, 0.3f}};
  int t = 0;
  for (auto& v : dirs)
    c.inputs.push_back({static_cast<uint32_t>(t++ % 3), fbits(v[0]), fbits(v[1]), fbits(v[2])});
  c.body =
      handle(0) +
      (layered
           ? "  tex.acube.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%r10, %f11, %f12, %f13}];\n"
           : "  tex.cube.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f11, %f12, %f13, "
             "%f13}];\n") +
      kMoveF;
  c.expect = [=](int th) {
    const CubeRef r = ref_cube(dirs[th][0], dirs[th][1], dirs[th][2]);
    const int x = std::min(static_cast<int>(std::floor(r.s * S)), S - 1);
    const int y = std::min(static_cast<int>(std::floor(r.t * S)), S - 1);
    const int cube = layered ? std::min(th % 3, cubes - 1) : 0;
    return Words{fbits(T(6 * cube + r.face, x, y)), 0, 0, fbits(1.0f)};
  };
  return c;
}

// tex.3d trilinear filtering and tex.a1d point sampling.
TexCase tex3d_linear() {
  TexCase c;
  c.name = "tex.3d.trilinear";
  c.family = "tex";
  c.forms = {"tex.3d.v4.f32.f32"};
  const int N = 3;
  TextureDescriptor d = make_desc(hw::kKind3D, hw::kFormatF32, 1, N, N, N);
  d.filter_mode = hw::kFilterLinear;
  auto T = [](int x, int y, int z) { return static_cast<float>(x + 5 * y * y + 20 * z + (x * z)); };
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int y, int z, int, int) { return fbits(T(x, y, z)); }));
  c.mem.add_desc(d);
  const float co[][3] = {
      {1.2f, 1.7f, 0.9f}, {0.5f, 0.5f, 0.5f}, {2.9f, 0.1f, 2.2f}, {1.55f, 2.45f, 1.05f}};
  for (auto& v : co) c.inputs.push_back({fbits(v[0]), fbits(v[1]), fbits(v[2]), 0});
  c.body = handle(0) +
           "  tex.3d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11, %f12, %f13}];\n" +
           kMoveF;
  c.tolerance = 1e-3f;
  c.expect = [=](int t) {
    double xb[3], w[3];
    int b[3];
    for (int k = 0; k < 3; ++k) {
      xb[k] = co[t][k] - 0.5;
      b[k] = static_cast<int>(std::floor(xb[k]));
      w[k] = ref_weight(xb[k]);
    }
    double v = 0;
    for (int dz = 0; dz < 2; ++dz)
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
          const double wt =
              (dx ? w[0] : 1 - w[0]) * (dy ? w[1] : 1 - w[1]) * (dz ? w[2] : 1 - w[2]);
          v += wt * T(std::clamp(b[0] + dx, 0, N - 1), std::clamp(b[1] + dy, 0, N - 1),
                      std::clamp(b[2] + dz, 0, N - 1));
        }
    return Words{fbits(static_cast<float>(v)), 0, 0, fbits(1.0f)};
  };
  return c;
}

TexCase tex_a1d() {
  TexCase c;
  c.name = "tex.a1d.layers";
  c.family = "tex";
  c.forms = {"tex.a1d.v4.f32.f32"};
  TextureDescriptor d = make_desc(hw::kKind1DLayered, hw::kFormatF32, 1, 5, 1, 1, 3);
  auto T = [](int x, int layer) { return static_cast<float>(10 * layer + x); };
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int, int, int layer, int) { return fbits(T(x, layer)); }));
  c.mem.add_desc(d);
  const struct {
    uint32_t layer;
    float x;
  } in[] = {{0, 0.5f}, {2, 4.7f}, {1, 2.2f}, {9, 3.3f}, {1, -2.f}};
  for (auto& v : in) c.inputs.push_back({v.layer, fbits(v.x), 0, 0});
  c.body = handle(0) +
           "  tex.a1d.v4.f32.f32 {%f20, %f21, %f22, %f23}|%p2, [%rd7, {%r10, %f11}];\n"
           "  @!%p2 mov.f32 %f20, 0f00000000;\n" +
           kMoveF;
  c.expect = [=](int t) {
    const int x = std::clamp(static_cast<int>(std::floor(in[t].x)), 0, 4);
    return Words{fbits(T(x, static_cast<int>(std::min<uint32_t>(in[t].layer, 2)))), 0, 0,
                 fbits(1.0f)};
  };
  return c;
}

// Mipmapped 2D texture: tex.level and tex.grad with point and linear mip filtering.
TexCase tex_mip(bool grad) {
  TexCase c;
  c.name = grad ? "tex.grad.2d.mip-levels" : "tex.level.2d.mip-levels";
  c.family = "tex";
  c.forms = {grad ? "tex.grad.2d.v4.f32.f32" : "tex.level.2d.v4.f32.f32"};
  const int W = 16, L = 4;
  auto T = [](int l, int x, int y) { return static_cast<float>(1000 * l + x + 20 * y); };
  uint64_t data = 0;
  for (int k = 0; k < 2; ++k) {
    TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 1, W, W, 1, 1, L);
    if (k == 0)
      data = c.mem.add_data(
          array_image(d, [&](int l, int x, int y, int, int, int) { return fbits(T(l, x, y)); }));
    d.base_va = data;
    d.flags = hw::kFlagNormalizedCoords;
    d.mip_filter_mode = k == 0 ? hw::kFilterPoint : hw::kFilterLinear;
    c.mem.add_desc(d);
  }
  // (lod or gradient length in level-0 texels, u, v)
  const float lods[] = {0.f, 1.f, 1.375f, 1.625f, 2.75f, 7.f, -1.f, 3.f};
  const float uv[][2] = {{0.3f, 0.6f}, {0.9f, 0.1f}, {0.55f, 0.45f}, {0.05f, 0.95f}};
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 8; ++i) {
      const float lod = lods[i];
      // tex.grad: dPdx = (2^lod / W, 0), dPdy = (0, 2^(lod-1) / W): the larger has length 2^lod
      // texels.
      const float gx = std::ldexp(1.0f, static_cast<int>(std::floor(lod))) *
                       std::exp2(lod - std::floor(lod)) / W;
      c.inputs.push_back({fbits(uv[i % 4][0]), fbits(uv[i % 4][1]), grad ? fbits(gx) : fbits(lod),
                          static_cast<uint32_t>(256 * k)});
    }
  c.body = "  cvt.u64.u32 %rd8, %r13;\n  add.s64 %rd7, %rd1, %rd8;\n";
  if (grad) {
    c.body +=
        "  mul.f32 %f14, %f12, 0f3F000000;\n  mov.f32 %f15, 0f00000000;\n"
        "  tex.grad.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}], {%f12, %f15}, "
        "{%f15, %f14};\n";
  } else {
    c.body += "  tex.level.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}], %f12;\n";
  }
  c.body += kMoveF;
  c.tolerance = 1e-2f;
  c.expect = [=](int t) {
    const int k = t / 8;
    double lambda = std::clamp<double>(lods[t % 8], 0.0, L - 1.0);
    if (grad && lods[t % 8] <= 0) lambda = 0;
    const float u = uv[t % 8 % 4][0], v = uv[t % 8 % 4][1];
    auto at_level = [&](int l) {
      const int w = W >> l;
      const int x = std::min(static_cast<int>(std::floor(static_cast<double>(u) * w)), w - 1);
      const int y = std::min(static_cast<int>(std::floor(static_cast<double>(v) * w)), w - 1);
      return static_cast<double>(T(l, x, y));
    };
    double r;
    if (k == 0) {
      r = at_level(static_cast<int>(std::floor(lambda + 0.5)));
    } else {
      const int l0 = static_cast<int>(std::floor(lambda));
      const double f = lambda - l0;
      r = f == 0 ? at_level(l0) : (1 - f) * at_level(l0) + f * at_level(std::min(l0 + 1, L - 1));
    }
    return Words{fbits(static_cast<float>(r)), 0, 0, fbits(1.0f)};
  };
  return c;
}

// tex.grad.3d on a mipmapped 3D texture: lambda = log2 of the longer gradient in level-0
// texels, point mip filtering (level floor(lambda + 0.5)).
TexCase tex_grad_3d() {
  TexCase c;
  c.name = "tex.grad.3d.mip-levels";
  c.family = "tex";
  c.forms = {"tex.grad.3d.v4.f32.f32"};
  const int W = 8, L = 3;
  auto T = [](int l, int x, int y, int z) {
    return static_cast<float>(1000 * l + x + 10 * y + 100 * z);
  };
  TextureDescriptor d = make_desc(hw::kKind3D, hw::kFormatF32, 1, W, W, W, 1, L);
  d.base_va = c.mem.add_data(
      array_image(d, [&](int l, int x, int y, int z, int, int) { return fbits(T(l, x, y, z)); }));
  d.flags = hw::kFlagNormalizedCoords;
  c.mem.add_desc(d);
  // The longer gradient's length in texels: 2^lambda.
  const float lambdas[] = {0.f, 1.f, 2.f, 1.75f, 5.f, -3.f, 1.25f, 0.3f};
  const float uvw[3] = {0.3f, 0.7f, 0.55f};
  for (float lam : lambdas) c.inputs.push_back({fbits(std::exp2(lam) / W), 0, 0, 0});
  c.body = handle(0) +
           "  mov.f32 %f14, 0f3E99999A;\n  mov.f32 %f15, 0f3F333333;\n  mov.f32 %f16, 0f3F0CCCCD;\n"
           "  mul.f32 %f17, %f10, 0f3F000000;\n  mov.f32 %f18, 0f00000000;\n"
           "  tex.grad.3d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f14, %f15, %f16, %f16}], "
           "{%f10, %f18, %f18, %f18}, {%f18, %f18, %f17, %f18};\n" +
           std::string(kMoveF);
  c.expect = [=](int t) {
    const double lam = std::clamp<double>(lambdas[t], 0.0, L - 1.0);
    const int l = static_cast<int>(std::floor(lam + 0.5)), w = W >> l;
    int idx[3];
    for (int k = 0; k < 3; ++k)
      idx[k] = std::min(static_cast<int>(std::floor(static_cast<double>(uvw[k]) * w)), w - 1);
    return Words{fbits(T(l, idx[0], idx[1], idx[2])), 0, 0, fbits(1.0f)};
  };
  return c;
}

// tld4: the 2x2 footprint's component, counter-clockwise from the lower left:
// (i, j+1), (i+1, j+1), (i+1, j), (i, j) with i = floor(x - 0.5), j = floor(y - 0.5).
TexCase tld4_case() {
  TexCase c;
  c.name = "tld4.2d.components";
  c.family = "tld4";
  c.forms = {"tld4.r.2d.v4.f32.f32", "tld4.g.2d.v4.f32.f32", "tld4.b.2d.v4.f32.f32",
             "tld4.a.2d.v4.f32.f32"};
  const int N = 4;
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 4, N, N);
  auto T = [](int x, int y, int ch) { return static_cast<float>(100 * ch + x + 10 * y); };
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int y, int, int, int ch) { return fbits(T(x, y, ch)); }));
  c.mem.add_desc(d);
  const float co[][2] = {{1.7f, 2.2f}, {0.2f, 0.3f}, {3.9f, 3.6f}, {2.5f, 1.5f}};
  for (int comp = 0; comp < 4; ++comp)
    for (auto& v : co)
      c.inputs.push_back({fbits(v[0]), fbits(v[1]), static_cast<uint32_t>(comp), 0});
  c.body = handle(0) +
           "  setp.eq.u32 %p2, %r12, 0;\n  setp.eq.u32 %p3, %r12, 1;\n  setp.eq.u32 %p4, %r12, 2;\n"
           "  setp.eq.u32 %p5, %r12, 3;\n"
           "  @%p2 tld4.r.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n"
           "  @%p3 tld4.g.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n"
           "  @%p4 tld4.b.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n"
           "  @%p5 tld4.a.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" +
           std::string(kMoveF);
  c.expect = [=](int t) {
    const int comp = t / 4;
    const int i = static_cast<int>(std::floor(co[t % 4][0] - 0.5)),
              j = static_cast<int>(std::floor(co[t % 4][1] - 0.5));
    auto at = [&](int x, int y) {
      return fbits(T(std::clamp(x, 0, N - 1), std::clamp(y, 0, N - 1), comp));
    };
    return Words{at(i, j + 1), at(i + 1, j + 1), at(i + 1, j), at(i, j)};
  };
  return c;
}

// tex .v2.f16x2: {r, g} and {b, a} rounded to half precision and packed (low half first).
TexCase tex_f16x2() {
  TexCase c;
  c.name = "tex.2d.f16x2-results";
  c.family = "tex";
  c.forms = {"tex.2d.v2.f16x2.f32"};
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 4, 2, 1);
  // Values exact in binary16: 1.5 = 0x3e00, -2.25 = 0xc080, 0.5 = 0x3800, 65504 = 0x7bff.
  const float v[2][4] = {{1.5f, -2.25f, 0.5f, 65504.0f}, {0.0f, 1.0f, -0.5f, 2.0f}};
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int, int, int, int ch) { return fbits(v[x][ch]); }));
  c.mem.add_desc(d);
  c.inputs = {{fbits(0.5f), fbits(0.5f), 0, 0}, {fbits(1.5f), fbits(0.5f), 0, 0}};
  c.body = handle(0) + "  tex.2d.v2.f16x2.f32 {%r20, %r21}, [%rd7, {%f10, %f11}];\n";
  c.float_word = {false, false, false, false};
  c.expect = [](int t) {
    return t == 0 ? Words{0xc0803e00u, 0x7bff3800u, 0, 0} : Words{0x3c000000u, 0x4000b800u, 0, 0};
  };
  return c;
}

// tld4 on a layered 2D texture and on a cubemap face.
TexCase tld4_layered_cube() {
  TexCase c;
  c.name = "tld4.a2d-and-cube";
  c.family = "tld4";
  c.forms = {"tld4.r.a2d.v4.f32.f32", "tld4.r.cube.v4.f32.f32"};
  const int N = 4;
  TextureDescriptor a = make_desc(hw::kKind2DLayered, hw::kFormatF32, 1, N, N, 1, 3);
  auto A = [](int layer, int x, int y) { return static_cast<float>(100 * layer + x + 10 * y); };
  a.base_va = c.mem.add_data(array_image(
      a, [&](int, int x, int y, int, int layer, int) { return fbits(A(layer, x, y)); }));
  c.mem.add_desc(a);
  TextureDescriptor q = make_desc(hw::kKindCube, hw::kFormatF32, 1, N, N, 1, 6);
  q.flags = hw::kFlagNormalizedCoords;
  q.base_va = c.mem.add_data(array_image(
      q, [&](int, int x, int y, int, int layer, int) { return fbits(A(layer, x, y)); }));
  c.mem.add_desc(q);
  const float co[][3] = {{1.7f, 2.2f, 0}, {3.9f, 0.1f, 0}, {0.3f, -0.6f, 1}, {-0.4f, 0.45f, -1}};
  for (int k = 0; k < 4; ++k)
    c.inputs.push_back(
        {static_cast<uint32_t>(k), fbits(co[k][0]), fbits(co[k][1]), fbits(co[k][2])});
  c.body =
      "  setp.lt.u32 %p2, %r10, 2;\n" + handle(0) +
      "  @%p2 tld4.r.a2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%r10, %f11, %f12, %f12}];\n" +
      handle(1) +
      "  @!%p2 tld4.r.cube.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f11, %f12, %f13, "
      "%f13}];\n" +
      std::string(kMoveF);
  c.expect = [=](int t) {
    int layer = t;
    double u = co[t][0], v = co[t][1];
    if (t >= 2) {
      const CubeRef r = ref_cube(co[t][0], co[t][1], co[t][2]);
      layer = r.face;
      u = r.s * N;
      v = r.t * N;
    }
    const int i = static_cast<int>(std::floor(u - 0.5)), j = static_cast<int>(std::floor(v - 0.5));
    auto at = [&](int x, int y) {
      return fbits(A(layer, std::clamp(x, 0, N - 1), std::clamp(y, 0, N - 1)));
    };
    return Words{at(i, j + 1), at(i + 1, j + 1), at(i + 1, j), at(i, j)};
  };
  return c;
}

// tex.level on a mipmapped cubemap: each level's faces follow the contract's layout.
TexCase tex_cube_level() {
  TexCase c;
  c.name = "tex.level.cube.mip-levels";
  c.family = "tex";
  c.forms = {"tex.level.cube.v4.f32.f32"};
  const int S = 8, L = 3;
  TextureDescriptor d = make_desc(hw::kKindCube, hw::kFormatF32, 1, S, S, 1, 6, L);
  d.flags = hw::kFlagNormalizedCoords;
  auto T = [](int l, int face, int x, int y) {
    return static_cast<float>(1000 * l + 100 * face + x + 10 * y);
  };
  d.base_va = c.mem.add_data(array_image(
      d, [&](int l, int x, int y, int, int layer, int) { return fbits(T(l, layer, x, y)); }));
  c.mem.add_desc(d);
  const float dirs[][3] = {
      {1, 0.3f, -0.6f}, {0.2f, -1, 0.9f}, {-0.3f, 0.4f, -1}, {-1, -0.7f, 0.2f}};
  const float lods[] = {0, 1, 2, 1};
  for (int k = 0; k < 4; ++k)
    c.inputs.push_back({fbits(lods[k]), fbits(dirs[k][0]), fbits(dirs[k][1]), fbits(dirs[k][2])});
  c.body =
      handle(0) +
      "  tex.level.cube.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f11, %f12, %f13, %f13}], "
      "%f10;\n" +
      std::string(kMoveF);
  c.expect = [=](int t) {
    const CubeRef r = ref_cube(dirs[t][0], dirs[t][1], dirs[t][2]);
    const int l = static_cast<int>(lods[t]), w = S >> l;
    const int x = std::min(static_cast<int>(std::floor(r.s * w)), w - 1);
    const int y = std::min(static_cast<int>(std::floor(r.t * w)), w - 1);
    return Words{fbits(T(l, r.face, x, y)), 0, 0, fbits(1.0f)};
  };
  return c;
}

// Integer reads: an s32 texture and an 8-bit texture read as integers (no normalization).
TexCase tex_int_read() {
  TexCase c;
  c.name = "tex.2d.integer-reads";
  c.family = "tex";
  c.forms = {"tex.2d.v4.s32.f32", "tex.2d.v4.u32.f32"};
  TextureDescriptor s = make_desc(hw::kKind2D, hw::kFormatS32, 4, 3, 3);
  auto S = [](int x, int y, int ch) { return static_cast<int32_t>(-1000 * ch + x - 7 * y); };
  s.base_va = c.mem.add_data(array_image(
      s, [&](int, int x, int y, int, int, int ch) { return static_cast<uint32_t>(S(x, y, ch)); }));
  c.mem.add_desc(s);
  TextureDescriptor u = make_desc(hw::kKind2D, hw::kFormatS8, 1, 3, 3);
  u.flags = hw::kFlagReadAsInteger;
  auto U = [](int x, int y) { return static_cast<int8_t>(-100 + 60 * x + 13 * y); };
  u.base_va = c.mem.add_data(array_image(u, [&](int, int x, int y, int, int, int) {
    return static_cast<uint32_t>(static_cast<uint8_t>(U(x, y)));
  }));
  c.mem.add_desc(u);
  const float co[][2] = {{0.5f, 0.5f}, {2.5f, 1.5f}, {1.5f, 2.5f}, {9.f, -4.f}};
  for (auto& v : co) c.inputs.push_back({fbits(v[0]), fbits(v[1]), 0, 0});
  c.body = handle(0) + "  tex.2d.v4.s32.f32 {%r20, %r21, %r22, %r23}, [%rd7, {%f10, %f11}];\n" +
           handle(1) +
           "  tex.2d.v4.u32.f32 {%r30, %r31, %r32, %r33}, [%rd7, {%f10, %f11}];\n"
           "  add.s32 %r23, %r23, %r30;\n";
  c.float_word = {false, false, false, false};
  c.expect = [=](int t) {
    const int x = std::clamp(static_cast<int>(std::floor(co[t][0])), 0, 2),
              y = std::clamp(static_cast<int>(std::floor(co[t][1])), 0, 2);
    // Word 3: S's alpha plus the signed 8-bit texel read as an integer (sign-extended).
    return Words{static_cast<uint32_t>(S(x, y, 0)), static_cast<uint32_t>(S(x, y, 1)),
                 static_cast<uint32_t>(S(x, y, 2)),
                 static_cast<uint32_t>(S(x, y, 3) + static_cast<int32_t>(U(x, y)))};
  };
  return c;
}

// Normalized 16-bit signed and half-float reads.
TexCase tex_read_modes() {
  TexCase c;
  c.name = "tex.2d.read-modes";
  c.family = "tex";
  c.forms = {"tex.2d.v4.f32.f32"};
  TextureDescriptor s = make_desc(hw::kKind2D, hw::kFormatS16, 2, 2, 2);
  const int16_t sv[2][2][2] = {{{-32768, 32767}, {-16384, 100}}, {{0, -1}, {12345, -32767}}};
  s.base_va = c.mem.add_data(array_image(s, [&](int, int x, int y, int, int, int ch) {
    return static_cast<uint32_t>(static_cast<uint16_t>(sv[y][x][ch]));
  }));
  c.mem.add_desc(s);
  TextureDescriptor h = make_desc(hw::kKind2D, hw::kFormatF16, 4, 2, 2);
  const uint16_t hv[4] = {0x3c00 /*1*/, 0xc000 /*-2*/, 0x3555 /*0.33325*/, 0x7bff /*65504*/};
  h.base_va = c.mem.add_data(
      array_image(h, [&](int, int, int, int, int, int ch) { return uint32_t{hv[ch]}; }));
  c.mem.add_desc(h);
  for (int k = 0; k < 2; ++k)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        c.inputs.push_back({fbits(x + 0.5f), fbits(y + 0.5f), static_cast<uint32_t>(256 * k), 0});
  c.body =
      "  cvt.u64.u32 %rd8, %r12;\n  add.s64 %rd7, %rd1, %rd8;\n"
      "  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" +
      std::string(kMoveF);
  c.expect = [=](int t) {
    const int x = t % 2, y = (t / 2) % 2;
    if (t < 4) {
      auto n = [](int16_t v) { return fbits(std::max(static_cast<float>(v) / 32767.0f, -1.0f)); };
      return Words{n(sv[y][x][0]), n(sv[y][x][1]), 0, fbits(1.0f)};
    }
    return Words{fbits(1.0f), fbits(-2.0f), fbits(0.333251953125f), fbits(65504.0f)};
  };
  return c;
}

// sRGB textures (cudaTextureDesc::sRGB): normalized 8-bit r, g, b convert from sRGB to
// linear with the sRGB transfer function (IEC 61966-2-1); alpha does not.
TexCase tex_srgb() {
  TexCase c;
  c.name = "tex.2d.srgb";
  c.family = "tex";
  c.forms = {"tex.2d.v4.f32.f32"};
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatU8, 4, 4, 1);
  d.flags = hw::kFlagSrgb;
  const uint8_t v[4][4] = {
      {0, 10, 128, 200}, {255, 64, 32, 7}, {1, 11, 12, 13}, {250, 100, 50, 255}};
  d.base_va = c.mem.add_data(
      array_image(d, [&](int, int x, int, int, int, int ch) { return uint32_t{v[x][ch]}; }));
  c.mem.add_desc(d);
  for (int x = 0; x < 4; ++x) c.inputs.push_back({fbits(x + 0.5f), fbits(0.5f), 0, 0});
  c.body = handle(0) + "  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" +
           std::string(kMoveF);
  c.tolerance = 1e-6f;
  c.expect = [=](int t) {
    auto lin = [](uint8_t u) {
      const double c = u / 255.0;
      return static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
    };
    return Words{fbits(lin(v[t][0])), fbits(lin(v[t][1])), fbits(lin(v[t][2])),
                 fbits(static_cast<float>(v[t][3]) / 255.0f)};
  };
  return c;
}

// txq and suq.
TexCase txq_case() {
  TexCase c;
  c.name = "txq.attributes";
  c.family = "txq";
  c.forms = {"txq.width.b32",       "txq.height.b32",
             "txq.depth.b32",       "txq.num_mipmap_levels.b32",
             "txq.array_size.b32",  "txq.normalized_coords.b32",
             "txq.level.width.b32", "txq.level.height.b32",
             "suq.width.b32",       "suq.height.b32",
             "suq.depth.b32",       "suq.array_size.b32"};
  TextureDescriptor m = make_desc(hw::kKind3D, hw::kFormatF32, 1, 40, 12, 6, 1, 3);
  m.flags = hw::kFlagNormalizedCoords;
  m.base_va = c.mem.add_data(std::vector<uint8_t>(16, 0));
  c.mem.add_desc(m);
  TextureDescriptor a = make_desc(hw::kKind2DLayered, hw::kFormatU8, 4, 7, 5, 1, 9);
  a.flags = hw::kFlagSurface;
  a.base_va = m.base_va;
  c.mem.add_desc(a);
  for (int k = 0; k < 4; ++k) c.inputs.push_back({static_cast<uint32_t>(k), 0, 0, 0});
  c.body =
      handle(0) +
      "  add.s64 %rd9, %rd1, 256;\n"
      "  setp.eq.u32 %p2, %r10, 0;\n  setp.eq.u32 %p3, %r10, 1;\n  setp.eq.u32 %p4, %r10, 2;\n"
      "  setp.eq.u32 %p5, %r10, 3;\n"
      "  @%p2 txq.width.b32 %r20, [%rd7];\n  @%p2 txq.height.b32 %r21, [%rd7];\n"
      "  @%p2 txq.depth.b32 %r22, [%rd7];\n  @%p2 txq.num_mipmap_levels.b32 %r23, [%rd7];\n"
      "  mov.u32 %r30, 2;\n  mov.u32 %r31, 1;\n"
      "  @%p3 txq.level.width.b32 %r20, [%rd7], %r30;\n  @%p3 txq.level.height.b32 %r21, [%rd7], "
      "%r31;\n"
      "  @%p3 txq.normalized_coords.b32 %r22, [%rd7];\n  @%p3 txq.array_size.b32 %r23, [%rd9];\n"
      "  @%p4 suq.width.b32 %r20, [%rd9];\n  @%p4 suq.height.b32 %r21, [%rd9];\n"
      "  @%p4 suq.depth.b32 %r22, [%rd9];\n  @%p4 suq.array_size.b32 %r23, [%rd9];\n"
      "  @%p5 txq.level.width.b32 %r20, [%rd7], %r31;\n  @%p5 txq.level.height.b32 %r21, [%rd7], "
      "%r30;\n";
  c.float_word = {false, false, false, false};
  c.expect = [](int t) -> Words {
    switch (t) {
      case 0:
        return {40, 12, 6, 3};
      case 1:
        return {10, 6, 1, 9};
      case 2:
        return {7, 5, 1, 9};
      default:
        return {20, 3, 0, 0};
    }
  };
  return c;
}

// ---- surfaces ----

// A 2D u32 surface: each thread stores at x = 4 * (t % 8) bytes, y = t / 8, then loads
// its right neighbour's element (the golden module's sust/suld forms).
TexCase surface_2d() {
  TexCase c;
  c.name = "sust.suld.2d.b32";
  c.family = "surface";
  c.forms = {"sust.b.2d.b32.trap", "suld.b.2d.b32.trap"};
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatU32, 1, 8, 4);
  d.flags = hw::kFlagSurface;
  const uint64_t data = c.mem.add_data(std::vector<uint8_t>(4 * 128, 0));
  d.base_va = data;
  c.mem.add_desc(d);
  for (int t = 0; t < 32; ++t)
    c.inputs.push_back({static_cast<uint32_t>(4 * (t % 8)), static_cast<uint32_t>(t / 8), 0, 0});
  c.body = handle(0) +
           "  mul.lo.u32 %r30, %r1, 7919;\n"
           "  sust.b.2d.b32.trap [%rd7, {%r10, %r11}], {%r30};\n  bar.sync 0;\n"
           "  add.u32 %r31, %r10, 4;\n  and.b32 %r31, %r31, 31;\n"
           "  suld.b.2d.b32.trap {%r20}, [%rd7, {%r31, %r11}];\n";
  c.float_word = {false, false, false, false};
  c.expect = [](int t) {
    return Words{static_cast<uint32_t>(((t / 8) * 8 + (t % 8 + 1) % 8) * 7919), 0, 0, 0};
  };
  c.check_memory = [data](const std::vector<uint8_t>& mem) -> std::string {
    for (int t = 0; t < 32; ++t) {
      uint32_t v;
      std::memcpy(&v, mem.data() + data + (t / 8) * 128 + 4 * (t % 8),
                  4);  // row pitch 128 (kArrayRowAlign)
      if (v != static_cast<uint32_t>(t * 7919))
        return "surface element " + std::to_string(t) + " wrong";
    }
    return "";
  };
  return c;
}

// Vector and narrow surface accesses on 1D, 3D, a1d and a2d surfaces.
TexCase surface_forms() {
  TexCase c;
  c.name = "suld.sust.vector-geometries";
  c.family = "surface";
  c.forms = {"sust.b.1d.b8.trap",     "suld.b.1d.b8.trap",      "suld.b.1d.v2.b16.trap",
             "sust.b.3d.v4.b32.trap", "suld.b.3d.v4.b32.trap",  "sust.b.a1d.b64.trap",
             "suld.b.a1d.b64.trap",   "sust.b.a2d.v2.b32.trap", "suld.b.a2d.v2.b32.trap",
             "sust.b.2d.v2.b64.trap", "suld.b.2d.v2.b64.trap"};
  TextureDescriptor s1 = make_desc(hw::kKind1D, hw::kFormatU8, 1, 64);
  s1.base_va = c.mem.add_data(std::vector<uint8_t>(128, 0));
  c.mem.add_desc(s1);  // 0
  TextureDescriptor s3 = make_desc(hw::kKind3D, hw::kFormatU32, 4, 2, 2, 2);
  s3.base_va = c.mem.add_data(std::vector<uint8_t>(128 * 4, 0));
  c.mem.add_desc(s3);  // 1
  TextureDescriptor sa1 = make_desc(hw::kKind1DLayered, hw::kFormatU32, 2, 4, 1, 1, 8);
  sa1.base_va = c.mem.add_data(std::vector<uint8_t>(128 * 8, 0));
  c.mem.add_desc(sa1);  // 2
  TextureDescriptor sa2 = make_desc(hw::kKind2DLayered, hw::kFormatU32, 2, 2, 2, 1, 8);
  sa2.base_va = c.mem.add_data(std::vector<uint8_t>(128 * 16, 0));
  c.mem.add_desc(sa2);  // 3
  TextureDescriptor s2 = make_desc(hw::kKind2D, hw::kFormatU32, 4, 4, 8);
  s2.base_va = c.mem.add_data(std::vector<uint8_t>(128 * 8, 0));
  c.mem.add_desc(s2);  // 4
  for (int t = 0; t < 32; ++t) c.inputs.push_back({static_cast<uint32_t>(t), 0, 0, 0});
  c.body =
      "  mul.lo.u32 %r30, %r1, 0x01010101;\n  add.u32 %r30, %r30, 0x00030507;\n  xor.b32 %r31, "
      "%r30, 0xffff0000;\n"
      "  shr.u32 %r32, %r30, 3;\n  not.b32 %r33, %r30;\n"
      // 1D b8 at byte t (last byte per thread), v2.b16 at 4t + 0.. in the second half
      + handle(0) +
      "  cvt.u16.u32 %rs1, %r30;\n"
      "  sust.b.1d.b8.trap [%rd7, {%r1}], {%rs1};\n"
      // 3D v4.b32: element (t % 2, t / 2 % 2, t / 4 % 2) for t < 8
      "  setp.lt.u32 %p2, %r1, 8;\n  and.b32 %r40, %r1, 1;\n  shl.b32 %r40, %r40, 4;\n"
      "  bfe.u32 %r41, %r1, 1, 1;\n  bfe.u32 %r42, %r1, 2, 1;\n" +
      handle(1) +
      "  @%p2 sust.b.3d.v4.b32.trap [%rd7, {%r40, %r41, %r42, %r42}], {%r30, %r31, %r32, %r33};\n"
      // a1d b64: layer t / 4, x = 8 (t % 4)
      "  shr.u32 %r43, %r1, 2;\n  and.b32 %r44, %r1, 3;\n  shl.b32 %r44, %r44, 3;\n  mov.b64 "
      "%rd10, {%r30, %r33};\n" +
      handle(2) +
      "  sust.b.a1d.b64.trap [%rd7, {%r43, %r44}], %rd10;\n"
      // a2d v2.b32: layer t / 4, x = 8 (t % 2), y = t / 2 % 2
      "  and.b32 %r45, %r1, 1;\n  shl.b32 %r45, %r45, 3;\n  bfe.u32 %r46, %r1, 1, 1;\n" +
      handle(3) +
      "  sust.b.a2d.v2.b32.trap [%rd7, {%r43, %r45, %r46, %r46}], {%r31, %r32};\n"
      // 2d v2.b64: x = 16 (t % 4), y = t / 4
      "  and.b32 %r47, %r1, 3;\n  shl.b32 %r47, %r47, 4;\n  mov.b64 %rd11, {%r32, %r30};\n  "
      "mov.b64 %rd12, {%r33, %r31};\n" +
      handle(4) +
      "  sust.b.2d.v2.b64.trap [%rd7, {%r47, %r43}], {%rd11, %rd12};\n"
      "  bar.sync 0;\n"
      // Read back the neighbour's (t ^ 1) data.
      "  xor.b32 %r50, %r1, 1;\n" +
      handle(0) +
      "  suld.b.1d.b8.trap {%rs2}, [%rd7, {%r50}];\n  cvt.u32.u16 %r20, %rs2;\n"
      "  and.b32 %r51, %r50, 7;\n  shl.b32 %r51, %r51, 2;\n"
      "  suld.b.1d.v2.b16.trap {%rs3, %rs4}, [%rd7, {%r51}];\n  mov.b32 %r21, {%rs3, %rs4};\n"
      "  shr.u32 %r52, %r50, 2;\n  and.b32 %r53, %r50, 3;\n  shl.b32 %r53, %r53, 3;\n" +
      handle(2) +
      "  suld.b.a1d.b64.trap {%rd13}, [%rd7, {%r52, %r53}];\n  mov.b64 {%r54, %r55}, %rd13;\n  "
      "xor.b32 %r22, %r54, %r55;\n"
      "  and.b32 %r56, %r50, 1;\n  shl.b32 %r56, %r56, 3;\n  bfe.u32 %r57, %r50, 1, 1;\n" +
      handle(3) +
      "  suld.b.a2d.v2.b32.trap {%r58, %r59}, [%rd7, {%r52, %r56, %r57, %r57}];\n  add.u32 %r23, "
      "%r58, %r59;\n"
      "  and.b32 %r60, %r50, 3;\n  shl.b32 %r60, %r60, 4;\n" +
      handle(4) +
      "  suld.b.2d.v2.b64.trap {%rd14, %rd15}, [%rd7, {%r60, %r52}];\n"
      "  mov.b64 {%r54, %r55}, %rd14;\n  mov.b64 {%r58, %r59}, %rd15;\n"
      "  add.u32 %r23, %r23, %r54;\n  add.u32 %r23, %r23, %r59;\n"
      // 3D read-back for t < 8
      "  and.b32 %r40, %r50, 1;\n  shl.b32 %r40, %r40, 4;\n  bfe.u32 %r41, %r50, 1, 1;\n  bfe.u32 "
      "%r42, %r50, 2, 1;\n" +
      handle(1) +
      "  @%p2 suld.b.3d.v4.b32.trap {%r54, %r55, %r58, %r59}, [%rd7, {%r40, %r41, %r42, %r42}];\n"
      "  @%p2 xor.b32 %r21, %r21, %r58;\n";
  // The 16-bit registers these accesses use.
  c.body = "  .reg .b16 %rs<8>;\n" + c.body;
  c.float_word = {false, false, false, false};
  c.expect = [](int t) {
    const uint32_t n = static_cast<uint32_t>(t ^ 1);
    auto r30 = [](uint32_t i) { return i * 0x01010101u + 0x00030507u; };
    const uint32_t a = r30(n), b = a ^ 0xffff0000u, cc = a >> 3, d = ~a;
    Words w{};
    w[0] = a & 0xff;
    // v2.b16 at byte 4 * (n % 8) of the 1D byte surface: the bytes stored by threads
    // 4(n % 8) .. 4(n % 8) + 3 (b8 stores), read as two halves.
    const uint32_t base = 4 * (n % 8);
    uint32_t word = 0;
    for (int k = 0; k < 4; ++k) word |= (r30(base + k) & 0xff) << (8 * k);
    w[1] = word;
    w[2] = a ^ d;
    w[3] = b + cc + cc + b;  // a2d {b, cc}; 2d v2.b64 {cc:a, d:b}: low word of the first (cc), high
                             // of the second (b)
    if (t < 8) w[1] ^= cc;
    return w;
  };
  return c;
}

// Out-of-range surface accesses: .clamp reads/writes the nearest element, .zero reads
// zeros and drops stores.
TexCase surface_oob() {
  TexCase c;
  c.name = "suld.sust.out-of-range-modes";
  c.family = "surface";
  c.forms = {"suld.b.2d.b32.clamp", "suld.b.2d.b32.zero", "sust.b.2d.b32.clamp",
             "sust.b.2d.b32.zero"};
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatU32, 1, 4, 4);
  auto T = [](int x, int y) { return static_cast<uint32_t>(0x1000 + x + 16 * y); };
  const uint64_t data =
      c.mem.add_data(array_image(d, [&](int, int x, int y, int, int, int) { return T(x, y); }));
  d.base_va = data;
  c.mem.add_desc(d);
  const int co[][2] = {{0, 0}, {12, 3}, {16, 1}, {-4, 2}, {8, 9}, {100, -100}, {4, 2}, {-8, 4}};
  for (auto& v : co)
    c.inputs.push_back({static_cast<uint32_t>(v[0]), static_cast<uint32_t>(v[1]), 0, 0});
  c.body = handle(0) +
           "  suld.b.2d.b32.clamp {%r20}, [%rd7, {%r10, %r11}];\n"
           "  suld.b.2d.b32.zero {%r21}, [%rd7, {%r10, %r11}];\n  bar.sync 0;\n"
           "  setp.eq.u32 %p2, %r1, 2;\n  setp.eq.u32 %p3, %r1, 3;\n  mov.u32 %r30, 0xabcd;\n"
           "  @%p2 sust.b.2d.b32.zero [%rd7, {%r10, %r11}], {%r30};\n"
           "  @%p3 sust.b.2d.b32.clamp [%rd7, {%r10, %r11}], {%r30};\n";
  c.float_word = {false, false, false, false};
  c.expect = [=](int t) {
    const int x = co[t][0], y = co[t][1];
    const bool in = x >= 0 && x <= 12 && y >= 0 && y <= 3;
    const int cx = std::clamp(x, 0, 12) / 4, cy = std::clamp(y, 0, 3);
    return Words{T(cx, cy), in ? T(x / 4, y) : 0u, 0, 0};
  };
  c.check_memory = [=](const std::vector<uint8_t>& mem) -> std::string {
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        uint32_t v;
        std::memcpy(&v, mem.data() + data + y * 128 + 4 * x, 4);
        // Thread 3 stores (clamped from x = -4 bytes, y = 2) at element (0, 2).
        const uint32_t want = (x == 0 && y == 2) ? 0xabcdu : T(x, y);
        if (v != want)
          return "surface element (" + std::to_string(x) + "," + std::to_string(y) + ") wrong";
      }
    return "";
  };
  return c;
}

// sured: every thread reduces into element (1, 1) of five surfaces.
TexCase sured_case() {
  TexCase c;
  c.name = "sured.2d.reductions";
  c.family = "surface";
  c.forms = {"sured.b.add.2d.u32.trap", "sured.b.min.2d.s32.trap", "sured.b.max.2d.s32.trap",
             "sured.b.and.2d.b32.trap", "sured.b.or.2d.b32.trap",  "sured.b.add.2d.u64.trap"};
  const uint64_t init[6] = {5,          1000,  static_cast<uint64_t>(static_cast<uint32_t>(-1000)),
                            0xffffffff, 0x100, 1ull << 40};
  std::vector<uint64_t> data_at;
  for (int k = 0; k < 6; ++k) {
    TextureDescriptor d =
        make_desc(hw::kKind2D, k == 5 ? hw::kFormatU32 : hw::kFormatU32, k == 5 ? 2 : 1, 2, 2);
    std::vector<uint8_t> img(256, 0);
    std::memcpy(img.data() + 128 + (k == 5 ? 8 : 4), &init[k], k == 5 ? 8 : 4);
    d.base_va = c.mem.add_data(img);
    data_at.push_back(d.base_va);
    c.mem.add_desc(d);
  }
  for (int t = 0; t < 32; ++t) c.inputs.push_back({static_cast<uint32_t>(t), 0, 0, 0});
  c.body =
      "  mov.u32 %r30, 4;\n  mov.u32 %r31, 1;\n  mov.u32 %r32, 8;\n"
      "  mul.lo.u32 %r33, %r1, 37;\n  sub.s32 %r34, 500, %r33;\n  shl.b32 %r35, 1, %r1;\n  not.b32 "
      "%r36, %r35;\n"
      "  cvt.u64.u32 %rd10, %r33;\n" +
      handle(0) + "  sured.b.add.2d.u32.trap [%rd7, {%r30, %r31}], %r33;\n" + handle(1) +
      "  sured.b.min.2d.s32.trap [%rd7, {%r30, %r31}], %r34;\n" + handle(2) +
      "  sured.b.max.2d.s32.trap [%rd7, {%r30, %r31}], %r34;\n" + handle(3) +
      "  sured.b.and.2d.b32.trap [%rd7, {%r30, %r31}], %r36;\n" + handle(4) +
      "  sured.b.or.2d.b32.trap [%rd7, {%r30, %r31}], %r35;\n" + handle(5) +
      "  sured.b.add.2d.u64.trap [%rd7, {%r32, %r31}], %rd10;\n";
  c.float_word = {false, false, false, false};
  c.expect = [](int) { return Words{0, 0, 0, 0}; };
  c.check_memory = [=](const std::vector<uint8_t>& mem) -> std::string {
    uint64_t sum = 0;
    int32_t mn = 1000, mx = -1000;
    for (int t = 0; t < 32; ++t) {
      sum += 37u * t;
      mn = std::min(mn, 500 - 37 * t);
      mx = std::max(mx, 500 - 37 * t);
    }
    const uint64_t want[6] = {5 + sum,     static_cast<uint32_t>(mn), static_cast<uint32_t>(mx), 0,
                              0xffffffffu, (1ull << 40) + sum};
    for (int k = 0; k < 6; ++k) {
      uint64_t v = 0;
      std::memcpy(&v, mem.data() + data_at[k] + 128 + (k == 5 ? 8 : 4), k == 5 ? 8 : 4);
      if (v != want[k]) return "sured surface " + std::to_string(k) + ": got " + std::to_string(v);
    }
    return "";
  };
  return c;
}

// Faults: a zero handle, a wrong magic, and .trap on an out-of-range surface access.
TexCase fault_case(int which) {
  TexCase c;
  c.family = which == 2 ? "surface" : "tex";
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatU32, 1, 4, 4);
  d.base_va = c.mem.add_data(std::vector<uint8_t>(512, 0));
  if (which == 1) d.magic = 0x12345678;
  c.mem.add_desc(d);
  c.inputs.assign(32, Words{0, 0, 0, 0});
  c.fault = which == 2 ? hw::FaultKind::kUnmapped : hw::FaultKind::kUnmapped;
  if (which == 0) {
    c.name = "tex.2d.zero-handle-faults";
    c.forms = {"tex.2d.v4.f32.f32"};
    c.body =
        "  mov.u64 %rd7, 0;\n  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, "
        "%f11}];\n" +
        std::string(kMoveF);
  } else if (which == 1) {
    c.name = "tex.2d.bad-magic-faults";
    c.forms = {"tex.2d.v4.f32.f32"};
    c.body = handle(0) + "  tex.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11}];\n" +
             kMoveF;
  } else {
    c.name = "suld.2d.trap-out-of-range-faults";
    c.forms = {"suld.b.2d.b32.trap"};
    c.body =
        handle(0) + "  mov.u32 %r30, 16;\n  suld.b.2d.b32.trap {%r20}, [%rd7, {%r30, %r11}];\n";
  }
  return c;
}

// A geometry mismatch reads zeros.
TexCase geometry_mismatch() {
  TexCase c;
  c.name = "tex.geometry-mismatch-reads-zero";
  c.family = "tex";
  c.forms = {"tex.3d.v4.f32.f32"};
  TextureDescriptor d = make_desc(hw::kKind2D, hw::kFormatF32, 1, 2, 2);
  d.base_va =
      c.mem.add_data(array_image(d, [](int, int, int, int, int, int) { return fbits(5.0f); }));
  c.mem.add_desc(d);
  c.inputs.assign(4, Words{fbits(0.5f), fbits(0.5f), fbits(0.5f), 0});
  c.body = handle(0) +
           "  tex.3d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd7, {%f10, %f11, %f12, %f12}];\n" +
           kMoveF;
  c.expect = [](int) { return Words{0, 0, 0, 0}; };
  return c;
}

}  // namespace

std::vector<KernelCase> texture_cases() {
  std::vector<KernelCase> out;
  for (TexCase c : {tex2d_point(),       tex2d_linear(),      tex2d_address_modes(),
                    tex1d_int(),         tex_a2d(),           tex_cube(false),
                    tex_cube(true),      tex3d_linear(),      tex_a1d(),
                    tex_mip(false),      tex_mip(true),       tld4_case(),
                    tex_int_read(),      tex_read_modes(),    txq_case(),
                    surface_2d(),        surface_forms(),     surface_oob(),
                    sured_case(),        fault_case(0),       fault_case(1),
                    fault_case(2),       geometry_mismatch(), tex_f16x2(),
                    tld4_layered_cube(), tex_cube_level(),    tex_grad_3d(),
                    tex_srgb()})
    out.push_back(to_kernel_case(std::move(c)));
  return out;
}

}  // namespace strata::ptx_conformance
