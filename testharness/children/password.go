package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func runPassword(args []string) int {
	if len(args) > 1 {
		return fail("usage: password [SECRET]")
	}
	writeOut("Password: ")
	st, err := changeMode(echoOff)
	if err != nil {
		return fail("password: %v", err)
	}
	line, rerr := bufio.NewReader(os.Stdin).ReadString('\n')
	st.restore()
	if rerr != nil && line == "" {
		writeOut("\nno input\n")
		return 1
	}
	line = strings.TrimRight(line, "\r\n")
	switch {
	case len(args) == 0:
		writeOut(fmt.Sprintf("got %d bytes\n", len(line)))
	case line == args[0]:
		writeOut("ok\n")
	default:
		writeOut("denied\n")
		return 1
	}
	return 0
}
