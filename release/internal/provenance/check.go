package provenance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// CheckStatement compares a statement's type, builder, workflow, repository,
// ref and source with what e expects for a statement of shape s.
func CheckStatement(st Statement, s Shape, e Expect) error {
	bd := st.Predicate.BuildDefinition
	wf := bd.ExternalParameters.Workflow
	fields := []struct{ name, got, want string }{
		{"_type", st.Type, StatementV1},
		{"predicateType", st.PredicateType, SLSAv1},
		{"buildType", bd.BuildType, e.BuildType(s)},
		{"builder.id", st.Predicate.RunDetails.Builder.ID, e.BuilderID(s)},
		{"workflow.repository", wf.Repository, e.RepoURL()},
		{"workflow.ref", wf.Ref, e.Ref},
		{"workflow.path", wf.Path, e.Workflow},
	}
	for _, f := range fields {
		if f.got != f.want {
			return fmt.Errorf("%s: %s is %q, want %q", s, f.name, f.got, f.want)
		}
	}
	if len(bd.ResolvedDependencies) != 1 {
		return fmt.Errorf("%s: %d resolved dependencies, want the one source checkout", s, len(bd.ResolvedDependencies))
	}
	src := bd.ResolvedDependencies[0]
	if src.URI != e.SourceURI() {
		return fmt.Errorf("%s: source %q, want %q", s, src.URI, e.SourceURI())
	}
	if e.Commit != "" && src.Digest["gitCommit"] != e.Commit {
		return fmt.Errorf("%s: source commit %q, want %q", s, src.Digest["gitCommit"], e.Commit)
	}
	return nil
}

// CheckSubjects requires the statement's subjects to be exactly want: the
// same names, each with exactly the one digest algorithm and value given.
func CheckSubjects(st Statement, want []Subject) error {
	got := map[string]map[string]string{}
	for _, sub := range st.Subject {
		if _, dup := got[sub.Name]; dup {
			return fmt.Errorf("subject %q appears twice", sub.Name)
		}
		got[sub.Name] = sub.Digest
	}
	for _, w := range want {
		g, ok := got[w.Name]
		if !ok {
			return fmt.Errorf("no subject named %q (subjects: %s)", w.Name, strings.Join(slices.Sorted(maps.Keys(got)), ", "))
		}
		for alg, sum := range w.Digest {
			if g[alg] != sum {
				return fmt.Errorf("subject %q has %s %q, want %q", w.Name, alg, g[alg], sum)
			}
		}
		delete(got, w.Name)
	}
	if len(got) > 0 {
		return fmt.Errorf("unexpected subjects: %s", strings.Join(slices.Sorted(maps.Keys(got)), ", "))
	}
	return nil
}
