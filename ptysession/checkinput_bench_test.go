package ptysession

import (
	"encoding/json"
	"testing"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// BenchmarkCheckInput measures the input schema validation that the
// dispatcher runs before each call, for pty_send and pty_list.
func BenchmarkCheckInput(b *testing.B) {
	s, _, _, id := benchSession(b)
	d, err := tools.NewDispatcher(tools.Options{}, PtyTools(s)...)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, args string }{
		{ToolSend, `{"id":"` + string(id) + `","data":"true"}`},
		{ToolList, `{}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := d.CheckInput(c.name, json.RawMessage(c.args)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
