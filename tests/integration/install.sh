#!/bin/bash
# install.sh BUILD_DIR - what make install and make deb install, and the
# installed ward run from there: the program, ward(1) and ward-policy(5),
# the profiles, the bash, zsh and fish completions; the Debian package's
# declared dependencies, and its ward run from the unpacked package.
set -u
BUILD=$(cd "${1:?usage: install.sh BUILD_DIR}" && pwd)
# shellcheck source=tests/integration/harness.sh
. "$(dirname "$0")/harness.sh"
hermetic_base install proj
for tool in zsh fish lexgrog dpkg-deb cpack; do
	command -v "$tool" >/dev/null || bail "$tool is missing (make deps installs it)"
done

# ------------------------------------------------------------ make install

DEST=$BASE/dest
if ! DESTDIR=$DEST cmake --install "$BUILD" --prefix /usr/local >"$BASE/install.log" 2>&1; then
	sed 's/^/#   /' "$BASE/install.log"
	nok "cmake --install into DESTDIR"
fi
U=$DEST/usr/local
check "ward is installed, executable" "yes" "$([ -x "$U/bin/ward" ] && echo yes || echo no)"
check "the preload library is installed where ward looks for it (lib/ward beside bin)" "yes" \
	"$([ -f "$U/lib/ward/libward-preload.so" ] && echo yes || echo no)"
for page in man1/ward.1.gz man5/ward-policy.5.gz; do
	check "the man page $page, with a NAME line whatis reads" "yes" \
		"$(lexgrog "$U/share/man/$page" >/dev/null 2>&1 && echo yes || echo no)"
done
check "ward(1) documents doctor" "yes" "$(zgrep -q 'ward doctor' "$U/share/man/man1/ward.1.gz" && echo yes || echo no)"
names=$("$U/bin/ward" help profiles | sed -n 's/^  \([a-z][a-z-]*\)\( (on [a-z]*)\)\{0,1\}$/\1/p' | sort | tr '\n' ' ')
check "every built-in profile is installed, as ward holds it" "$names" \
	"$(for f in "$U"/share/ward/profiles/*.policy; do basename "$f" .policy; done | sort | tr '\n' ' ')"
for f in "$U"/share/ward/profiles/*.policy; do
	cmp -s "$f" "$SRC/rules/profiles/$(basename "$f")" || nok "$(basename "$f") differs from the source"
done

# The installed ward runs from there.
cd "$BASE/proj" || exit 2
out=$("$U/bin/ward" --version | head -n 1)
check "the installed ward --version" "ward $(sed -n 's/^project(ward VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")" "$out"
"$U/bin/ward" run -q --log "$BASE/log" -- sh -c 'echo ran >out'
check "the installed ward runs a command" "0 ran" "$? $(cat out 2>/dev/null)"
"$U/bin/ward" run -q --log "$BASE/log" -- sh -c 'cat ~/.ssh/id_rsa 2>/dev/null; echo x >~/.bashrc' 2>/dev/null
check "...under its policy" "2 no" "$? $(there "$HOME/.bashrc")"

# The README's links to docs/ find the installed docs.
missing=
for link in $(grep -o '](docs/[a-z0-9.-]*\.md)' "$SRC/README.md" | tr -d '()]' | sort -u); do
	[ -f "$U/share/doc/ward/$link" ] || missing="$missing $link"
done
check "the README is installed, and each docs/ page it links to beside it" "yes ''" \
	"$(there "$U/share/doc/ward/README.md") '$missing'"

# Completions: bash's completes profiles in a list; zsh and fish parse theirs.
got=$(bash -c '. "$1"; COMP_WORDS=(ward run --profile claude-code,n); COMP_CWORD=3; _ward
	echo "${COMPREPLY[*]}"; COMP_WORDS=(ward d); COMP_CWORD=1; _ward; echo "${COMPREPLY[*]}"
	COMP_WORDS=(ward help p); COMP_CWORD=2; _ward; echo "${COMPREPLY[*]}"' sh \
	"$U/share/bash-completion/completions/ward")
check "bash: --profile claude-code,n completes to claude-code,npm" "claude-code,npm" "$(sed -n 1p <<<"$got")"
check "bash: ward d completes to doctor" "doctor" "$(sed -n 2p <<<"$got")"
check "bash: ward help p completes to profiles and policy" "profiles policy" "$(sed -n 3p <<<"$got")"
check "zsh's completion parses, and names the profiles" "0 yes" \
	"$(zsh -n "$U/share/zsh/vendor-completions/_ward"; echo $?) $(grep -q 'claude-code' "$U/share/zsh/vendor-completions/_ward" && echo yes)"
got=$(fish -c "source $U/share/fish/vendor_completions.d/ward.fish; complete -C'ward run --profile '" 2>&1 | cut -f1 | sort | tr '\n' ' ')
check "fish: --profile completes the profiles" \
	"aider audit cargo claude-code codex default go npm opencode pip strict " "$got"
got=$(fish -c "source $U/share/fish/vendor_completions.d/ward.fish; complete -C'ward '" 2>&1 | cut -f1 | sort | tr '\n' ' ')
check "fish: the commands" "approve check doctor explain help learn report run sessions trust " "$got"

# ------------------------------------------------------------ make deb

if ! (cd "$BASE" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$BASE/pkg") >"$BASE/cpack.log" 2>&1; then
	sed 's/^/#   /' "$BASE/cpack.log" | tail -n 20
	nok "cpack makes the Debian package"
fi
deb=$(ls "$BASE"/pkg/ward_*.deb 2>/dev/null | head -n 1)
check "the package is ward_VERSION_ARCH.deb" "yes" \
	"$([[ $(basename "$deb") == ward_*_"$(dpkg --print-architecture)".deb ]] && echo yes || echo no)"
depends=$(dpkg-deb -f "$deb" Depends 2>/dev/null)
for d in libseccomp2 libjansson4 libelf1 git; do
	check "its Depends declares $d" "yes" "$(grep -q "$d" <<<"$depends" && echo yes || echo "no: $depends")"
done
dpkg-deb -x "$deb" "$BASE/root"
check "it holds ward(1), the profiles and the completions" "yes yes yes" \
	"$(there "$BASE/root/usr/share/man/man1/ward.1.gz") $(there "$BASE/root/usr/share/ward/profiles/claude-code.policy") $(there "$BASE/root/usr/share/bash-completion/completions/ward")"
"$BASE/root/usr/bin/ward" run -q --log "$BASE/log" -- true
check "the packaged ward runs a command" 0 "$?"

summary
