#include "cuda/driver/launch_attributes.h"

#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

Status bad(const char* attribute, const std::string& why) {
  return error(Code::kInvalidValue,
               fmt::format("cuLaunchKernelEx: launch attribute {}: {}", attribute, why));
}

bool valid_access_property(CUaccessProperty p) {
  return p == CU_ACCESS_PROPERTY_NORMAL || p == CU_ACCESS_PROPERTY_STREAMING ||
         p == CU_ACCESS_PROPERTY_PERSISTING;
}

// Strata's device has no thread block clusters: only the trivial 1x1x1 clustering.
Status check_cluster(const char* attribute, unsigned x, unsigned y, unsigned z) {
  if (x == 1 && y == 1 && z == 1) return ok_status();
  return bad(attribute, fmt::format("cluster ({}, {}, {}) requested, but the device does not "
                                    "support thread block clusters "
                                    "(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH is 0)",
                                    x, y, z));
}

}  // namespace

StatusOr<LaunchAttributes> parse_launch_attributes(std::span<const CUlaunchAttribute> attrs,
                                                   const LaunchAttributeLimits& limits) {
  LaunchAttributes out;
  for (const CUlaunchAttribute& a : attrs) {
    const CUlaunchAttributeValue& v = a.value;
    switch (a.id) {
      case CU_LAUNCH_ATTRIBUTE_IGNORE:
        break;
      case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
        const CUaccessPolicyWindow& w = v.accessPolicyWindow;
        if (!(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f)) {
          return bad("ACCESS_POLICY_WINDOW",
                     fmt::format("hitRatio {} is not in [0, 1]", w.hitRatio));
        }
        if (!valid_access_property(w.hitProp) || !valid_access_property(w.missProp) ||
            w.missProp == CU_ACCESS_PROPERTY_PERSISTING) {
          return bad("ACCESS_POLICY_WINDOW",
                     fmt::format("hitProp {} / missProp {} (missProp must be NORMAL or STREAMING)",
                                 static_cast<int>(w.hitProp), static_cast<int>(w.missProp)));
        }
        if (limits.max_access_policy_window_bytes > 0 &&
            w.num_bytes > static_cast<uint64_t>(limits.max_access_policy_window_bytes)) {
          return bad("ACCESS_POLICY_WINDOW",
                     fmt::format("num_bytes {} exceeds the device's maximum window of {}",
                                 w.num_bytes, limits.max_access_policy_window_bytes));
        }
        break;
      }
      case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
        out.cooperative = v.cooperative != 0;
        break;
      case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        if (v.syncPolicy < CU_SYNC_POLICY_AUTO || v.syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC) {
          return bad("SYNCHRONIZATION_POLICY",
                     fmt::format("unknown policy {}", static_cast<int>(v.syncPolicy)));
        }
        break;
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        RETURN_IF_ERROR(
            check_cluster("CLUSTER_DIMENSION", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z));
        break;
      case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
        RETURN_IF_ERROR(check_cluster("PREFERRED_CLUSTER_DIMENSION", v.preferredClusterDim.x,
                                      v.preferredClusterDim.y, v.preferredClusterDim.z));
        break;
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        if (v.clusterSchedulingPolicyPreference < CU_CLUSTER_SCHEDULING_POLICY_DEFAULT ||
            v.clusterSchedulingPolicyPreference > CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING) {
          return bad("CLUSTER_SCHEDULING_POLICY_PREFERENCE",
                     fmt::format("unknown policy {}",
                                 static_cast<int>(v.clusterSchedulingPolicyPreference)));
        }
        break;
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
        break;  // overlap allowed, not required: full serialisation honours it
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
        if (v.programmaticEvent.event == nullptr) return bad("PROGRAMMATIC_EVENT", "null event");
        out.programmatic_event = v.programmaticEvent.event;
        out.programmatic_event_flags = v.programmaticEvent.flags;
        break;
      case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        out.has_priority = true;
        out.priority = v.priority;
        break;
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        if (v.memSyncDomainMap.default_ >= limits.mem_sync_domain_count ||
            v.memSyncDomainMap.remote >= limits.mem_sync_domain_count) {
          return bad(
              "MEM_SYNC_DOMAIN_MAP",
              fmt::format("domains ({}, {}) but the device has {}", v.memSyncDomainMap.default_,
                          v.memSyncDomainMap.remote, limits.mem_sync_domain_count));
        }
        break;
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        if (v.memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT &&
            v.memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE) {
          return bad("MEM_SYNC_DOMAIN",
                     fmt::format("unknown domain {}", static_cast<int>(v.memSyncDomain)));
        }
        break;
      case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
        if (v.launchCompletionEvent.event == nullptr) {
          return bad("LAUNCH_COMPLETION_EVENT", "null event");
        }
        out.completion_event = v.launchCompletionEvent.event;
        out.completion_event_flags = v.launchCompletionEvent.flags;
        break;
      case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
        if (v.deviceUpdatableKernelNode.deviceUpdatable != 0 &&
            v.deviceUpdatableKernelNode.deviceUpdatable != 1) {
          return bad(
              "DEVICE_UPDATABLE_KERNEL_NODE",
              fmt::format("value {} is not 0 or 1", v.deviceUpdatableKernelNode.deviceUpdatable));
        }
        out.device_updatable = v.deviceUpdatableKernelNode.deviceUpdatable == 1;
        break;
      case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (static_cast<int>(v.sharedMemCarveout) != CU_SHAREDMEM_CARVEOUT_DEFAULT &&
            v.sharedMemCarveout > CU_SHAREDMEM_CARVEOUT_MAX_SHARED) {
          return bad("PREFERRED_SHARED_MEMORY_CARVEOUT",
                     fmt::format("{} is neither -1 nor a percentage", v.sharedMemCarveout));
        }
        break;
      case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
        if (v.nvlinkUtilCentricScheduling > 1) {
          return bad("NVLINK_UTIL_CENTRIC_SCHEDULING",
                     fmt::format("value {} is not 0 or 1", v.nvlinkUtilCentricScheduling));
        }
        break;
      default:
        return error(Code::kInvalidValue,
                     fmt::format("cuLaunchKernelEx: unknown launch attribute id {}",
                                 static_cast<int>(a.id)));
    }
  }
  return out;
}

}  // namespace strata::cuda::driver
