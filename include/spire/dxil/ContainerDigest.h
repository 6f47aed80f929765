// The container digest DXC's validator writes into a container's header: a modified MD5 over the
// bytes after the digest field, and whether a container is signed, unsigned or corrupt.
#pragma once

#include "spire/dxil/Container.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace spire::dxil {

using Digest = std::array<uint8_t, 16>;

/// What a container's stored digest says.
enum class DigestStatus : uint8_t {
  Signed,   ///< the stored digest is the one recomputed from the container
  Unsigned, ///< the stored digest is all zero: no validator signed the container
  Corrupt,  ///< the stored digest is neither: the bytes changed after signing
};

/// The digest of a container's bytes (its header included; the bytes after offset 20 count): MD5's
/// rounds over those bytes, finished not with MD5's padding but with DXC's final block, which
/// carries the bit count at its start and (bits >> 2) | 1 at its end. Fewer than 20 bytes hash as
/// none.
Digest computeContainerDigest(std::span<const uint8_t> container);

/// Compares the stored digest with the one recomputed over the container's declared size.
DigestStatus checkDigest(const Container &container);
/// The same, for a digest already computed: all zero is unsigned, equal is signed.
DigestStatus classifyDigest(const Digest &stored, const Digest &computed);

/// "signed", "unsigned" or "corrupt".
const char *digestStatusName(DigestStatus status);

/// The 32 lower-case hexadecimal digits of a digest, in byte order.
std::string digestHex(const Digest &digest);

} // namespace spire::dxil
