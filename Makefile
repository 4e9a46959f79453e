# A thin wrapper over CMake.  See README.md.
#   make deps   install the build and test dependencies (Debian/Ubuntu, apt-get)
#   make        build into build/
#   make check  deps, build, every test, the ward runs of progs, attacks and net
#               again as on Linux 5.9 (make oldkernel: WARD_KERNEL_FEATURES) and
#               under --degraded (make degraded: WARD_DEGRADED), an
#               ASan+UBSan build of the tests (the runs under ward again:
#               WARD_TESTS_WARD_ONLY), the fuzzer
#   make demo   deps, build, then show ward deciding on a few telling targets
#   make bench  deps, build, then the benchmarks
#   make vm     build, then ward's suites on real older kernels under qemu
#               (Debian 11's 5.10; VM_KERNEL=bzImage adds one: docs/testing.md)
#   make install  build, then install under PREFIX (/usr/local), into DESTDIR if set
#   make deb    build, then a Debian package (ward_VERSION_ARCH.deb, in BUILD)

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX     ?= /usr/local

# Debian package names; `make deps` installs whichever are missing.
DEPS = cmake make gcc clang pkg-config libclang-rt-14-dev llvm \
       libseccomp-dev libunwind-dev libelf-dev libdw-dev uthash-dev libcmocka-dev nettle-dev \
       libjansson-dev libvterm-dev tmux util-linux iproute2 git python3 tar btrfs-progs xfsprogs e2fsprogs \
       chromium go-md2man dpkg-dev zsh fish libpython3.11-testsuite $(AGENT_DEPS)
# The real programs the profiles are tested with (tests/integration/agents.sh):
# node and npm (Claude Code and Codex are installed from the npm registry by
# the test), tmux for a terminal, pip in a venv, cargo and go.  npm comes
# with NodeSource's nodejs, which conflicts with Debian's npm package.
# libvterm-dev: the agent's screen kept by ward while it prompts (supervisor/term/).
# libpython3.11-testsuite: CPython's own suites (tests/integration/cpython.sh).
AGENT_DEPS = nodejs tmux python3-venv python3-setuptools python3-wheel cargo golang-go \
       $(shell command -v npm >/dev/null 2>&1 || echo npm)
# make bench measures peers too.
BENCH_DEPS = strace proot bubblewrap bc

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: oldkernel degraded all build deps bench-deps install-packages check test asan fuzz demo bench clean \
	install deb vm

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
		WARD_AGENTS_CACHE=$(CURDIR)/$(BUILD)/agents-cache WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -E '^(progs|transparency).*-no-preload$$'

fuzz:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
		-DWARD_FUZZ=ON -DWARD_BENCH=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_policy fuzz_elf fuzz_logread fuzz_screen
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_policy $(FUZZ_SECONDS) policy
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_elf $(FUZZ_SECONDS) elf
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_logread $(FUZZ_SECONDS) logread
	tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz_screen $(FUZZ_SECONDS) screen

# The suites that run ward (progs, attacks, net), again as on the oldest
# kernel on which ward keeps every guarantee (Linux 5.9-5.13: ADDFD without
# ADDFD_FLAG_SEND, WAIT_KILLABLE_RECV, SYNC_WAKE_UP or PIDFD_THREAD), only
# the ward runs (the native ones do not change) and not the nobody passes
# (the features are the kernel's, whoever runs).  Each masked set alone,
# and the signal storm, is the restart ctest.
# (and no inode in fdinfo).  progs-open's FIFO-and-signal cases hang now and
# then without WAIT_KILLABLE_RECV: a known open weakness there (a TODO).
OLDEST_KERNEL = -addfd_send,-wait_killable_recv,-sync_wake_up,-pidfd_thread,-fdinfo_ino
oldkernel: build
	cd $(BUILD) && WARD_KERNEL_FEATURES=$(OLDEST_KERNEL) WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -R '^(progs|attacks|net)' -E 'nobody|table|no-preload'

# The same suites, and run's checks of ward run, again under --degraded
# (enforcement by ptrace where user notification is missing:
# docs/degraded.md), the ward runs only.
# And progs and net at every call's entry stop (as under another listener);
# the suites again as on a kernel before 5.3 (no openat2, no pidfd_getfd,
# no PTRACE_GET_SYSCALL_INFO, no statx mount ids: masked), at seccomp and
# at entry stops; and
# progs with the agent as nobody.
degraded: build
	cd $(BUILD) && WARD_DEGRADED=1 WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -R '^(progs|attacks|net)|^run$$' -E 'nobody|table|no-preload'
	cd $(BUILD) && WARD_DEGRADED=1 WARD_KERNEL_FEATURES=-openat2,-pidfd_getfd,-ptrace_syscall_info,-statx_mnt_id,-fdinfo_ino \
		WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -R '^(progs|attacks|net)' -E 'nobody|table|no-preload'
	cd $(BUILD) && WARD_DEGRADED=entry WARD_KERNEL_FEATURES=-openat2,-pidfd_getfd,-ptrace_syscall_info,-statx_mnt_id,-fdinfo_ino \
		WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -R '^(progs|net)' -E 'nobody|table|no-preload'
	cd $(BUILD) && WARD_DEGRADED=entry WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -R '^(progs|net)' -E 'nobody|table|no-preload'
	cd $(BUILD) && WARD_DEGRADED=1 WARD_TESTS_WARD_ONLY=1 \
		ctest --output-on-failure -j $(JOBS) -R '^progs-.*-nobody$$'

# The ward runs of progs, attacks, net and run on real older kernels, each
# booted under qemu (emulated: about 10 minutes a kernel on 2 CPUs, so not
# part of make check): Debian 11's 5.10 from Debian's archive, where a plain
# ward run gives every guarantee without the newer flags, and any kernel
# image VM_KERNEL names (RHEL 8's 4.18, built by tests/vm/build-kernel.sh:
# --degraded).  docs/testing.md.
VM_DIR ?= $(BUILD)/vm
VM_DEPS = qemu-system-x86 busybox-static
vm: build
	@$(MAKE) -s install-packages PACKAGES="$(VM_DEPS)"
	sh tests/vm/debian-kernel.sh $(VM_DIR)/5.10 bullseye
	sh tests/vm/suites.sh $(BUILD) $(VM_DIR)/5.10/vmlinuz $(VM_DIR)/5.10/modules
	$(if $(VM_KERNEL),sh tests/vm/suites.sh $(BUILD) $(VM_KERNEL))

check: deps
	$(MAKE) test
	$(MAKE) oldkernel
	$(MAKE) degraded
	$(MAKE) asan
	$(MAKE) fuzz

demo: deps build
	@sh tests/demo.sh $(BUILD)/ward

bench: deps bench-deps build
	bench/run.sh $(BUILD) 9

# DESTDIR (the environment's or make's) is where files go; PREFIX what they are named under.
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

deb: build
	cd $(BUILD) && cpack -G DEB
	@ls $(BUILD)/ward_*.deb

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
