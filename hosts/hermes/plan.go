package hermes

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agenttool/collab/core/collaberr"
)

// Change is one file an install or uninstall writes or removes.
type Change struct {
	Path   string
	Before []byte // nil when the file does not exist
	After  []byte // nil removes the file
	Backup string // when set, Apply first copies Before there
}

// BackupSuffix names the copy of config.yaml an install or uninstall keeps
// of the file as it was before its last edit.
const BackupSuffix = ".agenttool-backup"

// Noop reports a change that leaves the file as it is.
func (c Change) Noop() bool {
	return (c.Before == nil) == (c.After == nil) && bytes.Equal(c.Before, c.After)
}

// Plan is the set of file changes for one profile, computed before
// anything is written so --dry-run can show it.
type Plan struct {
	Home    string
	Changes []Change
}

// Changed reports whether applying the plan would change any file.
func (p Plan) Changed() bool {
	for _, c := range p.Changes {
		if !c.Noop() {
			return true
		}
	}
	return false
}

// PlanInstall computes the install of server entry e and the skill into
// the profile at home. Running it on an installed profile yields a plan
// without changes.
func PlanInstall(home, server string, e Entry, skillName string, skill []byte) (Plan, error) {
	cfgPath := ConfigPath(home)
	before, err := readOptional(cfgPath)
	if err != nil {
		return Plan{}, err
	}
	if err := refuseInvalidYAML(cfgPath, before); err != nil {
		return Plan{}, err
	}
	cfg := ParseConfig(before)
	saved, err := saveForeign(cfgPath, cfg, server)
	if err != nil {
		return Plan{}, err
	}
	if _, err := cfg.SetServer(server, e); err != nil {
		return Plan{}, err
	}
	skillPath := SkillPath(home, skillName)
	oldSkill, err := readOptional(skillPath)
	if err != nil {
		return Plan{}, err
	}
	changes := []Change{
		{Path: cfgPath, Before: before, After: orEmpty(cfg.Bytes()), Backup: backupOf(cfgPath, before)},
		{Path: skillPath, Before: oldSkill, After: skill},
	}
	if saved != nil {
		changes = append([]Change{*saved}, changes...)
	}
	return Plan{Home: home, Changes: changes}, nil
}

// PlanUninstall computes removing the server entry and the skill from the
// profile at home. Other entries, comments and skills stay.
func PlanUninstall(home, server, skillName string) (Plan, error) {
	cfgPath := ConfigPath(home)
	before, err := readOptional(cfgPath)
	if err != nil {
		return Plan{}, err
	}
	if err := refuseInvalidYAML(cfgPath, before); err != nil {
		return Plan{}, err
	}
	after := before
	savedPath := cfgPath + ForeignSuffix
	saved, err := readOptional(savedPath)
	if err != nil {
		return Plan{}, err
	}
	if before != nil {
		cfg := ParseConfig(before)
		restored := saved != nil && cfg.RestoreServer(server, strings.Split(strings.TrimSuffix(string(saved), "\n"), "\n"))
		if restored || cfg.RemoveServer(server) {
			after = orEmpty(cfg.Bytes())
		}
	}
	skillPath := SkillPath(home, skillName)
	oldSkill, err := readOptional(skillPath)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Home: home, Changes: []Change{
		{Path: cfgPath, Before: before, After: after, Backup: backupOf(cfgPath, before)},
		{Path: skillPath, Before: oldSkill, After: nil},
		{Path: savedPath, Before: saved, After: nil},
	}}, nil
}

// Apply writes the plan. Each file is replaced atomically (a symlinked
// config.yaml is written through to its target), keeps its mode, and new
// files and folders are private to the user.
func (p Plan) Apply() error {
	for _, c := range p.Changes {
		if c.Noop() {
			continue
		}
		if c.Backup != "" {
			if err := writeAtomic(c.Backup, c.Before); err != nil {
				return fmt.Errorf("back up %s: %w", c.Path, err)
			}
		}
		var err error
		if c.After == nil {
			err = remove(c.Path)
		} else {
			err = writeAtomic(c.Path, c.After)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return orEmpty(data), nil
}

// remove deletes path, then its folder and that folder's parent (the
// skill's folder and skills/) when they are left empty, so an uninstall
// leaves no empty folders behind. A folder holding anything stays.
func remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if os.Remove(dir) == nil { // fails harmlessly unless empty
		_ = os.Remove(filepath.Dir(dir))
	}
	return nil
}

func writeAtomic(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}

// backupOf is where an existing config is copied before it is edited.
func backupOf(path string, before []byte) string {
	if before == nil {
		return ""
	}
	return path + BackupSuffix
}

// refuseInvalidYAML refuses to edit a config.yaml that is not valid YAML: Hermes
// cannot read it either, and an edit could only make it worse.
func refuseInvalidYAML(path string, data []byte) error {
	if data == nil {
		return nil
	}
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return collaberr.New(collaberr.HermesConfigInvalid,
			"config.yaml is not valid YAML, so it was left untouched; fix it (Hermes cannot read it either) and run again").
			With("path", path).With("error", err.Error())
	}
	return nil
}

// ForeignSuffix names the file that keeps a user's own entry of the
// server's name, replaced by an install, until uninstall puts it back.
const ForeignSuffix = ".agenttool-replaced-entry"

// saveForeign plans keeping the user's own entry of the server's name,
// which the install is about to replace. An entry saved by an earlier
// install is kept as it is.
func saveForeign(cfgPath string, cfg *Config, server string) (*Change, error) {
	lines, ok := cfg.ForeignServer(server)
	if !ok {
		return nil, nil
	}
	path := cfgPath + ForeignSuffix
	old, err := readOptional(path)
	if err != nil || old != nil {
		return nil, err
	}
	return &Change{Path: path, After: []byte(strings.Join(lines, "\n") + "\n")}, nil
}
