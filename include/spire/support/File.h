// Reading whole files and writing them atomically; "-" means standard input or output.
#pragma once

#include "spire/support/Expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spire {

Expected<std::vector<uint8_t>> readFile(const std::string &path);

/// Writes to a temporary file beside `path`, then renames it over `path`, so that a failure
/// never leaves a partial file. "-" writes to standard output.
Status writeFileAtomic(const std::string &path, std::span<const uint8_t> bytes);
Status writeFileAtomic(const std::string &path, std::string_view text);

/// Writes a file piece by piece with the guarantee of writeFileAtomic: the target appears (or is
/// replaced) only when commit() succeeds; a writer destroyed before that leaves no file behind.
/// Devices, pipes and "-" (standard output) are written in place, unless `spooled`: then what
/// is written to a pipe, a socket or standard output redirected to a file goes into an unnamed
/// temporary file first and reaches the target at commit(), so that a writer that fails half
/// way writes nothing there either (a terminal and other devices are still written in place).
class FileWriter {
public:
  static Expected<FileWriter> open(const std::string &path, bool spooled = false);
  FileWriter(FileWriter &&other) noexcept;
  FileWriter &operator=(FileWriter &&) = delete;
  ~FileWriter();
  Status write(std::span<const uint8_t> bytes);
  Status write(std::string_view text) {
    return write(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  }
  /// Closes the file and renames it over the target.
  Status commit();

private:
  FileWriter() = default;
  std::string path_;   ///< as given, for messages
  std::string target_; ///< the file to replace (links resolved)
  std::string temp_;   ///< the temporary file, empty when writing in place
  int fd_ = -1;
  bool ownsFd_ = false;
  int spoolTarget_ = -1; ///< where the spool file (fd_) goes at commit(), or -1
  bool ownsSpoolTarget_ = false;
  Status startSpool();
};

} // namespace spire
