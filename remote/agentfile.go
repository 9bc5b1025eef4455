package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// AgentFileName is the file name under which a far side keeps a copy of
// the agent binary whose SHA-256 is sum: the protocol version and the
// hash, so that a kept file is the exact binary (the ssh and Kubernetes
// backends check it by hash before they run it).
func AgentFileName(sum string) string {
	return fmt.Sprintf("agent-v%d-%s", ProtocolVersion, sum)
}

// HashFile returns the SHA-256 (hex) and size of a local file: an agent
// binary to copy to a far side.
func HashFile(path string) (sum string, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
