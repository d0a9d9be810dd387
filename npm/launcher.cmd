@echo off
rem Launcher for agenttool-collab-mcp on Windows, resolved by hosts through PATHEXT
rem when their config names bin\agenttool-collab-mcp. It runs the binary built for
rem this processor from bin\win32-<arch>\ with the same arguments and passes its
rem exit status back. Diagnostics go to stderr only; stdout stays JSON-RPC.
setlocal
set "AGENTTOOL_ARCH=x64"
if /i "%PROCESSOR_ARCHITECTURE%"=="ARM64" set "AGENTTOOL_ARCH=arm64"
if /i "%PROCESSOR_ARCHITEW6432%"=="ARM64" set "AGENTTOOL_ARCH=arm64"
set "AGENTTOOL_EXE=%~dp0win32-%AGENTTOOL_ARCH%\agenttool-collab-mcp.exe"
if not exist "%AGENTTOOL_EXE%" (
  echo agenttool-collab-mcp: missing binary for win32-%AGENTTOOL_ARCH%: "%AGENTTOOL_EXE%" 1>&2
  exit /b 1
)
"%AGENTTOOL_EXE%" %*
exit /b %ERRORLEVEL%
