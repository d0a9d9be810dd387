//go:build !unix

package main

// ownPeakRSSMB is 0 where this harness reads no peak resident set.
func ownPeakRSSMB() float64 { return 0 }
