package cli

import (
	"context"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// addressedReceipts reads the delivery receipts of the reports addressed
// to a session, keyed by report id; reports addressed to no one have none.
func addressedReceipts(ctx context.Context, st *store.Store, workspaceID string, reports []store.Report) (map[string]store.DeliveryReceipts, error) {
	var subjects []store.Subject
	for _, r := range reports {
		if r.ToSessionID != nil {
			subjects = append(subjects, store.Subject{Kind: store.SubjectReport, ID: r.ID})
		}
	}
	out := map[string]store.DeliveryReceipts{}
	if len(subjects) == 0 {
		return out, nil
	}
	all, err := st.DeliveryReceiptsOf(ctx, workspaceID, subjects)
	if err != nil {
		return nil, err
	}
	for _, rec := range all {
		out[rec.ID] = rec
	}
	return out, nil
}

// deliveryLine renders one report's receipts on one indented line, for
// example "    delivery: announced (hook, wait) · read · handled: on it".
func deliveryLine(rec store.DeliveryReceipts) shown {
	parts := []string{"not announced"}
	if len(rec.Announced) > 0 {
		var via []string
		for _, a := range rec.Announced {
			via = append(via, a.Channel)
		}
		parts[0] = "announced (" + strings.Join(via, ", ") + ")"
	}
	if rec.Read {
		parts = append(parts, "read")
	} else {
		parts = append(parts, "unread")
	}
	if m := rec.Mark; m != nil {
		mark := m.State
		if m.Note != nil {
			mark += ": " + *m.Note
		}
		parts = append(parts, mark)
	}
	return safef("    delivery: %s", strings.Join(parts, " · "))
}
