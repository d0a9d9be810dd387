package mcp

import (
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/store"
)

// independenceClaimTool is collab_independence_claim, served by
// handleIndependenceClaim (docs/independence.md).
func independenceClaimTool() (Tool, Handler) {
	return Tool{
		Name: "collab_independence_claim", Title: "Claim independence on a subject (extension)", Class: RetrySafe,
		Description: "Verify blind: while the claim is open, every read of your session (collab_next, report and task reads, events, search, notices) withholds the text and evidence of other sessions' material on the subject (a task's completion, progress, reviews and artifacts; a report thread; or reports tagged #topic) and shows only that it exists. Reports addressed to you on it are held. Your own report on the subject (your finding) releases the claim; so does collab_independence_release, or its expiry. The claim is journaled, so every session sees it. Claiming a subject you already hold open answers the open claim. Bound sessions only.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"task_id", boundedIDField(field.TaskID).describe("Claim a task: its completion reports, progress notes, reviews and artifacts")},
			{"report_id", boundedIDField(field.ReportID).describe("Claim a report thread: the report and every report related to it")},
			{"topic", textField(field.ClaimTopic).describe("Claim a topic label: every report whose body carries #topic")},
			{"ttl_seconds", countField(field.ClaimTTL).describe("How long the claim may stay open (default a day, at most a week)")},
			{"note", textField(field.MarkNote).describe("What you are verifying, for the others")},
		}, "workspace_id"),
	}, handleIndependenceClaim
}

// independenceReleaseTool is collab_independence_release, served by
// handleIndependenceRelease.
func independenceReleaseTool() (Tool, Handler) {
	return Tool{
		Name: "collab_independence_release", Title: "Release an independence claim early (extension)", Class: RetrySafe,
		Description: "End your own open independence claim without posting a finding, with a reason that is journaled. The answer lists the reports that were withheld from you and are readable now. Only the claimant releases early; releasing a claim that already ended changes nothing. Bound sessions only.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"claim_id", boundedIDField(field.ClaimID).describe("The claim to release (its id from collab_independence_claim or _list)")},
			{"reason", textField(field.ResetReason).describe("Why you release it before posting a finding")},
		}, "workspace_id", "claim_id", "reason"),
	}, handleIndependenceRelease
}

// independenceListTool is collab_independence_list, served by
// handleIndependenceList.
func independenceListTool() (Tool, Handler) {
	return Tool{
		Name: "collab_independence_list", Title: "Independence claims and independent reviews (extension)", Class: ReadOnly,
		Description: "Every independence claim of a workspace with its status (open, released_by_finding, released, expired), so you know not to discuss a subject with its claimant, and every review formed blind (a task accepted after an independent review). Reading never acknowledges.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"status", enum(store.ClaimOpen, store.ClaimReleasedByFinding, store.ClaimReleased, store.ClaimExpired).describe("Only claims with this status")},
		}, "workspace_id"),
	}, handleIndependenceList
}
