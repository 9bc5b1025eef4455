package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestDemo runs the README's main job and checks that every section
// passed and nothing it started survived.
func TestDemo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"demo"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("demo exited %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"all sections passed", "processes the demo started that are still alive: 0"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out.String())
		}
	}
}
