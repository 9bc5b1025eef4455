package main

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/ptyseam/ptyseam/ptysession"
)

// The checks and steps shared by the container targets files
// (--docker-targets, --k8s-targets).

// maxTargets bounds a container targets file.
const maxTargets = 256

// checkTargetsFile checks what every container targets file has: from 1
// to maxTargets targets, and an agentBinary that is empty, "self" or an
// absolute path.
func checkTargetsFile(targets int, agentBinary string) error {
	switch {
	case targets == 0:
		return errors.New(`no targets: want {"targets": {"NAME": {"image": ...}}}`)
	case targets > maxTargets:
		return fmt.Errorf("%d targets: at most %d", targets, maxTargets)
	case agentBinary != "" && agentBinary != "self" && !path.IsAbs(agentBinary):
		return errors.New(`agentBinary is "self" or an absolute path`)
	}
	return nil
}

// checkTarget checks what every container target has: its name, its
// shell ("bash" or an absolute path), its description (one line of at
// most 200 bytes) and its environment.
func checkTarget(name, shell, description string, env map[string]string) error {
	switch {
	case !remoteNameRx.MatchString(name):
		return fmt.Errorf("target name %q: use letters, digits, '.', '_' and '-' (at most 64)", name)
	case shell != "" && shell != "bash" && !path.IsAbs(shell):
		return fmt.Errorf("%s: shell is \"bash\" or an absolute path", name)
	case len(description) > 200 || strings.ContainsAny(description, "\x00\r\n"):
		return fmt.Errorf("%s: description: one line of at most 200 bytes", name)
	}
	if _, err := ptysession.ExportLine(env); err != nil {
		return fmt.Errorf("%s: env: %w", name, err)
	}
	return nil
}

// envList is a target's environment as NAME=VALUE entries.
func envList(env map[string]string) []string {
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	return list
}

// agentBinaryPath is the agent binary a targets file names: "self" is
// this executable. flag names the file's flag in the error.
func agentBinaryPath(flag, agentBinary string) (string, error) {
	if agentBinary != "self" {
		return agentBinary, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("%s: agentBinary self: %w", flag, err)
	}
	return exe, nil
}
