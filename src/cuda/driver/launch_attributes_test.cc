// cuLaunchKernelEx attribute validation (launch_attributes.h) against the rules of the
// CUDA Driver API documentation (cuda.h: CUlaunchAttributeID, CUlaunchAttributeValue).
#include "cuda/driver/launch_attributes.h"

#include <gtest/gtest.h>

#include <vector>

namespace strata::cuda::driver {
namespace {

CUlaunchAttribute attr(CUlaunchAttributeID id) {
  CUlaunchAttribute a{};
  a.id = id;
  return a;
}

StatusOr<LaunchAttributes> parse(const std::vector<CUlaunchAttribute>& attrs,
                                 LaunchAttributeLimits limits = {}) {
  return parse_launch_attributes(attrs, limits);
}

TEST(LaunchAttributes, EmptyListIsAnOrdinaryLaunch) {
  auto r = parse({});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->cooperative);
  EXPECT_EQ(r->completion_event, nullptr);
}

TEST(LaunchAttributes, Cooperative) {
  CUlaunchAttribute a = attr(CU_LAUNCH_ATTRIBUTE_COOPERATIVE);
  a.value.cooperative = 1;
  auto r = parse({a});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->cooperative);
  a.value.cooperative = 0;
  r = parse({a});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->cooperative);
}

TEST(LaunchAttributes, HintsAreAccepted) {
  std::vector<CUlaunchAttribute> attrs;
  attrs.push_back(attr(CU_LAUNCH_ATTRIBUTE_IGNORE));
  CUlaunchAttribute p = attr(CU_LAUNCH_ATTRIBUTE_PRIORITY);
  p.value.priority = -1;
  attrs.push_back(p);
  CUlaunchAttribute s = attr(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
  s.value.programmaticStreamSerializationAllowed = 1;
  attrs.push_back(s);
  CUlaunchAttribute w = attr(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  w.value.accessPolicyWindow.num_bytes = 1 << 20;
  w.value.accessPolicyWindow.hitRatio = 0.6f;
  w.value.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
  w.value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
  attrs.push_back(w);
  CUlaunchAttribute d = attr(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN);
  d.value.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  attrs.push_back(d);
  attrs.push_back(attr(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP));  // (0, 0)
  CUlaunchAttribute c = attr(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  c.value.clusterDim = {1, 1, 1};
  attrs.push_back(c);
  CUlaunchAttribute sp = attr(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY);
  sp.value.syncPolicy = CU_SYNC_POLICY_BLOCKING_SYNC;
  attrs.push_back(sp);
  CUlaunchAttribute cv = attr(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  cv.value.sharedMemCarveout = static_cast<unsigned>(CU_SHAREDMEM_CARVEOUT_DEFAULT);
  attrs.push_back(cv);
  auto r = parse(attrs);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_TRUE(r->has_priority);
  EXPECT_EQ(r->priority, -1);
}

TEST(LaunchAttributes, EventsAreReported) {
  CUevent e = reinterpret_cast<CUevent>(0x1234);
  CUlaunchAttribute a = attr(CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT);
  a.value.launchCompletionEvent.event = e;
  CUlaunchAttribute b = attr(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT);
  b.value.programmaticEvent.event = e;
  b.value.programmaticEvent.triggerAtBlockStart = 1;
  auto r = parse({a, b});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->completion_event, e);
  EXPECT_EQ(r->programmatic_event, e);
  a.value.launchCompletionEvent.event = nullptr;
  EXPECT_EQ(parse({a}).status().code(), Code::kInvalidValue);
}

TEST(LaunchAttributes, InvalidValuesAreRejected) {
  std::vector<CUlaunchAttribute> bad;
  bad.push_back(attr(static_cast<CUlaunchAttributeID>(15)));   // not declared
  bad.push_back(attr(static_cast<CUlaunchAttributeID>(999)));  // not declared
  CUlaunchAttribute c = attr(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  c.value.clusterDim = {2, 1, 1};  // no thread block clusters on the device
  bad.push_back(c);
  CUlaunchAttribute pc = attr(CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION);
  pc.value.preferredClusterDim = {4, 1, 1};
  bad.push_back(pc);
  CUlaunchAttribute w = attr(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  w.value.accessPolicyWindow.hitRatio = 1.5f;
  bad.push_back(w);
  w.value.accessPolicyWindow.hitRatio = 0.5f;
  w.value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_PERSISTING;  // NORMAL or STREAMING
  bad.push_back(w);
  CUlaunchAttribute m = attr(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
  m.value.memSyncDomainMap.remote = 1;  // the device has one domain
  bad.push_back(m);
  CUlaunchAttribute d = attr(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN);
  d.value.memSyncDomain = static_cast<CUlaunchMemSyncDomain>(7);
  bad.push_back(d);
  CUlaunchAttribute u = attr(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE);
  u.value.deviceUpdatableKernelNode.deviceUpdatable = 2;  // 0 or 1
  bad.push_back(u);
  CUlaunchAttribute sp = attr(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY);
  sp.value.syncPolicy = static_cast<CUsynchronizationPolicy>(0);
  bad.push_back(sp);
  CUlaunchAttribute cv = attr(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  cv.value.sharedMemCarveout = 101;
  bad.push_back(cv);
  for (const CUlaunchAttribute& a : bad) {
    SCOPED_TRACE(static_cast<int>(a.id));
    auto r = parse({a});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::kInvalidValue);
  }
}

TEST(LaunchAttributes, WindowLimitAppliesWhenTheDeviceHasOne) {
  CUlaunchAttribute w = attr(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  w.value.accessPolicyWindow.num_bytes = 4096;
  EXPECT_TRUE(parse({w}, {.max_access_policy_window_bytes = 4096}).ok());
  EXPECT_FALSE(parse({w}, {.max_access_policy_window_bytes = 4095}).ok());
}

}  // namespace
}  // namespace strata::cuda::driver
