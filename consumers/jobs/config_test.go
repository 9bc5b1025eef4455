package jobs

import (
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

func TestConfigValidate(t *testing.T) {
	c, err := Config{}.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if c.BufferCapacity != 5000 || c.StopGrace != 1500*time.Millisecond || c.DefaultGroup != "default" || c.Backend != BackendAuto || c.BufferBytes != DefaultBufferBytes || c.PTYType != "exec" {
		t.Fatalf("defaults: %+v", c)
	}
	good := []Config{
		{BufferCapacity: 100}, {BufferCapacity: 200_000},
		{StopGrace: 50 * time.Millisecond}, {StopGrace: 60 * time.Second},
		{Backend: BackendPTY}, {Backend: BackendPipe}, {DefaultGroup: "web"},
	}
	for _, g := range good {
		if _, err := g.Validate(); err != nil {
			t.Errorf("%+v: %v", g, err)
		}
	}
	bad := []struct {
		field string
		cfg   Config
	}{
		{"BufferCapacity", Config{BufferCapacity: 99}},
		{"BufferCapacity", Config{BufferCapacity: 200_001}},
		{"BufferCapacity", Config{BufferCapacity: -1}},
		{"StopGrace", Config{StopGrace: 49 * time.Millisecond}},
		{"StopGrace", Config{StopGrace: time.Minute + 1}},
		{"Backend", Config{Backend: "tmux"}},
		{"DefaultGroup", Config{DefaultGroup: "a\nb"}},
		{"BufferBytes", Config{BufferBytes: 1}},
	}
	for _, b := range bad {
		_, err := b.cfg.Validate()
		var ce *ConfigError
		if !errors.Is(err, ErrInvalidConfig) || !errors.As(err, &ce) || ce.Field != b.field {
			t.Errorf("%s %+v: %v", b.field, b.cfg, err)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	svc := core.New(core.Options{Logger: quietLog})
	if _, err := New(svc, Config{StopGrace: time.Millisecond}); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("New with a 1ms grace: %v", err)
	}
	if _, err := New(nil, Config{}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("New(nil): %v", err)
	}
	if _, err := New(svc, Config{Backend: BackendPTY, PTYType: "no-such-type"}); !errors.Is(err, core.ErrNoBackend) {
		t.Fatalf("New pty without backend: %v", err)
	}
}
