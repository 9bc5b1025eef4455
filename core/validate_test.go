package core

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateEnv(t *testing.T) {
	good := [][]string{nil, {"A=1"}, {"_x=", "PATH_2=a=b", "U=ünï $`'\"\n"}}
	for _, env := range good {
		if err := ValidateEnv(env); err != nil {
			t.Errorf("ValidateEnv(%q) = %v, want nil", env, err)
		}
	}
	bad := [][]string{{"A"}, {"=1"}, {"1A=x"}, {"A B=x"}, {"A-B=x"}, {"A=x\x00y"}, {"A=1", "A=2"}, {"É=1"}}
	for _, env := range bad {
		err := ValidateEnv(env)
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("ValidateEnv(%q) = %v, want INVALID_ARGUMENT", env, err)
		}
	}
}

// An environment the kernel would refuse at exec (one variable over
// MAX_ARG_STRLEN) or that would take more than MaxEnvBytes is refused as
// an argument naming the bound, before anything starts.
func TestValidateEnvBoundsItsSize(t *testing.T) {
	fits := []string{"BIG=" + strings.Repeat("x", MaxEnvVarBytes-len("BIG="))}
	if err := ValidateEnv(fits); err != nil {
		t.Fatalf("a variable of %d bytes: %v", MaxEnvVarBytes, err)
	}
	if err := ValidateEnv([]string{fits[0] + "x"}); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), itoa(MaxEnvVarBytes)) {
		t.Errorf("a variable of %d bytes: %v, want INVALID_ARGUMENT naming %d", MaxEnvVarBytes+1, err, MaxEnvVarBytes)
	}
	var all []string
	for size := 0; size <= MaxEnvBytes; {
		kv := "V" + itoa(len(all)) + "=" + strings.Repeat("x", 1<<16)
		all = append(all, kv)
		size += len(kv) + 1
	}
	if err := ValidateEnv(all); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), itoa(MaxEnvBytes)) {
		t.Errorf("%d variables of 64 KiB: %v, want INVALID_ARGUMENT naming %d", len(all), err, MaxEnvBytes)
	}
}

func TestValidateSpawnDefaultsAndBounds(t *testing.T) {
	req := SpawnRequest{}
	if err := validateSpawn(&req); err != nil {
		t.Fatal(err)
	}
	if req.Type != "shell" || req.Size != DefaultSize {
		t.Fatalf("defaults not applied: %+v", req)
	}
	for _, r := range []SpawnRequest{
		{Size: Size{Rows: 0, Cols: 10}},
		{Size: Size{Rows: 10, Cols: 5000}},
		{Command: []string{"a\x00b"}},
		{Command: []string{strings.Repeat("x", MaxPathBytes+1)}},
		{Dir: "/" + strings.Repeat("x", MaxPathBytes)},
		{Name: string(make([]byte, 300))},
		{Name: "two\nlines"},
		{Scrollback: ScrollbackLimits{MaxLines: -1}},
	} {
		if err := validateSpawn(&r); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("validateSpawn(%+v) = %v, want INVALID_ARGUMENT", r, err)
		}
	}
}
