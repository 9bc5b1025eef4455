package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// processDirs are the directories ProcessDir made, by prefix.
var processDirs struct {
	mu   sync.Mutex
	dirs map[string]string
}

// ProcessDir returns a directory (mode 0700) of this test process's own
// in the temporary directory, which every process of the machine shares:
// prefix followed by "<pid>-<start time>", made on the first call for that
// prefix (and again if it was removed since). [RemoveRegistered] removes
// it (testharness.Cleanup calls it at the process's end). A test binary
// killed at its timeout runs no cleanup, so the first call also removes
// the directories of the same prefix whose process has ended (no process
// has the pid, or the one that has it started at another time).
func ProcessDir(prefix string) (string, error) {
	processDirs.mu.Lock()
	defer processDirs.mu.Unlock()
	if d, ok := processDirs.dirs[prefix]; ok {
		if _, err := os.Stat(d); err == nil {
			return d, nil
		}
		// Removed by a cleanup that was not the process's last: again.
		if err := os.Mkdir(d, 0o700); err != nil {
			return "", err
		}
		return d, nil
	}
	tmp := os.TempDir()
	sweepProcessDirs(tmp, prefix)
	pid := os.Getpid()
	dir := filepath.Join(tmp, fmt.Sprintf("%s%d-%d", prefix, pid, startTime(pid)))
	// One left by a process with our pid and start time cannot be live.
	if err := RemoveTree(dir); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	if processDirs.dirs == nil {
		processDirs.dirs = map[string]string{}
	}
	processDirs.dirs[prefix] = dir
	RemoveAtCleanup(dir)
	return dir, nil
}

// startTime returns what tells a process from a later one that reuses its
// pid: its start time in clock ticks since boot (Linux), or 0 where /proc
// cannot say.
func startTime(pid int) uint64 {
	st, _ := procfs.ReadStat(pid, nil)
	return st.StartTime
}

// sweepProcessDirs removes the directories in tmp named by ProcessDir for
// prefix whose process has ended.
func sweepProcessDirs(tmp, prefix string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, prefix+"*"))
	for _, dir := range dirs {
		pidText, startText, ok := strings.Cut(strings.TrimPrefix(filepath.Base(dir), prefix), "-")
		if !ok {
			continue
		}
		pid, err1 := strconv.Atoi(pidText)
		start, err2 := strconv.ParseUint(startText, 10, 64)
		if err1 != nil || err2 != nil || pid <= 0 || ProcessAlive(pid, start) {
			continue
		}
		_ = RemoveTree(dir)
	}
}
