package target

// LDFlags returns the linker flags of a release build: symbol tables and DWARF
// stripped, an empty build ID, and the version stamped into main.version.
func LDFlags(version string) string {
	return "-s -w -buildid= -X main.version=" + version
}

// BuildArgs returns the arguments after "go" that build the server for a
// release into out. -trimpath keeps the checkout's path out of the binary and
// -buildvcs=false keeps VCS stamps out, so the bytes depend only on the source,
// the toolchain and these flags.
func BuildArgs(version, out string) []string {
	return []string{
		"build",
		"-trimpath",
		"-buildvcs=false",
		"-ldflags=" + LDFlags(version),
		"-o", out,
		MainPackage,
	}
}

// Env returns the environment entries that a release build of t sets on top of
// the caller's. GOFLAGS is cleared so a developer's settings cannot change the
// bytes; GOAMD64/GOARM64 are pinned to the baselines GoReleaser uses.
func (t Target) Env() []string {
	env := []string{
		"CGO_ENABLED=0",
		"GOOS=" + t.GOOS,
		"GOARCH=" + t.GOARCH,
		"GOFLAGS=",
	}
	switch t.GOARCH {
	case "amd64":
		env = append(env, "GOAMD64=v1")
	case "arm64":
		env = append(env, "GOARM64=v8.0")
	}
	return env
}
