// Writing outputs: atomically for files, in place for devices, through links.
#include "spire/support/File.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace spire;

namespace {

fs::path tempDir() {
  fs::path d = fs::temp_directory_path() / ("spire-file-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

} // namespace

TEST(File, WritesAndReadsBack) {
  fs::path d = tempDir();
  fs::path f = d / "out.txt";
  ASSERT_TRUE(writeFileAtomic(f.string(), std::string_view("hello")).ok());
  Expected<std::vector<uint8_t>> r = readFile(f.string());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::string(r->begin(), r->end()), "hello");
  // No temporary file is left beside it.
  size_t entries = 0;
  for (auto &e : fs::directory_iterator(d))
    entries += e.path().filename().string().starts_with(".") ? 100 : 1;
  EXPECT_EQ(entries, 1u);
  fs::remove_all(d);
}

TEST(File, NonRegularFilesAreWrittenInPlace) {
  // A pipe stands for /dev/null and other devices: renaming over it would replace it.
  fs::path d = tempDir();
  fs::path fifo = d / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    Expected<std::vector<uint8_t>> r = readFile(fifo.string());
    if (r.ok())
      received.assign(r->begin(), r->end());
  });
  EXPECT_TRUE(writeFileAtomic(fifo.string(), std::string_view("through the pipe")).ok());
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  struct stat st;
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the pipe was replaced by a regular file";
  fs::remove_all(d);
}

TEST(File, LinksAreFollowed) {
  fs::path d = tempDir();
  fs::path real = d / "real.txt", link = d / "link.txt";
  ASSERT_TRUE(writeFileAtomic(real.string(), std::string_view("a")).ok());
  fs::create_symlink(real, link);
  ASSERT_TRUE(writeFileAtomic(link.string(), std::string_view("b")).ok());
  EXPECT_TRUE(fs::is_symlink(link));
  Expected<std::vector<uint8_t>> r = readFile(real.string());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::string(r->begin(), r->end()), "b");
  fs::remove_all(d);
}

TEST(File, ErrorsNameThePath) {
  Expected<std::vector<uint8_t>> r = readFile("/nonexistent/dir/file.spv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/nonexistent/dir/file.spv"), std::string::npos);
  Status s = writeFileAtomic("/nonexistent/dir/out.spv", std::string_view("x"));
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(writeFileAtomic("/tmp", std::string_view("x")).ok());
}

TEST(File, WriterLeavesNothingBehindUntilCommitted) {
  fs::path d = tempDir();
  fs::path f = d / "piecewise.txt";
  {
    Expected<FileWriter> w = FileWriter::open(f.string());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->write(std::string_view("never ")).ok());
    // Destroyed without commit: no target and no temporary file.
  }
  EXPECT_TRUE(fs::is_empty(d));
  {
    Expected<FileWriter> w = FileWriter::open(f.string());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->write(std::string_view("one, ")).ok());
    EXPECT_FALSE(fs::exists(f)) << "the target appears only at commit";
    ASSERT_TRUE(w->write(std::string_view("two")).ok());
    ASSERT_TRUE(w->commit().ok());
  }
  Expected<std::vector<uint8_t>> r = readFile(f.string());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::string(r->begin(), r->end()), "one, two");
  fs::remove_all(d);
}

TEST(File, ASpooledPipeGetsTheTextOnlyAtCommit) {
  fs::path d = tempDir();
  fs::path fifo = d / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (bool commit : {false, true}) {
    std::string received = "unread";
    std::thread reader([&] {
      Expected<std::vector<uint8_t>> r = readFile(fifo.string());
      if (r.ok())
        received.assign(r->begin(), r->end());
    });
    {
      Expected<FileWriter> w = FileWriter::open(fifo.string(), true);
      ASSERT_TRUE(w.ok());
      ASSERT_TRUE(w->write(std::string_view("first, ")).ok());
      ASSERT_TRUE(w->write(std::string_view("second")).ok());
      if (commit) {
        ASSERT_TRUE(w->commit().ok());
      }
    }
    reader.join();
    EXPECT_EQ(received, commit ? "first, second" : "");
  }
  struct stat st;
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  fs::remove_all(d);
}
