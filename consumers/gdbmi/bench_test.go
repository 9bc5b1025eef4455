package gdbmi

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"testing"
	"time"
)

// jsonOf renders a record as the equivalent JSON document: tuples and lists
// of results become objects (repeated keys kept in the text), lists of
// values become arrays, strings stay strings.
func jsonOf(r Record) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"` + r.Type.String() + `"`)
	if r.HasToken {
		b.WriteString(`,"token":` + strconv.FormatUint(r.Token, 10))
	}
	if r.Class != "" {
		b.WriteString(`,"class":"` + r.Class + `"`)
	}
	if r.Type.IsStream() {
		t, _ := json.Marshal(r.Text)
		b.WriteString(`,"text":`)
		b.Write(t)
	}
	if r.Results.Len() > 0 {
		b.WriteString(`,"results":`)
		jsonValue(&b, r.Results)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func jsonValue(b *bytes.Buffer, v Value) {
	switch {
	case v.Kind() == KindString:
		t, _ := json.Marshal(v.Str())
		b.Write(t)
	case v.Kind() == KindTuple || v.IsResultList():
		b.WriteByte('{')
		for i, f := range v.Fields() {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(f.Name)
			b.Write(k)
			b.WriteByte(':')
			jsonValue(b, f.Value)
		}
		b.WriteByte('}')
	default:
		b.WriteByte('[')
		for i, e := range v.Elems() {
			if i > 0 {
				b.WriteByte(',')
			}
			jsonValue(b, e)
		}
		b.WriteByte(']')
	}
}

// benchCorpora returns the MI input and the same records as JSON lines:
// "records" is every transcript but the large one, repeated to about 1 MB
// (many small, nested records); "large" is every transcript, including the
// one with a 600 KB memory dump and a 300 KB string.
func benchCorpora(b *testing.B) map[string][2][]byte {
	ts := transcripts(b)
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	var small, all []byte
	for _, n := range names {
		all = append(all, ts[n]...)
		if n != "big" {
			small = append(small, ts[n]...)
		}
	}
	var records []byte
	for len(records) < 1<<20 {
		records = append(records, small...)
	}
	out := map[string][2][]byte{}
	for name, mi := range map[string][]byte{"records": records, "large": all} {
		var js []byte
		for _, l := range frameAll(mi) {
			if l.Err == nil {
				js = append(js, jsonOf(l.Record)...)
			}
		}
		out[name] = [2][]byte{mi, js}
	}
	return out
}

// BenchmarkTranscriptVsJSON parses recorded gdb transcripts with the
// Framer and, in the same loop, decodes the same records expressed as JSON
// with encoding/json (into any, through a streaming json.Decoder). It
// reports both throughputs and json-time/mi-time (above 1: the MI parser is
// faster on the same data).
func BenchmarkTranscriptVsJSON(b *testing.B) {
	for _, name := range []string{"records", "large"} {
		c := benchCorpora(b)[name]
		mi, js := c[0], c[1]
		b.Run(name, func(b *testing.B) {
			var miTime, jsTime time.Duration
			var lines []Line
			n := 0
			for b.Loop() {
				t0 := time.Now()
				var f Framer
				lines = f.Feed(lines[:0], mi)
				lines = f.Flush(lines)
				t1 := time.Now()
				dec := json.NewDecoder(bytes.NewReader(js))
				for {
					var v any
					if err := dec.Decode(&v); err != nil {
						if err != io.EOF {
							b.Fatal(err)
						}
						break
					}
				}
				t2 := time.Now()
				miTime += t1.Sub(t0)
				jsTime += t2.Sub(t1)
				n++
			}
			b.ReportMetric(float64(len(mi))*float64(n)/miTime.Seconds()/1e6, "mi-MB/s")
			b.ReportMetric(float64(len(js))*float64(n)/jsTime.Seconds()/1e6, "json-MB/s")
			b.ReportMetric(jsTime.Seconds()/miTime.Seconds(), "json/mi-time")
		})
	}
}

// BenchmarkParseLine measures one typical *stopped record.
func BenchmarkParseLine(b *testing.B) {
	line := []byte(`*stopped,reason="breakpoint-hit",disp="keep",bkptno="1",frame={addr="0x0000555555555163",func="add",args=[{name="a",value="0"},{name="b",value="0"}],file="simple.c",fullname="/work/main/consumers/gdbmi/testdata/simple.c",line="9",arch="i386:x86-64"},thread-id="1",stopped-threads="all",core="0"`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseLine(line); err != nil {
			b.Fatal(err)
		}
	}
}
