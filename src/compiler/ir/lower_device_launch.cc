// CUDA dynamic parallelism (CDP2): the device runtime's launch, stream and error calls
// (__cudaCDP2*, cuda_device_runtime_api.h), lowered inline to the launch-queue protocol of
// compiler/sxbin/sxbin.h "DEVICE LAUNCH" (hw/contract/device_launch.h). The per-thread
// last error is an SSA variable of the kernel; separately compiled functions (real
// calls) have their own.
#include <fmt/format.h>

#include <string>

#include "compiler/ir/lower_emit.h"
#include "compiler/ir/lowerer.h"
#include "compiler/sxbin/sxbin.h"

namespace strata::compiler::ir {
namespace {

using isa::MemSpace;

constexpr uint32_t kCudaSuccess = 0;
constexpr uint32_t kCudaErrorInvalidConfiguration = 9;
constexpr uint32_t kMaxThreadsPerBlock = 1024;
constexpr uint32_t kCudaErrorLaunchMaxDepthExceeded = 65;
constexpr uint32_t kCudaErrorLaunchPendingCountExceeded = 69;
const char* const kLastError = "cdp:last_error";

// The call's argument k, at byte `offset` of its param (dim3 arguments are 12-byte
// params written word by word).
StatusOr<int> argument(Lowerer& l, const ptx::Instruction& in, size_t k, uint64_t offset,
                       DataType t) {
  auto* args = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[2].value);
  if (!args || !*args || (*args)->elements.size() <= k)
    return l.invalid(in.loc, fmt::format("call passes fewer than {} arguments", k + 1));
  const ptx::Operand& a = (*args)->elements[k];
  if (auto* sym = std::get_if<ptx::SymbolOperand>(&a))
    return l.ssa_.read(l.var_key(fmt::format("param:{}@{}", sym->name, offset)), l.cur_, t);
  if (offset != 0) return l.invalid(in.loc, "a dim3 argument must be a .param");
  return l.read_value(ptx::OperandSlot{a, false, in.loc}, t);
}

// Writes the call's result (if it has one).
Status set_result(Lowerer& l, const ptx::Instruction& in, int value) {
  auto* rets = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[0].value);
  if (!rets || !*rets || (*rets)->elements.empty()) return ok_status();
  const ptx::Operand& dst = (*rets)->elements[0];
  if (auto* sym = std::get_if<ptx::SymbolOperand>(&dst)) {
    l.frame().param_layout.erase(sym->name);
    return l.write_param(sym->name, 0, reg_class(l.f_.type_of(value)) == RegClass::k64 ? 8 : 4,
                         value);
  }
  return l.write(ptx::OperandSlot{dst, false, in.loc}, value);
}

int queue_va(Lowerer& l) { return emit::driver_bank_u64(l, sxbin::kDriverBankLaunchQueueVa); }

int atomic_add(Lowerer& l, DataType t, int base, uint64_t offset, Operand value) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::ATOM;
  i.space = MemSpace::GLOBAL;
  i.sem = isa::MemSem::RELAXED;
  i.scope = isa::MemScope::GPU;
  i.type = t;
  i.mod = static_cast<uint8_t>(isa::AtomOp::ADD);
  i.imm = offset;
  i.srcs = {Operand::val(base), value};
  i.defs = {l.f_.new_value(t)};
  return l.emit(std::move(i));
}

int compare(Lowerer& l, DataType t, isa::CmpOp op, Operand a, Operand b) {
  return l.isa_op(Opcode::ISETP, t, DataType::Pred, {a, b, Operand::immediate(1)},
                  static_cast<uint8_t>(op));
}

int select(Lowerer& l, DataType t, Operand if_true, Operand if_false, int pred) {
  return l.isa_op(Opcode::SEL, t, t, {if_true, if_false, Operand::val(pred)});
}

// Starts `then_block` under `pred`; returns the join block to continue in.
int begin_if(Lowerer& l, int pred) {
  int then_block = l.new_block(), join = l.new_block();
  l.cond_branch(pred, /*negate=*/false, then_block, join, /*uniform=*/false);
  l.ssa_.seal(then_block);
  l.start_block(then_block);
  return join;
}

void end_if(Lowerer& l, int join) {
  l.branch(join);
  l.ssa_.seal(join);
  l.start_block(join);
}

void set_last_error_if(Lowerer& l, int failed, int error) {
  int join = begin_if(l, failed);
  l.ssa_.write(kLastError, l.cur_, error);
  end_if(l, join);
}

// Reserves a record with `param_bytes` (u32) of parameters. Returns the record's VA,
// 0 when the queue is full (then the last error is set).
int reserve_record(Lowerer& l, int param_bytes, int* record_bytes) {
  int queue = queue_va(l);
  int padded =
      l.isa_op(Opcode::IADD, DataType::U32, DataType::U32,
               {Operand::val(param_bytes),
                Operand::immediate(sxbin::kRecordHeaderBytes + sxbin::kRecordAlignment - 1)});
  *record_bytes =
      l.isa_op(Opcode::AND, DataType::U32, DataType::U32,
               {Operand::val(padded), Operand::immediate(~(sxbin::kRecordAlignment - 1))});
  int size64 = l.widen(*record_bytes, /*is_signed=*/false);
  int at = atomic_add(l, DataType::U64, queue, sxbin::kQueueTop, Operand::val(size64));
  int end = l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                     {Operand::val(at), Operand::val(size64)});
  int capacity = emit::load(l, MemSpace::GLOBAL, DataType::U64, queue, sxbin::kQueueCapacity);
  int fits = compare(l, DataType::U64, isa::CmpOp::LE, Operand::val(end), Operand::val(capacity));
  int full = compare(l, DataType::U64, isa::CmpOp::GT, Operand::val(end), Operand::val(capacity));
  int at_queue =
      l.isa_op(Opcode::IADD, DataType::U64, DataType::U64, {Operand::val(queue), Operand::val(at)});
  int record = l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                        {Operand::val(at_queue), Operand::immediate(sxbin::kQueueHeaderBytes)});
  // Full: the last record space (if a header fits) becomes an unpublished filler, so
  // the command processor's walk of the records ends at the capacity.
  int overflow = begin_if(l, full);
  l.ssa_.write(kLastError, l.cur_, l.constant(DataType::U32, kCudaErrorLaunchPendingCountExceeded));
  int header_end = l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                            {Operand::val(at), Operand::immediate(sxbin::kRecordHeaderBytes)});
  int straddles =
      compare(l, DataType::U64, isa::CmpOp::LE, Operand::val(header_end), Operand::val(capacity));
  int filler = begin_if(l, straddles);
  int rest = l.isa_op(Opcode::ISUB, DataType::U64, DataType::U64,
                      {Operand::val(capacity), Operand::val(at)});
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordBytes, Operand::val(l.low32(rest)));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordState, Operand::immediate(0));
  end_if(l, filler);
  end_if(l, overflow);
  return select(l, DataType::U64, Operand::val(record), Operand::immediate(0), fits);
}

// Writes the launch configuration into `record` (guarded by the caller).
Status write_config(Lowerer& l, const ptx::Instruction& in, int record, int func, size_t grid_arg,
                    size_t block_arg, size_t shared_arg) {
  emit::store(l, MemSpace::GLOBAL, DataType::U64, record, sxbin::kRecordDescriptor, Operand::val(func));
  for (uint32_t k = 0; k < 3; ++k) {
    ASSIGN_OR_RETURN(int g, argument(l, in, grid_arg, 4 * k, DataType::U32));
    emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordGrid + 4 * k, Operand::val(g));
    ASSIGN_OR_RETURN(int b, argument(l, in, block_arg, 4 * k, DataType::U32));
    emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordBlock + 4 * k, Operand::val(b));
  }
  ASSIGN_OR_RETURN(int shared, argument(l, in, shared_arg, 0, DataType::U32));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordDynamicShared, Operand::val(shared));
  return ok_status();
}

// Publishes the record whose parameter buffer is `buffer` into `stream`, unless the
// grid/block shape, the nesting depth or the pending-launch limit forbids it (a launch
// that fails takes no pending slot). Returns the cudaError_t (u32).
int publish(Lowerer& l, int buffer, int stream) {
  int queue = queue_va(l);
  int record = l.isa_op(Opcode::ISUB, DataType::U64, DataType::U64,
                        {Operand::val(buffer), Operand::immediate(sxbin::kRecordHeaderBytes)});
  // The configuration, as CUDA validates it at the launch (limits common to every
  // compute capability Strata models; shared memory is left to the command processor).
  struct Bound {
    uint32_t offset;
    uint32_t max;
  };
  static constexpr Bound kBounds[] = {
      {sxbin::kRecordGrid + 0, 0x7fffffff}, {sxbin::kRecordGrid + 4, 65535},
      {sxbin::kRecordGrid + 8, 65535},      {sxbin::kRecordBlock + 0, 1024},
      {sxbin::kRecordBlock + 4, 1024},      {sxbin::kRecordBlock + 8, 64}};
  int error = l.constant(DataType::U32, kCudaSuccess);
  int dims[6];
  for (int k = 0; k < 6; ++k) {
    dims[k] = emit::load(l, MemSpace::GLOBAL, DataType::U32, record, kBounds[k].offset);
    int minus_one = l.isa_op(Opcode::ISUB, DataType::U32, DataType::U32,
                             {Operand::val(dims[k]), Operand::immediate(1)});
    int in_range = compare(l, DataType::U32, isa::CmpOp::LT, Operand::val(minus_one),
                           Operand::immediate(kBounds[k].max));  // 1 <= dim <= max
    error = select(l, DataType::U32, Operand::val(error),
                   Operand::immediate(kCudaErrorInvalidConfiguration), in_range);
  }
  int threads = l.isa_op(Opcode::IMUL, DataType::U32, DataType::U32,
                         {Operand::val(dims[3]), Operand::val(dims[4])});
  threads = l.isa_op(Opcode::IMUL, DataType::U32, DataType::U32,
                     {Operand::val(threads), Operand::val(dims[5])});
  int few_enough = compare(l, DataType::U32, isa::CmpOp::LE, Operand::val(threads),
                           Operand::immediate(kMaxThreadsPerBlock));
  error = select(l, DataType::U32, Operand::val(error),
                 Operand::immediate(kCudaErrorInvalidConfiguration), few_enough);
  // A child of this grid runs at depth + 1.
  int depth = emit::load(l, MemSpace::GLOBAL, DataType::U32, queue, sxbin::kQueueDepth);
  int shallow = compare(l, DataType::U32, isa::CmpOp::LT, Operand::val(depth),
                        Operand::immediate(sxbin::kMaxLaunchDepth));
  error = select(l, DataType::U32, Operand::val(error),
                 Operand::immediate(kCudaErrorLaunchMaxDepthExceeded), shallow);
  const std::string result = fmt::format("cdp:launch_error{}", record);
  l.ssa_.write(result, l.cur_, error);

  int valid = compare(l, DataType::U32, isa::CmpOp::EQ, Operand::val(error), Operand::immediate(0));
  int checked = begin_if(l, valid);
  // The pending-launch limit: this launch is number `sequence` of the running grid.
  int sequence = atomic_add(l, DataType::U32, queue, sxbin::kQueueSequence, Operand::immediate(1));
  int base = emit::load(l, MemSpace::GLOBAL, DataType::U32, queue, sxbin::kQueuePendingBase);
  int limit = emit::load(l, MemSpace::GLOBAL, DataType::U32, queue, sxbin::kQueuePendingLimit);
  int pending = l.isa_op(Opcode::IADD, DataType::U32, DataType::U32,
                         {Operand::val(sequence), Operand::val(base)});
  int under_limit =
      compare(l, DataType::U32, isa::CmpOp::LT, Operand::val(pending), Operand::val(limit));
  l.ssa_.write(result, l.cur_,
               select(l, DataType::U32, Operand::immediate(kCudaSuccess),
                      Operand::immediate(kCudaErrorLaunchPendingCountExceeded), under_limit));
  int published = begin_if(l, under_limit);
  int ctaid_y = l.special(isa::SpecialReg::CTAID_Y);
  int ctaid_z = l.special(isa::SpecialReg::CTAID_Z);
  int nctaid_y = l.special(isa::SpecialReg::NCTAID_Y);
  int yz = l.isa_op(Opcode::IMAD, DataType::U32, DataType::U32,
                    {Operand::val(nctaid_y), Operand::val(ctaid_z), Operand::val(ctaid_y)});
  int cta = l.isa_op(Opcode::IMAD, DataType::U32, DataType::U32,
                     {Operand::val(l.special(isa::SpecialReg::NCTAID_X)), Operand::val(yz),
                      Operand::val(l.special(isa::SpecialReg::CTAID_X))});
  emit::store(l, MemSpace::GLOBAL, DataType::U64, record, sxbin::kRecordStream, Operand::val(stream));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordSequence, Operand::val(sequence));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordCta, Operand::val(cta));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordState, Operand::immediate(1));
  end_if(l, published);
  end_if(l, checked);

  error = l.ssa_.read(result, l.cur_, DataType::U32);
  int failed =
      compare(l, DataType::U32, isa::CmpOp::NE, Operand::val(error), Operand::immediate(0));
  set_last_error_if(l, failed, error);
  return error;
}

// Stores a fresh device stream/event handle at generic address `out`.
void store_new_handle(Lowerer& l, int out) {
  int n = atomic_add(l, DataType::U32, queue_va(l), sxbin::kQueueNextStream, Operand::immediate(1));
  int handle = l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                        {Operand::val(l.widen(n, /*is_signed=*/false)),
                         Operand::immediate(sxbin::kFirstNamedStream)});
  Inst st;
  st.op = Op::kIsa;
  st.isa_op = Opcode::ST;
  st.space = MemSpace::GENERIC;
  st.sem = isa::MemSem::WEAK;
  st.scope = isa::MemScope::CTA;
  st.type = DataType::U64;
  st.srcs = {Operand::val(out), Operand::val(handle)};
  l.emit(std::move(st));
}

// cudaMemcpyAsync / cudaMemsetAsync from the device: a copy or fill record (kind), run
// by the command processor in stream order like a launch. Returns the cudaError_t.
int copy_record(Lowerer& l, uint32_t kind, int dst, int src, int bytes, int stream) {
  int record_bytes = 0;
  int record = reserve_record(l, l.constant(DataType::U32, 24), &record_bytes);
  const std::string result = fmt::format("cdp:copy_error{}", record);
  l.ssa_.write(result, l.cur_, l.constant(DataType::U32, kCudaErrorLaunchPendingCountExceeded));
  int reserved =
      compare(l, DataType::U64, isa::CmpOp::NE, Operand::val(record), Operand::immediate(0));
  int join = begin_if(l, reserved);
  for (uint32_t k = 0; k < 3; ++k) {
    emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordGrid + 4 * k, Operand::immediate(1));
    emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordBlock + 4 * k, Operand::immediate(1));
  }
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordDynamicShared, Operand::immediate(0));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordBytes, Operand::val(record_bytes));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordState, Operand::immediate(0));
  emit::store(l, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordKind, Operand::immediate(kind));
  emit::store(l, MemSpace::GLOBAL, DataType::U64, record, sxbin::kRecordHeaderBytes + 0, Operand::val(dst));
  emit::store(l, MemSpace::GLOBAL, DataType::U64, record, sxbin::kRecordHeaderBytes + 8, Operand::val(src));
  emit::store(l, MemSpace::GLOBAL, DataType::U64, record, sxbin::kRecordHeaderBytes + 16, Operand::val(bytes));
  int buffer = l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                        {Operand::val(record), Operand::immediate(sxbin::kRecordHeaderBytes)});
  l.ssa_.write(result, l.cur_, publish(l, buffer, stream));
  end_if(l, join);
  return l.ssa_.read(result, l.cur_, DataType::U32);
}

}  // namespace

bool Lowerer::is_device_launch_call(const std::string& name) {
  return name.starts_with("__cudaCDP2");
}

Status Lowerer::lower_device_launch_call(const ptx::Instruction& in, const std::string& name) {
  if (name == "__cudaCDP2GetParameterBufferV2") {
    // (void* func, dim3 grid, dim3 block, unsigned shared) -> void*
    ASSIGN_OR_RETURN(int func, argument(*this, in, 0, 0, DataType::U64));
    int param_bytes = emit::load(*this, MemSpace::GLOBAL, DataType::U32, func, sxbin::kDescParamBytes);
    int record_bytes = 0;
    int record = reserve_record(*this, param_bytes, &record_bytes);
    int reserved =
        compare(*this, DataType::U64, isa::CmpOp::NE, Operand::val(record), Operand::immediate(0));
    int join = begin_if(*this, reserved);
    RETURN_IF_ERROR(write_config(*this, in, record, func, 1, 2, 3));
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordBytes, Operand::val(record_bytes));
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordState, Operand::immediate(0));
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordKind, Operand::immediate(0));
    end_if(*this, join);
    int buffer = isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                        {Operand::val(record), Operand::immediate(sxbin::kRecordHeaderBytes)});
    return set_result(
        *this, in,
        select(*this, DataType::U64, Operand::val(buffer), Operand::immediate(0), reserved));
  }
  if (name == "__cudaCDP2GetParameterBuffer") {
    // (size_t alignment, size_t size) -> void*; the configuration comes with the launch.
    ASSIGN_OR_RETURN(int size, argument(*this, in, 1, 0, DataType::U64));
    int record_bytes = 0;
    int record = reserve_record(*this, low32(size), &record_bytes);
    int reserved =
        compare(*this, DataType::U64, isa::CmpOp::NE, Operand::val(record), Operand::immediate(0));
    int join = begin_if(*this, reserved);
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordBytes, Operand::val(record_bytes));
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordState, Operand::immediate(0));
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, record, sxbin::kRecordKind, Operand::immediate(0));
    end_if(*this, join);
    int buffer = isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                        {Operand::val(record), Operand::immediate(sxbin::kRecordHeaderBytes)});
    return set_result(
        *this, in,
        select(*this, DataType::U64, Operand::val(buffer), Operand::immediate(0), reserved));
  }
  if (name == "__cudaCDP2LaunchDeviceV2" || name == "__cudaCDP2LaunchDeviceV2_ptsz") {
    // (void* buffer, cudaStream_t stream) -> cudaError_t
    ASSIGN_OR_RETURN(int buffer, argument(*this, in, 0, 0, DataType::U64));
    ASSIGN_OR_RETURN(int stream, argument(*this, in, 1, 0, DataType::U64));
    return set_result(*this, in, publish(*this, buffer, stream));
  }
  if (name == "__cudaCDP2LaunchDevice" || name == "__cudaCDP2LaunchDevice_ptsz") {
    // (void* func, void* buffer, dim3 grid, dim3 block, unsigned shared, cudaStream_t)
    ASSIGN_OR_RETURN(int func, argument(*this, in, 0, 0, DataType::U64));
    ASSIGN_OR_RETURN(int buffer, argument(*this, in, 1, 0, DataType::U64));
    ASSIGN_OR_RETURN(int stream, argument(*this, in, 5, 0, DataType::U64));
    int record = isa_op(Opcode::ISUB, DataType::U64, DataType::U64,
                        {Operand::val(buffer), Operand::immediate(sxbin::kRecordHeaderBytes)});
    RETURN_IF_ERROR(write_config(*this, in, record, func, 2, 3, 4));
    return set_result(*this, in, publish(*this, buffer, stream));
  }
  if (name == "__cudaCDP2StreamCreateWithFlags") {
    // (cudaStream_t* stream, unsigned flags): every device stream is non-blocking.
    ASSIGN_OR_RETURN(int out, argument(*this, in, 0, 0, DataType::U64));
    store_new_handle(*this, out);
    return set_result(*this, in, constant(DataType::U32, kCudaSuccess));
  }
  if (name == "__cudaCDP2MemcpyAsync" || name == "__cudaCDP2MemcpyAsync_ptsz") {
    // (void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t)
    ASSIGN_OR_RETURN(int dst, argument(*this, in, 0, 0, DataType::U64));
    ASSIGN_OR_RETURN(int src, argument(*this, in, 1, 0, DataType::U64));
    ASSIGN_OR_RETURN(int count, argument(*this, in, 2, 0, DataType::U64));
    ASSIGN_OR_RETURN(int stream, argument(*this, in, 4, 0, DataType::U64));
    return set_result(*this, in,
                      copy_record(*this, sxbin::kRecordKindCopy, dst, src, count, stream));
  }
  if (name == "__cudaCDP2MemsetAsync" || name == "__cudaCDP2MemsetAsync_ptsz") {
    // (void* ptr, int value, size_t count, cudaStream_t)
    ASSIGN_OR_RETURN(int dst, argument(*this, in, 0, 0, DataType::U64));
    ASSIGN_OR_RETURN(int value, argument(*this, in, 1, 0, DataType::U32));
    ASSIGN_OR_RETURN(int count, argument(*this, in, 2, 0, DataType::U64));
    ASSIGN_OR_RETURN(int stream, argument(*this, in, 3, 0, DataType::U64));
    return set_result(*this, in,
                      copy_record(*this, sxbin::kRecordKindFill, dst,
                                  widen(value, /*is_signed=*/false), count, stream));
  }
  if (name == "__cudaCDP2EventCreateWithFlags") {
    // (cudaEvent_t* event, unsigned flags): a fresh handle from the stream counter.
    ASSIGN_OR_RETURN(int out, argument(*this, in, 0, 0, DataType::U64));
    store_new_handle(*this, out);
    return set_result(*this, in, constant(DataType::U32, kCudaSuccess));
  }
  if (name == "__cudaCDP2EventRecord" || name == "__cudaCDP2EventRecord_ptsz" ||
      name == "__cudaCDP2EventRecordWithFlags" || name == "__cudaCDP2EventRecordWithFlags_ptsz" ||
      name == "__cudaCDP2StreamWaitEvent" || name == "__cudaCDP2StreamWaitEvent_ptsz" ||
      name == "__cudaCDP2EventDestroy") {
    // The command processor runs a grid's launches (other than tail launches) in launch
    // order, each with its descendants: every wait is on work launched before it, which
    // has completed by then. So events need no state.
    return set_result(*this, in, constant(DataType::U32, kCudaSuccess));
  }
  if (name == "__cudaCDP2StreamDestroy") {
    // Work already launched into the stream still runs (CUDA's documented behaviour).
    return set_result(*this, in, constant(DataType::U32, kCudaSuccess));
  }
  if (name == "__cudaCDP2GetLastError" || name == "__cudaCDP2PeekAtLastError") {
    int last = ssa_.read(kLastError, cur_, DataType::U32);
    if (name == "__cudaCDP2GetLastError")
      ssa_.write(kLastError, cur_, constant(DataType::U32, kCudaSuccess));
    return set_result(*this, in, copy(last));
  }
  return unsupported(in.loc, fmt::format("call to {}: this CUDA device runtime function is not "
                                         "supported (dynamic parallelism supports kernel "
                                         "launches, streams, events, cudaMemcpyAsync, "
                                         "cudaMemsetAsync and cudaGetLastError)",
                                         name));
}

}  // namespace strata::compiler::ir
