# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The cred family of ward's syscall table:
# setuid and its family, setgroups, capset.  Notified only under a root
# ward, where the agent keeps the credentials it started with (ward acts
# for it with root's); an unprivileged agent gets the kernel's answers.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

t "cred: setting one's own ids goes on" cred \
	setuid OWN , setgid OWN , setreuid -1 OWN , setregid OWN -1 , setresuid OWN OWN -1 , \
	setresgid -1 -1 OWN , setfsuid OWN , setfsgid OWN <<EOF
setuid(OWN) = 0
setgid(OWN) = 0
setreuid(-1, OWN) = 0
setregid(OWN, -1) = 0
setresuid(OWN, OWN, -1) = 0
setresgid(-1, -1, OWN) = 0
setfsuid(OWN) = OWN
setfsgid(OWN) = OWN
EOF

# Under a root ward another id would take every call ward makes for the
# agent with root's credentials: refused, and so are the lists of
# setgroups and capset (in memory: not read).
chk_cred_policy() {
	logged '"syscall":"setuid"' '"decision":"deny"' '"errno":"EPERM"'
	logged '"syscall":"capset"' '"decision":"deny"' '"errno":"EPERM"'
}
t -w -R -c chk_cred_policy "cred: under a root ward, other ids, groups and capabilities are refused" cred \
	setuid 65534 , setgid 65534 , setreuid 65534 -1 , setregid -1 65534 , setresuid -1 -1 65534 , \
	setresgid 65534 65534 65534 , setfsuid 65534 , setfsgid 65534 , setgroups OWN , setgroups 0 , \
	capset <<EOF
setuid(65534) = -1 EPERM
setgid(65534) = -1 EPERM
setreuid(65534, -1) = -1 EPERM
setregid(-1, 65534) = -1 EPERM
setresuid(-1, -1, 65534) = -1 EPERM
setresgid(65534, 65534, 65534) = -1 EPERM
setfsuid(65534) = -1 EPERM
setfsgid(65534) = -1 EPERM
setgroups([the caller's]) = -1 EPERM
setgroups([0]) = -1 EPERM
capset({_LINUX_CAPABILITY_VERSION_3, 0}, [the caller's]) = -1 EPERM
EOF

t -U "cred: an unprivileged caller gets the kernel's own answers" cred \
	setuid 0 , setresuid 0 -1 -1 , setfsuid 0 , setgroups 0 , capset <<EOF
setuid(0) = -1 EPERM
setresuid(0, -1, -1) = -1 EPERM
setfsuid(0) = OWN
setgroups([0]) = -1 EPERM
capset({_LINUX_CAPABILITY_VERSION_3, 0}, [the caller's]) = 0
EOF
