package main

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

func TestParseK8sTargets(t *testing.T) {
	good := `{"kubeconfig": "/etc/kc", "agentBinary": "self", "targets": {
		"py": {"description": "a sandbox pod", "namespace": "sb", "image": "img:1", "runtimeClassName": "gvisor",
			"resources": {"limits": {"cpu": "500m", "memory": "256Mi"}}, "workingDir": "/tmp", "env": {"A": "b"},
			"hostNetwork": true, "nodeName": "n1", "labels": {"team": "x"},
			"volumes": [{"name": "v", "hostPath": {"path": "/usr"}}], "volumeMounts": [{"name": "v", "mountPath": "/usr", "readOnly": true}]},
		"b": {"pod": "build-0", "container": "main", "shell": "/bin/sh"}}}`
	f, err := parseK8sTargets([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	py := f.Targets["py"].target()
	if py.Image != "img:1" || py.Namespace != "sb" || py.RuntimeClassName != "gvisor" || !py.HostNetwork || py.NodeName != "n1" ||
		!py.Resources.Limits.Memory().Equal(resource.MustParse("256Mi")) || len(py.Volumes) != 1 || py.Volumes[0].HostPath.Path != "/usr" ||
		len(py.Env) != 1 || py.Env[0] != "A=b" || py.Shell != nil {
		t.Fatalf("py: %+v", py)
	}
	if b := f.Targets["b"].target(); b.Pod != "build-0" || b.Container != "main" || len(b.Shell) != 1 || b.Shell[0] != "/bin/sh" {
		t.Fatalf("b: %+v", b)
	}
	for _, bad := range []string{
		`{"targets": {}}`,
		`{"targets": {"x": {}}}`,
		`{"targets": {"x": {"image": "a", "pod": "b"}}}`,
		`{"targets": {"x y": {"image": "a"}}}`,
		`{"targets": {"x": {"image": "a", "shell": "zsh"}}}`,
		`{"targets": {"x": {"pod": "a", "hostNetwork": true}}}`,
		`{"targets": {"x": {"image": "a", "env": {"1A": "b"}}}}`,
		`{"targets": {"x": {"image": "a", "unknown": 1}}}`,
		`{"kubeconfig": "rel", "targets": {"x": {"image": "a"}}}`,
		`{"targets": {"x": {"image": "a"}}} {}`,
	} {
		if _, err := parseK8sTargets([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
