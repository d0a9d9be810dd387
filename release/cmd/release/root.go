package main

import (
	"errors"
	"os"
	"path/filepath"
)

// findRoot returns dir if given, else the nearest directory at or above the
// working directory that holds .goreleaser.yaml: the repository root.
func findRoot(dir string) (string, error) {
	if dir != "" {
		return filepath.Abs(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".goreleaser.yaml")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no .goreleaser.yaml above the working directory; pass -root")
		}
	}
}
