//go:build linux

package main

import "golang.org/x/sys/unix"

// The termios ioctls of Linux.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
