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

// javaLikeQuiz asks its questions from a thread other than its process's
// first, as every Java program's main method runs: it reads only when it
// asks, and its next question is a line of its own.
const javaLikeQuiz = `import sys, threading
def main():
    name = input("Name: ")
    print("hello " + name)
    print("Age?")
    age = input()
    print("age " + age)
    print("Town?")
    input()
t = threading.Thread(target=main)
t.start()
t.join()
`

// A program asking on a side thread, not at a console's prompt, settles on
// its read as soon as it asked again, though its question ends in a
// newline.
func TestSendToASideThreadQuizSettlesOnItsRead(t *testing.T) {
	checkREPLAnswers(t, javaLikeQuiz, "Name: ", []string{"bob", "42"}, func(line string) string {
		return map[string]string{"bob": "hello bob\nAge?\n", "42": "age 42\nTown?\n"}[line]
	})
}
