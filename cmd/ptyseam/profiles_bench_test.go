package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"
)

// BenchmarkToolListBytes measures the tool list a client receives (tools/list
// as JSON) per --tools profile and result form; scripts/bench.sh puts the
// figures in the performance table. The core profile must stay under 12 KB;
// TestDefaultToolList bounds the default (standard) list.
func BenchmarkToolListBytes(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"standard", nil},
		{"full", []string{"--tools", "full"}},
		{"full-structured", []string{"--tools", "full", "--structured-results"}},
		{"core", []string{"--tools", "core"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			cfg, err := parseConfig(c.args, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			cs := benchConnect(b, cfg)
			var size, count int
			for i := 0; i < b.N; i++ {
				list, err := cs.ListTools(context.Background(), nil)
				if err != nil {
					b.Fatal(err)
				}
				j, _ := json.Marshal(list.Tools)
				size, count = len(j), len(list.Tools)
			}
			if c.name == "core" && size >= 12<<10 {
				b.Errorf("the core tool list is %d bytes, over 12 KB", size)
			}
			b.ReportMetric(float64(size), "tool-list-B")
			b.ReportMetric(float64(count), "tools")
		})
	}
}
