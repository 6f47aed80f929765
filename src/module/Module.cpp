#include "spire/module/Module.h"

#include "spire/binary/Literal.h"
#include "spire/binary/Words.h"
#include "spire/module/Opcodes.h"

#include <cstdio>

namespace spire {

using grammar::Op;

std::string_view sectionName(Section s) {
  static constexpr std::string_view kNames[kSectionCount] = {
      "capabilities",
      "extensions",
      "extended instruction imports",
      "memory model",
      "entry points",
      "execution modes",
      "debug sources",
      "debug names",
      "module-processed annotations",
      "annotations",
      "types, constants and global variables",
      "function declarations",
      "function definitions"};
  return kNames[static_cast<unsigned>(s)];
}

const grammar::InstructionDesc *Instruction::desc() const {
  return grammar::findInstruction(m_->insts_[index_].opcode);
}

std::string Instruction::stringOperand(const binary::Operand &op) const {
  return binary::decodeString(operandWords(op));
}

namespace {

Section sectionOf(Op op, const grammar::InstructionDesc *desc) {
  switch (op) {
  case Op::Capability:
    return Section::Capability;
  case Op::Extension:
    return Section::Extension;
  case Op::ExtInstImport:
    return Section::ExtInstImport;
  case Op::MemoryModel:
    return Section::MemoryModel;
  case Op::EntryPoint:
    return Section::EntryPoint;
  case Op::ExecutionMode:
  case Op::ExecutionModeId:
    return Section::ExecutionMode;
  case Op::String:
  case Op::SourceExtension:
  case Op::Source:
  case Op::SourceContinued:
    return Section::DebugSource;
  case Op::Name:
  case Op::MemberName:
    return Section::DebugName;
  case Op::ModuleProcessed:
    return Section::DebugModuleProcessed;
  default:
    if (desc != nullptr && desc->cls == grammar::InstructionClass::Annotation)
      return Section::Annotation;
    return Section::Global;
  }
}

} // namespace

Expected<Module> Module::fromBytes(std::span<const uint8_t> bytes, binary::DecodeOptions options) {
  Expected<binary::WordStream> stream = binary::wordsFromBytes(bytes);
  if (!stream)
    return stream.error();
  return fromWords(std::move(stream->words), options, stream->endianness);
}

Expected<Module> Module::fromWords(std::vector<uint32_t> words, binary::DecodeOptions options,
                                   binary::Endianness order) {
  if (words.size() < binary::kHeaderWords)
    return makeError(Location{}, "module has " + std::to_string(words.size()) +
                                     " words, fewer than the 5 of a header");
  if (words[0] != binary::kMagic) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "invalid magic number 0x%08x", words[0]);
    return makeError(Location::binary(0, 0), buf);
  }
  Module m;
  m.words_ = std::move(words);
  m.endianness_ = order;
  if (Status s = m.index(options); !s)
    return s.error();
  return m;
}

binary::Header Module::header() const { return binary::readHeader(words_); }

std::vector<uint8_t> Module::toBytes() const { return toBytes(endianness_); }

std::vector<uint8_t> Module::toBytes(binary::Endianness order) const {
  return binary::bytesFromWords(words_, order);
}

Status Module::index(binary::DecodeOptions options) {
  const size_t n = words_.size();
  const uint32_t version = words_[1];
  const unsigned major = grammar::versionMajor(version), minor = grammar::versionMinor(version);
  if ((version & 0xFF0000FFu) != 0 || major != 1 || version > grammar::grammarVersion()) {
    char buf[128];
    std::snprintf(buf, sizeof buf,
                  "unsupported SPIR-V version word 0x%08x (%u.%u); this build reads 1.0 to %u.%u",
                  version, major, minor, grammar::versionMajor(grammar::grammarVersion()),
                  grammar::versionMinor(grammar::grammarVersion()));
    return makeError(Location::binary(1, 0), buf);
  }
  const uint32_t bound = words_[3];
  decoder_.reset(bound, n, options);
  defs_.reset(bound, 2 * n + 1024, kNoIndex);
  insts_.clear();
  operands_.clear();
  functions_.clear();
  blocks_.clear();
  warnings_.clear();
  // Count the instructions first so that the index is allocated once: every operand takes at
  // least one word, which bounds the operands too.
  size_t numInsts = 0;
  for (size_t p = binary::kHeaderWords; p < n && (words_[p] >> 16) != 0; p += words_[p] >> 16)
    ++numInsts;
  insts_.reserve(numInsts);
  operands_.reserve(n - binary::kHeaderWords - numInsts);

  bool inFunction = false, inBlock = false;
  size_t pos = binary::kHeaderWords;
  for (uint32_t idx = 0; pos < n; ++idx) {
    const uint32_t w0 = words_[pos];
    const uint32_t count = w0 >> 16;
    const uint16_t opcode = static_cast<uint16_t>(w0 & 0xFFFF);
    if (count == 0 || count > n - pos) [[unlikely]] {
      const Location loc = Location::binary(static_cast<uint32_t>(pos), idx);
      if (count == 0)
        return makeError(loc, "instruction with opcode " + std::to_string(opcode) +
                                  " has a word count of 0");
      return makeError(loc, "instruction with opcode " + std::to_string(opcode) +
                                " has a word count of " + std::to_string(count) + " but only " +
                                std::to_string(n - pos) + " words remain in the module");
    }
    const uint32_t firstOperand = static_cast<uint32_t>(operands_.size());
    std::span<const uint32_t> inst(words_.data() + pos, count);
    const grammar::InstructionDesc *desc = grammar::findInstruction(opcode);
    // Most instructions have a fixed shape: their operands are a prefix of a constant list of
    // the grammar's, and nothing needs to be stored for them.
    const bool fixed = desc != nullptr && decoder_.decodeFixed(inst, *desc);
    if (!fixed && !decoder_.decode(inst, desc, operands_)) [[unlikely]] {
      Diagnostic w = decoder_.error(desc, static_cast<uint32_t>(pos), idx);
      if (!options.recover)
        return w;
      w.severity = Severity::Warning;
      w.message += "; the instruction is kept as raw words";
      warnings_.push_back(std::move(w));
      operands_.setSize(firstOperand);
      if (count > 1)
        operands_.push_back({1, static_cast<uint16_t>(count - 1), grammar::OperandKind::RawWords,
                             binary::NumberKind::None, 0});
      desc = nullptr; // nothing is known of its operands, result included
    }

    InstRecord &r = insts_.cursor()[0]; // room for every instruction is reserved
    r.wordOffset = static_cast<uint32_t>(pos);
    r.opcode = opcode;
    r.wordCount = static_cast<uint16_t>(count);
    if (fixed) {
      r.firstOperand = static_cast<uint32_t>(desc - grammar::instructions().data());
      r.numOperands = static_cast<uint16_t>(count - 1);
      r.flags = kFixed;
    } else {
      r.firstOperand = firstOperand;
      r.numOperands = static_cast<uint16_t>(operands_.size() - firstOperand);
      r.flags = desc == nullptr ? kRaw : 0;
    }
    if (desc != nullptr) {
      if (desc->hasResultType)
        r.flags |= kHasType;
      if (desc->hasResult) {
        r.flags |= kHasResult;
        uint32_t id = inst[desc->hasResultType ? 2 : 1];
        if (defs_.get(id) == kNoIndex)
          defs_.set(id, idx);
      }
    }

    // Functions and blocks, and the section of everything outside functions.
    const Op op = static_cast<Op>(opcode);
    const bool wasInFunction = inFunction;
    r.section = Section::FunctionDefinition;
    if (op == Op::Function) {
      if (inFunction) // an unterminated function: close it here
        functions_.back().end = idx;
      inFunction = true;
      inBlock = false;
      functions_.push_back({idx, idx + 1, static_cast<uint32_t>(blocks_.size()), 0});
    } else if (!inFunction) {
      r.section = sectionOf(op, desc);
    } else if (op == Op::Label) {
      if (inBlock)
        blocks_.back().end = idx;
      blocks_.push_back({idx, idx + 1});
      functions_.back().numBlocks++;
      inBlock = true;
    } else if (op == Op::FunctionEnd) {
      inFunction = false;
      inBlock = false;
    } else if (inBlock) {
      blocks_.back().end = idx + 1;
      if (isBlockTerminator(op))
        inBlock = false;
    }
    if (inFunction || wasInFunction)
      functions_.back().end = idx + 1;
    insts_.setSize(idx + 1);
    pos += count;
  }
  for (const FunctionInfo &f : functions_)
    if (f.numBlocks == 0)
      for (uint32_t i = f.begin; i < f.end; ++i)
        insts_[i].section = Section::FunctionDeclaration;
  return {};
}

} // namespace spire
