package stdio

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// frames reads every frame of input with the given limit.
func frames(t *testing.T, r io.Reader, limit int) []Frame {
	t.Helper()
	f := NewFramer(r, limit)
	var out []Frame
	for {
		fr, err := f.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, fr)
	}
}

func TestFramerSplitsLinesAndSkipsOverLongOnes(t *testing.T) {
	long := strings.Repeat("x", 3*readChunk)
	cases := []struct {
		name  string
		input string
		limit int
		want  []string // "!" + n marks a discarded line of n bytes
	}{
		{"one line per frame", "a\nb\n", 10, []string{"a", "b"}},
		{"CRLF endings", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"blank lines are frames", "\n\na\n", 10, []string{"", "", "a"}},
		{"last line without newline", "a\nb", 10, []string{"a", "b"}},
		{"a truncated line does not swallow the next", "{\"a\":\n{\"b\":1}\n", 10, []string{"{\"a\":", "{\"b\":1}"}},
		{"line exactly at the limit", "abcd\n", 4, []string{"abcd"}},
		{"one byte over the limit", "abcde\nok\n", 4, []string{"!6", "ok"}},
		{"over-long line longer than the read buffer", long + "\nok\n", 100, []string{"!" + itoa(len(long)+1), "ok"}},
		{"over-long last line", "ok\n" + long, 100, []string{"ok", "!" + itoa(len(long))}},
		{"long line within a large limit", long + "\n", len(long), []string{long}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, reader := range []struct {
				name string
				r    io.Reader
			}{{"whole", strings.NewReader(tc.input)}, {"byte by byte", iotest.OneByteReader(strings.NewReader(tc.input))}} {
				got := frames(t, reader.r, tc.limit)
				if len(got) != len(tc.want) {
					t.Fatalf("%s: %d frames, want %d", reader.name, len(got), len(tc.want))
				}
				for i, fr := range got {
					s := string(fr.Line)
					if fr.TooLong > 0 {
						s = "!" + itoa(int(fr.TooLong))
					}
					if s != tc.want[i] {
						t.Errorf("%s: frame %d = %.40q, want %.40q", reader.name, i, s, tc.want[i])
					}
				}
			}
		})
	}
}

func TestFramerReportsABrokenInput(t *testing.T) {
	broken := errors.New("device gone")
	f := NewFramer(io.MultiReader(strings.NewReader("partial"), iotest.ErrReader(broken)), 100)
	if _, err := f.Next(); !errors.Is(err, broken) {
		t.Fatalf("Next = %v, want the reader's error", err)
	}
}

func TestFramerNeverHoldsMoreThanTheLimit(t *testing.T) {
	const limit = 1 << 20
	line := make([]byte, limit)
	for i := range line {
		line[i] = 'x'
	}
	f := NewFramer(strings.NewReader(string(line)+"\n"), limit)
	fr, err := f.Next()
	if err != nil || len(fr.Line) != limit {
		t.Fatalf("Next = %d bytes, %v", len(fr.Line), err)
	}
	if c := cap(fr.Line); c > limit+1 {
		t.Fatalf("a line at the limit used %d bytes of capacity, want at most %d", c, limit+1)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
