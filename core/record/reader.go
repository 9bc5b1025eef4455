package record

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// MaxLine bounds one line of a recording a Reader accepts.
const MaxLine = 16 << 20

// Header is an asciicast v2 file's first line.
type Header struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// Event is one event line: Time in seconds from the start, Code "o"
// (output), "i" (input), "r" (resize, Data "COLSxROWS") or "m" (marker).
type Event struct {
	Time float64
	Code string
	Data string
}

// Reader reads an asciicast v2 recording.
type Reader struct {
	Header Header
	sc     *bufio.Scanner
	line   int
}

// NewReader reads the header of the recording in r.
func NewReader(r io.Reader) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	rd := &Reader{sc: sc}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("asciicast header: %w", err)
		}
		return nil, errors.New("asciicast: empty file")
	}
	rd.line = 1
	if err := json.Unmarshal(sc.Bytes(), &rd.Header); err != nil {
		return nil, fmt.Errorf("asciicast header: %w", err)
	}
	if rd.Header.Version != 2 {
		return nil, fmt.Errorf("asciicast: version %d is not supported (only 2)", rd.Header.Version)
	}
	if rd.Header.Width <= 0 || rd.Header.Height <= 0 || rd.Header.Width > 10000 || rd.Header.Height > 10000 {
		return nil, fmt.Errorf("asciicast: bad size %dx%d", rd.Header.Width, rd.Header.Height)
	}
	return rd, nil
}

// Next returns the next event, io.EOF after the last. Blank lines are
// skipped.
func (r *Reader) Next() (Event, error) {
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 3 {
			return Event{}, fmt.Errorf("asciicast line %d: not an event [time, code, data]", r.line)
		}
		var ev Event
		if err := json.Unmarshal(raw[0], &ev.Time); err != nil || ev.Time < 0 || math.IsInf(ev.Time, 0) || math.IsNaN(ev.Time) {
			return Event{}, fmt.Errorf("asciicast line %d: bad time", r.line)
		}
		if err := json.Unmarshal(raw[1], &ev.Code); err != nil || ev.Code == "" {
			return Event{}, fmt.Errorf("asciicast line %d: bad event code", r.line)
		}
		if err := json.Unmarshal(raw[2], &ev.Data); err != nil {
			return Event{}, fmt.Errorf("asciicast line %d: bad event data", r.line)
		}
		return ev, nil
	}
	if err := r.sc.Err(); err != nil {
		return Event{}, fmt.Errorf("asciicast line %d: %w", r.line+1, err)
	}
	return Event{}, io.EOF
}

// ParseSize parses a resize event's data, "COLSxROWS".
func ParseSize(s string) (cols, rows int, err error) {
	if _, err := fmt.Sscanf(s, "%dx%d", &cols, &rows); err != nil || cols <= 0 || rows <= 0 || cols > 10000 || rows > 10000 {
		return 0, 0, fmt.Errorf("asciicast: bad resize %q", s)
	}
	return cols, rows, nil
}
