package remote

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// FuzzReadFrame: any bytes either decode into a request that encodes
// back into a frame that decodes the same, or fail with an error; never a
// panic, and never a read past the frame.
func FuzzReadFrame(f *testing.F) {
	var b bytes.Buffer
	_ = writeFrame(&b, request{Op: opSpawn, Type: "shell", Command: []string{"bash", "-i"}, Size: &wireSize{Rows: 24, Cols: 80}, Marker: "m"})
	f.Add(b.Bytes())
	b.Reset()
	_ = writeFrame(&b, request{Op: opWrite, Session: 3, Len: 5})
	b.WriteString("hello")
	f.Add(b.Bytes())
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '{'})
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		var req request
		err := readFrame(r, &req)
		if err != nil {
			return
		}
		n := binary.BigEndian.Uint32(data)
		if got := len(data) - r.Len(); got != int(n)+4 {
			t.Fatalf("read %d bytes of a %d-byte frame", got, n+4)
		}
		var again bytes.Buffer
		if err := writeFrame(&again, req); err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		var req2 request
		if err := readFrame(&again, &req2); err != nil {
			t.Fatalf("re-decoding: %v", err)
		}
	})
}

// FuzzHello: the host's reading of what the far side printed never panics,
// consumes nothing past the hello's newline, and classifies every outcome
// as a hello or a typed error.
func FuzzHello(f *testing.F) {
	f.Add([]byte("ptyseam-agent {\"min\":1,\"max\":1,\"os\":\"linux\",\"arch\":\"amd64\",\"pid\":7}\nYAMUX"))
	f.Add([]byte("Welcome\nptyseam-agent {\"min\":1,\"max\":3}\n"))
	f.Add([]byte("sh: 1: ptyseam: not found\n"))
	f.Add([]byte("ptyseam-agent {\"min\":5,\"max\":2}\n"))
	f.Add([]byte("ptyseam-agent not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		rw := struct {
			io.Reader
			io.Writer
		}{r, io.Discard}
		h, err := hostHandshake(rw)
		if err != nil {
			var ae *AgentError
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if h.Max < MinProtocolVersion || h.Min > ProtocolVersion {
			t.Fatalf("accepted an incompatible hello %+v", h)
		}
		i := bytes.Index(data, []byte(agentMagic))
		if i < 0 {
			t.Fatalf("accepted %q without a hello", data)
		}
		end := i + bytes.IndexByte(data[i:], '\n') + 1
		if rest := len(data) - r.Len(); rest != end {
			t.Fatalf("consumed %d bytes, the hello ends at %d", rest, end)
		}
	})
}

// FuzzResponse: whatever an agent answers, the host's decoding of it
// never panics and keeps its bounds: a terminal's reader holds at most
// core.MaxReaderPrograms programs of at most maxReaderArgs arguments.
func FuzzResponse(f *testing.F) {
	for _, resp := range []response{
		{Reader: &wireReader{Group: 7, Programs: []wireReaderProgram{{PID: 7, Exe: "/usr/bin/sudo", Argv: []string{"sudo", "true"}, Reading: true}}}},
		{Wait: &wireInputWait{Now: wireBaseline{Group: 3, Leader: true, Wakes: 9}, Reading: true, Waiting: true}},
		{Status: &wireStatus{ExitCode: 1, Signal: "SIGKILL"}},
		{Error: &wireError{Code: "CLEANUP_FAILED", Msg: "left", Cleanup: true, Survivors: []int{4}}},
	} {
		var b bytes.Buffer
		_ = writeFrame(&b, resp)
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var resp response
		if readFrame(bytes.NewReader(data), &resp) != nil {
			return
		}
		if resp.Reader != nil {
			r := resp.Reader.reader()
			if len(r.Programs) > core.MaxReaderPrograms {
				t.Fatalf("%d programs kept", len(r.Programs))
			}
			for _, p := range r.Programs {
				if len(p.Argv) > maxReaderArgs {
					t.Fatalf("%d arguments kept", len(p.Argv))
				}
			}
		}
		if resp.Wait != nil {
			_ = resp.Wait.inputWait()
		}
		if resp.Status != nil {
			_ = resp.Status.status()
		}
		if resp.Error != nil {
			_ = resp.Error.err()
		}
		_ = resp.Baseline.baseline()
	})
}
