package localpty

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// pumpREPL reads its terminal on a thread of its own, all along, and
// works on each line on its main thread, as jshell and the other REPLs on
// a JVM do (JLine's reader thread): its read of the terminal says nothing
// of whether it has answered.
const pumpREPL = `import queue, sys, threading, time
lines = queue.Queue()
def pump():
    for line in sys.stdin:
        lines.put(line)
threading.Thread(target=pump, daemon=True).start()
sys.stdout.write("calc> "); sys.stdout.flush()
while True:
    line = lines.get().strip()
    time.sleep(0.3)
    sys.stdout.write("= " + line * 2 + "\ncalc> "); sys.stdout.flush()
`

// A send to a REPL that reads its terminal on another thread than the one
// that answers settled on the reader's next read, right after the echo:
// each answer came with the next send. A program that showed a prompt
// and whose output ends on a complete line since has not answered yet.
func TestSendToASideThreadReaderWaitsForItsPrompt(t *testing.T) {
	need(t, "python3")
	script := filepath.Join(t.TempDir(), "pump.py")
	mustf(t, os.WriteFile(script, []byte(pumpREPL), 0o600), "write the script")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, "python3 "+script)
	if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, "calc> ") {
		t.Fatalf("start: settled as %s after %v with %q, want stdin_read at its prompt", res.WaitReason, res.Elapsed, res.Delta)
	}
	for _, line := range []string{"ab", "cd"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
		res := sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: line, QuietWindow: 5 * time.Second, Timeout: 2 * waitLimit})
		cancel()
		if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, "= "+line+line+"\ncalc> ") {
			t.Fatalf("send %q: settled as %s after %v with %q, want stdin_read at its answer", line, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
}
