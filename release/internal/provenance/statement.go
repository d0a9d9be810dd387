// Package provenance checks the two kinds of SLSA v1 provenance a release
// carries, both in-toto statements signed as Sigstore bundles by the release
// workflow's GitHub Actions identity:
//
//   - npm's, made by `npm publish --provenance`: one subject named by the
//     package URL with the tarball's sha512;
//   - GitHub artifact attestations, made by actions/attest-build-provenance:
//     subjects named by file name with their sha256.
//
// A bundle passes only if Sigstore verification against a pinned trusted root
// succeeds for the expected workflow identity and the statement's subjects,
// builder, workflow, repository and ref are exactly the expected ones.
package provenance

import (
	"encoding/json"
	"fmt"
)

// Statement and predicate type URIs.
const (
	StatementV1   = "https://in-toto.io/Statement/v1"
	SLSAv1        = "https://slsa.dev/provenance/v1"
	PayloadInToto = "application/vnd.in-toto+json"
)

// Statement is an in-toto v1 statement with an SLSA v1 provenance predicate.
type Statement struct {
	Type          string    `json:"_type"`
	Subject       []Subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     Predicate `json:"predicate"`
}

// Subject is one artifact a statement is about.
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Predicate holds the SLSA v1 fields this release checks.
type Predicate struct {
	BuildDefinition BuildDefinition `json:"buildDefinition"`
	RunDetails      RunDetails      `json:"runDetails"`
}

// BuildDefinition is SLSA v1 buildDefinition.
type BuildDefinition struct {
	BuildType            string               `json:"buildType"`
	ExternalParameters   ExternalParameters   `json:"externalParameters"`
	InternalParameters   json.RawMessage      `json:"internalParameters,omitempty"`
	ResolvedDependencies []ResolvedDependency `json:"resolvedDependencies"`
}

// ExternalParameters names the workflow that ran.
type ExternalParameters struct {
	Workflow Workflow `json:"workflow"`
}

// Workflow is the GitHub Actions workflow of a build.
type Workflow struct {
	Ref        string `json:"ref"`
	Repository string `json:"repository"`
	Path       string `json:"path"`
}

// ResolvedDependency is the source checkout of a build.
type ResolvedDependency struct {
	URI    string            `json:"uri"`
	Digest map[string]string `json:"digest"`
}

// RunDetails is SLSA v1 runDetails.
type RunDetails struct {
	Builder  Builder         `json:"builder"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Builder identifies what ran the build.
type Builder struct {
	ID string `json:"id"`
}

// ParseStatement decodes a DSSE payload as a statement.
func ParseStatement(payload []byte) (Statement, error) {
	var s Statement
	if err := json.Unmarshal(payload, &s); err != nil {
		return Statement{}, fmt.Errorf("parse in-toto statement: %w", err)
	}
	return s, nil
}
