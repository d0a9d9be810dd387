package verify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/agenttool/collab/release/internal/pack"
	"github.com/agenttool/collab/release/internal/report"
	"github.com/agenttool/collab/release/internal/target"
)

// ArchiveName is the GoReleaser archive of target t at version v (see
// archives.name_template in .goreleaser.yaml).
func ArchiveName(t target.Target, v string) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("%s_%s_%s_%s%s", target.Binary, v, t.GOOS, t.GOARCH, ext)
}

// checkBinaries: each platform binary in the npm package is byte-identical
// to the one in the matching archive (0755 there too), and the host
// platform's binary reports the tag's version.
func checkBinaries(ctx context.Context, r *report.Report, rel *release) {
	for _, t := range target.All {
		npmPath := "bin/" + t.NPMPlatform() + "/" + t.Exe()
		r.Add(fmt.Sprintf("%s: npm binary equals the one in %s", t, ArchiveName(t, rel.version)), sameBinary(rel, t, npmPath))
	}
	host := target.Target{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	if !rel.in.RunHost {
		r.Skip("running the host binary", "not requested")
		return
	}
	if _, err := target.Parse(host.String()); err != nil {
		r.Skip("running the host binary", "no build for "+host.String())
		return
	}
	r.Add(host.String()+" binary reports version "+rel.version, runVersion(ctx, rel, host))
}

func sameBinary(rel *release, t target.Target, npmPath string) error {
	nf, ok := rel.npm[npmPath]
	if !ok {
		return fmt.Errorf("the npm package has no %s", npmPath)
	}
	arch, err := pack.ReadArchive(filepath.Join(rel.in.ReleaseDir, ArchiveName(t, rel.version)))
	if err != nil {
		return err
	}
	af, ok := arch[t.Exe()]
	if !ok {
		return fmt.Errorf("the archive has no %s", t.Exe())
	}
	if af.Sums.SHA256 != nf.Sums.SHA256 {
		return fmt.Errorf("npm %s is %s, archive has %s", npmPath, nf.Sums.SHA256Hex(), af.Sums.SHA256Hex())
	}
	if t.GOOS != "windows" && af.Mode != 0o755 {
		return fmt.Errorf("archive binary mode %04o, want 0755", af.Mode)
	}
	return nil
}

func runVersion(ctx context.Context, rel *release, t target.Target) error {
	dir, err := os.MkdirTemp("", "release-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, t.Exe())
	if err := pack.ExtractNPMFile(rel.in.NPMTarball, "bin/"+t.NPMPlatform()+"/"+t.Exe(), exe); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, exe, "--version")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s --version: %w: %s", t.Exe(), err, stderr.String())
	}
	want := target.Binary + " " + rel.version
	if got := strings.TrimSpace(stdout.String()); got != want {
		return fmt.Errorf("--version printed %q, want %q", got, want)
	}
	return nil
}
