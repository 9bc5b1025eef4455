package screen

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

// testTokenEnv marks every process the tests start, so that TestMain can
// find any that survived.
const testTokenEnv = "PTYSEAM_SCREEN_TEST"

var testToken = func() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// TestMain checks for leaked goroutines and for processes left behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if pids := markedProcesses(); len(pids) > 0 {
			fmt.Fprintf(os.Stderr, "screen tests left processes behind: %v\n", pids)
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			code = 1
		}
		os.Exit(code)
	}))
}

// markedProcesses lists live processes whose environment carries this
// test run's token (Linux /proc; none elsewhere).
func markedProcesses() []int {
	want := []byte(testTokenEnv + "=" + testToken + "\x00")
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(append(env, 0), want) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join(d, "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			continue // a zombie is gone, only not yet reaped
		}
		if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}
