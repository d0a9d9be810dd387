package normalize

// LoadTable lets the black-box tests read the same ground-truth tables.
var LoadTable = loadTable
