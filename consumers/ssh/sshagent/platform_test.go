package sshagent

import (
	"os/exec"
	"strings"
	"testing"
)

// TestUnamePatternsInvertPlatformOf: every shell pattern of a platform
// names a `uname -s`/`uname -m` pair platformOf maps back to it, and a
// shell matches it whatever the kernel name's case.
func TestUnamePatternsInvertPlatformOf(t *testing.T) {
	for _, k := range kernels {
		for arch, names := range machines {
			pats := unamePatterns(k + "/" + arch)
			if len(pats) != len(names) {
				t.Fatalf("%s/%s: patterns %q for machines %q", k, arch, pats, names)
			}
			for _, m := range names {
				for _, kernel := range []string{k, strings.ToUpper(k[:1]) + k[1:], strings.ToUpper(k)} {
					if p, err := platformOf(kernel, m); err != nil || p != k+"/"+arch {
						t.Fatalf("platformOf(%q, %q) = %q, %v", kernel, m, p, err)
					}
					script := `case "$1" in ` + strings.Join(pats, "|") + `) exit 0;; esac; exit 1`
					if err := exec.Command("sh", "-c", script, "sh", kernel+"/"+m).Run(); err != nil {
						t.Fatalf("%q does not match %s/%s: %v", pats, kernel, m, err)
					}
				}
			}
		}
	}
	if p := unamePatterns("plan9/amd64"); p != nil {
		t.Fatalf("plan9: %q", p)
	}
}
