package render

// The host files (manifests, marketplaces, skills, docs/hosts.md) are
// rewritten by hostgen; TestGeneratedFilesAreCurrent fails when one is stale.
//go:generate go run ./hostgen -root ../..
