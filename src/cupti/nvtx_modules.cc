// The NVTX ABI side of the injection: NVTX's argument types converted and handed to the
// recorder, and the module function tables filled (nvtx_injection.h).
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <atomic>
#include <cstddef>

#include "cupti/nvtx_injection.h"

namespace strata::cupti {
namespace {

// The recorder the NVTX functions below report to (one per process; tests replace it).
std::atomic<NvtxRecorder*> g_recorder{nullptr};

NvtxRecorder* recorder() {
  return g_recorder.load(std::memory_order_acquire);
}

std::string ascii(const char* text) {
  return text != nullptr ? std::string(text) : std::string();
}

NvtxDomainState* domain_of(NvtxRecorder* r, nvtxDomainHandle_t domain) {
  return domain != nullptr ? reinterpret_cast<NvtxDomainState*>(domain) : r->default_domain();
}

// Whether the attribute struct of `size` bytes contains `field` (at `offset`, `bytes` long).
bool has(const nvtxEventAttributes_t* a, size_t offset, size_t bytes) {
  return a->size >= offset + bytes;
}
#define STRATA_NVTX_HAS(a, field) \
  has(a, offsetof(nvtxEventAttributes_t, field), sizeof(nvtxEventAttributes_t::field))

NvtxEvent event_of(const nvtxEventAttributes_t* a) {
  NvtxEvent e;
  if (a == nullptr) return e;
  if (STRATA_NVTX_HAS(a, category)) e.category = a->category;
  if (STRATA_NVTX_HAS(a, color) && a->colorType == NVTX_COLOR_ARGB) e.color = a->color;
  if (STRATA_NVTX_HAS(a, payload)) {
    const auto& p = a->payload;
    switch (a->payloadType) {
      case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
        e.payload = prof::Nvtx::kU64, e.payload_value = static_cast<double>(p.ullValue);
        e.payload_bits = p.ullValue;
        break;
      case NVTX_PAYLOAD_TYPE_INT64:
        e.payload = prof::Nvtx::kI64, e.payload_value = static_cast<double>(p.llValue);
        e.payload_bits = static_cast<uint64_t>(p.llValue);
        break;
      case NVTX_PAYLOAD_TYPE_DOUBLE:
        e.payload = prof::Nvtx::kDouble, e.payload_value = p.dValue;
        static_assert(sizeof(p.dValue) == sizeof(uint64_t));
        __builtin_memcpy(&e.payload_bits, &p.dValue, sizeof(uint64_t));
        break;
      case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
        e.payload = prof::Nvtx::kU32, e.payload_value = p.uiValue, e.payload_bits = p.uiValue;
        break;
      case NVTX_PAYLOAD_TYPE_INT32:
        e.payload = prof::Nvtx::kI32, e.payload_value = p.iValue;
        e.payload_bits = static_cast<uint32_t>(p.iValue);
        break;
      case NVTX_PAYLOAD_TYPE_FLOAT: {
        e.payload = prof::Nvtx::kFloat, e.payload_value = p.fValue;
        uint32_t bits;
        static_assert(sizeof(p.fValue) == sizeof(bits));
        __builtin_memcpy(&bits, &p.fValue, sizeof(bits));
        e.payload_bits = bits;
        break;
      }
      default:
        break;  // NVTX_PAYLOAD_UNKNOWN, or an extension's payload type: none recorded
    }
  }
  if (STRATA_NVTX_HAS(a, message)) {
    switch (a->messageType) {
      case NVTX_MESSAGE_TYPE_ASCII:
        e.text = ascii(a->message.ascii);
        break;
      case NVTX_MESSAGE_TYPE_UNICODE:
        e.text = utf8_from_wide(a->message.unicode);
        break;
      case NVTX_MESSAGE_TYPE_REGISTERED:
        if (a->message.registered != nullptr) {
          e.text = reinterpret_cast<const NvtxRegisteredString*>(a->message.registered)->text;
        }
        break;
      default:
        break;
    }
  }
  return e;
}

NvtxEvent event_of(std::string text) {
  NvtxEvent e;
  e.text = std::move(text);
  return e;
}

// ---- CORE ----

void NVTX_API mark_ex(const nvtxEventAttributes_t* a) {
  NvtxRecorder* r = recorder();
  r->mark(*r->default_domain(), event_of(a));
}
void NVTX_API mark_a(const char* m) {
  NvtxRecorder* r = recorder();
  r->mark(*r->default_domain(), event_of(ascii(m)));
}
void NVTX_API mark_w(const wchar_t* m) {
  NvtxRecorder* r = recorder();
  r->mark(*r->default_domain(), event_of(utf8_from_wide(m)));
}
nvtxRangeId_t NVTX_API range_start_ex(const nvtxEventAttributes_t* a) {
  NvtxRecorder* r = recorder();
  return r->start(*r->default_domain(), event_of(a));
}
nvtxRangeId_t NVTX_API range_start_a(const char* m) {
  NvtxRecorder* r = recorder();
  return r->start(*r->default_domain(), event_of(ascii(m)));
}
nvtxRangeId_t NVTX_API range_start_w(const wchar_t* m) {
  NvtxRecorder* r = recorder();
  return r->start(*r->default_domain(), event_of(utf8_from_wide(m)));
}
void NVTX_API range_end(nvtxRangeId_t id) {
  recorder()->end(id);
}
int NVTX_API range_push_ex(const nvtxEventAttributes_t* a) {
  NvtxRecorder* r = recorder();
  return r->push(*r->default_domain(), event_of(a));
}
int NVTX_API range_push_a(const char* m) {
  NvtxRecorder* r = recorder();
  return r->push(*r->default_domain(), event_of(ascii(m)));
}
int NVTX_API range_push_w(const wchar_t* m) {
  NvtxRecorder* r = recorder();
  return r->push(*r->default_domain(), event_of(utf8_from_wide(m)));
}
int NVTX_API range_pop() {
  NvtxRecorder* r = recorder();
  return r->pop(*r->default_domain());
}
void NVTX_API name_category_a(uint32_t category, const char* name) {
  NvtxRecorder* r = recorder();
  r->name_category(*r->default_domain(), category, ascii(name));
}
void NVTX_API name_category_w(uint32_t category, const wchar_t* name) {
  NvtxRecorder* r = recorder();
  r->name_category(*r->default_domain(), category, utf8_from_wide(name));
}
void NVTX_API name_os_thread_a(uint32_t tid, const char* name) {
  recorder()->name_os_thread(tid, ascii(name));
}
void NVTX_API name_os_thread_w(uint32_t tid, const wchar_t* name) {
  recorder()->name_os_thread(tid, utf8_from_wide(name));
}

// ---- CORE2 ----

void NVTX_API domain_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  NvtxRecorder* r = recorder();
  r->mark(*domain_of(r, d), event_of(a));
}
nvtxRangeId_t NVTX_API domain_range_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  NvtxRecorder* r = recorder();
  return r->start(*domain_of(r, d), event_of(a));
}
void NVTX_API domain_range_end(nvtxDomainHandle_t, nvtxRangeId_t id) {
  recorder()->end(id);
}
int NVTX_API domain_range_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  NvtxRecorder* r = recorder();
  return r->push(*domain_of(r, d), event_of(a));
}
int NVTX_API domain_range_pop(nvtxDomainHandle_t d) {
  NvtxRecorder* r = recorder();
  return r->pop(*domain_of(r, d));
}
// Resources (nvtxDomainResourceCreate) are accepted and not recorded: each gets a
// distinct non-null handle.
nvtxResourceHandle_t NVTX_API domain_resource_create(nvtxDomainHandle_t,
                                                     nvtxResourceAttributes_t*) {
  static std::atomic<uintptr_t> next{1};
  return reinterpret_cast<nvtxResourceHandle_t>(next.fetch_add(1, std::memory_order_relaxed));
}
void NVTX_API domain_resource_destroy(nvtxResourceHandle_t) {}
void NVTX_API domain_name_category_a(nvtxDomainHandle_t d, uint32_t category, const char* name) {
  NvtxRecorder* r = recorder();
  r->name_category(*domain_of(r, d), category, ascii(name));
}
void NVTX_API domain_name_category_w(nvtxDomainHandle_t d, uint32_t category, const wchar_t* name) {
  NvtxRecorder* r = recorder();
  r->name_category(*domain_of(r, d), category, utf8_from_wide(name));
}
nvtxStringHandle_t string_handle(const NvtxRegisteredString* s) {
  return reinterpret_cast<nvtxStringHandle_t>(const_cast<NvtxRegisteredString*>(s));
}
nvtxStringHandle_t NVTX_API domain_register_string_a(nvtxDomainHandle_t d, const char* text) {
  NvtxRecorder* r = recorder();
  return string_handle(r->register_string(*domain_of(r, d), ascii(text)));
}
nvtxStringHandle_t NVTX_API domain_register_string_w(nvtxDomainHandle_t d, const wchar_t* text) {
  NvtxRecorder* r = recorder();
  return string_handle(r->register_string(*domain_of(r, d), utf8_from_wide(text)));
}
nvtxDomainHandle_t NVTX_API domain_create_a(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(recorder()->create_domain(ascii(name)));
}
nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(recorder()->create_domain(utf8_from_wide(name)));
}
void NVTX_API domain_destroy(nvtxDomainHandle_t d) {
  if (d != nullptr) recorder()->destroy_domain(reinterpret_cast<NvtxDomainState*>(d));
}
void NVTX_API initialize(const void*) {}

// ---- CUDA (driver handles) ----

void NVTX_API name_cu_device_a(CUdevice device, const char* name) {
  recorder()->name_device(device, ascii(name));
}
void NVTX_API name_cu_device_w(CUdevice device, const wchar_t* name) {
  recorder()->name_device(device, utf8_from_wide(name));
}
void NVTX_API name_cu_context_a(CUcontext, const char*) {}
void NVTX_API name_cu_context_w(CUcontext, const wchar_t*) {}
void NVTX_API name_cu_stream_a(CUstream stream, const char* name) {
  recorder()->name_stream(stream, ascii(name));
}
void NVTX_API name_cu_stream_w(CUstream stream, const wchar_t* name) {
  recorder()->name_stream(stream, utf8_from_wide(name));
}
void NVTX_API name_cu_event_a(CUevent, const char*) {}
void NVTX_API name_cu_event_w(CUevent, const wchar_t*) {}

// ---- CUDART (runtime handles: cudaStream_t is CUstream, device ordinals are the same) ----

void NVTX_API name_cuda_device_a(int device, const char* name) {
  recorder()->name_device(device, ascii(name));
}
void NVTX_API name_cuda_device_w(int device, const wchar_t* name) {
  recorder()->name_device(device, utf8_from_wide(name));
}
void NVTX_API name_cuda_stream_a(cudaStream_t stream, const char* name) {
  recorder()->name_stream(reinterpret_cast<CUstream>(stream), ascii(name));
}
void NVTX_API name_cuda_stream_w(cudaStream_t stream, const wchar_t* name) {
  recorder()->name_stream(reinterpret_cast<CUstream>(stream), utf8_from_wide(name));
}
void NVTX_API name_cuda_event_a(cudaEvent_t, const char*) {}
void NVTX_API name_cuda_event_w(cudaEvent_t, const wchar_t*) {}

// One module's slots to fill: callback id -> function.
struct Slot {
  unsigned int id;
  NvtxFunctionPointer function;
};

template <typename F>
NvtxFunctionPointer fn(F* f) {
  return reinterpret_cast<NvtxFunctionPointer>(f);
}

// Fills `slots` of `module`; false when NVTX does not offer the module.
bool fill(const NvtxExportTableCallbacks& callbacks, NvtxCallbackModule module,
          std::initializer_list<Slot> slots) {
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;  // the highest valid callback id
  if (callbacks.GetModuleFunctionTable(module, &table, &size) == 0 || table == nullptr) {
    return false;
  }
  for (const Slot& slot : slots) {
    if (slot.id <= size && table[slot.id] != nullptr) *table[slot.id] = slot.function;
  }
  return true;
}

}  // namespace

int attach_nvtx_module(NvtxGetExportTableFunc_t get_export_table, NvtxRecorder* r) {
  if (get_export_table == nullptr || r == nullptr) return 0;
  auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr ||
      callbacks->struct_size < offsetof(NvtxExportTableCallbacks, GetModuleFunctionTable) +
                                   sizeof(callbacks->GetModuleFunctionTable) ||
      callbacks->GetModuleFunctionTable == nullptr) {
    return 0;
  }
  auto* version =
      static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
  if (version != nullptr &&
      version->struct_size >= offsetof(NvtxExportTableVersionInfo, SetInjectionNvtxVersion) +
                                  sizeof(version->SetInjectionNvtxVersion) &&
      version->SetInjectionNvtxVersion != nullptr) {
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  }
  g_recorder.store(r, std::memory_order_release);

  bool core = fill(*callbacks, NVTX_CB_MODULE_CORE,
                   {{NVTX_CBID_CORE_MarkEx, fn(mark_ex)},
                    {NVTX_CBID_CORE_MarkA, fn(mark_a)},
                    {NVTX_CBID_CORE_MarkW, fn(mark_w)},
                    {NVTX_CBID_CORE_RangeStartEx, fn(range_start_ex)},
                    {NVTX_CBID_CORE_RangeStartA, fn(range_start_a)},
                    {NVTX_CBID_CORE_RangeStartW, fn(range_start_w)},
                    {NVTX_CBID_CORE_RangeEnd, fn(range_end)},
                    {NVTX_CBID_CORE_RangePushEx, fn(range_push_ex)},
                    {NVTX_CBID_CORE_RangePushA, fn(range_push_a)},
                    {NVTX_CBID_CORE_RangePushW, fn(range_push_w)},
                    {NVTX_CBID_CORE_RangePop, fn(range_pop)},
                    {NVTX_CBID_CORE_NameCategoryA, fn(name_category_a)},
                    {NVTX_CBID_CORE_NameCategoryW, fn(name_category_w)},
                    {NVTX_CBID_CORE_NameOsThreadA, fn(name_os_thread_a)},
                    {NVTX_CBID_CORE_NameOsThreadW, fn(name_os_thread_w)}});
  if (!core) return 0;
  fill(*callbacks, NVTX_CB_MODULE_CORE2,
       {{NVTX_CBID_CORE2_DomainMarkEx, fn(domain_mark_ex)},
        {NVTX_CBID_CORE2_DomainRangeStartEx, fn(domain_range_start_ex)},
        {NVTX_CBID_CORE2_DomainRangeEnd, fn(domain_range_end)},
        {NVTX_CBID_CORE2_DomainRangePushEx, fn(domain_range_push_ex)},
        {NVTX_CBID_CORE2_DomainRangePop, fn(domain_range_pop)},
        {NVTX_CBID_CORE2_DomainResourceCreate, fn(domain_resource_create)},
        {NVTX_CBID_CORE2_DomainResourceDestroy, fn(domain_resource_destroy)},
        {NVTX_CBID_CORE2_DomainNameCategoryA, fn(domain_name_category_a)},
        {NVTX_CBID_CORE2_DomainNameCategoryW, fn(domain_name_category_w)},
        {NVTX_CBID_CORE2_DomainRegisterStringA, fn(domain_register_string_a)},
        {NVTX_CBID_CORE2_DomainRegisterStringW, fn(domain_register_string_w)},
        {NVTX_CBID_CORE2_DomainCreateA, fn(domain_create_a)},
        {NVTX_CBID_CORE2_DomainCreateW, fn(domain_create_w)},
        {NVTX_CBID_CORE2_DomainDestroy, fn(domain_destroy)},
        {NVTX_CBID_CORE2_Initialize, fn(initialize)}});
  fill(*callbacks, NVTX_CB_MODULE_CUDA,
       {{NVTX_CBID_CUDA_NameCuDeviceA, fn(name_cu_device_a)},
        {NVTX_CBID_CUDA_NameCuDeviceW, fn(name_cu_device_w)},
        {NVTX_CBID_CUDA_NameCuContextA, fn(name_cu_context_a)},
        {NVTX_CBID_CUDA_NameCuContextW, fn(name_cu_context_w)},
        {NVTX_CBID_CUDA_NameCuStreamA, fn(name_cu_stream_a)},
        {NVTX_CBID_CUDA_NameCuStreamW, fn(name_cu_stream_w)},
        {NVTX_CBID_CUDA_NameCuEventA, fn(name_cu_event_a)},
        {NVTX_CBID_CUDA_NameCuEventW, fn(name_cu_event_w)}});
  fill(*callbacks, NVTX_CB_MODULE_CUDART,
       {{NVTX_CBID_CUDART_NameCudaDeviceA, fn(name_cuda_device_a)},
        {NVTX_CBID_CUDART_NameCudaDeviceW, fn(name_cuda_device_w)},
        {NVTX_CBID_CUDART_NameCudaStreamA, fn(name_cuda_stream_a)},
        {NVTX_CBID_CUDART_NameCudaStreamW, fn(name_cuda_stream_w)},
        {NVTX_CBID_CUDART_NameCudaEventA, fn(name_cuda_event_a)},
        {NVTX_CBID_CUDART_NameCudaEventW, fn(name_cuda_event_w)}});
  return 1;
}

std::string utf8_from_wide(const wchar_t* text) {
  std::string out;
  if (text == nullptr) return out;
  auto put = [&](uint32_t c) {
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  };
  for (const wchar_t* p = text; *p != 0; ++p) {
    uint32_t c = static_cast<uint32_t>(*p);
    if constexpr (sizeof(wchar_t) == 2) {
      c &= 0xFFFF;
      if (c >= 0xD800 && c <= 0xDBFF && p[1] >= 0xDC00 && p[1] <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (static_cast<uint32_t>(p[1]) - 0xDC00);
        ++p;
      }
    }
    put(c);
  }
  return out;
}

}  // namespace strata::cupti
