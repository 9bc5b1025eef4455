package gdbmi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testFrame struct {
	Level int       `mi:"level"`
	Addr  uint64    `mi:"addr"`
	Func  string    `mi:"func"`
	File  string    `mi:"file"`
	Line  int       `mi:"line"`
	Args  []testArg `mi:"args"`
}

type testArg struct {
	Name  string `mi:"name"`
	Value string `mi:"value"`
}

func TestDecodeStruct(t *testing.T) {
	r := mustParse(t, `*stopped,reason="breakpoint-hit",bkptno="1",frame={addr="0x0000555555555163",func="add",args=[{name="a",value="0"},{name="b",value="1"}],file="simple.c",line="9"},thread-id="1",exit-code="012",core="0"`)
	type event struct {
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
	ev := event{Missing: "kept"}
	require.NoError(t, r.Decode(&ev))
	want := event{
		Reason: "breakpoint-hit",
		Bkpt:   1,
		Frame: &testFrame{
			Addr: 0x555555555163,
			Func: "add",
			File: "simple.c",
			Line: 9,
			Args: []testArg{{"a", "0"}, {"b", "1"}},
		},
		Thread:   1,
		ExitCode: 10, // "012" is octal
		Core:     StringValue("0"),
		Any:      StringValue("breakpoint-hit"),
		Missing:  "kept", // a name the record lacks leaves the field alone
	}
	if diff := cmp.Diff(want, ev, cmpValues); diff != "" {
		t.Errorf("decoded *stopped (-want +got):\n%s", diff)
	}
}

func TestDecodeRepeatedNamesAndLists(t *testing.T) {
	r := mustParse(t, `^done,BreakpointTable={nr_rows="2",body=[bkpt={number="1",enabled="y",thread-groups=["i1"]},bkpt={number="2",enabled="n",thread-groups=["i1","i2"]}]},stack=[frame={level="0"},frame={level="1"}],names=["a","b"]`)
	type bp struct {
		Number  string   `mi:"number"`
		Enabled bool     `mi:"enabled"`
		Groups  []string `mi:"thread-groups"`
	}
	type decoded struct {
		Table struct {
			Rows int  `mi:"nr_rows"`
			Body []bp `mi:"body"`
		} `mi:"BreakpointTable"`
		Stack []testFrame      `mi:"stack"`
		Names []string         `mi:"names"`
		Map   map[string]Value `mi:"BreakpointTable"`
	}
	var out decoded
	require.NoError(t, r.Decode(&out))
	want := out
	want.Table.Rows = 2
	want.Table.Body = []bp{{"1", true, []string{"i1"}}, {"2", false, []string{"i1", "i2"}}}
	want.Stack = []testFrame{{Level: 0}, {Level: 1}}
	want.Names = []string{"a", "b"}
	bkpt := func(number, enabled string, groups ...Value) Field {
		return Field{"bkpt", TupleValue(
			Field{"number", StringValue(number)},
			Field{"enabled", StringValue(enabled)},
			Field{"thread-groups", ListValue(groups...)},
		)}
	}
	want.Map = map[string]Value{
		"nr_rows": StringValue("2"),
		"body": ResultListValue(
			bkpt("1", "y", StringValue("i1")),
			bkpt("2", "n", StringValue("i1"), StringValue("i2")),
		),
	}
	if diff := cmp.Diff(want, out, cmpValues); diff != "" {
		t.Errorf("decoded BreakpointTable, stack and names (-want +got):\n%s", diff)
	}
	// Repeated names directly in a tuple collect into a slice.
	r = mustParse(t, `^done,bkpt={number="1"},bkpt={number="2"},bkpt={number="3"}`)
	var rep struct {
		Bkpts []bp `mi:"bkpt"`
	}
	require.NoError(t, r.Decode(&rep), "repeated")
	if diff := cmp.Diff([]bp{{Number: "1"}, {Number: "2"}, {Number: "3"}}, rep.Bkpts); diff != "" {
		t.Errorf("repeated bkpt results (-want +got):\n%s", diff)
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
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "frame.line", de.Path)
	assert.ErrorIs(t, err, ErrDecode)
	var wrong struct {
		List string `mi:"list"`
	}
	err = r.Decode(&wrong)
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "list", de.Path)
	var flag struct {
		Flag bool `mi:"flag"`
	}
	assert.ErrorIs(t, r.Decode(&flag), ErrDecode, "flag=\"maybe\" into a bool")
	var notPtr struct{}
	assert.ErrorIs(t, Decode(r.Results, notPtr), ErrDecode, "non-pointer")
	assert.ErrorIs(t, Decode(r.Results, nil), ErrDecode, "nil")
	var ch struct {
		C chan int `mi:"flag"`
	}
	assert.ErrorIs(t, r.Decode(&ch), ErrDecode, "chan")
}
