package credfile_test

import (
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/credfile"
)

// BenchmarkRewrite measures the credential-file update every
// collab_cursor_ack makes: checks, a new private temporary file and the
// rename over the old file, without fsync.
func BenchmarkRewrite(b *testing.B) {
	benchmarkWrite(b, func(path string, c credfile.Credential) error { return credfile.Rewrite(path, c) })
}

// BenchmarkWriteReplaceDurable measures the same replacement forced to disk
// (file and directory fsync), as a resumed session's first write is.
func BenchmarkWriteReplaceDurable(b *testing.B) {
	benchmarkWrite(b, func(path string, c credfile.Credential) error { return credfile.Write(path, c, true) })
}

func benchmarkWrite(b *testing.B, write func(string, credfile.Credential) error) {
	path := filepath.Join(privateDir(b), "cred.json")
	c := sampleCredential()
	if err := credfile.Write(path, c, false); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.LastCursor.Sequence++
		if err := write(path, c); err != nil {
			b.Fatal(err)
		}
	}
}
