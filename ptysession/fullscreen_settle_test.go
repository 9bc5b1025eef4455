package ptysession

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// redrawing returns a python3 program that writes start, then frame (a
// %-format of a counter) every 0.8 s; it never reads input.
func redrawing(start, frame string) string {
	return fmt.Sprintf(`
import os, time
os.write(1, %q.encode())
n = 0
while True:
    n += 1
    os.write(1, (%q %% n).encode())
    time.sleep(0.8)
`, start, frame)
}

// redrawingProgram takes the alternate screen and redraws a counter by
// cursor address, as watch does.
var redrawingProgram = redrawing("\x1b[?1049h\x1b[H\x1b[2J", "\x1b[1;1HEvery 0.8s: count\x1b[3;1H%d")

// TestOpenOfARedrawingProgramReturnsItsScreen: a full-screen program
// that redraws every second and never reads (watch) settles once a
// redraw went quiet, not at the open's deadline.
func TestOpenOfARedrawingProgramReturnsItsScreen(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: JoinCommand([]string{"python3", "-c", redrawingProgram})})
		if r.WaitReason != core.WaitInferredIdle {
			t.Fatalf("the open settled %s, want %s", r.WaitReason, core.WaitInferredIdle)
		}
	})
}

// refreshingTable clears the screen and prints a table again and again,
// as docker stats does.
var refreshingTable = redrawing("", "\x1b[2J\x1b[HNAME   CPU\r\nweb    %d%%\r\n")

// TestARefreshingTableShowsItsScreen: a program that clears the screen
// and draws again and again (docker stats) is a screen: a send that
// starts it settles once a refresh went quiet, not at its deadline.
func TestARefreshingTableShowsItsScreen(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		if res := sendPythonToShell(t, s, refreshingTable); res.WaitReason != core.WaitInferredIdle {
			t.Fatalf("a refreshing table settled %s: %q", res.WaitReason, res.Delta)
		}
	})
}

// sendPythonToShell opens a shell and sends it a python3 -c of prog,
// with a deadline of 10 s (a hang guard), and returns the send's result.
func sendPythonToShell(t *testing.T, s *Sessions, prog string) SendResult {
	t.Helper()
	owner := core.NewOwner("agent")
	r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
	waitPrompt(t, s, owner, r.SessionID)
	res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: JoinCommand([]string{"python3", "-c", prog}), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// statusLineProgram prints lines above a progress line it keeps on the
// last row, as apt does: a scroll region, then the status drawn by
// cursor address between a save and a restore of the cursor. It pauses
// a second between steps, then prints done.
const statusLineProgram = `
import os, time
os.write(1, b"\n\x1b7\x1b[0;23r\x1b8\x1b[1A")
for i in range(3):
    os.write(1, ("Unpacking package %d ...\r\n\x1b7\x1b[24;0f\x1b[42mProgress: [%3d%%]\x1b[49m\x1b8" % (i, 30 * i)).encode())
    time.sleep(1)
os.write(1, b"\x1b7\x1b[0;24r\x1b8\x1b[J")
print("done")
`

// TestAStatusLineIsNotAScreen: a program that keeps a progress line on
// the last row (apt) is a command printing lines, not a full-screen
// program: its pauses keep the command's quiet window.
func TestAStatusLineIsNotAScreen(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		if res := sendPythonToShell(t, s, statusLineProgram); res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, "done\n") {
			t.Fatalf("a status-line program settled %s: %q", res.WaitReason, res.Delta)
		}
	})
}

// TestQuietAfterAClearIsNotAScreen: a command that clears the screen
// (as clear does) or draws by cursor address and then works quietly
// keeps the quiet window of a command: it settles on its prompt.
func TestQuietAfterAClearIsNotAScreen(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		for _, cmd := range []string{
			`printf '\033[H\033[2J\033[3J'; sleep 1; echo done`,
			`printf '\033[5;1Hdrawn\n'`,
			`sleep 1; echo done`,
		} {
			res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: cmd})
			if err != nil {
				t.Fatal(err)
			}
			if res.WaitReason != core.WaitPrompt || (strings.HasSuffix(cmd, "done") && !strings.Contains(res.Delta, "done\n")) {
				t.Fatalf("%q settled %s: %q", cmd, res.WaitReason, res.Delta)
			}
		}
	})
}
