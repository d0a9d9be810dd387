package provenancetest

import (
	"encoding/json"

	"github.com/agenttool/collab/release/internal/provenance"
)

// Statement returns the provenance statement a producer of the given shape
// writes for id's run: npm's CLI (builder = the hosted runner) or
// actions/attest-build-provenance (builder = the workflow identity).
func Statement(shape provenance.Shape, id Identity, subjects []provenance.Subject) provenance.Statement {
	e := provenance.Expect{Repo: id.Repo, Workflow: id.Workflow, Ref: id.Ref, Runner: "github-hosted"}
	return provenance.Statement{
		Type:          provenance.StatementV1,
		Subject:       subjects,
		PredicateType: provenance.SLSAv1,
		Predicate: provenance.Predicate{
			BuildDefinition: provenance.BuildDefinition{
				BuildType: e.BuildType(shape),
				ExternalParameters: provenance.ExternalParameters{Workflow: provenance.Workflow{
					Ref: id.Ref, Repository: e.RepoURL(), Path: id.Workflow,
				}},
				InternalParameters: json.RawMessage(`{"github":{"event_name":"push","repository_id":"1","repository_owner_id":"2"}}`),
				ResolvedDependencies: []provenance.ResolvedDependency{{
					URI: e.SourceURI(), Digest: map[string]string{"gitCommit": id.Commit},
				}},
			},
			RunDetails: provenance.RunDetails{
				Builder:  provenance.Builder{ID: e.BuilderID(shape)},
				Metadata: json.RawMessage(`{"invocationId":"https://github.com/` + id.Repo + `/actions/runs/1/attempts/1"}`),
			},
		},
	}
}

// Payload encodes a statement as a DSSE payload.
func Payload(st provenance.Statement) []byte {
	b, _ := json.Marshal(st) // plain structs and raw JSON literals cannot fail
	return b
}
