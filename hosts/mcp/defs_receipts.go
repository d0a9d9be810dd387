package mcp

import "github.com/agenttool/collab/core/store"

// receiptsMax bounds how many subjects one collab_report_receipts call
// reads.
const receiptsMax = 50

// reportReceiptsTool is collab_report_receipts, served by
// handleReportReceipts. It is an extension: collab_report_list and
// collab_report_show keep the reference's shapes.
func reportReceiptsTool() (Tool, Handler) {
	return Tool{
		Name: "collab_report_receipts", Title: "Delivery receipts of addressed reports and handoffs (extension)", Class: ReadOnly,
		Description: "Say, for reports and handoffs addressed to a session, through which channels each was announced to its recipient (hook, monitor, channel, wait, tmux), whether the recipient's acknowledged cursor has passed it (read), and whether the recipient marked it handled or declined. Without ids, a bound session gets the reports it addressed to others, newest first. Reading never acknowledges.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"report_ids", array(str().min(1).max(200)).max(receiptsMax).describe("Reports to read receipts of")},
			{"handoff_ids", array(str().min(1).max(200)).max(receiptsMax).describe("Handoffs to read receipts of")},
			{"limit", integer().atLeast(1).atMost(receiptsMax).describe("Without ids: how many of your newest addressed reports (default 20)")},
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
			{"report_id", str().min(1).max(200).describe("The report addressed to you (or give handoff_id)")},
			{"handoff_id", str().min(1).max(200).describe("The handoff offered to you (or give report_id)")},
			{"state", enum(store.MarkHandled, store.MarkDeclined).describe("handled or declined")},
			{"note", str().min(1).max(2000).describe("Optional word for the sender")},
		}, "workspace_id", "state"),
	}, handleReportMark
}
