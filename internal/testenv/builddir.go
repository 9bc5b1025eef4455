package testenv

import "os"

// BuildDir returns a new directory (mode 0755, so that another user, an
// sshd test user, can run what is built there) for a binary the tests
// build, inside a [ProcessDir]: [RemoveRegistered] removes it, and when the
// process is killed first (a test binary at its timeout runs no cleanup),
// the next test process sweeps it with the ProcessDir. Agents and servers
// built for the tests are 20 MB each, and the temporary directory is the
// machine's.
func BuildDir(prefix string) (string, error) {
	parent, err := ProcessDir("ptyseam-build-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o755)
}
