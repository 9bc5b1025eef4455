package screen

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/internal/procfs"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// testTokenEnv marks every process the tests start, so that TestMain can
// find any that survived.
const testTokenEnv = "PTYSEAM_SCREEN_TEST"

var testToken = func() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// TestMain gives the tests a private HOME (testenv.PrivateHome: vim,
// less and the shells they start keep their files there) and checks for
// leaked goroutines and for processes left behind.
func TestMain(m *testing.M) {
	removeHome := testenv.MustPrivateHome()
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if pids := markedProcesses(); len(pids) > 0 {
			fmt.Fprintf(os.Stderr, "screen tests left processes behind: %v\n", pids)
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			code = 1
		}
		removeHome()
		os.Exit(code)
	}))
}

// markedProcesses lists live processes whose environment carries this
// test run's token (Linux /proc; none elsewhere).
func markedProcesses() []int {
	all, _ := procfs.ListPIDs()
	var pids []int
	for _, pid := range all {
		if procfs.HasEnv(pid, testTokenEnv+"="+testToken) && procfs.Alive(pid, 0) {
			pids = append(pids, pid)
		}
	}
	return pids
}
