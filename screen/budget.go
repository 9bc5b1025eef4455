package screen

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// Emulator cost limits (see Options.MaxCells and Options.MaxTotalCells).
// An emulator keeps about 240 bytes per cell (measured with x/vt: a
// 1000x1000 screen holds 234 MB), so the defaults bound one screen at
// about 24 MB and all of a manager's screens at about 120 MB.
const (
	DefaultMaxCells      = 100_000
	DefaultMaxTotalCells = 500_000
)

// cellsOf is the number of cells of a screen of size.
func cellsOf(size core.Size) int64 { return int64(size.Rows) * int64(size.Cols) }

// checkCells refuses a size larger than one screen may be.
func (m *Manager) checkCells(op string, id core.SessionID, size core.Size) error {
	if n := cellsOf(size); n > int64(m.opts.MaxCells) {
		return &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id,
			Msg: fmt.Sprintf("a %dx%d screen has %d cells, more than the %d one screen may have here: ask for fewer rows or columns",
				size.Rows, size.Cols, n, m.opts.MaxCells)}
	}
	return nil
}

// reserveCells sets the cells st holds in the manager's budget to those of
// size, refusing growth beyond one screen's limit or beyond the budget
// every screen shares. force records the size even over budget (a session
// that started at that size; the next growth anywhere is refused instead).
func (m *Manager) reserveCells(op string, st *state, size core.Size, force bool) error {
	if !force {
		if err := m.checkCells(op, st.id, size); err != nil {
			return err
		}
	}
	n := cellsOf(size)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.states[st.id] != st {
		return nil // forgotten: it holds nothing
	}
	grow := n - st.cells
	if force || grow <= 0 || m.cells+grow <= int64(m.opts.MaxTotalCells) {
		m.cells += grow
		st.cells = n
		return nil
	}
	return overBudget(op, st.id, m.cells, int64(m.opts.MaxTotalCells), size)
}

// fits reports whether a new screen of size fits the budget (closed
// sessions gave their cells back when they closed).
func (m *Manager) fits(op string, size core.Size) error {
	m.mu.Lock()
	used := m.cells
	m.mu.Unlock()
	if used+cellsOf(size) <= int64(m.opts.MaxTotalCells) {
		return nil
	}
	return overBudget(op, "", used, int64(m.opts.MaxTotalCells), size)
}

func overBudget(op string, id core.SessionID, used, limit int64, size core.Size) error {
	return &core.Error{Code: core.CodeResourceLimit, Op: op, Session: id,
		Msg: fmt.Sprintf("the screens of this server hold %d of the %d cells they may have together, and a %dx%d screen does not fit: close sessions you no longer need or ask for a smaller size",
			used, limit, size.Rows, size.Cols)}
}

// releaseCellsLocked returns st's cells to the budget. m.mu is held.
func (m *Manager) releaseCellsLocked(st *state) {
	m.cells -= st.cells
	st.cells = 0
}

// Cells reports the cells the manager's screens hold against
// Options.MaxTotalCells, and that limit.
func (m *Manager) Cells() (used, limit int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cells, int64(m.opts.MaxTotalCells)
}
