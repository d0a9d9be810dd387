package target

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yaml that decides the bytes
// of a binary.
type goreleaserConfig struct {
	Builds []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		GOOS    []string `yaml:"goos"`
		GOARCH  []string `yaml:"goarch"`
		GOAMD64 []string `yaml:"goamd64"`
		GOARM64 []string `yaml:"goarm64"`
		Flags   []string `yaml:"flags"`
		LDFlags []string `yaml:"ldflags"`
	} `yaml:"builds"`
}

func TestGoReleaserConfigMatchesTheNativeBuildSettings(t *testing.T) {
	data, err := os.ReadFile("../../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf("%d builds, want 1", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != MainPackage || b.Binary != Binary {
		t.Errorf("main %q binary %q, want %q %q", b.Main, b.Binary, MainPackage, Binary)
	}
	var pairs []Target
	for _, goos := range b.GOOS {
		for _, goarch := range b.GOARCH {
			pairs = append(pairs, Target{goos, goarch})
		}
	}
	cmp := func(a, b Target) int { return strings.Compare(a.String(), b.String()) }
	slices.SortFunc(pairs, cmp)
	if !slices.Equal(pairs, All) {
		t.Errorf("GoReleaser targets %v, want %v", pairs, All)
	}
	args := BuildArgs("{{ .Version }}", "out")
	for _, f := range b.Flags {
		if !slices.Contains(args, f) {
			t.Errorf("GoReleaser flag %q is not in the native build %v", f, args)
		}
	}
	if len(b.Flags) != 2 {
		t.Errorf("GoReleaser flags %v, want exactly -trimpath and -buildvcs=false", b.Flags)
	}
	if len(b.LDFlags) != 1 || b.LDFlags[0] != LDFlags("{{ .Version }}") {
		t.Errorf("GoReleaser ldflags %q, want %q", b.LDFlags, LDFlags("{{ .Version }}"))
	}
	for _, tg := range All {
		for _, kv := range tg.Env() {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "GOOS", "GOARCH":
			case "GOAMD64":
				if !slices.Equal(b.GOAMD64, []string{v}) {
					t.Errorf("goamd64 %v, want [%s]", b.GOAMD64, v)
				}
			case "GOARM64":
				if !slices.Equal(b.GOARM64, []string{v}) {
					t.Errorf("goarm64 %v, want [%s]", b.GOARM64, v)
				}
			default:
				if !slices.Contains(b.Env, kv) {
					t.Errorf("GoReleaser env %v lacks %s", b.Env, kv)
				}
			}
		}
	}
}

func TestNPMPlatformUsesNodeNames(t *testing.T) {
	want := map[Target]string{
		{"darwin", "amd64"}: "darwin-x64", {"darwin", "arm64"}: "darwin-arm64",
		{"linux", "amd64"}: "linux-x64", {"linux", "arm64"}: "linux-arm64",
		{"windows", "amd64"}: "win32-x64", {"windows", "arm64"}: "win32-arm64",
	}
	for _, tg := range All {
		if got := tg.NPMPlatform(); got != want[tg] {
			t.Errorf("%s: NPMPlatform() = %q, want %q", tg, got, want[tg])
		}
	}
	if _, err := ParseList("linux/amd64,plan9/386"); err == nil {
		t.Error("ParseList accepted an unreleased target")
	}
}
