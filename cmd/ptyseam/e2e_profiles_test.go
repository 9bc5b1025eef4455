package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// TestRealMCPClientProfiles runs profiles-client.mjs: --tools core lists
// eight tools in under 12 KB with their guidance, --tools full every tool.
func TestRealMCPClientProfiles(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "profiles-client.mjs", bin, t.TempDir())
	var summary struct {
		OK      bool               `json:"ok"`
		Figures map[string]float64 `json:"figures"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	t.Logf("tool lists: %v", summary.Figures)
	waitNoSurvivors(t)
}

// TestToolsFlag checks that --tools takes only the two profiles.
func TestToolsFlag(t *testing.T) {
	for _, ok := range []string{"core", "full"} {
		if _, err := parseConfig([]string{"--tools", ok}, io.Discard); err != nil {
			t.Errorf("--tools %s: %v", ok, err)
		}
	}
	if _, err := parseConfig([]string{"--tools", "small"}, io.Discard); err == nil {
		t.Error("--tools small was accepted")
	}
}
