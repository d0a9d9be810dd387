package historygen

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// batchBackend is a store.Backend whose Write and Read join the write
// transaction the generator holds open, so that thousands of the rules'
// own mutations commit together. Each mutation still runs exactly the
// statements it runs alone (the rules cannot tell the difference: they
// see one transaction, as always); only the COMMIT is shared. A mutation
// that fails makes the whole batch fail and roll back, so no half-written
// mutation is ever committed.
type batchBackend struct {
	store.Backend
	tx    store.Tx // the open batch, nil between batches
	known *known   // what the cached reads answer from (knownreads.go)
}

// Write runs fn inside the open batch, or alone when none is open.
func (b *batchBackend) Write(ctx context.Context, fn func(tx store.Tx) error) error {
	if b.tx != nil {
		return fn(b.tx)
	}
	return b.Backend.Write(ctx, func(tx store.Tx) error { return fn(knownReads{Tx: tx, known: b.known}) })
}

// Read runs fn inside the open batch (which sees its own writes), or in a
// snapshot of its own when none is open.
func (b *batchBackend) Read(ctx context.Context, fn func(tx store.Tx) error) error {
	if b.tx != nil {
		return fn(b.tx)
	}
	return b.Backend.Read(ctx, func(tx store.Tx) error { return fn(knownReads{Tx: tx, known: b.known}) })
}

// batch runs fn with every store mutation it makes in one transaction of
// the engine, committed when fn returns nil.
func (b *batchBackend) batch(ctx context.Context, fn func() error) error {
	return b.Backend.Write(ctx, func(tx store.Tx) error {
		if err := widenPageCache(ctx, tx); err != nil {
			return err
		}
		b.tx = knownReads{Tx: tx, known: b.known}
		defer func() { b.tx = nil }()
		return fn()
	})
}
