//go:build !unix

package main

import "os"

// peakRSSMB is 0 where the system reports no peak resident set.
func peakRSSMB(*os.ProcessState) float64 { return 0 }
