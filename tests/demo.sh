#!/bin/sh
# make demo: what ward decides under the built-in default profile.
# (`ward run` is not built yet; this shows the policy engine through
# `ward explain`, which judges each target the way the supervisor will.)
set -eu
ward=${1:-build/ward}
cd "$(dirname "$0")/.."

say() { printf '\n\033[1m%s\033[0m\n' "$*"; }
ex() { printf '  $ ward explain %s\n  ' "$*"; "$ward" explain -q "$@"; }

say "ward $("$ward" --version | cut -d' ' -f2): the default profile, judged from $(pwd)"

say "Reading: the project and the system yes, credentials no"
ex read ./README.md
ex read /etc/passwd
ex read ~/.ssh/id_ed25519
ex read ~/.aws/credentials
ex read ~/.npmrc

say "Writing: the project and scratch space yes; start-up files and git hooks no"
ex write ./src/main.c
ex create /tmp/build.log
ex write ~/.bashrc
ex create ./.git/hooks/pre-commit
ex write ~/.config/ward/policy

say "Programs: anything but privilege tools (asked) and anonymous files"
ex exec /usr/bin/git
ex exec /usr/bin/sudo
ex exec memfd:payload

say "Network: cloud metadata never; the host's own services only when the session bound them"
ex connect 169.254.169.254:80
ex connect 127.0.0.1:5432
ex connect unix:/run/docker.sock
ex connect registry.npmjs.org:443

say "Other processes are out of reach"
ex read /proc/1/environ

say "A rule on the command line is the last layer, so it wins..."
printf '  $ ward explain -r "allow connect registry.npmjs.org:443" connect registry.npmjs.org:443\n  '
"$ward" explain -q -r "allow connect registry.npmjs.org:443" connect registry.npmjs.org:443
say "...except over a deny!, such as ward's own self-protection"
printf '  $ ward explain -r "allow * ~/.config/ward/**" write ~/.config/ward/policy\n  '
"$ward" explain -q -r "allow * $HOME/.config/ward/**" write ~/.config/ward/policy

say "The whole compiled policy: $ward check"
"$ward" check -q | sed -n '1,12p'
echo "  ... ($("$ward" check -q | wc -l) lines)"
