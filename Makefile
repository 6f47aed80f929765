# spire: `make demo` and `make test` do everything on a fresh Debian 12 machine.
BUILD_DIR    ?= build
SANITIZE_DIR ?= build-sanitize
JOBS         ?= $(shell nproc)
# Another grammar directory (default: the vendored third_party/spirv-headers, the newest).
GRAMMAR_DIR  ?=

CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release $(if $(GRAMMAR_DIR),-DSPIRE_GRAMMAR_DIR=$(abspath $(GRAMMAR_DIR)))

.PHONY: all deps build test demo bench test-sanitize fuzz-smoke ci format clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

demo: build
	@./scripts/demo.sh $(BUILD_DIR)/tools/spire/spire

bench: build
	@./bench/run.sh $(BUILD_DIR)

# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer, built with clang-14 (which
# also builds the libFuzzer targets), on the same grammar as every build (the vendored one, or
# GRAMMAR_DIR): the corpus tests compare with reference tools built on that grammar, and a build
# on an older grammar differs from them in names, not in what is checked.
test-sanitize: deps
	@cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=clang++-14 -DSPIRE_SANITIZE=ON -DSPIRE_FUZZ=ON -DSPIRE_BUILD_BENCH=OFF \
	  $(if $(GRAMMAR_DIR),-DSPIRE_GRAMMAR_DIR=$(abspath $(GRAMMAR_DIR))) > /dev/null
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@ctest --test-dir $(SANITIZE_DIR) --output-on-failure -j $(JOBS)

# A short, fixed-length run of every fuzz target (needs the sanitizer build).
fuzz-smoke: test-sanitize
	@./fuzz/smoke.sh $(SANITIZE_DIR)

ci: test test-sanitize fuzz-smoke

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR)
