// Package web is the read-only web face of a collab database: a task
// board, sessions, report threads, decisions, handoffs, path conflicts, the
// timeline with on-demand chain verification, and anchor status, for every
// workspace, updated live while other processes write.
//
// It only reads. The store must be opened read-only; the view never
// advances a cursor, never writes and never migrates, and a database that
// needs migration gets a page that says how. Every journal string reaches
// the page through html/template, so journal text is always text. Pages
// carry no inline script and a strict Content-Security-Policy.
package web
