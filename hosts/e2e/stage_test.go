package e2e

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/covertest"
	"github.com/agenttool/collab/hosts/plugin"
)

// repoRoot is the repository root, two levels above this package.
const repoRoot = "../.."

func absRepoRoot(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// npmPlatform names this machine the way the package's bin/ folders do.
func npmPlatform() string {
	goos, arch := runtime.GOOS, runtime.GOARCH
	if goos == "windows" {
		goos = "win32"
	}
	if arch == "amd64" {
		arch = "x64"
	}
	return goos + "-" + arch
}

// stagePackage lays out the npm package root from npm/files.txt the way the
// release does, with only this machine's binary, and returns its folder.
func stagePackage(ctx context.Context, t *testing.T, dir string) string {
	t.Helper()
	list, err := os.ReadFile(filepath.Join(repoRoot, "npm", "files.txt"))
	if err != nil {
		t.Fatal(err)
	}
	stage := filepath.Join(dir, "stage")
	var paths []string
	for _, line := range strings.Split(string(list), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		dst := filepath.Join(stage, filepath.FromSlash(f[0]))
		mode, err := strconv.ParseUint(f[1], 8, 32)
		if err != nil {
			t.Fatalf("files.txt: %q: %v", line, err)
		}
		switch src := f[2]; {
		case src == "package.json":
			paths = append(paths, f[0])
			continue // written last, once every path is known
		case strings.HasPrefix(src, "go:"):
			if src != "go:"+runtime.GOOS+"/"+runtime.GOARCH {
				continue
			}
			buildServer(ctx, t, dst)
		default:
			if err := copyFile(filepath.Join(repoRoot, filepath.FromSlash(src)), dst); err != nil {
				if len(f) == 4 && os.IsNotExist(err) {
					continue // optional and not written yet
				}
				t.Fatal(err)
			}
		}
		if err := os.Chmod(dst, os.FileMode(mode)); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, f[0])
	}
	writePackageJSON(t, stage, paths)
	return stage
}

// buildServer builds the server for this machine, stamped with the
// plugin version so doctor finds the manifests in agreement.
// COLLAB_E2E_BINARY names a prebuilt binary to stage instead.
func buildServer(ctx context.Context, t *testing.T, out string) {
	t.Helper()
	if prebuilt := os.Getenv("COLLAB_E2E_BINARY"); prebuilt != "" {
		t.Logf("staging the prebuilt server %s", prebuilt)
		if err := copyFile(prebuilt, out); err != nil {
			t.Fatal(err)
		}
		return
	}
	ldflags := "-X main.version=" + plugin.Version
	run(ctx, t, cmdSpec{dir: repoRoot, name: "go", args: append(append([]string{"build"}, covertest.BuildFlags()...), "-trimpath", "-ldflags", ldflags, "-o", out, "./cmd/agenttool-collab-mcp"), env: os.Environ()})
}

func writePackageJSON(t *testing.T, stage string, paths []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "npm", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg map[string]any
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	pkg["version"] = plugin.Version
	pkg["files"] = paths
	out, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stage, "package.json"), append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// packAndUnpack runs `npm pack` on the staged root and unpacks the tarball,
// so the hosts install exactly what npm would publish.
func packAndUnpack(ctx context.Context, t *testing.T, env []string, stage, dir string) string {
	t.Helper()
	out := run(ctx, t, cmdSpec{dir: stage, name: "npm", args: []string{"pack", "--ignore-scripts", "--silent", "--pack-destination", dir}, env: env})
	tgz := filepath.Join(dir, strings.TrimSpace(lastLine(out)))
	root := filepath.Join(dir, "unpacked")
	if err := untar(tgz, root); err != nil {
		t.Fatalf("unpack %s: %v", tgz, err)
	}
	return filepath.Join(root, "package")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// untar extracts a gzip'd tarball of regular files, keeping their modes.
func untar(tgz, dst string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if h.Typeflag != tar.TypeReg || strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			return fmt.Errorf("unexpected entry %q", h.Name)
		}
		path := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, os.FileMode(h.Mode).Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, tr); err != nil {
			out.Close()
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
	}
}
