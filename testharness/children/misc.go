package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// runReportSize prints "size ROWS COLS" at start and on every SIGWINCH
// until its input ends or reads "exit".
func runReportSize(args []string) int {
	if len(args) != 0 {
		return fail("usage: report-size")
	}
	winch := make(chan os.Signal, 4)
	signal.Notify(winch, syscall.SIGWINCH)
	report := func() {
		ws, err := unix.IoctlGetWinsize(int(os.Stdout.Fd()), unix.TIOCGWINSZ)
		if err != nil {
			writeOut("size unknown\n")
			return
		}
		writeOut(fmt.Sprintf("size %d %d\n", ws.Row, ws.Col))
	}
	report()
	go func() {
		for range winch {
			report()
		}
	}()
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadString('\n')
		if strings.TrimSpace(line) == "exit" || err != nil {
			return 0
		}
	}
}

// runWriteHex writes the bytes HEX decodes to, exactly, and exits.
func runWriteHex(args []string) int {
	if len(args) != 1 {
		return fail("usage: write-hex HEX")
	}
	b, err := hex.DecodeString(args[0])
	if err != nil {
		return fail("write-hex: %v", err)
	}
	if _, err := os.Stdout.Write(b); err != nil {
		return 1
	}
	return 0
}

// runStallInput puts the terminal in raw mode (so that input is not
// discarded when the line buffer fills) and never reads: a writer to the
// terminal blocks once the buffers are full.
func runStallInput(args []string) int {
	if len(args) != 0 {
		return fail("usage: stall-input")
	}
	if _, err := changeMode(rawInput); err != nil {
		return fail("stall-input: %v", err)
	}
	writeOut("stalled\n")
	sleepForever()
	return 0
}
