// The NVTX injection driven through NVTX's own headers: this test is an NVTX client (the
// NVTX3 implementation, not NVTX_NO_IMPL) into which nvtx_test_fake_table.cc injects
// statically the injection's module tables and a recorder on a fake profiler table.
// Expected values come from the NVTX documentation (nvToolsExt.h), not from the injection.
#include <gtest/gtest.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "cupti/nvtx_injection.h"
#include "cupti/nvtx_test_fake_table.h"

namespace strata::cupti {
namespace {

using namespace nvtx_test;

template <typename T>
std::vector<T> take() {
  std::lock_guard lock(g_mutex);
  std::vector<T> out;
  for (const prof::Record& r : g_records) {
    if (const T* t = std::get_if<T>(&r)) out.push_back(*t);
  }
  g_records.clear();
  return out;
}

nvtxEventAttributes_t attributes(const char* message) {
  nvtxEventAttributes_t a;
  std::memset(&a, 0, sizeof(a));
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return a;
}

class NvtxInjection : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(std::getenv("NVTX_INJECTION64_PATH"), nullptr)
        << "the test injects statically; unset NVTX_INJECTION64_PATH";
    nvtxInitialize(nullptr);  // attaches (the first time)
    ASSERT_NE(g_recorder, nullptr);
    std::lock_guard lock(g_mutex);
    g_records.clear();
    g_stream_names.clear();
    g_device_names.clear();
  }
};

TEST_F(NvtxInjection, MarksAsciiWideAndAttributes) {
  nvtxMarkA("plain mark");
  nvtxMarkW(L"wide \u00e9 \u2713 \U0001D11E");
  nvtxEventAttributes_t a = attributes("ex mark");
  a.colorType = NVTX_COLOR_ARGB;
  a.color = 0xFF00AA55u;
  a.category = 7;
  a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  a.payload.llValue = -42;
  nvtxMarkEx(&a);
  auto marks = take<prof::Nvtx>();
  ASSERT_EQ(marks.size(), 3u);
  for (const prof::Nvtx& m : marks) {
    EXPECT_EQ(m.kind, prof::Nvtx::kMark);
    EXPECT_FALSE(m.end.has_value());
    EXPECT_EQ(m.tid, fake_tid());
    EXPECT_EQ(m.pid, fake_pid());
    EXPECT_EQ(m.domain_id, 0u);
  }
  EXPECT_EQ(marks[0].text, "plain mark");
  EXPECT_FALSE(marks[0].color.has_value());
  EXPECT_EQ(marks[0].payload, prof::Nvtx::kNone);
  EXPECT_EQ(marks[1].text, "wide \xC3\xA9 \xE2\x9C\x93 \xF0\x9D\x84\x9E");
  EXPECT_EQ(marks[2].text, "ex mark");
  EXPECT_EQ(marks[2].color, 0xFF00AA55u);
  EXPECT_EQ(marks[2].category, 7u);
  EXPECT_EQ(marks[2].payload, prof::Nvtx::kI64);
  EXPECT_EQ(marks[2].payload_value, -42.0);
  EXPECT_EQ(marks[2].payload_bits, static_cast<uint64_t>(int64_t{-42}));
  EXPECT_LT(marks[0].start, marks[1].start);
}

TEST_F(NvtxInjection, EveryPayloadType) {
  nvtxEventAttributes_t a = attributes("p");
  a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  a.payload.ullValue = (1ull << 60) + 3;
  nvtxMarkEx(&a);
  a.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  a.payload.dValue = 2.5;
  nvtxMarkEx(&a);
  a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
  a.payload.ullValue = 0;
  a.payload.uiValue = 4000000000u;
  nvtxMarkEx(&a);
  a.payloadType = NVTX_PAYLOAD_TYPE_INT32;
  a.payload.iValue = -5;
  nvtxMarkEx(&a);
  a.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
  a.payload.fValue = 0.75f;
  nvtxMarkEx(&a);
  auto marks = take<prof::Nvtx>();
  ASSERT_EQ(marks.size(), 5u);
  EXPECT_EQ(marks[0].payload, prof::Nvtx::kU64);
  EXPECT_EQ(marks[0].payload_bits, (1ull << 60) + 3);
  EXPECT_EQ(marks[1].payload, prof::Nvtx::kDouble);
  EXPECT_EQ(marks[1].payload_value, 2.5);
  EXPECT_EQ(marks[1].payload_bits, 0x4004000000000000ull);  // IEEE 754 binary64 of 2.5
  EXPECT_EQ(marks[2].payload, prof::Nvtx::kU32);
  EXPECT_EQ(marks[2].payload_value, 4000000000.0);
  EXPECT_EQ(marks[2].payload_bits, 4000000000u);
  EXPECT_EQ(marks[3].payload, prof::Nvtx::kI32);
  EXPECT_EQ(marks[3].payload_value, -5.0);
  EXPECT_EQ(marks[3].payload_bits, 0xFFFFFFFBu);
  EXPECT_EQ(marks[4].payload, prof::Nvtx::kFloat);
  EXPECT_EQ(marks[4].payload_value, 0.75);
  EXPECT_EQ(marks[4].payload_bits, 0x3F400000u);  // IEEE 754 binary32 of 0.75
}

TEST_F(NvtxInjection, PushPopLevelsAndNesting) {
  // nvToolsExt.h: push returns "the 0 based level of range being started", pop "the
  // level of the range being ended", a negative value on error.
  EXPECT_EQ(nvtxRangePushA("outer"), 0);
  EXPECT_EQ(nvtxRangePushW(L"middle"), 1);
  nvtxEventAttributes_t a = attributes("inner");
  a.colorType = NVTX_COLOR_ARGB;
  a.color = 0xFF112233u;
  EXPECT_EQ(nvtxRangePushEx(&a), 2);
  EXPECT_EQ(nvtxRangePop(), 2);
  EXPECT_EQ(nvtxRangePop(), 1);
  EXPECT_EQ(nvtxRangePop(), 0);
  EXPECT_EQ(nvtxRangePop(), -1);  // nothing pushed
  auto ranges = take<prof::Nvtx>();
  ASSERT_EQ(ranges.size(), 3u);  // delivered at the pops, innermost first
  EXPECT_EQ(ranges[0].text, "inner");
  EXPECT_EQ(ranges[0].color, 0xFF112233u);
  EXPECT_EQ(ranges[1].text, "middle");
  EXPECT_EQ(ranges[2].text, "outer");
  for (const prof::Nvtx& r : ranges) {
    EXPECT_EQ(r.kind, prof::Nvtx::kPushPop);
    ASSERT_TRUE(r.end.has_value());
    EXPECT_LT(r.start, *r.end);
    EXPECT_EQ(r.end_tid, r.tid);
  }
  for (int child = 0; child < 2; ++child) {
    EXPECT_LT(ranges[child + 1].start, ranges[child].start);
    EXPECT_GT(*ranges[child + 1].end, *ranges[child].end);
  }
}

TEST_F(NvtxInjection, PushPopStacksArePerThread) {
  EXPECT_EQ(nvtxRangePushA("main thread"), 0);
  std::thread other([] {
    EXPECT_EQ(nvtxRangePop(), -1);  // the main thread's range is not this thread's
    EXPECT_EQ(nvtxRangePushA("other thread"), 0);
    EXPECT_EQ(nvtxRangePop(), 0);
  });
  other.join();
  EXPECT_EQ(nvtxRangePop(), 0);
  auto ranges = take<prof::Nvtx>();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].text, "other thread");
  EXPECT_NE(ranges[0].tid, fake_tid());
  EXPECT_EQ(ranges[1].text, "main thread");
  EXPECT_EQ(ranges[1].tid, fake_tid());
}

TEST_F(NvtxInjection, StartEndAcrossThreads) {
  nvtxRangeId_t first = nvtxRangeStartA("crossing");
  nvtxRangeId_t second = nvtxRangeStartW(L"second");
  EXPECT_NE(first, 0u);
  EXPECT_NE(first, second);
  uint32_t other_tid = 0;
  std::thread other([&] {
    other_tid = fake_tid();
    nvtxRangeEnd(first);
  });
  other.join();
  nvtxRangeEnd(second);
  nvtxRangeEnd(second);  // already ended: ignored
  auto ranges = take<prof::Nvtx>();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].kind, prof::Nvtx::kStartEnd);
  EXPECT_EQ(ranges[0].text, "crossing");
  EXPECT_EQ(ranges[0].range_id, first);
  EXPECT_EQ(ranges[0].tid, fake_tid());
  EXPECT_EQ(ranges[0].end_tid, other_tid);
  EXPECT_NE(other_tid, fake_tid());
  EXPECT_EQ(ranges[1].text, "second");
  EXPECT_EQ(ranges[1].range_id, second);
  EXPECT_EQ(ranges[1].end_tid, fake_tid());
  ASSERT_TRUE(ranges[0].end.has_value());
  EXPECT_LT(ranges[0].start, *ranges[0].end);
}

TEST_F(NvtxInjection, DomainsStringsAndCategories) {
  nvtxDomainHandle_t domain = nvtxDomainCreateA("strata.test");
  ASSERT_NE(domain, nullptr);
  EXPECT_EQ(nvtxDomainCreateA("strata.test"), domain);  // the same name: the same domain
  nvtxDomainHandle_t wide = nvtxDomainCreateW(L"wide \u00fc");
  EXPECT_NE(wide, domain);
  auto domains = take<prof::NvtxDomain>();
  ASSERT_EQ(domains.size(), 2u);
  EXPECT_EQ(domains[0].name, "strata.test");
  EXPECT_EQ(domains[1].name, "wide \xC3\xBC");
  EXPECT_GT(domains[0].id, 0u);
  EXPECT_NE(domains[0].id, domains[1].id);
  EXPECT_EQ(domains[0].tid, fake_tid());

  nvtxStringHandle_t hello = nvtxDomainRegisterStringA(domain, "registered hello");
  EXPECT_EQ(nvtxDomainRegisterStringA(domain, "registered hello"), hello);
  nvtxDomainNameCategoryA(domain, 3, "io");
  nvtxNameCategoryA(4, "default domain category");
  nvtxEventAttributes_t a = attributes(nullptr);
  a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  a.message.registered = hello;
  a.category = 3;
  nvtxDomainMarkEx(domain, &a);
  // Push/pop levels are per domain: the default domain's stack is separate.
  EXPECT_EQ(nvtxRangePushA("default"), 0);
  EXPECT_EQ(nvtxDomainRangePushEx(domain, &a), 0);
  EXPECT_EQ(nvtxDomainRangePushEx(domain, &a), 1);
  EXPECT_EQ(nvtxDomainRangePop(domain), 1);
  EXPECT_EQ(nvtxDomainRangePop(domain), 0);
  EXPECT_EQ(nvtxDomainRangePop(domain), -1);
  EXPECT_EQ(nvtxRangePop(), 0);
  nvtxRangeId_t id = nvtxDomainRangeStartEx(domain, &a);
  nvtxDomainRangeEnd(domain, id);
  nvtxDomainDestroy(domain);

  auto events = take<prof::Nvtx>();
  ASSERT_EQ(events.size(), 7u);
  EXPECT_EQ(events[0].kind, prof::Nvtx::kCategory);
  EXPECT_EQ(events[0].domain_id, domains[0].id);
  EXPECT_EQ(events[0].category, 3u);
  EXPECT_EQ(events[0].text, "io");
  EXPECT_EQ(events[1].kind, prof::Nvtx::kCategory);
  EXPECT_EQ(events[1].domain_id, 0u);
  EXPECT_EQ(events[1].category, 4u);
  EXPECT_EQ(events[1].text, "default domain category");
  EXPECT_EQ(events[2].kind, prof::Nvtx::kMark);
  EXPECT_EQ(events[2].text, "registered hello");
  EXPECT_EQ(events[2].domain_id, domains[0].id);
  EXPECT_EQ(events[2].category, 3u);
  for (int i = 3; i <= 4; ++i) {
    EXPECT_EQ(events[i].kind, prof::Nvtx::kPushPop);
    EXPECT_EQ(events[i].domain_id, domains[0].id);
    EXPECT_EQ(events[i].text, "registered hello");
  }
  EXPECT_EQ(events[5].text, "default");
  EXPECT_EQ(events[5].domain_id, 0u);
  EXPECT_EQ(events[6].kind, prof::Nvtx::kStartEnd);
  EXPECT_EQ(events[6].domain_id, domains[0].id);
  EXPECT_EQ(events[6].range_id, id);
}

TEST_F(NvtxInjection, ResourceNaming) {
  nvtxNameOsThreadA(fake_tid(), "worker main");
  nvtxNameOsThreadW(12345, L"w\u00e9");
  auto threads = take<prof::Thread>();
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(threads[0].tid, fake_tid());
  EXPECT_EQ(threads[0].pid, fake_pid());
  EXPECT_EQ(threads[0].name, "worker main");
  EXPECT_EQ(threads[1].tid, 12345u);
  EXPECT_EQ(threads[1].name, "w\xC3\xA9");

  auto stream = reinterpret_cast<cudaStream_t>(uintptr_t{0x1234});
  nvtxNameCudaStreamA(stream, "copy stream");
  nvtxNameCuStreamA(reinterpret_cast<CUstream>(uintptr_t{0x5678}), "driver stream");
  nvtxNameCudaDeviceA(0, "gpu zero");
  nvtxNameCuDeviceW(1, L"gpu one");
  nvtxNameCudaEventA(nullptr, "ignored");
  nvtxNameCuContextA(nullptr, "ignored");
  std::lock_guard lock(g_mutex);
  ASSERT_EQ(g_stream_names.size(), 2u);
  EXPECT_EQ(g_stream_names[0].first, reinterpret_cast<CUstream>(stream));
  EXPECT_EQ(g_stream_names[0].second, "copy stream");
  EXPECT_EQ(g_stream_names[1].second, "driver stream");
  ASSERT_EQ(g_device_names.size(), 2u);
  EXPECT_EQ(g_device_names[0], (std::pair<int, std::string>{0, "gpu zero"}));
  EXPECT_EQ(g_device_names[1], (std::pair<int, std::string>{1, "gpu one"}));
  EXPECT_TRUE(g_records.empty());
}

TEST_F(NvtxInjection, OpenRangesAtExitHaveNoEnd) {
  nvtxRangePushA("never popped");
  nvtxRangeId_t id = nvtxRangeStartA("never ended");
  std::thread other([] { nvtxRangePushA("other thread, never popped"); });
  other.join();
  g_recorder->finish();
  auto open = take<prof::Nvtx>();
  ASSERT_EQ(open.size(), 3u);
  EXPECT_EQ(open[0].kind, prof::Nvtx::kStartEnd);
  EXPECT_EQ(open[0].text, "never ended");
  EXPECT_EQ(open[0].range_id, id);
  int pushed = 0;
  for (const prof::Nvtx& r : open) {
    EXPECT_FALSE(r.end.has_value());
    if (r.kind == prof::Nvtx::kPushPop) ++pushed;
  }
  EXPECT_EQ(pushed, 2);
  EXPECT_EQ(nvtxRangePop(), -1);  // finish() forgot them
  g_recorder->finish();
  EXPECT_TRUE(take<prof::Nvtx>().empty());
}

TEST_F(NvtxInjection, NullAttributesStillPush) {
  EXPECT_EQ(nvtxRangePushEx(nullptr), 0);
  EXPECT_EQ(nvtxRangePop(), 0);
  auto ranges = take<prof::Nvtx>();
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].text, "");
}

TEST_F(NvtxInjection, CaptureRanges) {
  g_capture_begins = g_capture_ends = 0;
  EXPECT_EQ(nvtxRangePushA(kCaptureRange), 0);
  EXPECT_EQ(g_capture_begins, 1);
  nvtxRangeId_t inner = nvtxRangeStartA(kCaptureRange);  // nested: no second begin
  nvtxRangeEnd(inner);
  EXPECT_EQ(g_capture_begins, 1);
  EXPECT_EQ(g_capture_ends, 0);
  EXPECT_EQ(nvtxRangePop(), 0);
  EXPECT_EQ(g_capture_ends, 1);
  // Another text, a mark, or the same text in another domain: not capture ranges.
  nvtxMarkA(kCaptureRange);
  nvtxRangePushA("other");
  nvtxRangePop();
  nvtxDomainHandle_t domain = nvtxDomainCreateA("strata.capture");
  nvtxEventAttributes_t a = attributes(kCaptureRange);
  nvtxDomainRangePushEx(domain, &a);
  nvtxDomainRangePop(domain);
  EXPECT_EQ(g_capture_begins, 1);
  EXPECT_EQ(g_capture_ends, 1);
  // Ended by another thread (a start/end range).
  nvtxRangeId_t id = nvtxRangeStartA(kCaptureRange);
  EXPECT_EQ(g_capture_begins, 2);
  std::thread other([id] { nvtxRangeEnd(id); });
  other.join();
  EXPECT_EQ(g_capture_ends, 2);
}

// A second NVTX module (another library including the NVTX headers has its own function
// tables): a fake one, with `slots` function pointers per module (index 0 unused).
struct FakeModule {
  static constexpr unsigned kSlots = 16;
  NvtxFunctionPointer functions[NVTX_CB_MODULE_SIZE][kSlots] = {};
  NvtxFunctionPointer* tables[NVTX_CB_MODULE_SIZE][kSlots + 1] = {};
  unsigned sizes[NVTX_CB_MODULE_SIZE] = {};

  explicit FakeModule(unsigned core_size) {
    for (unsigned m = 0; m < NVTX_CB_MODULE_SIZE; ++m) {
      sizes[m] = m == NVTX_CB_MODULE_CORE ? core_size : kSlots - 1;
      for (unsigned i = 0; i <= sizes[m]; ++i) tables[m][i] = &functions[m][i];
    }
  }
};
FakeModule* g_fake_module = nullptr;

int NVTX_API fake_get_module_function_table(NvtxCallbackModule module, NvtxFunctionTable* table,
                                            unsigned int* size) {
  if (module <= NVTX_CB_MODULE_INVALID || module >= NVTX_CB_MODULE_SIZE) return 0;
  *table = g_fake_module->tables[module];
  *size = g_fake_module->sizes[module];
  return 1;
}
const NvtxExportTableCallbacks kFakeCallbacks = {sizeof(NvtxExportTableCallbacks),
                                                 fake_get_module_function_table};
const void* NVTX_API fake_get_export_table(uint32_t id) {
  return id == NVTX_ETID_CALLBACKS ? &kFakeCallbacks : nullptr;
}

TEST_F(NvtxInjection, SecondModuleSharesTheRecorder) {
  FakeModule module(/*core_size=*/NVTX_CBID_CORE_SIZE - 1);
  g_fake_module = &module;
  ASSERT_EQ(attach_nvtx_module(fake_get_export_table, g_recorder), 1);
  auto push = reinterpret_cast<nvtxRangePushA_impl_fntype>(
      module.functions[NVTX_CB_MODULE_CORE][NVTX_CBID_CORE_RangePushA]);
  ASSERT_NE(push, nullptr);
  EXPECT_NE(module.functions[NVTX_CB_MODULE_CORE2][NVTX_CBID_CORE2_DomainCreateA], nullptr);
  EXPECT_NE(module.functions[NVTX_CB_MODULE_CUDART][NVTX_CBID_CUDART_NameCudaStreamA], nullptr);
  EXPECT_EQ(module.functions[NVTX_CB_MODULE_SYNC][NVTX_CBID_SYNC_DomainSyncUserCreate], nullptr);
  EXPECT_EQ(module.functions[NVTX_CB_MODULE_OPENCL][NVTX_CBID_OPENCL_NameClDeviceA], nullptr);
  // Pushed through the other module, popped through this one: one stack per thread.
  EXPECT_EQ(push("from the other module"), 0);
  EXPECT_EQ(nvtxRangePop(), 0);
  auto ranges = take<prof::Nvtx>();
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].text, "from the other module");
}

TEST_F(NvtxInjection, OlderModuleTableIsNotOverrun) {
  // A module whose CORE table ends at RangePop (an older NVTX): later slots stay untouched.
  FakeModule module(/*core_size=*/NVTX_CBID_CORE_RangePop);
  g_fake_module = &module;
  ASSERT_EQ(attach_nvtx_module(fake_get_export_table, g_recorder), 1);
  EXPECT_NE(module.functions[NVTX_CB_MODULE_CORE][NVTX_CBID_CORE_RangePop], nullptr);
  for (unsigned i = NVTX_CBID_CORE_RangePop + 1; i < FakeModule::kSlots; ++i) {
    EXPECT_EQ(module.functions[NVTX_CB_MODULE_CORE][i], nullptr) << "slot " << i;
  }
  EXPECT_EQ(attach_nvtx_module([](uint32_t) -> const void* { return nullptr; }, g_recorder), 0);
}

TEST(NvtxCaptureSpec, Parse) {
  NvtxCapture c = NvtxCapture::parse("step");
  EXPECT_EQ(c.text, "step");
  EXPECT_EQ(c.domain, "");
  c = NvtxCapture::parse("train@step@my.domain");
  EXPECT_EQ(c.text, "train@step");
  EXPECT_EQ(c.domain, "my.domain");
  EXPECT_EQ(NvtxCapture::parse("step@*").domain, "*");
}

TEST(NvtxUtf8, FromWide) {
  EXPECT_EQ(utf8_from_wide(nullptr), "");
  EXPECT_EQ(utf8_from_wide(L"abc"), "abc");
  EXPECT_EQ(utf8_from_wide(L"\u00e9\u20ac\U0001F600"), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  if constexpr (sizeof(wchar_t) == 4) {
    const wchar_t invalid[] = {static_cast<wchar_t>(0x110000), 0};
    EXPECT_EQ(utf8_from_wide(invalid), "\xEF\xBF\xBD");
  }
}

}  // namespace
}  // namespace strata::cupti
