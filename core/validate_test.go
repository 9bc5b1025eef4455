package core

import (
	"errors"
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
		{Name: string(make([]byte, 300))},
		{Name: "two\nlines"},
		{Scrollback: ScrollbackLimits{MaxLines: -1}},
	} {
		if err := validateSpawn(&r); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("validateSpawn(%+v) = %v, want INVALID_ARGUMENT", r, err)
		}
	}
}
