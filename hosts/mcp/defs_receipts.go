package mcp

import (
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/store"
)

// reportReceiptsTool is collab_report_receipts, served by
// handleReportReceipts. It is an extension: collab_report_list and
// collab_report_show keep the reference's shapes.
func reportReceiptsTool() (Tool, Handler) {
	return Tool{
		Name: "collab_report_receipts", Title: "Delivery receipts of addressed reports and handoffs (extension)", Class: ReadOnly,
		Description: "Say, for reports and handoffs addressed to a session, through which channels each was announced to its recipient (hook, monitor, channel, wait, tmux), whether the recipient's acknowledged cursor has passed it (read), and whether the recipient marked it handled or declined. Without ids, a bound session gets the reports it addressed to others, newest first. Reading never acknowledges.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"report_ids", listField(field.ReportIDs, boundedIDField(field.ReportID)).describe("Reports to read receipts of")},
			{"handoff_ids", listField(field.HandoffIDs, boundedIDField(field.HandoffID)).describe("Handoffs to read receipts of")},
			{"limit", countField(field.ReceiptLimit).describe("Without ids: how many of your newest addressed reports (default 20)")},
		}, "workspace_id"),
	}, handleReportReceipts
}

// reportMarkTool is collab_report_mark, served by handleReportMark.
func reportMarkTool() (Tool, Handler) {
	return Tool{
		Name: "collab_report_mark", Title: "Mark an addressed report or handoff handled or declined (extension)", Class: RetrySafe,
		Description: "Record, as its recipient, that a report or handoff addressed to your session was handled or declined, with an optional note; its sender sees it in collab_report_receipts. A mark is final: the same mark again changes nothing, the other one is refused. It appends no event and never moves your cursor. Bound sessions only.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"report_id", boundedIDField(field.ReportID).describe("The report addressed to you (or give handoff_id)")},
			{"handoff_id", boundedIDField(field.HandoffID).describe("The handoff offered to you (or give report_id)")},
			{"state", enum(store.MarkHandled, store.MarkDeclined).describe("handled or declined")},
			{"note", textField(field.MarkNote).describe("Optional word for the sender")},
		}, "workspace_id", "state"),
	}, handleReportMark
}
