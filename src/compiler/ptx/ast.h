// The PTX abstract syntax tree produced by the parser (compiler/ptx/parser.h).
//
// The AST is syntactic: an instruction keeps its opcode and its dot-modifiers as
// written ("ld" + {"global", "v4", "f32"}), operands keep their shape. Semantic
// checking and lowering happen in compiler/ir. Every node carries the source location
// of its first token so later stages can report "file:line:col: message".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace strata::ptx {

struct SourceLoc {
  int line = 0;  // 1-based; 0 = unknown
  int col = 0;   // 1-based
};

// PTX-level types and state spaces, as written (".u32" -> "u32", ".shared" -> "shared").
using TypeName = std::string;

// ---- operands ----
struct RegOperand {      // %r1, %rd12, %p3, %tid.x (special registers too: name holds "%tid", component 'x')
  std::string name;      // "%r1", "%tid"
  char component = 0;    // 'x','y','z','w' for %tid.x-style and .x of vector regs, else 0
  std::string selector;  // video-instruction sub-word selector without the dot ("b0", "h1", "b3210", "h10"), else ""
};
struct ImmInt {          // 42, -1, 0xff, 0777, 0b101; `unsigned_suffix` for 42U
  int64_t value = 0;
  bool unsigned_suffix = false;
};
struct ImmFloat {        // 0f3F800000 (f32 bits), 0d3FF0000000000000 (f64 bits), 1.5 (decimal: f64)
  uint64_t bits = 0;
  bool is_f32 = false;   // 0fXXXXXXXX form
};
struct SymbolOperand {   // a label, variable or function name, optionally +offset
  std::string name;
  int64_t offset = 0;
  // Initializers only: generic(sym)+off (a generic address rather than one in the
  // symbol's own state space), and the byte-mask form 0xFF00(generic(sym)+off), whose
  // value is (address & mask) >> ctz(mask). mask == 0: the whole address.
  bool generic = false;
  uint64_t mask = 0;
};
struct VectorOperand;    // {%f1, %f2, %f3, %f4}; elements may be "_" (sink)
struct AddressOperand {  // [%rd1], [%rd1+16], [sym], [sym+8], [0x1000], [%r1+-4]
  std::string base;      // register or symbol name; empty for an absolute address
  bool base_is_reg = false;
  int64_t offset = 0;    // for an absolute address [imm]: the address itself
  // Texture/surface addresses: [tex, {c0, c1}] and [tex, sampler, {c0, c1}].
  std::string sampler;                   // empty unless written
  std::shared_ptr<VectorOperand> coords; // null unless written
};
struct SinkOperand {};   // "_"

using Operand = std::variant<RegOperand, ImmInt, ImmFloat, SymbolOperand, AddressOperand,
                             std::shared_ptr<VectorOperand>, SinkOperand>;
struct VectorOperand {
  std::vector<Operand> elements;
};

// One operand as written; `negated` for !%p1 (predicate operands of selp/setp/and.pred...)
// `pred_or` for the second destination of setp written as %p1|%p2.
struct OperandSlot {
  Operand value;
  bool negated = false;
  SourceLoc loc;
  bool minus = false;  // "-%r1": an arithmetically negated register (vmad's sources)
};

// ---- statements ----
struct Instruction {
  SourceLoc loc;
  std::string guard;            // "%p1" for @%p1 / @!%p1, empty if unguarded
  bool guard_negated = false;
  std::string opcode;           // "ld", "mad", "setp", ...
  std::vector<std::string> modifiers;  // without dots, in order: {"global","nc","v4","f32"}
  std::vector<OperandSlot> operands;   // destination first, as written; setp's p|q split into two slots, the second flagged below
  bool has_pred_pair = false;   // setp/… with "p|q" destination
  // call[.uni] (r0, r1), func, (a0, a1)[, targets]: operands are exactly
  //   [0] VectorOperand of the return params (empty vector if none written)
  //   [1] SymbolOperand callee (or RegOperand for an indirect call)
  //   [2] VectorOperand of the arguments (empty vector if none written)
  //   [3] optional SymbolOperand: prototype label or jump-table of an indirect call
};

struct Label {
  SourceLoc loc;
  std::string name;
};

// A variable declaration: .reg/.shared/.local/.const/.global/.param
struct VarDecl {
  SourceLoc loc;
  std::string space;            // "reg", "shared", "local", "const", "global", "param", "tex"
  TypeName type;                // "u32", "b8", "f64", "pred", ...
  int vector_width = 1;         // .v2/.v4
  int align = 0;                // .align N (0: natural)
  std::string name;             // "%r", "smem", "gvar"
  int reg_range = -1;           // %r<10> -> 10 (declares %r0..%r9); -1 if not a range
  std::vector<int64_t> dims;    // array dimensions; 0 for an unsized [] dimension
  bool is_extern = false, is_visible = false, is_weak = false;
  bool is_ptr = false;          // .param .ptr ... (kernel params)
  std::string ptr_space;        // .ptr.global -> "global"
  int ptr_align = 0;
  // Initializer, flattened: each element is an ImmInt, ImmFloat or SymbolOperand
  // (address of a variable/function, possibly generic(sym)+off).
  std::vector<Operand> init;
  bool has_init = false;
  bool is_common = false;       // .common linkage
  std::vector<std::string> attributes;  // .attribute(.managed) -> {"managed"}
};

// .loc file line col — debug line information for the instructions that follow.
struct LocDirective {
  SourceLoc loc;
  int file = 0, line = 0, col = 0;
  // -lineinfo inlining: `.loc 1 5 3, function_name $L__info_string0, inlined_at 1 9 3`
  std::string function_name;    // label of the inlined function's name string, or empty
  int inlined_file = 0, inlined_line = 0, inlined_col = 0;  // 0: not inlined
};

struct Pragma {
  SourceLoc loc;
  std::string text;             // "nounroll"
};

// `{ ... }` nested scope inside a function body.
struct Block;
using Statement =
    std::variant<Instruction, Label, VarDecl, Pragma, LocDirective, std::shared_ptr<Block>>;
struct Block {
  SourceLoc loc;
  std::vector<Statement> statements;
};

// Performance directives of an entry: .maxntid, .reqntid, .minnctapersm, .maxnreg, ...
struct Directive {
  SourceLoc loc;
  std::string name;             // "maxntid"
  std::vector<int64_t> values;
};

// A call prototype declared in a body: `name: .callprototype (.param .b32 _) _ (...);`
// Parameter names are "_" when unnamed.
struct CallPrototype {
  SourceLoc loc;
  std::string name;
  std::vector<VarDecl> return_params;
  std::vector<VarDecl> params;
  bool noreturn = false;
};

// `name: .branchtargets L1, L2;` / `name: .calltargets f1, f2;` in a body.
struct TargetList {
  SourceLoc loc;
  std::string name;
  bool is_call = false;         // .calltargets
  std::vector<std::string> targets;
};

struct Function {
  SourceLoc loc;
  std::string name;
  bool is_entry = false;        // .entry (kernel) vs .func
  bool is_extern = false, is_visible = false, is_weak = false;
  std::vector<VarDecl> return_params;  // .func (.param .b32 ret) name(...)
  std::vector<VarDecl> params;
  std::vector<Directive> directives;
  bool has_body = false;        // false for prototypes / .extern declarations
  Block body;
  bool is_common = false;       // .common linkage (never on .entry)
  bool noreturn = false;        // .noreturn (also listed in `directives`)
  std::vector<Pragma> pragmas;  // .pragma between the header and the body
  std::vector<CallPrototype> prototypes;  // every .callprototype in the body, in order
  std::vector<TargetList> target_lists;   // every .branchtargets/.calltargets in the body
};

struct FileDirective {          // .file 1 "a.cu"
  int index = 0;
  std::string path;
};

struct Module {
  std::string source_name;      // name for diagnostics
  int version_major = 0, version_minor = 0;   // .version
  std::vector<std::string> target;            // .target sm_80, debug, ...
  int address_size = 64;
  std::vector<VarDecl> globals;               // module-scope variables
  std::vector<Function> functions;            // entries and funcs, in order
  std::vector<FileDirective> files;
  std::vector<Pragma> pragmas;                // module-scope .pragma
};

}  // namespace strata::ptx
