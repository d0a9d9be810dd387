package scope

import (
	"strings"
	"unicode/utf8"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/normalize"
)

// MaxCombinedLength bounds the UTF-16 code units of a task's path scopes
// together, as given (docs/contract.md#path-scopes). How many scopes a
// task may declare and how long each may be are in the field table
// (field.PathScopes, field.PathScope); this sum is the store's alone.
const MaxCombinedLength = 16000

// Normalize validates a task's raw path scopes and returns them normalised,
// de-duplicated and sorted by UTF-16 code units (never nil). Each scope is
// taken as given (no trimming): it must be non-empty, at most
// field.PathScope's Max long, free of NUL and "\", and not start with "/"; then one leading "./"
// is removed, the rest is normalised like Node's path.posix.normalize and
// one trailing "/" is removed. A result that names the repository root or
// leaves it ("", ".", "..", "../…") is refused.
//
// Scopes are checked one at a time in order, so the first bad scope decides
// the refusal: invalid_path_scope with detail "scope" (the scope as given)
// for a malformed or root/parent scope, invalid_path_scopes for more scopes
// than field.PathScopes allows or once the running total of raw lengths passes
// MaxCombinedLength.
//
// One consequence of removing "./" before normalising is kept on purpose,
// because the contract prescribes that order: ".//a" becomes "/a", a scope
// with a leading "/" that Normalize would refuse if it were given directly.
func Normalize(raw []string) ([]string, error) {
	if list := field.PathScopes.Spec(); len(raw) > list.Limit() {
		return nil, collaberr.Newf(collaberr.InvalidPathScopes,
			"A task may declare at most %d path scopes; got %d", list.Max, len(raw))
	}
	out := make([]string, 0, len(raw))
	total := 0
	for _, scope := range raw {
		if err := checkShape(scope); err != nil {
			return nil, err
		}
		total += normalize.Length(scope)
		if total > MaxCombinedLength {
			return nil, collaberr.Newf(collaberr.InvalidPathScopes,
				"The path scopes together may not exceed %d characters (UTF-16 code units); declare fewer or broader scopes", MaxCombinedLength)
		}
		clean, err := normalizeOne(scope)
		if err != nil {
			return nil, err
		}
		out = append(out, clean)
	}
	return normalize.SortUnique(out), nil
}

// checkShape refuses a scope that cannot be a repository-relative POSIX path.
func checkShape(scope string) error {
	longest := field.PathScope.Spec().Max
	ok := scope != "" &&
		utf8.ValidString(scope) &&
		int64(normalize.Length(scope)) <= longest &&
		!strings.ContainsAny(scope, "\x00\\") &&
		scope[0] != '/'
	if ok {
		return nil
	}
	return collaberr.Newf(collaberr.InvalidPathScope,
		"Each path scope must be a non-empty path relative to the repository root, using '/' separators, with no backslash or NUL, valid UTF-8 and at most %d characters",
		longest).With("scope", scope)
}

// normalizeOne applies the normalisation steps to a scope that passed
// checkShape and refuses results that cover the whole repository or leave it.
func normalizeOne(scope string) (string, error) {
	clean := posixNormalize(strings.TrimPrefix(scope, "./"))
	clean = strings.TrimSuffix(clean, "/")
	if clean == "" || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", collaberr.New(collaberr.InvalidPathScope,
			"A path scope may not cover the whole repository or point outside it; name a directory or file inside it").With("scope", scope)
	}
	return clean, nil
}
