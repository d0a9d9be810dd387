#!/usr/bin/env node
// npm "bin" entry for agenttool-collab-mcp, used by `npx` and `npm install -g`
// only: npm's Windows shims can start a Node script but not a shell launcher.
// Plugin hosts start bin/agenttool-collab-mcp (POSIX sh) or its .cmd twin
// instead, which avoid a Node process.
//
// It runs the binary built for this platform from bin/<platform>-<arch>/ with
// the same arguments and standard streams, forwards termination signals to it,
// and exits the way the binary exited. The same file is also staged as
// bin/collab.js, the short name for people: the child's argv[0] is the name
// this file was installed under, which the binary reads to choose between
// serving MCP and printing the people's help when run without arguments.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const name = 'agenttool-collab-mcp';
const supported = ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-arm64', 'win32-x64'];

const platform = `${process.platform}-${process.arch}`;
if (!supported.includes(platform)) {
  process.stderr.write(`${name}: no build for ${platform} (supported: ${supported.join(', ')})\n`);
  process.exit(1);
}

const exe = path.join(__dirname, platform, process.platform === 'win32' ? `${name}.exe` : name);
if (!fs.existsSync(exe)) {
  process.stderr.write(`${name}: missing binary for ${platform}: ${exe}\n`);
  process.exit(1);
}

const argv0 = path.basename(__filename, '.js');
const child = spawn(exe, process.argv.slice(2), { stdio: 'inherit', windowsHide: true, argv0 });

const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}

child.on('error', (err) => {
  process.stderr.write(`${name}: cannot start ${exe}: ${err.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal so the caller sees how the server ended.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
