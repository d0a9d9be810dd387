package collaberr

// docs/errors.md is generated from Registry; TestErrorsDocIsCurrent fails
// when it is stale and rewrites it with -update (see core/golden).
//go:generate go test -count=1 -run "^TestErrorsDocIsCurrent" . -args -update
