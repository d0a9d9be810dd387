package hermes

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var skillText = []byte("---\nname: test-skill\ndescription: test\n---\nbody\n")

// installedHome lays out a Hermes home holding the commented fixture.
func installedHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(ConfigPath(home), readFixture(t, "commented.in.yaml"), 0o640); err != nil {
		t.Fatal(err)
	}
	return home
}

func install(t *testing.T, home string) Plan {
	t.Helper()
	p, err := PlanInstall(home, "agenttool", sampleEntry(), "test-skill", skillText)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInstallEditsTheConfigAndCopiesTheSkill(t *testing.T) {
	home := installedHome(t)
	if p := install(t, home); !p.Changed() {
		t.Fatal("the first install reported no change")
	}
	got, _ := os.ReadFile(ConfigPath(home))
	if !bytes.Equal(got, readFixture(t, "commented.want.yaml")) {
		t.Errorf("config.yaml:\n%s", got)
	}
	if st, _ := os.Stat(ConfigPath(home)); runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Errorf("config.yaml mode %v, want the original 0640", st.Mode().Perm())
	}
	skill, err := os.ReadFile(SkillPath(home, "test-skill"))
	if err != nil || !bytes.Equal(skill, skillText) {
		t.Errorf("skill: %q, %v", skill, err)
	}
	checkYAML(t, got)
}

func TestInstallIsIdempotent(t *testing.T) {
	home := installedHome(t)
	install(t, home)
	p, err := PlanInstall(home, "agenttool", sampleEntry(), "test-skill", skillText)
	if err != nil {
		t.Fatal(err)
	}
	if p.Changed() {
		t.Error("a second install would change files")
	}
}

func TestUninstallRestoresTheConfigAndRemovesTheSkill(t *testing.T) {
	home := installedHome(t)
	install(t, home)
	p, err := PlanUninstall(home, "agenttool", "test-skill")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(ConfigPath(home))
	if !bytes.Equal(got, readFixture(t, "commented.in.yaml")) {
		t.Errorf("config.yaml after uninstall:\n%s", got)
	}
	if _, err := os.Stat(filepath.Dir(SkillPath(home, "test-skill"))); !os.IsNotExist(err) {
		t.Errorf("skill folder still there: %v", err)
	}
	again, _ := PlanUninstall(home, "agenttool", "test-skill")
	if again.Changed() {
		t.Error("a second uninstall would change files")
	}
}

func TestInstallCreatesAMissingConfigPrivately(t *testing.T) {
	home := filepath.Join(t.TempDir(), "fresh")
	install(t, home)
	got, err := os.ReadFile(ConfigPath(home))
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := ParseConfig(got).Server("agenttool"); !ok || e.Command != sampleEntry().Command {
		t.Errorf("entry not readable from the new config:\n%s", got)
	}
	if st, _ := os.Stat(ConfigPath(home)); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("new config.yaml mode %v, want 0600", st.Mode().Perm())
	}
	checkYAML(t, got)
}

func TestInstallWritesThroughASymlinkedConfig(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "dotfiles-config.yaml")
	if err := os.WriteFile(target, readFixture(t, "commented.in.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, ConfigPath(home)); err != nil {
		t.Fatal(err)
	}
	install(t, home)
	if st, err := os.Lstat(ConfigPath(home)); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v", err)
	}
	got, _ := os.ReadFile(target)
	if !bytes.Equal(got, readFixture(t, "commented.want.yaml")) {
		t.Errorf("target:\n%s", got)
	}
}

// checkYAML parses data with PyYAML when it is available, as an
// independent check that the edited file is still valid YAML holding the
// entry.
func checkYAML(t *testing.T, data []byte) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("python3 not found; skipping the independent YAML parse")
		return
	}
	script := "import sys,yaml\nd=yaml.safe_load(sys.stdin)\nprint(d['mcp_servers']['agenttool']['command'])\n"
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		if probe := exec.Command(py, "-c", "import yaml"); probe.Run() != nil {
			t.Log("PyYAML not installed; skipping the independent YAML parse")
			return
		}
		t.Fatalf("PyYAML rejects the file: %v", err)
	}
	if got := string(bytes.TrimSpace(out)); got != sampleEntry().Command {
		t.Errorf("PyYAML reads command %q", got)
	}
}

func TestInstallRefusesAConfigThatIsNotYAMLAndLeavesItAlone(t *testing.T) {
	for _, uninstall := range []bool{false, true} {
		home := t.TempDir()
		bad := []byte("mcp_servers:\n  docs:\n    command: [unclosed\n\tenabled: true\n")
		if err := os.WriteFile(ConfigPath(home), bad, 0o600); err != nil {
			t.Fatal(err)
		}
		var err error
		if uninstall {
			_, err = PlanUninstall(home, "agenttool", "skill")
		} else {
			_, err = PlanInstall(home, "agenttool", sampleEntry(), "skill", []byte("s"))
		}
		if err == nil || !strings.Contains(err.Error(), "not valid YAML") {
			t.Errorf("uninstall=%v: err = %v, want a refusal naming invalid YAML", uninstall, err)
		}
		if got, _ := os.ReadFile(ConfigPath(home)); !bytes.Equal(got, bad) {
			t.Errorf("uninstall=%v: the file was changed:\n%s", uninstall, got)
		}
		if _, err := os.Stat(ConfigPath(home) + BackupSuffix); err == nil {
			t.Errorf("uninstall=%v: a backup was written for a refused edit", uninstall)
		}
	}
}

func TestApplyKeepsABackupOfTheConfigItEdits(t *testing.T) {
	home := t.TempDir()
	mine := []byte("# mine\nmodel: x\n")
	if err := os.WriteFile(ConfigPath(home), mine, 0o600); err != nil {
		t.Fatal(err)
	}
	plan, err := PlanInstall(home, "agenttool", sampleEntry(), "skill", []byte("s"))
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(ConfigPath(home) + BackupSuffix); err != nil || !bytes.Equal(got, mine) {
		t.Errorf("backup = %q (%v), want the file as it was", got, err)
	}
	if fi, err := os.Stat(ConfigPath(home) + BackupSuffix); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode: %v %v", fi, err)
	}
}

func TestUninstallLeavesNoEmptyFoldersButKeepsOtherSkills(t *testing.T) {
	for _, other := range []bool{false, true} {
		home := t.TempDir()
		install(t, home)
		if other {
			if err := os.MkdirAll(filepath.Join(home, "skills", "mine"), 0o700); err != nil {
				t.Fatal(err)
			}
		}
		plan, err := PlanUninstall(home, "agenttool", "test-skill")
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Apply(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(home, "skills", "test-skill")); err == nil {
			t.Errorf("other=%v: the skill folder is left behind", other)
		}
		_, err = os.Stat(filepath.Join(home, "skills"))
		if other != (err == nil) {
			t.Errorf("other=%v: skills/ exists = %v", other, err == nil)
		}
	}
}

func TestUninstallRestoresTheUsersOwnEntryOfTheSameName(t *testing.T) {
	home := t.TempDir()
	mine := []byte("mcp_servers:\n  docs:\n    command: /bin/docs\n  agenttool:\n    command: /opt/my-own/agenttool  # mine\n    args: [\"--x\"]\n    timeout: 9\nmodel: y\n")
	if err := os.WriteFile(ConfigPath(home), mine, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // a second install must not save our own entry over the user's
		plan, err := PlanInstall(home, "agenttool", sampleEntry(), "test-skill", skillText)
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(ConfigPath(home)); !bytes.Contains(got, []byte(Marker)) || bytes.Contains(got, []byte("/opt/my-own")) {
		t.Fatalf("after install:\n%s", got)
	}
	plan, err := PlanUninstall(home, "agenttool", "test-skill")
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(ConfigPath(home)); !bytes.Equal(got, mine) {
		t.Errorf("after uninstall:\n%s\nwant the user's file back:\n%s", got, mine)
	}
	if _, err := os.Stat(ConfigPath(home) + ForeignSuffix); err == nil {
		t.Error("the saved entry is left behind after it was restored")
	}
}
