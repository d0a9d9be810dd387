// Package wake decides what in a collab journal is news for one session or
// actor without consuming anything: how many events lie unread after the
// persisted cursor, which of them concern the viewer (a handoff offered to
// it, an answer to its own offer, a report addressed to it, a review of its
// work, the loss of its claim) and which of its leases are about to expire.
// It also shares one cheap change poller among every waiter of a store.
//
// Nothing here moves a cursor: only collab_next's page and
// collab_cursor_ack change what a session has read.
package wake
