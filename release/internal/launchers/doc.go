// Package launchers tests the launchers in npm/ that hosts and npm start:
// the POSIX sh launcher, the Node shim used as the npm bin, and the Windows
// .cmd launcher. The launchers themselves are data copied into the package.
package launchers
