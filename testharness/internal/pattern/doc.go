// Package pattern holds the recognisable output formats shared by the
// harness's child programs (which print them) and its conformance suites
// (which check them): numbered flood lines and the burst pattern with its
// checksum trailer.
package pattern
