package store

// Actor is who is acting on the store: a credential-bound session, or, in
// the legacy plane, a bare actor label. Every mutation that exists in both
// planes takes one Actor instead of a credential, a credential pointer or a
// label: the plane decides the receipt scope (session:<id> or the label),
// the validation order and the refusal codes, exactly as the two tool
// planes document them. The zero value is the legacy plane with an empty
// label, which every mutation refuses (invalid actor).
type Actor struct {
	cred  *Credential
	label string
}

// SessionActor acts as the session cred authenticates.
func SessionActor(cred Credential) Actor { return Actor{cred: &cred} }

// LabelActor acts in the legacy plane under label (normalised and checked
// by each mutation, in its own validation order).
func LabelActor(label string) Actor { return Actor{label: label} }

// Session returns the credential of a session actor; ok is false in the
// legacy plane.
func (a Actor) Session() (cred Credential, ok bool) {
	if a.cred == nil {
		return Credential{}, false
	}
	return *a.cred, true
}

// Label returns the legacy actor label as given ("" for a session actor).
func (a Actor) Label() string { return a.label }
