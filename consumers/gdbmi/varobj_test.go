package gdbmi

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestVariableObjects(t *testing.T) {
	c, _ := startGDB(t, "vars", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "vars.c:18"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := c.VarCreate(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if v.Name == "" || v.NumChild != 3 || v.Type != "struct shape" || v.Value != "{...}" || v.ThreadID != 1 {
		t.Fatalf("created %+v", v)
	}
	kids, err := c.VarChildren(ctx, v.Name)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range kids {
		got = append(got, k.Exp+"="+k.Value+":"+k.Type)
	}
	if len(kids) != 3 || !strings.HasSuffix(kids[0].Value, `"box"`) ||
		strings.Join(got[1:], ",") != "corners=[2]:struct point [2],sides=4:int" {
		t.Errorf("children %q", got)
	}
	corners, err := c.VarChildren(ctx, kids[1].Name)
	if err != nil || len(corners) != 2 {
		t.Fatalf("corners %+v %v", corners, err)
	}
	second, err := c.VarChildren(ctx, corners[1].Name)
	if err != nil || len(second) != 2 || second[1].Exp != "y" || second[1].Value != "4" {
		t.Fatalf("corners[1] %+v %v", second, err)
	}
	// Two lines later sides is 5 and corners[1].y is 40.
	for i := 0; i < 2; i++ {
		if err := c.Next(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitStopped(ctx); err != nil {
			t.Fatal(err)
		}
	}
	changes, err := c.VarUpdate(ctx, "*")
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, ch := range changes {
		got = append(got, ch.Name+"="+ch.Value+" "+ch.InScope)
	}
	slices.Sort(got)
	if want := []string{second[1].Name + "=40 true", kids[2].Name + "=5 true"}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	if val, err := c.VarEvaluate(ctx, second[1].Name); err != nil || val != "40" {
		t.Errorf("evaluate %q %v", val, err)
	}
	n, err := c.VarDelete(ctx, v.Name)
	if err != nil || n != 1+3+2+2 {
		t.Errorf("deleted %d %v", n, err)
	}
	var me *MIError
	if _, err := c.VarEvaluate(ctx, v.Name); !errors.As(err, &me) {
		t.Errorf("evaluate after delete: %v", err)
	}
	if _, err := c.VarCreate(ctx, "nosuchvar"); !errors.As(err, &me) {
		t.Errorf("create of an unknown symbol: %v", err)
	}
}

// TestVariableObjectsArePrettyPrinted: a C++ container's variable object
// shows its elements as children ([0], [1], ...; a map's keys and values
// in turn), as a debugger's user sees them, unless RawVarObjects asks for
// the library's own structure.
func TestVariableObjectsArePrettyPrinted(t *testing.T) {
	prog := compileCXX(t, "containers")
	children := func(t *testing.T, opts Options, expr string) (*VarObject, []string) {
		t.Helper()
		opts.Program = prog
		c, _ := startGDB(t, "", opts)
		ctx := testCtx(t)
		if _, err := c.BreakInsert(ctx, "containers.cpp:11"); err != nil {
			t.Fatal(err)
		}
		if err := c.Run(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitStopped(ctx); err != nil {
			t.Fatal(err)
		}
		v, err := c.VarCreate(ctx, expr)
		if err != nil {
			t.Fatal(err)
		}
		kids, err := c.VarChildren(ctx, v.Name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, k := range kids {
			got = append(got, k.Exp+"="+k.Value)
		}
		return v, got
	}
	v, got := children(t, Options{}, "v")
	if v.DisplayHint != "array" || strings.Join(got, ",") != "[0]=1,[1]=2,[2]=3" {
		t.Errorf("vector %+v, children %q", v, got)
	}
	m, got := children(t, Options{}, "m")
	if m.DisplayHint != "map" || strings.Join(got, ",") != `[0]="a",[1]=1,[2]="b",[3]=2` {
		t.Errorf("map %+v, children %q", m, got)
	}
	raw, got := children(t, Options{RawVarObjects: true}, "v")
	if raw.DisplayHint != "" || len(got) == 0 || strings.HasPrefix(got[0], "[0]=") {
		t.Errorf("raw vector %+v, children %q: want the library's structure", raw, got)
	}
}
