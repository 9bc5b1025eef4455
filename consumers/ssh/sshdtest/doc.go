// Package sshdtest starts a private OpenSSH server (/usr/sbin/sshd) for
// integration tests: on 127.0.0.1 with a free port, a generated host key, a
// private configuration and a dedicated test user, and it kills the server
// and every process it started when the test ends.
//
// It needs root (to run sshd and create the user) and the openssh-server
// package. Without them, Start skips the test with a message naming this
// package, or fails it when the environment variable CI is set, so that a
// CI run cannot pass by skipping.
//
// The test user (User, "ptyseam-test") is created with useradd when
// missing. Its password is random, made once per machine and kept in
// /var/lib/ptyseam-test/password (mode 0600); concurrent test binaries
// agree on it through a lock file.
package sshdtest
