package provenance

import "strings"

// Issuer is the OIDC issuer of GitHub Actions identity tokens.
const Issuer = "https://token.actions.githubusercontent.com"

// Build types and builder IDs of the two producers.
const (
	// NPMBuildType and NPMBuilderPrefix are what npm's CLI writes.
	NPMBuildType     = "https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1"
	NPMBuilderPrefix = "https://github.com/actions/runner/"
	// GitHubBuildType is what actions/attest-build-provenance writes; its
	// builder ID is the workflow identity itself.
	GitHubBuildType = "https://actions.github.io/buildtypes/workflow/v1"
)

// Shape says which producer made a statement.
type Shape int

const (
	// NPM is `npm publish --provenance`.
	NPM Shape = iota
	// GitHub is a GitHub artifact attestation.
	GitHub
)

// String names the producer, for messages.
func (s Shape) String() string {
	if s == NPM {
		return "npm provenance"
	}
	return "GitHub attestation"
}

// Expect is who must have signed a release and from where.
type Expect struct {
	Repo     string // owner/name on github.com
	Workflow string // workflow file path in the repository
	Ref      string // refs/tags/vX.Y.Z
	Commit   string // the tag's commit; empty leaves it unchecked
	Runner   string // npm builder runner environment, normally "github-hosted"
}

// RepoURL is the repository's URL as statements and certificates write it.
func (e Expect) RepoURL() string { return "https://github.com/" + e.Repo }

// Identity is the signing certificate's URI SAN: the workflow at the ref.
func (e Expect) Identity() string {
	return e.RepoURL() + "/" + strings.TrimPrefix(e.Workflow, "/") + "@" + e.Ref
}

// BuilderID is the runDetails.builder.id a statement of shape s must carry.
func (e Expect) BuilderID(s Shape) string {
	if s == NPM {
		return NPMBuilderPrefix + e.Runner
	}
	return e.Identity()
}

// BuildType is the buildType a statement of shape s must carry.
func (e Expect) BuildType(s Shape) string {
	if s == NPM {
		return NPMBuildType
	}
	return GitHubBuildType
}

// SourceURI is the resolvedDependencies URI of the checkout.
func (e Expect) SourceURI() string { return "git+" + e.RepoURL() + "@" + e.Ref }
