package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// sshResolved is what the OpenSSH client would use for a host alias.
type sshResolved struct {
	Host            string
	User            string
	Port            int
	IdentityFiles   []string
	KnownHostsFiles []string
}

// maxSSHGOutput bounds what is read of `ssh -G`.
const maxSSHGOutput = 1 << 20

// parseSSHG parses the output of `ssh -G`: one "keyword value..." line per
// option, keywords in lower case (compared case-insensitively here). It
// keeps hostname, user, port, identityfile and userknownhostsfile, with
// "~/" expanded against home; other keywords are ignored.
func parseSSHG(out []byte, home string) (sshResolved, error) {
	if len(out) > maxSSHGOutput {
		return sshResolved{}, fmt.Errorf("ssh -G printed more than %d bytes", maxSSHGOutput)
	}
	var r sshResolved
	expand := func(p string) string {
		if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			return filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
		return p
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 4096), maxSSHGOutput)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		switch key, val := strings.ToLower(fields[0]), fields[1]; key {
		case "hostname":
			r.Host = val
		case "user":
			r.User = val
		case "port":
			p, err := strconv.Atoi(val)
			if err != nil || p <= 0 || p > 65535 {
				return sshResolved{}, fmt.Errorf("ssh -G: port %q", val)
			}
			r.Port = p
		case "identityfile":
			r.IdentityFiles = append(r.IdentityFiles, expand(val))
		case "userknownhostsfile":
			for _, f := range fields[1:] {
				r.KnownHostsFiles = append(r.KnownHostsFiles, expand(f))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return sshResolved{}, fmt.Errorf("ssh -G: %w", err)
	}
	if r.Host == "" || r.User == "" {
		return sshResolved{}, errors.New("ssh -G named no hostname or user")
	}
	return r, nil
}

// resolveSSHAlias asks the OpenSSH client how it would reach alias (`ssh
// -G [-F configFile] alias`), so that Host blocks, Match, Include and
// wildcards mean what they mean to ssh itself. Identity files that do not
// exist (ssh lists its defaults) are dropped.
func resolveSSHAlias(ctx context.Context, alias, configFile string) (sshResolved, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	args := []string{"-G"}
	if configFile != "" {
		args = append(args, "-F", configFile)
	}
	args = append(args, "--", alias)
	cmd := exec.CommandContext(ctx, "ssh", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return sshResolved{}, fmt.Errorf("ssh -G %s: %v: %s", alias, err, strings.TrimSpace(stderr.String()))
	}
	home, _ := os.UserHomeDir()
	r, err := parseSSHG(out, home)
	if err != nil {
		return sshResolved{}, err
	}
	var keys []string
	for _, f := range r.IdentityFiles {
		if _, err := os.Stat(f); err == nil {
			keys = append(keys, f)
		}
	}
	r.IdentityFiles = keys
	return r, nil
}
