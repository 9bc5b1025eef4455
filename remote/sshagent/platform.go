package sshagent

import (
	"fmt"
	"strings"
)

// platformOf maps `uname -s` and `uname -m` to Go's GOOS/GOARCH.
func platformOf(kernel, machine string) (string, error) {
	goos := strings.ToLower(strings.TrimSpace(kernel))
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd":
	case "darwin":
	default:
		return "", fmt.Errorf("unknown operating system %q (uname -s)", kernel)
	}
	var arch string
	switch m := strings.TrimSpace(machine); m {
	case "x86_64", "amd64":
		arch = "amd64"
	case "aarch64", "arm64", "aarch64_be":
		arch = "arm64"
	case "i386", "i486", "i586", "i686":
		arch = "386"
	case "armv6l", "armv7l", "armv7", "arm":
		arch = "arm"
	case "riscv64":
		arch = "riscv64"
	case "ppc64le":
		arch = "ppc64le"
	case "s390x":
		arch = "s390x"
	case "loongarch64":
		arch = "loong64"
	default:
		return "", fmt.Errorf("unknown machine %q (uname -m)", machine)
	}
	return goos + "/" + arch, nil
}
