// Package liveness tells people whether a credential-bound session is
// still in use: active, stale or ended, with the reason in words and the
// host that holds it. It is a derivation for people's views (status,
// sessions, the web board) from what is already stored: the session row,
// its host record (store.SessionHost, kept beside the journal) and the
// tasks it holds. It writes nothing, and the reference's tools never see
// it: collab_session_list and every other tool answer from the session
// rows as before, where a session is "active" until collab_session_end.
//
// The rule, exactly (Judge):
//
//   - ended: the session row says ended (collab_session_end, a logout);
//     or its holding process is known to have exited and it holds no
//     lease, live or expired; or nobody can watch its holder, it holds no
//     lease and it was last seen more than EndAfter ago.
//   - active: the session row says active and either its holding process
//     is known to run, or its lease time has not passed. A session's
//     lease time is the latest expiry of the task leases it holds and,
//     when its holder cannot be watched, last_seen_at plus Window too.
//   - stale: neither, i.e. the holder is not known to run and the lease
//     time has passed, but the session still holds expired leases
//     (tasks waiting for collab_task_recover), or nobody can watch its
//     holder and it was seen within EndAfter.
//
// A holding process is watched only where that is knowable without
// guessing: the session's host record names a process id recorded on
// this machine (same host name and, where the system has one, the same
// boot), and the id is checked with signal 0 and, on Linux, against the
// recorded start time (so a reused id reads as exited) and for a zombie.
// Everything else (a person's commands, HTTP clients, another machine, a
// session that predates host records) is judged by lease and last-seen
// time alone.
package liveness
