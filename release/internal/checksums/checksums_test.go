package checksums

import (
	"strings"
	"testing"
)

func TestParseRoundTripsSortedAndRefusesBadLines(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	f, err := Parse([]byte(b + "  z.tgz\n" + a + "  a.zip\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(f.Bytes()), a+"  a.zip\n"+b+"  z.tgz\n"; got != want {
		t.Errorf("Bytes() = %q, want %q", got, want)
	}
	for _, bad := range []string{
		a + " one-space.tgz\n",
		strings.Repeat("A", 64) + "  upper.tgz\n",
		a[:63] + "  short.tgz\n",
		a + "  dir/x.tgz\n",
		a + "  x.tgz\n" + b + "  x.tgz\n",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse accepted %q", bad)
		}
	}
}
