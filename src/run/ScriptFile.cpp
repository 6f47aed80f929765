// Reading a script from a file, with the files it names found beside it.
#include "spire/run/Script.h"
#include "spire/support/File.h"

#include <filesystem>

namespace spire::run {

Expected<Script> parseScriptFile(const std::string &path) {
  auto bytes = readFile(path);
  if (!bytes)
    return bytes.error();
  namespace fs = std::filesystem;
  fs::path script(path);
  fs::path dir = script.parent_path();
  std::string name = script.filename().string();
  FileLoader loader = [&](std::string_view file) -> Expected<std::vector<uint8_t>> {
    auto direct = readFile((dir / std::string(file)).string());
    if (direct)
      return direct;
    // A corpus that flattens its folders into file names ("a__b__test.amber" for a/b/test.amber)
    // keeps a companion file of a/b/ as "a__b__<file>".
    size_t cut = name.rfind("__");
    if (cut == std::string::npos)
      return direct;
    std::string flat(file);
    for (size_t at; (at = flat.find('/')) != std::string::npos;)
      flat.replace(at, 1, "__");
    auto flattened = readFile((dir / (name.substr(0, cut + 2) + flat)).string());
    return flattened ? flattened : direct;
  };
  std::string_view text(reinterpret_cast<const char *>(bytes->data()), bytes->size());
  auto parsed = parseScript(text, loader);
  if (parsed)
    parsed->path = path;
  return parsed;
}

} // namespace spire::run
