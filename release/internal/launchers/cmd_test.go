package launchers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The .cmd launcher cannot run here; these checks pin what cmd.exe needs.
func TestCmdLauncherIsCRLFBatchPointingAtTheWindowsBinaries(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(npmDir, "launcher.cmd"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte("\n")) != bytes.Count(data, []byte("\r\n")) || !bytes.HasSuffix(data, []byte("\r\n")) {
		t.Error("launcher.cmd must use CRLF line endings throughout")
	}
	text := string(data)
	for _, want := range []string{
		"@echo off",
		`%~dp0win32-%AGENTTOOL_ARCH%\agenttool-collab-mcp.exe`,
		`if /i "%PROCESSOR_ARCHITECTURE%"=="ARM64"`,
		`"%AGENTTOOL_EXE%" %*`,
		"exit /b %ERRORLEVEL%",
		"1>&2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("launcher.cmd lacks %q", want)
		}
	}
	if strings.Contains(strings.ToLower(text), "echo on") {
		t.Error("launcher.cmd must not echo commands onto stdout")
	}
}
