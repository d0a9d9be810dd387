//go:build !linux

package liveness

// zombie cannot be told without /proc; signal 0 alone decides.
func zombie(int) bool { return false }
