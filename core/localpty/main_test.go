package localpty

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/internal/threadrepl"
)

// threadREPLEnv makes the test binary run as the thread REPL
// (internal/threadrepl): TestMain checks it.
const threadREPLEnv = "LOCALPTY_TEST_THREAD_REPL"

// TestMain gives the tests a private HOME (testenv.PrivateHome: the
// python3 REPLs they start keep their histories there) and checks for
// leaked goroutines and for any process a test left behind (every test marks its sessions with testMarkerPrefix).
func TestMain(m *testing.M) {
	if os.Getenv(threadREPLEnv) == "1" {
		// A session of a test runs this binary as the thread REPL.
		os.Exit(threadrepl.Run())
	}
	removeHome := testenv.MustPrivateHome()
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if pids := markedProcesses(testMarkerPrefix, true); len(pids) > 0 {
			fmt.Fprintf(os.Stderr, "localpty tests left processes behind: %v\n", pids)
			code = 1
		}
		removeHome()
		os.Exit(code)
	}))
}

// assertNoSurvivors fails t if a live process carries the marker.
func assertNoSurvivors(t *testing.T, marker string) {
	t.Helper()
	if pids := markedProcesses(marker, false); len(pids) > 0 {
		t.Errorf("processes of session %s survived: %v", marker, pids)
	}
}
