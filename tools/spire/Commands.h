// The subcommands of the spire program. Each takes the arguments after its name and returns
// the process exit code (see CommandLine.h).
#pragma once

#include <span>

namespace spire::tool {

int runAs(std::span<char *const> args);
int runDis(std::span<char *const> args);
int runVal(std::span<char *const> args);
int runTranslate(std::span<char *const> args);
/// spire translate --dxil-to-spirv (DxilTranslate.cpp).
int runDxilToSpirv(std::span<char *const> args);
int runOpt(std::span<char *const> args);
int runRun(std::span<char *const> args);

} // namespace spire::tool
