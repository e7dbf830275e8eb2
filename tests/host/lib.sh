# SPDX-License-Identifier: GPL-2.0
# The TAP runner and assertions shared by tests/host/*/run.sh (sourced).
#
#   $CLANG                        the clang of BPF programs (exported)
#   host_test_init NAME ARGS...   $filter from ARGS, $tmp (removed at exit),
#                                 the counters; before any t
#   t NAME FUNC                   run FUNC in its own directory under $tmp,
#                                 in a subshell; "ok N - NAME" or "not ok",
#                                 with FUNC's output as "#   " lines.  The
#                                 test named "build" runs whatever the filter.
#
# Each run.sh prints its own last line, "$passed passed, $failed failed".

# The clang of BPF programs, for the suites and the scripts they run: CLANG
# as the top-level Makefile exports it (BPF_CLANG), else common/clang.mk's.
: "${CLANG:=$(sed -n 's/^BPF_CLANG[[:space:]]*?=[[:space:]]*//p' "$top/common/clang.mk")}"
export CLANG

host_test_init() {	# NAME [FILTER]
	filter=${2:-}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1-test.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	passed=0 failed=0 n=0
}

# --- helpers: each failure message says what broke --------------------------

run() {		# CMD...: $rc, and stdout/stderr in the files out and err
	"$@" > out 2> err
	rc=$?
}

expect_rc() {	# CODE WHAT
	[ "$rc" = "$1" ] && return 0
	echo "$2: expected exit $1, got $rc"
	sed 's/^/stderr: /' err | head -n 8
	return 1
}

expect_err() {	# TEXT: stderr says it (the file and the reason)
	grep -qF -- "$1" err && return 0
	echo "expected stderr to contain '$1', got:"
	sed 's/^/stderr: /' err | head -n 8
	return 1
}

expect_eq() {	# GOT WANT WHAT
	[ "$1" = "$2" ] && return 0
	echo "$3: expected '$2', got '$1'"
	return 1
}

json() {	# FILE KEY: the value of KEY in a JSON object (Python spelling)
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

t() {
	local dir log
	case $1 in build | *"$filter"*) ;; *) return ;; esac
	n=$((n + 1))
	dir=$tmp/t$n
	mkdir "$dir"
	log=$(cd "$dir" && (set -u; "$2") 2>&1)
	if [ $? = 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		printf '%s\n' "$log" | sed 's/^/#   /'
	fi
}
