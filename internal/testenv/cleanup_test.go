package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// A registered directory is removed with its contents, once.
func TestRemoveAtCleanup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "built")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	registered.mu.Lock()
	others := registered.dirs // the process's own (PrivateHome's): kept
	registered.dirs = nil
	registered.mu.Unlock()
	defer func() {
		registered.mu.Lock()
		registered.dirs = append(registered.dirs, others...)
		registered.mu.Unlock()
	}()
	RemoveAtCleanup(dir)
	if err := RemoveRegistered(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the registered directory is still there: %v", err)
	}
	registered.mu.Lock()
	n := len(registered.dirs)
	registered.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d directories still registered", n)
	}
}
