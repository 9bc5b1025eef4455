// Package k8s is the core backend of type "k8s": a session on a terminal
// inside a Kubernetes pod, through the API server's exec stream
// (k8s.io/client-go's remotecommand, WebSocket with a SPDY fallback).
//
// A [Target] names either a pod template (a new pod per session, created
// with the session and deleted by Close) or an existing pod and container
// (the session is an exec in it). Either way the session runs on a
// ptyseam agent inside the pod: the backend copies the agent binary in
// over the exec stream, checks it by SHA-256 there, and speaks the remote
// protocol (package remote) to it over the same stream, so that sends
// settle on the kernel's evidence as locally and Close ends the session's
// whole process tree in the pod. See docs/k8s.md.
//
// Package k8stest starts a private one-node cluster for the tests,
// offline.
package k8s
