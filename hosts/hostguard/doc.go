// Package hostguard holds the one policy every HTTP face of collab (the MCP
// server `serve` and the web view `web`) applies before anything else: is
// this request addressed to this server, by a name it answers to, from a
// page it trusts?
//
// A page on another site can point its own DNS name at 127.0.0.1 (DNS
// rebinding) and then read a loopback server as if it were same-origin; the
// only trace of the trick is the Host header, which still names the
// attacker's domain. So a server reached on loopback answers only to the
// loopback names (localhost, 127.0.0.0/8, [::1]) on the port the request
// actually arrived on, plus names the operator listed. A browser's Origin
// header, when sent, must name the request's own host or a listed origin.
//
// One package, one predicate: the faces must never decide "is this
// loopback" or "is this Host ours" on their own, or they drift apart.
package hostguard
