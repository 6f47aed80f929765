#include "spire/support/File.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace spire {

namespace {

Diagnostic fileError(const std::string &path, const std::string &what) {
  return makeError(Location{}, path + ": " + what + ": " + std::strerror(errno));
}

bool writeAll(int fd, const uint8_t *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Out of line, so that its 64 KB buffer is not in the frame of a caller that does not copy: the
// calls such a caller makes would run 64 KB further down the stack, on fresh pages.
[[gnu::noinline]] bool copyAll(int from, int to) {
  uint8_t buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(from, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || !writeAll(to, buf, static_cast<size_t>(n)))
      return false;
    if (n == 0)
      return true;
  }
}

} // namespace

Expected<std::vector<uint8_t>> readFile(const std::string &path) {
  bool isStdin = path == "-";
  int fd = isStdin ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fileError(path, "cannot open");
  std::vector<uint8_t> data;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (!isStdin)
      ::close(fd);
    errno = EISDIR;
    return fileError(path, "cannot read");
  }
  // Read straight into the buffer, sized from fstat for a regular file and grown as it fills: no
  // staging buffer on the stack, whose fresh pages a small file's command would otherwise
  // touch (a first touch is a page fault, 10-30 us on the VMs spire runs on).
  const bool sized = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  data.resize(sized ? static_cast<size_t>(st.st_size) + 1 : size_t(1) << 16);
  size_t filled = 0;
  for (;;) {
    if (filled == data.size())
      data.resize(data.size() * 2);
    ssize_t n = ::read(fd, data.data() + filled, data.size() - filled);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      Diagnostic d = fileError(path, "cannot read");
      if (!isStdin)
        ::close(fd);
      return d;
    }
    if (n == 0)
      break;
    filled += static_cast<size_t>(n);
  }
  data.resize(filled);
  if (!isStdin)
    ::close(fd);
  return data;
}

Expected<FileWriter> FileWriter::open(const std::string &path, bool spooled) {
  FileWriter w;
  w.path_ = path;
  if (path == "-") {
    w.fd_ = 1;
    if (spooled)
      if (Status s = w.startSpool(); !s)
        return s.error();
    return w;
  }
  std::error_code ec;
  std::filesystem::path target(path);
  // A link is followed, so that the file it names is replaced rather than the link.
  if (std::filesystem::is_symlink(target, ec)) {
    std::filesystem::path resolved = std::filesystem::weakly_canonical(target, ec);
    if (!ec)
      target = resolved;
  }
  w.target_ = target.string();
  // Something that is not a regular file (/dev/null, a pipe, a terminal) is written in place:
  // renaming over it would replace the device with a file.
  struct stat st;
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) {
      errno = EISDIR;
      return fileError(path, "cannot write");
    }
    w.fd_ = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (w.fd_ < 0)
      return fileError(path, "cannot open");
    w.ownsFd_ = true;
    if (spooled)
      if (Status s = w.startSpool(); !s)
        return s.error();
    return w;
  }
  std::string tmpl =
      (target.has_parent_path() ? target.parent_path().string() + "/" : std::string()) + "." +
      target.filename().string() + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  w.fd_ = ::mkstemp(name.data());
  if (w.fd_ < 0)
    return fileError(path, "cannot create");
  w.ownsFd_ = true;
  w.temp_ = name.data();
  // Keep the permissions a plain create would give (mkstemp uses 0600).
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(w.fd_, 0666 & ~mask);
  return w;
}

FileWriter::FileWriter(FileWriter &&other) noexcept
    : path_(std::move(other.path_)), target_(std::move(other.target_)),
      temp_(std::move(other.temp_)), fd_(other.fd_), ownsFd_(other.ownsFd_),
      spoolTarget_(other.spoolTarget_), ownsSpoolTarget_(other.ownsSpoolTarget_) {
  other.fd_ = -1;
  other.ownsFd_ = false;
  other.temp_.clear();
  other.spoolTarget_ = -1;
  other.ownsSpoolTarget_ = false;
}

FileWriter::~FileWriter() {
  if (ownsFd_ && fd_ >= 0)
    ::close(fd_);
  if (ownsSpoolTarget_ && spoolTarget_ >= 0)
    ::close(spoolTarget_);
  if (!temp_.empty())
    ::unlink(temp_.c_str());
}

Status FileWriter::startSpool() {
  struct stat st;
  if (::fstat(fd_, &st) != 0 ||
      !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode)))
    return {}; // a terminal or another device: in place
  const char *dir = std::getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  int spool = -1;
#ifdef O_TMPFILE
  spool = ::open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
  if (spool < 0) {
    // A file system without unnamed files: a named one, unlinked at once.
    std::string tmpl = std::string(dir) + "/spire-spool.XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    spool = ::mkstemp(name.data());
    if (spool < 0)
      return fileError(std::string(dir), "cannot create a temporary file");
    ::unlink(name.data());
  }
  spoolTarget_ = fd_;
  ownsSpoolTarget_ = ownsFd_;
  fd_ = spool;
  ownsFd_ = true;
  return {};
}

Status FileWriter::write(std::span<const uint8_t> bytes) {
  if (fd_ < 0)
    return makeError(Location{}, path_ + ": cannot write: the file is closed");
  if (!writeAll(fd_, bytes.data(), bytes.size()))
    return fileError(path_ == "-" ? "<stdout>" : path_, "cannot write");
  return {};
}

Status FileWriter::commit() {
  if (fd_ < 0)
    return makeError(Location{}, path_ + ": cannot write: the file is closed");
  if (spoolTarget_ >= 0) {
    // The spooled text to its target, then the target closed as an unspooled one is.
    const std::string name = path_ == "-" ? "<stdout>" : path_;
    if (::lseek(fd_, 0, SEEK_SET) != 0)
      return fileError(name, "cannot write");
    if (!copyAll(fd_, spoolTarget_))
      return fileError(name, "cannot write");
    ::close(fd_);
    fd_ = spoolTarget_;
    ownsFd_ = ownsSpoolTarget_;
    spoolTarget_ = -1;
    ownsSpoolTarget_ = false;
  }
  const int fd = fd_;
  fd_ = -1;
  if (ownsFd_ && ::close(fd) != 0)
    return fileError(path_, "cannot write");
  ownsFd_ = false;
  if (temp_.empty())
    return {};
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    return fileError(path_, "cannot write");
  temp_.clear();
  return {};
}

Status writeFileAtomic(const std::string &path, std::span<const uint8_t> bytes) {
  Expected<FileWriter> w = FileWriter::open(path);
  if (!w)
    return w.error();
  if (Status s = w->write(bytes); !s)
    return s;
  return w->commit();
}

Status writeFileAtomic(const std::string &path, std::string_view text) {
  return writeFileAtomic(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
}

} // namespace spire
