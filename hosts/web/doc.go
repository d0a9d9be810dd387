// Package web is the web face of a collab database: a task board,
// sessions, report threads, decisions, handoffs, path conflicts, the
// timeline with on-demand chain verification, and anchor status, for every
// workspace, updated live while other processes write.
//
// By default it only reads. The store must be opened read-only; the view
// never advances a cursor, never writes and never migrates, renders no
// form that writes and refuses every request but GET and HEAD; a database
// that needs migration gets a page that says how. With Options.Act (web
// --act) each workspace also gets an Act page whose forms act as the
// person's own credential-bound session (see Acting), each post guarded
// by the Host and Origin policy, a same-origin check and a per-page token
// (csrf.go). Every journal string reaches the page through html/template,
// so journal text is always text. Pages carry no inline script and a
// strict Content-Security-Policy.
package web
