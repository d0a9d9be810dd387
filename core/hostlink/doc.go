// Package hostlink lets a host's hooks and monitor find the collab session
// that the same host conversation's MCP server bound, with nothing set by
// the user.
//
// The server, when it binds a session, writes a link record into a private
// folder beside the database (place.HostLinkDirName, 0700, the record
// 0600; not the credential directory, whose contents the reference
// defines): which host process
// it serves (the process id, its start time and the boot it started in,
// so a reused process id never matches), its own process, the host's
// conversation id when the host passed one in its environment, its working
// directory, and which credential file holds the session. A hook finds the
// one record whose host process is its own host and whose conversation, when
// both sides know one, is its own; the record of a server that is gone is
// ignored, and among several live ones the newest wins.
//
// Records hold no token. A reader gets the credential file's path from the
// record and never prints it. Where processes cannot be identified (no
// /proc), no record is written and nothing ever matches.
package hostlink
