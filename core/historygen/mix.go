package historygen

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// teamSize is how many sessions work at once; every shiftRounds rounds
// the team ends its sessions and a new shift starts its own.
const (
	teamSize    = 4
	shiftRounds = 150
)

var actors = []string{"codex:alpha", "claude:beta", "codex:gamma", "claude:delta", "codex:epsilon", "claude:zeta"}

var reportKinds = []string{"observation", "inference", "proposal", "decision"}

var areas = []string{"src/parser", "src/lexer", "docs", "core/store", "hosts/web", "cmd/tool", "tests/e2e", "ci"}

// mix is the generator's state: the team on shift and the journal length.
type mix struct {
	st     *store.Store
	root   string
	ws     string
	team   []store.StartedSession
	shift  int
	rounds int64
	key    int64
	head   int64
}

func (m *mix) nextKey() string {
	m.key++
	return fmt.Sprintf("histgen-%d", m.key)
}

// openTeam starts a shift of teamSize sessions.
func (m *mix) openTeam(ctx context.Context) error {
	m.team = m.team[:0]
	for i := 0; i < teamSize; i++ {
		actor := actors[(m.shift*teamSize+i)%len(actors)]
		s, err := m.st.StartSession(ctx, store.StartSessionInput{RootPath: m.root, Actor: actor})
		if err != nil {
			return fmt.Errorf("start session: %w", err)
		}
		m.ws = s.Workspace.ID
		m.team = append(m.team, s)
	}
	m.shift++
	return m.sync(ctx)
}

// endTeam ends the shift's sessions.
func (m *mix) endTeam(ctx context.Context) error {
	reason := "shift over"
	for _, s := range m.team {
		if _, err := m.st.EndSession(ctx, cred(s), &reason); err != nil {
			return fmt.Errorf("end session: %w", err)
		}
	}
	return m.sync(ctx)
}

// sync reads the journal head.
func (m *mix) sync(ctx context.Context) error {
	w, err := m.st.Workspace(ctx, m.ws)
	if err != nil {
		return err
	}
	m.head = w.EventHeadSequence
	return nil
}

func cred(s store.StartedSession) store.Credential {
	return store.Credential{SessionID: s.Session.ID, Token: s.Token, Generation: s.Session.Generation}
}

// round is one task's life among the team's reports: created, claimed,
// progressed, sometimes handed off, completed with its report, about ten
// reports around it, now and then an independence claim, and at the end
// of a shift a new team.
func (m *mix) round(ctx context.Context) error {
	m.rounds++
	if m.rounds%shiftRounds == 0 {
		if err := m.endTeam(ctx); err != nil {
			return err
		}
		if err := m.openTeam(ctx); err != nil {
			return err
		}
	}
	r := int(m.rounds)
	owner, worker, other := m.team[r%teamSize], m.team[(r+1)%teamSize], m.team[(r+2)%teamSize]
	task, err := m.task(ctx, owner, worker, other)
	if err != nil {
		return err
	}
	for i := 0; i < 10; i++ {
		if err := m.report(ctx, m.team[(r+i)%teamSize], m.team[(r+i+1)%teamSize], task, i); err != nil {
			return err
		}
	}
	if r%40 == 0 {
		if err := m.independence(ctx, other, task); err != nil {
			return err
		}
	}
	return m.sync(ctx)
}

// task creates, claims, progresses, maybe hands off, and completes one task.
func (m *mix) task(ctx context.Context, owner, worker, other store.StartedSession) (string, error) {
	r := int(m.rounds)
	area := areas[r%len(areas)]
	desc := fmt.Sprintf("Round %d: bring %s in line with the contract; keep the tests green.", r, area)
	created, err := m.st.CreateTask(ctx, store.SessionActor(cred(owner)), store.CreateTaskInput{WorkspaceID: m.ws,
		IdempotencyKey: m.nextKey(), Title: fmt.Sprintf("%s: pass %d", area, r), Description: &desc,
		PathScopes: []string{fmt.Sprintf("%s/part%d", area, r%97)}})
	if err != nil {
		return "", fmt.Errorf("create task: %w", err)
	}
	t := value(created).Task
	ttl := int64(3600)
	claimed, err := m.st.ClaimTask(ctx, store.SessionActor(cred(worker)), store.ClaimInput{WorkspaceID: m.ws,
		TaskID: t.ID, IdempotencyKey: m.nextKey(), ExpectedVersion: t.Version, TTLSeconds: &ttl})
	if err != nil {
		return "", fmt.Errorf("claim task: %w", err)
	}
	t = value(claimed).Task
	holder := worker
	progressed, err := m.st.RecordProgress(ctx, store.SessionActor(cred(holder)), lease(m.ws, t, m.nextKey()),
		fmt.Sprintf("Half of %s done; %d tests added", area, r%13+1))
	if err != nil {
		return "", fmt.Errorf("record progress: %w", err)
	}
	t = value(progressed).Task
	if r%5 == 0 {
		if t, err = m.handoff(ctx, holder, other, t); err != nil {
			return "", err
		}
		holder = other
	}
	done, err := m.st.CompleteTask(ctx, store.SessionActor(cred(holder)), store.CompleteInput{
		Lease: lease(m.ws, t, m.nextKey()), Summary: fmt.Sprintf("%s pass %d done: tests green, docs updated", area, r)})
	if err != nil {
		return "", fmt.Errorf("complete task: %w", err)
	}
	if t = value(done).Task; t.ReviewStatus != store.ReviewPending {
		return t.ID, nil
	}
	_, err = m.st.ReviewTask(ctx, cred(owner), store.ReviewInput{WorkspaceID: m.ws, TaskID: t.ID,
		IdempotencyKey: m.nextKey(), ExpectedVersion: t.Version, Outcome: "accept", Summary: "Read the diff and ran the tests; accepted"})
	if err != nil {
		return "", fmt.Errorf("review task: %w", err)
	}
	return t.ID, nil
}

// handoff offers t from holder to other, who accepts it.
func (m *mix) handoff(ctx context.Context, holder, other store.StartedSession, t store.Task) (store.Task, error) {
	to := other.Session.ID
	offered, err := m.st.OfferHandoff(ctx, store.SessionActor(cred(holder)), store.OfferInput{
		Lease: lease(m.ws, t, m.nextKey()), ToSessionID: &to, Summary: "Parser half done; take the rest, notes in the report"})
	if err != nil {
		return t, fmt.Errorf("offer handoff: %w", err)
	}
	h := value(offered)
	accepted, err := m.st.RespondToHandoff(ctx, store.SessionActor(cred(other)), store.RespondInput{WorkspaceID: m.ws,
		HandoffID: h.Handoff.ID, IdempotencyKey: m.nextKey(), ExpectedVersion: h.Task.Version, Response: "accept"})
	if err != nil {
		return t, fmt.Errorf("accept handoff: %w", err)
	}
	return value(accepted).Task, nil
}

// report posts one report, every third one addressed to a session and
// every other one about the round's task.
func (m *mix) report(ctx context.Context, from, to store.StartedSession, task string, i int) error {
	in := store.AppendReportInput{IdempotencyKey: m.nextKey(), Kind: reportKinds[i%len(reportKinds)],
		Body: fmt.Sprintf("Round %d note %d: checked the %s path; the edge case with empty input behaves, "+
			"the error message names the field. Next: the retry path.", m.rounds, i, areas[(int(m.rounds)+i)%len(areas)])}
	if i%2 == 0 {
		in.TaskID = &task
	}
	if in.Kind == "decision" {
		scope, basis := "this round's task", "the task's owner asked for it"
		in.AuthorityScope, in.AuthorityBasis = &scope, &basis
	}
	if i%3 == 0 {
		id := to.Session.ID
		in.ToSessionID = &id
	}
	if _, err := m.st.AppendReport(ctx, cred(from), in); err != nil {
		return fmt.Errorf("append report: %w", err)
	}
	return nil
}

// independence takes an independence claim on a task and ends it as the
// claim is meant to end: the claimant posts its own finding on the task,
// which releases the claim (independence.released, released_by_finding).
// An explicit collab_independence_release is not in the mix: it lists
// every report the claim withheld by reading every report of the
// workspace, so it costs O(history) per call (noted for the store).
func (m *mix) independence(ctx context.Context, who store.StartedSession, task string) error {
	ttl := int64(1800)
	if _, err := m.st.ClaimIndependence(ctx, cred(who), store.ClaimIndependenceInput{TaskID: &task, TTLSeconds: &ttl}); err != nil {
		return fmt.Errorf("claim independence: %w", err)
	}
	in := store.AppendReportInput{IdempotencyKey: m.nextKey(), Kind: "inference", TaskID: &task,
		Body: fmt.Sprintf("Round %d, checked blind: rebuilt the change from the task alone and reached the same result.", m.rounds)}
	if _, err := m.st.AppendReport(ctx, cred(who), in); err != nil {
		return fmt.Errorf("post independent finding: %w", err)
	}
	return nil
}

func lease(ws string, t store.Task, key string) store.LeaseInput {
	var id string
	if t.LeaseID != nil {
		id = *t.LeaseID
	}
	return store.LeaseInput{WorkspaceID: ws, TaskID: t.ID, LeaseID: id, IdempotencyKey: key, ExpectedVersion: t.Version}
}

// value is a fresh mutation's answer (the generator never replays).
func value[T any](a interface{ Value() (T, bool) }) T {
	v, _ := a.Value()
	return v
}
