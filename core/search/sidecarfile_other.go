//go:build !unix

package search

// openNoFollow is empty where the platform has no O_NOFOLLOW; the check
// after the open (regular file, one name, same file) still applies.
const openNoFollow = 0
