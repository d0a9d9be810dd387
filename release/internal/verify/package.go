package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agenttool/collab/release/internal/pack"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/report"
)

// checkPackage: package.json names the expected package at the tag's
// version with no install hooks, the tarball holds exactly the listed files,
// and each has its listed mode.
func checkPackage(r *report.Report, rel *release) {
	data, err := pack.ReadNPMFile(rel.in.NPMTarball, "package.json")
	if err != nil {
		r.Add("package.json is readable", err)
		return
	}
	pkg, err := pkgjson.Decode(data)
	r.Add("package.json has no scripts or dependencies", err)
	if err == nil {
		switch {
		case pkg.Name != rel.template.Name:
			err = fmt.Errorf("name %q, want %q", pkg.Name, rel.template.Name)
		case pkg.Version != rel.version:
			err = fmt.Errorf("version %q, want %q from tag %s", pkg.Version, rel.version, rel.in.Tag)
		}
		r.Add("package name and version match the tag", err)
		r.Add("every npm bin entry is a packed file", binTargets(pkg.Bin, rel.npm))
	}

	got := slices.Sorted(maps.Keys(rel.npm))
	want := rel.files.Paths()
	r.Add("file list is exactly npm/files.txt", diffList(got, want))

	var wrong []string
	for _, e := range rel.files {
		if f, ok := rel.npm[e.Path]; ok && f.Mode != e.Mode {
			wrong = append(wrong, fmt.Sprintf("%s is %04o, want %04o", e.Path, f.Mode, e.Mode))
		}
	}
	err = nil
	if len(wrong) > 0 {
		err = fmt.Errorf("%s", strings.Join(wrong, "; "))
	}
	r.Add("file modes are 0755 for launchers and binaries, 0644 otherwise", err)
}

// diffList explains how two sorted lists differ, or returns nil.
func diffList(got, want []string) error {
	var extra, missing []string
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	if len(extra) == 0 && len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("unexpected files [%s], missing files [%s]", strings.Join(extra, ", "), strings.Join(missing, ", "))
}

func binTargets(bin map[string]string, npm pack.Contents) error {
	for _, name := range slices.Sorted(maps.Keys(bin)) {
		if _, ok := npm[bin[name]]; !ok {
			return fmt.Errorf("bin %q points at %q, which is not in the package", name, bin[name])
		}
	}
	return nil
}
