package store

// RepositoryAt is repositoryAt, the rule the path guard finds a root
// path's repository by.
var RepositoryAt = repositoryAt
