#!/bin/bash
# shellcheck disable=SC2016  # sh -c scripts are meant literally
# git.sh BUILD_DIR - everyday git under the default profile (docs/git.md):
# init, clone into the project, remote add, branch -m and config of names
# and remotes work; a config key that runs code, set by the agent, is put
# back when the session ends and never reaches a git run after it; a real
# hook cannot be made (samples can); what the session left in a repository
# it made below the project is put right too.
#
# Hermetic (HOME, XDG, TMPDIR in a fresh directory).
#   git.sh BUILD_DIR [nobody]
# With "nobody" (root only: skipped, 77, otherwise), the same checks as
# nobody, from copies nobody owns.  Output: TAP (lib.sh).
set -u
umask 022
BUILD=$(cd "${1:?usage: git.sh BUILD_DIR}" && pwd)
WARD=${WARD:-$BUILD/ward}
PASS_NAME=${GIT_PASS:-}
# shellcheck source=tests/integration/harness.sh
. "$(dirname "$0")/harness.sh"
[ "${2:-}" = nobody ] && nobody_part "$0" "$BUILD" GIT_PASS
hermetic_base git
export GIT_CONFIG_NOSYSTEM=1
unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_GLOBAL
git config --global user.email t@example.org
git config --global user.name T
git config --global init.defaultBranch main
git config --global protocol.file.allow always

L=$BASE/log.jsonl
E=$BASE/err
# run ARGS...: ward run -q --undecided deny in the current directory; RC; stderr in $E.
run() { rm -f "$L"; "$WARD" run --undecided deny --log "$L" "$@" 2>"$E"; RC=$?; }
PWN=$BASE/pwned

git init -q --bare "$BASE/upstream.git"
git clone -q "$BASE/upstream.git" "$BASE/seed" 2>/dev/null
(cd "$BASE/seed" && echo seed >README && git add README && git commit -qm seed && git push -q origin main)

# --------------------------------------------------- everyday commands

P=$BASE/fresh
mkdir -p "$P"
cd "$P" || exit 2
run -- sh -c 'set -e; git init -q; git config user.name Agent; git config user.email a@example.org
	git remote add origin "$1"; echo x >f; git add f; git commit -qm x; git branch -m trunk
	git fetch -q origin; git branch -q --set-upstream-to=origin/main trunk
	git clone -q "$1" vendor/dep' sh "$BASE/upstream.git"
check "git init, config, remote add, commit, branch -m, fetch, clone into the project" 0 "$RC"
check "...the config keeps the remote, the name and the branch" \
	"Agent $BASE/upstream.git refs/heads/main" \
	"$(git config user.name) $(git config remote.origin.url) $(git config branch.trunk.merge)"
check "...HEAD is the renamed branch" "refs/heads/trunk" "$(git symbolic-ref HEAD)"
check "...the clone is whole" "seed" "$(cat vendor/dep/README)"
check "...and nothing was put back" "" "$(grep -E 'put back|disabled|moved' "$E")"

# --------------------------------------------------- what runs code is put back

P=$BASE/proj
git clone -q "$BASE/upstream.git" "$P" 2>/dev/null
cd "$P" || exit 2
git config core.pager cat # the user's own setting, kept
run -- sh -c 'git config core.fsmonitor "touch $1.fsmonitor"
	git config core.hooksPath .myhooks; git config core.pager "touch $1.pager"
	git config alias.st "!touch $1.alias"; git config alias.co "-c core.fsmonitor=x checkout"
	git config include.path ../evil.inc; git config "includeIf.gitdir:/.path" ../evil.inc
	git config diff.x.textconv "touch $1.textconv"; git config filter.x.smudge "touch $1.smudge"
	git config credential.helper "!touch $1.cred"; git config core.sshCommand "touch $1.ssh"
	git config remote.origin.uploadpack "touch $1.up"; git config submodule.x.update "!touch $1.sub"
	git config user.name Agent2; git config remote.mirror.url /elsewhere
	git status >/dev/null' sh "$PWN"
check "the agent's git may set every key (the session is the agent's)" 0 "$RC"
check "ward says what it put back, on one line" \
	"ward: $P/.git/config: put back what runs code: core.pager, core.fsmonitor, core.hookspath, core.sshcommand, remote.origin.uploadpack, alias.st, alias.co, include.path, includeif.gitdir:/.path, diff.x.textconv, filter.x.smudge, credential.helper, submodule.x.update" \
	"$(grep -F "$P/.git/config" "$E")"
has "...and in session-end" "$L" \
	"\"event\":\"session-end\".*\"put_back\":\\[\\{\"file\":\"$P/.git/config\",\"put_back\":\"put back what runs code: core.pager, core.fsmonitor,"
check "the user's core.pager is as it was" "cat" "$(git config core.pager)"
check "no key that runs code is left" "" \
	"$(git config --list | grep -iE '^(core\.(fsmonitor|hookspath|sshcommand)|alias\.|include|diff\.x|filter\.x|credential|remote\.origin\.uploadpack|submodule\.x)' | tr '\n' ' ')"
check "what runs nothing is kept (a name, a remote)" "Agent2 /elsewhere" \
	"$(git config user.name) $(git config remote.mirror.url)"
git status >/dev/null 2>&1
git st >/dev/null 2>&1
check "a git run after the session runs none of it" "" "$(ls "$BASE" | grep '^pwned' | tr '\n' ' ')"

# The config replaced by a symlink to a file of the agent's, or spoiled.
echo '[core]
	fsmonitor = "touch '"$PWN"'.link"' >"$P/evil.conf"
run -- sh -c 'cp .git/config .git/config.new && ln -sf ../evil.conf .git/config.lnk &&
	mv -f .git/config.lnk .git/config'
check "a symlink renamed over .git/config goes through (rename is the agent's)" 0 "$RC"
check "...and is moved aside at the end, the config made again as it was" "no cat" \
	"$([ -L .git/config ] && echo yes || echo no) $(git config core.pager)"
has "...said" "$E" "^ward: $P/.git/config: was no file \\(moved to $P/.git/config.ward-moved\\); made again as it was$"
run -- sh -c 'printf "[core\n\tbroken" >.git/config'
check "a config git cannot read is put back as it was" "cat" "$(git config core.pager)"

# --------------------------------------------------- hooks

run -- sh -c 'echo "touch $1.hook" >.git/hooks/pre-commit' sh "$PWN"
check "a hook cannot be made" "2 no" "$RC $(there .git/hooks/pre-commit)"
has "...refused by the default profile" "$L" "\"path\":\"$P/.git/hooks/pre-commit\",\"decision\":\"deny\",\"errno\":\"EACCES\",\"rule\":\"builtin:default:[0-9]+\""
run -- sh -c 'mv .git/hooks/pre-push.sample .git/hooks/pre-push'
check "nor a sample renamed into one" "1 no" "$RC $(there .git/hooks/pre-push)"
run -- sh -c 'echo "# sample" >.git/hooks/new.sample'
check "a sample can be made" "0 yes" "$RC $(there .git/hooks/new.sample)"
mkdir -p "$P/myhooks"
run -- sh -c 'rm -rf .git/hooks'
check "the hooks directory cannot be removed (its samples can)" "yes" "$(there .git/hooks)"
run -- rmdir .git
check "nor .git" "1 yes" "$RC $(there .git)"

# --------------------------------------------------- a repository the session made

P=$BASE/made
mkdir -p "$P"
cd "$P" || exit 2
run -- sh -c 'git init -q sub && git -C sub config core.fsmonitor "touch $1.sub-fsmonitor" &&
	printf "#!/bin/sh\ntouch $1.sub-hook\n" >sub/.git/hooks/post-checkout &&
	chmod +x sub/.git/hooks/post-checkout && git -C sub config user.name Sub' sh "$PWN"
check "a repository made below the project: made as the agent likes" 0 "$RC"
check "...its key that runs code is put back" "no Sub" \
	"$(git -C sub config core.fsmonitor >/dev/null && echo yes || echo no) $(git -C sub config user.name)"
check "...its hook disabled" "no yes" \
	"$(there sub/.git/hooks/post-checkout) $(there sub/.git/hooks/post-checkout.ward-disabled)"
has "...said" "$E" "^ward: $P/sub/.git/hooks: disabled the hooks the session made \\(NAME.ward-disabled\\): post-checkout$"
git -C sub status >/dev/null 2>&1
git -C sub checkout -q -b x 2>/dev/null
check "...and a git run after the session runs none of it" "" "$(ls "$BASE" | grep '^pwned' | tr '\n' ' ')"

# The project had no repository: git init in it, then a hook the session
# could not make, and a .git made as a file naming another repository.
P=$BASE/link
mkdir -p "$P" "$BASE/other"
git init -q --bare "$BASE/other/repo.git"
git -C "$BASE/other/repo.git" config core.fsmonitor "touch $PWN.other"
cd "$P" || exit 2
run -- sh -c 'echo "gitdir: $1" >.git' sh "$BASE/other/repo.git"
check "a .git file the session made, naming another repository, is moved aside" "no yes" \
	"$(there .git) $(there .git.ward-moved)"
git status >/dev/null 2>&1
check "...so the user's git does not run that repository's config here" "" \
	"$(ls "$BASE" | grep '^pwned' | tr '\n' ' ')"

summary
