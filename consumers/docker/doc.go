// Package docker is the core backend of type "docker": a session on a
// terminal inside a container, through the Docker Engine API
// (github.com/moby/moby/client, API 1.40 and later, so Debian's dockerd
// 20.10 with API 1.41 is served).
//
// A [Target] names either an image (a new container per session, created
// with the session and removed by Close) or an existing container (the
// session is an exec in it). Containers get no network unless the Target
// asks for one. The session relays the container's TTY: output, input,
// resize, signals and the exit status; see docs/docker.md for what a relay
// cannot observe (the foreground job inside the container) and how Close
// proves that nothing is left behind.
//
// Package dockertest starts a private dockerd and builds a small test
// image from the host's own programs, without any registry.
package docker
