//go:build !linux

package localpty

import "os/exec"

func startOnForkThread(cmd *exec.Cmd) error { return cmd.Start() }

func releaseForkThread() {}

func setParentDeathSignal(*exec.Cmd) {}
