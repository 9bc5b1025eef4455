package bench

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

// newService returns a service with the local backends, shut down when the
// benchmark ends.
func newService(b testing.TB, opts core.Options) *core.Service {
	b.Helper()
	svc := core.New(opts)
	if err := localpty.Register(svc); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			b.Errorf("shutdown: %v", err)
		}
	})
	return svc
}

// envInt reads a size knob from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// shellEnv is the environment that installs the same prompt marker the
// shell backend installs, for the baselines.
func shellEnv() []string {
	return append(os.Environ(),
		"PS1="+promptmark.PS1,
		"PROMPT_COMMAND="+promptmark.PromptCommand,
		"TERM=xterm-256color", "HISTFILE=")
}

// percentile returns the p-th percentile (0..100) of samples.
func percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p / 100)
	return s[i]
}

// median returns the median of xs (the mean of the two middle ones when
// their number is even).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
