// Command children holds the interactive programs the ptyseam test harness
// runs on terminals. It is one binary with subcommands:
//
//	echo-repl [--marker]     prompt "> " (no newline), echo each line back;
//	                         "sleep D" prints "sleeping" and sleeps without
//	                         reading input, "exit" prints "bye" and quits;
//	                         SIGINT prints "interrupted" and a new
//	                         prompt; --marker adds OSC 133 prompt markers
//	password [SECRET]        "Password: ", read a line with echo off, print
//	                         "got N bytes" (or "ok"/"denied" against SECRET)
//	flood N                  print N numbered lines and exit
//	setsid-grandchild        double-fork a setsid grandchild that sleeps
//	                         forever, print "grandchild PID", then wait
//	ignore-term              ignore SIGTERM and SIGHUP, print "ready", sleep
//	term-queries [SECONDS]   ask for device attributes (ESC[c) and the cursor
//	                         position (ESC[6n) in raw mode, print the replies
//	                         or "timeout"
//	slow-prompt D            wait D, then behave as echo-repl
//	thread-repl              an echo REPL ("exit" quits) that reads every
//	                         line on a new OS thread, each blocked in its
//	                         read with the same voluntary context switch
//	                         count (internal/threadrepl)
//	burst-exit BYTES [CODE]  write BYTES of the burst pattern and its checksum
//	                         line, then exit at once
//	exit-with CODE|SIGNAL    exit with the code, or die by the signal
//	report-size              print "size ROWS COLS" now and on every SIGWINCH
//	write-hex HEX            write the decoded bytes and exit
//	stall-input              raw mode, print "stalled", never read input
//
// Build it with testharness.BuildChildren; the package is internal to the
// harness's tests and has no API.
package main

import (
	"fmt"
	"os"
)

// command is one subcommand.
type command struct {
	run   func(args []string) int
	usage string
}

var commands = map[string]command{
	"echo-repl":         {runEchoREPL, "echo-repl [--marker]"},
	"password":          {runPassword, "password [SECRET]"},
	"flood":             {runFlood, "flood N"},
	"setsid-grandchild": {runSetsidGrandchild, "setsid-grandchild"},
	"ignore-term":       {runIgnoreTerm, "ignore-term"},
	"term-queries":      {runTermQueries, "term-queries [SECONDS]"},
	"slow-prompt":       {runSlowPrompt, "slow-prompt DURATION"},
	"thread-repl":       {runThreadREPL, "thread-repl"},
	"burst-exit":        {runBurstExit, "burst-exit BYTES [CODE]"},
	"exit-with":         {runExitWith, "exit-with CODE|SIGNAL"},
	"report-size":       {runReportSize, "report-size"},
	"write-hex":         {runWriteHex, "write-hex HEX"},
	"stall-input":       {runStallInput, "stall-input"},
	// Hidden helpers of setsid-grandchild.
	middleCommand:  {runSetsidMiddle, ""},
	sleeperCommand: {runSleepForever, ""},
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "children: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	os.Exit(c.run(os.Args[2:]))
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: children COMMAND [ARGS]; commands:")
	for _, c := range commands {
		if c.usage != "" {
			fmt.Fprintln(os.Stderr, "  "+c.usage)
		}
	}
}

// fail prints a usage error and returns the exit code for it.
func fail(format string, args ...any) int {
	fmt.Fprintf(os.Stderr, "children: "+format+"\n", args...)
	return 2
}
