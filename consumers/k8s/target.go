package k8s

import (
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Target says where a session runs. Pass a *Target as the Options of a
// spawn request of type "k8s". Set exactly one of Image (a new pod from
// this template per session) and Pod (an existing pod). The JSON names
// are those of a --k8s-targets file (docs/k8s.md).
type Target struct {
	// Namespace is the pod's namespace ("default" when empty).
	Namespace string `json:"namespace,omitempty"`

	// Image starts each session in a new pod running this image; Close
	// deletes the pod. The image needs /bin/sh, mkdir, head, sha256sum,
	// chmod, mv and sleep (coreutils or busybox) for the agent's copy.
	Image string `json:"image,omitempty"`
	// Pod runs each session as an exec in this existing, running pod;
	// Close ends the session's processes, not the pod.
	Pod string `json:"pod,omitempty"`
	// Container is the container to exec into (a pod's only or first
	// container when empty).
	Container string `json:"container,omitempty"`

	// Shell is the program of a session with an empty Command (the
	// agent's interactive bash with the prompt marker when empty).
	Shell []string `json:"shell,omitempty"`
	// WorkingDir is the working directory; a request's Dir overrides it.
	WorkingDir string `json:"workingDir,omitempty"`
	// Env holds NAME=VALUE variables; a request's Env adds to them.
	Env []string `json:"env,omitempty"`
	// Term is the TERM value ("xterm-256color" when empty).
	Term string `json:"term,omitempty"`

	// The options below apply to new pods (Image) only.

	// Resources are the session container's requests and limits.
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// RuntimeClassName selects the pod's runtime class (gVisor, Kata).
	RuntimeClassName string `json:"runtimeClassName,omitempty"`
	// ServiceAccountName is the pod's service account (the namespace's
	// default when empty).
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// HostNetwork puts the pod on the node's network (a cluster without
	// a network plugin needs it).
	HostNetwork bool `json:"hostNetwork,omitempty"`
	// NodeName binds the pod to a node without the scheduler (a cluster
	// without one needs it); empty lets the scheduler place it.
	NodeName string `json:"nodeName,omitempty"`
	// Labels are added to the pod's labels (a NetworkPolicy selects the
	// pods it isolates by them).
	Labels map[string]string `json:"labels,omitempty"`
	// Volumes and VolumeMounts are added to the pod and its container.
	Volumes      []corev1.Volume      `json:"volumes,omitempty"`
	VolumeMounts []corev1.VolumeMount `json:"volumeMounts,omitempty"`
	// StartTimeout bounds the wait for a new pod to run (2 minutes when
	// 0); the spawn's context bounds it too.
	StartTimeout time.Duration `json:"startTimeout,omitempty"`
}

const (
	defaultNamespace    = "default"
	defaultTerm         = "xterm-256color"
	defaultStartTimeout = 2 * time.Minute
	// containerName is the session container's name in a new pod.
	containerName = "session"
)

// LabelSession is the label every pod the backend creates carries (value
// "true"), so that a deployer can find them: kubectl get pods -l
// io.ptyseam/session. AnnotationMarker holds the session's marker.
const (
	LabelSession     = "io.ptyseam/session"
	AnnotationMarker = "io.ptyseam/marker"
)

// Validate checks the target as Spawn does, without contacting the API
// server.
func (t *Target) Validate() error {
	switch {
	case t == nil:
		return invalid("k8s backend needs a *k8s.Target in Options")
	case (t.Image == "") == (t.Pod == ""):
		return invalid("k8s target: set exactly one of image (a new pod) and pod (an existing one)")
	case t.Pod != "" && (len(t.Resources.Limits) > 0 || len(t.Resources.Requests) > 0 || t.RuntimeClassName != "" ||
		t.ServiceAccountName != "" || t.HostNetwork || t.NodeName != "" || len(t.Labels) > 0 || len(t.Volumes) > 0 || len(t.VolumeMounts) > 0):
		return invalid("k8s target: resources, runtime class, service account, host network, node, labels and volumes apply to new pods (image), not to an existing pod")
	case t.StartTimeout < 0:
		return invalid("k8s target: negative start timeout")
	}
	for _, kv := range t.Env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return invalid("k8s target: env %q is not NAME=VALUE", kv)
		}
	}
	return nil
}

func (t *Target) namespace() string {
	if t.Namespace == "" {
		return defaultNamespace
	}
	return t.Namespace
}

// podPath is the existing pod's "namespace/name", or "" for a target
// that creates its pod.
func (t *Target) podPath() string {
	if t.Pod == "" {
		return ""
	}
	return t.namespace() + "/" + t.Pod
}

func (t *Target) term() string {
	if t.Term == "" {
		return defaultTerm
	}
	return t.Term
}

func (t *Target) startTimeout() time.Duration {
	if t.StartTimeout == 0 {
		return defaultStartTimeout
	}
	return t.StartTimeout
}
