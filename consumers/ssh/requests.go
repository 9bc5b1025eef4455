package ssh

import (
	"encoding/binary"
	"sort"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// Payloads of the session channel requests of RFC 4254 section 6.

type ptyRequestMsg struct {
	Term     string
	Columns  uint32
	Rows     uint32
	Width    uint32
	Height   uint32
	Modelist string
}

type envRequestMsg struct {
	Name  string
	Value string
}

type execMsg struct {
	Command string
}

type windowChangeMsg struct {
	Columns uint32
	Rows    uint32
	Width   uint32
	Height  uint32
}

type signalMsg struct {
	Signal string
}

type exitStatusMsg struct {
	Status uint32
}

type exitSignalMsg struct {
	Signal     string
	CoreDumped bool
	Error      string
	Lang       string
}

// defaultModes are the PTY modes sent unless Target.Modes overrides them.
var defaultModes = map[uint8]uint32{
	gossh.VINTR:         3,   // ^C
	gossh.VQUIT:         28,  // ^\
	gossh.VERASE:        127, // DEL
	gossh.VKILL:         21,  // ^U
	gossh.VEOF:          4,   // ^D
	gossh.VSUSP:         26,  // ^Z
	gossh.ECHO:          1,
	gossh.ICANON:        1,
	gossh.ISIG:          1,
	gossh.ICRNL:         1,
	gossh.IEXTEN:        1,
	gossh.OPOST:         1,
	gossh.ONLCR:         1,
	gossh.TTY_OP_ISPEED: 38400,
	gossh.TTY_OP_OSPEED: 38400,
}

func mergedModes(over map[uint8]uint32) map[uint8]uint32 {
	m := make(map[uint8]uint32, len(defaultModes)+len(over))
	for k, v := range defaultModes {
		m[k] = v
	}
	for k, v := range over {
		m[k] = v
	}
	return m
}

// encodeModes renders modes as RFC 4254 section 8 encoded terminal modes,
// in opcode order, ended by TTY_OP_END.
func encodeModes(m map[uint8]uint32) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		if k != 0 && k < 160 {
			keys = append(keys, int(k))
		}
	}
	sort.Ints(keys)
	b := make([]byte, 0, 5*len(keys)+1)
	for _, k := range keys {
		b = append(b, byte(k))
		b = binary.BigEndian.AppendUint32(b, m[uint8(k)])
	}
	return string(append(b, 0))
}

// sigName converts "SIGINT" to the protocol's "INT".
func sigName(s string) string { return strings.TrimPrefix(s, "SIG") }
