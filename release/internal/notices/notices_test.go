package notices

import (
	"slices"
	"strings"
	"testing"
)

func TestRenderListsEveryModuleWithItsLicenseFilesAndParsesBack(t *testing.T) {
	mods := []Module{
		{Path: "example.com/a", Version: "v1.0.0", Dir: "testdata/mods/with-license"},
		{Path: "example.com/b", Version: "v0.2.0", Dir: "testdata/mods/with-license"},
	}
	out, err := Render("testdata/goroot", mods)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"## Go standard library and runtime", "Fake Go license", "### NOTICE", "notice text", "MIT-ish terms\nline two"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered notices lack %q", want)
		}
	}
	if strings.Contains(text, "\r") {
		t.Error("CRLF from a license file leaked into the notices")
	}
	if got := Listed(out); !slices.Equal(got, []string{"example.com/a v1.0.0", "example.com/b v0.2.0"}) {
		t.Errorf("Listed = %q; a heading inside a license text must not count", got)
	}
	if missing := Missing(Listed(out), []string{"example.com/a v1.0.0", "example.com/a v1.1.0", "example.com/c v1.0.0"}); !slices.Equal(missing, []string{"example.com/a v1.1.0", "example.com/c v1.0.0"}) {
		t.Errorf("Missing = %q", missing)
	}
}

func TestRenderRefusesAModuleWithoutLicense(t *testing.T) {
	_, err := Render("testdata/goroot", []Module{{Path: "example.com/x", Version: "v1.0.0", Dir: "testdata/mods/no-license"}})
	if err == nil || !strings.Contains(err.Error(), "no license file") {
		t.Fatalf("Render error = %v, want a missing-license refusal", err)
	}
}
