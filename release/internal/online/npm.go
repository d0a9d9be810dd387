package online

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/verify"
)

// versionDoc is the part of the registry's version document used here.
type versionDoc struct {
	Dist struct {
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
	} `json:"dist"`
}

// attestationsDoc is the registry's /-/npm/v1/attestations answer.
type attestationsDoc struct {
	Attestations []struct {
		PredicateType string          `json:"predicateType"`
		Bundle        json.RawMessage `json:"bundle"`
	} `json:"attestations"`
}

func (c Config) fetchNPM(ctx context.Context, name, version string, in *verify.Inputs) error {
	var doc versionDoc
	if err := c.getJSON(ctx, join(c.Registry, escapeName(name), version), false, &doc); err != nil {
		return err
	}
	if doc.Dist.Tarball == "" || doc.Dist.Integrity == "" {
		return fmt.Errorf("%s@%s has no dist.tarball or dist.integrity", name, version)
	}
	in.NPMIntegrity = doc.Dist.Integrity
	in.NPMTarball = filepath.Join(c.Dir, "npm", pkgjson.TarballName(name, version))
	if _, err := c.get(ctx, doc.Dist.Tarball, in.NPMTarball, false); err != nil {
		return err
	}
	var att attestationsDoc
	if err := c.getJSON(ctx, join(c.Registry, "-/npm/v1/attestations", escapeName(name)+"@"+version), false, &att); err != nil {
		return err
	}
	for _, a := range att.Attestations {
		if a.PredicateType == provenance.SLSAv1 {
			in.NPMBundle = filepath.Join(c.Dir, "npm", "provenance.sigstore.json")
			return os.WriteFile(in.NPMBundle, a.Bundle, 0o644)
		}
	}
	return fmt.Errorf("%s@%s has no SLSA provenance attestation", name, version)
}
