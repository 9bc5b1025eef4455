package sshagent

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// kernels are the operating systems (`uname -s`, any case) an agent can be
// built for, by GOOS.
var kernels = []string{"linux", "freebsd", "openbsd", "netbsd", "darwin"}

// machines maps each GOARCH to the `uname -m` answers of its machines.
var machines = map[string][]string{
	"amd64":   {"x86_64", "amd64"},
	"arm64":   {"aarch64", "arm64", "aarch64_be"},
	"386":     {"i386", "i486", "i586", "i686"},
	"arm":     {"armv6l", "armv7l", "armv7", "arm"},
	"riscv64": {"riscv64"},
	"ppc64le": {"ppc64le"},
	"s390x":   {"s390x"},
	"loong64": {"loongarch64"},
}

// platformOf maps `uname -s` and `uname -m` to Go's GOOS/GOARCH.
func platformOf(kernel, machine string) (string, error) {
	goos := strings.ToLower(strings.TrimSpace(kernel))
	if !slices.Contains(kernels, goos) {
		return "", fmt.Errorf("unknown operating system %q (uname -s)", kernel)
	}
	m := strings.TrimSpace(machine)
	for arch, names := range machines {
		if slices.Contains(names, m) {
			return goos + "/" + arch, nil
		}
	}
	return "", fmt.Errorf("unknown machine %q (uname -m)", machine)
}

// unamePatterns returns the shell case patterns matching "$(uname -s)/$(uname -m)"
// on the machines of platform (GOOS/GOARCH), in a stable order: the
// inverse of platformOf. Nil for a platform platformOf never returns.
func unamePatterns(platform string) []string {
	goos, arch, _ := strings.Cut(platform, "/")
	names := machines[arch]
	if !slices.Contains(kernels, goos) || len(names) == 0 {
		return nil
	}
	var k strings.Builder
	for _, r := range goos { // any case, as platformOf lowercases
		if up := strings.ToUpper(string(r)); up != string(r) {
			k.WriteString("[" + up + string(r) + "]")
		} else {
			k.WriteRune(r)
		}
	}
	out := make([]string, 0, len(names))
	for _, m := range names {
		out = append(out, k.String()+"/"+m)
	}
	sort.Strings(out)
	return out
}
