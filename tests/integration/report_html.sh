#!/bin/bash
# report_html.sh BUILD_DIR - the page of ward report --html, in a real browser.
#
# Headless Chromium loads the page from a file and prints the DOM it built
# (--dump-dom, after the page's own script ran); the test reads that DOM:
# the counts, a filtered view (the filters are read from the #fragment), a
# file named <script> shown as text.  A screenshot is left in BUILD_DIR for
# people to look at.  Exit 77 (skipped) when there is no chromium.
set -u
BUILD=$(cd "${1:?usage: report_html.sh BUILD_DIR}" && pwd)
WARD=$BUILD/ward
SRC=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$SRC/tests/report
CHROMIUM=$(command -v chromium || command -v chromium-browser) || {
	echo "# no chromium (make deps installs it): skipped"
	exit 77
}
BASE=$(mktemp -d /tmp/ward-html.XXXXXX)
trap 'rm -rf "$BASE"' EXIT

N=0 PASS=0 FAIL=0
check() { # WHAT EXPECTED GOT
	N=$((N + 1))
	if [ "$2" = "$3" ]; then PASS=$((PASS + 1)); echo "ok $N - $1"
	else FAIL=$((FAIL + 1)); echo "not ok $N - $1 (expected '$2', got '$3')"; fi
}
golden_env() {
	env -i PATH=/usr/bin:/bin HOME=/tmp/ward-golden/home TMPDIR=/tmp/ward-golden/tmp \
		XDG_CONFIG_HOME=/tmp/ward-golden/home/.config LC_ALL=C "$@"
}
browser() { # ARGS...: headless, with a profile of its own, bounded in time
	timeout -k 5 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$BASE/profile" --virtual-time-budget=5000 "$@" 2>/dev/null
}
# dom URL: the DOM Chromium built from the page at URL.
dom() { browser --dump-dom "$1"; }
# q DOMFILE PYTHON-EXPR: evaluated with the page parsed (els: every element as (tag, attrs, text)).
q() {
	python3 - "$@" <<'PY'
import sys, html.parser
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.els, self.stack = [], []
    def handle_starttag(self, tag, attrs):
        e = [tag, dict(attrs), ""]
        self.els.append(e)
        if tag not in ("meta", "br", "input", "path", "rect", "line"):
            self.stack.append(e)
    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
    def handle_data(self, d):
        for e in self.stack:
            e[2] += d
p = P()
p.feed(open(sys.argv[1]).read())
els = p.els
def by_id(i):
    return next(e for e in els if e[1].get("id") == i)
def rows(table, shown=False):
    return [e for e in table_rows.get(table, []) if "data-row" in e[1] and (not shown or "hidden" not in e[1])]
def count(tag):
    return sum(1 for e in els if e[0] == tag)
# Rows by the table they are in: a table's rows follow it until the next table.
table_rows, cur = {}, None
for e in els:
    if e[0] == "table":
        cur = e[1].get("data-table")
        table_rows[cur] = []
    elif e[0] == "tr" and cur is not None:
        table_rows[cur].append(e)
print(eval(sys.argv[2]))
PY
}

cd "$FIX" || exit 2
golden_env "$WARD" report --html "$BASE/agent.html" agent.jsonl >/dev/null 2>"$BASE/err"
check "report --html: written, and said where" "0 ward: the HTML report is in $BASE/agent.html" \
	"$? $(cat "$BASE/err")"
golden_env "$WARD" report --json agent.jsonl >"$BASE/agent.json"
J() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$BASE/agent.json" "$1"; }
check "the page fetches nothing: no src= or href= to anywhere" 0 \
	"$(grep -coE '(src|href)="[a-z]+:' "$BASE/agent.html")"

dom "file://$BASE/agent.html" >"$BASE/dom.html"
check "chromium built the page" 1 "$(grep -c '<h1>ward report: session <code>' "$BASE/dom.html")"
check "the cards: denied, processes, changed in the project" \
	"$(J 'd["counts"]["denied"]') $(J 'len(d["processes"])') $(J 'len(d["changed_in_project"])')" \
	"$(q "$BASE/dom.html" '" ".join(by_id("card-" + c)[2].split()[0] for c in ["denied", "processes", "changed-in-project"])')"
check "every refusal is a row" "$(J 'len(d["refused"])')" "$(q "$BASE/dom.html" 'len(rows("refused"))')"
check "the process tree has every process" "$(J 'len(d["processes"])')" \
	"$(q "$BASE/dom.html" 'sum(1 for e in els if e[0] == "li" and "data-proc" in e[1])')"
check "a file named <script>alert(1) is text in a cell, and the page has one script, its own" \
	"True 1" \
	"$(q "$BASE/dom.html" 'str(any(e[0] == "td" and "/<script>alert(1)" in e[2] for e in els)) + " " + str(count("script"))')"
check "the timeline is inline SVG with bars and a mark for each refusal" "True $(J 'len(d["timeline"]["denials"])')" \
	"$(q "$BASE/dom.html" 'str(any(e[0] == "rect" for e in els)) + " " + str(sum(1 for e in els if e[0] == "path" and e[1].get("class") == "mark"))')"

# A filtered view: the filters come from the address, as a link to one would give them.
build_dir=/tmp/ward-golden/project/build
dom "file://$BASE/agent.html#dir=$build_dir&op=create" >"$BASE/dom-build.html"
check "#dir=...&op=create: only the files made in that directory are shown" \
	"$(J "sum(1 for p in d['changed_in_project'] if p['path'].startswith('$build_dir/'))") 0" \
	"$(q "$BASE/dom-build.html" 'str(len(rows("changed-in-project", True))) + " " + str(len(rows("read-outside", True)))')"
check "...and the heading says how many of all" \
	"$(J "sum(1 for p in d['changed_in_project'] if p['path'].startswith('$build_dir/'))") of $(J 'len(d["changed_in_project"])') shown" \
	"$(q "$BASE/dom-build.html" 'by_id("shown-changed-in-project")[2]')"
dom "file://$BASE/agent.html#decision=denied" >"$BASE/dom-denied.html"
check "#decision=denied: the refusals that were denied, and the network destination refused" \
	"$(J 'sum(1 for r in d["refused"] if r["denied"])') 1" \
	"$(q "$BASE/dom-denied.html" 'str(len(rows("refused", True))) + " " + str(len(rows("network", True)))')"
dom "file://$BASE/agent.html#prog=git" >"$BASE/dom-git.html"
check "#prog=git: the git processes, and what they ran below them, are left in the tree" \
	"$(J 'sum(1 for p in d["processes"] if p["argv"] and p["argv"][0].endswith("git"))')" \
	"$(q "$BASE/dom-git.html" 'sum(1 for e in els if e[0] == "li" and "data-proc" in e[1] and "hidden" not in e[1] and e[1].get("data-prog") == "git")')"

# The page of a log with markup and escapes in every kind of name.
cat >"$BASE/odd.jsonl" <<'EOF'
{"ts":"2026-01-01T00:00:00.000000Z","session":"<b>x</b>","event":"session-start","argv":["sh","-c","</script><script>alert(2)</script>"],"cwd":"/p","project":"/p\"><img src=x>","profile":"default","policy":[],"mode":"enforce","version":"0.1.0","kernel":{"release":"6.1"}}
{"ts":"2026-01-01T00:00:00.100000Z","session":"x","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/<i>cat","syscall":"openat","op":"read","path":"/etc/<script>alert(3)</script>","decision":"deny","errno":"EACCES","rule":"builtin:default:9","by":"policy"}
{"ts":"2026-01-01T00:00:00.200000Z","session":"x","event":"connect","pid":5,"ppid":1,"exe":"/usr/bin/x","syscall":"connect","op":"connect","addr":"1.2.3.4","port":1,"host":"<svg onload=alert(4)>","decision":"allow","rule":"r","by":"policy"}
EOF
golden_env "$WARD" report --html "$BASE/odd.html" "$BASE/odd.jsonl" >/dev/null 2>&1
dom "file://$BASE/odd.html" >"$BASE/dom-odd.html"
check "markup in the session id, argv, project, path, program and host: all text, no element made" \
	"script 1 img 0 i 0 svg 1 onload 0" \
	"$(q "$BASE/dom-odd.html" '" ".join("%s %d" % (t, count(t)) for t in ["script", "img", "i", "svg"]) + " onload %d" % sum(1 for e in els if "onload" in e[1])')"
check "...and shown as it is" "True True" \
	"$(q "$BASE/dom-odd.html" 'str(any("/etc/<script>alert(3)</script>" in e[2] for e in els if e[0] == "td")) + " " + str(any("<svg onload=alert(4)>" in e[2] for e in els if e[0] == "td"))')"
check "...the session id too, in the heading" True \
	"$(q "$BASE/dom-odd.html" 'any("<b>x</b>" in e[2] for e in els if e[0] == "h1")')"

# For people: how the page looks.
shot=$BUILD/report-screenshot.png
rm -f "$shot"
browser --screenshot="$shot" --window-size=1280,2400 "file://$BASE/agent.html" >/dev/null
check "a screenshot is written" PNG "$(head -c 4 "$shot" 2>/dev/null | tail -c 3)"
echo "# screenshot of the page: $shot"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
