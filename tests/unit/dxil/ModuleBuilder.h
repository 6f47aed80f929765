// Hand-built LLVM 3.7-style modules for the reader's tests: a type table every test shares and
// one function whose body, surrounding module records and blocks each test writes.
#pragma once

#include "BitWriter.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::test {

enum : uint32_t {
  kModuleBlock = 8,
  kAttrListBlock = 9,
  kAttrGroupBlock = 10,
  kConstantsBlock = 11,
  kFunctionBlock = 12,
  kSymtabBlock = 14,
  kMetadataBlock = 15,
  kAttachmentBlock = 16,
  kTypeBlock = 17,
  kStrtabBlock = 23,
};

/// Type ids of the shared table.
enum : uint64_t {
  tVoid = 0,
  tI32 = 1,
  tVoidFn = 2,   ///< void ()
  tI32FnI32 = 3, ///< i32 (i32)
  tI1 = 4,
  tLabel = 5,
  tI32Ptr = 6,
  tMetadata = 7,
  tFloat = 8,
  tStruct = 9,  ///< { i32, float }
  tArray = 10,  ///< [2 x i32]
  tVector = 11, ///< <2 x i32>
  tI8 = 12,
  tString = 13,   ///< [3 x i8]
  tI32FnPtr = 14, ///< i32 (i32*)
  tVoidFnMd = 15, ///< void (metadata)
  tToken = 16,
  tStructArray = 17, ///< [2 x { i32, float }]
  tOpaquePtr = 18,   ///< ptr
  kNumTypes = 19,
};

inline std::vector<uint64_t> chars(std::string_view s) { return {s.begin(), s.end()}; }

/// `prefix` then the characters of `s`.
inline std::vector<uint64_t> withChars(std::vector<uint64_t> prefix, std::string_view s) {
  prefix.insert(prefix.end(), s.begin(), s.end());
  return prefix;
}

inline void writeTypes(BitWriter &w) {
  w.enterBlock(kTypeBlock, 4);
  w.record(1, {kNumTypes});
  w.record(2, {});                     // void
  w.record(7, {32});                   // i32
  w.record(21, {0, tVoid});            // void ()
  w.record(21, {0, tI32, tI32});       // i32 (i32)
  w.record(7, {1});                    // i1
  w.record(5, {});                     // label
  w.record(8, {tI32, 0});              // i32*
  w.record(16, {});                    // metadata
  w.record(3, {});                     // float
  w.record(18, {0, tI32, tFloat});     // { i32, float }
  w.record(11, {2, tI32});             // [2 x i32]
  w.record(12, {2, tI32});             // <2 x i32>
  w.record(7, {8});                    // i8
  w.record(11, {3, tI8});              // [3 x i8]
  w.record(21, {0, tI32, tI32Ptr});    // i32 (i32*)
  w.record(21, {0, tVoid, tMetadata}); // void (metadata)
  w.record(22, {});                    // token
  w.record(11, {2, tStruct});          // [2 x { i32, float }]
  w.record(25, {0});                   // ptr
  w.endBlock();
}

using Writes = std::function<void(BitWriter &)>;

/// A module (version `version`) with one function @f of type `fnType`, defined by `body` when
/// given; `extra` writes module records and blocks after the types, `after` after the function
/// record and the module's symbol table.
inline std::vector<uint8_t> buildModule(uint64_t fnType, const Writes &body,
                                        const Writes &extra = {}, const Writes &after = {},
                                        uint64_t version = 1) {
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {version});
  writeTypes(w);
  if (extra)
    extra(w);
  w.record(8, {fnType, 0, body ? 0u : 1u, 0, 0, 0, 0, 0});
  w.enterBlock(kSymtabBlock, 4);
  w.record(1, {0, 'f'});
  w.endBlock();
  if (after)
    after(w);
  if (body) {
    w.enterBlock(kFunctionBlock, 4);
    body(w);
    w.endBlock();
  }
  w.endBlock();
  return w.bitcode();
}

} // namespace spire::test
