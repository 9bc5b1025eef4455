//go:build unix && !linux

package localpty

import "context"

// interruptRisk is empty outside Linux: finding a held-back interrupt
// needs /proc.
type interruptRisk struct{}

func (s *session) interruptRiskOf(int) interruptRisk { return interruptRisk{} }

// followInterrupt does nothing outside Linux (see interrupt_linux.go).
func (s *session) followInterrupt(context.Context, interruptRisk) {}
