// Bytes to words and back, in either byte order.
#pragma once

#include "spire/binary/Header.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <span>
#include <vector>

namespace spire::binary {

struct WordStream {
  std::vector<uint32_t> words; ///< in host order, header included
  Endianness endianness = Endianness::Little;
};

/// Splits a byte buffer into host-order words. The byte order is taken from the magic number.
/// Fails on a size that is not a multiple of four, fewer than five words, or a wrong magic.
Expected<WordStream> wordsFromBytes(std::span<const uint8_t> bytes);
/// The checks of wordsFromBytes without the copy: the byte order of a valid byte buffer.
Expected<Endianness> byteOrderOf(std::span<const uint8_t> bytes);
/// Copies the bytes (a multiple of four) into bytes.size() / 4 host-order words at `out`: one
/// memcpy when `order` is the host's.
void copyWords(std::span<const uint8_t> bytes, Endianness order, uint32_t *out);

/// Serializes host-order words in the given byte order.
std::vector<uint8_t> bytesFromWords(std::span<const uint32_t> words,
                                    Endianness order = Endianness::Little);

/// The header of a word stream of at least five words.
Header readHeader(std::span<const uint32_t> words);

} // namespace spire::binary
