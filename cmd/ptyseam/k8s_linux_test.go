package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	k8spkg "github.com/ptyseam/ptyseam/consumers/k8s"
	"github.com/ptyseam/ptyseam/consumers/k8s/k8stest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pty_open on a configured Kubernetes target (a new pod per session on a
// real one-node cluster, the server's own static executable as the agent
// inside), driven by the real TypeScript MCP client: sends settle on the
// prompt and on a read, and the client's close deletes the pod.
func TestRealMCPClientK8sTarget(t *testing.T) {
	node, dir := requireNode(t)
	c := k8stest.StartTest(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "ptyseam")
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	conf, _ := json.Marshal(map[string]any{"kubeconfig": c.Kubeconfig, "agentBinary": "self", "targets": map[string]any{
		"pod": map[string]any{
			"description": "a test pod", "image": k8stest.ShellImage, "nodeName": k8stest.NodeName, "hostNetwork": true,
			"volumes":      []any{map[string]any{"name": "usr", "hostPath": map[string]any{"path": "/usr"}}},
			"volumeMounts": []any{map[string]any{"name": "usr", "mountPath": "/usr", "readOnly": true}},
		},
	}})
	file := filepath.Join(tmp, "k8s.json")
	if err := os.WriteFile(file, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "k8s-client.mjs", bin, file, "pod")
	var summary struct {
		OK     bool `json:"ok"`
		OpenMs int  `json:"openMs"`
		TrueMs int  `json:"trueMs"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	t.Logf("pty_open of the k8s target took %d ms; pty_send \"true\" settled in %d ms", summary.OpenMs, summary.TrueMs)
	pods, err := c.Client.CoreV1().Pods("").List(ctx, metav1.ListOptions{LabelSelector: k8spkg.LabelSession})
	if err != nil || len(pods.Items) != 0 {
		t.Fatalf("session pods after the client closed its session: %d, %v", len(pods.Items), err)
	}
}
