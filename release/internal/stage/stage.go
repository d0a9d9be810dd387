package stage

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/manifest"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/version"
)

// NoticesPath is the package path of the generated third-party notices.
const NoticesPath = "THIRD_PARTY_NOTICES.md"

// Options says what to stage and where.
type Options struct {
	Root     string   // repository checkout
	Version  string   // release version without "v"
	Binaries Binaries // one per released target
	Out      string   // staged package root; replaced if it exists
}

// Staged describes a staged package root.
type Staged struct {
	Dir     string
	Package pkgjson.Package
	Files   manifest.List // resolved entries, as staged
}

// Stage builds the package root in o.Out. It refuses a binary built for the
// wrong target or version, or holding a module the notices do not cover, and
// a file list that names a missing required source.
func Stage(o Options) (Staged, error) {
	if err := version.Check(o.Version); err != nil {
		return Staged{}, err
	}
	if err := o.Binaries.Complete(); err != nil {
		return Staged{}, err
	}
	list, err := manifest.Load(o.Root)
	if err != nil {
		return Staged{}, err
	}
	files, err := list.Resolve(o.Root)
	if err != nil {
		return Staged{}, err
	}
	tmplData, err := os.ReadFile(filepath.Join(o.Root, manifest.Template))
	if err != nil {
		return Staged{}, fmt.Errorf("read package.json template: %w", err)
	}
	tmpl, err := pkgjson.Decode(tmplData)
	if err != nil {
		return Staged{}, fmt.Errorf("%s: %w", manifest.Template, err)
	}
	pj, err := pkgjson.Render(tmpl, o.Version, files.Paths())
	if err != nil {
		return Staged{}, err
	}
	listed, err := noticesListed(o.Root, files)
	if err != nil {
		return Staged{}, err
	}
	if err := os.RemoveAll(o.Out); err != nil {
		return Staged{}, fmt.Errorf("clear staging dir: %w", err)
	}
	for _, e := range files {
		if err := place(o, e, pj, listed); err != nil {
			return Staged{}, fmt.Errorf("stage %s: %w", e.Path, err)
		}
	}
	pkg, err := pkgjson.Decode(pj)
	if err != nil {
		return Staged{}, fmt.Errorf("rendered package.json: %w", err)
	}
	return Staged{Dir: o.Out, Package: pkg, Files: files}, nil
}

func noticesListed(root string, files manifest.List) ([]string, error) {
	e, ok := files.Lookup(NoticesPath)
	if !ok || e.Kind != manifest.Copy {
		return nil, fmt.Errorf("%s must list %s copied from the repository", manifest.Path, NoticesPath)
	}
	return readListed(filepath.Join(root, filepath.FromSlash(e.Source)))
}

func place(o Options, e manifest.Entry, packageJSON []byte, listed []string) error {
	dst := filepath.Join(o.Out, filepath.FromSlash(e.Path))
	if err := mkdirs(o.Out, path.Dir(e.Path)); err != nil {
		return err
	}
	switch e.Kind {
	case manifest.PackageJSON:
		if err := os.WriteFile(dst, packageJSON, 0o644); err != nil {
			return err
		}
	case manifest.Binary:
		src := o.Binaries[e.Target]
		if err := checkBinary(src, e.Target, listed); err != nil {
			return err
		}
		if err := copyFile(src, dst); err != nil {
			return err
		}
	case manifest.Copy:
		if err := copyFile(filepath.Join(o.Root, filepath.FromSlash(e.Source)), dst); err != nil {
			return err
		}
	}
	// Chmod rather than a create mode, so the umask cannot reach the tarball.
	return os.Chmod(dst, e.Mode)
}

// mkdirs creates each directory of rel under base with mode 0755 exactly.
func mkdirs(base, rel string) error {
	if rel == "." {
		if err := os.MkdirAll(base, 0o755); err != nil {
			return err
		}
		return os.Chmod(base, 0o755)
	}
	if err := mkdirs(base, path.Dir(rel)); err != nil {
		return err
	}
	dir := filepath.Join(base, filepath.FromSlash(rel))
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	return os.Chmod(dir, 0o755)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
