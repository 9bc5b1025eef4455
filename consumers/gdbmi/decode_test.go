package gdbmi

import (
	"errors"
	"testing"
)

type testFrame struct {
	Level int    `mi:"level"`
	Addr  uint64 `mi:"addr"`
	Func  string `mi:"func"`
	File  string `mi:"file"`
	Line  int    `mi:"line"`
	Args  []struct {
		Name  string `mi:"name"`
		Value string `mi:"value"`
	} `mi:"args"`
}

func TestDecodeStruct(t *testing.T) {
	r := mustParse(t, `*stopped,reason="breakpoint-hit",bkptno="1",frame={addr="0x0000555555555163",func="add",args=[{name="a",value="0"},{name="b",value="1"}],file="simple.c",line="9"},thread-id="1",exit-code="012",core="0"`)
	var ev struct {
		Reason   string     `mi:"reason"`
		Bkpt     int        `mi:"bkptno"`
		Frame    *testFrame `mi:"frame"`
		Thread   int        `mi:"thread-id"`
		ExitCode int        `mi:"exit-code"`
		Core     Value      `mi:"core"`
		Any      any        `mi:"reason"`
		Missing  string     `mi:"nope"`
		Skipped  string     `mi:"-"`
		Untagged string
	}
	ev.Missing = "kept"
	if err := r.Decode(&ev); err != nil {
		t.Fatal(err)
	}
	if ev.Reason != "breakpoint-hit" || ev.Bkpt != 1 || ev.Thread != 1 || ev.ExitCode != 10 || ev.Missing != "kept" {
		t.Errorf("got %+v", ev)
	}
	f := ev.Frame
	if f == nil || f.Addr != 0x555555555163 || f.Func != "add" || f.Line != 9 || len(f.Args) != 2 || f.Args[1].Value != "1" {
		t.Errorf("frame %+v", f)
	}
	if ev.Core.Str() != "0" || ev.Any.(Value).Str() != "breakpoint-hit" {
		t.Errorf("raw fields %v %v", ev.Core, ev.Any)
	}
}

func TestDecodeRepeatedNamesAndLists(t *testing.T) {
	r := mustParse(t, `^done,BreakpointTable={nr_rows="2",body=[bkpt={number="1",enabled="y",thread-groups=["i1"]},bkpt={number="2",enabled="n",thread-groups=["i1","i2"]}]},stack=[frame={level="0"},frame={level="1"}],names=["a","b"]`)
	type bp struct {
		Number  string   `mi:"number"`
		Enabled bool     `mi:"enabled"`
		Groups  []string `mi:"thread-groups"`
	}
	var out struct {
		Table struct {
			Rows int  `mi:"nr_rows"`
			Body []bp `mi:"body"`
		} `mi:"BreakpointTable"`
		Stack []testFrame      `mi:"stack"`
		Names []string         `mi:"names"`
		Map   map[string]Value `mi:"BreakpointTable"`
	}
	if err := r.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Table.Rows != 2 || len(out.Table.Body) != 2 || out.Table.Body[1].Enabled || !out.Table.Body[0].Enabled || len(out.Table.Body[1].Groups) != 2 {
		t.Errorf("table %+v", out.Table)
	}
	if len(out.Stack) != 2 || out.Stack[1].Level != 1 || len(out.Names) != 2 {
		t.Errorf("stack %+v names %v", out.Stack, out.Names)
	}
	if out.Map["nr_rows"].Str() != "2" {
		t.Errorf("map %v", out.Map)
	}
	// Repeated names directly in a tuple collect into a slice.
	r = mustParse(t, `^done,bkpt={number="1"},bkpt={number="2"},bkpt={number="3"}`)
	var rep struct {
		Bkpts []bp `mi:"bkpt"`
	}
	if err := r.Decode(&rep); err != nil || len(rep.Bkpts) != 3 || rep.Bkpts[2].Number != "3" {
		t.Fatalf("repeated: %+v %v", rep, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	r := mustParse(t, `^done,frame={line="nine"},list=["a"],flag="maybe"`)
	var bad struct {
		Frame struct {
			Line int `mi:"line"`
		} `mi:"frame"`
	}
	err := r.Decode(&bad)
	var de *DecodeError
	if !errors.As(err, &de) || de.Path != "frame.line" || !errors.Is(err, ErrDecode) {
		t.Fatalf("got %v", err)
	}
	var wrong struct {
		List string `mi:"list"`
	}
	if err := r.Decode(&wrong); !errors.As(err, &de) || de.Path != "list" {
		t.Fatalf("got %v", err)
	}
	var flag struct {
		Flag bool `mi:"flag"`
	}
	if err := r.Decode(&flag); !errors.Is(err, ErrDecode) {
		t.Fatalf("got %v", err)
	}
	var notPtr struct{}
	if err := Decode(r.Results, notPtr); !errors.Is(err, ErrDecode) {
		t.Fatalf("non-pointer: %v", err)
	}
	if err := Decode(r.Results, nil); !errors.Is(err, ErrDecode) {
		t.Fatalf("nil: %v", err)
	}
	var ch struct {
		C chan int `mi:"flag"`
	}
	if err := r.Decode(&ch); !errors.Is(err, ErrDecode) {
		t.Fatalf("chan: %v", err)
	}
}
