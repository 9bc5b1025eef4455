package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRealMCPClientGetsJobExitNotice: bg_launch with notifyOnExit makes
// the server send the official TypeScript client a logging notification
// when the job ends (the client set a logging level); a job without it
// sends none.
func TestRealMCPClientGetsJobExitNotice(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "notify-client.mjs", bin)
	if !strings.Contains(last, `"ok":true`) || !strings.Contains(last, "exit 3") {
		t.Fatalf("client summary %q", last)
	}
	waitNoSurvivors(t)
}
