#include "CorpusSupport.h"

#include "spire/val/Validator.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace spire::test {

std::optional<fs::path> sharedCorpus() {
  fs::path p = fs::path(SPIRE_SOURCE_DIR) / ".." / "shared" / "corpus";
  std::error_code ec;
  if (fs::is_directory(p, ec))
    return fs::canonical(p, ec);
  return std::nullopt;
}

std::optional<fs::path> generatedCorpus() {
  fs::path p = SPIRE_GENERATED_CORPUS_DIR;
  std::error_code ec;
  if (fs::is_directory(p, ec))
    return p;
  return std::nullopt;
}

std::vector<fs::path> filesUnder(const fs::path &dir, std::string_view suffix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file())
      continue;
    std::string name = it->path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> allModules() {
  std::vector<fs::path> out;
  if (auto shared = sharedCorpus())
    out = filesUnder(*shared / "spv", ".spv");
  if (auto gen = generatedCorpus()) {
    auto more = filesUnder(*gen, ".spv");
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

std::optional<Module> readValidModule(const fs::path &file) {
  Expected<Module> m = Module::fromBytes(readBytes(file));
  if (!m)
    return std::nullopt;
  val::Options options;
  options.env = *val::parseEnvironment("spv1.6");
  options.maxErrors = 1;
  if (val::validate(*m, options).errorCount() != 0)
    return std::nullopt;
  return std::move(m).value();
}

std::vector<uint8_t> readBytes(const fs::path &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

std::vector<std::vector<std::string>> readTsv(const fs::path &path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(readText(path));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    for (size_t at = 0, tab = 0; tab != std::string::npos; at = tab + 1) {
      tab = line.find('\t', at);
      cells.push_back(line.substr(at, tab == std::string::npos ? tab : tab - at));
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

std::string readText(const fs::path &path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

ToolResult runTool(const std::vector<std::string> &argv, std::string_view input) {
  ToolResult r;
  int inPipe[2], outPipe[2], errPipe[2];
  // Close-on-exec, so that a child spawned by another thread does not inherit these ends (a
  // child holding another's stdin open would keep it from ever seeing end of input).
  if (pipe2(inPipe, O_CLOEXEC) != 0 || pipe2(outPipe, O_CLOEXEC) != 0 ||
      pipe2(errPipe, O_CLOEXEC) != 0)
    return r;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  for (int fd : {inPipe[0], inPipe[1], outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
    posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(inPipe[0]);
  close(outPipe[1]);
  close(errPipe[1]);
  if (rc != 0) {
    close(inPipe[1]);
    close(outPipe[0]);
    close(errPipe[0]);
    r.err = "cannot run " + argv[0];
    return r;
  }
  // Feed the input and drain both outputs without deadlocking.
  size_t written = 0;
  if (input.empty()) {
    close(inPipe[1]);
    inPipe[1] = -1;
  }
  bool outOpen = true, errOpen = true;
  char buf[1 << 16];
  while (outOpen || errOpen) {
    pollfd fds[3];
    int n = 0;
    int outIdx = -1, errIdx = -1, inIdx = -1;
    if (outOpen) {
      fds[n] = {outPipe[0], POLLIN, 0};
      outIdx = n++;
    }
    if (errOpen) {
      fds[n] = {errPipe[0], POLLIN, 0};
      errIdx = n++;
    }
    if (inPipe[1] >= 0) {
      fds[n] = {inPipe[1], POLLOUT, 0};
      inIdx = n++;
    }
    if (poll(fds, static_cast<nfds_t>(n), -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (inIdx >= 0 && (fds[inIdx].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(inPipe[1], input.data() + written,
                        std::min<size_t>(input.size() - written, 1 << 16));
      if (w > 0)
        written += static_cast<size_t>(w);
      if (w < 0 || written == input.size()) {
        close(inPipe[1]);
        inPipe[1] = -1;
      }
    }
    for (auto [idx, fd, open, sink] : {std::tuple{outIdx, outPipe[0], &outOpen, &r.out},
                                       std::tuple{errIdx, errPipe[0], &errOpen, &r.err}}) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t got = read(fd, buf, sizeof buf);
      if (got > 0)
        sink->append(buf, static_cast<size_t>(got));
      else
        *open = false;
    }
  }
  if (inPipe[1] >= 0)
    close(inPipe[1]);
  close(outPipe[0]);
  close(errPipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

bool haveTool(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return access(name.c_str(), X_OK) == 0;
  const char *path = std::getenv("PATH");
  if (path == nullptr)
    return false;
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0)
      return true;
  return false;
}

namespace {

std::optional<fs::path> newReferenceToolDir() {
  fs::path dir = fs::path(SPIRE_SOURCE_DIR) / ".." / "shared" / "tools" / "spirv-tools" / "bin";
  std::error_code ec;
  if (access((dir / "spirv-val").c_str(), X_OK) == 0)
    return fs::canonical(dir, ec);
  return std::nullopt;
}

} // namespace

bool newReferenceTools() {
  static const bool have = newReferenceToolDir().has_value();
  return have;
}

std::string referenceTool(std::string_view name) {
  static const std::optional<fs::path> dir = newReferenceToolDir();
  if (dir && access((*dir / name).c_str(), X_OK) == 0)
    return (*dir / name).string();
  return std::string(name);
}

ReferenceVerdict referenceVerdict(const fs::path &file, bool recordedValid,
                                  std::string recordedMessage) {
  // Corpus-relative file name -> the newer spirv-val's verdict and first message.
  static const std::map<std::string, std::pair<bool, std::string>> changes = [] {
    std::map<std::string, std::pair<bool, std::string>> out;
    std::optional<fs::path> bin = newReferenceToolDir();
    if (!bin)
      return out;
    for (const char *name : {"verdict-diffs-corpus.tsv", "verdict-diffs-spv-invalid.tsv"})
      // Columns: file, env, debian_2023.1, new, debian_first_message, new_first_message.
      for (const std::vector<std::string> &row : readTsv(bin->parent_path() / name))
        if (row.size() >= 4 && row[0] != "file")
          out[row[0]] = {row[3] == "valid", row.size() > 5 ? row[5] : std::string()};
    return out;
  }();
  auto it = changes.find(displayName(file));
  if (it == changes.end() || it->second.first == recordedValid)
    return {recordedValid, recordedValid ? std::string() : std::move(recordedMessage), false};
  return {it->second.first, it->second.second, true};
}

void parallelFor(size_t n, const std::function<void(size_t)> &body) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < n;)
        body(i);
    });
  for (std::thread &t : pool)
    t.join();
}

std::optional<std::string> knownReferenceBug(std::string_view check, const fs::path &file) {
  static const std::vector<std::array<std::string, 3>> entries = [] {
    std::vector<std::array<std::string, 3>> out;
    std::ifstream f(fs::path(SPIRE_SOURCE_DIR) / "tests" / "corpus" / "known-reference-bugs.txt");
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty() || line[0] == '#')
        continue;
      std::istringstream ls(line);
      std::array<std::string, 3> e;
      ls >> e[0] >> e[1];
      std::getline(ls, e[2]);
      out.push_back(e);
    }
    return out;
  }();
  std::string name = displayName(file);
  for (const auto &e : entries)
    if (e[0] == check && e[1] == name)
      return e[2];
  return std::nullopt;
}

std::map<std::string, std::string> readReasonList(std::string_view fileName) {
  std::map<std::string, std::string> list;
  std::ifstream f(fs::path(SPIRE_SOURCE_DIR) / "tests" / "corpus" / fileName);
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    size_t space = line.find(' ');
    list[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return list;
}

std::string displayName(const fs::path &file) {
  for (std::optional<fs::path> root : {sharedCorpus(), generatedCorpus()}) {
    if (!root)
      continue;
    std::error_code ec;
    fs::path rel = fs::relative(file, *root, ec);
    if (!ec && !rel.empty() && rel.native()[0] != '.')
      return rel.string();
  }
  return file.string();
}

void Tally::compared() {
  std::lock_guard lock(mu_);
  ++compared_;
}

void Tally::differed(const fs::path &file, std::string detail) {
  std::lock_guard lock(mu_);
  differed_.push_back({displayName(file), std::move(detail)});
}

void Tally::explained(const fs::path &file, std::string reason) {
  std::lock_guard lock(mu_);
  explained_.push_back({displayName(file), std::move(reason)});
}

void Tally::skipped(const fs::path &file, std::string reason) {
  std::lock_guard lock(mu_);
  skipped_.push_back({displayName(file), std::move(reason)});
}

size_t Tally::numCompared() const {
  std::lock_guard lock(mu_);
  return compared_;
}

size_t Tally::numDiffered() const {
  std::lock_guard lock(mu_);
  return differed_.size();
}

bool Tally::report(size_t maxListed) const {
  std::lock_guard lock(mu_);
  std::printf("%s: %zu compared, %zu differed, %zu explained by reference-tool bugs, %zu skipped\n",
              what_.c_str(), compared_, differed_.size(), explained_.size(), skipped_.size());
  auto sorted = [](std::vector<Entry> v) {
    std::sort(v.begin(), v.end(), [](const Entry &a, const Entry &b) { return a.file < b.file; });
    return v;
  };
  size_t listed = 0;
  for (const Entry &e : sorted(differed_))
    if (listed++ < maxListed)
      std::printf("  DIFFERS %s: %s\n", e.file.c_str(), e.detail.c_str());
  for (const Entry &e : sorted(explained_))
    std::printf("  explained %s: %s\n", e.file.c_str(), e.detail.c_str());
  std::fflush(stdout);
  return differed_.empty();
}

std::string firstDifference(std::string_view a, std::string_view b) {
  size_t line = 1, i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) {
    if (a[i] == '\n')
      ++line;
    ++i;
  }
  if (i == a.size() && i == b.size())
    return "identical";
  auto lineAt = [](std::string_view s, size_t pos) {
    size_t start = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    start = (start == std::string_view::npos || pos == 0) ? 0 : start + 1;
    size_t end = s.find('\n', start);
    return std::string(
        s.substr(start, end == std::string_view::npos ? s.size() - start : end - start));
  };
  return "line " + std::to_string(line) + ": '" + lineAt(a, i) + "' vs '" + lineAt(b, i) + "'";
}

ToolResult runSpire(std::vector<std::string> args, std::string_view input) {
  args.insert(args.begin(), SPIRE_TOOL);
  return runTool(args, input);
}

TempDir::TempDir(std::string_view prefix)
    : dir_(fs::temp_directory_path() / (std::string(prefix) + "-" + std::to_string(::getpid()))) {
  fs::create_directories(dir_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

} // namespace spire::test
