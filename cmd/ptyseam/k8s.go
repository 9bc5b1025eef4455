package main

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"

	k8spkg "github.com/ptyseam/ptyseam/consumers/k8s"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// k8sTargetsFile is the deployer's list of Kubernetes targets pty_open
// may open a shell in (--k8s-targets). The model names a target; the
// kubeconfig, the pod templates and the pods stay here, and the images
// and pods named here are the only ones the backend accepts. Every
// session runs on a ptyseam agent copied into its pod. Example:
//
//	{"kubeconfig": "/etc/ptyseam/kubeconfig", "agentBinary": "self",
//	 "targets": {"py": {
//	    "description": "a Python sandbox pod",
//	    "namespace": "sandboxes", "image": "python:3.12-slim",
//	    "runtimeClassName": "gvisor",
//	    "resources": {"limits": {"cpu": "1", "memory": "512Mi"}},
//	    "workingDir": "/tmp", "env": {"LANG": "C.UTF-8"}},
//	  "build": {"namespace": "ci", "pod": "build-env-0", "container": "main"}}}
type k8sTargetsFile struct {
	// Kubeconfig is the path of the kubeconfig (default: $KUBECONFIG,
	// ~/.kube/config, else the in-cluster service account).
	Kubeconfig string `json:"kubeconfig"`
	// Context is the kubeconfig context (its current one when empty).
	Context string `json:"context"`
	// AgentBinary is the path of a static ptyseam binary for the nodes
	// (CGO_ENABLED=0 GOOS=linux), or "self" (the default) for this
	// executable, which must then be static.
	AgentBinary string               `json:"agentBinary"`
	Targets     map[string]k8sTarget `json:"targets"`
}

// k8sTarget is one configured target: a pod template (image) or an
// existing pod, with the fields of k8s.Target (docs/k8s.md).
type k8sTarget struct {
	Description string `json:"description"`
	// Shell is "bash" (the default: the agent's bash with the prompt
	// marker) or the absolute path of another shell (settles on
	// silence).
	Shell string            `json:"shell"`
	Env   map[string]string `json:"env"`
	k8spkg.Target
}

// parseK8sTargets decodes and checks a targets file. It reads no other
// file and contacts no API server.
func parseK8sTargets(data []byte) (k8sTargetsFile, error) {
	var f k8sTargetsFile
	if err := decodeTargetsFile(data, &f); err != nil {
		return f, err
	}
	if err := checkTargetsFile(len(f.Targets), f.AgentBinary); err != nil {
		return f, err
	}
	if f.Kubeconfig != "" && !path.IsAbs(f.Kubeconfig) {
		return f, errors.New("kubeconfig is an absolute path")
	}
	for name, t := range f.Targets {
		if err := checkTarget(name, t.Shell, t.Description, t.Env); err != nil {
			return f, err
		}
		if strings.ContainsAny(t.Image+t.Pod+t.Namespace+t.Container, " \t\r\n\x00") {
			return f, fmt.Errorf("%s: image, pod, namespace and container must not have spaces", name)
		}
		if err := t.target().Validate(); err != nil {
			return f, fmt.Errorf("%s: %w", name, err)
		}
	}
	return f, nil
}

// target builds the backend's target.
func (t k8sTarget) target() *k8spkg.Target {
	kt := t.Target
	kt.Shell, kt.Env = nil, envList(t.Env)
	if t.Shell != "" && t.Shell != "bash" {
		kt.Shell = []string{t.Shell}
	}
	return &kt
}

// k8sTargets reads the targets file (if configured), registers the k8s
// backend on svc with the file's images and pods as its allowlist, and
// returns the facade's targets and the backend's closer.
func k8sTargets(cfg config, svc core.Registrar, log *slog.Logger) (map[string]ptysession.Target, func() error, error) {
	if cfg.K8sTargets == "" {
		return nil, nil, nil
	}
	f, err := readTargetsFile("--k8s-targets", cfg.K8sTargets, parseK8sTargets)
	if err != nil {
		return nil, nil, err
	}
	opts := k8spkg.BackendOptions{Kubeconfig: f.Kubeconfig, Context: f.Context, Logger: log}
	if opts.AgentBinary, err = agentBinaryPath("--k8s-targets", cmp.Or(f.AgentBinary, "self")); err != nil {
		return nil, nil, err
	}
	targets := make(map[string]ptysession.Target, len(f.Targets))
	for name, t := range f.Targets {
		kt := t.target()
		if kt.Image != "" {
			opts.AllowedImages = append(opts.AllowedImages, kt.Image)
		} else {
			ns := kt.Namespace
			if ns == "" {
				ns = "default"
			}
			opts.AllowedPods = append(opts.AllowedPods, ns+"/"+kt.Pod)
		}
		// The agent's shell marks its prompts itself.
		targets[name] = ptysession.Target{Backend: k8spkg.Type, Options: kt, Description: t.Description}
	}
	b, err := k8spkg.Register(svc, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("--k8s-targets: %w", err)
	}
	return targets, b.Close, nil
}
