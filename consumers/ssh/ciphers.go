package ssh

import (
	"runtime"
	"slices"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/sys/cpu"
)

// clientCiphers returns the ciphers the client offers, most preferred
// first (the server takes the first one of the list it implements).
func clientCiphers() []string {
	return cipherOrder(gossh.SupportedAlgorithms().Ciphers, aesGCMHardware())
}

// aesGCMHardware is hasAESGCMHardware; tests replace it.
var aesGCMHardware = hasAESGCMHardware

// cipherOrder orders x/crypto's secure ciphers (supported, in x/crypto's
// order, AES-GCM first) for a CPU with or without instructions for AES and
// for GCM's carry-less multiplication. With them, x/crypto's order stands:
// Go opens AES-GCM several times faster than ChaCha20-Poly1305, which
// x/crypto/ssh runs on a chacha20 without assembly on amd64. Without them
// Go's AES-GCM runs in software, slower than ChaCha20-Poly1305, which then
// comes first. The list is only reordered: no cipher is added or dropped.
func cipherOrder(supported []string, aesGCMHardware bool) []string {
	out := slices.Clone(supported)
	if aesGCMHardware {
		return out
	}
	if i := slices.Index(out, gossh.CipherChaCha20Poly1305); i > 0 {
		out = slices.Insert(slices.Delete(out, i, i+1), 0, gossh.CipherChaCha20Poly1305)
	}
	return out
}

// hasAESGCMHardware reports whether Go's AES-GCM runs on AES and
// carry-less multiplication instructions on this CPU.
func hasAESGCMHardware() bool {
	switch runtime.GOARCH {
	case "amd64":
		return cpu.X86.HasAES && cpu.X86.HasPCLMULQDQ
	case "arm64":
		return cpu.ARM64.HasAES && cpu.ARM64.HasPMULL
	case "s390x":
		return cpu.S390X.HasAES && (cpu.S390X.HasAESGCM || cpu.S390X.HasGHASH)
	case "ppc64", "ppc64le":
		return true // POWER8 and later, Go's minimum there
	}
	return false
}
