package localpty

import "testing"

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
	checkREPLAnswers(t, pumpREPL, "calc> ", []string{"ab", "cd"}, func(line string) string { return "= " + line + line + "\ncalc> " })
}
