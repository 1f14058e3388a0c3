// The HAL conformance suite. Every backend runs every test; a backend that cannot
// support a test says so in skip_reason() with the reason.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "hal/device.h"
#include "hw/config/arch_config.h"
#include "isa/encode.h"
#include "isa/inst.h"
#include "kmd/kmd.h"
#include "kmd/testing/fake_gpu.h"

namespace strata::hal {
namespace {

using namespace std::chrono_literals;

#ifndef STRATA_CTS_HAVE_SIM
constexpr bool kHaveSim = false;
#else
constexpr bool kHaveSim = true;
#endif

enum class Feature { kExecution, kTimestamps, kFaults, kDispatch };

// Why `backend` skips tests needing `feature` (empty: it runs them).
std::string skip_reason(const std::string& backend, Feature feature) {
  if (backend == "null") {
    switch (feature) {
      case Feature::kExecution: return "null backend executes no commands (copies/fills are dropped)";
      case Feature::kTimestamps: return "null backend writes no timestamps";
      case Feature::kFaults: return "null backend executes nothing, so nothing faults";
      case Feature::kDispatch: return "null backend executes no kernels";
    }
  }
  if (backend == "strata" && feature == Feature::kDispatch && !kHaveSim) {
    return "strata_hw_sim (execute_grid) is not linked into this build; the fake GPU runs no kernels";
  }
  return "";
}

class CtsTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    if (!kHaveSim) {
      (void)kmd::kmd_set_gpu_factory([](const hw::ArchConfig&) -> StatusOr<std::unique_ptr<hw::Gpu>> {
        return kmd::testing::create_fake_gpu();
      });
    }
  }
  void SetUp() override {
    auto device = open_device(GetParam(), 0);
    ASSERT_TRUE(device.ok()) << device.status().to_string();
    device_ = *device;
    auto context = device_->create_context();
    ASSERT_TRUE(context.ok()) << context.status().to_string();
    context_ = *context;
    auto queue = context_->create_queue();
    ASSERT_TRUE(queue.ok()) << queue.status().to_string();
    queue_ = *queue;
  }
  bool skip(Feature f) {
    const std::string reason = skip_reason(GetParam(), f);
    if (reason.empty()) return false;
    std::printf("[  SKIP    ] %s\n", reason.c_str());
    return true;
  }
  std::shared_ptr<Buffer> device_buffer(uint64_t size) {
    auto b = context_->allocator().allocate_device(size);
    EXPECT_TRUE(b.ok()) << b.status().to_string();
    return b.ok() ? *b : nullptr;
  }
  std::shared_ptr<CommandBuffer> record(const std::function<void(CommandBuffer&)>& fn) {
    auto cb = context_->create_command_buffer();
    EXPECT_TRUE(cb.ok());
    fn(**cb);
    EXPECT_TRUE((*cb)->finalize().ok());
    return *cb;
  }

  std::shared_ptr<Device> device_;
  std::shared_ptr<Context> context_;
  std::shared_ptr<Queue> queue_;
};

TEST_P(CtsTest, OpenDeviceReturnsTheSameDevice) {
  auto again = open_device(GetParam(), 0);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), device_.get());
  EXPECT_EQ(open_device(GetParam(), 99).status().code(), Code::kInvalidDevice);
  EXPECT_EQ(open_device("no-such-backend", 0).status().code(), Code::kNotFound);
  EXPECT_GT(device_->properties().total_memory, 0u);
}

TEST_P(CtsTest, BuffersAreTrackedAndReadable) {
  Allocator& a = context_->allocator();
  auto d = device_buffer(10000);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->kind(), MemoryKind::kDevice);
  EXPECT_EQ(d->host_ptr(), nullptr);
  auto found = a.find(d->va() + 9999);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->get(), d.get());
  EXPECT_EQ(a.find(d->va() + 10000).status().code(), Code::kNotFound);
  std::vector<uint8_t> data(10000), back(10000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
  ASSERT_TRUE(a.write(d->va(), data.data(), data.size()).ok());
  ASSERT_TRUE(a.read(d->va(), back.data(), back.size()).ok());
  EXPECT_EQ(data, back);
  EXPECT_EQ(a.write(d->va() + 1, data.data(), data.size()).code(), Code::kInvalidValue);
  EXPECT_EQ(a.allocate_device(0).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.allocate_device(16, 3).status().code(), Code::kInvalidValue);

  auto h = a.allocate_host(4096);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ((*h)->va(), reinterpret_cast<uint64_t>((*h)->host_ptr()));  // UVA
  std::vector<uint32_t> user(1000, 5);
  auto r = a.register_host(user.data(), user.size() * 4);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ((*r)->va(), reinterpret_cast<uint64_t>(user.data()));
  const uint64_t va = d->va();
  found->reset();  // drop every reference: the buffer is freed
  d.reset();
  EXPECT_EQ(a.find(va).status().code(), Code::kNotFound);
}

TEST_P(CtsTest, DeviceOutOfMemory) {
  auto b = context_->allocator().allocate_device(device_->properties().total_memory * 2);
  if (GetParam() == "null") GTEST_SKIP() << "null backend memory is host memory";
  EXPECT_EQ(b.status().code(), Code::kOutOfMemory);
}

TEST_P(CtsTest, FillCopyAndReadBack) {
  if (skip(Feature::kExecution)) GTEST_SKIP();
  auto a = device_buffer(8192), b = device_buffer(8192);
  auto host = context_->allocator().allocate_host(8192);
  ASSERT_TRUE(host.ok());
  auto done = device_->create_semaphore(0);
  ASSERT_TRUE(done.ok());
  auto cb = record([&](CommandBuffer& c) {
    ASSERT_TRUE(c.fill(a->va(), 8192, 0xbeef, 2).ok());
    ASSERT_TRUE(c.copy(a->va(), b->va(), 4096).ok());
    ASSERT_TRUE(c.copy(b->va(), (*host)->va(), 4096).ok());
  });
  SemaphoreValue signal{*done, 1};
  ASSERT_TRUE(queue_->submit(cb, {}, std::span(&signal, 1)).ok());
  ASSERT_TRUE((*done)->wait(1, 10s).ok());
  const auto* p = static_cast<const uint16_t*>((*host)->host_ptr());
  EXPECT_EQ(p[0], 0xbeef);
  EXPECT_EQ(p[2047], 0xbeef);
  EXPECT_EQ(cb->fill(a->va(), 4, 0, 4).code(), Code::kInvalidValue);  // finalized
}

TEST_P(CtsTest, RecordingValidatesArguments) {
  auto cb = context_->create_command_buffer();
  ASSERT_TRUE(cb.ok());
  EXPECT_EQ((*cb)->fill(0x1001, 4, 0, 2).code(), Code::kInvalidValue);
  EXPECT_EQ((*cb)->fill(0x1000, 4, 0, 3).code(), Code::kInvalidValue);
  EXPECT_EQ((*cb)->copy(0x1000, 0x1008, 16).code(), Code::kInvalidValue);  // overlap
  EXPECT_EQ((*cb)->write_timestamp(0x1004).code(), Code::kInvalidValue);
  EXPECT_EQ((*cb)->signal(nullptr, 1).code(), Code::kInvalidValue);
  EXPECT_EQ((*cb)->dispatch(nullptr, 0, {}, {}, 0, {}).code(), Code::kInvalidValue);
  EXPECT_EQ((*cb)->command_count(), 0);
  EXPECT_EQ(queue_->submit(*cb, {}, {}).code(), Code::kInvalidValue);  // not finalized
}

TEST_P(CtsTest, SemaphoreHostSignalWaitAndTimeout) {
  auto s = device_->create_semaphore(3);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*(*s)->query(), 3u);
  EXPECT_EQ((*s)->wait(4, 0ns).code(), Code::kNotReady);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ((*s)->wait(4, 30ms).code(), Code::kNotReady);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 30ms);
  EXPECT_EQ((*s)->signal(3).code(), Code::kInvalidValue);
  std::thread signaller([&] {
    std::this_thread::sleep_for(10ms);
    EXPECT_TRUE((*s)->signal(7).ok());
  });
  EXPECT_TRUE((*s)->wait(6, 10s).ok());
  signaller.join();
  (*s)->fail(error(Code::kLaunchFailed, "test failure"));
  EXPECT_EQ((*s)->wait(100, 10s).code(), Code::kLaunchFailed);
  EXPECT_EQ((*s)->query().status().code(), Code::kLaunchFailed);
}

TEST_P(CtsTest, QueueWaitsForHostSignalAndCrossQueueDependency) {
  auto other = context_->create_queue();
  ASSERT_TRUE(other.ok());
  auto gate = device_->create_semaphore(0);
  auto mid = device_->create_semaphore(0);
  auto done = device_->create_semaphore(0);
  ASSERT_TRUE(gate.ok() && mid.ok() && done.ok());
  SemaphoreValue wait_gate{*gate, 1}, sig_mid{*mid, 1}, wait_mid{*mid, 1}, sig_done{*done, 1};
  ASSERT_TRUE((*other)->submit(nullptr, std::span(&wait_mid, 1), std::span(&sig_done, 1)).ok());
  ASSERT_TRUE(queue_->submit(nullptr, std::span(&wait_gate, 1), std::span(&sig_mid, 1)).ok());
  if (GetParam() != "null") {
    EXPECT_EQ((*done)->wait(1, 20ms).code(), Code::kNotReady);
  }
  ASSERT_TRUE((*gate)->signal(1).ok());
  EXPECT_TRUE((*done)->wait(1, 10s).ok());
  EXPECT_TRUE(queue_->wait_idle(10s).ok());
  EXPECT_TRUE((*other)->wait_idle(10s).ok());
}

TEST_P(CtsTest, TimestampsAreMonotonic) {
  if (skip(Feature::kTimestamps)) GTEST_SKIP();
  auto host = context_->allocator().allocate_host(64);
  ASSERT_TRUE(host.ok());
  auto cb = record([&](CommandBuffer& c) {
    ASSERT_TRUE(c.write_timestamp((*host)->va()).ok());
    ASSERT_TRUE(c.write_timestamp((*host)->va() + 8).ok());
  });
  auto before = device_->timestamp_ns();
  ASSERT_TRUE(queue_->submit(cb, {}, {}).ok());
  ASSERT_TRUE(queue_->wait_idle(10s).ok());
  const auto* t = static_cast<const uint64_t*>((*host)->host_ptr());
  EXPECT_LE(*before, t[0]);
  EXPECT_LE(t[0], t[1]);
}

TEST_P(CtsTest, FaultFailsSemaphoreAndIsStickyForTheContext) {
  if (skip(Feature::kFaults)) GTEST_SKIP();
  auto dst = device_buffer(4096);
  auto gone = device_buffer(4096);
  const uint64_t unmapped = gone->va();
  gone.reset();  // freed: its VA is unmapped now
  auto done = device_->create_semaphore(0);
  ASSERT_TRUE(done.ok());
  auto cb = record([&](CommandBuffer& c) { ASSERT_TRUE(c.copy(unmapped, dst->va(), 256).ok()); });
  SemaphoreValue sig{*done, 1};
  ASSERT_TRUE(queue_->submit(cb, {}, std::span(&sig, 1)).ok());
  Status s = (*done)->wait(1, 10s);
  ASSERT_EQ(s.code(), Code::kIllegalAddress) << s.to_string();
  EXPECT_NE(s.message().find("unmapped"), std::string::npos) << s.message();
  EXPECT_EQ(context_->status().code(), Code::kIllegalAddress);
  ASSERT_TRUE(context_->fault().has_value());
  EXPECT_EQ(context_->fault()->address, unmapped);
  EXPECT_EQ(queue_->submit(nullptr, {}, {}).code(), Code::kIllegalAddress);

  // The device goes on: a new context works.
  auto fresh = device_->create_context();
  ASSERT_TRUE(fresh.ok());
  auto q = (*fresh)->create_queue();
  ASSERT_TRUE(q.ok());
  auto buf = (*fresh)->allocator().allocate_device(64);
  ASSERT_TRUE(buf.ok());
  auto cb2 = (*fresh)->create_command_buffer();
  ASSERT_TRUE((*cb2)->fill((*buf)->va(), 64, 0x11, 1).ok());
  ASSERT_TRUE((*cb2)->finalize().ok());
  ASSERT_TRUE((*q)->submit(*cb2, {}, {}).ok());
  ASSERT_TRUE((*q)->wait_idle(10s).ok());
  uint8_t byte = 0;
  ASSERT_TRUE((*fresh)->allocator().read((*buf)->va() + 63, &byte, 1).ok());
  EXPECT_EQ(byte, 0x11);
}

TEST_P(CtsTest, DispatchTinyKernel) {
  if (skip(Feature::kDispatch)) GTEST_SKIP();
  isa::Inst exit;
  exit.op = isa::Opcode::EXIT;
  const std::vector<isa::Inst> program = {exit};
  const std::vector<uint8_t> code = isa::encode_program(program);
  ExecutableSpec spec{"cts_module", code, {KernelInfo{"exit_only", 0, code.size(), 1, 0, 0, 1}}};
  auto exe = context_->load_executable(spec);
  ASSERT_TRUE(exe.ok()) << exe.status().to_string();
  EXPECT_EQ(*(*exe)->find_kernel("exit_only"), 0);
  auto done = device_->create_semaphore(0);
  ASSERT_TRUE(done.ok());
  const uint32_t params[2] = {1, 2};
  auto cb = record([&](CommandBuffer& c) {
    ASSERT_TRUE(c.dispatch(*exe, 0, Dim3{4, 1, 1}, Dim3{64, 1, 1}, 0,
                           std::span(reinterpret_cast<const uint8_t*>(params), sizeof(params)))
                    .ok());
    EXPECT_EQ(c.dispatch(*exe, 0, Dim3{0, 1, 1}, Dim3{64, 1, 1}, 0, {}).code(),
              Code::kInvalidConfiguration);
  });
  SemaphoreValue sig{*done, 1};
  ASSERT_TRUE(queue_->submit(cb, {}, std::span(&sig, 1)).ok());
  Status s = (*done)->wait(1, 30s);
  EXPECT_TRUE(s.ok()) << s.to_string();
  EXPECT_TRUE(context_->status().ok());
}

TEST_P(CtsTest, QueuePriorities) {
  for (uint32_t priority : {0u, 1u, kMaxQueuePriority}) {
    auto queue = context_->create_queue(priority);
    ASSERT_TRUE(queue.ok()) << priority << ": " << queue.status().to_string();
  }
  EXPECT_EQ(context_->create_queue(kMaxQueuePriority + 1).status().code(), Code::kInvalidValue);
}

TEST_P(CtsTest, ResetCommandBufferIsRecordedAgain) {
  auto host = context_->allocator().allocate_host(4096);
  ASSERT_TRUE(host.ok());
  std::memset((*host)->host_ptr(), 0, 4096);
  auto done = device_->create_semaphore(0);
  ASSERT_TRUE(done.ok());
  auto cb = record([&](CommandBuffer& c) { ASSERT_TRUE(c.fill((*host)->va(), 64, 0x11, 1).ok()); });
  SemaphoreValue first{*done, 1};
  ASSERT_TRUE(queue_->submit(cb, {}, std::span(&first, 1)).ok());
  ASSERT_TRUE((*done)->wait(1, 10s).ok());
  ASSERT_TRUE(queue_->wait_idle(10s).ok());
  cb->reset();
  EXPECT_FALSE(cb->finalized());
  EXPECT_EQ(cb->command_count(), 0);
  ASSERT_TRUE(cb->fill((*host)->va() + 64, 64, 0x22, 1).ok());
  ASSERT_TRUE(cb->finalize().ok());
  EXPECT_EQ(cb->command_count(), 1);
  SemaphoreValue second{*done, 2};
  ASSERT_TRUE(queue_->submit(cb, {}, std::span(&second, 1)).ok());
  ASSERT_TRUE((*done)->wait(2, 10s).ok());
  if (skip(Feature::kExecution)) GTEST_SKIP();
  const auto* p = static_cast<const uint8_t*>((*host)->host_ptr());
  EXPECT_EQ(p[0], 0x11);
  EXPECT_EQ(p[63], 0x11);
  EXPECT_EQ(p[64], 0x22);  // the second recording, not the first again
  EXPECT_EQ(p[127], 0x22);
  EXPECT_EQ(p[128], 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, CtsTest, ::testing::Values("strata", "null"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace strata::hal
