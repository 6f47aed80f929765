// AMD AGS shader intrinsics (ags_shader_intrinsics_dx12.hlsl): WMMA on SPV_KHR_cooperative_matrix
// and float8 conversions on SPV_EXT_float8.
//
// The encoding. An intrinsic is an InterlockedCompareExchange on the UAV in register space
// 0x7FFF0ADE (2147420894), DXIL's atomicCompareExchange(handle, code, undef, undef, arg0, arg1),
// whose constant "address" is the instruction word and whose return value is the result:
//   code = 5 << 28 | phase << 24 | data << 8 | opcode   (phase 0..2, data 16 bits, opcode 8 bits)
// A WMMA matrix lives in the program as 8 32-bit registers per lane. Operand phases pass them two
// at a time: data = channel | secondReg << 4 | regType << 8 gives registers secondReg*4 +
// channel*2 and +1 (regType 1 A, 2 B, 3 accumulator for WaveMatrixMulAcc and the two operands
// of MatrixElementWiseArithmetic, 0 otherwise); result phases read one each: data = channel |
// secondReg << 4 gives register secondReg*4 + channel. Matrix properties are data = format |
// use << 4 | colMajor << 7 | shape << 8 (formats: 4 F16, 6 F32, 9 BF8, 10 FP8, ...; uses: 0 A,
// 1 B, 2 accumulator; shape 0 is 16x16). The opcodes and their phases:
//   0x28 WaveMatrixMulAcc     0: operands A, B, C; 1: data = WMMA opcode (| 1 << 15: sparse);
//                             2: result
//   0x29 WaveMatrixUavLoad    0: (byte offset, byte stride) -> an address that the program
//                             loads from the buffer (the load names the buffer); 1: data =
//                             properties, arg0 = that load's value; 2: result
//   0x2a WaveMatrixUavStore   0: as for the load; 1: operand; 2: data = properties, arg0 = load
//   0x2d/0x2e WaveMatrixLds*  as 0x29/0x2a, offset and stride in elements of the groupshared
//                             array, the address read by an atomic add of 0 on array[address]
//   0x2f WaveMatrixElementFill    0: operand; 1: data = properties, (index, value); 2: result
//   0x30 WaveMatrixElementExtract 0: operand; 1: data = properties, arg0 = index -> element
//   0x31 WaveMatrixLength     0: data = properties -> elements per lane
//   0x32 WaveMatrixCopy       0: operand; 1: data = source properties, (destination
//                             properties, saturate); 2: result
//   0x33 WaveMatrixFill       0: data = properties, arg0 = value bits; 1: result
//   0x35 MatrixElementWiseArithmetic 0: operands 1, 2; 1: data = properties, arg0 = 1 add,
//                             2 sub, 3 mul, 4 div, 5 times; 2: result
//   0x36 Float8Conversion     0: data = op | saturate << 8 (0 FP8->F32, 1 BF8->F32, 2 F32->FP8,
//                             3 F32->BF8), arg0 = the value's bits -> the result's bits
//
// The translation. A matrix operation packs its operand registers into a cooperative matrix
// (Subgroup scope, 16x16) and unpacks its result into registers: element i of the lane's part
// of the matrix is bits [i*w % 32, +w) of register i*w / 32 (w the element width), 8 elements
// per lane for a 16x16 matrix on a wave of 32 lanes (AGS WMMA is wave32: an entry whose
// WaveSize excludes 32 is refused). Registers that come straight from unpacking a matrix of the
// same type are packed back as that matrix, so a load, a multiply-add and a store chain matrices
// directly. Element extract/fill work on the registers. Buffers are read through an 8-bit view
// of the storage buffer (the buffers WMMA reads are storage buffers in every binding model);
// groupshared arrays through their elements, with a subgroup barrier after a store and before a
// load; the program's reads at the returned addresses are not emitted. B matrices' layout bit is
// the opposite of SPIR-V's (row major in AGS's memory order is column major for B). A copy to
// another use goes through workgroup memory. The magic UAV is not declared; any use of it other
// than these sequences fails, as does anything unmapped. docs/layers/translate.md has the rest.
#include "Translator.h"

#include "spire/dxil/DxilOps.h"

#include <algorithm>

namespace spire::translate {

using dxil::DxOp;

namespace {

enum AgsOpcode : uint32_t {
  kMulAcc = 0x28,
  kUavLoad = 0x29,
  kUavStore = 0x2a,
  kLdsLoad = 0x2d,
  kLdsStore = 0x2e,
  kElementFill = 0x2f,
  kElementExtract = 0x30,
  kLength = 0x31,
  kCopy = 0x32,
  kFill = 0x33,
  kElementWise = 0x35,
  kFloat8Conversion = 0x36,
};

std::string agsOpcodeName(uint32_t opcode) {
  switch (opcode) {
  case kMulAcc:
    return "WaveMatrixMulAcc";
  case kUavLoad:
    return "WaveMatrixUavLoad";
  case kUavStore:
    return "WaveMatrixUavStore";
  case 0x2b:
    return "WaveMatrixGlobalLoad";
  case 0x2c:
    return "WaveMatrixGlobalStore";
  case kLdsLoad:
    return "WaveMatrixLdsLoad";
  case kLdsStore:
    return "WaveMatrixLdsStore";
  case kElementFill:
    return "WaveMatrixElementFill";
  case kElementExtract:
    return "WaveMatrixElementExtract";
  case kLength:
    return "WaveMatrixLength";
  case kCopy:
    return "WaveMatrixCopy";
  case kFill:
    return "WaveMatrixFill";
  case 0x34:
    return "MatrixSparsityIndexLoad";
  case kElementWise:
    return "MatrixElementWiseArithmetic";
  case kFloat8Conversion:
    return "Float8Conversion";
  default:
    return "opcode " + std::to_string(opcode);
  }
}

enum AgsFormat : uint32_t { kF16 = 4, kBF16 = 5, kF32 = 6, kBF8 = 9, kFP8 = 10 };

/// Matrix properties (data of the property phases).
struct Props {
  uint32_t format = 0, use = 0, colMajor = 0, shape = 0;
};
Props decodeProps(uint32_t data) {
  return {data & 0xF, (data >> 4) & 0x7, (data >> 7) & 1, (data >> 8) & 0x7};
}

constexpr uint32_t kLaneElements = 8; // 16x16 elements over 32 lanes

} // namespace

bool Translator::isAgsHandle(dxil::ValueId v) const { return ags_.handles.count(v) != 0; }

void Translator::findAgsHandles() {
  std::set<uint32_t> ranges; // UAV range ids in the AGS space
  for (const dxil::ResourceLists *lists : {&dx_.resources, &entry_.resources})
    for (const dxil::DxilResource &r : lists->uavs)
      if (r.space == kAgsRegisterSpace)
        ranges.insert(r.id);
  if (ranges.empty())
    return;
  // Handles are made before they are annotated; two passes cover any order.
  for (int pass = 0; pass < 2; ++pass)
    for (const dxil::DxilOpCall &call : dx_.opCalls) {
      const dxil::Instruction &inst = llvm().instructions[call.instruction];
      if (inst.value == dxil::kNoId)
        continue;
      auto args = dx_.opArguments(call);
      int64_t fields[4] = {0, 0, 0, 0};
      bool ags = false;
      switch (DxOp(call.op->opcode)) {
      case DxOp::CreateHandle:
        ags = args.size() >= 2 && constantInt(args[0], fields[0]) && fields[0] == 1 &&
              constantInt(args[1], fields[1]) && ranges.count(uint32_t(fields[1]));
        break;
      case DxOp::CreateHandleFromBinding: {
        const dxil::Constant *bind = args.empty() ? nullptr : llvm().constant(args[0]);
        if (bind && bind->kind == dxil::ConstantKind::Aggregate) {
          auto parts = llvm().operandsOf(*bind);
          ags = parts.size() >= 4 && constantInt(parts[2], fields[2]) &&
                constantInt(parts[3], fields[3]) && uint32_t(fields[2]) == kAgsRegisterSpace &&
                fields[3] == 1;
        }
        break;
      }
      case DxOp::AnnotateHandle:
        ags = !args.empty() && isAgsHandle(args[0]);
        break;
      default:
        break;
      }
      if (ags)
        ags_.handles.insert(inst.value);
    }
  // The buffers WMMA loads and stores read: the program's load at a UavLoad/UavStore address.
  for (const dxil::DxilOpCall &call : dx_.opCalls) {
    const DxOp op = DxOp(call.op->opcode);
    auto args = dx_.opArguments(call);
    if ((op != DxOp::RawBufferLoad && op != DxOp::BufferLoad) || args.size() < 2)
      continue;
    const dxil::Value *address = args[1] < llvm().values.size() ? &llvm().values[args[1]] : nullptr;
    const dxil::DxilOpCall *bell = address && address->kind == dxil::ValueKind::Instruction
                                       ? dx_.opCallAt(address->index)
                                       : nullptr;
    auto bellArgs = bell ? dx_.opArguments(*bell) : std::span<const dxil::ValueId>();
    int64_t code = 0;
    if (!bell || DxOp(bell->op->opcode) != DxOp::AtomicCompareExchange || bellArgs.size() < 2 ||
        !isAgsHandle(bellArgs[0]) || !constantInt(bellArgs[1], code) ||
        ((code & 0xFF) != kUavLoad && (code & 0xFF) != kUavStore))
      continue;
    if (const std::optional<std::pair<uint32_t, uint32_t>> r = handleOrigin(args[0]).resource)
      storageBufferResources_.insert(*r);
  }
}

uint32_t Translator::agsElementType(uint32_t format) {
  switch (format) {
  case kF16:
    return typeFloat(16);
  case kF32:
    return typeFloat(32);
  case kFP8:
  case kBF8:
    capability(Capability::Float8EXT);
    extension("SPV_EXT_float8");
    return typeUniqued(Op::TypeFloat,
                       {8, uint32_t(format == kFP8 ? grammar::FPEncoding::Float8E4M3EXT
                                                   : grammar::FPEncoding::Float8E5M2EXT)});
  default:
    return fail("unsupported: AMD AGS WMMA matrices of element format " + std::to_string(format) +
                " (only F16, F32, FP8 and BF8 are translated)");
  }
}

uint32_t Translator::agsMatrixType(uint32_t format, uint32_t use, uint32_t shape) {
  if (shape != 0)
    return fail("unsupported: AMD AGS WMMA matrix shape " + std::to_string(shape) +
                " (only 16x16 is translated)");
  if (use > 2)
    return fail("unsupported: AMD AGS WMMA matrix type " + std::to_string(use));
  // AGS WMMA runs on 32-lane waves (without a WaveSize, the pipeline must ask for 32).
  const std::optional<dxil::WaveSize> &wave = entry_.properties.waveSize;
  if (wave && (wave->min > 32 || (wave->max ? wave->max : wave->min) < 32))
    return fail("unsupported: AMD AGS WMMA in an entry point whose WaveSize excludes 32 (its "
                "registers hold 8 elements of a 16x16 matrix per lane of a 32-lane wave)");
  const uint32_t element = agsElementType(format);
  if (!element)
    return 0;
  capability(Capability::CooperativeMatrixKHR);
  extension("SPV_KHR_cooperative_matrix");
  if (format == kFP8 || format == kBF8)
    capability(Capability::Float8CooperativeMatrixEXT);
  const uint32_t scope = constU32(uint32_t(grammar::Scope::Subgroup)), sixteen = constU32(16),
                 useId = constU32(use);
  return typeUniqued(Op::TypeCooperativeMatrixKHR, {element, scope, sixteen, sixteen, useId});
}

/// The registers of a lane's part of `matrix` (of `type`, elements of `format`).
void Translator::agsUnpack(uint32_t matrix, uint32_t type, uint32_t format,
                           AgsState::Registers &out) {
  const uint32_t u32 = typeInt(32);
  const uint32_t element = agsElementType(format);
  const uint32_t bits = scalarWidth(element);
  const uint32_t perRegister = 32 / bits;
  for (uint32_t r = 0; r < 8; ++r) {
    if (r * perRegister >= kLaneElements) {
      out[r] = constU32(0);
      continue;
    }
    uint32_t word = 0;
    if (bits == 16) {
      const uint32_t pair = typeVector(element, 2);
      word = bitcast(u32, emit(Op::CompositeConstruct, pair,
                               {emit(Op::CompositeExtract, element, {matrix, 2 * r}),
                                emit(Op::CompositeExtract, element, {matrix, 2 * r + 1})}));
    } else {
      for (uint32_t j = 0; j < perRegister; ++j) {
        uint32_t part =
            toU32(emit(Op::CompositeExtract, element, {matrix, r * perRegister + j}), element);
        if (j)
          part = emit(Op::ShiftLeftLogical, u32, {part, constU32(j * bits)});
        word = j ? emit(Op::BitwiseOr, u32, {word, part}) : part;
      }
    }
    out[r] = word;
    ags_.sources[word] = {matrix, type, r};
  }
}

/// Whether the first `used` registers of a matrix operand were given (fails naming `what`).
bool Translator::agsRegistersGiven(const AgsState::Registers &regs, uint32_t used,
                                   const std::string &what) {
  for (uint32_t r = 0; r < used; ++r)
    if (!regs[r])
      return fail("unsupported: AMD AGS " + what + " without its matrix register " +
                  std::to_string(r)) != 0;
  return true;
}

/// The cooperative matrix of `type` whose lane part is held in `regs`.
uint32_t Translator::agsPack(const AgsState::Registers &regs, uint32_t type, uint32_t format,
                             const std::string &what) {
  const uint32_t element = agsElementType(format);
  if (!element)
    return 0;
  const uint32_t bits = scalarWidth(element);
  const uint32_t perRegister = 32 / bits;
  const uint32_t used = kLaneElements / perRegister;
  if (!agsRegistersGiven(regs, used, what))
    return 0;
  // The registers of one unpacked matrix of this type: that matrix.
  auto first = ags_.sources.find(regs[0]);
  if (first != ags_.sources.end() && first->second.type == type) {
    bool same = true;
    for (uint32_t r = 0; r < used && same; ++r) {
      auto it = ags_.sources.find(regs[r]);
      same = it != ags_.sources.end() && it->second.matrix == first->second.matrix &&
             it->second.type == type && it->second.index == r;
    }
    if (same)
      return first->second.matrix;
  }
  const uint32_t u32 = typeInt(32);
  uint32_t matrix = undef(type);
  for (uint32_t r = 0; r < used; ++r) {
    if (bits == 16) {
      const uint32_t pair = bitcast(typeVector(element, 2), regs[r]);
      for (uint32_t j = 0; j < 2; ++j)
        matrix = emit(Op::CompositeInsert, type,
                      {emit(Op::CompositeExtract, element, {pair, j}), matrix, 2 * r + j});
      continue;
    }
    for (uint32_t j = 0; j < perRegister; ++j) {
      const uint32_t word =
          j ? emit(Op::ShiftRightLogical, u32, {regs[r], constU32(j * bits)}) : regs[r];
      matrix =
          emit(Op::CompositeInsert, type, {fromU32(element, word), matrix, r * perRegister + j});
    }
  }
  return matrix;
}

/// `matrix` as a matrix of type `to` (another use) with the same elements: stored row-major to
/// the subgroup's part of a workgroup scratch array and loaded back (SPV_KHR_cooperative_matrix
/// has no conversion between uses).
uint32_t Translator::agsChangeUse(uint32_t matrix, uint32_t to, uint32_t format) {
  const uint32_t u32 = typeInt(32);
  const uint32_t wordsPerMatrix = 16 * 16; // enough for 32-bit elements
  const std::array<uint32_t, 3> threads =
      entry_.properties.numThreads.value_or(std::array<uint32_t, 3>{32, 1, 1});
  const uint64_t invocations = uint64_t(threads[0]) * threads[1] * threads[2];
  const uint32_t subgroups = uint32_t(std::max<uint64_t>(1, (invocations + 31) / 32));
  if (!ags_.scratch) {
    if (uint64_t(subgroups) * wordsPerMatrix * 4 > 65536)
      return fail("unsupported: AMD AGS WaveMatrixCopy between matrix types in a workgroup too "
                  "large for its scratch memory");
    ags_.scratch =
        globalVariable(typeArray(u32, subgroups * wordsPerMatrix), StorageClass::Workgroup);
    name(ags_.scratch, "ags.scratch");
  }
  uint32_t first = constU32(0);
  if (subgroups > 1) {
    capability(Capability::GroupNonUniform);
    first = emit(
        Op::IMul, u32,
        {emit(Op::Load, u32, {builtinInput(BuiltIn::SubgroupId, u32)}), constU32(wordsPerMatrix)});
  }
  const uint32_t pointer =
      emit(Op::AccessChain, typePointer(StorageClass::Workgroup, u32), {ags_.scratch, first});
  const uint32_t element = agsElementType(format);
  const uint32_t stride = constU32(16 * scalarWidth(element) / 32); // a row, in words
  const uint32_t rowMajor = constU32(uint32_t(grammar::CooperativeMatrixLayout::RowMajorKHR));
  const uint32_t nonPrivate = uint32_t(grammar::MemoryAccess::NonPrivatePointer);
  const uint32_t subgroup = constU32(uint32_t(grammar::Scope::Subgroup));
  const uint32_t semantics = constU32(uint32_t(grammar::MemorySemantics::AcquireRelease) |
                                      uint32_t(grammar::MemorySemantics::WorkgroupMemory));
  emitVoid(Op::ControlBarrier, {subgroup, subgroup, semantics}); // earlier reads are done
  emitVoid(Op::CooperativeMatrixStoreKHR, {pointer, matrix, rowMajor, stride, nonPrivate});
  emitVoid(Op::ControlBarrier, {subgroup, subgroup, semantics});
  return emit(Op::CooperativeMatrixLoadKHR, to, {pointer, rowMajor, stride, nonPrivate});
}

bool Translator::translateAgsAddressRead(const dxil::Instruction &inst) {
  // atomicrmw add (array[address], 0), address from an AGS groupshared address phase: it names
  // the groupshared element; translated, it would race with the matrix access.
  const dxil::LlvmModule &m = llvm();
  auto ops = m.operandsOf(inst);
  if (ags_.doorbells.empty() || inst.opcode != dxil::Opcode::AtomicRMW || ops.empty() ||
      inst.value == dxil::kNoId || ops[0] >= m.values.size())
    return false;
  std::span<const dxil::ValueId> gep;
  const dxil::Value &pointer = m.values[ops[0]];
  if (pointer.kind == dxil::ValueKind::Instruction &&
      m.instructions[pointer.index].opcode == dxil::Opcode::GetElementPtr)
    gep = m.operandsOf(m.instructions[pointer.index]);
  else if (const dxil::Constant *c = m.constant(ops[0]);
           c && c->kind == dxil::ConstantKind::Expr && c->opcode == dxil::Opcode::GetElementPtr)
    gep = m.operandsOf(*c);
  if (gep.size() < 2 || !ags_.doorbells.count(gep.back()))
    return false;
  setValue(inst.value, undef(llvmType(inst.type)));
  return true;
}

bool Translator::translateAgsOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                std::span<const dxil::ValueId> args, bool &handled) {
  handled = false;
  if (ags_.handles.empty()) // a program without the magic UAV: nothing here for any call
    return true;
  const DxOp op = DxOp(call.op->opcode);
  if (op == DxOp::CreateHandle || op == DxOp::CreateHandleFromBinding ||
      op == DxOp::AnnotateHandle) {
    handled = inst.value != dxil::kNoId && isAgsHandle(inst.value);
    return true; // the magic UAV is no descriptor: nothing to emit
  }
  // The program's read at an address an AGS address phase returned only names the memory (the
  // buffer): no load.
  if ((op == DxOp::RawBufferLoad || op == DxOp::BufferLoad) && args.size() >= 2 &&
      ags_.doorbells.count(args[1]) && inst.value != dxil::kNoId) {
    handled = true;
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < llvm().elements(inst.type).size(); ++i)
      parts.push_back(undef(memberType(inst.type, i)));
    setAggregate(inst.value, std::move(parts));
    return !failed_;
  }
  bool usesAgs = false;
  for (dxil::ValueId a : args)
    usesAgs = usesAgs || isAgsHandle(a);
  if (!usesAgs)
    return true;
  handled = true;
  if (op != DxOp::AtomicCompareExchange)
    return fail("unsupported: the AMD AGS intrinsics UAV (register space 2147420894) used by " +
                std::string(call.op->name) +
                ": only its atomicCompareExchange carries driver intrinsics");
  if (args.size() < 6 || inst.value == dxil::kNoId)
    return fail("an AMD AGS intrinsic (atomicCompareExchange) without its operands");
  int64_t code = 0;
  if (!constantInt(args[1], code))
    return fail("unsupported: an AMD AGS intrinsic whose instruction word is not a constant");
  const uint32_t word = uint32_t(code);
  if (word >> 28 != 5)
    return fail("unsupported: an atomicCompareExchange on the AMD AGS UAV whose instruction "
                "word " +
                std::to_string(word) + " has no AGS magic code");
  const uint32_t opcode = word & 0xFF, phase = (word >> 24) & 3, data = (word >> 8) & 0xFFFF;
  const std::string name = agsOpcodeName(opcode);
  const dxil::ValueId arg0 = args[4], arg1 = args[5];
  const uint32_t u32 = typeInt(32);
  auto result = [&](uint32_t id) {
    if (id)
      setValue(inst.value, id);
    return !failed_;
  };
  auto constant = [&](dxil::ValueId v, int64_t &out, const char *what) {
    if (!constantInt(v, out))
      return fail("unsupported: AMD AGS " + name + " with a " + what + " that is not a constant") !=
             0;
    return true;
  };
  // Operand phases: two registers of one matrix.
  auto input = [&]() {
    const uint32_t channel = data & 0xF, second = (data >> 4) & 0xF, regType = (data >> 8) & 0xFF;
    if (channel > 1 || second > 1 || regType > 3)
      return fail("unsupported: AMD AGS " + name + " operand register encoding " +
                  std::to_string(data)) != 0;
    auto &regs = ags_.inputs[opcode][regType];
    regs[second * 4 + channel * 2] = value(arg0);
    regs[second * 4 + channel * 2 + 1] = value(arg1);
    return result(constU32(0));
  };
  // Result phases: one register of the last result.
  auto output = [&]() {
    const uint32_t channel = data & 0xF, second = (data >> 4) & 0xF;
    auto it = ags_.outputs.find(opcode);
    if (channel > 3 || second > 1)
      return fail("unsupported: AMD AGS " + name + " result register encoding " +
                  std::to_string(data)) != 0;
    if (it == ags_.outputs.end())
      return fail("unsupported: AMD AGS " + name + " reads a result before its operation") != 0;
    return result(it->second[second * 4 + channel]);
  };
  auto operand = [&](uint32_t regType, const Props &p, uint32_t &type) {
    type = agsMatrixType(p.format, p.use, p.shape);
    return type ? agsPack(ags_.inputs[opcode][regType], type, p.format, name) : 0;
  };
  auto produce = [&](uint32_t matrix, uint32_t type, uint32_t format) {
    if (!matrix || failed_)
      return false;
    agsUnpack(matrix, type, format, ags_.outputs[opcode]);
    ags_.inputs.erase(opcode);
    return result(constU32(0));
  };

  // The matrix and element types of the property phase's data.
  auto typesOf = [&](uint32_t &type, uint32_t &element) {
    const Props p = decodeProps(data);
    type = agsMatrixType(p.format, p.use, p.shape);
    element = type ? agsElementType(p.format) : 0;
    return element != 0 && !failed_;
  };

  // The phases that give operand registers and read result registers (3: none).
  struct Phases {
    uint32_t opcode, operands, results;
  };
  static constexpr Phases kPhases[] = {
      {kMulAcc, 0, 2},      {kUavLoad, 3, 2},       {kUavStore, 1, 3}, {kLdsLoad, 3, 2},
      {kLdsStore, 1, 3},    {kElementFill, 0, 2},   {kCopy, 0, 2},     {kFill, 3, 1},
      {kElementWise, 0, 2}, {kElementExtract, 0, 3}};
  for (const Phases &ph : kPhases)
    if (ph.opcode == opcode && phase == ph.operands)
      return input();
    else if (ph.opcode == opcode && phase == ph.results)
      return output();

  switch (opcode) {
  case kFloat8Conversion: {
    if (phase != 0)
      break;
    const uint32_t cvt = data & 0xFF;
    const bool saturate = (data >> 8) & 1;
    if (cvt > 3)
      return fail("unsupported: AMD AGS Float8Conversion operation " + std::to_string(cvt));
    const uint32_t f8 = agsElementType(cvt == 0 || cvt == 2 ? kFP8 : kBF8);
    const uint32_t u8 = typeInt(8), f32 = typeFloat(32);
    const uint32_t x = value(arg0);
    if (failed_)
      return false;
    if (cvt < 2) // widening is exact; saturation does not apply
      return result(
          bitcast(u32, emit(Op::FConvert, f32, {bitcast(f8, emit(Op::UConvert, u8, {x}))})));
    const uint32_t narrow = emit(Op::FConvert, f8, {bitcast(f32, x)});
    if (saturate)
      decorate(narrow, Decoration::SaturatedToLargestFloat8NormalConversionEXT);
    return result(emit(Op::UConvert, u32, {bitcast(u8, narrow)}));
  }
  case kUavLoad:
  case kUavStore:
  case kLdsLoad:
  case kLdsStore: {
    const bool load = opcode == kUavLoad || opcode == kLdsLoad;
    if (phase == 0) { // the address phase: the address is the offset itself
      ags_.doorbells[inst.value] = {arg0, arg1};
      return result(value(arg0));
    }
    if (phase != (load ? 1u : 2u))
      break;
    // The operation: arg0 is the value the program read at the address.
    const Props p = decodeProps(data);
    const bool groupshared = opcode == kLdsLoad || opcode == kLdsStore;
    const dxil::LlvmModule &m = llvm();
    auto instructionOf = [&](dxil::ValueId v) -> const dxil::Instruction * {
      return v < m.values.size() && m.values[v].kind == dxil::ValueKind::Instruction
                 ? &m.instructions[m.values[v].index]
                 : nullptr;
    };
    const dxil::Instruction *reader = instructionOf(arg0);
    dxil::ValueId address = dxil::kNoId, bufferHandle = dxil::kNoId, pointer = dxil::kNoId;
    if (reader && !groupshared && reader->opcode == dxil::Opcode::ExtractValue &&
        reader->numOperands) {
      const dxil::Instruction *aggregate = instructionOf(m.operandsOf(*reader)[0]);
      const dxil::DxilOpCall *loadCall =
          aggregate ? dx_.opCallAt(uint32_t(aggregate - m.instructions.data())) : nullptr;
      if (loadCall && (DxOp(loadCall->op->opcode) == DxOp::RawBufferLoad ||
                       DxOp(loadCall->op->opcode) == DxOp::BufferLoad)) {
        auto la = dx_.opArguments(*loadCall);
        if (la.size() >= 2) {
          bufferHandle = la[0];
          address = la[1];
        }
      }
    } else if (reader && groupshared && reader->opcode == dxil::Opcode::AtomicRMW &&
               reader->numOperands) {
      pointer = m.operandsOf(*reader)[0];
      const dxil::Instruction *gepInstruction = instructionOf(pointer);
      const dxil::Constant *gepExpression =
          pointer < m.values.size() ? m.constant(pointer) : nullptr;
      std::span<const dxil::ValueId> gep;
      if (gepInstruction && gepInstruction->opcode == dxil::Opcode::GetElementPtr)
        gep = m.operandsOf(*gepInstruction);
      else if (gepExpression && gepExpression->kind == dxil::ConstantKind::Expr &&
               gepExpression->opcode == dxil::Opcode::GetElementPtr)
        gep = m.operandsOf(*gepExpression);
      // An element of a groupshared array of numbers.
      const dxil::Value *base =
          gep.size() >= 2 && gep[0] < m.values.size() ? &m.values[gep[0]] : nullptr;
      const dxil::TypeId element = m.elementType(m.typeOf(pointer));
      const dxil::TypeKind kind =
          element == dxil::kNoId ? dxil::TypeKind::Void : m.type(element).kind;
      if (base && base->kind == dxil::ValueKind::GlobalVariable &&
          m.globals[base->index].addressSpace == 3 &&
          (kind == dxil::TypeKind::Integer || kind == dxil::TypeKind::Half ||
           kind == dxil::TypeKind::Float))
        address = gep.back();
    }
    auto bell = ags_.doorbells.find(address);
    if (bell == ags_.doorbells.end())
      return fail("unsupported: AMD AGS " + name + " whose memory operand is not a " +
                  (groupshared ? "groupshared atomic add" : "buffer load") +
                  " at the address its phase 0 returned");
    uint32_t ptr = 0;
    if (groupshared) {
      ptr = value(pointer);
    } else {
      const Handle *h = handle(bufferHandle);
      if (!h)
        return false;
      if (!h->descriptor || h->descriptor->storage != StorageClass::StorageBuffer ||
          h->kind != dxil::ResourceKind::RawBuffer)
        return fail("unsupported: AMD AGS " + name +
                    " on a buffer that is not a raw storage buffer (raw buffers as texel "
                    "buffers cannot hold cooperative matrices)");
      ptr = bufferElementPointer(*h, 8, value(bell->second.first));
    }
    const uint32_t stride = value(bell->second.second);
    const uint32_t type = agsMatrixType(p.format, p.use, p.shape);
    if (!type || failed_)
      return false;
    // AGS's layout bit is SPIR-V's for A and accumulators, the opposite for B.
    const uint32_t layout = constU32(p.colMajor ^ (p.use == 1 ? 1u : 0u));
    const uint32_t nonPrivate = uint32_t(grammar::MemoryAccess::NonPrivatePointer); // a literal
    const uint32_t subgroup = constU32(uint32_t(grammar::Scope::Subgroup));
    const uint32_t semantics = constU32(uint32_t(grammar::MemorySemantics::AcquireRelease) |
                                        uint32_t(grammar::MemorySemantics::WorkgroupMemory));
    if (load) {
      if (groupshared)
        emitVoid(Op::ControlBarrier, {subgroup, subgroup, semantics});
      const uint32_t matrix =
          emit(Op::CooperativeMatrixLoadKHR, type, {ptr, layout, stride, nonPrivate});
      return produce(matrix, type, p.format);
    }
    const uint32_t matrix = agsPack(ags_.inputs[opcode][0], type, p.format, name);
    if (!matrix)
      return false;
    emitVoid(Op::CooperativeMatrixStoreKHR, {ptr, matrix, layout, stride, nonPrivate});
    if (groupshared)
      emitVoid(Op::ControlBarrier, {subgroup, subgroup, semantics});
    ags_.inputs.erase(opcode);
    return result(constU32(0));
  }
  case kMulAcc: {
    if (phase != 1)
      break;
    const uint32_t wmma = data & 0x7F;
    if ((data >> 15) & 1)
      return fail("unsupported: AMD AGS sparse WMMA (SWMMA opcode " + std::to_string(wmma) + ")");
    // WMMA opcodes 0..7: WMMA_<C>_16X16X16_<A>[_<B>]; bfloat16 (0, 2) is not translated.
    static constexpr std::array<std::array<uint32_t, 3>, 8> kFormats = {{{0, 0, 0},
                                                                         {kF16, kF16, kF16},
                                                                         {0, 0, 0},
                                                                         {kBF8, kBF8, kF32},
                                                                         {kBF8, kFP8, kF32},
                                                                         {kF16, kF16, kF32},
                                                                         {kFP8, kBF8, kF32},
                                                                         {kFP8, kFP8, kF32}}};
    if (wmma >= kFormats.size() || !kFormats[wmma][0])
      return fail("unsupported: AMD AGS WMMA opcode " + std::to_string(wmma) +
                  " (bfloat16 and integer WMMA are not translated)");
    const uint32_t a = kFormats[wmma][0], b = kFormats[wmma][1], c = kFormats[wmma][2];
    uint32_t ta = 0, tb = 0, tc = 0;
    const uint32_t ma = operand(1, {a, 0, 0, 0}, ta);
    const uint32_t mb = ma ? operand(2, {b, 1, 0, 0}, tb) : 0;
    const uint32_t mc = mb ? operand(3, {c, 2, 0, 0}, tc) : 0;
    if (!mc)
      return false;
    return produce(emit(Op::CooperativeMatrixMulAddKHR, tc, {ma, mb, mc}), tc, c);
  }
  case kElementWise: {
    if (phase != 1)
      break;
    int64_t which = 0;
    if (!constant(arg0, which, "operation"))
      return false;
    const Props p = decodeProps(data);
    // Times (a matrix times a scalar) passes the scalar as a second matrix.
    const Op ops[] = {Op::Nop, Op::FAdd, Op::FSub, Op::FMul, Op::FDiv, Op::FMul};
    if (which < 1 || which > 5)
      return fail("unsupported: AMD AGS MatrixElementWiseArithmetic operation " +
                  std::to_string(which));
    uint32_t type = 0;
    const uint32_t x = operand(1, p, type);
    const uint32_t y = x ? operand(2, p, type) : 0;
    if (!y)
      return false;
    return produce(emit(ops[which], type, {x, y}), type, p.format);
  }
  case kCopy: {
    if (phase != 1)
      break;
    int64_t dstData = 0, saturate = 0;
    if (!constant(arg0, dstData, "destination type") || !constant(arg1, saturate, "saturation"))
      return false;
    const Props from = decodeProps(data), to = decodeProps(uint32_t(dstData));
    if (from.shape != to.shape)
      return fail("unsupported: AMD AGS WaveMatrixCopy between shapes");
    uint32_t type = 0;
    const uint32_t x = operand(0, from, type);
    // The element conversion within the source's use, then the change of use.
    const uint32_t convertedType = x ? agsMatrixType(to.format, from.use, to.shape) : 0;
    const uint32_t toType = convertedType ? agsMatrixType(to.format, to.use, to.shape) : 0;
    if (!toType)
      return false;
    uint32_t converted = x;
    if (convertedType != type) {
      const bool toFloat8 = to.format == kFP8 || to.format == kBF8;
      if (saturate && !toFloat8 && to.format != kF32)
        return fail("unsupported: AMD AGS saturating WaveMatrixCopy to element format " +
                    std::to_string(to.format));
      converted = emit(Op::FConvert, convertedType, {x});
      if (saturate && toFloat8)
        decorate(converted, Decoration::SaturatedToLargestFloat8NormalConversionEXT);
    }
    if (toType != convertedType)
      converted = agsChangeUse(converted, toType, to.format);
    return produce(converted, toType, to.format);
  }
  case kFill: {
    if (phase != 0)
      break;
    uint32_t type = 0, element = 0;
    const uint32_t x = value(arg0);
    if (!typesOf(type, element))
      return false;
    const uint32_t bits = scalarWidth(element);
    const uint32_t scalar =
        bitcast(element, bits < 32 ? emit(Op::UConvert, typeInt(bits), {x}) : x);
    return produce(emit(Op::CompositeConstruct, type, {scalar}), type, data & 0xF);
  }
  case kLength: {
    if (phase != 0)
      break;
    uint32_t type = 0, element = 0;
    return typesOf(type, element) && result(emit(Op::CooperativeMatrixLengthKHR, u32, {type}));
  }
  case kElementExtract:
  case kElementFill: {
    if (phase != 1)
      break;
    // On the registers: element i is bits [i*w % 32, +w) of register i*w / 32.
    uint32_t type = 0, element = 0;
    const uint32_t index = value(arg0);
    if (!typesOf(type, element))
      return false;
    const uint32_t bits = scalarWidth(element), perRegister = 32 / bits;
    const uint32_t used = kLaneElements / perRegister;
    const AgsState::Registers regs = ags_.inputs[opcode][0];
    if (!agsRegistersGiven(regs, used, name))
      return false;
    const uint32_t log2 = bits == 32 ? 0 : bits == 16 ? 1 : 2;
    const uint32_t reg = log2 ? emit(Op::ShiftRightLogical, u32, {index, constU32(log2)}) : index;
    const uint32_t shift =
        log2 ? emit(Op::IMul, u32,
                    {emit(Op::BitwiseAnd, u32, {index, constU32(perRegister - 1)}), constU32(bits)})
             : constU32(0);
    const uint32_t low = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    const uint32_t boolean = typeBool();
    if (opcode == kElementExtract) {
      uint32_t word = regs[0];
      for (uint32_t r = 1; r < used; ++r)
        word =
            emit(Op::Select, u32, {emit(Op::IEqual, boolean, {reg, constU32(r)}), regs[r], word});
      ags_.inputs.erase(opcode);
      return result(emit(Op::BitwiseAnd, u32,
                         {emit(Op::ShiftRightLogical, u32, {word, shift}), constU32(low)}));
    }
    const uint32_t fresh = emit(Op::ShiftLeftLogical, u32,
                                {emit(Op::BitwiseAnd, u32, {value(arg1), constU32(low)}), shift});
    const uint32_t keep =
        emit(Op::Not, u32, {emit(Op::ShiftLeftLogical, u32, {constU32(low), shift})});
    AgsState::Registers &out = ags_.outputs[opcode];
    for (uint32_t r = 0; r < 8; ++r) {
      if (r >= used) {
        out[r] = constU32(0);
        continue;
      }
      const uint32_t replaced =
          emit(Op::BitwiseOr, u32, {emit(Op::BitwiseAnd, u32, {regs[r], keep}), fresh});
      out[r] =
          emit(Op::Select, u32, {emit(Op::IEqual, boolean, {reg, constU32(r)}), replaced, regs[r]});
    }
    ags_.inputs.erase(opcode);
    return result(constU32(0));
  }
  default:
    return fail("unsupported: AMD AGS intrinsic " + name + " (driver opcode " +
                std::to_string(opcode) + ")");
  }
  return fail("unsupported: AMD AGS " + name + " phase " + std::to_string(phase));
}

} // namespace spire::translate
