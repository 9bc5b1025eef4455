package sshagent

import (
	"fmt"
	"slices"
	"strings"
)

// startAnswerMark begins what the start script prints when it does not
// run the agent: a status, then the far side's `uname -s`, `uname -m` and
// agent cache directory, one a line.
const startAnswerMark = "ptyseam-start-answer"

// The statuses of a start answer.
const (
	startUnknown  = "unknown"  // no configured binary for this platform (or no absolute cache directory)
	startMissing  = "missing"  // the binary for this platform is not in the cache
	startMismatch = "mismatch" // the cached file is not the binary its name says
)

// binary is a configured local agent binary and its SHA-256.
type binary struct {
	platform string // GOOS/GOARCH
	local    string
	sum      string
	size     int64
	err      error // reading it failed: reported if the far side needs it
}

// startScript is the one command that starts a cached agent: it finds the
// far side's platform and cache directory, picks the binary configured
// for that platform, checks the cached file's SHA-256 and execs it. When
// it cannot, it prints a start answer (startAnswerMark) and fails, so
// that the host can upload the binary or say what is wrong, and nothing
// unchecked ever runs.
func startScript(bins []binary) string {
	var b strings.Builder
	// Few processes (each costs a fork and exec on a loaded far side): one
	// uname, and the hash cut from sha256sum's line by the shell.
	b.WriteString(`u=$(uname -sm); k=${u% *}; m=${u##* }; d="${XDG_CACHE_HOME:-$HOME/.cache}/ptyseam"; s=; n=; `)
	b.WriteString(`case "$d" in /*) case "$k/$m" in `)
	for _, bin := range bins {
		pats := unamePatterns(bin.platform)
		if bin.err != nil || len(pats) == 0 {
			continue
		}
		fmt.Fprintf(&b, `%s) s=%s; n=%s;; `, strings.Join(pats, "|"), bin.sum, agentName(bin.sum))
	}
	b.WriteString(`esac;; esac; `)
	fmt.Fprintf(&b, `if [ -z "$s" ]; then r=%s; else f="$d/$n"; `, startUnknown)
	fmt.Fprintf(&b, `if [ ! -x "$f" ]; then r=%s; `, startMissing)
	b.WriteString(`elif h=$(sha256sum "$f" 2>/dev/null) && [ "${h%% *}" = "$s" ]; then exec "$f" agent; `)
	fmt.Fprintf(&b, `else r=%s; fi; fi; `, startMismatch)
	fmt.Fprintf(&b, `printf '%%s\n' "%s $r" "$k" "$m" "$d"; exit 1`, startAnswerMark)
	return b.String()
}

// startAnswer is what the start script said instead of running the agent.
type startAnswer struct {
	status          string
	kernel, machine string
	cacheDir        string
}

// parseStartAnswer finds the last start answer in out (what the far side
// printed: a login script's words may come before it, its stderr after).
func parseStartAnswer(out string) (startAnswer, bool) {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		status, ok := strings.CutPrefix(strings.TrimRight(lines[i], "\r"), startAnswerMark+" ")
		if !ok {
			continue
		}
		if !slices.Contains([]string{startUnknown, startMissing, startMismatch}, status) || len(lines) < i+4 {
			return startAnswer{}, false
		}
		get := func(j int) string { return strings.TrimSpace(lines[i+j]) }
		return startAnswer{status: status, kernel: get(1), machine: get(2), cacheDir: get(3)}, true
	}
	return startAnswer{}, false
}
