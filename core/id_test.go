package core

import (
	"strings"
	"testing"
)

func TestSessionIDsAreRandomAndWide(t *testing.T) {
	seen := make(map[SessionID]bool)
	for range 10000 {
		id := newSessionID()
		if seen[id] {
			t.Fatalf("id %s minted twice", id)
		}
		seen[id] = true
		body := strings.TrimPrefix(string(id), "pty_")
		// 128 bits in unpadded base32 take 26 characters.
		if len(body) != 26 {
			t.Fatalf("id %s carries %d base32 characters, want 26 (128 bits)", id, len(body))
		}
	}
}

func TestOwnersWithTheSameNameDiffer(t *testing.T) {
	a, b := NewOwner("agent"), NewOwner("agent")
	if a == b || a.Name() != b.Name() {
		t.Fatalf("two owners named alike must be distinct values with the same name")
	}
	var nilOwner *Owner
	if nilOwner.Name() != "" || nilOwner.String() != "owner(nil)" {
		t.Fatalf("nil owner accessors must not panic")
	}
}
