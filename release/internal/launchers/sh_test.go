package launchers

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const npmDir = "../../../npm"

// fakeBinary prints its PID, its arguments and its stdin, then exits 7.
const fakeBinary = `#!/bin/sh
echo "pid=$$"
echo "args=$*"
cat
exit 7
`

// packageRoot lays out a package root holding launcher (copied from npm/ as
// bin/<name>) and a fake binary at bin/<platform>/<exe>.
func packageRoot(t *testing.T, launcher, name, platform, exe string, binMode os.FileMode) string {
	t.Helper()
	root := t.TempDir()
	src, err := os.ReadFile(filepath.Join(npmDir, launcher))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "bin", platform), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", name), src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", platform, exe), []byte(fakeBinary), binMode); err != nil {
		t.Fatal(err)
	}
	return root
}

// fakeTools puts uname and sysctl stand-ins first on PATH.
func fakeTools(t *testing.T, kernel, machine, translated string) string {
	t.Helper()
	dir := t.TempDir()
	uname := "#!/bin/sh\ncase $1 in -s) echo '" + kernel + "' ;; -m) echo '" + machine + "' ;; esac\n"
	sysctl := "#!/bin/sh\necho '" + translated + "'\n"
	for name, body := range map[string]string{"uname": uname, "sysctl": sysctl} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

func TestShLauncherExecsThePlatformBinary(t *testing.T) {
	tests := []struct {
		name                        string
		kernel, machine, translated string
		platform, exe               string
		binMode                     os.FileMode
	}{
		{"linux x86_64", "Linux", "x86_64", "", "linux-x64", "agenttool-collab-mcp", 0o755},
		{"linux aarch64", "Linux", "aarch64", "", "linux-arm64", "agenttool-collab-mcp", 0o755},
		{"macOS arm64", "Darwin", "arm64", "", "darwin-arm64", "agenttool-collab-mcp", 0o755},
		{"macOS Intel", "Darwin", "x86_64", "0", "darwin-x64", "agenttool-collab-mcp", 0o755},
		{"x86_64 shell under Rosetta", "Darwin", "x86_64", "1", "darwin-arm64", "agenttool-collab-mcp", 0o755},
		{"Git Bash on Windows", "MINGW64_NT-10.0", "x86_64", "", "win32-x64", "agenttool-collab-mcp.exe", 0o755},
		{"exec bit lost by an unpacker", "Linux", "x86_64", "", "linux-x64", "agenttool-collab-mcp", 0o644},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := packageRoot(t, "launcher.sh", "agenttool-collab-mcp", tt.platform, tt.exe, tt.binMode)
			cmd := exec.Command("/bin/sh", filepath.Join(root, "bin", "agenttool-collab-mcp"), "serve", "two words")
			cmd.Env = append(os.Environ(), "PATH="+fakeTools(t, tt.kernel, tt.machine, tt.translated))
			cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0"}`)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
				t.Fatalf("exit %v, want the binary's status 7; stderr: %s", err, stderr.String())
			}
			want := "pid=" + strconv.Itoa(cmd.Process.Pid) + "\nargs=serve two words\n" + `{"jsonrpc":"2.0"}`
			if stdout.String() != want {
				t.Errorf("stdout %q, want %q (same PID means the launcher exec'd)", stdout.String(), want)
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
		})
	}
}

func TestShLauncherExplainsWhatIsMissing(t *testing.T) {
	tests := []struct{ name, kernel, machine, platform, want string }{
		{"unsupported system", "FreeBSD", "amd64", "linux-x64", "no build for operating system 'FreeBSD'"},
		{"unsupported processor", "Linux", "riscv64", "linux-x64", "no build for processor 'riscv64'"},
		{"binary missing", "Linux", "aarch64", "linux-x64", "missing binary for linux-arm64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := packageRoot(t, "launcher.sh", "agenttool-collab-mcp", tt.platform, "agenttool-collab-mcp", 0o755)
			cmd := exec.Command("/bin/sh", filepath.Join(root, "bin", "agenttool-collab-mcp"))
			cmd.Env = append(os.Environ(), "PATH="+fakeTools(t, tt.kernel, tt.machine, ""))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit %v, want 1", err)
			}
			if stdout.Len() != 0 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stdout %q stderr %q, want nothing on stdout and %q on stderr", stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}
