package sshdtest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
)

// User is the test user's name.
const User = "ptyseam-test"

const stateDir = "/var/lib/ptyseam-test"

// ensureUser creates the test user if needed and returns its password.
func ensureUser() (string, error) {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(filepath.Join(stateDir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }()

	created := false
	if _, err := user.Lookup(User); err != nil {
		var unknown user.UnknownUserError
		if !errors.As(err, &unknown) {
			return "", err
		}
		if out, err := exec.Command("useradd", "-m", "-s", "/bin/bash", User).CombinedOutput(); err != nil {
			return "", fmt.Errorf("useradd %s: %v: %s", User, err, out)
		}
		created = true
	}
	pwFile := filepath.Join(stateDir, "password")
	if b, err := os.ReadFile(pwFile); err == nil && !created && len(b) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	raw := make([]byte, 12)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	pw := "Pt-" + hex.EncodeToString(raw)
	cmd := exec.Command("chpasswd")
	cmd.Stdin = strings.NewReader(User + ":" + pw + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("chpasswd: %v: %s", err, out)
	}
	if err := os.WriteFile(pwFile, []byte(pw+"\n"), 0o600); err != nil {
		return "", err
	}
	return pw, nil
}
