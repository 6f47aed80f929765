#include "CommandLine.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <link.h>
#include <malloc.h>
#include <sys/mman.h>

namespace spire::tool {

bool ArgScanner::scan(
    std::span<const std::string_view> withValue,
    const std::function<bool(std::string_view flag, std::string_view value)> &onFlag,
    const std::function<bool(std::string_view positional)> &onPositional) {
  bool flagsDone = false;
  for (size_t i = 0; i < args_.size(); ++i) {
    std::string_view a = args_[i];
    if (flagsDone || a.size() < 2 || a[0] != '-') {
      if (!onPositional(a))
        return false;
      continue;
    }
    if (a == "--") {
      flagsDone = true;
      continue;
    }
    std::string longForm;
    if (singleDashLong_ && a.size() > 2 && a[1] != '-') {
      longForm = "-" + std::string(a);
      a = longForm;
    }
    if (a == "-h" || a == "--help") {
      helpAsked_ = true;
      continue;
    }
    std::string_view name = a, value;
    size_t eq = a.find('=');
    bool inlineValue = a.starts_with("--") && eq != std::string_view::npos;
    if (inlineValue) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    bool takesValue = std::find(withValue.begin(), withValue.end(), name) != withValue.end();
    if (takesValue && !inlineValue) {
      if (i + 1 >= args_.size()) {
        usageError(command_, "option " + std::string(name) + " needs a value");
        return false;
      }
      value = args_[++i];
    } else if (!takesValue && inlineValue) {
      usageError(command_, "option " + std::string(name) + " takes no value");
      return false;
    }
    if (!onFlag(name, value))
      return false;
  }
  return true;
}

bool ArgScanner::scan(
    std::span<const std::string_view> withValue,
    const std::function<bool(std::string_view flag, std::string_view value)> &onFlag,
    std::string &input) {
  bool haveInput = false;
  return scan(withValue, onFlag, [&](std::string_view positional) {
    if (haveInput) {
      usageError(command_, "more than one input file");
      return false;
    }
    input = positional;
    haveInput = true;
    return true;
  });
}

bool ArgScanner::unknownOption(std::string_view flag) const {
  usageError(command_, "unknown option " + std::string(flag));
  return false;
}

int usageError(std::string_view command, std::string_view message) {
  std::fprintf(stderr, "spire %.*s: %.*s (see 'spire %.*s --help')\n", int(command.size()),
               command.data(), int(message.size()), message.data(), int(command.size()),
               command.data());
  return kUsageError;
}

void report(const Diagnostic &d, std::string_view source) {
  std::string line = d.formatWithNotes(source);
  std::fprintf(stderr, "%s\n", line.c_str());
}

namespace {

void populateRange(uintptr_t begin, uintptr_t end) {
#ifdef MADV_POPULATE_READ
  if (end > begin)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_READ);
#endif
}

/// Maps the program's loaded segments: all of them, or only those that are not code (its
/// constants and data).
void populateSegments(bool code) {
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *withCode) {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD || ((ph.p_flags & PF_X) && !*static_cast<bool *>(withCode)))
            continue;
          const uintptr_t page = 4096;
          populateRange((info->dlpi_addr + ph.p_vaddr) & ~(page - 1),
                        (info->dlpi_addr + ph.p_vaddr + ph.p_filesz + page - 1) & ~(page - 1));
        }
        return 1; // the program itself is the first object; shared libraries are not ours
      },
      &code);
}

} // namespace

// Maps every page of the program's own image (code, constants, the grammar tables) in one call
// before a command runs. A static program of this size touches code spread over a hundred 64 KB
// windows per command, and each first touch is a page fault; on the virtual machines where
// spire is built and benchmarked a fault costs 30-60 us, so for a small input the faults were
// most of a command's time (`spire translate --deserialize-spirv` on a 14 KB module: 6.5-6.75
// ms of CPU without, 6.3 with; it now maps only the functions it runs, populateHotText).
// Populating only maps pages already in the page cache (0.3 us a page there); kernels older
// than 5.14 refuse the advice, which changes nothing. The image's pages count in the peak
// resident memory (9 MB, of which a command touches 5 or 6), so a command whose input makes it
// run long goes without: the faults are then a small part of its time.
void populateProgramImage() { populateSegments(true); }

// The markers of hot-text.txt. With the program linked in that order (lld's
// --symbol-ordering-file, tools/spire/CMakeLists.txt) the text starts with these groups of
// functions, each group in the order of the profiled program's addresses (hot_text.py):
//   begin .. shared               what `spire dis` runs on DXIL and SPIR-V's translation does
//                                 not (the DXIL reader and printer)
//   shared .. dis_end             what both run (the start, the C library, support/)
//   translate .. translations     what only `translate --deserialize-spirv` runs besides (dialect/)
//   translations .. translate_end what both translations run besides (module/, val/, binary/)
//   translate_end .. end          what only `translate --dxil-to-spirv` runs besides (translate/)
// so that each command's functions are one or two ranges: `spire dis` on DXIL maps begin ..
// dis_end, a DXIL translation that and translations .. end, a small binary's translation
// shared .. translate_end. Their bodies differ so that no linker folds them into one.
#define SPIRE_HOT_TEXT_MARKER(name, body)                                                          \
  extern "C" __attribute__((noinline, used)) void name() { asm volatile(body); }
SPIRE_HOT_TEXT_MARKER(spire_hot_text_begin, "nop")
SPIRE_HOT_TEXT_MARKER(spire_shared_text_begin, "nop; nop")
SPIRE_HOT_TEXT_MARKER(spire_hot_text_dis_end, "nop; nop; nop")
SPIRE_HOT_TEXT_MARKER(spire_translate_text_begin, "nop; nop; nop; nop")
SPIRE_HOT_TEXT_MARKER(spire_translations_text_begin, "nop; nop; nop; nop; nop")
SPIRE_HOT_TEXT_MARKER(spire_translate_text_end, "nop; nop; nop; nop; nop; nop")
SPIRE_HOT_TEXT_MARKER(spire_hot_text_end, "nop; nop; nop; nop; nop; nop; nop")
#undef SPIRE_HOT_TEXT_MARKER

namespace {

uintptr_t pageOf(void (*marker)()) {
  return reinterpret_cast<uintptr_t>(marker) & ~uintptr_t(4095);
}

/// Whether the program was linked in the order of hot-text.txt: the markers in their order,
/// and not spread over more than a few MB.
bool linkedInOrder() {
  const uintptr_t markers[] = {pageOf(spire_hot_text_begin),
                               pageOf(spire_shared_text_begin),
                               pageOf(spire_hot_text_dis_end),
                               pageOf(spire_translate_text_begin),
                               pageOf(spire_translations_text_begin),
                               pageOf(spire_translate_text_end),
                               pageOf(spire_hot_text_end)};
  return std::is_sorted(std::begin(markers), std::end(markers)) &&
         markers[6] - markers[0] < (uintptr_t(8) << 20);
}

} // namespace

// Maps the packed functions of a command, instead of the whole 8.9 MB image that
// populateProgramImage maps (a page mapped costs whether it runs or not; a 64 KB window of code
// left out costs a fault when it first runs, 15-60 us on the VMs measured).
// - `spire dis` on DXIL, about 1 MB. The corpus's `spire dis` of a container, run between
//   llvm-dis-14 runs as bench/dxil.py does (CPU per file, one A/B run): 6.19 ms populating the
//   whole image, 5.60 populating nothing, 4.65 with the packed functions mapped (`spire
//   --version` 3.24).
// - `translate --dxil-to-spirv`, its 1.6 MB more: interleaved A/B over 60 containers, loaded
//   machine, 9.42 -> 8.02 ms CPU a file (dxil-spirv 10.04).
// - `translate --deserialize-spirv` of a small module, 1.5 MB of code and the program's
//   constants and data (the grammar tables, 2.2 MB): on the 14 KB shader of bench/dialect.py's
//   D3 row (perf stat, 10 alternated rounds of 15 runs, loaded machine) 7.11 ms of CPU mapping
//   the whole image, 6.57 these ranges; peak resident memory 9.9 MB -> 5.4 MB.
// In a program linked without the order the markers are neighbours (or out of order): DXIL
// commands then map nothing, a translation of SPIR-V the whole image.
void populateHotText(HotText command) {
  if (!linkedInOrder()) {
    if (command == HotText::SpirvTranslate)
      populateProgramImage();
    return;
  }
  const uintptr_t page = 4096;
  switch (command) {
  case HotText::Dis:
    populateRange(pageOf(spire_hot_text_begin), pageOf(spire_hot_text_dis_end) + page);
    break;
  case HotText::DxilTranslate:
    populateRange(pageOf(spire_hot_text_begin), pageOf(spire_hot_text_dis_end) + page);
    populateRange(pageOf(spire_translations_text_begin), pageOf(spire_hot_text_end) + page);
    break;
  case HotText::SpirvTranslate:
    populateRange(pageOf(spire_shared_text_begin), pageOf(spire_translate_text_end) + page);
    populateSegments(false); // the constants and data: the grammar tables it looks up
    break;
  }
}

void populateHeap(size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  bytes = std::min<size_t>(bytes, size_t(64) << 20);
  mallopt(M_MMAP_THRESHOLD, int(bytes) + (1 << 20));
  mallopt(M_TRIM_THRESHOLD, int(bytes) + (1 << 20));
  void *block = std::malloc(bytes);
  if (!block)
    return;
  const uintptr_t page = 4096, at = reinterpret_cast<uintptr_t>(block);
  const uintptr_t begin = (at + page - 1) & ~(page - 1), end = (at + bytes) & ~(page - 1);
  if (end > begin)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE);
  std::free(block);
#else
  (void)bytes;
#endif
}

} // namespace spire::tool
