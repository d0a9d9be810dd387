//go:build !linux

package main

// privateMounts reports false: mount namespaces are Linux's, and the tests
// that need one skip elsewhere.
func privateMounts() bool { return false }
