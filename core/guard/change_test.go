package guard

import (
	"reflect"
	"testing"
)

func TestParseNameStatusReadsEveryKindOfEntry(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []Change
	}{
		{"empty", "", nil},
		{"modify and add", "M\x00a.go\x00A\x00dir/b.go\x00", []Change{{"M", "a.go", ""}, {"A", "dir/b.go", ""}}},
		{"rename keeps both ends", "R087\x00old/x\x00new/x\x00", []Change{{"R", "new/x", "old/x"}}},
		{"copy", "C100\x00a\x00b\x00", []Change{{"C", "b", "a"}}},
		{"log separators are skipped", "\nM\x00a\x00\x00\nD\x00b\x00", []Change{{"M", "a", ""}, {"D", "b", ""}}},
		{"names with spaces and newlines", "M\x00a b\nc\x00", []Change{{"M", "a b\nc", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseNameStatus([]byte(c.in))
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, %v; want %#v", got, err, c.want)
			}
		})
	}
}

func TestParseNameStatusRefusesTruncatedOutput(t *testing.T) {
	for _, in := range []string{"M", "M\x00", "R100\x00old\x00"} {
		if got, err := ParseNameStatus([]byte(in)); err == nil {
			t.Errorf("%q: want an error, got %#v", in, got)
		}
	}
}
