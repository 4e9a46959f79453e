# A thin wrapper over CMake.  See README.md.
#   make deps   install the build and test dependencies (Debian/Ubuntu, apt-get)
#   make        build into build/
#   make check  deps, build, every test, an ASan+UBSan build of the tests (the runs
#               under ward again: WARD_TESTS_WARD_ONLY), the fuzzer
#   make demo   deps, build, then show ward deciding on a few telling targets
#   make bench  deps, build, then the benchmarks

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)

# Debian package names; `make deps` installs whichever are missing.
DEPS = cmake make gcc clang pkg-config libclang-rt-14-dev llvm \
       libseccomp-dev libunwind-dev libelf-dev libdw-dev uthash-dev libcmocka-dev nettle-dev \
       libjansson-dev libvterm-dev tmux util-linux iproute2 git python3 tar btrfs-progs xfsprogs e2fsprogs \
       chromium
# make bench measures peers too.
BENCH_DEPS = strace proot bubblewrap bc

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build deps bench-deps install-packages check test asan fuzz demo bench clean

all: build

deps:
	@$(MAKE) -s install-packages PACKAGES="$(DEPS)"

bench-deps:
	@$(MAKE) -s install-packages PACKAGES="$(BENCH_DEPS)"

install-packages:
	@missing=$$(for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing" $$missing; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BUILD)/Makefile:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
		-DWARD_SANITIZE=ON -DWARD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		WARD_TESTS_WARD_ONLY=1 ctest --output-on-failure -j $(JOBS)

fuzz:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
		-DWARD_FUZZ=ON -DWARD_BENCH=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_policy fuzz_elf fuzz_logread fuzz_screen
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_policy $(FUZZ_SECONDS) policy
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_elf $(FUZZ_SECONDS) elf
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_logread $(FUZZ_SECONDS) logread
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_screen $(FUZZ_SECONDS) screen

check: deps
	$(MAKE) test
	$(MAKE) asan
	$(MAKE) fuzz

demo: deps build
	@sh tests/demo.sh $(BUILD)/ward

bench: deps bench-deps build
	bench/run.sh $(BUILD) 9

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
