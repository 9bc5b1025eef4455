package portprobe

import "testing"

// BenchmarkDetect measures address detection on typical log lines with
// and without a URL.
func BenchmarkDetect(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"url", "  ➜  Local:   http://localhost:5173/"},
		{"plain", "[vite] hmr update /src/App.tsx, /src/index.css (x3)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.line)))
			for b.Loop() {
				_ = Detect(c.line)
			}
		})
	}
}
