package procfs

import (
	"errors"
	"os"
	"testing"
)

func TestReadersSayUnsupportedOnWindows(t *testing.T) {
	_, err := ReadFile(Path(os.Getpid(), "stat"), nil)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Op != "ReadFile" || !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("ReadFile: %v, want an UnsupportedError matching errors.ErrUnsupported", err)
	}
	if _, err := ListChildren(os.Getpid(), nil); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("ListChildren: %v", err)
	}
	if _, err := ListPIDs(); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("ListPIDs: %v", err)
	}
	if Alive(os.Getpid(), 0) {
		t.Fatal("Alive reported a process it cannot read")
	}
}
