package ptysession

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A model often ends pty_send's data with a line end (bg_send's data needs
// one to press Enter). With submit on (the default) that line end is the
// Enter submit presses, not a second one typed ahead: a program's next
// read would take it as an empty answer (a confirmation's default, the
// end of a Python block).
func TestSendDataEndingInALineEndIsSubmittedOnce(t *testing.T) {
	schemas := resolveSchemas(t)
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		d := newDispatcher(t, s)
		owner := core.NewOwner("model")
		_, m := call(t, d, schemas, owner, ToolOpen, `{"command":"bash"}`)
		id := m["sessionId"].(string)
		t.Cleanup(func() { _, _ = s.Close(context.Background(), owner, core.SessionID(id)) })
		waitPrompt(t, s, owner, core.SessionID(id))
		var out strings.Builder
		for _, data := range []string{`read -r a; read -r b; echo \"[$a][$b]\"\n`, `first\n`, `second\r\n`} {
			_, m = call(t, d, schemas, owner, ToolSend, fmt.Sprintf(`{"id":%q,"data":"%s"}`, id, data))
			out.WriteString(m["delta"].(string))
		}
		if !strings.Contains(out.String(), "[first][second]") {
			t.Fatalf("each answer ending in a line end was not one line: %q", out.String())
		}
	})
}
