// Package hardening holds ptyseam's cross-layer reliability suites: orphan
// torture, output at exit, stress, faults and one table of malformed inputs
// across every layer. It has no API; its tests are the product. Longer runs
// are behind PTYSEAM_SOAK=1 (make soak).
package hardening
