package store

import "context"

// RecordSessionHost stores h as what holds the session cred names: the
// credential must authenticate (a session waiting for a cursor reset
// may record too), and the session, its workspace and the time are taken
// from the store, not from h. Nothing enters the journal; the record only
// informs people's views of the session (see SessionHost).
func (s *Store) RecordSessionHost(ctx context.Context, cred Credential, h SessionHost) error {
	return s.writeTx(ctx, func(tx Tx) error {
		sess, err := authenticate(ctx, tx, cred, true)
		if err != nil {
			return err
		}
		h.SessionID, h.WorkspaceID, h.RecordedAt = sess.ID, sess.WorkspaceID, s.nowISO()
		return tx.PutSessionHost(ctx, h)
	})
}

// SessionHosts returns what holds each session of a workspace, by session
// id; a session that never recorded one is absent. It only reads.
func (s *Store) SessionHosts(ctx context.Context, workspaceID string) (map[string]SessionHost, error) {
	out := map[string]SessionHost{}
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		out, err = hostsByID(ctx, tx, workspaceID)
		return err
	})
	return out, err
}

// hostsByID reads a workspace's session host records keyed by session.
func hostsByID(ctx context.Context, q SessionHosts, workspaceID string) (map[string]SessionHost, error) {
	list, err := q.SessionHostsOf(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]SessionHost, len(list))
	for _, h := range list {
		out[h.SessionID] = h
	}
	return out, nil
}
