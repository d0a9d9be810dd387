package scope

import "strings"

// posixNormalize normalises p lexically with the same results as Node's
// path.posix.normalize: runs of "/" collapse, "." segments drop, ".." removes
// the segment before it (or stays, at the start of a relative path; or
// vanishes, at the root of an absolute one), one trailing "/" is kept, and
// an empty relative result is "." (or "./" when p ended in "/").
func posixNormalize(p string) string {
	if p == "" {
		return "."
	}
	absolute := p[0] == '/'
	trailing := p[len(p)-1] == '/'
	var kept []string
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "" || seg == ".":
		case seg != "..":
			kept = append(kept, seg)
		case len(kept) > 0 && kept[len(kept)-1] != "..":
			kept = kept[:len(kept)-1]
		case !absolute:
			kept = append(kept, "..")
		}
	}
	out := strings.Join(kept, "/")
	switch {
	case out == "" && absolute:
		return "/"
	case out == "" && trailing:
		return "./"
	case out == "":
		return "."
	case trailing:
		out += "/"
	}
	if absolute {
		out = "/" + out
	}
	return out
}
