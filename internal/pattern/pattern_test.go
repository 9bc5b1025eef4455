package pattern

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCompile(t *testing.T) {
	if re, err := Compile("", false); re != nil || err != nil {
		t.Fatalf("Compile(\"\") = %v, %v; want nil, nil", re, err)
	}
	if _, err := Compile(strings.Repeat("a", MaxLen), false); err != nil {
		t.Fatalf("a pattern of MaxLen bytes: %v", err)
	}
	if _, err := Compile(strings.Repeat("a", MaxLen+1), false); !errors.Is(err, ErrTooLong) {
		t.Fatalf("a pattern of MaxLen+1 bytes: err = %v, want ErrTooLong", err)
	}
	if _, err := Compile("(", false); err == nil {
		t.Fatal(`Compile("(") compiled`)
	}
	re, err := Compile("ready", true)
	if err != nil || !re.MatchString("READY") {
		t.Fatalf("ignoreCase: %v, %v", re, err)
	}
}

func ExampleCompile() {
	re, _ := Compile(`^listening on \d+`, false)
	fmt.Println(re.MatchString("listening on 8080"))
	// Output: true
}
